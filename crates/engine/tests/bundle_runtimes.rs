//! bundle per runtime with Debian's ruby and bundler, and a Gemfile of a
//! locally installed gem (rack, from ruby-rack): two runtimes, two
//! lockfiles of their own, and the main lock byte for byte as it was.

mod support;

use std::process::Command;

use reprise_engine::inputs::lockfile::BundleError;
use reprise_engine::os::run_files::Refused;
use support::{execute, log_lines, setup};

const RECIPE: &str = r#"
[post]
id = "bundle"
title = "Bundle"
author = "Test"
date = "2026"
summary = "Two runtimes, one Gemfile."

[[toolchain]]
name = "ruby-a"
version = "*"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'
why = "One runtime."

[[toolchain]]
name = "ruby-b"
version = "*"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'
why = "The same ruby under another name."

[[step]]
id = "bundle-a"
kind = "bundle"
runtime = "ruby-a"
tree = "app"
lockfile = "Gemfile.ruby-a.lock"
why = "The first runtime's bundle."

[[step]]
id = "bundle-b"
kind = "bundle"
runtime = "ruby-b"
tree = "app"
lockfile = "Gemfile.ruby-b.lock"
after = ["bundle-a"]
why = "The second runtime's bundle."
"#;

#[test]
fn each_runtime_bundles_into_its_own_lockfile_and_the_main_lock_is_untouched() {
    let s = setup("bundle", RECIPE);
    let run = s.data.create_run("bundle").unwrap();
    let tree = run.trees().join("app");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join("Gemfile"),
        "source \"https://rubygems.org\"\ngem \"rack\"\n",
    )
    .unwrap();
    let locked = Command::new("bundle")
        .args(["lock", "--local"])
        .current_dir(&tree)
        .env("BUNDLE_APP_CONFIG", tree.join(".bundle-test"))
        .output()
        .unwrap();
    assert!(
        locked.status.success(),
        "{}",
        String::from_utf8_lossy(&locked.stderr)
    );
    let main_before = std::fs::read(tree.join("Gemfile.lock")).unwrap();

    let a = execute(&s, Some(run), false, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["bundle-a", "bundle-b"], "{lines:#?}");
    assert_eq!(
        std::fs::read(tree.join("Gemfile.lock")).unwrap(),
        main_before
    );
    for runtime in ["ruby-a", "ruby-b"] {
        let lock = std::fs::read_to_string(tree.join(format!("Gemfile.{runtime}.lock"))).unwrap();
        assert!(lock.contains("rack ("), "{lock}");
        assert!(lines.iter().any(|l| l
            == &format!("{runtime}: seeded Gemfile.{runtime}.lock from the main Gemfile.lock")));
    }
    assert!(
        lines.iter().any(|l| l.contains("Bundle complete!")),
        "{lines:#?}"
    );
}

#[test]
fn a_runtime_lockfile_is_reseeded_only_when_the_main_lock_changes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Gemfile"), "gem \"rack\"\n").unwrap();
    std::fs::write(dir.path().join("Gemfile.lock"), "one\n").unwrap();
    let (layout, seeded) =
        reprise_engine::inputs::lockfile::prepare(dir.path(), ".", "Gemfile.rt.lock").unwrap();
    assert!(seeded);
    assert_eq!(layout.gemfile, dir.path().join("Gemfile.rt"));
    assert_eq!(std::fs::read_to_string(&layout.lockfile).unwrap(), "one\n");
    std::fs::write(&layout.lockfile, "resolved by the runtime\n").unwrap();
    let (_, seeded) =
        reprise_engine::inputs::lockfile::prepare(dir.path(), ".", "Gemfile.rt.lock").unwrap();
    assert!(
        !seeded,
        "an unchanged main lock keeps the runtime's own resolution"
    );
    std::fs::write(dir.path().join("Gemfile.lock"), "two\n").unwrap();
    let (layout, seeded) =
        reprise_engine::inputs::lockfile::prepare(dir.path(), ".", "Gemfile.rt.lock").unwrap();
    assert!(seeded);
    assert_eq!(std::fs::read_to_string(&layout.lockfile).unwrap(), "two\n");
}

#[test]
fn a_tree_that_links_the_runtime_s_gemfile_elsewhere_fails_the_step_and_leaves_that_file() {
    let trees = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let tree = trees.path().join("app");
    std::fs::create_dir(&tree).unwrap();
    std::fs::write(tree.join("Gemfile"), "gem \"rack\"\n").unwrap();
    std::fs::write(tree.join("Gemfile.lock"), "one\n").unwrap();
    let precious = elsewhere.path().join("bashrc");
    std::fs::write(&precious, "mine\n").unwrap();
    // The emitted tree (a step's output) left its runtime Gemfile as a link.
    std::os::unix::fs::symlink(&precious, tree.join("Gemfile.rt")).unwrap();
    let err = reprise_engine::inputs::lockfile::prepare(trees.path(), "app", "Gemfile.rt.lock")
        .unwrap_err();
    assert!(
        matches!(&err, BundleError::Io { path, source } if path.ends_with("/Gemfile.rt")
            && matches!(Refused::of(source), Some(Refused::ThroughSymlink { .. }))),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "mine\n");
    // The lockfile beside the tree, in trees/, is still fine; past trees/ is refused.
    std::fs::remove_file(tree.join("Gemfile.rt")).unwrap();
    let (layout, seeded) =
        reprise_engine::inputs::lockfile::prepare(trees.path(), "app", "../app-rt/Gemfile.lock")
            .unwrap();
    assert!(seeded);
    assert_eq!(layout.lockfile, trees.path().join("app-rt/Gemfile.lock"));
    assert_eq!(std::fs::read_to_string(&layout.lockfile).unwrap(), "one\n");
    let err = reprise_engine::inputs::lockfile::prepare(trees.path(), "app", "../../Gemfile.lock")
        .unwrap_err();
    assert!(
        matches!(&err, BundleError::BadLockfile(lockfile) if lockfile == "app/../../Gemfile.lock"),
        "{err}"
    );
}
