//! Verdicts on a busy machine, against real servers on 127.0.0.1 (Debian's
//! Puma and nginx): a CPU hog that runs on the servers' CPU only while one
//! of two twin Pumas is measured makes that twin read well under the other
//! as measured, and the verdict, judged per CPU-second, does not call them
//! different; a lane loaded by one connection is said to be below its
//! ceiling.

mod support;

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::Checkout;
use support::servers::{HELLO_RU, nginx_lane, one_at_a_time, puma_lane};

fn figure(lane: &str, value: u32) -> String {
    format!(
        r#"[[figure]]
id = "{lane}-root"
lane = "{lane}"
endpoint = "/"
metric = "req_per_s"
value = {value}
quote = "{lane}."
"#
    )
}

/// A recipe of `lanes` (with `files`) answering 13 bytes at "/" to
/// `connections` connections, `runs` runs of `duration`, and `claims`.
fn recipe(files: &str, lanes: &str, connections: u32, runs: u32, claims: &str) -> String {
    format!(
        r#"
[post]
id = "busy"
title = "Busy"
author = "Test"
date = "2026"
summary = "Servers measured on a busy machine."

{HELLO_RU}

{files}

{lanes}

[[workload]]
name = "hello"
connections = {connections}
duration = "3s"
warmup = "1s"
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

{claims}
"#
    )
}

/// The first CPU this process may use: the one the run gives its servers
/// (the first half of the allowed CPUs).
fn servers_cpu() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_string();
    list.split([',', '-']).next().unwrap().parse().unwrap()
}

/// Two busy loops on `cpu`, stopped until they are let go: beside them a
/// four-thread Puma loses about a quarter of its CPU.
struct Hog(Vec<Child>);

impl Hog {
    fn on(cpu: u32) -> Hog {
        let spin = || {
            Command::new("taskset")
                .args([
                    "-c",
                    &cpu.to_string(),
                    "sh",
                    "-c",
                    "kill -STOP $$; while :; do :; done",
                ])
                .spawn()
                .expect("taskset (util-linux) and sh")
        };
        Hog(vec![spin(), spin()])
    }

