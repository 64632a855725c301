//! Fault injection: `reprise run` with real Puma and nginx lanes (Debian's)
//! is killed with SIGKILL at seeded random moments — while a step's children
//! run, while the lanes boot, while they are measured — and started again.
//! No process of the killed attempt survives the next one's start, nothing
//! a finished step wrote is lost or redone, and a run that could not
//! complete never exits 0. `reprise clean` ends what a killed run left
//! running. `REPRISE_FAULT_SEED=N` replays other moments. Loopback only.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;

fn recipe(puma: u16, nginx: u16) -> String {
    format!(
        r#"
[post]
id = "faults"
title = "Faults"
author = "Test"
date = "2026"
summary = "Real servers; Reprise is killed at random moments."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "A server that forks workers."

[[toolchain]]
name = "nginx"
version = "*"
command = ["nginx", "-v"]
pattern = 'nginx/(\d+\.\d+\.\d+)'
why = "A server that forks workers."

[[file]]
path = "app/config.ru"
content = 'run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}'
why = "13 bytes."

[[file]]
path = "app/nginx.conf"
content = """
worker_processes 2;
error_log stderr;
pid nginx.pid;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path tmp;
  proxy_temp_path tmp;
  fastcgi_temp_path tmp;
  uwsgi_temp_path tmp;
  scgi_temp_path tmp;
  server {{
    listen 127.0.0.1:{nginx};
    location / {{ default_type text/plain; return 200 "Hello, world!"; }}
  }}
}}
"""
why = "The same 13 bytes from two nginx workers."

[[lane]]
name = "nginx"
needs = ["nginx"]
command = ["nginx", "-p", ".", "-c", "nginx.conf", "-g", "daemon off;"]
dir = "files/app"
port = {nginx}
health = "/"
boot_budget = "10s"
warmup = "300ms"
why = "A master and two workers."

[[lane]]
name = "puma"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{puma}", "--workers", "2", "--threads", "2:2", "--pidfile", "puma.pid", "config.ru"]
dir = "files/app"
port = {puma}
health = "/"
boot_budget = "30s"
warmup = "300ms"
why = "A master and two workers."

[[workload]]
name = "hello"
connections = 2
duration = "1s"
runs = 2

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "prep"
kind = "command"
command = ["sh", "-c", "echo ran >> prep.count"]
why = "Finishes before anything is killed."

[[step]]
id = "slow"
kind = "command"
after = ["prep"]
command = ["sh", "-c", "echo $$ > slow.pid; sleep 300 & sleep 2; echo ran >> slow.count"]
why = "Has a child of its own (in its group) while it runs."

[[step]]
id = "serve"
kind = "serve"
after = ["slow"]
why = "Boots both lanes."

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
why = "Measures both lanes."
"#
    )
}

/// What each step leaves in the run's folder, to be kept when it finished.
const STEP_FILES: &[(&str, &[&str])] = &[
    ("prep", &["prep.count"]),
    ("slow", &["slow.count"]),
    ("serve", &["results/coldstart.json"]),
    ("check", &["results/check.json", "results/parity.json"]),
];

use reprise_test_support::free_port;

/// Seeded moments: the same seed kills at the same moments.
struct Moments(u64);

