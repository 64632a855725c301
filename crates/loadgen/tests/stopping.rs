//! Every load ends: within a second of its stop handle, whatever it is
//! waiting for, and at its duration, whatever rate it was asked for.

#[allow(dead_code)]
mod http_server;
mod loads;

use loads::take_turn;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use http_server::{HyperServer, Reply};
use reprise_loadgen::{LoadError, LoadReport, LoadSpec, StopHandle, run_until};

/// Runs `spec` on a thread of its own (a load that never ends must not hang
/// the test), stops it `stop_after` in (if given), and waits at most `limit`:
/// the outcome and how long after the stop (or the start) it came.
fn run_with_limit(
    spec: LoadSpec,
    stop_after: Option<Duration>,
    limit: Duration,
) -> (Result<LoadReport, LoadError>, Duration) {
    let stop = StopHandle::default();
    let (done, outcome) = mpsc::channel();
    let stopper = stop.clone();
    std::thread::spawn(move || {
        let _ = done.send(run_until(&spec, &stopper, |_| {}));
    });
    let mut from = Instant::now();
    if let Some(after) = stop_after {
        std::thread::sleep(after);
        stop.stop();
        from = Instant::now();
    }
    match outcome.recv_timeout(limit) {
        Ok(result) => (result, from.elapsed()),
        Err(_) => {
            stop.stop();
            panic!("the load did not end within {limit:?}")
        }
    }
}

#[test]
fn a_stop_ends_the_load_within_a_second_while_responses_are_slow() {
    let _turn = take_turn();
    // Every response takes 3 s: when the stop comes, every connection waits for one.
    let server = HyperServer::start(|_| Reply {
        status: 200,
        body: "slow",
        delay: Duration::from_secs(3),
    });
    for rate in [None, Some(100.0)] {
        let mut spec = LoadSpec::new(server.url("/"));
        spec.connections = 4;
        spec.duration = Duration::from_secs(30);
        spec.timeout = Duration::from_secs(10);
        spec.rate = rate;
        let (outcome, after) = run_with_limit(
            spec,
            Some(Duration::from_millis(700)),
            Duration::from_secs(10),
        );
        assert!(
            matches!(outcome, Err(LoadError::Stopped)),
            "{rate:?}: {outcome:?}"
        );
        assert!(after < Duration::from_secs(1), "{rate:?}: took {after:?}");
    }
    assert!(server.requests() > 0, "requests were in flight");
}

#[test]
fn a_stop_ends_the_warm_up_too() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut spec = LoadSpec::new(server.url("/"));
    spec.connections = 2;
    spec.warmup = Duration::from_secs(30);
    spec.duration = Duration::from_secs(30);
    let (outcome, after) = run_with_limit(
        spec,
        Some(Duration::from_millis(300)),
        Duration::from_secs(5),
    );
    assert!(matches!(outcome, Err(LoadError::Stopped)), "{outcome:?}");
    assert!(after < Duration::from_secs(1), "took {after:?}");
}

#[test]
fn an_unsustainable_rate_ends_at_its_duration_and_says_what_it_missed() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    // 1e308 req/s: no gap between sends at all; 1e6 req/s on one thread: far
    // more than it can send. Either way the schedule falls behind at once.
    for (rate, connections) in [(1e308, 2), (1e6, 16)] {
        let mut spec = LoadSpec::new(server.url("/"));
        spec.connections = connections;
        spec.duration = Duration::from_secs(1);
        spec.rate = Some(rate);
        let (outcome, took) = run_with_limit(spec, None, Duration::from_secs(4));
        let report = outcome.unwrap();
        assert!(took < Duration::from_millis(2500), "{rate}: took {took:?}");
        assert!(
            report.duration_s >= 1.0 && report.duration_s < 1.5,
            "{rate}: {}",
            report.duration_s
        );
        assert!(report.requests > 0, "{rate}: {report:?}");
        assert!(
            report.missed > report.requests,
            "{rate}: most requests due were never sent: {report:?}"
        );
        assert!(
            report.has_data(),
            "missed requests are not the server's errors"
        );
        let corrected = report.corrected_latency.unwrap();
        assert!(
            corrected.max > report.latency.unwrap().max,
            "{rate}: requests sent late are measured from when they were due"
        );
    }
}

