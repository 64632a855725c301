//! `reprise load` as a user runs it, against a real HTTP server on 127.0.0.1.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A keep-alive HTTP/1.1 server answering every request with `status` and "Hello, world!".
fn start_server(status: &'static str) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let (mut buf, mut pending) = ([0u8; 4096], Vec::new());
                loop {
                    while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
                        pending.drain(..end + 4);
                        let response =
                            format!("HTTP/1.1 {status}\r\ncontent-length: 13\r\n\r\nHello, world!");
                        if stream.write_all(response.as_bytes()).is_err() {
                            return;
                        }
                    }
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => pending.extend_from_slice(&buf[..n]),
                    }
                }
            });
        }
    });
    addr
}

fn reprise_load(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .arg("load")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_clean_run_prints_json_with_a_figure_and_saves_the_histograms() {
    let url = format!("http://{}/", start_server("200 OK"));
    let hdr = std::env::temp_dir().join(format!("reprise-load-{}.hdr", std::process::id()));
    let out = reprise_load(&[
        &url,
        "-c",
        "2",
        "-d",
        "300ms",
        "--expect-bytes",
        "13",
        "--json",
        "--hdr",
        hdr.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["req_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(
        report["bytes"].as_u64().unwrap(),
        report["requests"].as_u64().unwrap() * 13
    );
    assert!(report["latency"]["p99"].as_f64().is_some());
    let log = std::fs::read_to_string(&hdr).unwrap();
    std::fs::remove_file(&hdr).unwrap();
    assert!(
        log.starts_with("#reprise load") && log.contains("Tag=latency,"),
        "{log}"
    );
}

#[test]
fn a_wrk_like_summary_says_requests_per_second() {
    let url = format!("http://{}/", start_server("200 OK"));
    let out = reprise_load(&[&url, "-c", "2", "-t", "2", "-d", "300ms"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!(
            "Running 300ms test @ {url}\n  2 threads and 2 connections\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("Requests/sec:") && text.contains(" requests in "),
        "{text}"
    );
}

#[test]
fn a_run_with_error_statuses_is_no_data_and_exits_1() {
    let url = format!("http://{}/", start_server("500 Internal Server Error"));
    let out = reprise_load(&[&url, "-c", "1", "-d", "200ms"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Requests/sec: no data"), "{text}");
    assert!(text.contains("Status 500:"), "{text}");
}

#[test]
fn sixteen_connections_stay_under_30_mb() {
    let url = format!("http://{}/", start_server("200 OK"));
    let out = reprise_load(&[&url, "-c", "16", "-d", "1s"]);
    assert_eq!(out.status.code(), Some(0));
    // The largest peak RSS of any child this test process has waited for, in KiB;
    // every child here is a `reprise load` of at most 16 connections.
    // SAFETY: getrusage only fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    let peak_mb = usage.ru_maxrss as f64 / 1024.0;
    assert!(peak_mb > 1.0 && peak_mb < 30.0, "peak RSS {peak_mb:.1} MB");
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["https://127.0.0.1/"][..],
        &["http://127.0.0.1/", "-d", "5 parsecs"],
        &["http://127.0.0.1/", "-t", "0"],
        &["http://127.0.0.1/", "-d", "nan"],
        &["http://127.0.0.1/", "--duration=-1"],
        &["http://127.0.0.1/", "--timeout", "inf"],
        &["http://127.0.0.1/", "--warmup", "1e300"],
        &["http://127.0.0.1/", "--rate", "nan"],
        &["http://127.0.0.1/", "--rate=-5"],
        &["http://127.0.0.1/", "--rate", "inf"],
    ] {
        let out = reprise_load(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Starts `reprise load` with `args`, output captured.
fn spawn_load(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .arg("load")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` at most `limit` (killing it past that): its output and how long it took.
fn wait_at_most(mut child: Child, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?}: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = started.elapsed();
    (child.wait_with_output().unwrap(), took)
}

#[test]
fn an_unsustainable_rate_ends_at_its_duration_and_says_what_it_missed() {
    let url = format!("http://{}/", start_server("200 OK"));
    for rate in ["1e308", "1e6"] {
        let child = spawn_load(&[&url, "-c", "2", "-d", "1s", "--rate", rate]);
        let (out, took) = wait_at_most(child, Duration::from_secs(10));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(took < Duration::from_secs(3), "{rate}: took {took:?}");
        assert_eq!(out.status.code(), Some(0), "{rate}: {text}");
        assert!(
            text.contains("Missed: ") && text.contains("was not sustained"),
            "{rate}: {text}"
        );
    }
}

#[test]
fn ctrl_c_or_sigterm_stops_the_load_within_a_second_with_exit_130() {
    let url = format!("http://{}/", start_server("200 OK"));
    for (signal, extra) in [
        (rustix::process::Signal::INT, &["--rate", "1e308"][..]),
        (rustix::process::Signal::TERM, &["--rate", "1e6", "-t", "1"]),
        (rustix::process::Signal::INT, &[]),
    ] {
        let mut args = vec![url.as_str(), "-c", "2", "-d", "60s"];
        args.extend_from_slice(extra);
        let child = spawn_load(&args);
        std::thread::sleep(Duration::from_millis(700));
        // A child this test spawned and has not reaped.
        rustix::process::kill_process(rustix::process::Pid::from_child(&child), signal).unwrap();
        let (out, took) = wait_at_most(child, Duration::from_secs(10));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(took < Duration::from_secs(1), "{extra:?}: took {took:?}");
        assert_eq!(out.status.code(), Some(130), "{extra:?}: {err}");
        assert!(err.contains("stopped before the end"), "{extra:?}: {err}");
    }
}

#[test]
fn another_machine_is_refused_unless_allowed_and_nothing_is_sent() {
    // TEST-NET-1 is never routed: a connection attempt would time out, not fail at once.
    let out = reprise_load(&["http://192.0.2.1:8080/", "-c", "1", "-d", "5s"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("not on this machine's loopback") && err.contains("--allow-remote"),
        "{err}"
    );
    let out = reprise_load(&[
        "http://192.0.2.1:8080/",
        "-c",
        "1",
        "-d",
        "200ms",
        "--timeout",
        "100ms",
        "--allow-remote",
    ]);
    // Allowed: it tries, and gets no answer (no data).
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
