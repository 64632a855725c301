//! `reprise load` as a user runs it, against a real HTTP server on 127.0.0.1.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::process::{Command, Output};

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
