//! Running a recipe from the app, through the session API the CLI uses: the
//! engine's real plan and a quick real run of hello-ceiling (Debian's puma
//! and nginx on loopback), its events through the throttle, re-entering (the
//! plan shows where the last run got to), refusing a recipe that is not the
//! reviewed one, removing the containers an earlier attempt left, and saying
//! when the results could not be stored.

#[path = "../../crates/engine/tests/support/mod.rs"]
mod support;

use std::path::Path;

use reprise_desktop::run::{plan, start};
use reprise_desktop::views::{ErrorKind, LiveCell, RunChoices, ServerChoice, StreamMessage};
use reprise_engine::Event;
use reprise_recipe::Catalog;
use reprise_session::{DataDir, HistoryOutcome, Session, ShareSettings};

fn checkout() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn session(root: &Path, data: &Path) -> Session {
    Session::new(
        Catalog::new(root),
        DataDir::new(data),
        ShareSettings::from_env(),
    )
}

fn events(batches: &[Vec<StreamMessage>]) -> Vec<Event> {
    batches
        .iter()
        .flatten()
        .filter_map(|m| match m {
            StreamMessage::Event { event } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

fn quick() -> RunChoices {
    RunChoices {
        quick: true,
        ..RunChoices::default()
    }
}

fn notes(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Note { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// A checkout with one reviewed recipe whose only step runs `true`.
fn tiny_checkout() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::write(
        root.path().join("recipes/tiny.toml"),
        r#"[post]
id = "tiny"
title = "Tiny"
author = "A. Writer"
date = "2026"
summary = "One command."

[[step]]
id = "hello"
kind = "command"
command = ["true"]
why = "Something to run."
"#,
    )
    .unwrap();
    reprise_recipe::Catalog::new(root.path())
        .update_checksums()
        .unwrap();
    root
}

#[test]
fn a_run_streams_the_engines_events_and_can_be_re_entered() {
    let data = tempfile::tempdir().unwrap();
    let session = session(checkout(), data.path());
    let before = plan(&session, "hello-ceiling", None).unwrap();
    assert_eq!(before.latest_run, None);
    assert!(before.steps.iter().all(|s| !s.why.is_empty()));
    // The measuring step says what a full run and a quick one measure.
    let measure = before.steps.iter().find(|s| s.id == "measure").unwrap();
    let (full, fast) = (
        measure.expected.as_ref().unwrap(),
        measure.expected_quick.as_ref().unwrap(),
    );
    assert_eq!((full.runs, fast.runs), (3, 2));
    assert!(
        fast.shape.contains("× 2 runs of 2 s (quick: "),
        "{}",
        fast.shape
    );
    assert!(
        before
            .steps
            .iter()
            .filter(|s| s.id != "measure")
            .all(|s| s.expected.is_none() && s.expected_quick.is_none())
    );

    let mut batches = Vec::new();
    let outcome = start(&session, "hello-ceiling", quick(), |b| {
        batches.push(b);
        Ok::<(), ()>(())
    })
    .unwrap();
    let seen = events(&batches);
    assert_eq!(
        seen[0],
        Event::Run {
            id: outcome.run.clone(),
            dir: data
                .path()
                .join("runs")
                .join(&outcome.run)
                .display()
                .to_string()
        }
    );
    // Every planned step ends in exactly one of the outcome's lists, and the
    // stream said so for each.
    let steps = &outcome.steps;
    let ended =
        steps.finished.len() + steps.reused.len() + steps.skipped.len() + steps.failed.len();
    assert_eq!(ended, before.steps.len(), "{outcome:?}");
    for step in &steps.skipped {
        assert!(
            seen.iter()
                .any(|e| matches!(e, Event::Skipped { step: s, .. } if s == step)),
            "{seen:?}"
        );
    }
    assert!(
        !session.cancel("hello-ceiling"),
        "nothing is running any more"
    );
    // The stream names the cell being measured.
    let cells: Vec<&LiveCell> = batches
        .iter()
        .flatten()
        .filter_map(|m| match m {
            StreamMessage::Progress {
                step,
                cell: Some(cell),
                ..
            } if step == "measure" => Some(cell),
            _ => None,
        })
        .collect();
    assert!(
        cells
            .iter()
            .any(|c| c.lane == "puma" && c.endpoint == "/" && (1..=2).contains(&c.run)),
        "{cells:?}"
    );
    // Every lane not measured is in the outcome with why, and its line says
    // so: falcon, which scripts/test does not install (puma and nginx it does).
    let skipped: Vec<&str> = outcome
        .skipped_lanes
        .iter()
        .map(|l| l.lane.as_str())
        .collect();
    assert_eq!(skipped, ["falcon"], "{outcome:?}");
    assert!(
        outcome.skipped_lanes[0]
            .why
            .contains("it needs falcon, which this machine lacks"),
        "{:?}",
        outcome.skipped_lanes
    );
    for lane in &outcome.skipped_lanes {
        assert!(lane.why.contains(": "), "{lane:?}");
        assert!(outcome.summary.contains(&lane.lane), "{}", outcome.summary);
    }
    assert!(!outcome.summary.contains(" 0 "), "{}", outcome.summary);

    let after = plan(&session, "hello-ceiling", None).unwrap();
    assert_eq!(after.latest_run.as_deref(), Some(outcome.run.as_str()));

    // With Debian's puma and nginx (scripts/test installs them) the quick run
    // measures, and the measurements are judged into the results history.
    assert_eq!(
        outcome.history,
        HistoryOutcome::Stored {
            id: outcome.run.clone()
        },
        "{outcome:?}"
    );
    assert!(
        notes(&seen).iter().any(|n| n.contains("stored run")),
        "{seen:?}"
    );
    let stored = reprise_desktop::commands::results(&session, &outcome.run).unwrap();
    assert!(!stored.verdicts.is_empty());
    assert!(
        stored.figures.iter().any(|f| f.stats.is_some()),
        "{:?}",
        stored.figures
    );
}

#[test]
fn a_modified_recipe_is_refused_with_what_to_do() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::create_dir_all(root.path().join("checksums")).unwrap();
    let text = std::fs::read_to_string(checkout().join("recipes/hello-ceiling.toml")).unwrap();
    std::fs::write(
        root.path().join("recipes/hello-ceiling.toml"),
        format!("# edited\n{text}"),
    )
    .unwrap();
    std::fs::copy(
        checkout().join("checksums/recipes.sha256"),
        root.path().join("checksums/recipes.sha256"),
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let session = session(root.path(), data.path());
    let err = start(&session, "hello-ceiling", quick(), |_| Ok::<(), ()>(())).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unreviewed);
    assert!(err.message.contains("modified"), "{}", err.message);
    assert!(err.hint.contains("reprise checksums update"));
    assert!(!data.path().join("runs").exists(), "nothing ran");
}

/// The app runs what the CLI runs with --allow-modified, and only with the
/// reader's explicit yes: the same gate, the same recipe, the same outcome.
#[test]
fn a_modified_recipe_runs_once_the_reader_accepts_it() {
    let root = tiny_checkout();
    let file = root.path().join("recipes/tiny.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("Something to run.", "Edited.")).unwrap();
    let data = tempfile::tempdir().unwrap();
    let session = session(root.path(), data.path());
    let shown = plan(&session, "tiny", None).unwrap();
    assert!(!shown.checksum.is_reviewed());
    assert_eq!(shown.consent.steps[0].does, "true");

    let err = start(
        &session,
        "tiny",
        RunChoices::default(),
        |_| Ok::<(), ()>(()),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unreviewed);
    assert!(!data.path().join("runs").exists(), "nothing ran");

    let accepted = RunChoices {
        allow_modified: true,
        ..RunChoices::default()
    };
    let outcome = start(&session, "tiny", accepted, |_| Ok::<(), ()>(())).unwrap();
    assert_eq!(outcome.steps.finished, ["hello"]);
}

/// A server host the app cannot use is said before anything runs, with
/// what to do: certificates missing, a lane that is not the recipe's, an
/// engine that does not answer. (`crates/cli/tests/two_machines.rs` runs
/// a recipe on a real one, in network namespaces.)
#[test]
fn a_server_host_that_cannot_be_used_is_said_before_anything_runs() {
    let root = tiny_checkout();
    let data = tempfile::tempdir().unwrap();
    let session = session(root.path(), data.path());
    let certs = tempfile::tempdir().unwrap();
    let choice = |host: &str, images: &[(&str, &str)]| ServerChoice {
        host: host.into(),
        certs: Some(certs.path().display().to_string()),
        images: images
            .iter()
            .map(|(l, i)| (l.to_string(), i.to_string()))
            .collect(),
    };
    let err = plan(&session, "tiny", Some(&choice("tcp://127.0.0.1:9", &[]))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::ServerHost);
    assert!(err.message.contains("lacks ca.pem"), "{}", err.message);
    assert!(err.hint.contains("Two machines"), "{}", err.hint);
    let err = plan(
        &session,
        "tiny",
        Some(&choice("tcp://127.0.0.1:9", &[("nosuch", "busybox")])),
    )
    .unwrap_err();
    assert!(err.message.contains("no lane `nosuch`"), "{}", err.message);
    for file in ["ca.pem", "cert.pem", "key.pem"] {
        std::fs::write(certs.path().join(file), "not a certificate").unwrap();
    }
    // Port 9 on loopback: nothing answers there.
    let err = start(
        &session,
        "tiny",
        RunChoices {
            server: Some(choice("tcp://127.0.0.1:9", &[])),
            ..quick()
        },
        |_| Ok::<(), ()>(()),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::ServerHost);
    assert!(err.message.contains("does not answer"), "{}", err.message);
    assert!(!data.path().join("runs").exists(), "nothing ran");
}

#[test]
fn resuming_from_the_app_removes_the_containers_an_earlier_attempt_left() {
    let root = tiny_checkout();
    let data = tempfile::tempdir().unwrap();
    let engine_dir = tempfile::tempdir().unwrap();
    let (host, _service) = support::container_engine(engine_dir.path());
    let image = support::busybox_image(&host, engine_dir.path(), "reprise-app-leftover:test");
    // SAFETY: set before this test's session connects; the other tests of this
    // binary use the same engine address when they use one.
    unsafe { std::env::set_var("DOCKER_HOST", &host) };
    let session = session(root.path(), data.path());
    let first = start(
        &session,
        "tiny",
        RunChoices::default(),
        |_| Ok::<(), ()>(()),
    )
    .unwrap();
    assert!(first.steps.ok(), "{first:?}");

    // The first attempt "crashed" and left a container labelled with its run.
    let created = std::process::Command::new("podman")
        .args(["--remote", "--url", &host, "create", "--label"])
        .arg(format!("reprise.run={}", first.run))
        .args([image.as_str(), "/bin/sleep", "60"])
        .output()
        .unwrap();
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let left = String::from_utf8_lossy(&created.stdout).trim().to_string();

    let mut batches = Vec::new();
    let second = start(&session, "tiny", RunChoices::default(), |b| {
        batches.push(b);
        Ok::<(), ()>(())
    })
    .unwrap();
    assert_eq!(second.run, first.run, "the app resumed the run");
    let notes = notes(&events(&batches));
    assert!(
        notes
            .iter()
            .any(|n| n.contains("removed 1 container") && n.contains(&left[..12])),
        "{notes:?}"
    );
    let listed = std::process::Command::new("podman")
        .args(["--remote", "--url", &host, "ps", "-a", "-q", "--filter"])
        .arg(format!("label=reprise.run={}", first.run))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout).trim(),
        "",
        "the container is gone"
    );
}

#[test]
fn a_history_that_cannot_be_written_is_said_not_swallowed() {
    let root = tiny_checkout();
    let data = tempfile::tempdir().unwrap();
    // A folder where the history's database file should be: SQLite cannot open it.
    std::fs::create_dir_all(data.path().join(reprise_history::HISTORY_FILE)).unwrap();
    let session = session(root.path(), data.path());
    // The tiny recipe measures nothing; give it a command lane so there is something to store.
    let text = r#"[post]
id = "tiny"
title = "Tiny"
author = "A. Writer"
date = "2026"
summary = "One figure."

[[lane]]
name = "count"
command = ["true"]
why = "A number to store."

[[step]]
id = "count"
kind = "command"
command = ["sh", "-c", "echo '{\"count\": 3}'"]
why = "Prints a figure."
"#;
    std::fs::write(root.path().join("recipes/tiny.toml"), text).unwrap();
    reprise_recipe::Catalog::new(root.path())
        .update_checksums()
        .unwrap();
    let mut batches = Vec::new();
    let outcome = start(&session, "tiny", RunChoices::default(), |b| {
        batches.push(b);
        Ok::<(), ()>(())
    })
    .unwrap();
    assert!(outcome.steps.ok(), "{outcome:?}");
    match &outcome.history {
        HistoryOutcome::Failed { reason } => {
            assert!(reason.contains(reprise_history::HISTORY_FILE), "{reason}")
        }
        other => panic!("expected a failed store, got {other:?}"),
    }
    assert!(
        notes(&events(&batches))
            .iter()
            .any(|n| n.starts_with("the run could not be stored in the history")),
        "{batches:?}"
    );
}