impl Moments {
    fn new(test: u64) -> Moments {
        let seed = std::env::var("REPRISE_FAULT_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x5eed_0015);
        eprintln!("REPRISE_FAULT_SEED={seed}");
        Moments(seed ^ test.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// A delay between `lo` and `hi` milliseconds (splitmix64).
    fn between(&mut self, lo: u64, hi: u64) -> Duration {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Duration::from_millis(lo + z % (hi - lo + 1))
    }
}

/// A checkout with the recipe, and a data dir, made by the test.
struct Checkout {
    dir: tempfile::TempDir,
    ports: [u16; 2],
}

impl Checkout {
    fn new() -> Checkout {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("recipes")).unwrap();
        std::fs::create_dir_all(root.join("checksums")).unwrap();
        let ports = [free_port(), free_port()];
        std::fs::write(root.join("recipes/faults.toml"), recipe(ports[0], ports[1])).unwrap();
        std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
        let c = Checkout { dir, ports };
        let out = c.command(&["checksums", "update"]).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        c
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_reprise"));
        cmd.args(args)
            .env("REPRISE_ROOT", self.dir.path().join("root"))
            .env("REPRISE_DATA_DIR", self.dir.path().join("data"))
            .current_dir(self.dir.path().join("root"))
            .stdin(Stdio::null());
        cmd
    }

    /// `reprise run faults --yes --json`, its events read as they come.
    fn start(&self, attempt: &str) -> Attempt {
        let stderr = self.dir.path().join(format!("{attempt}.stderr"));
        let mut child = self
            .command(&["run", "faults", "--yes", "--json"])
            .stdout(Stdio::piped())
            .stderr(File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let (tx, events) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(event) = serde_json::from_str::<Value>(&line)
                    && tx.send(event).is_err()
                {
                    return;
                }
            }
        });
        Attempt {
            child,
            events,
            seen: Vec::new(),
            stderr,
        }
    }

    /// The one run folder.
    fn run_dir(&self) -> PathBuf {
        let runs: Vec<PathBuf> = std::fs::read_dir(self.dir.path().join("data/runs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(runs.len(), 1, "{runs:?}");
        runs[0].clone()
    }
}

/// One `reprise run` of the checkout.
struct Attempt {
    child: Child,
    events: Receiver<Value>,
    seen: Vec<Value>,
    stderr: PathBuf,
}

impl Attempt {
    /// Waits for the first event `matches` accepts.
    fn wait_for(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + Duration::from_secs(90);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => {
                    self.seen.push(event.clone());
                    if matches(&event) {
                        return event;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("no {what} within 90 s: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "reprise ended before {what}: {:#?}\n{}",
                        self.seen,
                        std::fs::read_to_string(&self.stderr).unwrap_or_default()
                    )
                }
            }
        }
    }

    fn started(&mut self, step: &str) {
        self.wait_for(&format!("step {step} started"), |e| {
            e["event"] == "started" && e["step"] == step
        });
    }

    fn sigkill(mut self) {
        self.child.kill().unwrap();
        let status = self.child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(libc::SIGKILL),
            "reprise ended before it was killed: {:#?}",
            self.seen
        );
    }

    /// Waits (at most 90 s) for the end; its status, every event and stderr.
    fn finish(mut self) -> (ExitStatus, Vec<Value>, String) {
        let until = Instant::now() + Duration::from_secs(90);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() >= until {
                let _ = self.child.kill();
                panic!("reprise did not end within 90 s: {:#?}", self.seen);
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        while let Ok(event) = self.events.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(event);
        }
        let stderr = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        (status, self.seen, stderr)
    }
}

/// A process at one moment: the same pid with another start time is
/// another process.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Proc {
    pid: u32,
    start: u64,
    name: String,
}

/// state, pgrp and start time from `/proc/PID/stat`.
fn stat(pid: u32) -> Option<(char, u32, u64, String)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let fields: Vec<&str> = text[close + 1..].split_whitespace().collect();
    Some((
        fields.first()?.chars().next()?,
        fields.get(2)?.parse().ok()?,
        fields.get(19)?.parse().ok()?,
        text[open + 1..close].to_string(),
    ))
}

fn pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// Socket inodes listening on 127.0.0.1:`port`.
fn listening_inodes(port: u16) -> BTreeSet<String> {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    let local = format!("0100007F:{port:04X}");
    table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.get(1) == Some(&local.as_str()) && f.get(3) == Some(&"0A"))
                .then(|| f.get(9).map(|i| i.to_string()))
                .flatten()
        })
        .collect()
}

