//! How a run's end is said: every lane its results say was not measured,
//! with why, and one line of counts that leaves out counts of none — a run
//! with a skipped lane never says "0 skipped".

use std::sync::Mutex;

use reprise_engine::{Event, RunReport};
use reprise_recipe::Catalog;
use reprise_session::run::{RunOptions, RunOutcome};
use reprise_session::run_folder::LaneSkipped;
use reprise_session::{DataDir, HistoryOutcome, Session, ShareSettings};

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
    let (_dirs, session) = session_with("absent", RECIPE);
    let loaded = session.load_recipe("absent").unwrap();
    let prepared = session.prepare(&loaded, &RunOptions::default()).unwrap();
    // The plan has the lane; what it expects to measure counts only the
    // lanes that run here: none.
    assert_eq!(prepared.plan.lanes, ["nowhere"]);
    assert_eq!(prepared.plan.lanes_here, Some(Vec::new()));
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
    assert_eq!(RunOutcome::summarise(&cancelled, &[]), "no step ran");
    // A step the cancel stopped is cancelled, not failed.
    let stopped = RunReport {
        finished: vec!["serve".into()],
        cancelled_steps: vec!["measure".into()],
        cancelled: true,
        ..RunReport::default()
    };
    assert_eq!(
        RunOutcome::summarise(&stopped, &[]),
        "1 step finished, 1 cancelled"
    );
    for line in [
        RunOutcome::summarise(&all, std::slice::from_ref(&falcon)),
        RunOutcome::summarise(&mixed, &[]),
    ] {
        assert!(!line.contains(" 0 ") && !line.contains("(s)"), "{line}");
    }
}

/// A lane whose server exits at once (it does not boot), then a step that
/// leaves `results/skipped.json` as `skipped` (how a file is left behind
/// broken, or without the lane).
fn crashing(skipped: &str) -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!(
        r#"[post]
id = "crashing"
title = "A lane whose server does not boot"
author = "A. Writer"
date = "2026"
summary = "One lane, whose server exits at once."

[[lane]]
name = "crashing"
command = ["sh", "-c", "exit 3"]
port = {port}
boot_budget = "5s"
why = "A server that exits before it answers."

[[step]]
id = "serve"
kind = "serve"
why = "Boot each lane."

[[step]]
id = "leave"
kind = "command"
command = ["sh", "-c", "printf '%s' '{skipped}' > results/skipped.json"]
why = "Leaves skipped.json as the test needs it (after serve, which fails)."
"#
    )
}

/// Runs `recipe` (id `crashing`) to its end: the outcome and the notes it emitted.
fn run_crashing(recipe: &str) -> (RunOutcome, Vec<String>) {
    let (_dirs, session) = session_with("crashing", recipe);
    let loaded = session.load_recipe("crashing").unwrap();
    let prepared = session.prepare(&loaded, &RunOptions::default()).unwrap();
    let notes = Mutex::new(Vec::new());
    let outcome = session
        .execute(prepared, &|e: Event| {
            if let Event::Note { message } = e {
                notes.lock().unwrap().push(message);
            }
        })
        .expect("a run that ended is an outcome, whatever skipped.json holds");
    (outcome, notes.into_inner().unwrap())
}

#[test]
fn a_lane_that_did_not_boot_is_in_the_outcome_though_skipped_json_lost_it() {
    let (outcome, _) = run_crashing(&crashing("[]"));
    assert_eq!(outcome.steps.lanes_failed, ["crashing"]);
    assert_eq!(outcome.steps.finished, ["leave"]);
    assert_eq!(
        outcome.skipped_lanes,
        [LaneSkipped {
            lane: "crashing".into(),
            why: "results/skipped.json has no record of why".into(),
        }]
    );
    assert_eq!(
        outcome.summary,
        "1 step finished, 1 failed; 1 lane not measured (crashing)"
    );
}

#[test]
fn an_unreadable_skipped_json_is_said_and_the_run_still_ends_with_its_outcome() {
    // Not JSON; and JSON that is not a list of skipped lanes.
    for broken in ["not json", "[1, 2]"] {
        let (outcome, notes) = run_crashing(&crashing(broken));
        // Judging names the file rather than reading it as "no lane skipped".
        match &outcome.history {
            HistoryOutcome::Failed { reason } => {
                assert!(reason.contains("skipped.json"), "{broken}: {reason}")
            }
            other => panic!("{broken}: judged as {other:?}"),
        }
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("results/skipped.json could not be read")),
            "{broken}: {notes:?}"
        );
        // The lane that did not boot is still said.
        assert_eq!(
            outcome
                .skipped_lanes
                .iter()
                .map(|l| l.lane.as_str())
                .collect::<Vec<_>>(),
            ["crashing"],
            "{broken}"
        );
        assert!(outcome.run.starts_with("crashing-"), "{}", outcome.run);
    }
}

/// A session over a catalog of one reviewed recipe, `id` with `text`, and a
/// data dir of its own (both folders live as long as the first value).
fn session_with(id: &str, text: &str) -> ([tempfile::TempDir; 2], Session) {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::write(root.path().join(format!("recipes/{id}.toml")), text).unwrap();
    Catalog::new(root.path()).update_checksums().unwrap();
    let data = tempfile::tempdir().unwrap();
    let session = Session::new(
        Catalog::new(root.path()),
        DataDir::new(data.path()),
        ShareSettings::from_env(),
    );
    ([root, data], session)
}

#[test]
fn one_rule_says_how_a_run_ended_and_only_a_finished_one_succeeded() {
    use reprise_report::RunEnding;
    // Cancelled over failed over lanes missing over finished.
    assert_eq!(RunEnding::of(true, true, true), RunEnding::Cancelled);
    assert_eq!(RunEnding::of(false, true, true), RunEnding::Failed);
    assert_eq!(RunEnding::of(false, false, true), RunEnding::LanesMissing);
    assert_eq!(RunEnding::of(false, false, false), RunEnding::Finished);
    let succeeded: Vec<bool> = [
        RunEnding::Finished,
        RunEnding::LanesMissing,
        RunEnding::Failed,
        RunEnding::Cancelled,
    ]
    .iter()
    .map(|e| e.succeeded())
    .collect();
    assert_eq!(succeeded, [true, true, false, false]);
    assert_eq!(
        RunEnding::LanesMissing.words(),
        "finished with lanes missing"
    );
}
