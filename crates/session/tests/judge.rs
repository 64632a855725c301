//! A folder of the harness's files judged as `reprise verdict` judges it:
//! the lanes `skipped.json` lists are "not measured", with its reason.

use std::path::{Path, PathBuf};

use reprise_recipe::Recipe;
use reprise_report::RunInfo;
use reprise_session::judge::judge_results_dir;
use reprise_verdict::{MachineMatch, Outcome, Settings};

fn hello_ceiling() -> Recipe {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../recipes/hello-ceiling.toml");
    reprise_recipe::load(&file).expect("the hello-ceiling recipe loads")
}

/// Puma measured three times; Falcon skipped at preflight.
fn results(dir: &Path) {
    let mut lines = String::new();
    for (i, v) in [54_100.0, 53_600.0, 54_400.0].iter().enumerate() {
        lines.push_str(&format!(
            "{{\"target\":\"puma\",\"workers\":2,\"endpoint\":\"/\",\"run\":{},\"warmup_sec\":5,\"rss_kb\":81920,\"pss_kb\":61440,\"req_sec\":{v},\"p50_ms\":0.3,\"p99_ms\":1.2,\"socket_errors\":0}}\n",
            i + 1
        ));
    }
    std::fs::write(dir.join("per-run.json"), lines).unwrap();
    std::fs::write(
        dir.join("skipped.json"),
        r#"[{"target":"falcon","stage":"preflight","reason":"it needs falcon, which this machine lacks","log_tail":""}]"#,
    )
    .unwrap();
}

#[test]
fn a_lane_skipped_json_lists_is_not_measured_with_its_reason() {
    let recipe = hello_ceiling();
    let dir = tempfile::tempdir().unwrap();
    results(dir.path());
    let report = judge_results_dir(
        &recipe,
        dir.path(),
        Some(MachineMatch::Matches),
        RunInfo::for_recipe(&recipe, "run-1", "2026-11-30T05:00:00Z"),
        &Settings::default(),
    )
    .unwrap();
    let j = &report.judgement;
    for claim in ["falcon-ceiling", "falcon-twice-puma", "falcon-above-puma"] {
        let v = j.verdict(claim).unwrap();
        assert_eq!(v.outcome, Outcome::NotMeasured, "{claim}: {}", v.reason);
        assert_eq!(
            v.reason,
            "lane falcon was not measured (preflight): it needs falcon, which this machine lacks",
            "{claim}"
        );
    }
    // Puma was measured, on the post's machine: judged.
    assert_eq!(
        j.verdict("puma-ceiling").unwrap().outcome,
        Outcome::Reproduced
    );
    assert_eq!(
        report
            .measurements
            .not_measured
            .get("falcon")
            .map(String::as_str),
        Some("preflight: it needs falcon, which this machine lacks")
    );
    assert_eq!(
        report.tally().matches("3 not measured").count(),
        1,
        "{}",
        report.tally()
    );
}

#[test]
fn a_folder_without_skipped_json_says_the_lane_was_not_measured_in_this_run() {
    let recipe = hello_ceiling();
    let dir = tempfile::tempdir().unwrap();
    results(dir.path());
    std::fs::remove_file(dir.path().join("skipped.json")).unwrap();
    let report = judge_results_dir(
        &recipe,
        dir.path(),
        Some(MachineMatch::Matches),
        RunInfo::for_recipe(&recipe, "run-1", "2026-11-30T05:00:00Z"),
        &Settings::default(),
    )
    .unwrap();
    let v = report.judgement.verdict("falcon-ceiling").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reason);
    assert_eq!(v.reason, "lane falcon was not measured in this run");
}
