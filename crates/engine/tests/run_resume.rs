//! Running a recipe in a work dir: resume after a cancelled run, re-running
//! a step whose output was corrupted, `--from`, and steps this version
//! cannot run yet.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{DataDir, PlanOptions, RunContext, RunReport, State, StepStatus};

const RECIPE: &str = r#"
[post]
id = "resume"
title = "Resume"
author = "Test"
date = "2026"
summary = "Steps that count how often they ran."

[[file]]
path = "app/hello.txt"
content = "hello\n"
why = "What the emitter copies into its tree."

[[step]]
id = "first"
kind = "command"
command = ["sh", "-c", "echo ran >> first.count"]
why = "Counts its runs."

[[step]]
id = "slow"
kind = "command"
after = ["first"]
command = ["sh", "-c", "echo ran >> slow.count; test -e go && exit 0; echo waiting; sleep 30"]
why = "Waits until the file `go` exists."

[[step]]
id = "emit"
kind = "emit"
after = ["slow"]
tree = "out"
command = ["sh", "-c", "mkdir -p \"$REPRISE_TREE\" && cp files/app/hello.txt \"$REPRISE_TREE\"/ && echo ran >> emit.count"]
why = "Writes a one-file tree."

[[step]]
id = "serve"
kind = "serve"
after = ["emit"]
why = "Serves the recipe's lanes: it has none, so there is nothing to boot."
"#;

struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    data: DataDir,
    recipe: reprise_recipe::Recipe,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("checkout");
    std::fs::create_dir_all(root.join("recipes")).unwrap();
    let file = root.join("recipes/resume.toml");
    std::fs::write(&file, RECIPE).unwrap();
    let recipe = reprise_recipe::load(&file).unwrap();
    Setup {
        data: DataDir {
            root: dir.path().join("data"),
        },
        root,
        recipe,
        _dir: dir,
    }
}

fn attempt(
    s: &Setup,
    run: &reprise_engine::RunDir,
    options: &PlanOptions,
    cancel_on: Option<&str>,
) -> (RunReport, Vec<Event>) {
    let plan = reprise_engine::plan(&s.recipe, options).unwrap();
    let cancel = CancelToken::new();
    let trigger = cancel.clone();
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| {
        if let (Some(want), Event::Log { line, .. }) = (cancel_on, &e)
            && line == want
        {
            trigger.cancel();
        }
        events.lock().unwrap().push(e);
    };
    let mut ctx = RunContext::new(s.data.clone(), run.clone(), s.root.clone(), cancel, &sink);
    ctx.grace = Duration::from_millis(500);
    let report = reprise_engine::execute(&plan, &ctx).unwrap();
    (report, events.into_inner().unwrap())
}

