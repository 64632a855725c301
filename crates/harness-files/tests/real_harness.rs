//! Reprise's readers and writers of the harness's files against the real
//! harness: `scripts/bench-env`, the aggregator embedded in `scripts/bench`
//! and `scripts/bench-report`, taken from the Roundhouse mirror bundle
//! (../shared/mirrors, or `REPRISE_MIRRORS`) and run with Debian's Ruby.
//! What they write, Reprise reads; what Reprise writes, they read, byte for
//! byte where the harness's output is deterministic.

mod real_scripts;

use std::time::SystemTime;

use reprise_harness_files::bench_env::BenchEnv;
use reprise_harness_files::{per_run, summary};
use reprise_probe::Fingerprint;
use reprise_recipe::Metric;
use reprise_verdict::{CellKey, LaneInfo, Measurements, Repetition};
use serde_json::Value;

use real_scripts::*;

fn assert_same_summary(per_run: &str) {
    let (json, md) = real_aggregate(per_run);
    let ours = summary::aggregate(per_run).unwrap();
    assert_eq!(ours.json(), json, "summary.json differs for\n{per_run}");
    assert_eq!(ours.markdown(), md, "summary.md differs for\n{per_run}");
}

#[test]
fn summary_is_the_real_aggregators_on_the_harness_s_own_lines() {
    // Lines as scripts/bench writes them: wrk's two-decimal rates, "%.3f"
    // latencies, integer RSS medians; cells interleaved; a run whose server
    // died (req_sec null, rss_kb 0); an even number of runs.
    let per_run = r#"{"target":"ruby","workers":1,"endpoint":"/rooms/1","run":1,"rss_kb":183240,"req_sec":478.12,"p50_ms":30.125,"p99_ms":61.205}
{"target":"ruby","workers":1,"endpoint":"/rooms/1","run":2,"rss_kb":183512,"req_sec":482.57,"p50_ms":29.875,"p99_ms":60.115}
{"target":"ruby","workers":1,"endpoint":"/rooms/1","run":3,"rss_kb":0,"req_sec":null,"p50_ms":null,"p99_ms":null}
{"target":"rails","workers":8,"endpoint":"/rooms/1","run":1,"rss_kb":1048576,"req_sec":318.5,"p50_ms":44.005,"p99_ms":120.335}
{"target":"ruby","workers":1,"endpoint":"/up","run":1,"rss_kb":183000,"req_sec":9012.25,"p50_ms":1.015,"p99_ms":2.675}
{"target":"rails","workers":8,"endpoint":"/rooms/1","run":2,"rss_kb":1048577,"req_sec":320.5,"p50_ms":44.015,"p99_ms":121.665}
{"target":"ruby","workers":8,"endpoint":"/up","run":1,"rss_kb":0,"req_sec":null,"p50_ms":null,"p99_ms":null}
{"target":"jruby","workers":1,"endpoint":"/up","run":1,"rss_kb":1677721,"req_sec":12000,"p50_ms":0.005,"p99_ms":0.0001}
"#;
    assert_same_summary(per_run);
}

