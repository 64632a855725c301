//! Reprise writes only inside the run's folder, whatever a step leaves
//! behind: a symlink a step made (to a folder outside, or dangling) is never
//! written through — not by a stage, not by the recipe's `[[file]]`s written
//! again on a resume. The files outside stay byte for byte as they were.

mod support;

use reprise_engine::RunError;
use reprise_engine::os::run_files::Refused;
use reprise_engine::os::workdir::WorkDirError;
use rusqlite::Connection;
use support::{execute, log_lines, setup};

fn recipe(outside: &std::path::Path) -> String {
    format!(
        r#"
[post]
id = "confined"
title = "Confined"
author = "Test"
date = "2026"
summary = "Steps that leave symlinks out of the run folder."

[[file]]
path = "note.txt"
content = "from the recipe\n"
why = "Written at every start of the run."

[[step]]
id = "links"
kind = "command"
command = ["sh", "-c", "mkdir -p trees && ln -s '{outside}' trees/app && rm files/note.txt && ln -s '{outside}/note.txt' files/note.txt && cp fixture.sqlite3 seed.sqlite3"]
why = "Leaves a tree and a recipe file that are symlinks out of the run folder."

[[step]]
id = "stage"
kind = "stage"
database = "seed.sqlite3"
tree = "app"
to = "development.sqlite3"
after = ["links"]
why = "Would copy the database into the tree: through the symlink, outside."
"#,
        outside = outside.display()
    )
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn nothing_is_written_through_a_symlink_a_step_left_behind() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("note.txt"), "the reader's own file\n").unwrap();
    let before = snapshot(outside.path());

    let s = setup("confined", &recipe(outside.path()));
    let run = s.data.create_run("confined").unwrap();
    Connection::open(run.path.join("fixture.sqlite3"))
        .unwrap()
        .execute_batch("CREATE TABLE t (x INTEGER);")
        .unwrap();
    let a = execute(&s, Some(run), false, &|_| {});
    assert_eq!(a.report.finished, ["links"], "{:#?}", log_lines(&a.events));
    assert_eq!(a.report.failed, ["stage"]);
    let state = reprise_engine::State::load(&a.run.state_file())
        .unwrap()
        .unwrap();
    let reason = state.steps["stage"].reason.clone().unwrap_or_default();
    assert!(reason.contains("leads out of"), "{reason}");
    assert_eq!(snapshot(outside.path()), before, "the stage wrote outside");

    // Resuming writes the recipe's files again: never through the symlink;
    // the run stops before any step, saying why.
    let plan = reprise_engine::plan(&s.recipe, &Default::default()).unwrap();
    let sink = |_: reprise_engine::Event| {};
    let ctx = reprise_engine::RunContext::new(
        s.data.clone(),
        a.run.clone(),
        s.root.clone(),
        reprise_engine::CancelToken::new(),
        &sink,
    );
    let err = reprise_engine::execute(&plan, &ctx).unwrap_err();
    assert!(
        matches!(&err, RunError::BadFilePath(e) if matches!(Refused::of(e), Some(Refused::ThroughSymlink { .. }))),
        "{err}"
    );
    assert_eq!(snapshot(outside.path()), before, "the resume wrote outside");
}

/// A step that swaps the next step's log for a symlink to a file outside,
/// or swaps `results/` for a symlink to a folder outside, then a step that
/// writes a log and a result there.
fn swapping_recipe(swap: &str) -> String {
    format!(
        r#"
[post]
id = "swapped"
title = "Swapped"
author = "Test"
date = "2026"
summary = "Steps that swap Reprise's own files for symlinks."

[[step]]
id = "swap"
kind = "command"
command = ["sh", "-c", "{swap}"]
why = "Leaves a symlink where Reprise writes next."

[[step]]
id = "after"
kind = "command"
command = ["sh", "-c", "echo '{{\"n\": 1}}'"]
after = ["swap"]
why = "Writes logs/after.log and results/after.json."
"#
    )
}

#[test]
fn no_log_result_or_state_is_written_through_a_symlink_a_step_swapped_in() {
    for swap in [
        "ln -s OUTSIDE/victim logs/after.log",
        "ln -s OUTSIDE logs/after.log",
        "mkdir -p results && mv results results.moved && ln -s OUTSIDE results",
        "mv logs logs.moved && ln -s OUTSIDE logs",
    ] {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("victim"), "the reader's own file\n").unwrap();
        let before = snapshot(outside.path());
        let swap = swap.replace("OUTSIDE", &outside.path().display().to_string());
        let s = setup("swapped", &swapping_recipe(&swap));
        let a = execute(&s, None, false, &|_| {});
        let said = serde_json::to_string(&a.events).unwrap();
        assert_eq!(a.report.finished, ["swap"], "{swap}: {said}");
        assert!(
            said.contains("through a symlink"),
            "{swap}: the refusal is said: {said}"
        );
        assert_eq!(snapshot(outside.path()), before, "{swap}: written outside");
    }
}

#[test]
fn a_state_file_swapped_for_a_symlink_stops_the_run_saying_why() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("victim"), "the reader's own file\n").unwrap();
    let before = snapshot(outside.path());
    let swap = format!(
        "ln -s {}/victim state.link && mv state.link state.json",
        outside.path().display()
    );
    let s = setup("swapped", &swapping_recipe(&swap));
    let run = s.data.create_run("swapped").unwrap();
    let plan = reprise_engine::plan(&s.recipe, &Default::default()).unwrap();
    let sink = |_: reprise_engine::Event| {};
    let ctx = reprise_engine::RunContext::new(
        s.data.clone(),
        run,
        s.root.clone(),
        reprise_engine::CancelToken::new(),
        &sink,
    );
    let err = reprise_engine::execute(&plan, &ctx).unwrap_err();
    assert!(
        matches!(
            &err,
            RunError::WorkDir(WorkDirError::Io { path, source })
                if path.ends_with("state.json")
                    && matches!(Refused::of(source), Some(Refused::ThroughSymlink { .. }))
        ),
        "{err}"
    );
    assert_eq!(
        snapshot(outside.path()),
        before,
        "the state was written outside"
    );
}
