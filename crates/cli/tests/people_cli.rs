//! `reprise run` of a people recipe made by the test, against the
//! Campfire-shaped server (reprise-loadgen's `campfire_shaped_server`, a real
//! process on 127.0.0.1 — Campfire itself is out of reach here) that the
//! lane's command starts: the whole pipeline from the CLI, steps and served
//! criterion from the recipe, results in the run's `results/`.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The server binary: built beside `reprise` by the workspace's `cargo test`
/// (reprise-loadgen's tests build it).
fn server_binary() -> PathBuf {
    let reprise = PathBuf::from(env!("CARGO_BIN_EXE_reprise"));
    let server = reprise.with_file_name("campfire_shaped_server");
    assert!(
        server.is_file(),
        "{} is missing: build it with `cargo build -p reprise-loadgen` (the workspace's `cargo test` does)",
        server.display()
    );
    server
}

fn recipe(server: &str, port: u16, fault: &str) -> String {
    format!(
        r#"
[post]
id = "people-fixture"
title = "People against a Campfire-shaped server"
author = "Test"
date = "2026"
summary = "Two steps of people against the test's server."

[[lane]]
name = "fixture"
command = ["{server}", "--port", "{port}", "--accounts", "40", "--rooms", "4", "--fault", "{fault}"]
port = {port}
warmup = "500ms"
why = "The Campfire-shaped test server."

[[workload]]
name = "people"
connections = 20
duration = "2s"

[workload.people]
accounts = 40
rooms = 4
steps = [10, 20]
step_duration = "2s"
navigate_every = "300ms"
post_every = "400ms"
mix = {{ open_room = 0.55, scroll_history = 0.20, search = 0.10, return_to_room = 0.15 }}
served = {{ navigation_quantile = 0.99, navigation_ms = 1000, max_failures = 0, delivery_quantile = 0.99, delivery_ms = 500 }}
verify_writes = "/writes"

[[step]]
id = "people"
kind = "cable"
workload = "people"
lanes = ["fixture"]
why = "The many-people load."
"#
    )
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs the recipe in a checkout and data dir made by the test; the report it wrote.
fn run(fault: &str) -> (Output, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("recipes")).unwrap();
    std::fs::create_dir_all(root.join("checksums")).unwrap();
    let server = server_binary();
    let text = recipe(&server.display().to_string(), free_port(), fault);
    std::fs::write(root.join("recipes/people-fixture.toml"), text).unwrap();
    std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
    let reprise = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_reprise"))
            .args(args)
            .env("REPRISE_ROOT", &root)
            .env("REPRISE_DATA_DIR", dir.path().join("data"))
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let updated = reprise(&["checksums", "update"]);
    assert!(updated.status.success(), "{updated:?}");
    let out = reprise(&["run", "people-fixture", "--yes"]);
    let runs: Vec<PathBuf> = std::fs::read_dir(dir.path().join("data/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1);
    let report = runs[0].join("results/people/fixture/people.json");
    let text = std::fs::read_to_string(&report)
        .unwrap_or_else(|e| panic!("{}: {e}\n{out:?}", report.display()));
    (out, serde_json::from_str(&text).unwrap())
}

#[test]
fn reprise_run_drives_the_people_steps_against_the_lane_and_writes_people_json() {
    let (out, report) = run("none");
    let printed =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{printed}");
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0]["people"], 10);
    assert_eq!(steps[1]["people"], 20);
    for step in steps {
        assert_eq!(step["served"], true, "{step:#}");
        assert!(
            step["navigation"]["count"].as_u64().unwrap() > 10,
            "{step:#}"
        );
    }
    assert_eq!(report["unsaved_writes"], 0);
    assert_eq!(report["served"], true);
    assert!(printed.contains("20 people:"), "{printed}");
}

#[test]
fn a_server_that_loses_writes_is_not_served_in_people_json() {
    let (out, report) = run("unsaved-write");
    assert!(
        out.status.success(),
        "a step not served is a result, not a failed run"
    );
    assert_eq!(report["served"], false);
    assert!(report["unsaved_writes"].as_u64().unwrap() > 0, "{report:#}");
}
