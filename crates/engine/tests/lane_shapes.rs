//! What each lane's server was given and ran (issue 47, point 8): placed as
//! the post's harness placed its HTTP lanes (`cpu_placement = "shared"`:
//! servers and load generator on every CPU) or split, a lane whose workers
//! are a share of its CPUs (Campfire's `(processor_count * 0.666).ceil`) is
//! given that count of the CPUs it was placed on, and `shapes.json` records
//! the CPUs its process may run on and the processes serving its port, read
//! from /proc. A server that chose another count than it was given (as
//! Campfire's own config/puma.rb does, from the CPUs it sees) is a deviation
//! of the run; sharing the servers' CPUs, the load generator's CPU time is
//! recorded as the method's. Real Puma (Debian's) in cluster mode.

mod support;

use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(placement: &str, ports: [u16; 2], own_workers: u32) -> String {
    let [sized, own] = ports;
    format!(
        r##"
[post]
id = "shapes"
title = "Shapes"
author = "Test"
date = "2026"
summary = "Two Puma lanes of one shape, one sizing itself."

[machine]
cpu = "Test CPU"
threads = 12
cpu_placement = "{placement}"
quote = "A test machine."

[[file]]
path = "app/config.ru"
why = "An app that answers."
content = '''
run lambda {{ |env| [200, {{}}, ["up"]] }}
'''

[[lane]]
name = "sized"
command = ["puma", "--bind", "tcp://127.0.0.1:{sized}", "--threads", "1:1", "config.ru"]
dir = "files/app"
port = {sized}
workers = {{ per_cpu = 0.666 }}
boot_budget = "30s"
why = "Given Campfire's count of its CPUs, as WEB_CONCURRENCY."

[[lane]]
name = "own"
command = ["puma", "--bind", "tcp://127.0.0.1:{own}", "--threads", "1:1", "--workers", "{own_workers}", "config.ru"]
dir = "files/app"
port = {own}
workers = {{ per_cpu = 0.666 }}
boot_budget = "30s"
why = "Given the same, but choosing its own count."

[[workload]]
name = "hello"
connections = 4
duration = "1s"
runs = 1

[[workload.endpoint]]
name = "/"
path = "/"

[[step]]
id = "serve"
kind = "serve"
why = "Boot both."

[[step]]
id = "load"
kind = "load"
workload = "hello"
lanes = ["sized"]
after = ["serve"]
why = "Load the one that ran as given."
"##
    )
}

fn campfire(cpus: usize) -> u32 {
    ((cpus as f64 * 0.666 - 1e-9).ceil() as u32).max(1)
}

fn shapes_of(
    placement: &str,
) -> (
    Vec<serde_json::Value>,
    serde_json::Value,
    Vec<String>,
    usize,
) {
    let all = reprise_cpus::allowed_cpus().len();
    let placed = if placement == "shared" || all < 2 {
        all
    } else {
        all / 2
    };
    let own = campfire(placed) + 1;
    let s = setup(
        "shapes",
        &recipe(placement, [free_port(), free_port()], own),
    );
    let a = execute(&s, None, false, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "load"], "{lines:#?}");
    let shapes = read_json(&a.run.results().join("shapes.json"));
    let deviations = read_json(&a.run.results().join("deviations.json"));
    // Sharing the server's CPUs, the load generator's CPU time is recorded
    // as the method's (not other work's); split, it has CPUs of its own.
    let results = read_json(&a.run.results().join("results.json"));
    let cell = &results["cells"][0];
    let generator_s = cell["server_cpu"]["generator_s"].as_f64();
    if placement == "shared" {
        assert!(generator_s.is_some_and(|s| s > 0.0), "{cell}");
    } else if all >= 2 {
        assert_eq!(generator_s, None, "{cell}");
    }
    (
        shapes.as_array().unwrap().clone(),
        deviations,
        lines,
        placed,
    )
}

fn check(placement: &str) {
    let (shapes, deviations, lines, placed) = shapes_of(placement);
    let of = |lane: &str| {
        shapes
            .iter()
            .find(|s| s["lane"] == lane)
            .unwrap_or_else(|| panic!("{lane}: {shapes:?}"))
            .clone()
    };
    let asked = campfire(placed);
    let sized = of("sized");
    assert_eq!(sized["cpus"], placed, "{sized}");
    assert_eq!(sized["cpus_seen"], placed, "{sized}");
    assert_eq!(sized["workers_asked"], asked, "{sized}");
    assert_eq!(sized["workers_seen"], asked, "{sized}");
    let own = of("own");
    assert_eq!(own["workers_asked"], asked, "{own}");
    assert_eq!(own["workers_seen"], asked + 1, "{own}");
    let shape: Vec<&serde_json::Value> = deviations
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "shape")
        .collect();
    assert_eq!(shape.len(), 1, "{deviations}");
    assert_eq!(
        shape[0]["lanes"],
        serde_json::json!(["own"]),
        "{deviations}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("lane own ran {} workers on", asked + 1))),
        "{lines:#?}"
    );
}

#[test]
fn shared_as_the_harness_placed_its_lanes_each_server_counts_every_cpu() {
    check("shared");
}

#[test]
fn split_each_server_counts_the_servers_half() {
    check("split");
}
