//! A lane that needs a `[[service]]`: the run starts the real Redis
//! (Debian's redis-server) on loopback before the lane, the lane answers
//! through it, and the run stops it at the end. Where a Redis already
//! answers on the port (Debian's package starts one when installed), the
//! run uses it and leaves it running; where something else holds the port,
//! the lanes that need Redis are not run, and the run says why.

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use reprise_test_support::free_port;

/// The lane: a one-connection-at-a-time HTTP server that asks Redis PING
/// on every request and answers what Redis said (503 when it cannot).
const APP: &str = r#"
require "socket"
redis_port = Integer(ENV.fetch("REDIS_PORT"))
server = TCPServer.new("127.0.0.1", Integer(ENV.fetch("PORT")))
loop do
  client = server.accept
  while (line = client.gets) && line != "\r\n"; end
  begin
    redis = TCPSocket.new("127.0.0.1", redis_port)
    redis.write("PING\r\n")
    answer = redis.gets.to_s.strip.delete_prefix("+")
    redis.close
    status = answer == "PONG" ? "200 OK" : "503 Service Unavailable"
  rescue SystemCallError => e
    answer, status = e.class.name, "503 Service Unavailable"
  end
  client.write("HTTP/1.1 #{status}\r\ncontent-length: #{answer.bytesize}\r\nconnection: close\r\n\r\n#{answer}")
  client.close
end
"#;

fn recipe(app_port: u16, redis_port: u16) -> String {
    format!(
        r#"
[post]
id = "needs-redis"
title = "A lane that needs Redis"
author = "Test"
date = "2026"
summary = "An app that answers through Redis."

[[toolchain]]
name = "ruby"
version = "*"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'

[[toolchain]]
name = "redis-server"
version = "*"
command = ["redis-server", "--version"]
pattern = 'v=(\d+\.\d+\.\d+)'

[[file]]
path = "app.rb"
content = '''{APP}'''
why = "The app."

[[service]]
name = "redis"
command = ["redis-server", "--port", "{redis_port}", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
port = {redis_port}
answers = {{ send = "PING", expect = "+PONG" }}
why = "The app keeps its state in Redis."

[[lane]]
name = "app"
runtime = "ruby"
needs = ["redis-server"]
services = ["redis"]
command = ["ruby", "files/app.rb"]
port = {app_port}
env = {{ REDIS_PORT = "{redis_port}" }}
health = "/"
boot_budget = "10s"
why = "Answers what Redis answers."

[[workload]]
name = "ping"
connections = 1
threads = 1
duration = "1s"
runs = 1
why = "One checked request."

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200 }}

[[step]]
id = "serve"
kind = "serve"
why = "Boot the lane (and the service it needs)."

[[step]]
id = "check"
kind = "check"
workload = "ping"
after = ["serve"]
why = "The lane answers through Redis."
"#
    )
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

struct Checkout {
    dir: tempfile::TempDir,
}

