//! A load step cancelled mid-cell and resumed, against a real server
//! (Debian's Puma on 127.0.0.1): the cells it finished before the cancel
//! stand, and the resumed attempt measures only the cell that was cut off
//! and those after it.

mod support;

use std::time::Duration;

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{PlanOptions, RunContext};
use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(port: u16) -> String {
    format!(
        r#"
[post]
id = "resumed"
title = "Resumed"
author = "Test"
date = "2026"
summary = "Three runs of one lane, cancelled in the second."

[[file]]
path = "app/hello.ru"
content = 'run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}'
why = "13 bytes."

[[lane]]
name = "hello"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "1:1", "hello.ru"]
dir = "files/app"
port = {port}
health = "/"
boot_budget = "30s"
warmup = "0s"
why = "Fast."

[[workload]]
name = "hello"
connections = 2
duration = "2s"
runs = 3

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "load"
kind = "load"
workload = "hello"
why = "Cancelled in its second run."
"#
    )
}

/// The runs of the cells an attempt measured, from its log.
fn measured_runs(lines: &[String]) -> Vec<u32> {
    lines
        .iter()
        .filter_map(|l| {
            l.strip_prefix("lane hello / run ")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

#[test]
fn a_resumed_load_step_measures_only_the_cell_cut_off_and_those_after_it() {
    let s = setup("resumed", &recipe(free_port()));
    let plan = reprise_engine::plan(&s.recipe, &PlanOptions::default()).unwrap();
    let run = s.data.create_run(s.recipe.id()).unwrap();
    // Cancelled at the second run's first live figure.
    let cancel = CancelToken::new();
    let first = std::sync::Mutex::new(Vec::new());
    let sink = |e: Event| {
        if matches!(&e, Event::Measuring { run: 2, .. }) {
            cancel.cancel();
        }
        first.lock().unwrap().push(e);
    };
    let mut ctx = RunContext::new(
        s.data.clone(),
        run.clone(),
        s.root.clone(),
        cancel.clone(),
        &sink,
    );
    ctx.grace = Duration::from_secs(2);
    let report = reprise_engine::execute(&plan, &ctx).unwrap();
    assert!(report.cancelled, "{report:?}");
    let first = log_lines(&first.into_inner().unwrap());
    assert_eq!(measured_runs(&first), [1, 2], "{first:#?}");

    let again = execute(&s, Some(run.clone()), false, &|_| {});
    assert!(again.report.ok(), "{:?}", again.report);
    let lines = log_lines(&again.events);
    assert!(
        lines.iter().any(|l| l == "runs again: cancelled last time"),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("kept 1 cell measured before the cancel")),
        "{lines:#?}\nthe first attempt: {first:#?}"
    );
    assert_eq!(
        measured_runs(&lines),
        [2, 3],
        "only the cut-off cell and the one after: {lines:#?}\nthe first attempt: {first:#?}"
    );
    let cells = read_json(&run.results().join("results.json"))["cells"].clone();
    let runs: Vec<(u64, bool)> = cells
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["run"].as_u64().unwrap(), c["req_per_s"].is_number()))
        .collect();
    assert_eq!(runs, [(1, true), (2, true), (3, true)], "{cells:#}");
}
