//! serve, check and load against real servers: Debian's puma in cluster
//! mode (a master forking two workers) and in single mode, a lane answering
//! 500, a lane whose server is not installed, and a lane killed mid-run.

mod support;

use std::time::Duration;

use reprise_engine::event::Event;
use reprise_engine::lanes::server_process::group_members;
use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(cluster: u16, victim: u16, broken: u16, absent: u16) -> String {
    format!(
        r#"
[post]
id = "lanes"
title = "Lanes"
author = "Test"
date = "2026"
summary = "Real servers, one of which dies."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "The server."

[[toolchain]]
name = "absent"
version = "*"
command = ["reprise-test-absent-server", "--version"]
pattern = '(\d+\.\d+)'
why = "A server this machine does not have."

[[file]]
path = "app/hello.ru"
content = 'run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}'
why = "13 bytes."

[[file]]
path = "app/other.ru"
content = 'run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, WORLD!"]] }}'
why = "13 other bytes."

[[file]]
path = "app/broken.ru"
content = 'run ->(env) {{ env["PATH_INFO"] == "/up" ? [200, {{}}, ["up"]] : [500, {{ "content-type" => "text/plain" }}, ["no"]] }}'
why = "Up, but errors on every page."

[[lane]]
name = "cluster"
needs = ["puma"]
workers = 2
command = ["puma", "--bind", "tcp://127.0.0.1:{cluster}", "--workers", "2", "--threads", "2:2", "--pidfile", "cluster.pid", "hello.ru"]
dir = "files/app"
port = {cluster}
health = "/"
boot_budget = "30s"
why = "A master and two forked workers."

[[lane]]
name = "victim"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{victim}", "--threads", "2:2", "--pidfile", "victim.pid", "other.ru"]
dir = "files/app"
port = {victim}
health = "/"
boot_budget = "30s"
why = "Killed during the first run."

[[lane]]
name = "broken"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{broken}", "broken.ru"]
dir = "files/app"
port = {broken}
health = "/up"
boot_budget = "30s"
why = "Answers 500."

[[lane]]
name = "missing"
needs = ["absent"]
command = ["reprise-test-absent-server", "--port", "{absent}"]
port = {absent}
why = "Not installed here."

[[workload]]
name = "hello"
connections = 4
duration = "1500ms"
warmup = "1s"
runs = 2

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "serve"
kind = "serve"
repeat = 2
why = "Boot twice from cold."

[[step]]
id = "check"
kind = "check"
workload = "hello"
after = ["serve"]
why = "Parity."

[[step]]
id = "load"
kind = "load"
workload = "hello"
after = ["check"]
why = "The matrix."
"#
    )
}

