//! The people load against a Campfire-shaped server (reprise-test-support's
//! `campfire_shaped_server` binary, a real process on 127.0.0.1 with an
//! in-memory database — Campfire itself is out of reach here): a healthy
//! server is served; a lost delivery, a wrong-room message, a page for the
//! wrong user and an acknowledged write the database lacks each fail the step.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use reprise_loadgen::people::{InvalidSpec, PeopleProgress, roster};
use reprise_loadgen::{PeopleError, PeopleReport, PeopleSpec, StopHandle, run_people_until};

/// People loads take turns: side by side on two cores they would measure each other.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn take_turn() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// A people load nobody stops.
fn run_people(spec: &PeopleSpec) -> Result<PeopleReport, PeopleError> {
    run_people_until(spec, &StopHandle::default(), |_| {})
}

struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(reprise_test_support::campfire_shaped_server())
            .args(["--accounts", "40", "--rooms", "4"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap()
            .to_owned();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A short load: 20 people, navigating every ~0.3 s and posting every ~0.4 s.
/// The latency limits are generous (1 s) so a busy CI machine does not fail
/// the healthy case; the faults are failures, not latencies.
fn load(server: &Server) -> PeopleReport {
    load_navigating_every(server, Duration::from_millis(300))
}

fn load_navigating_every(server: &Server, navigate_every: Duration) -> PeopleReport {
    let mut spec = short_spec(server);
    spec.navigate_every = navigate_every;
    run_people(&spec).unwrap()
}

fn short_spec(server: &Server) -> PeopleSpec {
    let mut spec = PeopleSpec::new(&server.url);
    spec.accounts = 40;
    spec.rooms = 4;
    spec.steps = vec![20];
    spec.warmup = Duration::from_millis(700);
    spec.step_duration = Duration::from_millis(2500);
    spec.navigate_every = Duration::from_millis(300);
    spec.post_every = Duration::from_millis(400);
    spec.served.navigation_ms = 1000.0;
    spec.served.delivery_ms = 500.0;
    spec.verify_writes_path = Some("/writes".into());
    spec
}

fn cause(report: &PeopleReport, cause: &str) -> u64 {
    report.steps[0]
        .failures_by_cause
        .get(cause)
        .copied()
        .unwrap_or(0)
}

#[test]
fn a_healthy_server_is_served_with_every_page_and_delivery_checked() {
    let _turn = take_turn();
    let server = Server::start(&[]);
    let report = load(&server);
    let step = &report.steps[0];
    assert!(report.served, "{step:#?}");
    assert_eq!(step.failures, 0, "{:?}", step.failure_samples);
    assert_eq!(step.people, 20);
    for kind in ["open_room", "scroll_history", "search", "return_to_room"] {
        assert!(
            step.navigation_by_kind.contains_key(kind),
            "no {kind}: {step:#?}"
        );
    }
    let delivery = step.delivery.as_ref().expect("deliveries were measured");
    assert!(delivery.count > 20, "{delivery:?}");
    assert!(step.acknowledged > 10);
    assert_eq!(report.unsaved_writes, Some(0));
    assert!(report.acknowledged_writes >= step.acknowledged);
    assert!(step.generator.cpu_cores > 0.0 && step.generator.timer_lag_p99_ms > 0.0);
    assert_eq!(
        step.resends, 0,
        "this server confirms every subscribe at once"
    );
}

#[test]
fn a_lost_delivery_fails_the_step() {
    let _turn = take_turn();
    let server = Server::start(&["--fault", "lost-delivery"]);
    // Viewers stay in a room for 1–3 s, longer than a post may take (1 s):
    // a post that never comes is owed to someone who waited for it.
    let report = load_navigating_every(&server, Duration::from_secs(2));
    assert!(!report.served);
    assert!(
        cause(&report, "lost_delivery") > 0,
        "{:#?}",
        report.steps[0]
    );
}

#[test]
fn a_message_for_another_room_fails_the_step() {
    let _turn = take_turn();
    let server = Server::start(&["--fault", "wrong-room"]);
    let report = load(&server);
    assert!(!report.served);
    assert!(cause(&report, "wrong_room") > 0, "{:#?}", report.steps[0]);
    assert!(
        cause(&report, "wrong_room_delivery") > 0,
        "{:#?}",
        report.steps[0]
    );
}

#[test]
fn a_page_for_the_wrong_user_fails_the_step() {
    let _turn = take_turn();
    let server = Server::start(&["--fault", "wrong-user"]);
    let report = load(&server);
    assert!(!report.served);
    assert!(cause(&report, "wrong_user") > 0, "{:#?}", report.steps[0]);
}

#[test]
fn an_acknowledged_write_missing_from_the_database_fails_the_run() {
    let _turn = take_turn();
    let server = Server::start(&["--fault", "unsaved-write"]);
    let report = load(&server);
    assert!(!report.served);
    assert!(report.unsaved_writes.unwrap() > 0);
    assert_eq!(
        cause(&report, "unsaved_write"),
        report.unsaved_writes.unwrap()
    );
    assert!(
        cause(&report, "missing_newest_post") > 0,
        "{:#?}",
        report.steps[0]
    );
}

#[test]
fn sign_ins_beyond_the_rate_limit_are_retried_not_failed() {
    let _turn = take_turn();
    let server = Server::start(&["--sign-ins-per-s", "10"]);
    let mut spec = PeopleSpec::new(&server.url);
    spec.accounts = 40;
    spec.rooms = 4;
    spec.steps = vec![15];
    spec.sign_in_per_s = 1000.0;
    spec.warmup = Duration::from_millis(1500);
    spec.step_duration = Duration::from_millis(1000);
    spec.navigate_every = Duration::from_millis(300);
    spec.post_every = Duration::from_secs(60);
    spec.served.navigation_ms = 1000.0;
    let report = run_people(&spec).unwrap();
    let step = &report.steps[0];
    assert_eq!(step.failures, 0, "{:?}", step.failure_samples);
    assert!(report.sign_in_retries >= 5, "{report:#?}");
    assert!(
        step.navigation.as_ref().is_some_and(|n| n.count > 10),
        "{step:#?}"
    );
}

#[test]
fn people_on_two_generator_threads_see_each_others_posts() {
    let _turn = take_turn();
    let server = Server::start(&[]);
    let mut spec = short_spec(&server);
    spec.threads = 2;
    let report = run_people(&spec).unwrap();
    let step = &report.steps[0];
    assert!(report.served, "{step:#?}");
    assert_eq!(step.failures, 0, "{:?}", step.failure_samples);
    // Room 1 holds everyone: its posts are owed to viewers on both threads,
    // so deliveries outnumber posts only if they crossed threads too.
    let delivery = step.delivery.as_ref().expect("deliveries were measured");
    assert!(delivery.count > step.acknowledged, "{step:#?}");
    assert_eq!(report.unsaved_writes, Some(0));
}

#[test]
fn a_cable_the_server_drops_is_opened_again_not_failed() {
    let _turn = take_turn();
    let server = Server::start(&["--fault", "drop-cables"]);
    let mut spec = short_spec(&server);
    spec.warmup = Duration::from_millis(100);
    let report = run_people(&spec).unwrap();
    let step = &report.steps[0];
    assert!(step.cable_reconnects >= 10, "{step:#?}");
    for gone in [
        "cable_closed",
        "cable_disconnected",
        "subscription_unconfirmed",
    ] {
        assert_eq!(cause(&report, gone), 0, "{:?}", step.failure_samples);
    }
    assert!(
        step.navigation.as_ref().is_some_and(|n| n.count > 20),
        "people went on navigating: {step:#?}"
    );
}

#[test]
fn minted_sessions_need_no_sign_in() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let minted = dir.path().join("sessions.tsv");
    // The server refuses every sign-in: people get in only with minted sessions.
    let server = Server::start(&[
        "--sign-ins-per-s",
        "0",
        "--mint-sessions",
        minted.to_str().unwrap(),
    ]);
    let mut spec = short_spec(&server);
    let text = std::fs::read_to_string(&minted).unwrap();
    spec.sessions = Some(roster::parse_sessions(&text, spec.accounts).unwrap());
    let report = run_people(&spec).unwrap();
    let step = &report.steps[0];
    assert!(report.served, "{step:#?}");
    assert_eq!(report.sign_in_retries, 0);
    assert!(
        step.navigation.as_ref().is_some_and(|n| n.count > 20),
        "{step:#?}"
    );
}

#[test]
fn stopping_ends_the_load_within_a_moment_and_says_so() {
    let _turn = take_turn();
    let server = Server::start(&[]);
    let mut spec = short_spec(&server);
    spec.steps = vec![10, 20];
    spec.warmup = Duration::from_millis(1500);
    spec.step_duration = Duration::from_secs(30);
    let stop = StopHandle::default();
    let mut live = Vec::new();
    let started = std::time::Instant::now();
    let report = run_people_until(&spec, &stop, |p| {
        if let PeopleProgress::Live(step) = p {
            if step.measuring && step.elapsed >= Duration::from_secs(1) {
                stop.stop();
            }
            live.push(step);
        }
    })
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(report.stopped && !report.served, "{report:#?}");
    assert!(report.steps.is_empty(), "the first step did not end");
    assert_eq!(report.unsaved_writes, None, "not checked when stopped");
    assert!(
        live.iter().any(|l| !l.measuring),
        "the warm-up was reported"
    );
    let last = live.last().unwrap();
    assert!(last.measuring && last.navigations > 0, "{last:?}");
}

#[test]
fn a_stop_while_the_last_deliveries_are_awaited_ends_the_load_at_once() {
    let _turn = take_turn();
    let server = Server::start(&[]);
    let mut spec = short_spec(&server);
    spec.warmup = Duration::from_millis(300);
    spec.step_duration = Duration::from_millis(700);
    // After measuring, a step waits twice the delivery limit (here 40 s)
    // for its last posts to arrive: a stop must not wait with it.
    spec.served.delivery_ms = 20_000.0;
    let stop = StopHandle::default();
    let stopper = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(2500));
        stopper.stop();
    });
    let started = std::time::Instant::now();
    let report = run_people_until(&spec, &stop, |_| {}).unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_millis(3500), "took {took:?}");
    assert!(report.stopped && report.steps.is_empty(), "{report:#?}");
}

#[test]
fn a_people_load_with_no_rooms_or_accounts_is_refused_not_a_panic() {
    let mut spec = PeopleSpec::new("http://127.0.0.1:1");
    spec.steps = vec![10];
    spec.rooms = 0;
    let e = run_people(&spec).unwrap_err();
    assert!(
        matches!(e, PeopleError::Invalid(InvalidSpec::Rooms(0))),
        "{e}"
    );
    spec.rooms = 4;
    spec.accounts = 0;
    let e = run_people(&spec).unwrap_err();
    assert!(
        matches!(e, PeopleError::Invalid(InvalidSpec::Accounts(0))),
        "{e}"
    );
    let e = roster::parse_sessions("", u32::MAX).unwrap_err();
    assert_eq!(
        e,
        roster::SessionsError::TooMany { accounts: u32::MAX },
        "{e}"
    );
}
