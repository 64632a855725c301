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
    // The machine it measured on is recorded, as a load step records it.
    let env = read_json(&attempt.run.results().join("env.json"));
    assert!(env["reprise"]["fingerprint"].is_object(), "{env:#}");
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

#[test]
fn each_run_s_figures_are_said_in_words_and_its_json_stays_in_the_log() {
    // A step named like a lane measures it: the figures' metric is `count`.
    let text =
        recipe(r#"echo x >> count.txt; echo "{\"count\": $(wc -l < count.txt), \"other\": 7}""#)
            + r#"
[[lane]]
name = "count"
command = ["true"]
why = "The runs the step measures."

[[figure]]
id = "counted"
lane = "count"
metric = "count"
unknown = "A test's figure."
condition = "each run"
quote = "Counts its own runs."
"#;
    let s = setup("repeated", &text);
    let attempt = execute(&s, None, false, &|_| {});
    assert!(attempt.report.ok(), "{:?}", attempt.report);
    let notes: Vec<&str> = attempt
        .events
        .iter()
        .filter_map(|e| match e {
            reprise_engine::Event::Log {
                step,
                stream: reprise_engine::Stream::Note,
                line,
            } if step == "count" => Some(line.as_str()),
            _ => None,
        })
        .collect();
    for run in 1..=3 {
        let said = format!("run {run} of 3: count {run}");
        assert!(notes.contains(&said.as_str()), "{said} in {notes:?}");
    }
    let shown = support::log_lines(&attempt.events);
    assert!(
        shown.iter().all(|l| !l.contains("\"count\"")),
        "the JSON stays in the log: {shown:?}"
    );
    let log = std::fs::read_to_string(attempt.run.logs().join("count.log")).unwrap();
    assert!(log.contains("{\"count\": 3, \"other\": 7}"), "{log}");
}