#[test]
fn summary_is_the_real_aggregators_on_reprise_s_own_lines() {
    // A Reprise run's measurements, rendered and aggregated: a lane without
    // workers (nginx), a run with errors, memory per run, Reprise's extra
    // fields on each line.
    let mut m = Measurements::default();
    for (lane, target, workers) in [("puma", "puma", Some(2)), ("nginx", "nginx", None)] {
        m.lanes.insert(
            lane.into(),
            LaneInfo {
                target: target.into(),
                workers,
                warmup_sec: Some(5.0),
            },
        );
        for run in 1..=3u32 {
            let errors = if lane == "nginx" && run == 2 { 4 } else { 0 };
            let f = f64::from(run);
            for (metric, value) in [
                (Metric::ReqPerS, 21000.0 + 333.33 * f),
                (Metric::P50Ms, 0.7 + 0.005 * f),
                (Metric::P99Ms, 2.5 + 0.125 * f),
                (Metric::RssMb, 80.0 + f / 3.0),
                (Metric::PssMb, 60.0 + f),
            ] {
                m.push_run(
                    CellKey::new(lane, Some("/"), metric),
                    Repetition {
                        run,
                        value: Some(value),
                        errors,
                        client_cpu: Some(0.4),
                        server_cpu: None,
                        first_attempt_taken: None,
                    },
                );
            }
        }
    }
    let lines = per_run::render(&m);
    assert!(
        lines.contains(r#"{"target":"nginx","workers":1,"endpoint":"/","run":2,"rss_kb":"#),
        "{lines}"
    );
    assert!(
        lines.contains(r#""req_sec":null"#),
        "a run with errors has no rate: {lines}"
    );
    assert_same_summary(&lines);
}

#[test]
fn summary_is_the_real_aggregators_over_many_numbers() {
    // Rates, latencies and memory of every size, ties at the printed digit
    // included: the numbers are printed exactly as Ruby prints them.
    let mut seed: u64 = 0x5eed;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let mut per_run = String::new();
    for cell in 0..150 {
        let runs = 1 + next(4);
        for run in 1..=runs {
            let rate = match next(3) {
                0 => format!("{}.{:02}", next(200_000), next(100)),
                1 => format!("{}.5", next(3000)),
                _ => format!("{}", next(100)),
            };
            let p50 = format!("{}.{:03}", next(50), next(1000));
            let p99 = format!("{}.{}5", next(500), next(100));
            let rss = if next(10) == 0 {
                0
            } else {
                1 + next(20_000_000)
            };
            per_run.push_str(&format!(
                "{{\"target\":\"t{}\",\"workers\":{},\"endpoint\":\"/e{}\",\"run\":{run},\"rss_kb\":{rss},\"req_sec\":{rate},\"p50_ms\":{p50},\"p99_ms\":{p99}}}\n",
                cell % 7,
                1 + cell % 3,
                cell % 11
            ));
        }
    }
    assert_same_summary(&per_run);
}

/// A git checkout to run bench-env in, as scripts/bench runs it in its own.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        succeed(
            std::process::Command::new("git")
                .args([
                    "-c",
                    "user.name=Reprise Test",
                    "-c",
                    "user.email=test@example.com",
                ])
                .args(args)
                .current_dir(dir.path()),
        );
    };
    git(&["init", "-q", "-b", "main"]);
    std::fs::write(dir.path().join("README"), "x\n").unwrap();
    git(&["add", "README"]);
    git(&["commit", "-q", "-m", "bench: nightly"]);
    dir
}

/// An env.json without what changes from one second to the next: the
/// times, the load and the uptime line, the current clock, and lscpu's
/// current-frequency rows.
fn settled(mut env: Value) -> Value {
    let obj = env.as_object_mut().unwrap();
    obj.remove("captured_at");
    obj.remove("conditions");
    if let Some(clock) = obj.get_mut("clock").and_then(Value::as_object_mut) {
        clock.remove("cur_khz");
    }
    fn drop_mhz(v: &mut Value) {
        if let Some(rows) = v.as_array_mut() {
            rows.retain(|r| !r["field"].as_str().is_some_and(|f| f.contains("MHz")));
            for r in rows {
                drop_mhz(&mut r["children"]);
            }
        }
    }
    if let Some(lscpu) = obj.get_mut("cpu").and_then(|c| c.get_mut("lscpu")) {
        drop_mhz(&mut lscpu["lscpu"]);
    }
    env
}

#[test]
fn reprise_s_env_json_is_bench_env_s_field_for_field() {
    let repo = checkout();
    let theirs: Value =
        serde_json::from_str(&bench_env_here(repo.path(), &BENCH_ENV_ARGS)).unwrap();
    let ours = BenchEnv::capture(
        Some(repo.path()),
        Some(bench_env_harness()),
        SystemTime::now(),
    );
    let ours: Value = serde_json::from_str(&ours.to_json()).unwrap();
    assert_eq!(
        theirs["harness"],
        bench_env_harness(),
        "the invocation as bench-env records it"
    );
    let (theirs, ours) = (settled(theirs), settled(ours));
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut sorted_keys = keys(&theirs);
    sorted_keys.sort();
    let mut ours_keys = keys(&ours);
    ours_keys.sort();
    assert_eq!(ours_keys, sorted_keys, "the same top-level fields");
    for key in keys(&theirs) {
        assert_eq!(ours[&key], theirs[&key], "`{key}` differs from bench-env's");
    }
    // What this machine has, bench-env found: lscpu's rows and the toolchains.
    assert!(theirs["cpu"]["lscpu"]["lscpu"].is_array(), "{theirs}");
    assert!(
        theirs["toolchains"]["ruby"]
            .as_str()
            .unwrap()
            .starts_with("ruby "),
        "{theirs}"
    );
}

