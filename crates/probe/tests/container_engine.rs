//! Asking a Docker-compatible engine for its version and resources.
//!
//! The last test starts Podman's real service on a socket of its own. The
//! answering tests use a stand-in, because they need an engine that is slow
//! on purpose: a Unix-socket HTTP server made by the test that answers
//! `/version` and `/info` with the JSON Podman's service sends. The "no
//! engine" and "engine hangs" paths use real sockets.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::time::{Duration, Instant};

use reprise_probe::container_engine;

const VERSION: &str = r#"{"Platform":{"Name":"linux/amd64/debian-12"},"Components":[{"Name":"Podman Engine","Version":"4.3.1","Details":{}}],"Version":"4.3.1","ApiVersion":"1.41","MinAPIVersion":"1.24","GitCommit":"","GoVersion":"go1.19.8","Os":"linux","Arch":"amd64","KernelVersion":"6.1.0-26-amd64","BuildTime":"2023-05-06T00:00:00+00:00"}"#;
const INFO: &str = r#"{"ID":"abc","Containers":0,"NCPU":2,"MemTotal":25769803776,"OperatingSystem":"debian","OSType":"linux","Name":"host","ServerVersion":"4.3.1"}"#;

/// Answers `/version` at once and `/info` after `info_delay`: Podman walks
/// its storage for `/info`, which takes seconds on a busy machine.
fn serve_engine_api(listener: UnixListener, info_delay: Duration) {
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                loop {
                    let mut request_line = String::new();
                    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
                        return;
                    }
                    let mut header = String::new();
                    while reader.read_line(&mut header).unwrap_or(0) > 2 {
                        header.clear();
                    }
                    let body = if request_line.contains("/version") {
                        VERSION
                    } else {
                        std::thread::sleep(info_delay);
                        INFO
                    };
                    let response = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    if writer.write_all(response.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
}

#[test]
fn an_answering_engine_reports_version_api_os_cpus_and_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let socket = tmp.path().join("engine.sock");
    serve_engine_api(UnixListener::bind(&socket).unwrap(), Duration::ZERO);
    let host = format!("unix://{}", socket.display());
    let engine = container_engine::ask(&host, Duration::from_secs(3)).expect("the engine answered");
    assert_eq!(engine.host, host);
    assert_eq!(engine.name.as_deref(), Some("Podman Engine"));
    assert_eq!(engine.version.as_deref(), Some("4.3.1"));
    assert_eq!(engine.api_version.as_deref(), Some("1.41"));
    assert_eq!(engine.os.as_deref(), Some("linux"));
    assert_eq!(engine.cpus, Some(2));
    assert_eq!(engine.memory_bytes, Some(25_769_803_776));
}

#[test]
fn an_engine_slow_to_describe_itself_still_answers_without_its_resources() {
    let tmp = tempfile::tempdir().unwrap();
    let socket = tmp.path().join("engine.sock");
    serve_engine_api(UnixListener::bind(&socket).unwrap(), Duration::from_secs(3));
    let host = format!("unix://{}", socket.display());
    let started = Instant::now();
    let engine = container_engine::ask(&host, Duration::from_secs(1))
        .expect("/version answered, so the engine answers");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "/info was waited for past its own timeout"
    );
    assert_eq!(engine.version.as_deref(), Some("4.3.1"));
    assert_eq!((engine.cpus, engine.memory_bytes), (None, None));
}

#[test]
fn no_engine_at_the_socket_means_none() {
    let tmp = tempfile::tempdir().unwrap();
    let host = format!("unix://{}", tmp.path().join("absent.sock").display());
    let started = Instant::now();
    assert_eq!(container_engine::ask(&host, Duration::from_secs(2)), None);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn an_engine_that_never_answers_is_given_up_at_the_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let socket = tmp.path().join("silent.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    // Accepts connections and reads nothing, answers nothing.
    let held = std::thread::spawn(move || {
        let _conns: Vec<_> = listener.incoming().take(2).collect();
    });
    let started = Instant::now();
    let host = format!("unix://{}", socket.display());
    assert_eq!(container_engine::ask(&host, Duration::from_secs(1)), None);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    drop(held);
}

/// Ends the service this test started when the test ends, pass or fail.
struct Service(std::process::Child);

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The real engine: Podman's Docker-compatible service on a socket of the
/// test's own (scripts/test installs Podman; a machine without it fails).
#[test]
fn a_real_podman_service_answers_with_its_own_version() {
    let Some(podman) = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("podman"))
            .find(|p| p.is_file())
    }) else {
        panic!("podman is not installed (the test command installs it)");
    };
    let banner = std::process::Command::new(&podman)
        .arg("--version")
        .output()
        .unwrap();
    let expected = String::from_utf8_lossy(&banner.stdout)
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    let tmp = tempfile::tempdir().unwrap();
    let socket = tmp.path().join("podman.sock");
    let host = format!("unix://{}", socket.display());
    let _service = Service(
        std::process::Command::new(&podman)
            .args(["system", "service", "--time=0", &host])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while !socket.exists() && started.elapsed() < Duration::from_secs(15) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let engine = container_engine::ask(&host, Duration::from_secs(10)).expect("podman answered");
    assert_eq!(engine.name.as_deref(), Some("Podman Engine"));
    assert_eq!(engine.version.as_deref(), Some(expected.as_str()));
    assert_eq!(engine.os.as_deref(), Some("linux"));
    assert!(engine.api_version.is_some());
    assert!(engine.cpus.unwrap_or(0) >= 1);
    assert!(engine.memory_bytes.unwrap_or(0) > 0);
}
