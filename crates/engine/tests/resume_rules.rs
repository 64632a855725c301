//! What a second attempt keeps, runs and redoes, over a real repository the
//! test makes: a build's outputs inside the checkout survive resume, a tree
//! edited after it was emitted is redone with what changed said (or stops
//! the run under --strict), `--from` redoes its step and its dependents
//! only, what a digest compares with is an input, a tree of unpinned sources
//! is recorded rather than compared, the one-line tree digest is the one
//! coreutils gives, and a source can be fetched from elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{DataDir, Decision, PlanOptions, RunContext, RunDir, RunReport};

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

/// A repository with two files, committed; its URL and the commit.
fn origin(dir: &Path) -> (String, String) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q"]);
    std::fs::write(dir.join("a.txt"), "alpha\n").unwrap();
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("lib/b.txt"), "beta\n").unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "first"]);
    (
        format!("file://{}", dir.display()),
        git(dir, &["rev-parse", "HEAD"]),
    )
}

struct Case {
    _dir: tempfile::TempDir,
    root: PathBuf,
    data: DataDir,
    run: RunDir,
}

/// A checkout whose recipe clones `source` (its `rev` line or `branch`
/// lines), builds into the checkout's target/, emits a tree from it, and
/// digests the tree with `digest_keys`; plus an unrelated step.
fn case(dir: tempfile::TempDir, source: &str, digest_keys: &str) -> Case {
    let root = dir.path().join("checkout");
    std::fs::create_dir_all(root.join("recipes")).unwrap();
    let text = format!(
        r#"[post]
id = "rules"
title = "Rules"
author = "Test"
date = "2026"
summary = "Clone, build, emit, digest."

[[source]]
id = "app"
{source}
purpose = "The app."

[[step]]
id = "clone"
kind = "clone"
source = "app"
why = "The sources."

[[step]]
id = "build"
kind = "build"
after = ["clone"]
dir = "sources/app"
command = ["sh", "-c", "mkdir -p target && cat a.txt lib/b.txt > target/app.bin && echo built >> ../../build.count"]
outputs = ["target/app.bin"]
why = "Builds into the checkout's ignored target/."

[[step]]
id = "emit"
kind = "emit"
after = ["build"]
dir = "sources/app"
command = ["sh", "-c", "mkdir -p $REPRISE_TREE/lib && cp a.txt $REPRISE_TREE/ && cp lib/b.txt target/app.bin $REPRISE_TREE/lib/ && echo emitted >> ../../emit.count"]
tree = "t"
why = "Emits a tree."

[[step]]
id = "digest"
kind = "digest"
after = ["emit"]
tree = "t"
{digest_keys}
why = "Compares the tree."

[[step]]
id = "aside"
kind = "command"
after = ["clone"]
command = ["sh", "-c", "echo aside >> aside.count"]
why = "Depends on the clone only."
"#
    );
    std::fs::write(root.join("recipes/rules.toml"), text).unwrap();
    let data = DataDir::new(dir.path().join("data"));
    let run = data.create_run("rules").unwrap();
    Case {
        root,
        data,
        run,
        _dir: dir,
    }
}

impl Case {
    fn recipe(&self) -> reprise_recipe::Recipe {
        reprise_recipe::load(&self.root.join("recipes/rules.toml")).unwrap()
    }

    fn attempt(
        &self,
        options: &PlanOptions,
        shape: impl Fn(&mut RunContext),
    ) -> (RunReport, Vec<Event>) {
        let recipe = self.recipe();
        let plan = reprise_engine::plan(&recipe, options).unwrap();
        let events = Mutex::new(Vec::new());
        let sink = |e: Event| events.lock().unwrap().push(e);
        let mut ctx = RunContext::new(
            self.data.clone(),
            self.run.clone(),
            self.root.clone(),
            CancelToken::new(),
            &sink,
        );
        ctx.grace = Duration::from_millis(500);
        shape(&mut ctx);
        let report = reprise_engine::execute(&plan, &ctx).unwrap();
        (report, events.into_inner().unwrap())
    }

    fn run(&self) -> (RunReport, Vec<Event>) {
        self.attempt(&PlanOptions::default(), |_| {})
    }

