//! A recipe's clone step through a run: a real repository the test makes,
//! cloned by file URL, kept on resume, re-cloned when its checkout is damaged.

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{DataDir, PlanOptions, RunContext, RunDir, RunReport, State};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn recipe(root: &Path, url: &str, rev: &str) -> reprise_recipe::Recipe {
    let text = format!(
        r#"
[post]
id = "cloned"
title = "Cloned"
author = "Test"
date = "2026"
summary = "Clone, then read the checkout."

[[source]]
id = "app"
url = "{url}"
rev = "{rev}"
purpose = "The app."

[[step]]
id = "clone"
kind = "clone"
source = "app"
why = "The sources at the pinned commit."

[[step]]
id = "read"
kind = "command"
after = ["clone"]
command = ["sh", "-c", "cat sources/app/version.txt >> seen.txt"]
why = "Reads the checkout."
"#
    );
    let file = root.join("recipes/cloned.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    reprise_recipe::load(&file).unwrap()
}

fn attempt(
    recipe: &reprise_recipe::Recipe,
    data: &DataDir,
    run: &RunDir,
    root: &Path,
) -> (RunReport, Vec<Event>) {
    let plan = reprise_engine::plan(recipe, &PlanOptions::default()).unwrap();
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| events.lock().unwrap().push(e);
    let mut ctx = RunContext::new(
        data.clone(),
        run.clone(),
        root.to_path_buf(),
        CancelToken::new(),
        &sink,
    );
    ctx.grace = Duration::from_millis(500);
    let report = reprise_engine::execute(&plan, &ctx).unwrap();
    (report, events.into_inner().unwrap())
}

#[test]
fn a_clone_step_checks_out_the_pin_and_is_redone_only_when_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "-q"]);
    let mut shas = Vec::new();
    for i in 1..=3 {
        std::fs::write(origin.join("version.txt"), format!("version {i}\n")).unwrap();
        git(&origin, &["add", "-A"]);
        git(&origin, &["commit", "-q", "-m", &format!("commit {i}")]);
        shas.push(git(&origin, &["rev-parse", "HEAD"]));
    }
    let url = format!("file://{}", origin.display());
    let root = dir.path().join("checkout");
    let data = DataDir {
        root: dir.path().join("data"),
    };
    let pinned = recipe(&root, &url, &shas[1][..10]);
    let run = data.create_run("cloned").unwrap();

    let (report, events) = attempt(&pinned, &data, &run, &root);
    assert!(report.ok(), "{report:?} {events:?}");
    assert_eq!(report.finished, vec!["clone", "read"]);
    let state = State::load(&run.state_file()).unwrap().unwrap();
    assert_eq!(
        state.steps["clone"].commit.as_deref(),
        Some(shas[1].as_str())
    );
    assert_eq!(
        std::fs::read_to_string(run.path.join("seen.txt")).unwrap(),
        "version 2\n"
    );

    // Nothing changed: both kept.
    let (report, _) = attempt(&pinned, &data, &run, &root);
    assert_eq!(report.reused, vec!["clone", "read"]);

    // A damaged checkout is cloned again; the same commit gives the same
    // tree, so the step after it is still kept.
    std::fs::write(run.sources().join("app/version.txt"), "edited\n").unwrap();
    let (report, _) = attempt(&pinned, &data, &run, &root);
    assert_eq!(report.finished, vec!["clone"]);
    assert_eq!(report.reused, vec!["read"]);
    assert_eq!(
        std::fs::read_to_string(run.sources().join("app/version.txt")).unwrap(),
        "version 2\n"
    );

    // A revision that does not exist fails the clone and skips what needs it.
    let missing = recipe(&root, &url, "abcdef0123");
    let (report, events) = attempt(&missing, &data, &run, &root);
    assert_eq!(report.failed, vec!["clone"]);
    assert_eq!(report.skipped, vec!["read"]);
    let failed = events
        .iter()
        .find_map(|e| match e {
            Event::Failed { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        failed,
        format!("revision `abcdef0123` does not exist in {url}")
    );
    let skipped = events
        .iter()
        .find_map(|e| match e {
            Event::Skipped { step, reason } if step == "read" => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(skipped, "needs `clone`, which did not finish");
}