#[test]
fn bench_env_s_file_reads_as_this_machine() {
    let repo = checkout();
    let text = bench_env_here(repo.path(), &[]);
    let env = BenchEnv::parse(&text).unwrap();
    let read = env.to_fingerprint();
    let here = Fingerprint::probe();
    assert_eq!(read.cpu.brand, here.cpu.brand);
    assert_eq!(read.cpu.logical_threads, here.cpu.logical_threads);
    assert_eq!(read.cpu.physical_cores, here.cpu.physical_cores);
    assert_eq!(read.cpu.smt_active, here.cpu.smt_active);
    assert_eq!(read.os.pretty_name, here.os.pretty_name);
    assert_eq!(read.os.kernel, here.os.kernel);
    assert_eq!(
        read.virtualization.virtual_machine,
        here.virtualization.virtual_machine
    );
    assert_eq!(read.memory.total_mib(), here.memory.total_mib());
    let tools = env.to_toolchains();
    assert!(tools.recorded);
    assert!(tools.get("ruby").unwrap().version().is_some());
    assert!(
        tools.get("yjit").is_none(),
        "bench-env does not record yjit"
    );
}

#[test]
fn the_posts_machine_as_bench_env_writes_it_reads_as_the_posts_machine() {
    let repo = checkout();
    let env = BenchEnv::parse(&bench_env_on_posts_machine(repo.path(), &BENCH_ENV_ARGS)).unwrap();
    let fp = env.to_fingerprint();
    assert_eq!(
        fp.cpu.brand.as_deref(),
        Some("AMD Ryzen 5 3600 6-Core Processor")
    );
    assert_eq!(
        (fp.cpu.physical_cores, fp.cpu.logical_threads),
        (Some(6), Some(12))
    );
    assert_eq!(fp.cpu.smt_active, Some(true));
    assert_eq!(fp.clock.boost, Some(false), "boost \"0\"");
    assert_eq!(fp.clock.governor.as_deref(), Some("performance"));
    assert_eq!(fp.memory.total_mib(), Some(64_237));
    assert_eq!(fp.os.pretty_name.as_deref(), Some("Ubuntu 24.04.5 LTS"));
    assert_eq!(fp.virtualization.virtual_machine, Some(false));
    assert_eq!(fp.virtualization.dmi_product.as_deref(), Some("MS-7C02"));
    let v: Value = serde_json::from_str(&env.to_json()).unwrap();
    assert_eq!(v["cpu"]["board_name"], "B450 TOMAHAWK MAX");
}

#[test]
fn boost_one_is_boost_on_and_an_unprobed_boost_is_unknown() {
    let with = |clock: &str| {
        BenchEnv::parse(&format!(r#"{{"clock": {clock}}}"#))
            .unwrap()
            .to_fingerprint()
            .clock
            .boost
    };
    assert_eq!(with(r#"{"boost": "1"}"#), Some(true));
    assert_eq!(with(r#"{"boost": "0"}"#), Some(false));
    assert_eq!(with(r#"{"governor": "performance"}"#), None);
}

#[test]
fn the_real_bench_report_renders_reprise_s_summary() {
    // bench-report whitelists its own targets (the blog's languages), so it
    // renders Reprise's cells as "0 endpoints × 0 targets": the tool's
    // limit, which docs/reproduce.md states. What is checked here is that it reads
    // Reprise's summary.json and env.json without error.
    let repo = checkout();
    let dir = tempfile::tempdir().unwrap();
    let mut m = Measurements::default();
    m.lanes.insert(
        "ruby".into(),
        LaneInfo {
            target: "ruby".into(),
            workers: Some(1),
            warmup_sec: None,
        },
    );
    for run in 1..=3 {
        m.push_run(
            CellKey::new("ruby", Some("/rooms/1"), Metric::ReqPerS),
            Repetition {
                run,
                value: Some(470.0 + f64::from(run)),
                errors: 0,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
    let per_run = per_run::render(&m);
    std::fs::write(dir.path().join("per-run.json"), &per_run).unwrap();
    std::fs::write(
        dir.path().join("summary.json"),
        summary::aggregate(&per_run).unwrap().json(),
    )
    .unwrap();
    let env = BenchEnv::capture(
        Some(repo.path()),
        Some(bench_env_harness()),
        SystemTime::now(),
    );
    std::fs::write(dir.path().join("env.json"), env.to_json()).unwrap();
    succeed(
        std::process::Command::new("ruby")
            .arg(&scripts().bench_report)
            .arg(dir.path().join("summary.json"))
            .current_dir(dir.path()),
    );
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(html.contains("<html"), "bench-report wrote no HTML: {html}");
    assert!(
        html.contains("0 endpoints"),
        "bench-report's own target list: {html}"
    );
}
