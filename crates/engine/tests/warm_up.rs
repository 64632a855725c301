//! Each route is warmed up before each of its runs, as the posts' harness
//! warms it (`wrk -d$warm` before every 20-second measurement): against a
//! real server (Debian's puma) on 127.0.0.1 whose Rack app writes down each
//! request it answers, with when. A route's requests then come in one
//! stretch per run, warm-up and measurement together, never a stretch of
//! warm-up alone; a cell's timeout follows its own route's warm-up.

mod support;

use support::{execute, free_port, read_json, setup};

const WARMUP_S: f64 = 1.0;
const DURATION_S: f64 = 1.0;

fn recipe(port: u16, log: &str) -> String {
    format!(
        r##"
[post]
id = "warm"
title = "Warm"
author = "Test"
date = "2026"
summary = "Two routes, each warmed up before each run."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "The server."

[[file]]
path = "app/config.ru"
content = '''
log = File.open("{log}", "a")
log.sync = true
run ->(env) {{
  log.puts("#{{Process.clock_gettime(Process::CLOCK_MONOTONIC)}} #{{env["PATH_INFO"]}}")
  [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]]
}}
'''
why = "Each request written down with when."

[[lane]]
name = "puma"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "1:1", "config.ru"]
dir = "files/app"
port = {port}
health = "/up"
boot_budget = "30s"
warmup = "{WARMUP_S}s"
why = "One thread: one request at a time."

[[workload]]
name = "pages"
connections = 1
duration = "{DURATION_S}s"
runs = 2

[[workload.endpoint]]
name = "a"
path = "/a"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "b"
path = "/b"
expect = {{ status = 200 }}

[[step]]
id = "load"
kind = "load"
workload = "pages"
why = "Two routes, two runs each."
"##
    )
}

/// The stretches of requests to one route, in order: `(route, first, last)`
/// in seconds; the health checks left out.
fn stretches(log: &str) -> Vec<(String, f64, f64)> {
    let mut out: Vec<(String, f64, f64)> = Vec::new();
    for line in log.lines() {
        let (at, path) = line.split_once(' ').unwrap();
        let at: f64 = at.parse().unwrap();
        if path == "/up" {
            continue;
        }
        match out.last_mut() {
            Some((route, _, last)) if route == path => *last = at,
            _ => out.push((path.to_string(), at, at)),
        }
    }
    out
}

#[test]
fn each_route_is_warmed_up_before_each_of_its_runs() {
    assert!(
        std::process::Command::new("puma")
            .arg("--version")
            .output()
            .is_ok(),
        "puma is not installed (the test command installs it)"
    );
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    let s = setup("warm", &recipe(free_port(), &log.display().to_string()));
    let attempt = execute(&s, None, false, &|_| {});
    assert_eq!(attempt.report.finished, ["load"], "{:#?}", attempt.events);

    let seen = stretches(&std::fs::read_to_string(&log).unwrap());
    let routes: Vec<&str> = seen.iter().map(|(r, _, _)| r.as_str()).collect();
    // One stretch per route per run: the warm-up runs right before its
    // route's measurement, not all warm-ups first.
    assert_eq!(routes, ["/a", "/b", "/a", "/b"], "{seen:?}");
    for (route, first, last) in &seen {
        // Warm-up and measurement, back to back.
        assert!(
            last - first >= (WARMUP_S + DURATION_S) * 0.9,
            "{route}: {:.2} s of requests, not a warm-up of {WARMUP_S} s and a run of {DURATION_S} s: {seen:?}",
            last - first
        );
    }

    let results = read_json(&attempt.run.results().join("results.json"));
    let cells = results["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4, "{results:#}");
    for cell in cells {
        assert!(cell["req_per_s"].as_f64().unwrap() > 0.0, "{cell:#}");
    }
    // The harness's per-run.json, a line per run, says each run's warm-up.
    let per_run = std::fs::read_to_string(attempt.run.results().join("per-run.json")).unwrap();
    assert_eq!(per_run.lines().count(), 4, "{per_run}");
    for line in per_run.lines() {
        let run: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(run["warmup_sec"].as_f64(), Some(WARMUP_S), "{run:#}");
    }
}
