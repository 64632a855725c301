//! No more lanes up at once than fit: three lanes of a Rack app under
//! Debian's Puma, each holding a 150 MB ballast, under a limit of 400 MB on
//! what the lanes hold together (the run's own limit; the machine's
//! available memory applies too, and is far larger here). Processes are
//! counted from /proc while the run goes on: never more than two lanes'
//! servers at once, and every cell measured.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use reprise_engine::PlanOptions;
use support::{execute_with, free_port, log_lines, read_json, setup};

fn recipe(token: &str, ports: [u16; 3]) -> String {
    let lanes: String = ["a", "b", "c"]
        .iter()
        .zip(ports)
        .map(|(name, port)| {
            format!(
                r#"
[[lane]]
name = "{name}"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "1:1", "config.ru"]
dir = "files/app"
port = {port}
env = {{ MEMORY_TEST = "{token}-{name}" }}
health = "/"
boot_budget = "30s"
warmup = "0s"
why = "The app, holding 150 MB."
"#
            )
        })
        .collect();
    format!(
        r#"
[post]
id = "memory"
title = "Memory"
author = "Test"
date = "2026"
summary = "Three lanes, room for two."

[[file]]
path = "app/config.ru"
why = "A server that holds 150 MB."
content = '''
BALLAST = "x" * 150_000_000
run lambda {{ |env| [200, {{"content-type" => "text/plain"}}, ["ok"]] }}
'''

[[step]]
id = "serve"
kind = "serve"
why = "Boot."

[[step]]
id = "check"
kind = "check"
workload = "hello"
after = ["serve"]
why = "Check."

[[step]]
id = "load"
kind = "load"
workload = "hello"
after = ["check"]
why = "Measure."
{lanes}
[[workload]]
name = "hello"
connections = 2
duration = "1s"
runs = 2

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200 }}
"#
    )
}

/// The lanes whose servers are running now, by their `MEMORY_TEST`.
fn lanes_up(token: &str) -> BTreeSet<String> {
    let mut up = BTreeSet::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        for var in environ.split(|&b| b == 0) {
            if let Some(lane) = var
                .strip_prefix(b"MEMORY_TEST=")
                .and_then(|v| v.strip_prefix(token.as_bytes()))
            {
                up.insert(String::from_utf8_lossy(lane).to_string());
            }
        }
    }
    up
}

#[test]
fn a_step_holds_no_more_lanes_up_than_fit_and_measures_every_cell() {
    let token = format!("memory-{}", free_port());
    let s = setup(
        "memory",
        &recipe(&token, [free_port(), free_port(), free_port()]),
    );
    let done = Arc::new(AtomicBool::new(false));
    let most = Arc::new(AtomicUsize::new(0));
    let watcher = {
        let (done, most, token) = (done.clone(), most.clone(), token.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                most.fetch_max(lanes_up(&token).len(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let a = execute_with(&s, &PlanOptions::default(), None, &|_| {}, &|ctx| {
        ctx.lane_memory_limit_kb = Some(400 * 1024)
    });
    done.store(true, Ordering::Relaxed);
    watcher.join().unwrap();
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "check", "load"], "{lines:#?}");
    assert_eq!(
        most.load(Ordering::Relaxed),
        2,
        "at most two lanes' servers up at once, and two were: {lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("stopped to make room for lane")),
        "{lines:#?}"
    );
    let results = read_json(&a.run.results().join("results.json"));
    let cells = results["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6, "{results}");
    for cell in cells {
        assert!(cell["req_per_s"].as_f64().is_some(), "{cell}");
    }
}
