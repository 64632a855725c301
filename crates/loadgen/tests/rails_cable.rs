//! The Action Cable client against Rails' own Action Cable server (Debian's
//! ruby-actioncable 6.1 on Puma), with a minimal app made by the test: a
//! channel that confirms, rejects on a param, and broadcasts on an action.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reprise_loadgen::{Cable, CableConfig, CableError, CableEvent, SubscriptionState};

/// Puma serving the test's config.ru on a free port of 127.0.0.1.
struct Puma {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Puma {
    fn start() -> Puma {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("config.ru");
        std::fs::write(&app, include_str!("rails_cable.ru")).unwrap();
        let port = reprise_test_support::free_port();
        let child = Command::new("puma")
            .args([
                "--bind",
                &format!("tcp://127.0.0.1:{port}"),
                "--threads",
                "1:4",
            ])
            .arg(&app)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("puma (Debian package puma) is installed");
        let mut puma = Puma {
            child,
            port,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !puma.answers_http() {
            if let Some(status) = puma.child.try_wait().unwrap() {
                panic!("puma exited before it answered: {status}");
            }
            assert!(Instant::now() < deadline, "puma did not answer within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        puma
    }

    /// Whether an HTTP response comes back. A bare connect is not enough: the
    /// port came from the ephemeral range, and a connect to it before Puma
    /// binds can pick that same port as its source and connect to itself
    /// (TCP simultaneous open), which once let a test start before Puma
    /// listened.
    fn answers_http(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        if stream
            .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .is_err()
        {
            return false;
        }
        let mut head = [0u8; 8];
        stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.")
    }

    fn config(&self, session: &str) -> CableConfig {
        let mut config = CableConfig::new(format!("ws://127.0.0.1:{}/", self.port));
        config.cookie = Some(format!("session={session}"));
        config.origin = Some("http://allowed.test".into());
        config
    }
}

impl Drop for Puma {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

fn room(n: u32) -> String {
    format!(r#"{{"channel":"RoomChannel","room":{n}}}"#)
}

/// The next event that is not a ping, within a few seconds.
async fn next_non_ping(cable: &mut Cable) -> CableEvent {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(5), cable.next_event())
            .await
            .expect("an event within 5 s")
            .expect("the cable stays open");
        if event != CableEvent::Ping {
            return event;
        }
    }
}

#[test]
fn subscribes_confirms_rejects_broadcasts_pings_and_resubscribes_against_rails() {
    let puma = Puma::start();
    block_on(async {
        let mut alice = Cable::connect(&puma.config("alice")).await.unwrap();
        let mut bob = Cable::connect(&puma.config("bob")).await.unwrap();

        // Subscribe and confirm.
        alice.subscribe(&room(1)).await.unwrap();
        assert_eq!(
            next_non_ping(&mut alice).await,
            CableEvent::Confirmed(room(1))
        );
        assert_eq!(
            alice.subscription(&room(1)),
            Some(SubscriptionState::Confirmed)
        );
        bob.subscribe(&room(1)).await.unwrap();
        assert_eq!(
            next_non_ping(&mut bob).await,
            CableEvent::Confirmed(room(1))
        );

        // Reject on a param.
        let refused = r#"{"channel":"RoomChannel","room":2,"reject":true}"#;
        bob.subscribe(refused).await.unwrap();
        assert_eq!(
            next_non_ping(&mut bob).await,
            CableEvent::Rejected(refused.into())
        );
        assert_eq!(bob.subscription(refused), Some(SubscriptionState::Rejected));

        // An action broadcasts to every subscriber, the sender included.
        alice
            .perform(
                &room(1),
                &serde_json::json!({"action": "speak", "text": "hi"}),
            )
            .await
            .unwrap();
        for cable in [&mut alice, &mut bob] {
            match next_non_ping(cable).await {
                CableEvent::Message {
                    identifier,
                    message,
                } => {
                    assert_eq!(identifier, room(1));
                    assert_eq!(message["text"], "hi");
                    assert_eq!(
                        message["user"], "alice",
                        "the session cookie identified alice"
                    );
                }
                other => panic!("expected the broadcast, got {other:?}"),
            }
        }

        // Rails pings every 3 s: a ping arrives and keeps the connection fresh.
        let waited = Instant::now();
        loop {
            let event = tokio::time::timeout(Duration::from_secs(5), bob.next_event())
                .await
                .expect("a ping within 5 s")
                .unwrap();
            if event == CableEvent::Ping {
                break;
            }
        }
        assert!(bob.last_ping() >= waited);
        assert!(!bob.is_stale(Instant::now()));
        assert!(bob.is_stale(Instant::now() + Duration::from_secs(7)));

        // Unsubscribe: bob no longer hears room 1; resubscribe: he does again.
        bob.unsubscribe(&room(1)).await.unwrap();
        assert_eq!(bob.subscription(&room(1)), None);
        bob.subscribe(&room(3)).await.unwrap();
        assert_eq!(
            next_non_ping(&mut bob).await,
            CableEvent::Confirmed(room(3))
        );
        // Rails handles a connection's commands on a pool of workers, and
        // says nothing when an unsubscribe is done: a message alice sent
        // right after it may still reach bob. Within a few messages he no
        // longer hears room 1, and what he hears meanwhile is only those.
        let mut deaf = false;
        for attempt in 0..5 {
            let text = format!("gone? {attempt}");
            alice
                .perform(
                    &room(1),
                    &serde_json::json!({"action": "speak", "text": text}),
                )
                .await
                .unwrap();
            match tokio::time::timeout(Duration::from_millis(700), next_non_ping(&mut bob)).await {
                Err(_) => {
                    deaf = true;
                    break;
                }
                Ok(CableEvent::Message { identifier, .. }) if identifier == room(1) => {}
                Ok(other) => panic!("bob heard something else after unsubscribing: {other:?}"),
            }
        }
        assert!(
            deaf,
            "bob still heard room 1 five messages after unsubscribing"
        );
        bob.subscribe(&room(1)).await.unwrap();
        assert_eq!(
            next_non_ping(&mut bob).await,
            CableEvent::Confirmed(room(1))
        );
        alice
            .perform(
                &room(1),
                &serde_json::json!({"action": "speak", "text": "back"}),
            )
            .await
            .unwrap();
        match next_non_ping(&mut bob).await {
            CableEvent::Message { message, .. } => assert_eq!(message["text"], "back"),
            other => panic!("expected the broadcast after resubscribing, got {other:?}"),
        }
        // Everything was confirmed in time: nothing was sent twice.
        assert_eq!(alice.resends() + bob.resends(), 0);
    });
}

#[test]
fn an_unconfirmed_subscribe_is_sent_again_after_500_ms_and_counted() {
    let puma = Puma::start();
    block_on(async {
        let mut cable = Cable::connect(&puma.config("carol")).await.unwrap();
        // Rails ignores a subscribe for a channel class that does not exist:
        // no confirmation, no rejection, so the client keeps re-sending.
        let missing = r#"{"channel":"NoSuchChannel"}"#;
        cable.subscribe(missing).await.unwrap();
        let started = Instant::now();
        let _ = tokio::time::timeout(Duration::from_millis(1600), async {
            loop {
                let _ = cable.next_event().await;
            }
        })
        .await;
        assert_eq!(cable.resends(), 3, "re-sent at 0.5, 1.0 and 1.5 s");
        assert!(started.elapsed() >= Duration::from_millis(1500));
        assert!(matches!(
            cable.subscription(missing),
            Some(SubscriptionState::Pending { .. })
        ));
        // The same cable still works for a real channel.
        cable.subscribe(&room(9)).await.unwrap();
        assert_eq!(
            next_non_ping(&mut cable).await,
            CableEvent::Confirmed(room(9))
        );
    });
}

#[test]
fn rails_refuses_a_connection_without_a_session_or_from_a_foreign_origin() {
    let puma = Puma::start();
    block_on(async {
        let mut no_session = puma.config("x");
        no_session.cookie = None;
        let refused = Cable::connect(&no_session).await;
        assert!(
            matches!(
                refused,
                Err(CableError::Refused(_))
                    | Err(CableError::Closed)
                    | Err(CableError::WebSocket(_))
            ),
            "connected without a session: {:?}",
            refused.as_ref().err()
        );
        let mut foreign = puma.config("dave");
        foreign.origin = Some("http://evil.test".into());
        assert!(Cable::connect(&foreign).await.is_err());
        // Rails' cable workers may still be closing the two refused
        // connections on a loaded 2-core machine: the welcome gets longer
        // than the default 5 s, which measures nothing here.
        let mut dave = puma.config("dave");
        dave.timeout = std::time::Duration::from_secs(20);
        let accepted = Cable::connect(&dave).await;
        assert!(
            accepted.is_ok(),
            "a valid session was refused: {:?}",
            accepted.err()
        );
    });
}
