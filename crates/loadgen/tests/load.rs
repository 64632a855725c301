//! Load runs against real HTTP servers on 127.0.0.1 started by each test.

mod http_server;
mod loads;

use loads::{run, spec, take_turn};

use std::time::{Duration, Instant};

use http_server::{HyperServer, IdleClosingServer, Reply};
use reprise_loadgen::{
    LoadError, Phase, Progress, StopHandle, read_hdr_log, run_until, write_hdr_log,
};

#[test]
fn closed_loop_counts_every_response_the_server_sent_and_reports_progress() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("Hello, world!"));
    let mut load = spec(server.url("/"), 4, 2100);
    load.threads = 2;
    let mut updates: Vec<Progress> = Vec::new();
    let report = run(&load, |p| updates.push(p.clone())).unwrap();

    assert_eq!(
        report.requests,
        server.requests(),
        "every request the server answered is counted once"
    );
    assert!(report.requests > 100, "{report:?}");
    assert_eq!(report.errors.total(), 0);
    assert_eq!(report.bytes, report.requests * 13);
    let rps = report.req_per_s.expect("a clean run has a figure");
    assert!((rps - report.requests as f64 / report.duration_s).abs() < 1e-6);
    assert!(
        report.duration_s >= 2.1 && report.duration_s < 2.5,
        "{}",
        report.duration_s
    );
    let latency = report.latency.unwrap();
    assert!(latency.p50 > 0.0 && latency.p50 <= latency.p99 && latency.p99 <= latency.max);
    assert!(
        report.corrected_latency.is_none(),
        "closed loop has no corrected latency"
    );

    // One update per second of measurement, counting up to the final figure.
    let measured: Vec<&Progress> = updates
        .iter()
        .filter(|p| p.phase == Phase::Measure)
        .collect();
    assert_eq!(measured.len(), 3, "{updates:?}");
    // Counts never go back; a second in which a busy machine let no request
    // finish legitimately repeats the count.
    assert!(measured.windows(2).all(|w| w[0].requests <= w[1].requests));
    assert!(measured[0].requests > 0 && measured[2].requests > measured[0].requests);
    assert!(measured[0].req_per_s > 0.0 && measured[0].p99_ms.is_some());
    assert!(measured[2].requests <= report.requests);
    assert_eq!(report.intervals.len(), 3);
}

#[test]
fn warm_up_responses_are_not_counted() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut load = spec(server.url("/"), 2, 500);
    load.warmup = Duration::from_millis(500);
    let mut phases = Vec::new();
    let report = run(&load, |p| phases.push(p.phase)).unwrap();
    let served = server.requests();
    assert!(
        report.requests > 0 && report.requests < served,
        "{} of {served}",
        report.requests
    );
    assert!(report.has_data());
    assert_eq!(phases, [Phase::Warmup, Phase::Measure]);
}

#[test]
fn post_sends_the_method_headers_and_body() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("created"));
    let mut load = spec(server.url("/rooms/2/messages"), 2, 300);
    load.method = "POST".into();
    load.body = Some("message[body]=hi".into());
    load.headers.push(("Cookie".into(), "session=abc".into()));
    load.checks.contains = Some("created".into());
    let report = run(&load, |_| {}).unwrap();
    assert!(report.has_data(), "{report:?}");
    assert_eq!(report.requests, server.requests());
    assert_eq!(
        *server.served.last_request.lock().unwrap(),
        "POST /rooms/2/messages cookie=session=abc body=message[body]=hi"
    );
}

#[test]
fn a_server_answering_500_sometimes_gives_no_data_with_the_counts() {
    let _turn = take_turn();
    let server = HyperServer::start(|n| {
        if n % 10 == 0 {
            Reply {
                status: 500,
                body: "oops",
                delay: Duration::ZERO,
            }
        } else {
            Reply::ok("fine")
        }
    });
    let report = run(&spec(server.url("/"), 4, 500), |_| {}).unwrap();
    let failed = server
        .served
        .non_2xx
        .load(std::sync::atomic::Ordering::SeqCst);
    assert!(failed > 0);
    assert_eq!(report.req_per_s, None, "errors are not throughput");
    assert!(!report.has_data());
    assert_eq!(report.errors.status, failed);
    assert_eq!(report.errors.statuses.get(&500), Some(&failed));
    assert_eq!(report.requests, server.requests());
    assert_eq!(
        report.errors.check + report.errors.io + report.errors.connect + report.errors.timeout,
        0
    );
    assert!(
        report.error_samples[0].contains("500"),
        "{:?}",
        report.error_samples
    );
}

#[test]
fn a_server_closing_idle_keep_alive_connections_gives_reconnects_and_no_errors() {
    let _turn = take_turn();
    // 2 connections at 8 req/s: each idles 250 ms between requests and the
    // server closes after 15 ms idle, so every request after a connection's
    // first finds it closed. At 40 req/s (50 ms apart) a busy machine's
    // stall of 120 ms let the schedule's catch-up send requests back to
    // back, before the server's 15 ms were up: 28 reconnects of 38.
    let server = IdleClosingServer::start(Duration::from_millis(15), None);
    let mut load = spec(format!("http://{}/", server.addr), 2, 2000);
    load.rate = Some(8.0);
    let report = run(&load, |_| {}).unwrap();
    assert_eq!(report.errors.total(), 0, "{report:?}");
    assert!(report.requests >= 14, "{report:?}");
    assert_eq!(report.reconnects, report.requests - 2, "{report:?}");
    assert!(report.has_data());
    assert_eq!(
        report.requests,
        server
            .served
            .requests
            .load(std::sync::atomic::Ordering::SeqCst)
    );
}

