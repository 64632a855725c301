//! Ctrl-C during a `reprise run` load step, with a real server (Debian's
//! puma) the lane starts on 127.0.0.1: the run ends within two seconds,
//! says it was cancelled, and exits non-zero, never 0 "finished". The
//! workload asks for an open-loop rate far past what one connection to puma
//! can carry, so each cell falls behind its schedule from the start.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn recipe(port: u16) -> String {
    format!(
        r#"
[post]
id = "interrupt"
title = "Interrupt"
author = "Test"
date = "2026"
summary = "Three short cells at a rate no server here sustains."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "The server."

[[file]]
path = "app/hello.ru"
content = 'run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}'
why = "13 bytes."

[[lane]]
name = "hello"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "2:2", "hello.ru"]
dir = "files/app"
port = {port}
health = "/"
boot_budget = "30s"
why = "A small fast server."

[[workload]]
name = "hello"
connections = 1
duration = "2s"
runs = 3
rate = 100000

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "load"
kind = "load"
workload = "hello"
why = "Interrupted in its second second."
"#
    )
}

use reprise_test_support::free_port;

#[test]
fn ctrl_c_during_a_load_step_ends_the_run_cancelled_within_two_seconds() {
    assert!(
        Command::new("puma").arg("--version").output().is_ok(),
        "puma is not installed (the test command installs it)"
    );
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("recipes")).unwrap();
    std::fs::create_dir_all(root.join("checksums")).unwrap();
    std::fs::write(root.join("recipes/interrupt.toml"), recipe(free_port())).unwrap();
    std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
    let reprise = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_reprise"));
        command
            .args(args)
            .env("REPRISE_ROOT", &root)
            .env("REPRISE_DATA_DIR", dir.path().join("data"))
            .current_dir(&root)
            .stdin(Stdio::null());
        command
    };
    let updated = reprise(&["checksums", "update"]).output().unwrap();
    assert!(updated.status.success(), "{updated:?}");

    let mut child = reprise(&["run", "interrupt", "--yes", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, printed) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = lines.send(line);
        }
    });
    // The first live figure comes a second into the first cell; 1.5 s later
    // that cell's two seconds are over.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("\"measuring\"")) {
        match printed.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => seen.push(line),
            Err(_) => {
                let _ = child.kill();
                panic!("nothing was measured:\n{}", seen.join("\n"));
            }
        }
    }
    std::thread::sleep(Duration::from_millis(1500));
    let interrupted = Instant::now();
    // A child this test spawned and has not reaped.
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::INT,
    )
    .unwrap();
    // What Reprise is doing while it ends, sampled: said when it ends late.
    let mut seen_ending = Ending::default();
    let status = loop {
        seen_ending.sample(child.id(), interrupted.elapsed());
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if interrupted.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the run ignored Ctrl-C for 20 s:\n{seen_ending}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = interrupted.elapsed();
    let mut stderr = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr);
    reader.join().unwrap();
    seen.extend(printed.try_iter());
    assert!(
        took < Duration::from_secs(2),
        "took {took:?} to end:\n{stderr}\nwhat its threads waited in, and its children, as it ended:\n{seen_ending}"
    );
    assert!(
        !status.success(),
        "a cancelled run is not a success: {stderr}"
    );
    assert!(
        stderr.contains(" cancelled: "),
        "the run says it was cancelled: {stderr}"
    );
    assert!(
        seen.iter().any(|l| l.contains("\"event\":\"cancelled\"")),
        "{}",
        seen.join("\n")
    );
    let run: PathBuf = std::fs::read_dir(dir.path().join("data/runs"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let state = std::fs::read_to_string(run.join("state.json")).unwrap();
    assert!(state.contains("\"cancelled\""), "{state}");
}

/// A process's ending as sampled from /proc: each change of what its
/// threads wait in (their state and kernel wait channel) and of its
/// children, with when, from the interrupt on.
#[derive(Default)]
struct Ending {
    last: String,
    changes: Vec<(Duration, String)>,
}

impl Ending {
    fn sample(&mut self, pid: u32, at: Duration) {
        let now = Self::state(pid);
        if now != self.last {
            self.changes.push((at, now.clone()));
            self.last = now;
        }
    }

    fn state(pid: u32) -> String {
        let read = |p: String| std::fs::read_to_string(p).unwrap_or_default();
        let tids: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|t| t.file_name().to_string_lossy().to_string())
            .collect();
        let mut threads: Vec<String> = tids
            .iter()
            .map(|tid| {
                let stat = read(format!("/proc/{pid}/task/{tid}/stat"));
                let state = stat
                    .rsplit(") ")
                    .next()
                    .unwrap_or("")
                    .chars()
                    .next()
                    .unwrap_or('?');
                let comm = read(format!("/proc/{pid}/task/{tid}/comm"));
                let wchan = read(format!("/proc/{pid}/task/{tid}/wchan"));
                format!("{} {state} {wchan}", comm.trim())
            })
            .collect();
        threads.sort();
        threads.dedup();
        // Each thread's children: a child is its forking thread's.
        let children: Vec<String> = tids
            .iter()
            .flat_map(|tid| {
                read(format!("/proc/{pid}/task/{tid}/children"))
                    .split_whitespace()
                    .map(|c| format!("{c} {}", read(format!("/proc/{c}/comm")).trim()))
                    .collect::<Vec<_>>()
            })
            .collect();
        format!(
            "threads [{}] children [{}]",
            threads.join(", "),
            children.join(", ")
        )
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (at, state) in &self.changes {
            writeln!(f, "  {:>6.2} s  {state}", at.as_secs_f64())?;
        }
        Ok(())
    }
}
