//! `reprise run`, `runs`, `clean` and `digest` as a reader runs them, over a
//! checkout and a data dir the test makes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const RECIPE: &str = r#"
[post]
id = "steps"
title = "Steps"
author = "Test"
date = "2026"
summary = "Three steps and one of the next version."

[[file]]
path = "note.txt"
content = "from the recipe\n"
why = "Read by the first step."

[[step]]
id = "first"
kind = "command"
command = ["sh", "-c", "cat files/note.txt; echo ran >> first.count"]
why = "Prints the recipe's file."

[[step]]
id = "slow"
kind = "command"
after = ["first"]
command = ["sh", "-c", "echo ran >> slow.count; test -e go && exit 0; echo $$ > slow.pid; exec sleep 30"]
why = "Waits until the file `go` exists."

[[step]]
id = "serve"
kind = "serve"
after = ["slow"]
why = "Serves the recipe's lanes: it has none, so there is nothing to boot."
"#;

struct Checkout {
    dir: tempfile::TempDir,
}

impl Checkout {
    fn new() -> Checkout {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("root/recipes")).unwrap();
        std::fs::create_dir_all(dir.path().join("root/checksums")).unwrap();
        std::fs::write(dir.path().join("root/recipes/steps.toml"), RECIPE).unwrap();
        std::fs::write(dir.path().join("root/checksums/recipes.sha256"), "").unwrap();
        let c = Checkout { dir };
        let out = c.reprise(&["checksums", "update"]);
        assert!(out.status.success(), "{}", stderr(&out));
        c
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("root")
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_reprise"));
        cmd.args(args)
            .env("REPRISE_ROOT", self.root())
            .env("REPRISE_DATA_DIR", self.data())
            .current_dir(self.root())
            .stdin(Stdio::null());
        cmd
    }

    fn reprise(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// The one run folder.
    fn run_dir(&self) -> PathBuf {
        let mut runs: Vec<PathBuf> = std::fs::read_dir(self.data().join("runs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(runs.len(), 1, "{runs:?}");
        runs.pop().unwrap()
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn events(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn count(dir: &Path, name: &str) -> usize {
    std::fs::read_to_string(dir.join(name))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

#[test]
fn run_shows_the_plan_and_needs_yes_without_a_terminal() {
    let c = Checkout::new();
    let out = c.reprise(&["run", "steps"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("run  first"), "{err}");
    assert!(
        err.contains("sh -c 'cat files/note.txt; echo ran >> first.count'"),
        "{err}"
    );
    assert!(err.contains("run  serve"), "{err}");
    assert!(err.contains("add --yes"), "{err}");
    assert!(!c.data().join("runs").exists());
}

#[test]
fn a_run_killed_mid_way_resumes_and_runs_lists_it() {
    let c = Checkout::new();
    // Start a run and kill Reprise with SIGKILL while `slow` runs.
    let mut child = c
        .command(&["run", "steps", "--yes", "--json"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let run = loop {
        assert!(Instant::now() < deadline, "slow never started");
        if let Ok(entries) = std::fs::read_dir(c.data().join("runs"))
            && let Some(run) = entries.flatten().next().map(|e| e.path())
            && run.join("slow.pid").exists()
        {
            break run;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let state = std::fs::read_to_string(run.join("state.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["steps"]["first"]["status"], "finished");
    assert_eq!(state["steps"]["slow"]["status"], "running");
    // The step's process died with Reprise (PR_SET_PDEATHSIG).
    let pid = std::fs::read_to_string(run.join("slow.pid")).unwrap();
    let proc_dir = PathBuf::from(format!("/proc/{}", pid.trim()));
    let gone = Instant::now() + Duration::from_secs(5);
    while proc_dir.exists()
        && !std::fs::read_to_string(proc_dir.join("stat")).is_ok_and(|s| s.contains(") Z "))
    {
        assert!(Instant::now() < gone, "the step's process outlived Reprise");
        std::thread::sleep(Duration::from_millis(20));
    }

    // Resume: `first` is kept, `slow` runs again, then `serve` (no lanes: nothing to boot).
    std::fs::write(run.join("go"), "").unwrap();
    let out = c.reprise(&["run", "steps", "--yes", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(c.run_dir(), run);
    assert_eq!(count(&run, "first.count"), 1);
    assert_eq!(count(&run, "slow.count"), 2);
    let events = events(&out);
    let of = |step: &str| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["step"] == step)
            .map(|e| e["event"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(of("first"), ["skipped"]);
    assert_eq!(of("slow"), ["log", "started", "finished"]);
    assert!(
        events
            .iter()
            .any(|e| e["step"] == "slow" && e["line"] == "runs again: interrupted last time"),
        "{events:?}"
    );
    assert_eq!(of("serve"), ["started", "finished"]);

    // A new run prints the recipe file's content through the first step.
    let out = c.reprise(&["run", "steps", "--yes", "--new", "--step", "first"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("first | from the recipe"),
        "{}",
        stdout(&out)
    );

    let out = c.reprise(&["runs"]);
    assert!(out.status.success());
    let listed = stdout(&out);
    assert_eq!(listed.lines().count(), 3, "{listed}");
    assert!(
        listed.contains(run.file_name().unwrap().to_str().unwrap()),
        "{listed}"
    );

    let out = c.reprise(&["clean", "--all"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
    assert_eq!(stdout(&c.reprise(&["runs"])), "No runs yet.\n");
}

/// Every way a recipe can fail to be the reviewed one is refused with
/// `--yes` alone: nothing runs, no run folder is made, and the reason says
/// which way it failed.
#[test]
fn an_unverified_recipe_never_runs_without_allow_modified() {
    let c = Checkout::new();
    let refused = |c: &Checkout, recipe: &str, why: &str| {
        let out = c.reprise(&["run", recipe, "--yes", "--step", "first"]);
        assert_eq!(out.status.code(), Some(2), "{recipe}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{recipe}: {}", stderr(&out));
        assert!(!c.data().join("runs").exists(), "{recipe} ran");
        assert!(!c.root().join("first.count").exists());
    };
    let named = |id: &str| RECIPE.replace("id = \"steps\"", &format!("id = \"{id}\""));

    // A new file dropped into recipes/.
    std::fs::write(c.root().join("recipes/dropped.toml"), named("dropped")).unwrap();
    refused(&c, "dropped", "not listed");
    // A recipe outside recipes/, given by path.
    let outside = c.dir.path().join("outside.toml");
    std::fs::write(&outside, named("outside")).unwrap();
    refused(&c, outside.to_str().unwrap(), "not listed");
    // A symlink in recipes/ to a file outside it.
    let target = c.dir.path().join("linked.toml");
    std::fs::write(&target, named("linked")).unwrap();
    std::os::unix::fs::symlink(&target, c.root().join("recipes/linked.toml")).unwrap();
    refused(&c, "linked", "not listed");

    // The manifest missing, then malformed: the reviewed recipe itself is
    // refused, saying why.
    let manifest = c.root().join("checksums/recipes.sha256");
    let reviewed = std::fs::read_to_string(&manifest).unwrap();
    std::fs::remove_file(&manifest).unwrap();
    refused(&c, "steps", "recipes.sha256 is missing");
    std::fs::write(&manifest, "not a manifest\n").unwrap();
    refused(&c, "steps", "expected `<sha256>  <path>`");
    std::fs::write(&manifest, &reviewed).unwrap();

    // And the reviewed one runs.
    let out = c.reprise(&["run", "steps", "--yes", "--step", "first"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_modified_recipe_is_refused_unless_allowed() {
    let c = Checkout::new();
    let file = c.root().join("recipes/steps.toml");
    let edited = RECIPE.replace("echo ran >> first.count", "echo changed >> first.count");
    std::fs::write(&file, edited).unwrap();
    let out = c.reprise(&["run", "steps", "--yes", "--step", "first"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not the reviewed recipe")
            && stderr(&out).contains("it is modified"),
        "{}",
        stderr(&out)
    );
    assert!(!c.data().join("runs").exists());

    let out = c.reprise(&[
        "run",
        "steps",
        "--yes",
        "--step",
        "first",
        "--allow-modified",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(c.run_dir().join("first.count")).unwrap(),
        "changed\n"
    );
}

#[test]
fn digest_prints_the_tree_digest_and_checks_a_manifest() {
    let c = Checkout::new();
    let tree = c.dir.path().join("tree");
    std::fs::create_dir_all(tree.join("a")).unwrap();
    std::fs::write(tree.join("a/one.txt"), "one\n").unwrap();
    std::fs::write(tree.join("two.txt"), "two\n").unwrap();
    let out = c.reprise(&["digest", "--manifest", tree.to_str().unwrap()]);
    assert!(out.status.success());
    let manifest = stdout(&out);
    assert_eq!(
        manifest,
        "2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806  a/one.txt\n\
         27dd8ed44a83ff94d557f9fd0412ed5a8cbca69ea04922d88c01184a07300a5a  two.txt\n"
    );
    let saved = c.dir.path().join("tree.sha256");
    std::fs::write(&saved, &manifest).unwrap();
    let ok = c.reprise(&[
        "digest",
        tree.to_str().unwrap(),
        "--check",
        saved.to_str().unwrap(),
    ]);
    assert!(ok.status.success());
    assert!(stdout(&ok).ends_with("  2 files\n"));

    std::fs::write(tree.join("two.txt"), "TWO\n").unwrap();
    let bad = c.reprise(&[
        "digest",
        tree.to_str().unwrap(),
        "--check",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("1 differ: two.txt"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_history_that_cannot_be_written_is_said_and_the_run_exits_non_zero() {
    let c = Checkout::new();
    let recipe = r#"
[post]
id = "steps"
title = "Steps"
author = "Test"
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
    std::fs::write(c.root().join("recipes/steps.toml"), recipe).unwrap();
    assert!(c.reprise(&["checksums", "update"]).status.success());
    // A folder where the history's database file should be: SQLite cannot open it.
    std::fs::create_dir_all(c.data().join("history.sqlite")).unwrap();
    let out = c.reprise(&["run", "steps", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("the run could not be stored in the history"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains(": 1 step finished"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_plan_says_what_is_kept_run_or_redone_and_why() {
    let c = Checkout::new();
    std::fs::write(c.root().join("go"), "").unwrap();
    let out = c.reprise(&["run", "steps", "--yes", "--step", "first"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = c.reprise(&[
        "run", "steps", "--yes", "--from", "first", "--step", "first",
    ]);
    let plan = stderr(&out);
    assert!(plan.contains("  redo first "), "{plan}");
    assert!(plan.contains("(--from asks for it)"), "{plan}");
    let out = c.reprise(&["run", "steps", "--yes", "--step", "first"]);
    let plan = stderr(&out);
    assert!(plan.contains("  keep first "), "{plan}");
    assert!(
        plan.contains("(finished before; inputs unchanged and outputs intact)"),
        "{plan}"
    );
}

#[test]
fn a_noisy_step_shows_its_first_lines_and_counts_the_rest_which_stay_in_its_log() {
    let c = Checkout::new();
    let recipe = r#"
[post]
id = "steps"
title = "Steps"
author = "Test"
date = "2026"
summary = "A noisy emitter."

[[step]]
id = "noisy"
kind = "command"
command = ["sh", "-c", "for i in $(seq 1 1500); do echo \"warning: unsupported construct $i\" >&2; done; echo done"]
why = "Prints as many warnings as Roundhouse's emitter does."
"#;
    std::fs::write(c.root().join("recipes/steps.toml"), recipe).unwrap();
    assert!(c.reprise(&["checksums", "update"]).status.success());
    let out = c.reprise(&["run", "steps", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    // Forty lines of its output, stderr's and stdout's as they arrived
    // (the final `done` may come before the last warnings).
    let lines = shown
        .lines()
        .filter(|l| l.contains("noisy !") || l.contains("noisy | "))
        .count();
    assert_eq!(lines, 40, "{shown}");
    assert!(
        shown.contains(
            "noisy: 1461 more lines not shown (1500 of its 1501 lines are warnings); all are in logs/noisy.log"
        ),
        "{shown}"
    );
    let log = std::fs::read_to_string(c.run_dir().join("logs/noisy.log")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.starts_with("warning:")).count(),
        1500
    );
}

/// The plan a reader accepts names everything the run executes: each
/// lane's server command and environment, the version commands, the files
/// the recipe writes and the requests it sends — before anything runs.
#[test]
fn the_plan_shows_every_command_environment_file_and_request_before_asking() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["run", "hello-ceiling"])
        .env("REPRISE_ROOT", &repo)
        .env("REPRISE_DATA_DIR", data.path())
        .current_dir(&repo)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let plan = stderr(&out);
    for shown in [
        "lane puma runs: in files/hello: puma --bind tcp://127.0.0.1:9292",
        "lane nginx runs: in files/hello: nginx -p . -c nginx.conf -g 'daemon off;' (port 9293)",
        "asks each toolchain its version:",
        "       falcon --version",
        "records the machine in env.json, as the harness's bench-env does:",
        "       uname -a, uname -s, uname -m, hostname, lscpu --json,",
        "wrk --version, curl --version, mise --version, sqlite3 --version",
        "writes files/hello/nginx.conf",
        "requests (to its own lanes on 127.0.0.1 only):",
        "       GET /",
        "Not asking without a terminal",
    ] {
        assert!(plan.contains(shown), "no {shown:?} in\n{plan}");
    }
    assert!(!data.path().join("runs").exists(), "nothing ran");
}

/// The variables Reprise signs in to GitHub with reach no step and no
/// toolchain's version command: a step that prints its environment would
/// write them into its log. One the recipe sets itself (shown in the plan)
/// is kept. The plan says so before anything runs.
#[test]
fn a_run_keeps_the_github_sign_in_from_its_steps_unless_the_recipe_sets_it() {
    let c = Checkout::new();
    let recipe = r#"
[post]
id = "steps"
title = "Steps"
author = "Test"
date = "2026"
summary = "Steps that print their environment."

[[toolchain]]
name = "env"
version = "*"
command = ["sh", "-c", "echo \"env $(env | grep -c 'TOKEN=leaked') 1.0.0\""]
pattern = 'env 0 (\d+\.\d+\.\d+)'
why = "Its version says whether it saw a token."

[[step]]
id = "inherits"
kind = "command"
command = ["env"]
why = "Prints what it inherited."

[[step]]
id = "named"
kind = "command"
command = ["env"]
env = { GH_TOKEN = "the-recipe-s-own" }
why = "Prints the token its recipe gives it."
"#;
    std::fs::write(c.root().join("recipes/steps.toml"), recipe).unwrap();
    assert!(c.reprise(&["checksums", "update"]).status.success());
    let run = |extra: &[&str]| {
        c.command(&["run", "steps"])
            .args(extra)
            .env("GH_TOKEN", "leaked-gh")
            .env("GITHUB_TOKEN", "leaked-github")
            .env("GH_ENTERPRISE_TOKEN", "leaked-enterprise")
            .output()
            .unwrap()
    };
    let plan = stderr(&run(&[]));
    assert!(
        plan.contains("runs every command without GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN (Reprise's sign-in to GitHub) unless the recipe sets one"),
        "{plan}"
    );
    let out = run(&["--yes"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let logs = c.run_dir().join("logs");
    let inherited = std::fs::read_to_string(logs.join("inherits.log")).unwrap();
    assert!(!inherited.contains("leaked"), "{inherited}");
    assert!(
        inherited.contains("REPRISE_ROOT="),
        "the rest is inherited: {inherited}"
    );
    let named = std::fs::read_to_string(logs.join("named.log")).unwrap();
    assert!(named.contains("GH_TOKEN=the-recipe-s-own"), "{named}");
    assert!(!named.contains("leaked"), "{named}");
    // The version command saw no token: its answer matched `env 0 …`.
    let preflight = c
        .command(&["preflight", "steps", "--yes"])
        .env("GH_TOKEN", "leaked-gh")
        .output()
        .unwrap();
    let said = stdout(&preflight);
    assert!(said.contains("1.0.0"), "{said}{}", stderr(&preflight));
}
