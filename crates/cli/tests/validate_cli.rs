//! `reprise validate` as a user runs it on this machine: a real `--quick`
//! validation (the real reference server and load generator on loopback),
//! its JSON profile, the history entry, and the comparison of two profiles.
//! The figures are checked for shape and plausibility, never for speed.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn reprise(data_dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_DATA_DIR", data_dir)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

fn number(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what} is a number, not {v}"))
}

#[test]
fn a_quick_validation_reports_its_figures_saves_itself_and_compares_with_another_machine() {
    let data = tempfile::tempdir().unwrap();
    let out = reprise(data.path(), &["validate", "--quick", "--json"]);
    let stderr = text(&out.stderr);
    let p: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("JSON on stdout ({e}); stderr:\n{stderr}"));

    // The verdict decides the exit status: 1 only for "not suitable".
    let fitness = p["fitness"].as_str().unwrap();
    assert!(
        ["ready", "usable_with_caveats", "not_suitable"].contains(&fitness),
        "{fitness}"
    );
    assert_eq!(
        out.status.code(),
        Some(if fitness == "not_suitable" { 1 } else { 0 })
    );
    assert_eq!(p["mode"], "quick");
    let summary = p["summary"].as_str().unwrap();
    assert!(summary.starts_with("reprise validate: "), "{summary}");
    assert!(!summary.contains('\n'));
    // Every caveat is a check that is not ok.
    let flagged = p["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["level"] != "ok")
        .count();
    assert_eq!(p["caveats"].as_array().unwrap().len(), flagged);
    for id in [
        "governor",
        "boost",
        "smt",
        "cpus",
        "memory",
        "disk",
        "container_engine",
        "kernel_runs",
        "timer_lag",
        "ceiling",
    ] {
        assert!(
            p["checks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == id),
            "check {id} reported"
        );
    }

    // The ceiling: three runs with data, a median inside its spread.
    let c = &p["ceiling"];
    assert_eq!(c["connections"], 16);
    assert_eq!(c["body_bytes"], 13);
    let runs = c["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for run in runs {
        assert_eq!(run["errors"], 0, "{run}");
        assert!(number(&run["req_per_s"], "a run's req/s") > 0.0);
    }
    let median = number(&c["median_req_per_s"], "median");
    assert!(number(&c["min_req_per_s"], "min") <= median);
    assert!(median <= number(&c["max_req_per_s"], "max"));
    let cv = number(&c["cv"], "ceiling CV");
    assert!((0.0..1.0).contains(&cv), "{cv}");

    // Stability: kernel runs on every sampled CPU, their spread, the timer.
    let s = &p["stability"];
    let cores = s["cores"].as_array().unwrap();
    assert!(!cores.is_empty());
    for core in cores {
        assert_eq!(core["runs_ms"].as_array().unwrap().len(), 8);
        assert!(number(&core["median_ms"], "kernel median") > 0.0);
    }
    assert!(number(&s["run_cv"], "run CV") >= 0.0);
    assert!(number(&s["core_cv"], "core CV") >= 0.0);
    let timer = &s["timer"];
    assert_eq!(timer["sleeps"], 200);
    let (p50, p99) = (
        number(&timer["p50_ms"], "p50"),
        number(&timer["p99_ms"], "p99"),
    );
    assert!(0.0 <= p50 && p50 <= p99, "timer lag p50 {p50} p99 {p99}");
    let busy = number(&s["background"]["busy_percent"], "background");
    assert!((0.0..=100.0).contains(&busy), "{busy}");

    // Saved in the history like any run.
    let saved = stderr
        .split_whitespace()
        .skip_while(|w| *w != "saved")
        .nth(2)
        .unwrap_or_else(|| panic!("a saved id in:\n{stderr}"))
        .to_string();
    assert!(saved.starts_with("machine-"), "{saved}");
    let history = text(&reprise(data.path(), &["history"]).stdout);
    assert!(history.contains(&saved), "{history}");

    // Compared with a machine twice as fast on the ceiling.
    let this = data.path().join("this.json");
    std::fs::write(&this, &out.stdout).unwrap();
    let mut faster = p.clone();
    faster["ceiling"]["median_req_per_s"] = Value::from(median * 2.0);
    let other = data.path().join("other.json");
    std::fs::write(&other, serde_json::to_vec(&faster).unwrap()).unwrap();
    let cmp = reprise(
        data.path(),
        &[
            "validate",
            "--from",
            this.to_str().unwrap(),
            "--compare",
            other.to_str().unwrap(),
        ],
    );
    let shown = text(&cmp.stdout);
    assert!(shown.contains("ceiling 0.50× the other machine"), "{shown}");
    assert!(shown.contains("Verdict: "), "{shown}");
    assert!(shown.contains(summary), "{shown}");
    assert_eq!(cmp.status.code(), out.status.code());
}

#[test]
fn a_profile_that_cannot_be_read_is_bad_input() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("missing.json");
    let out = reprise(
        data.path(),
        &["validate", "--from", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("missing.json"),
        "{}",
        text(&out.stderr)
    );
    let junk = data.path().join("junk.json");
    std::fs::write(&junk, "{\"schema\": 1}").unwrap();
    let out = reprise(data.path(), &["validate", "--from", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a `reprise validate --json` profile"));
}
