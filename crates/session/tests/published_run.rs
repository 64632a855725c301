//! A published run as the real harness leaves it — env.json from the real
//! `scripts/bench-env`, per-run.json in `scripts/bench`'s lines, the real
//! aggregator's summary.json — judged against `campfire-runtimes`: absolute
//! claims are judged on the posts' machine and refused elsewhere with the
//! reason naming the CPU and the thread count; memory claims are judged from
//! the per-run RSS; the harness's `ruby` cells at one worker are the
//! recipe's `ruby-1p` lane by its explicit mapping.

#[path = "../../harness-files/tests/real_scripts/mod.rs"]
mod real_scripts;

use std::path::{Path, PathBuf};

use reprise_recipe::Recipe;
use reprise_report::{Report, RunInfo};
use reprise_session::judge::judge_results_dir;
use reprise_verdict::{Outcome, Settings};

use real_scripts::*;

fn campfire_runtimes() -> Recipe {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../recipes/campfire-runtimes.toml");
    reprise_recipe::load(&file).expect("the campfire-runtimes recipe loads")
}

/// per-run.json as scripts/bench writes it: target and workers name a
/// cell; rates near the post's, and memory per run (kB).
fn per_run() -> String {
    let cells: [(&str, u32, &str, f64, u64); 6] = [
        ("rails", 8, "/rooms/1", 318.0, 1_048_576),
        ("ruby", 8, "/rooms/1", 2366.0, 1_048_576),
        ("ruby", 1, "/rooms/1", 478.0, 237_568),
        ("ruby", 1, "/rooms/1/messages", 985.0, 238_000),
        ("jruby", 1, "/rooms/1", 1712.0, 1_677_721),
        ("jruby", 1, "/rooms/1/messages", 3545.0, 1_680_000),
    ];
    let mut lines = String::new();
    for (target, workers, endpoint, rate, rss) in cells {
        for (run, wobble) in [(1, -0.004), (2, 0.0), (3, 0.003)] {
            lines.push_str(&format!(
                "{{\"target\":\"{target}\",\"workers\":{workers},\"endpoint\":\"{endpoint}\",\"run\":{run},\"rss_kb\":{},\"req_sec\":{:.2},\"p50_ms\":{:.3},\"p99_ms\":{:.3}}}\n",
                rss + run * 512,
                rate * (1.0 + wobble),
                16_000.0 / rate,
                48_000.0 / rate,
            ));
        }
    }
    lines
}

/// A published run's folder: env.json written by the real bench-env with
/// `bench_env`, per-run.json, and the real aggregator's summaries.
fn published(bench_env: fn(&Path, &[&str]) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let lines = per_run();
    std::fs::write(dir.path().join("per-run.json"), &lines).unwrap();
    let (json, md) = real_aggregate(&lines);
    std::fs::write(dir.path().join("summary.json"), json).unwrap();
    std::fs::write(dir.path().join("summary.md"), md).unwrap();
    let env = bench_env(dir.path(), &BENCH_ENV_ARGS);
    std::fs::write(dir.path().join("env.json"), env).unwrap();
    dir
}

fn judged(dir: &Path) -> Report {
    let recipe = campfire_runtimes();
    judge_results_dir(
        &recipe,
        dir,
        None,
        RunInfo::for_recipe(&recipe, "published", "2026-09-22T03:00:12Z"),
        &Settings::default(),
    )
    .unwrap()
}

#[test]
fn on_the_posts_machine_absolute_claims_are_judged() {
    let dir = published(bench_env_on_posts_machine);
    let report = judged(dir.path());
    let j = &report.judgement;
    for claim in [
        "jruby-rooms-abs",
        "ruby-rooms-abs",
        "ruby-1p-rooms-abs",
        "jruby-messages-abs",
    ] {
        let v = j.verdict(claim).unwrap();
        assert_eq!(v.outcome, Outcome::Reproduced, "{claim}: {}", v.reasoning());
    }
    // ruby at one worker is ruby-1p by the recipe's mapping, not ruby.
    let v = j.verdict("jruby-3.6x-ruby-1p").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    // Memory from per-run RSS: ruby-1p at ~232 MB, jruby above ruby.
    let v = j.verdict("ruby-1p-memory-abs").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    let v = j.verdict("jruby-memory-above-ruby").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    // Lanes the run did not have are not measured, not inconclusive.
    let v = j.verdict("spinel-rooms-abs").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
}

#[test]
fn on_another_machine_absolute_claims_are_refused_naming_its_cpu_and_threads() {
    let dir = published(bench_env_here);
    let here = reprise_probe::Fingerprint::probe();
    let cpu = here.cpu.brand.clone().expect("this machine's CPU model");
    let threads = here
        .cpu
        .logical_threads
        .expect("this machine's thread count");
    let report = judged(dir.path());
    let v = report.judgement.verdict("jruby-rooms-abs").unwrap();
    assert_eq!(v.outcome, Outcome::NotComparable, "{}", v.reasoning());
    let reprise_verdict::Why::MachineDiffers { differences, .. } = &v.why else {
        panic!("not set aside for the machine: {:?}", v.why);
    };
    let here_of = |wanted: &str| {
        differences.iter().find_map(|d| match d {
            reprise_verdict::MachineDifference::Item { item, here, .. } if item == wanted => {
                here.clone()
            }
            _ => None,
        })
    };
    assert_eq!(here_of("CPU"), Some(cpu), "{differences:?}");
    assert!(
        here_of("cores/threads").is_some_and(|h| h.contains(&format!("{threads} threads"))),
        "the {threads} threads: {differences:?}"
    );
    // Ratios between lanes measured on one machine still compare.
    let v = report.judgement.verdict("jruby-3.6x-ruby-1p").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
}
