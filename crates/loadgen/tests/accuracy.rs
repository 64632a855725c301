//! What Reprise's load generator measures, held against what is known: a
//! plain client's p50 against the same server, and a stall the server makes
//! on purpose. Real HTTP servers on 127.0.0.1 started by each test.
//!
//! scripts/test runs these with the machine quiet, and that is a known
//! defect, not their nature: beside the test command's other lanes, turn by
//! turn against the plain client, Reprise's p50 was 1.0 to 2.3 ms above it in
//! three turns of six and never below it by more than 0.1 ms. A busy machine
//! delays Reprise's client more than a plain one (issue 51).

#[allow(dead_code)]
mod http_server;
mod loads;

use loads::{run, spec, take_turn};

use std::time::{Duration, Instant};

use http_server::{HyperServer, IdleClosingServer, Reply};

/// The median of `n` sequential requests over one keep-alive connection by
/// a plain blocking client pinned to `cpu`: what the machine itself adds to
/// a response's time (loopback, waking a sleeping thread).
fn plain_client_p50_ms(addr: std::net::SocketAddr, cpu: Option<usize>, n: usize) -> f64 {
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        if let Some(cpu) = cpu {
            reprise_cpus::pin_current_thread(cpu).unwrap();
        }
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        let mut buf = [0u8; 256];
        let mut times: Vec<f64> = (0..n)
            .map(|_| {
                let start = Instant::now();
                stream
                    .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
                    .unwrap();
                let mut got = Vec::new();
                while !got.ends_with(b"ok") {
                    let k = stream.read(&mut buf).unwrap();
                    assert!(k > 0, "the server closed");
                    got.extend_from_slice(&buf[..k]);
                }
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[n / 2]
    })
    .join()
    .unwrap()
}

#[test]
fn a_fixed_5ms_delay_gives_the_p50_a_plain_client_measures() {
    let _turn = take_turn();
    let server =
        IdleClosingServer::start_with_delay(Duration::from_secs(5), None, Duration::from_millis(5));
    // One connection: its server thread spins the last 300 µs of each delay,
    // and two such threads could take both of a 2-core machine's cores from
    // the client under test.
    // The client on the last CPU this process may use (where it may use two
    // or more), so the scheduler puts the server's thread on another.
    let allowed = reprise_cpus::allowed_cpus();
    let cpu = (allowed.len() > 1).then(|| *allowed.last().unwrap());
    // The peer, on the same CPU against the same server: the delay plus what
    // this machine adds to any client (a few µs on an idle box, a few hundred
    // where waking a thread is slow, as in some VMs, milliseconds beside a
    // build). Reprise and the peer take turns, a quarter of a second each,
    // so that both see the same machine: measured one after the other, a
    // build starting in between moved the peer 1.4 ms from Reprise.
    let mut gaps = Vec::new();
    for _ in 0..6 {
        let mut load = spec(format!("http://{}/", server.addr), 1, 250);
        load.cpus = cpu.map(|c| vec![c]);
        let report = run(&load, |_| {}).unwrap();
        assert!(report.has_data(), "{report:?}");
        let p50 = report.latency.unwrap().p50;
        let plain = plain_client_p50_ms(server.addr, cpu, 48);
        assert!(plain >= 4.95, "the server delays each response: {plain} ms");
        gaps.push(p50 - plain);
    }
    gaps.sort_by(f64::total_cmp);
    let gap = (gaps[2] + gaps[3]) / 2.0;
    eprintln!("Reprise's p50 minus the plain client's, turn by turn: {gaps:?} ms");
    // Reprise adds at most 5% of the delay to what the plain client sees
    // (here a debug build, whose hyper costs ~0.1 ms a request more than a
    // release build's: strace shows it between reading a response and
    // writing the next request).
    assert!(gap.abs() <= 0.25, "median gap {gap} ms: {gaps:?}");
}

#[test]
fn open_loop_shows_a_one_time_stall_in_the_corrected_p99_only() {
    let _turn = take_turn();
    const STALL: Duration = Duration::from_millis(400);
    let server = HyperServer::start(|n| {
        let delay = if n == 300 { STALL } else { Duration::ZERO };
        Reply {
            status: 200,
            body: "ok",
            delay,
        }
    });
    let mut load = spec(server.url("/"), 4, 1500);
    load.rate = Some(1000.0);
    let report = run(&load, |_| {}).unwrap();
    assert!(report.has_data(), "{report:?}");
    let sent = report.requests as f64;
    assert!(
        (1350.0..=1550.0).contains(&sent),
        "open loop keeps its rate: {sent}"
    );
    let uncorrected = report.latency.unwrap();
    let corrected = report.corrected_latency.unwrap();
    let stall_ms = STALL.as_secs_f64() * 1000.0;
    assert!(
        uncorrected.max >= stall_ms,
        "the stalled response itself is measured: {uncorrected:?}"
    );
    // The ~100 requests the stalled connection's schedule fell behind by
    // wait from 0 to 400 ms each, counted from when each was due: more than
    // 1% of all, so the corrected p99 is most of the stall. Uncorrected, one
    // response in 1,500 took it. Half the stall tells the two apart; what a
    // busy machine adds to every response is far below it (beside the other
    // lane's builds here, 23 ms at p99, which a bound of 20 ms mistook for
    // the stall showing).
    assert!(
        uncorrected.p99 < stall_ms / 2.0,
        "uncorrected p99 hides the stall: {uncorrected:?}"
    );
    assert!(
        corrected.p99 > stall_ms / 2.0,
        "corrected p99 shows the stall: {corrected:?}"
    );
    assert!(
        corrected.p50 < 2.0,
        "the client's own timer is not counted: {corrected:?}"
    );
}
