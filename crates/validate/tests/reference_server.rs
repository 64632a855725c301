//! The built-in reference server on 127.0.0.1, as a client and as the
//! ceiling's load generator see it.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

use reprise_validate::ceiling::{self, CeilingPlan, Split};
use reprise_validate::reference_server::ReferenceServer;

fn any_port() -> SocketAddr {
    SocketAddr::from((Ipv4Addr::LOCALHOST, 0))
}

/// Reads one response with a Content-Length body: (head, body).
fn read_response(stream: &mut TcpStream, pending: &mut Vec<u8>) -> (String, String) {
    let mut buf = [0u8; 1024];
    loop {
        if let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&pending[..end]).to_string();
            let length: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .expect("content-length");
            if pending.len() >= end + 4 + length {
                let body = String::from_utf8_lossy(&pending[end + 4..end + 4 + length]).to_string();
                pending.drain(..end + 4 + length);
                return (head, body);
            }
        }
        let n = stream.read(&mut buf).expect("read");
        assert!(n > 0, "the server closed a keep-alive connection");
        pending.extend_from_slice(&buf[..n]);
    }
}

#[test]
fn every_request_on_a_kept_alive_connection_gets_the_13_bytes() {
    let cpus = reprise_validate::allowed_cpus();
    let server = ReferenceServer::start(any_port(), &cpus[..1]).unwrap();
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /anything HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut pending = Vec::new();
    for _ in 0..2 {
        let (head, body) = read_response(&mut stream, &mut pending);
        assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
        assert_eq!(body, "Hello, world!");
    }
    let addr = server.addr();
    server.stop();
    // Stopped: the kept-alive connection is closed and no one listens.
    let mut buf = [0u8; 16];
    assert!(matches!(stream.read(&mut buf), Ok(0) | Err(_)));
    assert!(TcpStream::connect(addr).is_err());
}

#[test]
fn the_ceiling_loads_the_server_from_the_other_cpus_and_reports_every_run() {
    let cpus = reprise_validate::allowed_cpus();
    let split = Split::for_machine(&cpus);
    let plan = CeilingPlan {
        runs: 2,
        connections: 4,
        duration: Duration::from_millis(300),
        warmup: Duration::ZERO,
    };
    let mut heard = Vec::new();
    let c = ceiling::measure(&plan, &split, |n, run| heard.push((n, run.req_per_s))).unwrap();
    assert_eq!(heard.len(), 2);
    assert_eq!(c.runs.len(), 2);
    for run in &c.runs {
        assert_eq!(run.errors, 0, "{run:?}");
        assert!(run.req_per_s.unwrap() > 0.0 && run.requests > 0, "{run:?}");
    }
    let median = c.median_req_per_s.unwrap();
    assert!(c.min_req_per_s.unwrap() <= median && median <= c.max_req_per_s.unwrap());
    assert!(c.cv.is_some());
    assert_eq!(c.body_bytes, 13);
    assert_eq!(c.split.pinned, cpus.len() >= 2);
}