/// Processes holding a socket that listens on one of `ports`.
fn listeners(ports: &[u16]) -> BTreeSet<u32> {
    let inodes: BTreeSet<String> = ports.iter().flat_map(|p| listening_inodes(*p)).collect();
    let mut found = BTreeSet::new();
    for pid in pids() {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if let Ok(link) = std::fs::read_link(fd.path())
                && let Some(inode) = link
                    .to_str()
                    .and_then(|l| l.strip_prefix("socket:["))
                    .and_then(|l| l.strip_suffix(']'))
                && inodes.contains(inode)
            {
                found.insert(pid);
            }
        }
    }
    found
}

/// Every live process of a run, found without asking Reprise: the groups
/// its step and servers wrote their pids for, whatever carries the run's
/// folder in its environment, and whatever listens on its lanes' ports.
fn processes_of(run: &Path, ports: &[u16]) -> BTreeSet<Proc> {
    let groups: BTreeSet<u32> = ["slow.pid", "files/app/puma.pid", "files/app/nginx.pid"]
        .iter()
        .filter_map(|f| {
            std::fs::read_to_string(run.join(f))
                .ok()?
                .trim()
                .parse()
                .ok()
        })
        .collect();
    let marker = format!("REPRISE_RUN_DIR={}", run.display());
    let listening = listeners(ports);
    let mut found = BTreeSet::new();
    for pid in pids() {
        let Some((state, pgrp, start, name)) = stat(pid) else {
            continue;
        };
        if state == 'Z' {
            continue;
        }
        let marked = std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|b| *b == 0).any(|e| e == marker.as_bytes()));
        if groups.contains(&pgrp) || marked || listening.contains(&pid) {
            found.insert(Proc { pid, start, name });
        }
    }
    found
}

/// Those of `processes` still running.
fn surviving(processes: &BTreeSet<Proc>) -> Vec<&Proc> {
    processes
        .iter()
        .filter(|p| stat(p.pid).is_some_and(|(s, _, start, _)| s != 'Z' && start == p.start))
        .collect()
}

fn accepts(port: u16) -> bool {
    TcpStream::connect_timeout(
        &SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_millis(200),
    )
    .is_ok()
}

fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// Kills the first attempt `delay` after step `at` started, then resumes.
fn killed_and_resumed(at: &str, delay: Duration, expect_leftovers: bool) {
    let c = Checkout::new();
    let mut first = c.start("first");
    first.started(at);
    std::thread::sleep(delay);
    first.sigkill();
    let run = c.run_dir();
    let left = processes_of(&run, &c.ports);
    if expect_leftovers {
        assert!(
            !left.is_empty(),
            "killed {delay:?} into {at}: nothing of the run was running, the test proves nothing"
        );
    }

    // What the finished steps wrote, as they left it.
    let state: Value = serde_json::from_slice(&read(&run.join("state.json")).unwrap()).unwrap();
    let finished: Vec<&str> = STEP_FILES
        .iter()
        .map(|(step, _)| *step)
        .filter(|step| state["steps"][step]["status"] == "finished")
        .collect();
    let kept: Vec<(PathBuf, Vec<u8>)> = STEP_FILES
        .iter()
        .filter(|(step, _)| finished.contains(step))
        .flat_map(|(_, files)| files.iter().map(|f| run.join(f)))
        .map(|f| {
            let bytes = read(&f).unwrap_or_else(|| panic!("{} is missing", f.display()));
            (f, bytes)
        })
        .collect();

    let mut second = c.start("second");
    second.wait_for("the run event", |e| e["event"] == "run");
    let survivors = surviving(&left);
    assert!(
        survivors.is_empty(),
        "killed {delay:?} into {at}: processes of the killed attempt survive the next one's start: {survivors:?}"
    );
    let (status, events, stderr) = second.finish();
    assert!(status.success(), "{stderr}\n{events:#?}");
    // The run's closing line counts no failed step (counts of none are left out).
    let id = run.file_name().unwrap().to_string_lossy().into_owned();
    let summary = stderr
        .lines()
        .find(|l| l.starts_with(&format!("Run {id} ")))
        .unwrap_or_else(|| panic!("no closing line: {stderr}"));
    assert!(!summary.contains("failed"), "{stderr}");

    for step in &finished {
        assert!(
            events
                .iter()
                .any(|e| e["event"] == "skipped" && e["step"] == *step),
            "{step} finished before it was killed, yet was not kept: {events:#?}"
        );
    }
    for (file, bytes) in &kept {
        assert_eq!(
            read(file).as_ref(),
            Some(bytes),
            "{} changed after its step was kept",
            file.display()
        );
    }
    for count in ["prep.count", "slow.count"] {
        let text = std::fs::read_to_string(run.join(count)).unwrap();
        assert_eq!(
            text.lines().count(),
            1,
            "{count}: a finished step ran twice"
        );
    }
    let state: Value = serde_json::from_slice(&read(&run.join("state.json")).unwrap()).unwrap();
    for step in ["prep", "slow", "serve", "check", "load"] {
        assert_eq!(
            state["steps"][step]["status"], "finished",
            "{step}: {state}"
        );
    }
    // The measurement's own record carries what the kept steps recorded.
    let results: Value =
        serde_json::from_slice(&read(&run.join("results/results.json")).unwrap()).unwrap();
    let coldstart: Value =
        serde_json::from_slice(&read(&run.join("results/coldstart.json")).unwrap()).unwrap();
    assert_eq!(results["coldstart"], coldstart);
    assert_eq!(
        results["cells"].as_array().map(Vec::len),
        Some(4),
        "{results}"
    );

    // And nothing of either attempt is left.
    assert!(processes_of(&run, &c.ports).is_empty());
    assert!(!c.ports.iter().any(|p| accepts(*p)));
}