#[test]
fn lanes_are_served_checked_and_measured_and_a_crash_keeps_finished_cells() {
    let (cluster, victim, broken, absent) = (free_port(), free_port(), free_port(), free_port());
    let s = setup("lanes", &recipe(cluster, victim, broken, absent));
    let run_dir = s.data.create_run("lanes").unwrap();
    let files = run_dir.files().join("app");
    let victim_pid = files.join("victim.pid");
    let killed = std::sync::atomic::AtomicBool::new(false);
    let cluster_pid = std::sync::atomic::AtomicU32::new(0);
    let on_event = |e: &Event| {
        if let Event::Log { line, .. } = e
            && line.starts_with("lane victim / run 1:")
            && !killed.swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            let leader = std::fs::read_to_string(files.join("cluster.pid")).unwrap();
            cluster_pid.store(
                leader.trim().parse().unwrap(),
                std::sync::atomic::Ordering::SeqCst,
            );
            let pid: i32 = std::fs::read_to_string(&victim_pid)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            // The victim's process group, which this test's engine started.
            let group = rustix::process::Pid::from_raw(pid).expect("a pid");
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
    };
    let a = execute(&s, Some(run_dir.clone()), false, &on_event);
    let lines = log_lines(&a.events);
    assert!(
        killed.into_inner(),
        "the victim was never killed: {lines:#?}"
    );
    assert_eq!(a.report.finished, ["serve", "check", "load"], "{lines:#?}");
    // Live figures while a cell is measured, once a second, for progress bars and the app.
    let live: Vec<f64> = a
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Measuring {
                lane, req_per_s, ..
            } if lane == "cluster" => Some(*req_per_s),
            _ => None,
        })
        .collect();
    // A second in which no response ended (the machine busy elsewhere) is
    // a live reading of 0; none is negative or no number, and the cell
    // served.
    assert!(
        !live.is_empty()
            && live.iter().all(|r| r.is_finite() && *r >= 0.0)
            && live.iter().any(|r| *r > 0.0),
        "{live:?}"
    );
    let results = a.run.results();

    // serve: two cold starts per lane that could boot, accept before page.
    let cold = read_json(&results.join("coldstart.json"));
    let cold = cold.as_array().unwrap();
    for lane in ["cluster", "victim", "broken"] {
        let reps: Vec<_> = cold.iter().filter(|c| c["target"] == lane).collect();
        assert_eq!(
            reps.len(),
            2,
            "{lane}: {cold:?}\nskipped: {}\n{lines:#?}",
            std::fs::read_to_string(results.join("skipped.json")).unwrap_or_default()
        );
        for c in reps {
            let (accept, page) = (
                c["accept_ms"].as_f64().unwrap(),
                c["page_ms"].as_f64().unwrap(),
            );
            assert!(accept > 0.0 && accept <= page, "{c}");
            assert_eq!(c["page_code"], 200);
        }
    }

    // skipped.json: the missing toolchain, the lane answering errors, the crash.
    let skipped = read_json(&results.join("skipped.json"));
    let entry = |target: &str| {
        skipped
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["target"] == target)
            .unwrap_or_else(|| panic!("no skipped entry for {target}: {skipped}"))
            .clone()
    };
    assert_eq!(
        entry("missing")["reason"],
        "Cannot run: it needs absent, which this machine lacks."
    );
    assert_eq!(entry("broken")["stage"], "check");
    let crash = entry("victim");
    assert_eq!(crash["stage"], "load");
    assert!(
        crash["log_tail"].as_str().unwrap().contains("Puma"),
        "{crash}"
    );

    // check: the victim's body differs from the reference lane's.
    let check = read_json(&results.join("check.json"));
    let row = |lane: &str| {
        check
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["lane"] == lane)
            .unwrap()
            .clone()
    };
    assert_eq!(row("cluster")["differs"], false);
    assert_eq!(row("victim")["differs"], true);
    assert_eq!(row("cluster")["bytes"], 13);
    assert_eq!(row("broken")["status"], 500);

    // per-run.json through reprise-verdict: kept cell, then no data.
    let per_run = std::fs::read_to_string(results.join("per-run.json")).unwrap();
    let m = reprise_harness_files::per_run::parse(&per_run).unwrap();
    let req = |lane: &str| {
        m.cell(&reprise_verdict::CellKey::new(
            lane,
            Some("/"),
            reprise_recipe::Metric::ReqPerS,
        ))
        .map(|c| c.runs.iter().map(|r| r.value).collect::<Vec<_>>())
    };
    let victim_runs = req("victim").unwrap();
    assert!(victim_runs[0].is_some_and(|v| v > 0.0), "{per_run}");
    assert_eq!(victim_runs[1], None, "{per_run}");
    assert!(
        req("cluster")
            .unwrap()
            .iter()
            .all(|v| v.is_some_and(|v| v > 0.0)),
        "{per_run}"
    );
    assert_eq!(
        req("broken"),
        None,
        "a lane answering errors is not measured"
    );

    // The cluster's memory is its whole tree: master and two workers.
    let rich = read_json(&results.join("results.json"));
    let cell = rich["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["lane"] == "cluster")
        .unwrap()
        .clone();
    assert!(cell["processes"].as_u64().unwrap() >= 3, "{cell}");
    assert!(
        cell["rss_kb"].as_u64().unwrap() > cell["pss_kb"].as_u64().unwrap() / 2,
        "{cell}"
    );
    assert!(cell["pss_kb"].as_u64().unwrap() > 0, "{cell}");
    assert!(results.join(cell["hdr_log"].as_str().unwrap()).is_file());
    assert!(results.join("summary.json").is_file());
    assert!(read_json(&results.join("env.json"))["harness"]["runs"] == 2);

    // Nothing is left running.
    let cluster_pid = cluster_pid.into_inner();
    std::thread::sleep(Duration::from_millis(100));
    assert!(cluster_pid > 0 && group_members(cluster_pid).is_empty());
}

#[test]
fn a_port_someone_else_holds_is_refused_before_booting() {
    let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = holder.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let spec = reprise_engine::lanes::server_process::ServerSpec {
        lane: "late".into(),
        argv: vec![
            "puma".into(),
            "--bind".into(),
            format!("tcp://127.0.0.1:{port}"),
        ],
        dir: dir.path().to_path_buf(),
        env: Default::default(),
        address: std::net::Ipv4Addr::LOCALHOST.into(),
        port,
        health: Some("/".into()),
        boot_budget: Duration::from_secs(5),
        cpus: None,
        log: reprise_engine::os::run_files::RunFile::new(dir.path(), "late.log").unwrap(),
        grace: Duration::from_secs(1),
        container: None,
        processes: None,
    };
    let err = reprise_engine::lanes::server_process::LaneServer::start(&spec)
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .starts_with(&format!("port {port} already answers")),
        "{err}"
    );
    assert!(!dir.path().join("late.log").exists(), "nothing was started");
}
