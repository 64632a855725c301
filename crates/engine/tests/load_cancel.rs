//! A cancel during a load cell, against a real server (Debian's puma) on
//! 127.0.0.1 whose every page takes 1.5 s: the cell stops within a second
//! (not at the next progress tick, not once the responses in flight come
//! back), is recorded as cancelled and not as a measurement, and the run
//! ends cancelled.

mod support;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{PlanOptions, RunContext};
use support::{free_port, read_json, setup};

fn recipe(port: u16, warmup: &str) -> String {
    format!(
        r#"
[post]
id = "cancel"
title = "Cancel"
author = "Test"
date = "2026"
summary = "A slow server, loaded for half a minute."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "The server."

[[file]]
path = "app/slow.ru"
content = 'run ->(env) {{ sleep 1.5 unless env["PATH_INFO"] == "/up"; [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}'
why = "Every page takes 1.5 s."

[[lane]]
name = "slow"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "4:4", "slow.ru"]
dir = "files/app"
port = {port}
health = "/up"
boot_budget = "30s"
warmup = "{warmup}"
why = "Slow on purpose."

[[workload]]
name = "slow"
connections = 2
duration = "30s"
runs = 2

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200 }}

[[step]]
id = "load"
kind = "load"
workload = "slow"
why = "Cancelled midway."
"#
    )
}

fn puma_here() -> bool {
    std::process::Command::new("puma")
        .arg("--version")
        .output()
        .is_ok()
}

struct Cancelled {
    report: reprise_engine::RunReport,
    events: Vec<Event>,
    /// From the cancel to the cell's end (the step's, when it ended first).
    took: Duration,
    results: std::path::PathBuf,
    _setup: support::Setup,
}

/// Runs the recipe and cancels it at the first event `cancel_on` picks.
fn run_and_cancel(text: &str, cancel_on: impl Fn(&Event) -> bool + Sync) -> Cancelled {
    let s = setup("cancel", text);
    let plan = reprise_engine::plan(&s.recipe, &PlanOptions::default()).unwrap();
    let run = s.data.create_run(s.recipe.id()).unwrap();
    let cancel = CancelToken::new();
    let cancelled_at: Mutex<Option<Instant>> = Mutex::new(None);
    let step_ended: Mutex<Option<Instant>> = Mutex::new(None);
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| {
        if cancel_on(&e) && !cancel.is_cancelled() {
            *cancelled_at.lock().unwrap() = Some(Instant::now());
            cancel.cancel();
        }
        // The cell's end: its note saying it was cancelled (then the step
        // writes its results and stops the lanes, SIGTERM then SIGKILL).
        let cell_ended =
            matches!(&e, Event::Log { line, .. } if line.contains("cancelled during this cell"));
        let step_ended_now = matches!(&e, Event::Cancelled { step } | Event::Failed { step, .. } | Event::Finished { step, .. } if step == "load");
        if cell_ended || step_ended_now {
            step_ended.lock().unwrap().get_or_insert_with(Instant::now);
        }
        events.lock().unwrap().push(e);
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
    let events = events.into_inner().unwrap();
    let cancelled_at = cancelled_at
        .into_inner()
        .unwrap()
        .unwrap_or_else(|| panic!("never cancelled: {events:#?}"));
    let took = step_ended.into_inner().unwrap().unwrap() - cancelled_at;
    Cancelled {
        report,
        events,
        took,
        results: run.results(),
        _setup: s,
    }
}

#[test]
fn a_cancel_mid_cell_stops_it_within_a_second_and_it_is_not_a_measurement() {
    assert!(
        puma_here(),
        "puma is not installed (the test command installs it)"
    );
    // Cancelled right after a live figure: the next would come a second later.
    let Cancelled {
        report,
        events,
        took,
        results,
        _setup: _kept,
    } = run_and_cancel(&recipe(free_port(), "0s"), |e| {
        matches!(e, Event::Measuring { .. })
    });
    assert!(
        took < Duration::from_secs(1),
        "the cell took {took:?} to stop"
    );
    assert!(report.cancelled && !report.ok(), "{report:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Cancelled { step } if step == "load")),
        "{events:#?}"
    );
    let cells = read_json(&results.join("results.json"))["cells"].clone();
    let cells = cells.as_array().unwrap();
    assert_eq!(cells.len(), 1, "{cells:#?}");
    assert_eq!(cells[0]["cancelled"], true, "{cells:#?}");
    assert!(cells[0]["req_per_s"].is_null());
    let measured = read_json(&results.join("measurements.json"));
    assert!(
        measured["cells"].as_array().unwrap().is_empty(),
        "a cancelled cell is no run: {measured:#}"
    );
}

#[test]
fn a_cancel_during_the_warm_up_stops_it_within_a_second() {
    assert!(
        puma_here(),
        "puma is not installed (the test command installs it)"
    );
    let Cancelled {
        report,
        events,
        took,
        _setup: _kept,
        ..
    } = run_and_cancel(
        &recipe(free_port(), "30s"),
        |e| matches!(e, Event::Log { line, .. } if line.contains("warming up")),
    );
    // The cancel comes as the warm-up starts; the slow responses are then in flight.
    assert!(
        took < Duration::from_secs(1),
        "the warm-up took {took:?} to stop"
    );
    assert!(report.cancelled, "{report:?}");
    assert!(
        !events.iter().any(|e| matches!(e, Event::Measuring { .. })),
        "nothing was measured"
    );
}
