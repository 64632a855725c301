//! How a run's end is said: every lane its results say was not measured,
//! with why, and one line of counts that leaves out counts of none — a run
//! with a skipped lane never says "0 skipped".

use reprise_engine::RunReport;
use reprise_recipe::Catalog;
use reprise_session::run::{LaneSkipped, RunOptions, RunOutcome};
use reprise_session::{DataDir, Session, ShareSettings};

/// A lane that needs a server no machine has: the run skips it at preflight.
const RECIPE: &str = r#"[post]
id = "absent"
title = "A lane this machine cannot run"
author = "A. Writer"
date = "2026"
summary = "One lane, whose server is nowhere."

[[toolchain]]
name = "nowhere-server"
version = "*"
command = ["nowhere-server-reprise-test", "--version"]
pattern = '(\d+\.\d+)'
why = "The server the lane needs."

[[lane]]
name = "nowhere"
needs = ["nowhere-server"]
command = ["nowhere-server-reprise-test", "--port", "9391"]
port = 9391
why = "Served by a program that is not installed."

[[step]]
id = "serve"
kind = "serve"
why = "Boot each lane."
"#;

#[test]
fn a_lane_skipped_at_preflight_is_in_the_outcome_with_why() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::write(root.path().join("recipes/absent.toml"), RECIPE).unwrap();
    Catalog::new(root.path()).update_checksums().unwrap();
    let data = tempfile::tempdir().unwrap();
    let session = Session::new(
        Catalog::new(root.path()),
        DataDir::new(data.path()),
        ShareSettings::from_env(),
    );
    let loaded = session.load_recipe("absent").unwrap();
    let prepared = session.prepare(&loaded, &RunOptions::default()).unwrap();
    let outcome = session.execute(prepared, &|_| {}).unwrap();
    assert_eq!(
        outcome.skipped_lanes.len(),
        1,
        "{:?}",
        outcome.skipped_lanes
    );
    let lane = &outcome.skipped_lanes[0];
    assert_eq!(lane.lane, "nowhere");
    assert!(
        lane.why.starts_with("preflight: ") && lane.why.contains("nowhere-server"),
        "{}",
        lane.why
    );
    assert_eq!(
        outcome.summary,
        "1 step finished; 1 lane not measured (nowhere)"
    );
}

#[test]
fn the_summary_leaves_out_counts_of_none_and_says_what_it_counts() {
    let steps = |finished: &[&str], reused: &[&str], skipped: &[&str]| RunReport {
        finished: finished.iter().map(|s| s.to_string()).collect(),
        reused: reused.iter().map(|s| s.to_string()).collect(),
        skipped: skipped.iter().map(|s| s.to_string()).collect(),
        ..RunReport::default()
    };
    let falcon = LaneSkipped {
        lane: "falcon".into(),
        why: "preflight: it needs falcon, which this machine lacks".into(),
    };
    let all = steps(&["serve", "check", "measure"], &[], &[]);
    assert_eq!(RunOutcome::summarise(&all, &[]), "3 steps finished");
    assert_eq!(
        RunOutcome::summarise(&all, std::slice::from_ref(&falcon)),
        "3 steps finished; 1 lane not measured (falcon)"
    );
    let mixed = steps(&["measure"], &["serve", "check"], &["report"]);
    assert_eq!(
        RunOutcome::summarise(&mixed, &[]),
        "1 step finished, 2 kept from before, 1 skipped"
    );
    let cancelled = RunReport {
        cancelled: true,
        ..RunReport::default()
    };
    assert_eq!(
        RunOutcome::summarise(&cancelled, &[]),
        "no step ran (cancelled)"
    );
    for line in [
        RunOutcome::summarise(&all, std::slice::from_ref(&falcon)),
        RunOutcome::summarise(&mixed, &[]),
    ] {
        assert!(!line.contains(" 0 ") && !line.contains("(s)"), "{line}");
    }
}
