//! A command step with `repeat = N` runs its command N times, one after the
//! other, and keeps every run's printed object, in order: each is one run of
//! the cells it measures. A run that fails stops the step as failed.

mod support;

use support::{execute, read_json, setup};

fn recipe(command: &str) -> String {
    format!(
        r#"
[post]
id = "repeated"
title = "Repeated"
author = "Test"
date = "2026"
summary = "A command measured several times."

[[step]]
id = "count"
kind = "command"
command = ["sh", "-c", {command:?}]
repeat = 3
why = "Counts its own runs."
"#
    )
}

#[test]
fn every_run_of_a_repeated_command_is_kept_in_order() {
    // Each run appends a line and prints how many there are.
    let s = setup(
        "repeated",
        &recipe(r#"echo x >> count.txt; echo "{\"run\": $(wc -l < count.txt)}""#),
    );
    let attempt = execute(&s, None, false, &|_| {});
    assert!(attempt.report.ok(), "{:?}", attempt.report);
    let printed = read_json(&attempt.run.results().join("count.json"));
    assert_eq!(
        printed,
        serde_json::json!([{"run": 1}, {"run": 2}, {"run": 3}]),
        "three runs, in the order they ran"
    );
}

#[test]
fn a_repeated_command_that_fails_in_its_second_run_fails_the_step() {
    let s = setup(
        "repeated",
        &recipe(
            r#"echo x >> count.txt; n=$(wc -l < count.txt); echo "{\"run\": $n}"; [ "$n" -lt 2 ]"#,
        ),
    );
    let attempt = execute(&s, None, false, &|_| {});
    assert_eq!(attempt.report.failed, ["count"], "{:?}", attempt.report);
    let runs = std::fs::read_to_string(attempt.run.path.join("count.txt")).unwrap();
    assert_eq!(runs.lines().count(), 2, "the third run never started");
}
