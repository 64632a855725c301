//! Sources through real git repositories the test makes, cloned by file URL.

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::inputs::source::{self, SourceError};
use reprise_recipe::{Name, Source};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A repository with three commits; the second is tagged `v1`. Returns the
/// three SHAs.
fn make_repo(dir: &Path) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q"]);
    let mut shas = Vec::new();
    for i in 1..=3 {
        std::fs::write(dir.join("version.txt"), format!("version {i}\n")).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join(format!("src/file{i}.rs")), format!("// {i}\n")).unwrap();
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", &format!("commit {i}")]);
        shas.push(git(dir, &["rev-parse", "HEAD"]));
        if i == 2 {
            git(dir, &["tag", "v1"]);
        }
    }
    shas
}

fn source(url: &str, rev: &str) -> Source {
    Source {
        id: Name::new("app", 0..0),
        url: url.to_string(),
        rev: Some(Name::new(rev, 0..0)),
        branch: None,
        unpinned: None,
        purpose: "the app under test".into(),
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    origin: std::path::PathBuf,
    url: String,
    cache: std::path::PathBuf,
    work: std::path::PathBuf,
    shas: Vec<String>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin");
    let shas = make_repo(&origin);
    Fixture {
        url: format!("file://{}", origin.display()),
        cache: dir.path().join("cache"),
        work: dir.path().join("work"),
        origin,
        shas,
        _dir: dir,
    }
}

fn checkout(f: &Fixture, rev: &str, into: &str) -> (Result<String, SourceError>, Vec<Event>) {
    let events = Mutex::new(Vec::new());
    let result = source::checkout(
        &f.cache,
        &source(&f.url, rev),
        &f.work.join(into),
        "clone",
        &CancelToken::new(),
        &|e| events.lock().unwrap().push(e),
    );
    (result, events.into_inner().unwrap())
}

#[test]
fn a_pinned_commit_is_checked_out_and_verified() {
    let f = fixture();
    let (result, events) = checkout(&f, &f.shas[1], "app");
    assert_eq!(result.unwrap(), f.shas[1]);
    let dest = f.work.join("app");
    assert_eq!(
        std::fs::read_to_string(dest.join("version.txt")).unwrap(),
        "version 2\n"
    );
    assert!(!dest.join("src/file3.rs").exists());
    assert_eq!(git(&dest, &["rev-parse", "HEAD"]), f.shas[1]);
    assert_eq!(git(&dest, &["status", "--porcelain"]), "");
    assert_eq!(git(&dest, &["remote", "get-url", "origin"]), f.url);
    // A repository on this machine is copied into the cache, not packed.
    let mirror = source::mirror_path(&f.cache, &f.url);
    assert_eq!(git(&mirror, &["rev-parse", "--is-bare-repository"]), "true");
    assert!(events.iter().any(
        |e| matches!(e, Event::Log { line, .. } if line.starts_with("copied the local repository"))
    ));
}

#[test]
fn short_shas_and_tags_resolve_to_full_commits() {
    let f = fixture();
    let (short, _) = checkout(&f, &f.shas[0][..8], "short");
    assert_eq!(short.unwrap(), f.shas[0]);
    let (tag, _) = checkout(&f, "v1", "tag");
    assert_eq!(tag.unwrap(), f.shas[1]);
    assert_eq!(
        std::fs::read_to_string(f.work.join("short/version.txt")).unwrap(),
        "version 1\n"
    );
}

#[test]
fn a_missing_revision_is_reported() {
    let f = fixture();
    let (result, _) = checkout(&f, "0123456789abcdef0123456789abcdef01234567", "app");
    let err = result.unwrap_err();
    assert!(matches!(err, SourceError::NoSuchRevision { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "revision `0123456789abcdef0123456789abcdef01234567` does not exist in {}",
            f.url
        )
    );
}

#[test]
fn the_cache_serves_known_revisions_offline_and_fetches_new_ones() {
    let f = fixture();
    checkout(&f, &f.shas[2], "first").0.unwrap();

    // A new commit upstream is fetched into the mirror when asked for,
    // through the transport, with its progress reported.
    std::fs::write(f.origin.join("version.txt"), "version 4\n").unwrap();
    git(&f.origin, &["commit", "-q", "-am", "commit 4"]);
    let fourth = git(&f.origin, &["rev-parse", "HEAD"]);
    let (result, events) = checkout(&f, &fourth, "fourth");
    assert_eq!(result.unwrap(), fourth);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Progress { unit, .. } if unit == "objects"))
    );

    // With the origin gone, cached revisions still check out.
    std::fs::remove_dir_all(&f.origin).unwrap();
    let (result, events) = checkout(&f, &f.shas[0], "offline");
    assert_eq!(result.unwrap(), f.shas[0]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Progress { unit, .. } if unit == "objects"))
    );
    assert_eq!(
        std::fs::read_to_string(f.work.join("offline/version.txt")).unwrap(),
        "version 1\n"
    );
    // And one it never saw is a fetch error naming the URL.
    let (result, _) = checkout(&f, "fedcba9876543210fedcba9876543210fedcba98", "gone");
    let err = result.unwrap_err();
    assert!(
        matches!(&err, SourceError::Fetch { url, .. } if *url == f.url),
        "{err}"
    );
    assert!(err.to_string().contains(&f.url), "{err}");
}
