//! The commands as the webview calls them, through Tauri's IPC on the mock
//! runtime (no window, no display): the commands are registered under their
//! names and take their arguments as the generated client sends them (the
//! client and the commands come from one list, src-tauri/src/ipc.rs); a failure says its kind and what to do; links are
//! refused unless http(s); a validation streams its lines and saves itself;
//! a quick run's batches carry its events and how long it has left. What
//! the answers hold is the session's (crates/session/tests/views.rs).

use std::path::Path;

use reprise_desktop::app_state::AppState;
use reprise_desktop::commands;
use reprise_desktop::errors::ErrorKind;
use reprise_desktop::stream::StreamMessage;
use reprise_recipe::Catalog;
use reprise_session::run::RunChoices;
use reprise_session::{DataDir, Event, HistoryOutcome, Session, ShareSettings};
use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow, WebviewWindowBuilder};

fn session(data_dir: &Path) -> Session {
    Session::new(
        Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        DataDir::new(data_dir),
        ShareSettings::from_env(),
    )
}

fn start(data_dir: &Path) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let app = reprise_desktop::app(mock_builder(), session(data_dir))
        .build(mock_context(noop_assets()))
        .expect("the mock app builds");
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("the mock window opens");
    (app, webview)
}

fn invoke(webview: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    get_ipc_response(
        webview,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|body| body.deserialize::<Value>().expect("the answer is JSON"))
}

/// Arguments as the generated client sends them, for the commands that
/// answer at once (no install, no network, no real run): all but those that
/// stream, tested below, and the bench build's.
fn arguments() -> Vec<(&'static str, Value)> {
    let none = json!({});
    let recipe = json!({"id": "hello-ceiling"});
    let run = json!({"run": "nope"});
    vec![
        ("capabilities", none.clone()),
        ("library", none.clone()),
        ("history", none.clone()),
        ("machine", none.clone()),
        ("share_status", none.clone()),
        ("share_sign_in", none.clone()),
        ("share_wait_sign_in", none),
        ("post", recipe.clone()),
        ("cancel_run", recipe.clone()),
        ("cancel_setup", recipe),
        ("results", run.clone()),
        ("share_preview", run.clone()),
        ("share_submit", run.clone()),
        ("share_save", run),
        (
            "preflight",
            json!({"id": "hello-ceiling", "askVersions": false}),
        ),
        ("plan_run", json!({"id": "hello-ceiling", "server": null})),
        (
            "setup_plan",
            json!({"id": "hello-ceiling", "lanes": ["falcon"]}),
        ),
        ("share_choose_repo", json!({"repo": "not a repository"})),
        // No repository to read in this data dir: a failure with a hint.
        ("community", json!({"id": "hello-ceiling", "fetch": false})),
        ("open_link", json!({"url": "file:///etc/passwd"})),
    ]
}

#[test]
fn the_commands_answer_under_their_names_with_the_clients_arguments() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let listed: Vec<&str> = reprise_desktop::ipc::list()
        .iter()
        .map(|c| c.name)
        .collect();
    for (command, args) in arguments() {
        assert!(listed.contains(&command), "{command} is not in the list");
        // An answer, or a failure with a kind and a hint: never Tauri's own
        // refusal of a command or its arguments (a bare string).
        match invoke(&webview, command, args) {
            Ok(_) => {}
            Err(e) => {
                assert!(e["kind"].is_string(), "{command}: {e}");
                assert!(!e["hint"].as_str().unwrap().is_empty(), "{command}: {e}");
            }
        }
    }
    let caps = invoke(&webview, "capabilities", json!({})).unwrap();
    assert_eq!(
        (&caps["probe"], &caps["engine"]),
        (&json!(true), &json!(true))
    );
    if caps["bench_stream"] == false {
        let absent = invoke(&webview, "bench_stream", json!({})).unwrap_err();
        assert!(absent["kind"].is_null(), "not in this build: {absent}");
    }
}

