//! A stored run written as the original harness's files, and read back.

#[path = "../../report/tests/fixture/mod.rs"]
mod fixture;

use reprise_session::harness_files;
use reprise_verdict::Measurements;

#[test]
fn harness_files_are_written_as_the_harness_writes_them() {
    let report = fixture::report("run-1");
    let dir = tempfile::tempdir().unwrap();
    harness_files::export(&report, dir.path()).unwrap();
    let per_run = std::fs::read_to_string(dir.path().join("per-run.json")).unwrap();
    assert_eq!(per_run.lines().count(), 9);
    let sorted = |mut m: Measurements| {
        m.cells.sort_by(|a, b| a.key.cmp(&b.key));
        m
    };
    // Read back, the same measurements, but for the rate of the run with
    // errors, which the harness's line gives as null.
    let mut expected = report.measurements.clone();
    for cell in &mut expected.cells {
        for run in &mut cell.runs {
            if run.errors > 0 && cell.key.metric() == reprise_recipe::Metric::ReqPerS {
                run.value = None;
            }
        }
    }
    assert_eq!(
        sorted(reprise_harness_files::per_run::parse(&per_run).unwrap()),
        sorted(expected)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    let row = |target: &str| {
        summary
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["target"] == target)
            .unwrap()
            .clone()
    };
    assert_eq!(row("puma")["req_sec"], 21000.0);
    assert_eq!(row("puma")["rss_mb"], 81.0);
    assert_eq!(row("puma")["runs"], 3);
    // 21,000 req/s in 81 MB: 265,481 req/s per GB.
    assert_eq!(
        row("puma")["rps_per_gb"].as_f64().unwrap().round(),
        265_481.0
    );
    // The harness's aggregation: the median of the runs that produced a
    // number (Reprise's verdicts still call the cell no data).
    assert_eq!(row("nginx")["req_sec"], 70550.0);
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(
        md.starts_with("# Benchmark results\n\n_9 measurements across 3 cells_"),
        "{md}"
    );
    assert!(md.contains("| puma | 2 | 21000 |"), "{md}");
    let env: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("env.json")).unwrap())
            .unwrap();
    assert_eq!(env["toolchains"]["ruby"], "3.1.2");
    assert_eq!(env["captured_at"], "2026-11-30T05:00:00Z");
}

#[test]
fn a_harness_env_json_passes_through_unchanged() {
    let mut report = fixture::report("run-1");
    report.environment.bench_env =
        serde_json::json!({"host": {"uname": "Linux"}, "memory_mb": 64000});
    let dir = tempfile::tempdir().unwrap();
    harness_files::export(&report, dir.path()).unwrap();
    let env: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("env.json")).unwrap())
            .unwrap();
    assert_eq!(env, report.environment.bench_env);
}

#[test]
fn the_machine_a_run_was_measured_on_is_read_from_its_env_json() {
    let mut report = fixture::report("run-1");
    report.environment.bench_env = serde_json::json!({
        "cpu": {"brand": "Test CPU", "logical": 2},
        "memory_mb": 64000
    });
    let machine = harness_files::measured_on(&report).expect("env.json records the machine");
    assert_eq!(machine.cpu.brand.as_deref(), Some("Test CPU"));
    assert_eq!(machine.cpu.logical_threads, Some(2));
    assert_eq!(machine.memory.total_kib, Some(64000 * 1024));
    // A run that recorded nothing of its machine has no machine to show.
    report.environment.bench_env = serde_json::Value::Null;
    report.environment.fingerprint = serde_json::Value::Null;
    assert_eq!(harness_files::measured_on(&report), None);
}
