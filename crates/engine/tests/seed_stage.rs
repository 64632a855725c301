//! seed and stage: the seed command makes a database (here it copies one
//! the test made with rusqlite, in WAL mode); its row counts are checked,
//! a wrong count fails the step, and stage copies it into a tree with
//! SQLite's backup API.

mod support;

use reprise_engine::StepStatus;
use rusqlite::Connection;
use support::{execute, log_lines, setup};

fn recipe(users: u64) -> String {
    format!(
        r#"
[post]
id = "seed"
title = "Seed"
author = "Test"
date = "2026"
summary = "A seeded database."

[[step]]
id = "seed"
kind = "seed"
command = ["cp", "fixture.sqlite3", "seed.sqlite3"]
database = "seed.sqlite3"
verify = {{ users = {users}, rooms = 5 }}
why = "Copies the fixture."

[[step]]
id = "stage"
kind = "stage"
database = "seed.sqlite3"
tree = "app"
to = "storage/development.sqlite3"
after = ["seed"]
why = "Into the tree."
"#
    )
}

/// A database of `users` users and 5 rooms, in WAL mode, at `path`.
fn fixture(path: &std::path::Path, users: u32) {
    let conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.execute_batch("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT); CREATE TABLE rooms (id INTEGER PRIMARY KEY);")
        .unwrap();
    for i in 1..=users {
        conn.execute(
            "INSERT INTO users (email) VALUES (?1)",
            [format!("user{i}@example.com")],
        )
        .unwrap();
    }
    for _ in 0..5 {
        conn.execute("INSERT INTO rooms DEFAULT VALUES", [])
            .unwrap();
    }
}

#[test]
fn a_verified_seed_is_staged_into_the_tree() {
    let s = setup("seed", &recipe(50));
    let run = s.data.create_run("seed").unwrap();
    fixture(&run.path.join("fixture.sqlite3"), 50);
    let a = execute(&s, Some(run), false, &|_| {});
    assert_eq!(
        a.report.finished,
        ["seed", "stage"],
        "{:#?}",
        log_lines(&a.events)
    );
    let staged = a.run.trees().join("app/storage/development.sqlite3");
    let conn = Connection::open(&staged).unwrap();
    let users: i64 = conn
        .query_row("SELECT COUNT(*) FROM users", [], |r| r.get(0))
        .unwrap();
    assert_eq!(users, 50);
    // What was staged is said by its digest in the step's log.
    let digest = reprise_loadgen::sha256_hex(&std::fs::read(&staged).unwrap());
    assert!(log_lines(&a.events).iter().any(|l| l.contains(&digest)));
}

/// A tree emitted, a database staged into it, then written to (as the
/// lanes write to it when they serve posts): run again, every step is
/// kept. The staged file is the stage's, not the emitter's, and the lanes'
/// to write to, as a seeded database is.
#[test]
fn a_staged_database_the_lanes_wrote_to_keeps_the_emit_and_the_stage() {
    let text = recipe(50).replace(
        "[[step]]\nid = \"stage\"",
        r#"[[step]]
id = "emit"
kind = "emit"
command = ["sh", "-c", "mkdir -p \"$REPRISE_TREE/storage\" && echo 'puts 1' > \"$REPRISE_TREE/main.rb\""]
tree = "app"
why = "A tree of one file."

[[step]]
id = "stage""#,
    ).replace("after = [\"seed\"]", "after = [\"seed\", \"emit\"]");
    let s = setup("seed", &text);
    let run = s.data.create_run("seed").unwrap();
    fixture(&run.path.join("fixture.sqlite3"), 50);
    let a = execute(&s, Some(run), false, &|_| {});
    assert_eq!(
        a.report.finished,
        ["seed", "emit", "stage"],
        "{:#?}",
        log_lines(&a.events)
    );
    let staged = a.run.trees().join("app/storage/development.sqlite3");
    Connection::open(&staged)
        .unwrap()
        .execute(
            "INSERT INTO users (email) VALUES ('posted@example.com')",
            [],
        )
        .unwrap();
    let b = execute(&s, Some(a.run.clone()), false, &|_| {});
    assert!(b.report.finished.is_empty(), "{:#?}", log_lines(&b.events));
    assert_eq!(b.report.reused, ["seed", "emit", "stage"]);
    // The tree itself is still watched: a file of the emitter's changed is
    // an emit to redo.
    std::fs::write(a.run.trees().join("app/main.rb"), "puts 2\n").unwrap();
    let c = execute(&s, Some(a.run.clone()), false, &|_| {});
    assert_eq!(
        c.report.finished,
        ["emit", "stage"],
        "{:#?}",
        log_lines(&c.events)
    );
}

#[test]
fn a_wrong_count_fails_the_seed_step() {
    let s = setup("seed", &recipe(50));
    let run = s.data.create_run("seed").unwrap();
    fixture(&run.path.join("fixture.sqlite3"), 49);
    let a = execute(&s, Some(run), false, &|_| {});
    assert_eq!(a.report.failed, ["seed"]);
    let state = reprise_engine::State::load(&a.run.state_file())
        .unwrap()
        .unwrap();
    assert_eq!(state.steps["seed"].status, StepStatus::Failed);
    assert_eq!(
        state.steps["seed"].reason.as_deref(),
        Some("the seed does not have the rows the recipe expects: users: 49 rows, expected 50")
    );
    assert_eq!(state.steps["stage"].status, StepStatus::Skipped);
}
