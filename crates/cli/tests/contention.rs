//! Verdicts on a busy machine, against real servers on 127.0.0.1 (Debian's
//! Puma and nginx): a CPU hog that runs on the servers' CPU only while one
//! of two twin Pumas is measured makes that twin read well under the other
//! as measured; its spoiled runs are measured again, and the verdict,
//! judged per CPU-second, does not call the twins different, while the same
//! Puma serving an app that does more work, under the same hog, is decided
//! slower; a lane loaded by one connection is said to be below its ceiling.

mod support;

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::Checkout;
use support::servers::{HELLO_RU, nginx_lane, one_at_a_time, puma_lane, puma_lane_serving};

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

/// A Rack app that does about as much work again as Puma spends on a hello
/// request: the same Puma serving it is clearly slower.
const WORK_RU: &str = r#"[[file]]
path = "app/work.ru"
content = 'run ->(env) { x = 0; 2500.times { |i| x += i }; [200, { "content-type" => "text/plain" }, ["Hello, world!"]] }'
why = "13 bytes, after some arithmetic."
"#;

#[test]
fn a_contended_lane_is_measured_again_and_judged_per_cpu_second_twins_the_same_a_slower_app_decided()
 {
    let _servers = one_at_a_time();
    let claims = format!(
        r#"{}{}{}
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

[[claim]]
id = "work-serves-as-twin"
kind = "ratio"
numerator = "work-root"
denominator = "twin-root"
value = 1.0
tolerance = 0.1
quote = "An app doing more work serves as much."
"#,
        figure("puma", 5000),
        figure("twin", 5000),
        figure("work", 5000)
    );
    let lanes = format!(
        "{}\n{}\n{}",
        puma_lane("puma", "4:4", "Puma."),
        puma_lane("twin", "4:4", "Puma."),
        puma_lane_serving("work", "4:4", "work.ru", "Puma, more work.")
    );
    let c = Checkout::new(&[("busy", &recipe(WORK_RU, &lanes, 16, 4, &claims))]);
    let hog = Hog::on(servers_cpu());
    let mut child = c
        .command(&["run", "busy", "--yes", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The hog runs while puma and work are measured (each attempt), and
    // stops while the twin is: the twin is the quiet machine's reading.
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
        if event["event"] == "cell_started" {
            hog.signal(if event["lane"] == "twin" {
                rustix::process::Signal::STOP
            } else {
                rustix::process::Signal::CONT
            });
        }
    }
    assert!(child.wait().unwrap().success());
    drop(hog);

    // The runs the hog spoiled were measured again, up to a quarter of the
    // step's cells (puma's and work's are more than that), the first
    // attempts kept for the record, puma's first among them; each lost more
    // than a tenth of its CPU (the twin's too, where other work spoiled it).
    let record: Value = serde_json::from_slice(
        &std::fs::read(c.run_dir().unwrap().join("results/results.json")).unwrap(),
    )
    .unwrap();
    let set_aside = record["set_aside"].as_array().cloned().unwrap_or_default();
    assert_eq!(set_aside.len(), 3, "a quarter of 12 cells: {record:#}");
    assert!(
        set_aside
            .iter()
            .any(|c| c["lane"] == "puma" && c["run"] == 1),
        "{set_aside:#?}"
    );
    for first in &set_aside {
        let taken =
            first["cpu_wanted"].as_f64().unwrap().min(1.0) - first["cpu_share"].as_f64().unwrap();
        assert!(taken > 0.1, "{first:#}");
    }
    let again: Vec<&Value> = record["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["first_attempt_taken"].as_f64().is_some_and(|t| t > 0.1))
        .collect();
    assert_eq!(again.len(), 3, "{record:#}");
    assert!(
        again.iter().all(|c| c["measured_again"]
            .as_str()
            .unwrap()
            .starts_with("the first attempt: other work took ")),
        "{again:#?}"
    );

    let verdicts = verdicts(&c);
    let same = verdict(&verdicts, "twins-serve-the-same");
    assert_eq!(same["cpu"]["basis"], "per_cpu_second", "{same}");
    let as_measured = same["cpu"]["as_measured"]["estimate"].as_f64().unwrap();
    assert!(
        as_measured < 0.9,
        "as measured, outside the band: the hog took a fair part of puma's CPU: {same}"
    );
    assert_eq!(same["why"]["why"], "per_cpu_second", "{same}");
    let cpu_why = same["cpu"]["why"].as_str().unwrap();
    assert!(cpu_why.starts_with("other work took "), "{same}");
    let lanes = same["cpu"]["lanes"].as_array().unwrap();
    let measured_again: u64 = lanes
        .iter()
        .map(|l| l["measured_again"].as_u64().unwrap())
        .sum();
    assert!(
        (measured_again > 0) == cpu_why.contains(" measured again (other work took over 10% "),
        "{same}"
    );
    // Per CPU-second the twins are the same: reproduced, or, where the
    // share taken leaves the interval across the band, undecided; never
    // decided otherwise, as the rates as measured would have it.
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
    // The app that does more work is clearly slower, per CPU-second too,
    // and the widening for what the hog took does not hide it: decided.
    let work = verdict(&verdicts, "work-serves-as-twin");
    assert_eq!(work["cpu"]["basis"], "per_cpu_second", "{work}");
    assert_eq!(work["outcome"], "not_reproduced", "{work}");
    assert!(work["measured"]["high"].as_f64().unwrap() < 0.9, "{work}");
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