fn count(run: &Path, name: &str) -> usize {
    std::fs::read_to_string(run.join(name))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

fn skipped_reason(events: &[Event], id: &str) -> Option<String> {
    events.iter().find_map(|e| match e {
        Event::Skipped { step, reason } if step == id => Some(reason.clone()),
        _ => None,
    })
}

#[test]
fn a_cancelled_run_resumes_and_a_corrupted_output_reruns_its_step() {
    let s = setup();
    let run = s.data.create_run("resume").unwrap();

    // First attempt: cancelled while `slow` waits.
    let (report, events) = attempt(&s, &run, &PlanOptions::default(), Some("waiting"));
    assert!(report.cancelled);
    assert_eq!(report.finished, vec!["first"]);
    assert!(
        report.failed.is_empty(),
        "a cancel is not a failure: {report:?}"
    );
    assert_eq!(report.cancelled_steps, vec!["slow"]);
    let state = State::load(&run.state_file()).unwrap().unwrap();
    assert_eq!(state.steps["first"].status, StepStatus::Finished);
    assert_eq!(state.steps["slow"].status, StepStatus::Cancelled);
    assert!(!state.steps.contains_key("emit"));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Cancelled { step } if step == "slow"))
    );
    assert_eq!(
        std::fs::read_to_string(run.files().join("app/hello.txt")).unwrap(),
        "hello\n"
    );
    let log = std::fs::read_to_string(run.logs().join("slow.log")).unwrap();
    assert_eq!(log, "waiting\n");

    // Second attempt: `first` is not redone, `slow` is, the rest runs.
    std::fs::write(run.path.join("go"), "").unwrap();
    let (report, events) = attempt(&s, &run, &PlanOptions::default(), None);
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.reused, vec!["first"]);
    assert_eq!(report.finished, vec!["slow", "emit", "serve"]);
    assert!(report.skipped.is_empty(), "{report:?}");
    assert_eq!(count(&run.path, "first.count"), 1);
    assert_eq!(count(&run.path, "slow.count"), 2);
    assert_eq!(count(&run.path, "emit.count"), 1);
    assert_eq!(skipped_reason(&events, "serve"), None);
    let state = State::load(&run.state_file()).unwrap().unwrap();
    let emitted = state.steps["emit"].outputs.clone().unwrap();
    let results = std::fs::read_to_string(run.results().join("out.sha256")).unwrap();
    assert!(results.ends_with("  hello.txt\n"), "{results}");

    // Third attempt: the tree was damaged, so only `emit` runs again.
    std::fs::write(run.trees().join("out/hello.txt"), "tampered\n").unwrap();
    let (report, _) = attempt(&s, &run, &PlanOptions::default(), None);
    assert_eq!(report.reused, vec!["first", "slow", "serve"]);
    assert_eq!(report.finished, vec!["emit"]);
    assert_eq!(count(&run.path, "emit.count"), 2);
    assert_eq!(
        std::fs::read_to_string(run.trees().join("out/hello.txt")).unwrap(),
        "hello\n"
    );
    let state = State::load(&run.state_file()).unwrap().unwrap();
    assert_eq!(state.steps["emit"].outputs.clone().unwrap(), emitted);

    // Nothing changed: everything is reused.
    let (report, _) = attempt(&s, &run, &PlanOptions::default(), None);
    assert_eq!(report.reused, vec!["first", "slow", "emit", "serve"]);
    assert!(report.finished.is_empty());

    // --from slow redoes slow and what follows it.
    let from = PlanOptions {
        from: Some("slow".into()),
        ..PlanOptions::default()
    };
    let (report, _) = attempt(&s, &run, &from, None);
    assert_eq!(report.reused, vec!["first"]);
    assert_eq!(report.finished, vec!["slow", "emit", "serve"]);
    assert_eq!(count(&run.path, "slow.count"), 3);
}

#[test]
fn a_tree_that_differs_from_its_manifest_fails_naming_the_file() {
    let s = setup();
    let manifests = s.root.join("checksums/trees/resume");
    std::fs::create_dir_all(&manifests).unwrap();
    let wrong = format!(
        "{}  hello.txt\n{}  gone.txt\n",
        "0".repeat(64),
        "1".repeat(64)
    );
    std::fs::write(manifests.join("out.sha256"), wrong).unwrap();
    let run = s.data.create_run("resume").unwrap();
    std::fs::write(run.path.join("go"), "").unwrap();
    let (report, events) = attempt(&s, &run, &PlanOptions::default(), None);
    assert_eq!(report.failed, vec!["emit"]);
    let reason = events
        .iter()
        .find_map(|e| match e {
            Event::Failed { step, reason } if step == "emit" => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    assert!(reason.contains("1 differ: hello.txt"), "{reason}");
    assert!(reason.contains("1 missing: gone.txt"), "{reason}");
    assert_eq!(
        skipped_reason(&events, "serve").unwrap(),
        "needs `emit`, which did not finish"
    );
}

#[test]
fn plans_select_steps_with_what_they_need_and_refuse_unknown_names() {
    let s = setup();
    let only = PlanOptions {
        steps: vec!["slow".into()],
        ..PlanOptions::default()
    };
    let plan = reprise_engine::plan(&s.recipe, &only).unwrap();
    let ids: Vec<&str> = plan.steps.iter().map(|p| p.id()).collect();
    assert_eq!(ids, ["first", "slow"]);
    assert!(
        plan.steps[1]
            .describe(&s.recipe)
            .starts_with("sh -c 'echo ran")
    );

    let bad = PlanOptions {
        steps: vec!["nope".into()],
        ..PlanOptions::default()
    };
    assert_eq!(
        reprise_engine::plan(&s.recipe, &bad)
            .unwrap_err()
            .to_string(),
        "no step `nope` in this recipe"
    );
    let lane = PlanOptions {
        lanes: vec!["puma".into()],
        ..PlanOptions::default()
    };
    assert_eq!(
        reprise_engine::plan(&s.recipe, &lane)
            .unwrap_err()
            .to_string(),
        "no lane `puma` in this recipe"
    );

    let mut cyclic = s.recipe.clone();
    cyclic.steps[0].after = vec![reprise_recipe::Name::new("emit", 0..0)];
    let err = reprise_engine::plan(&cyclic, &PlanOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "steps first, slow, emit, serve wait for each other in a cycle"
    );
}