    fn signal(&self, sig: rustix::process::Signal) {
        for child in &self.0 {
            // A child this test spawned and has not reaped.
            rustix::process::kill_process(rustix::process::Pid::from_child(child), sig).unwrap();
        }
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The run's verdicts, as `reprise report --format json` gives them.
fn verdicts(c: &Checkout) -> Vec<Value> {
    let run = c.run_dir().unwrap();
    let id = run.file_name().unwrap().to_str().unwrap();
    let out = c
        .command(&["report", id, "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["judgement"]["verdicts"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .clone()
}

fn verdict<'a>(verdicts: &'a [Value], claim: &str) -> &'a Value {
    verdicts
        .iter()
        .find(|v| v["claim"] == claim)
        .unwrap_or_else(|| panic!("no verdict {claim}: {verdicts:?}"))
}

#[test]
fn twins_one_of_them_contended_are_judged_the_same_per_cpu_second() {
    let _servers = one_at_a_time();
    let claims = format!(
        r#"{}{}
[[claim]]
id = "twins-serve-the-same"
kind = "ratio"
numerator = "puma-root"
denominator = "twin-root"
value = 1.0
tolerance = 0.1
quote = "Twin servers serve the same."

[[claim]]
id = "twin-above-puma"
kind = "ordering"
order = ["twin-root", "puma-root"]
tolerance = 0.1
quote = "The twin is ahead."
"#,
        figure("puma", 5000),
        figure("twin", 5000)
    );
    let lanes = format!(
        "{}\n{}",
        puma_lane("puma", "4:4", "Puma."),
        puma_lane("twin", "4:4", "Puma.")
    );
    let c = Checkout::new(&[("busy", &recipe("", &lanes, 16, 6, &claims))]);
    let hog = Hog::on(servers_cpu());
    let mut child = c
        .command(&["run", "busy", "--yes", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The hog runs while puma is measured, and stops while its twin is.
    let stdout = child.stdout.take().unwrap();
    let until = Instant::now() + Duration::from_secs(180);
    for line in std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
    {
        assert!(Instant::now() < until, "the run took over 180 s");
        let Ok(event) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if event["event"] == "measuring" {
            hog.signal(if event["lane"] == "puma" {
                rustix::process::Signal::CONT
            } else {
                rustix::process::Signal::STOP
            });
        }
    }
    assert!(child.wait().unwrap().success());
    drop(hog);

    let verdicts = verdicts(&c);
    let same = verdict(&verdicts, "twins-serve-the-same");
    assert_eq!(same["cpu"]["basis"], "per_cpu_second", "{same}");
    let as_measured = same["cpu"]["as_measured"]["estimate"].as_f64().unwrap();
    assert!(
        as_measured < 0.9,
        "as measured, outside the band: the hog took a fair part of puma's CPU: {same}"
    );
    assert_eq!(same["why"]["why"], "per_cpu_second", "{same}");
    assert!(
        same["cpu"]["why"]
            .as_str()
            .unwrap()
            .starts_with("other work took "),
        "{same}"
    );
    // Per CPU-second the twins are the same: reproduced, or, where this
    // machine's noise is wider than the band, undecided; never decided
    // otherwise, as the rates as measured would have it.
    let per_cpu = same["measured"]["estimate"].as_f64().unwrap();
    assert!((0.8..1.25).contains(&per_cpu), "{same}");
    assert!(
        same["outcome"] == "reproduced" || same["outcome"] == "inconclusive",
        "{same}"
    );
    // Nor is the twin ahead: level, or undecided.
    let ordering = verdict(&verdicts, "twin-above-puma");
    assert_ne!(ordering["outcome"], "reproduced", "{ordering}");
    if ordering["outcome"] == "not_reproduced" {
        // Judged per CPU-second where the hog took CPU: the ordering within.
        let why = &ordering["why"];
        let judged = if why["why"] == "per_cpu_second" {
            &why["judged"]
        } else {
            why
        };
        assert_eq!(judged["finding"]["finding"], "level", "{ordering}");
        assert_eq!(
            judged["pairs"][0]["first"]["figure"], "twin-root",
            "{ordering}"
        );
    }
}

#[test]
fn a_lane_one_connection_cannot_keep_busy_is_below_its_ceiling() {
    let _servers = one_at_a_time();
    let (nginx, conf) = nginx_lane("Fast.");
    let claims = format!(
        r#"{}{}
[[claim]]
id = "nginx-outpaces-puma"
kind = "ratio"
numerator = "nginx-root"
denominator = "puma-root"
value = 3.0
tolerance = 0.5
quote = "nginx serves three times what Puma does."
"#,
        figure("nginx", 15000),
        figure("puma", 5000)
    );
    let lanes = format!("{nginx}\n{}", puma_lane("puma", "4:4", "Puma."));
    let c = Checkout::new(&[("busy", &recipe(&conf, &lanes, 1, 2, &claims))]);
    let out = c.command(&["run", "busy", "--yes"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdicts = verdicts(&c);
    let v = verdict(&verdicts, "nginx-outpaces-puma");
    assert_eq!(v["outcome"], "inconclusive", "{v}");
    assert_eq!(v["cpu"]["basis"], "below_ceiling", "{v}");
    assert_eq!(v["why"]["why"], "below_ceiling", "{v}");
    assert!(
        v["cpu"]["why"]
            .as_str()
            .unwrap()
            .starts_with("the load did not reach the ceiling: nginx had "),
        "{v}"
    );
    // The report's cell table says what each server got.
    let id = c.run_dir().unwrap();
    let id = id.file_name().unwrap().to_str().unwrap();
    let md = c.command(&["report", id]).output().unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("| Server CPU |"), "{md}");
    assert!(md.contains("of 1 CPU, idle "), "{md}");
}