#[test]
fn a_server_closing_after_a_few_responses_without_notice_gives_reconnects_and_no_errors() {
    let _turn = take_turn();
    let server = IdleClosingServer::start(Duration::from_secs(5), Some(3));
    let report = run(&spec(format!("http://{}/", server.addr), 2, 500), |_| {}).unwrap();
    assert_eq!(report.errors.total(), 0, "{report:?}");
    assert!(report.reconnects > 10, "{report:?}");
    assert!(report.has_data());
}

#[test]
fn a_response_failing_its_tag_count_fails_the_run() {
    let _turn = take_turn();
    let page = "<html><body><p>hi</p></body></html>";
    let server = HyperServer::start(move |_| Reply::ok(page));
    let mut load = spec(server.url("/"), 2, 300);
    load.checks.tags = Some(3);
    let passing = run(&load, |_| {}).unwrap();
    assert!(passing.has_data(), "3 tags is right: {passing:?}");

    load.checks.tags = Some(4);
    let failing = run(&load, |_| {}).unwrap();
    assert_eq!(failing.req_per_s, None);
    assert_eq!(failing.errors.check, failing.requests);
    assert_eq!(failing.errors.status, 0);
    assert!(
        failing.error_samples[0].contains("3 tags, expected 4"),
        "{:?}",
        failing.error_samples
    );
}

#[test]
fn sampled_checks_look_at_the_first_response_and_one_in_n() {
    let _turn = take_turn();
    let server = HyperServer::start(|n| Reply::ok(if n == 1 { "<p>" } else { "" }));
    let mut load = spec(server.url("/"), 1, 300);
    load.checks.tags = Some(1);
    load.check_sample = reprise_loadgen::CheckSample::OneIn(1_000_000);
    let report = run(&load, |_| {}).unwrap();
    assert!(report.requests > 1);
    assert!(
        report.has_data(),
        "only the first response was checked: {report:?}"
    );
}

#[test]
fn nothing_listening_counts_connect_errors_and_gives_no_data() {
    let _turn = take_turn();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let report = run(&spec(format!("http://127.0.0.1:{port}/"), 2, 200), |_| {}).unwrap();
    assert!(report.errors.connect > 0);
    assert_eq!(report.requests, 0);
    assert_eq!(report.req_per_s, None);
    assert!(report.latency.is_none());
}

#[test]
fn workers_pin_to_the_given_cpus_and_a_bad_cpu_is_an_error() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut load = spec(server.url("/"), 2, 200);
    load.cpus = Some(vec![0]);
    assert!(run(&load, |_| {}).unwrap().has_data());
    load.cpus = Some(vec![100_000]);
    assert!(matches!(
        run(&load, |_| {}),
        Err(LoadError::Pinning { cpu: 100_000, .. })
    ));
}

#[test]
fn the_hdr_log_round_trips_both_histograms() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    let mut load = spec(server.url("/"), 2, 1200);
    load.rate = Some(500.0);
    let report = run(&load, |_| {}).unwrap();
    let mut log = Vec::new();
    write_hdr_log(&report, &mut log).unwrap();
    assert!(log.starts_with(b"#reprise load"));

    let intervals = read_hdr_log(&log).unwrap();
    assert_eq!(intervals.len(), report.intervals.len());
    assert_eq!(intervals[1].start, Duration::from_secs(1));
    let (latency, corrected) = report.histograms();
    let read_latency: u64 = intervals.iter().map(|i| i.latency.len()).sum();
    let read_corrected: u64 = intervals
        .iter()
        .map(|i| i.corrected.as_ref().unwrap().len())
        .sum();
    assert_eq!(read_latency, latency.len());
    assert_eq!(read_corrected, corrected.unwrap().len());
    assert_eq!(latency.len(), report.requests);
    assert_eq!(
        intervals[0].latency.max(),
        report.intervals[0].latency.max()
    );
}

#[test]
fn a_stopped_load_ends_early_with_an_error() {
    let _turn = take_turn();
    let server = HyperServer::start(|_| Reply::ok("ok"));
    for rate in [None, Some(2.0)] {
        let mut load = spec(server.url("/"), 2, 20_000);
        load.rate = rate;
        let stop = StopHandle::default();
        let started = Instant::now();
        let outcome = std::thread::scope(|scope| {
            let running = scope.spawn(|| run_until(&load, &stop, |_| {}));
            std::thread::sleep(Duration::from_millis(300));
            stop.stop();
            running.join().unwrap()
        });
        assert!(
            matches!(outcome, Err(LoadError::Stopped)),
            "{rate:?}: {outcome:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{rate:?}: {:?}",
            started.elapsed()
        );
    }
}
