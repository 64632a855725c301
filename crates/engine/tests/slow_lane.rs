//! A lane slowed down keeps its cells, and one stalled for good on one
//! request is measured again. Against real servers (Debian's puma) on
//! 127.0.0.1 whose pages take 0.3 s: once the cell is measuring, one lane
//! answers one request 2.5 s late (as a busy machine can make any lane: a
//! page whose p99 was about a second waited past 2 s once beside the test
//! command's other lanes, and the cell, timed out at a fixed 2 s, had no
//! rate), the other never answers one (as a route answering in 16 ms left
//! one request unanswered for 2 s there). A request's timeout follows what
//! the lane's warm-up of that route took; a cell whose only errors are
//! timeouts is measured again once, and says so. Other work beside the test
//! may have either cell measured again too, for the CPU it took (the test
//! command's other lanes did, at stop 62's CI): the late lane's flag comes
//! back at each attempt, so whichever attempt is kept has its late response.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;

use reprise_engine::event::Event;
use support::{execute, free_port, read_json, setup};

/// `late` answers one request 2.5 s late once `late.flag` appears; `hung`
/// never answers one once `hung.flag` appears.
fn recipe(late: u16, hung: u16) -> String {
    let app = |flag: &str, stall: &str| {
        format!(
            r#"'run ->(env) {{ env["PATH_INFO"] == "/up" || ((File.delete("{flag}") rescue nil) ? sleep({stall}) : sleep(0.3)); [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}'"#
        )
    };
    let lane = |name: &str, port: u16| {
        format!(
            r#"
[[lane]]
name = "{name}"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "4:4", "{name}.ru"]
dir = "files/app"
port = {port}
health = "/up"
boot_budget = "30s"
warmup = "1s"
why = "Pages of 0.3 s."
"#
        )
    };
    format!(
        r#"
[post]
id = "slow"
title = "Slow"
author = "Test"
date = "2026"
summary = "Pages of 0.3 s, one of them late or never answered."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "The server."

[[file]]
path = "app/late.ru"
content = {late_app}
why = "One page 2.5 s late, once the flag is there."

[[file]]
path = "app/hung.ru"
content = {hung_app}
why = "One page never answered, once the flag is there."
{late_lane}{hung_lane}
[[workload]]
name = "pages"
connections = 2
duration = "6s"
runs = 1

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200 }}

[[step]]
id = "load"
kind = "load"
workload = "pages"
why = "Each lane measured once."
"#,
        late_app = app("late.flag", "2.5"),
        hung_app = app("hung.flag", "600"),
        late_lane = lane("late", late),
        hung_lane = lane("hung", hung),
    )
}

/// Which lanes' cells have started, which wait for their flag, and the
/// flags written, in order.
#[derive(Default)]
struct Flags {
    started: BTreeSet<String>,
    armed: BTreeSet<String>,
    flagged: Vec<String>,
}

#[test]
fn a_response_late_beyond_two_seconds_is_slow_and_one_never_answered_is_a_timeout() {
    assert!(
        std::process::Command::new("puma")
            .arg("--version")
            .output()
            .is_ok(),
        "puma is not installed (the test command installs it)"
    );
    let s = setup("slow", &recipe(free_port(), free_port()));
    let run = s.data.create_run(s.recipe.id()).unwrap();
    let app = run.files().join("app");
    // A second into each lane's cell, its flag: `late`'s at every attempt at
    // its cell (a busy machine may have it measured again, for the CPU other
    // work took, and each attempt then answers one request late), `hung`'s at
    // the first only (its second attempt answers every request).
    let flags = Mutex::new(Flags::default());
    let on_event = |e: &Event| {
        let mut f = flags.lock().unwrap();
        match e {
            Event::CellStarted { lane, .. } if lane == "late" || f.started.insert(lane.clone()) => {
                f.armed.insert(lane.clone());
            }
            Event::Measuring { lane, .. } if f.armed.remove(lane) => {
                f.flagged.push(lane.clone());
                std::fs::write(app.join(format!("{lane}.flag")), "").unwrap();
            }
            _ => {}
        }
    };
    let attempt = execute(&s, Some(run), false, &on_event);
    let flagged: BTreeSet<String> = flags.into_inner().unwrap().flagged.into_iter().collect();
    assert_eq!(
        flagged.len(),
        2,
        "both lanes measured: {:#?}",
        attempt.events
    );
    let results = read_json(&attempt.run.results().join("results.json"));
    let cell = |lane: &str| {
        results["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["lane"] == lane)
            .unwrap_or_else(|| panic!("no cell of {lane}: {results:#}"))
            .clone()
    };
    let (late, hung) = (cell("late"), cell("hung"));
    for c in [&late, &hung] {
        // Ten times the warm-up's p99 (0.3 s and a little), at most the cell.
        let timeout = c["timeout_s"].as_f64().unwrap();
        assert!((3.0..=6.0).contains(&timeout), "{c:#}");
        assert!(!Path::new(&app.join(format!("{}.flag", c["lane"].as_str().unwrap()))).exists());
    }
    // The late response never has the cell measured again; other work may
    // (its share then recorded), and the second attempt has one too.
    assert!(
        late.get("measured_again").is_none() || late["first_attempt_taken"].as_f64().is_some(),
        "{late:#}"
    );
    assert!(
        late["req_per_s"].as_f64().is_some(),
        "a slow cell has its rate: {late:#}"
    );
    assert_eq!(late["errors"]["timeout"], 0, "{late:#}");
    assert!(
        late["latency_ms"]["max"].as_f64().unwrap() >= 2500.0,
        "{late:#}"
    );
    // The request never answered: the first attempt had no rate, and the
    // cell was measured again, the first attempt kept in words.
    assert!(
        hung["req_per_s"].as_f64().is_some_and(|r| r > 0.0),
        "measured again: {hung:#}"
    );
    assert_eq!(hung["errors"]["timeout"], 0, "{hung:#}");
    let first = hung["measured_again"].as_str().unwrap_or_default();
    assert!(
        first.starts_with("the first attempt: 1 request with no response within ")
            && first.ends_with(" s, no other error"),
        "{hung:#}"
    );
}
