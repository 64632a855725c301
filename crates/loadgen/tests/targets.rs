//! A load goes only where its spec's targets allow: a URL naming any other
//! server is refused before a single connection is opened, by Reprise's own
//! generator, by wrk and by the people load alike.

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reprise_loadgen::{
    LoadError, LoadSpec, PeopleError, PeopleSpec, StopHandle, TargetError, Targets,
    run_people_until, run_until,
};

/// A listener on 127.0.0.1 that counts the connections it accepts (and answers none).
struct CountingListener {
    addr: SocketAddr,
    accepted: Arc<AtomicU64>,
}

impl CountingListener {
    fn start() -> CountingListener {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let accepted = Arc::new(AtomicU64::new(0));
        let counter = accepted.clone();
        std::thread::spawn(move || {
            let mut open = Vec::new();
            for stream in listener.incoming().flatten() {
                counter.fetch_add(1, Ordering::SeqCst);
                open.push(stream);
            }
        });
        CountingListener { addr, accepted }
    }

    /// Accepts so far, after a moment for any connection in flight to arrive.
    fn accepted(&self) -> u64 {
        std::thread::sleep(Duration::from_millis(200));
        self.accepted.load(Ordering::SeqCst)
    }
}

/// What the run started: some other port on 127.0.0.1.
fn the_runs_server() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

fn short(url: String, targets: Targets) -> LoadSpec {
    let mut spec = LoadSpec::new(url);
    spec.connections = 1;
    spec.duration = Duration::from_millis(300);
    spec.timeout = Duration::from_millis(300);
    spec.targets = targets;
    spec
}

#[test]
fn a_load_aimed_past_the_runs_server_is_refused_before_any_connection() {
    let other = CountingListener::start();
    let allowed = Targets::Only(the_runs_server());
    let urls = [
        format!("http://{}/", other.addr),
        format!("http://localhost:{}/", other.addr.port()),
        // An endpoint path `@host:port/` glued after the run's server.
        format!("http://127.0.0.1:1@{}/", other.addr),
    ];
    for url in &urls {
        let outcome = run_until(&short(url.clone(), allowed), &StopHandle::default(), |_| {});
        let e = outcome.unwrap_err();
        assert!(
            matches!(
                e,
                LoadError::NotAllowed { .. } | LoadError::InvalidUrl { .. }
            ),
            "{url}: {e}"
        );
        let wrk =
            reprise_loadgen::wrk::run_until(&short(url.clone(), allowed), &StopHandle::default())
                .unwrap_err();
        assert!(
            matches!(
                wrk,
                LoadError::NotAllowed { .. } | LoadError::InvalidUrl { .. }
            ),
            "{url}: {wrk}"
        );
    }
    let mut people = PeopleSpec::new(format!("http://{}", other.addr));
    people.targets = allowed;
    people.steps = vec![1];
    let e = run_people_until(&people, &StopHandle::default(), |_| {}).unwrap_err();
    assert!(
        matches!(
            e,
            PeopleError::NotAllowed {
                reason: TargetError::NotTheRunsServer { .. },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(other.accepted(), 0, "nothing reached the other server");

    // The same load aimed at the server it is allowed to load does connect.
    let report = run_until(
        &short(format!("http://{}/", other.addr), Targets::Only(other.addr)),
        &StopHandle::default(),
        |_| {},
    )
    .unwrap();
    assert!(!report.has_data(), "the listener answers nothing");
    assert!(other.accepted() > 0);
}

#[test]
fn by_default_a_load_stays_on_this_machine() {
    // TEST-NET-1: never routed; refused before any packet is sent.
    let url = "http://192.0.2.1:8080/".to_string();
    let e = run_until(&LoadSpec::new(url.clone()), &StopHandle::default(), |_| {}).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::NotAllowed {
                reason: TargetError::NotLoopback { .. },
                ..
            }
        ),
        "{e}"
    );
    let e = run_people_until(
        &PeopleSpec::new("http://192.0.2.1:3000"),
        &StopHandle::default(),
        |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, PeopleError::NotAllowed { .. }), "{e}");
}