#[test]
fn a_failure_says_its_kind_and_what_to_do() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let err = invoke(&webview, "post", json!({"id": "hello-ceilin"})).unwrap_err();
    assert_eq!(err["kind"], "not_found");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("did you mean `hello-ceiling`?"),
        "{message}"
    );
    assert!(err["hint"].as_str().unwrap().contains("Library"));
    let err = invoke(&webview, "results", json!({"run": "nope"})).unwrap_err();
    assert_eq!(err["kind"], "not_found");
    assert!(err["hint"].as_str().unwrap().contains("reprise history"));
    for url in ["file:///etc/passwd", "javascript:alert(1)", "not a link"] {
        let err = invoke(&webview, "open_link", json!({"url": url})).unwrap_err();
        assert_eq!(err["kind"], "invalid", "{url}: {err}");
        assert!(err["hint"].as_str().unwrap().contains("http"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_is_handed_to_the_opener_as_one_argument() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let opener = dir.path().join("opener");
    let got = dir.path().join("got");
    std::fs::write(
        &opener,
        format!("#!/bin/sh\nprintf '%s|' \"$@\" > {}\n", got.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let url = "https://example.com/a post?x=1&y=$(id)";
    reprise_desktop::link::open_with(&opener, url).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !got.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(
        std::fs::read_to_string(&got).unwrap(),
        "https://example.com/a%20post?x=1&y=$(id)|"
    );
    let missing = reprise_desktop::link::open_with(&dir.path().join("nope"), url).unwrap_err();
    assert_eq!(missing.kind, ErrorKind::Io);
    assert!(
        missing.hint.contains("https://example.com/a%20post"),
        "{}",
        missing.hint
    );
}

/// "Validate this machine": a real quick validation (about 15 s) over IPC,
/// its lines on the channel, its verdict with every check and the ceiling,
/// saved in the history as `reprise validate` saves it.
#[test]
fn validating_the_machine_gives_the_verdict_with_its_checks_and_saves_it() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let started = std::time::Instant::now();
    let v = invoke(
        &webview,
        "validate_machine",
        json!({"quick": true, "onEvent": "__CHANNEL__:1"}),
    )
    .unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(120));
    assert_eq!(v["mode"], "quick");
    let summary = v["summary"].as_str().unwrap();
    assert!(summary.starts_with("reprise validate: "), "{summary}");
    let checks = v["checks"].as_array().unwrap();
    let ids: Vec<&str> = checks.iter().map(|c| c["id"].as_str().unwrap()).collect();
    for id in ["governor", "cpus", "kernel_runs", "ceiling"] {
        assert!(ids.contains(&id), "no {id} check in {ids:?}");
    }
    for c in checks.iter().filter(|c| c["level"] != "ok") {
        assert!(!c["why"].as_str().unwrap().is_empty(), "{c}");
        assert!(c["fix"].is_string(), "{c}");
    }
    let ceiling = v["ceiling"].as_str().unwrap();
    assert!(
        ceiling.contains(" req/s median over 3 runs, spread "),
        "{ceiling}"
    );
    assert!(v["ceiling_split"].is_string());
    let id = v["history"]["id"].as_str().expect("saved in the history");
    let history = invoke(&webview, "history", json!({})).unwrap();
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == id && r["recipe"] == "machine"),
        "{history}"
    );
}

/// A quick run of hello-ceiling (Debian's puma and nginx on loopback)
/// through the throttle: the batches carry the engine's events, the cell
/// being measured, and how long the run has left to measure, counted as
/// the CLI counts it.
#[test]
fn a_quick_runs_batches_carry_its_events_the_cells_and_the_time_left() {
    let data = tempfile::tempdir().unwrap();
    let app = AppState::new(session(data.path()));
    let quick = RunChoices {
        quick: true,
        ..RunChoices::default()
    };
    let mut batches = Vec::new();
    let outcome = commands::start_run(&app, "hello-ceiling".into(), quick, |b| {
        batches.push(b);
        Ok::<(), ()>(())
    })
    .unwrap();
    let messages: Vec<&StreamMessage> = batches.iter().flatten().collect();
    assert!(
        matches!(messages[0], StreamMessage::Event { event: Event::Run { id, .. } } if *id == outcome.run),
        "{:?}",
        messages[0]
    );
    assert!(
        messages.iter().any(|m| matches!(m,
            StreamMessage::Progress { step, cell: Some(c), .. } if step == "measure" && c.lane == "puma")),
        "no cell named: {:#?}",
        messages
            .iter()
            .filter(|m| !matches!(m, StreamMessage::Log { .. }))
            .collect::<Vec<_>>()
    );
    let lefts: Vec<f64> = messages
        .iter()
        .filter_map(|m| match m {
            StreamMessage::Left { left: Some(l) } if l.measuring => Some(l.seconds),
            _ => None,
        })
        .collect();
    assert!(!lefts.is_empty(), "no time left was sent");
    assert!(lefts.first() >= lefts.last(), "it counts down: {lefts:?}");
    assert!(
        matches!(
            messages.last(),
            Some(StreamMessage::Left { .. }) | Some(StreamMessage::Event { .. })
        ),
        "{:?}",
        messages.last()
    );
    assert!(
        matches!(outcome.history, HistoryOutcome::Stored { .. }),
        "{outcome:?}"
    );
}