    fn preview(&self) -> Vec<(String, Decision)> {
        let recipe = self.recipe();
        let plan = reprise_engine::plan(&recipe, &PlanOptions::default()).unwrap();
        let decisions = reprise_engine::preview(&plan, &self.run, &self.root).unwrap();
        plan.steps
            .iter()
            .map(|p| p.id().to_string())
            .zip(decisions)
            .collect()
    }

    fn count(&self, name: &str) -> usize {
        std::fs::read_to_string(self.run.path.join(name))
            .map(|s| s.lines().count())
            .unwrap_or(0)
    }
}

fn logged(events: &[Event], step: &str) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Log { step: s, line, .. } if s == step => Some(line.clone()),
            _ => None,
        })
        .collect()
}

fn failure(events: &[Event], step: &str) -> String {
    events
        .iter()
        .find_map(|e| match e {
            Event::Failed { step: s, reason } if s == step => Some(reason.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{step} did not fail: {events:?}"))
}

/// `find | sort | sha256sum`, as a reader would reproduce a tree's digest.
fn coreutils_digest(tree: &Path) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg("(find . -type f -printf '%P\\n' | LC_ALL=C sort | xargs -d '\\n' sha256sum) | sha256sum")
        .current_dir(tree)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_build_inside_the_checkout_survives_resume_and_is_redone_only_when_its_output_goes() {
    let dir = tempfile::tempdir().unwrap();
    let (url, sha) = origin(&dir.path().join("origin"));
    let c = case(dir, &format!("url = \"{url}\"\nrev = \"{sha}\""), "");
    // The digest step compares with the tree's manifest in the checkout,
    // which the first run's result provides.
    let (report, events) = c.attempt(&PlanOptions::default(), |_| {});
    assert_eq!(report.failed, vec!["digest"], "{events:?}");
    let manifests = c.root.join("checksums/trees/rules");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::copy(c.run.results().join("t.sha256"), manifests.join("t.sha256")).unwrap();

    let (report, events) = c.run();
    assert!(report.ok(), "{report:?} {events:?}");
    assert_eq!(report.reused, vec!["clone", "build", "aside"]);
    assert_eq!(
        report.finished,
        vec!["emit", "digest"],
        "what a tree is compared with is an input of the steps that compare it"
    );

    // Nothing changed: every step is kept, the build's target/ included.
    let (report, _) = c.run();
    assert_eq!(
        report.reused,
        vec!["clone", "build", "emit", "digest", "aside"]
    );
    assert_eq!(c.count("build.count"), 1);
    assert!(c.preview().iter().all(|(_, d)| *d == Decision::Keep));

    // The built file goes: the build is redone, the checkout is kept.
    std::fs::remove_file(c.run.sources().join("app/target/app.bin")).unwrap();
    let preview = c.preview();
    assert_eq!(
        preview[1],
        (
            "build".into(),
            Decision::Changed("target/app.bin is missing".into())
        )
    );
    let (report, events) = c.run();
    assert_eq!(report.finished, vec!["build"], "{events:?}");
    assert_eq!(report.reused, vec!["clone", "emit", "digest", "aside"]);
    assert_eq!(c.count("build.count"), 2);
    assert!(
        logged(&events, "build")
            .iter()
            .any(|l| l == "redone: target/app.bin is missing")
    );

    // A tracked file edited in the checkout: the clone is redone in place,
    // so the build's target/ is still there and the build is kept.
    std::fs::write(c.run.sources().join("app/a.txt"), "edited\n").unwrap();
    let (report, events) = c.run();
    assert_eq!(report.finished, vec!["clone"], "{events:?}");
    assert_eq!(report.reused, vec!["build", "emit", "digest", "aside"]);
    assert_eq!(
        std::fs::read_to_string(c.run.sources().join("app/a.txt")).unwrap(),
        "alpha\n"
    );
    assert!(
        logged(&events, "clone")
            .iter()
            .any(|l| l == "redone: sources/app has changes to tracked files: a.txt"),
        "{events:?}"
    );
}

#[test]
fn a_tree_edited_after_emission_is_redone_saying_what_changed_or_stops_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let (url, sha) = origin(&dir.path().join("origin"));
    let c = case(dir, &format!("url = \"{url}\"\nrev = \"{sha}\""), "");
    c.run();
    std::fs::create_dir_all(c.root.join("checksums/trees/rules")).unwrap();
    std::fs::copy(
        c.run.results().join("t.sha256"),
        c.root.join("checksums/trees/rules/t.sha256"),
    )
    .unwrap();
    assert!(c.run().0.ok());

    let emitted = c.count("emit.count");
    std::fs::write(c.run.trees().join("t/a.txt"), "tampered\n").unwrap();
    std::fs::write(c.run.trees().join("t/extra.txt"), "new\n").unwrap();
    let (report, events) = c.attempt(&PlanOptions::default(), |ctx| ctx.strict = true);
    assert_eq!(report.failed, vec!["emit"]);
    assert_eq!(
        failure(&events, "emit"),
        "trees/t changed since it was made: 1 differ: a.txt; 1 extra: extra.txt (--strict: not redone)"
    );
    assert_eq!(c.count("emit.count"), emitted, "--strict redid nothing");

    let (report, events) = c.run();
    assert!(report.ok(), "{events:?}");
    assert_eq!(report.finished, vec!["emit"]);
    assert!(
        logged(&events, "emit").iter().any(|l| l
            == "runs again: failed last time: trees/t changed since it was made: 1 differ: a.txt; 1 extra: extra.txt (--strict: not redone)"),
        "{events:?}"
    );
    assert!(!c.run.trees().join("t/extra.txt").exists());
}

#[test]
fn from_redoes_its_step_and_what_depends_on_it_only() {
    let dir = tempfile::tempdir().unwrap();
    let (url, sha) = origin(&dir.path().join("origin"));
    let c = case(dir, &format!("url = \"{url}\"\nrev = \"{sha}\""), "");
    c.run();
    std::fs::create_dir_all(c.root.join("checksums/trees/rules")).unwrap();
    std::fs::copy(
        c.run.results().join("t.sha256"),
        c.root.join("checksums/trees/rules/t.sha256"),
    )
    .unwrap();
    assert!(c.run().0.ok());
    let from = PlanOptions {
        from: Some("emit".into()),
        ..PlanOptions::default()
    };
    let (report, _) = c.attempt(&from, |_| {});
    assert_eq!(report.finished, vec!["emit", "digest"]);
    assert_eq!(
        report.reused,
        vec!["clone", "build", "aside"],
        "aside does not depend on emit"
    );
}

#[test]
fn a_changed_manifest_redoes_the_digest_and_a_tree_unlike_it_names_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let (url, sha) = origin(&dir.path().join("origin"));
    let c = case(
        dir,
        &format!("url = \"{url}\"\nrev = \"{sha}\""),
        "manifest = \"expected/t.sha256\"",
    );
    std::fs::create_dir_all(c.root.join("expected")).unwrap();
    let (report, events) = c.run();
    assert_eq!(report.failed, vec!["digest"]);
    assert!(
        failure(&events, "digest").contains("which does not exist"),
        "{events:?}"
    );
    std::fs::copy(
        c.run.results().join("t.sha256"),
        c.root.join("expected/t.sha256"),
    )
    .unwrap();
    assert!(c.run().0.ok());
    let manifest = std::fs::read_to_string(c.root.join("expected/t.sha256")).unwrap();
    std::fs::write(
        c.root.join("expected/t.sha256"),
        manifest.replacen("a.txt", "z.txt", 1),
    )
    .unwrap();
    let (report, events) = c.run();
    assert_eq!(report.failed, vec!["digest"], "{events:?}");
    assert!(
        failure(&events, "digest").ends_with("1 missing: z.txt; 1 extra: a.txt"),
        "{}",
        failure(&events, "digest")
    );
}

#[test]
fn the_one_line_digest_is_what_coreutils_gives_and_a_recipe_may_write_it_inline() {
    let dir = tempfile::tempdir().unwrap();
    let (url, sha) = origin(&dir.path().join("origin"));
    let scratch = case(
        tempfile::tempdir().unwrap(),
        &format!("url = \"{url}\"\nrev = \"{sha}\""),
        "",
    );
    scratch.run();
    let tree = scratch.run.trees().join("t");
    let digest = coreutils_digest(&tree);
    let manifest = std::fs::read_to_string(scratch.run.results().join("t.sha256")).unwrap();
    let ours =
        reprise_engine::inputs::tree_digest::Manifest::parse(Path::new("t.sha256"), &manifest)
            .unwrap()
            .digest();
    assert_eq!(
        ours, digest,
        "the one-liner of docs/reproduce.md reproduces Reprise's digest"
    );

    let c = case(
        dir,
        &format!("url = \"{url}\"\nrev = \"{sha}\""),
        &format!("digest = \"{digest}\""),
    );
    let (report, events) = c.run();
    assert!(report.ok(), "{events:?}");
    assert!(
        logged(&events, "digest")
            .iter()
            .any(|l| l == "trees/t has the digest the recipe expects")
    );
    let wrong = "0".repeat(64);
    let c = case(
        tempfile::tempdir().unwrap(),
        &format!("url = \"{url}\"\nrev = \"{sha}\""),
        &format!("digest = \"{wrong}\""),
    );
    let (report, events) = c.run();
    assert_eq!(report.failed, vec!["digest"]);
    assert_eq!(
        failure(&events, "digest"),
        format!(
            "trees/t has digest {digest}, the recipe expects {wrong} (results/t.sha256 lists this run's files)"
        )
    );
}

#[test]
fn a_tree_of_an_unpinned_source_is_recorded_not_compared() {
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = origin(&dir.path().join("origin"));
    let c = case(
        dir,
        &format!("url = \"{url}\"\nbranch = \"main\"\nunpinned = \"The post names no commit.\""),
        "",
    );
    let (report, events) = c.run();
    assert!(report.ok(), "{report:?} {events:?}");
    assert!(
        logged(&events, "digest")
            .iter()
            .any(|l| l.starts_with("trees/t comes from `app`, which is not pinned")),
        "{events:?}"
    );
    // Naming a manifest for such a tree is a recipe error, at the step.
    let text = std::fs::read_to_string(c.root.join("recipes/rules.toml"))
        .unwrap()
        .replace(
            "tree = \"t\"\n\nwhy = \"Compares",
            "tree = \"t\"\nmanifest = \"m.sha256\"\nwhy = \"Compares",
        );
    let err = reprise_recipe::parse(Path::new("recipes/rules.toml"), &text).unwrap_err();
    assert!(
        err.to_string().contains("step `digest` compares its tree with a published digest, but the tree comes from `app`, which is not pinned"),
        "{err}"
    );
}

#[test]
fn a_source_fetched_from_elsewhere_still_needs_its_revision_and_is_a_deviation() {
    let dir = tempfile::tempdir().unwrap();
    let (url, sha) = origin(&dir.path().join("origin"));
    // A mirror with the same history, and an unrelated repository.
    let mirror = dir.path().join("mirror");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            "--bare",
            &dir.path().join("origin").display().to_string(),
            &mirror.display().to_string(),
        ],
    );
    let other_dir = dir.path().join("other");
    std::fs::create_dir_all(&other_dir).unwrap();
    git(&other_dir, &["init", "-q"]);
    std::fs::write(other_dir.join("c.txt"), "another project\n").unwrap();
    git(&other_dir, &["add", "-A"]);
    git(&other_dir, &["commit", "-q", "-m", "unrelated"]);
    let other = format!("file://{}", other_dir.display());
    let c = case(
        dir,
        &format!("url = \"https://example.invalid/app.git\"\nrev = \"{sha}\""),
        "",
    );
    let _ = url;
    let mirror_url = format!("file://{}", mirror.display());
    let (report, events) = c.attempt(&PlanOptions::default(), |ctx| {
        ctx.source_overrides
            .insert("app".into(), mirror_url.clone());
        ctx.deviations.push(reprise_verdict::Deviation::new(
            reprise_verdict::DeviationKind::Source,
            format!("app fetched from {mirror_url}"),
        ));
    });
    assert!(report.finished.contains(&"clone".to_string()), "{events:?}");
    assert!(
        logged(&events, "clone")
            .iter()
            .any(|l| l.contains("instead of https://example.invalid/app.git")),
        "{events:?}"
    );
    let recorded =
        std::fs::read_to_string(c.run.results().join(reprise_engine::DEVIATIONS_FILE)).unwrap();
    assert!(recorded.contains("app fetched from file://"), "{recorded}");

    let fresh = c.data.create_run("rules").unwrap();
    let c2 = Case { run: fresh, ..c };
    let (report, events) = c2.attempt(&PlanOptions::default(), |ctx| {
        ctx.source_overrides.insert("app".into(), other.clone());
    });
    assert_eq!(report.failed, vec!["clone"]);
    assert_eq!(
        failure(&events, "clone"),
        format!("revision `{sha}` does not exist in {other}")
    );
}
