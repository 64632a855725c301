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
        assert_eq!(
            v.outcome,
            Outcome::NotMeasured,
            "{claim}: {}",
            v.reasoning()
        );
        assert_eq!(
            v.reasoning(),
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
        report.measurements.not_measured.get("falcon"),
        Some(&vec![reprise_verdict::LaneSkip {
            stage: Some("preflight".into()),
            because: "it needs falcon, which this machine lacks".into(),
        }])
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
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
    assert_eq!(v.reasoning(), "lane falcon was not measured in this run");
}

/// A folder of a campfire-runtimes run, as Reprise's check step writes it:
/// rails measured on the room page, and each lane's checked room page (its
/// tag count `tags`, its digest its own: the lanes' session tokens differ).
fn campfire_results(dir: &Path, rails_tags: u64) {
    let mut lines = String::new();
    for (i, v) in [72.0, 70.5, 71.2].iter().enumerate() {
        lines.push_str(&format!(
            "{{\"target\":\"rails\",\"workers\":8,\"endpoint\":\"/rooms/1\",\"run\":{},\"warmup_sec\":20,\"req_sec\":{v},\"p50_ms\":210.0,\"p99_ms\":400.0,\"socket_errors\":0}}\n",
            i + 1
        ));
    }
    std::fs::write(dir.join("per-run.json"), lines).unwrap();
    let parity = serde_json::json!([
        {"lane": "rails", "endpoint": "/rooms/1", "fingerprint": format!("status=200 tags={rails_tags}"), "tags": rails_tags},
        {"lane": "ruby", "endpoint": "/rooms/1", "fingerprint": "status=200 tags=3963", "tags": 3963},
    ]);
    std::fs::write(dir.join("parity.json"), parity.to_string()).unwrap();
}

#[test]
fn the_posts_tag_count_is_compared_with_each_checked_page_on_any_machine() {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../recipes/campfire-runtimes.toml");
    let recipe = reprise_recipe::load(&file).unwrap();
    // Not a gate: the check expects the room page's status alone.
    let workload = recipe
        .workloads
        .iter()
        .find(|w| w.name.as_str() == "campfire")
        .unwrap();
    let room = workload
        .endpoints
        .iter()
        .find(|e| e.name.as_str() == "/rooms/1")
        .unwrap();
    assert_eq!(room.expect.tags, None);
    let laptop = MachineMatch::Differs(vec![reprise_verdict::MachineDifference::Item {
        item: "CPU".into(),
        here: Some("Intel(R) Core(TM) i7".into()),
        post: Some("AMD Ryzen 5 3600".into()),
    }]);
    for (tags, outcome) in [(3963, Outcome::Reproduced), (3960, Outcome::NotReproduced)] {
        let dir = tempfile::tempdir().unwrap();
        campfire_results(dir.path(), tags);
        let report = judge_results_dir(
            &recipe,
            dir.path(),
            Some(laptop.clone()),
            RunInfo::for_recipe(&recipe, "run-1", "2026-12-06T09:00:00Z"),
            &Settings::default(),
        )
        .unwrap();
        let v = report.judgement.verdict("rooms-tags-abs").unwrap();
        // A page's shape is the app's: one check reads it, on any machine.
        assert_eq!(v.outcome, outcome, "{tags}: {}", v.reasoning());
        assert_eq!(
            v.measured.map(|m| m.estimate),
            Some(tags as f64),
            "{}",
            v.reasoning()
        );
    }
}

/// Three boots of each lane, as the sign-in step times them: to the first
/// answer and to the signed-in room page (`page_code` 200, else no value).
fn boots(dir: &Path, pages: [(&str, f64); 3], jruby_code: u16) {
    let mut boots = Vec::new();
    for (lane, page_s) in pages {
        for rep in 1..=3 {
            boots.push(serde_json::json!({
                "target": lane, "rep": rep,
                "accept_ms": page_s * 800.0 + f64::from(rep),
                "page_ms": page_s * 1000.0 + f64::from(rep),
                "page_code": if lane == "jruby" { jruby_code } else { 200 },
            }));
        }
    }
    std::fs::write(
        dir.join("coldstart.json"),
        serde_json::json!(boots).to_string(),
    )
    .unwrap();
}

#[test]
fn each_lanes_boots_to_its_signed_in_page_are_read_as_its_boot_figures() {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../recipes/campfire-runtimes.toml");
    let recipe = reprise_recipe::load(&file).unwrap();
    let laptop = MachineMatch::Differs(vec![reprise_verdict::MachineDifference::Item {
        item: "CPU".into(),
        here: Some("Intel(R) Core(TM) i7".into()),
        post: Some("AMD Ryzen 5 3600".into()),
    }]);
    let judged = |pages, jruby_code| {
        let dir = tempfile::tempdir().unwrap();
        campfire_results(dir.path(), 3963);
        boots(dir.path(), pages, jruby_code);
        judge_results_dir(
            &recipe,
            dir.path(),
            Some(laptop.clone()),
            RunInfo::for_recipe(&recipe, "run-1", "2026-12-07T09:00:00Z"),
            &Settings::default(),
        )
        .unwrap()
    };
    // The post's order, the binary first and the JVM last: an ordering is
    // judged on any machine.
    let report = judged([("spinel", 0.4), ("ruby", 2.1), ("jruby", 7.5)], 200);
    let v = report.judgement.verdict("boot-spinel-ruby-jruby").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    let jruby_page = report
        .measurements
        .cell(&reprise_verdict::CellKey::new(
            "jruby",
            None,
            reprise_recipe::Metric::BootPageS,
        ))
        .unwrap();
    assert_eq!(jruby_page.runs.len(), 3);
    assert_eq!(jruby_page.runs[1].value, Some(7.502));
    // Another order is not the post's.
    let report = judged([("spinel", 2.5), ("ruby", 2.1), ("jruby", 7.5)], 200);
    let v = report.judgement.verdict("boot-spinel-ruby-jruby").unwrap();
    assert_eq!(v.outcome, Outcome::NotReproduced, "{}", v.reasoning());
    // A page that never answered 200 (signed out: 302) is no reading.
    let report = judged([("spinel", 0.4), ("ruby", 2.1), ("jruby", 7.5)], 302);
    let v = report.judgement.verdict("boot-spinel-ruby-jruby").unwrap();
    assert_ne!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    assert_ne!(v.outcome, Outcome::NotReproduced, "{}", v.reasoning());
}
