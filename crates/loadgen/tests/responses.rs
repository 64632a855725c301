//! The generator reads whole responses however they arrive: a large body
//! split over many writes, a chunked body, a body that runs to the close.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Mutex;
use std::time::Duration;

use reprise_loadgen::{LoadSpec, StopHandle, run_until, sha256_hex};

/// Load tests take turns: run side by side on two cores they would measure each other.
static ONE_LOAD_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A keep-alive server answering every GET with `wire`, written `piece` bytes at a time.
fn serve(wire: Vec<u8>, piece: usize, close_after_each: bool) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let wire = wire.clone();
            std::thread::spawn(move || answer(stream, &wire, piece, close_after_each));
        }
    });
    addr
}

fn answer(stream: TcpStream, wire: &[u8], piece: usize, close_after_each: bool) {
    each_request(stream, |stream, _| {
        for part in wire.chunks(piece) {
            stream.write_all(part)?;
        }
        Ok(!close_after_each)
    });
}

/// Reads requests on `stream` and has `respond` answer each (the count of
/// those before it given) until it says to close, fails, or the peer closes.
fn each_request(
    mut stream: TcpStream,
    mut respond: impl FnMut(&mut TcpStream, u64) -> std::io::Result<bool>,
) {
    stream.set_nodelay(true).unwrap();
    let (mut buf, mut pending, mut served) = ([0u8; 4096], Vec::new(), 0u64);
    loop {
        while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            pending.drain(..end + 4);
            if !respond(&mut stream, served).unwrap_or(false) {
                return;
            }
            served += 1;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => pending.extend_from_slice(&buf[..n]),
        }
    }
}

/// A load checking each response's length, and its SHA-256 when `read_body`.
fn load(
    addr: SocketAddr,
    connections: usize,
    body: &[u8],
    read_body: bool,
) -> reprise_loadgen::LoadReport {
    let _turn = ONE_LOAD_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut spec = LoadSpec::new(format!("http://{addr}/"));
    spec.connections = connections;
    spec.duration = Duration::from_millis(400);
    spec.checks.bytes = Some(body.len() as u64);
    spec.checks.sha256 = read_body.then(|| sha256_hex(body));
    run_until(&spec, &StopHandle::default(), |_| {}).unwrap()
}

#[test]
fn a_117_kib_body_written_in_small_pieces_is_counted_and_checked_whole() {
    let page: Vec<u8> = (0..117 * 1024).map(|i| b'a' + (i % 26) as u8).collect();
    let mut wire =
        format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", page.len()).into_bytes();
    wire.extend_from_slice(&page);
    // Many connections checking at once: each checks its own body, none another's.
    let report = load(serve(wire, 1500, false), 8, &page, true);
    assert!(report.has_data(), "{report:?}");
    assert!(report.requests > 8, "{report:?}");
    assert_eq!(report.bytes, report.requests * page.len() as u64);
}

#[test]
fn a_large_body_nobody_reads_is_counted_to_the_byte() {
    let page = vec![b'm'; 117 * 1024];
    let mut wire =
        format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", page.len()).into_bytes();
    wire.extend_from_slice(&page);
    // Written in pieces, so the head and the body's start come apart from the rest.
    let report = load(serve(wire, 20_000, false), 4, &page, false);
    assert!(report.has_data(), "{report:?}");
    assert!(report.requests > 4, "{report:?}");
    assert_eq!(report.bytes, report.requests * page.len() as u64);
    assert_eq!(report.reconnects, 0, "{report:?}");
}

#[test]
fn a_chunked_body_is_decoded_before_it_is_checked() {
    let wire = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
        6\r\nhello,\r\n6\r\n world\r\n0\r\n\r\n"
        .to_vec();
    let report = load(serve(wire, 7, false), 2, b"hello, world", true);
    assert!(report.has_data(), "{report:?}");
    assert_eq!(report.bytes, report.requests * 12);
    assert_eq!(
        report.reconnects, 0,
        "a chunked response keeps the connection"
    );
}

#[test]
fn a_body_without_a_length_runs_to_the_close_and_is_no_error() {
    let wire = b"HTTP/1.1 200 OK\r\n\r\nto the end".to_vec();
    let report = load(serve(wire, 4, true), 2, b"to the end", true);
    assert!(report.has_data(), "{report:?}");
    assert!(report.requests > 2, "{report:?}");
}

#[test]
fn a_large_body_that_comes_in_two_parts_and_a_small_one_after_it_are_read_at_once() {
    // Requests on one connection alternate between a 117 KiB body whose
    // second half comes 50 ms after its first and a 13-byte body: the
    // reader that waited for the rest of the large body must be woken by
    // the next small one, not by its timeout.
    let large = vec![b'l'; 117 * 1024];
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        each_request(stream, |stream, served| {
            let body: &[u8] = if served % 2 == 0 {
                &large
            } else {
                b"Hello, world!"
            };
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
            let (first, rest) = body.split_at(body.len() / 2);
            stream.write_all(head.as_bytes())?;
            stream.write_all(first)?;
            std::thread::sleep(Duration::from_millis(50));
            stream.write_all(rest)?;
            Ok(true)
        });
    });
    let _turn = ONE_LOAD_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut spec = LoadSpec::new(format!("http://{addr}/"));
    spec.connections = 1;
    spec.duration = Duration::from_millis(1000);
    spec.timeout = Duration::from_secs(3);
    let report = run_until(&spec, &StopHandle::default(), |_| {}).unwrap();
    assert!(report.has_data(), "{report:?}");
    // Each response takes ~50 ms: a reader left waiting would take 3 s.
    assert!(report.requests >= 8, "{report:?}");
    let large_ones = report.requests.div_ceil(2);
    let small_ones = report.requests / 2;
    assert_eq!(
        report.bytes,
        large_ones * 117 * 1024 + small_ones * 13,
        "{report:?}"
    );
    let latency = report.latency.expect("latencies");
    assert!(latency.max < 500.0, "{latency:?}");
}