#[test]
fn a_sustainable_rate_misses_nothing() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut spec = LoadSpec::new(server.url("/"));
    spec.connections = 2;
    spec.duration = Duration::from_secs(1);
    spec.rate = Some(200.0);
    let (outcome, _) = run_with_limit(spec, None, Duration::from_secs(4));
    let report = outcome.unwrap();
    assert_eq!(report.missed, 0, "{report:?}");
    assert!(report.has_data(), "{report:?}");
}

/// One connection at 5 requests a second for 1.05 s: due at 0, 0.2, … 1.0 s.
/// The reply to the n-th is held `held` (the machine stalling); the load's
/// report says how many due were missed.
fn missed_when_held(n: u64, held: Duration) -> LoadReport {
    let server = HyperServer::start(move |i| Reply {
        status: 200,
        body: "ok",
        delay: if i == n { held } else { Duration::ZERO },
    });
    let mut spec = LoadSpec::new(server.url("/"));
    spec.connections = 1;
    spec.duration = Duration::from_millis(1050);
    spec.rate = Some(5.0);
    let (outcome, _) = run_with_limit(spec, None, Duration::from_secs(4));
    outcome.unwrap()
}

#[test]
fn a_request_cut_off_by_the_end_is_not_missed_and_one_the_schedule_fell_behind_on_is() {
    let _turn = take_turn();
    // The fifth (due at 0.8 s) answered after the end: the sixth, due at
    // 1.0 s, waited on it as any open-loop request may, and the end cut it off.
    let cut_off = missed_when_held(5, Duration::from_millis(300));
    assert_eq!(cut_off.missed, 0, "{cut_off:?}");
    assert_eq!(cut_off.requests, 5, "{cut_off:?}");
    // The fourth (due at 0.6 s) held past the end: the one due at 0.8 s is
    // the schedule fallen behind, beside the one the end cut off.
    let behind = missed_when_held(4, Duration::from_millis(500));
    assert_eq!(behind.missed, 1, "{behind:?}");
    assert_eq!(behind.requests, 4, "{behind:?}");
}

#[test]
fn an_unsustainable_rate_ends_when_stopped() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut spec = LoadSpec::new(server.url("/"));
    spec.connections = 2;
    spec.duration = Duration::from_secs(60);
    spec.rate = Some(1e308);
    let (outcome, after) = run_with_limit(
        spec,
        Some(Duration::from_millis(500)),
        Duration::from_secs(5),
    );
    assert!(matches!(outcome, Err(LoadError::Stopped)), "{outcome:?}");
    assert!(after < Duration::from_secs(1), "took {after:?}");
}

#[test]
fn a_stop_kills_wrk() {
    assert!(
        std::process::Command::new("wrk")
            .arg("--version")
            .output()
            .is_ok(),
        "wrk is not installed (the test command installs it)"
    );
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut spec = LoadSpec::new(server.url("/"));
    spec.connections = 2;
    spec.duration = Duration::from_secs(30);
    let stop = StopHandle::default();
    let (done, outcome) = mpsc::channel();
    let stopper = stop.clone();
    std::thread::spawn(move || {
        let _ = done.send(reprise_loadgen::wrk::run_until(&spec, &stopper));
    });
    std::thread::sleep(Duration::from_millis(700));
    let before = server.requests();
    stop.stop();
    let stopped = Instant::now();
    let outcome = outcome.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(matches!(outcome, Err(LoadError::Stopped)), "{outcome:?}");
    assert!(stopped.elapsed() < Duration::from_secs(1));
    assert!(before > 0, "wrk was loading");
    std::thread::sleep(Duration::from_millis(300));
    let settled = server.requests();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.requests(), settled, "wrk is gone");
}
