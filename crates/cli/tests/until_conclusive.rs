//! `reprise run --until-conclusive` against real servers on 127.0.0.1
//! (Debian's nginx and Puma): a claim decided by the recipe's own runs adds
//! none; a claim the machine's noise cannot decide stops with that reason,
//! within the budget; a cancel during the added runs keeps every run.

mod support;

use std::io::BufRead;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::Checkout;
use support::servers::{HELLO_RU, nginx_lane, one_at_a_time, puma_lane};

/// Which servers a recipe's one workload loads.
enum Lanes {
    /// Debian's nginx and Puma: one far faster than the other.
    NginxAndPuma,
    /// Puma and its twin (a second Puma serving the same app): only two
    /// lanes, so their order alternates exactly (puma first in odd runs,
    /// twin first in even ones) and neither holds a place of its own (with
    /// nginx between them one Puma was always the middle lane, and measured
    /// 4–9% above its twin in every run).
    PumaTwins,
}

/// A recipe of `lanes` answering 13 bytes at "/", with `runs` runs and
/// `figures_and_claims`.
fn recipe(runs: u32, lanes: Lanes, figures_and_claims: &str) -> String {
    let (lanes, files) = match lanes {
        Lanes::NginxAndPuma => {
            let (nginx, conf) = nginx_lane("Fast.");
            (
                format!("{nginx}\n{}", puma_lane("puma", "1:1", "Slower.")),
                conf,
            )
        }
        Lanes::PumaTwins => (
            format!(
                "{}\n{}",
                puma_lane("puma", "1:1", "Puma."),
                puma_lane("twin", "1:1", "Puma again.")
            ),
            String::new(),
        ),
    };
    format!(
        r#"
[post]
id = "conclusive"
title = "Conclusive"
author = "Test"
date = "2026"
summary = "Two servers; claims that the runs decide, and one they cannot."

{HELLO_RU}

{files}

{lanes}

[[workload]]
name = "hello"
connections = 2
duration = "1s"
runs = {runs}

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "load"
kind = "load"
workload = "hello"
why = "Measures."

{figures_and_claims}
"#
    )
}

const ORDERING: &str = r#"
[[figure]]
id = "nginx-root"
lane = "nginx"
endpoint = "/"
metric = "req_per_s"
value = 60000
quote = "nginx is fast."

[[figure]]
id = "puma-root"
lane = "puma"
endpoint = "/"
metric = "req_per_s"
value = 5000
quote = "Puma is slower."

[[claim]]
id = "nginx-above-puma"
kind = "ordering"
order = ["nginx-root", "puma-root"]
ceiling = false
quote = "nginx is faster than Puma."
"#;

/// Puma against its twin within a tenth of a percent: run-to-run noise is
/// wider. Two lanes, not one lane's two endpoints: a lane's endpoints are
/// loaded in the same order every run, and the first after a lane's idle
/// spell measures systematically slower (13% here), which decides the
/// claim; lanes alternate their order, so the twins share that penalty.
const SAME_WITHIN_A_HAIR: &str = r#"
[[figure]]
id = "puma-root"
lane = "puma"
endpoint = "/"
metric = "req_per_s"
value = 5000
quote = "Puma."

[[figure]]
id = "twin-root"
lane = "twin"
endpoint = "/"
metric = "req_per_s"
value = 5000
quote = "Puma again."

[[claim]]
id = "same-within-a-hair"
kind = "ratio"
numerator = "puma-root"
denominator = "twin-root"
value = 1.0
tolerance = 0.001
ceiling = false
quote = "The same page from twin servers is as fast, within a tenth of a percent."
"#;

fn checkout(recipe: &str) -> Checkout {
    Checkout::new(&[("conclusive", recipe)])
}

/// `reprise run conclusive --until-conclusive --budget BUDGET`.
fn run(c: &Checkout, budget: &str) -> Output {
    let args = [
        "run",
        "conclusive",
        "--yes",
        "--until-conclusive",
        "--budget",
        budget,
    ];
    c.command(&args).output().unwrap()
}

fn results(run: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("results/results.json")).unwrap())
        .unwrap()
}

fn runs_measured(results: &Value) -> Vec<u64> {
    let mut runs: Vec<u64> = results["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["run"].as_u64())
        .collect();
    runs.sort();
    runs.dedup();
    runs
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_claim_the_recipe_s_runs_decide_adds_no_run() {
    let _servers = one_at_a_time();
    // Five runs of the recipe's: over three, at the looks' 99.17%, a
    // Student-t interval of runs varying 20–30% (as they do here beside the
    // other tests) reaches from below one to past 20×, even for nginx
    // against Puma.
    let c = checkout(&recipe(5, Lanes::NginxAndPuma, ORDERING));
    let out = run(&c, "60s");
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let results = results(&c.run_dir().unwrap());
    let record = &results["until_conclusive"];
    assert_eq!(record["runs"], 5, "{record}");
    assert_eq!(runs_measured(&results), [1, 2, 3, 4, 5], "no run was added");
    assert_eq!(
        record["looks"][0]["claims"][0]["standing"], "decided",
        "{record}"
    );
    assert!(said.contains("reproduced (decided after 5 runs)"), "{said}");
}

#[test]
fn a_claim_the_noise_cannot_decide_stops_within_the_budget_saying_why() {
    let _servers = one_at_a_time();
    let c = checkout(&recipe(3, Lanes::PumaTwins, SAME_WITHIN_A_HAIR));
    let started = Instant::now();
    let out = run(&c, "20s");
    let took = started.elapsed();
    let said = text(&out);
    let results = results(&c.run_dir().unwrap());
    let record = &results["until_conclusive"];
    let stopped = record["stopped"].as_str().unwrap_or_default();
    assert!(
        stopped.contains("beyond what more runs could settle") || stopped.contains("the budget"),
        "{record}"
    );
    assert!(said.contains("noise ±"), "the noise is said: {said}");
    let standings: Vec<&str> = record["looks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["claims"][0]["standing"].as_str())
        .collect();
    assert!(!standings.contains(&"decided"), "{record}");
    // The recipe's runs (6 cells of a second) and warm-ups, then at most
    // the 20 s budget.
    assert!(took < Duration::from_secs(90), "took {took:?}");
    assert!(
        !said.contains("same-within-a-hair  ratio  reproduced"),
        "{said}"
    );
}

#[test]
fn a_cancel_during_the_added_runs_keeps_every_run() {
    let _servers = one_at_a_time();
    // One run of the recipe's, so the first look (at three runs) needs two
    // more of every cell: the rounds Reprise adds.
    let c = checkout(&recipe(1, Lanes::NginxAndPuma, ORDERING));
    let mut child = c
        .command(&[
            "run",
            "conclusive",
            "--yes",
            "--until-conclusive",
            "--budget",
            "60s",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if let Ok(event) = serde_json::from_str(&line)
                && tx.send(event).is_err()
            {
                return;
            }
        }
    });
    // The first cell of run 2 under way: Ctrl-C.
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let event = rx
            .recv_timeout(left)
            .expect("no cell of run 2 within 120 s");
        if event["event"] == "measuring" && event["run"] == 2 {
            break;
        }
    }
    // A child this test spawned and has not reaped.
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::INT,
    )
    .unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "a cancelled run never exits 0");
    let results = results(&c.run_dir().unwrap());
    let runs = runs_measured(&results);
    assert!(runs.contains(&2), "the added run was not kept: {runs:?}");
    let per_run =
        std::fs::read_to_string(c.run_dir().unwrap().join("results/per-run.json")).unwrap();
    assert!(per_run.contains("\"run\":2"), "{per_run}");
}