impl Checkout {
    fn new(text: &str) -> Checkout {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("root/recipes")).unwrap();
        std::fs::create_dir_all(dir.path().join("root/checksums")).unwrap();
        std::fs::write(dir.path().join("root/recipes/needs-redis.toml"), text).unwrap();
        std::fs::write(dir.path().join("root/checksums/recipes.sha256"), "").unwrap();
        let c = Checkout { dir };
        let out = c.reprise(&["checksums", "update"]);
        assert!(out.status.success(), "{}", stderr(&out));
        c
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn reprise(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_reprise"))
            .args(args)
            .env("REPRISE_ROOT", self.path("root"))
            .env("REPRISE_DATA_DIR", self.path("data"))
            .current_dir(self.path("root"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

fn accepts(port: u16) -> bool {
    TcpStream::connect_timeout(&([127, 0, 0, 1], port).into(), Duration::from_millis(200)).is_ok()
}

#[test]
fn the_run_starts_the_service_a_lane_needs_and_stops_it_after() {
    let (app_port, redis_port) = (free_port(), free_port());
    let c = Checkout::new(&recipe(app_port, redis_port));
    assert!(!accepts(redis_port), "no Redis before the run");

    // The plan names the service's command before anything runs.
    let shown = c.reprise(&["run", "needs-redis"]);
    assert!(!shown.status.success());
    assert!(
        stderr(&shown).contains(&format!(
            "service redis runs (this machine's own where one already answers on port {redis_port} (PING → +PONG), used and left running; else started for the run, stopped after): redis-server --port {redis_port} --bind 127.0.0.1 --save '' --appendonly no (port {redis_port})"
        )),
        "{}",
        stderr(&shown)
    );

    let out = c.reprise(&["run", "needs-redis", "--yes"]);
    let said = stdout(&out);
    assert!(out.status.success(), "{said}\n{}", stderr(&out));
    assert!(said.contains("service redis accepts on port"), "{said}");
    let runs: Vec<PathBuf> = std::fs::read_dir(c.path("data/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let check = std::fs::read_to_string(runs[0].join("results/check.json")).unwrap();
    assert!(
        check.contains("\"status\": 200") || check.contains("\"status\":200"),
        "the lane answered through Redis: {check}"
    );
    assert!(
        std::fs::read_to_string(runs[0].join("logs/service-redis.log"))
            .unwrap()
            .contains("Ready to accept connections"),
        "Redis's own log is kept"
    );
    assert!(!accepts(redis_port), "Redis is stopped when the run ends");
    assert!(!accepts(app_port), "and so is the lane");
}

#[test]
fn a_lane_naming_an_unknown_service_is_refused_with_the_names_there_are() {
    let text = recipe(free_port(), free_port())
        .replace("services = [\"redis\"]", "services = [\"rediss\"]");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("needs-redis.toml");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["check", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("rediss"), "{err}");
    assert!(err.contains("did you mean `redis`"), "{err}");
}

/// A Redis of the machine's own, started before the run as Debian's
/// package starts one: killed when dropped.
struct MachineRedis {
    child: std::process::Child,
}

impl MachineRedis {
    fn start(port: u16) -> MachineRedis {
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server (scripts/test installs it)");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !accepts(port) {
            assert!(
                std::time::Instant::now() < deadline,
                "redis-server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        MachineRedis { child }
    }
}

impl Drop for MachineRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run_dir(c: &Checkout) -> PathBuf {
    let runs: Vec<PathBuf> = std::fs::read_dir(c.path("data/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    runs[0].clone()
}

#[test]
fn a_redis_already_running_on_the_port_is_used_and_left_running() {
    let (app_port, redis_port) = (free_port(), free_port());
    let _redis = MachineRedis::start(redis_port);
    let c = Checkout::new(&recipe(app_port, redis_port));

    let out = c.reprise(&["run", "needs-redis", "--yes"]);
    let said = stdout(&out);
    assert!(out.status.success(), "{said}\n{}", stderr(&out));
    assert!(
        said.contains(&format!(
            "service redis: this machine's own answers on port {redis_port} (`PING` answered `+PONG`); used as it is and left running"
        )),
        "{said}"
    );
    let run = run_dir(&c);
    let check = std::fs::read_to_string(run.join("results/check.json")).unwrap();
    assert!(
        check.contains("\"status\": 200"),
        "the lane answered through the machine's Redis: {check}"
    );
    assert!(
        !run.join("logs/service-redis.log").exists(),
        "no second Redis was started"
    );
    assert!(accepts(redis_port), "the machine's Redis is left running");
}

#[test]
fn a_port_taken_by_something_else_is_said_and_the_lane_needing_it_is_not_run() {
    let (app_port, redis_port) = (free_port(), free_port());
    // Something that is not Redis holds the port: it answers HTTP.
    let listener = std::net::TcpListener::bind(("127.0.0.1", redis_port)).unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            use std::io::Write;
            let mut stream = stream;
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
        }
    });
    let c = Checkout::new(&recipe(app_port, redis_port));

    let out = c.reprise(&["run", "needs-redis", "--yes"]);
    assert!(!out.status.success(), "no lane could be checked");
    let skipped = std::fs::read_to_string(run_dir(&c).join("results/skipped.json")).unwrap();
    let skipped: serde_json::Value = serde_json::from_str(&skipped).unwrap();
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert_eq!(skipped[0]["target"], "app", "{skipped}");
    assert!(
        reason.contains(&format!("service redis cannot start: port {redis_port} is taken, and what answers there is not redis: sent `PING`, it answered `HTTP/1.1 400 Bad Request")),
        "{reason}"
    );
    assert!(!accepts(app_port), "the lane was not started");
}