#[test]
fn a_run_killed_while_a_step_has_children_leaves_none_running_after_the_next_start() {
    let delay = Moments::new(1).between(200, 1500);
    killed_and_resumed("slow", delay, true);
}

#[test]
fn a_run_killed_while_its_lanes_boot_leaves_no_server_running_after_the_next_start() {
    let delay = Moments::new(2).between(0, 1000);
    killed_and_resumed("serve", delay, false);
}

#[test]
fn a_run_killed_while_it_measures_leaves_no_server_running_after_the_next_start() {
    let delay = Moments::new(3).between(300, 3000);
    killed_and_resumed("load", delay, true);
}

#[test]
fn clean_ends_what_a_killed_run_left_running() {
    let c = Checkout::new();
    let mut first = c.start("first");
    first.started("load");
    std::thread::sleep(Moments::new(4).between(300, 2000));
    first.sigkill();
    let run = c.run_dir();
    let left = processes_of(&run, &c.ports);
    assert!(
        listeners(&[c.ports[1]])
            .iter()
            .any(|pid| left.iter().any(|p| p.pid == *pid)),
        "nginx's workers are not listening after the kill: {left:?}"
    );

    let id = run.file_name().unwrap().to_str().unwrap().to_string();
    let out = c.command(&["clean", &id]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains("ended lane nginx: nginx"), "{stdout}");
    assert!(stdout.contains(&format!("removed {id}")), "{stdout}");
    assert!(!run.exists());
    let survivors = surviving(&left);
    assert!(survivors.is_empty(), "clean left {survivors:?} running");
    assert!(!c.ports.iter().any(|p| accepts(*p)));
}

#[test]
fn a_run_whose_lane_could_not_boot_does_not_exit_0() {
    let c = Checkout::new();
    // Another program holds the nginx lane's port: Reprise must not end it,
    // and cannot measure that lane.
    let holder = std::net::TcpListener::bind(("127.0.0.1", c.ports[1])).unwrap();
    let out = c.command(&["run", "faults", "--yes"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // The run failed, and the verdicts at its end say why, once.
    assert!(
        stderr.contains(" failed: ") && stderr.contains("1 lane not measured (nginx)"),
        "{stderr}"
    );
    assert_eq!(
        stdout.matches("lane nginx was not measured (").count(),
        1,
        "{stdout}"
    );
    assert!(holder.local_addr().is_ok() && accepts(c.ports[1]));
}
