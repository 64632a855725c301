//! What `reprise run` prints while it measures and when it ends: a quick
//! run against Debian's Puma (as the setup test's quick run serves it) says
//! the runs it actually does, the elapsed time and about how long is left
//! per cell, and every lane it could not measure with why; colour only on a
//! terminal, and never with `NO_COLOR`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use reprise_test_support::free_port;

/// Puma serving a constant body, and a lane whose server no machine has.
fn recipe(port: u16) -> String {
    format!(
        r#"[post]
id = "ceiling"
title = "A hello-world ceiling"
author = "Test"
date = "2026"
summary = "Puma's hello-world ceiling, and a lane this machine cannot run."

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'
why = "Debian's Puma serves the lane."

[[toolchain]]
name = "nowhere-server"
version = "*"
command = ["nowhere-server-reprise-test", "--version"]
pattern = '(\d+\.\d+)'
why = "Not installed anywhere."

[[file]]
path = "hello/config.ru"
content = """
run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}
"""
why = "A constant 13-byte body."

[[lane]]
name = "puma"
needs = ["puma"]
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "2:2", "--environment", "production", "config.ru"]
dir = "files/hello"
port = {port}
health = "/"
boot_budget = "30s"
why = "Puma, one process."

[[lane]]
name = "absent"
needs = ["nowhere-server"]
command = ["nowhere-server-reprise-test"]
port = {port}
why = "Served by a program that is not installed."

[[workload]]
name = "hello"
connections = 4
duration = "3s"
warmup = "1s"
runs = 3
why = "Three runs of three seconds; a quick run does two of two."

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "serve"
kind = "serve"
why = "Boot each lane."

[[step]]
id = "measure"
kind = "load"
workload = "hello"
after = ["serve"]
why = "Three timed runs per lane after a warm-up."

[[step]]
id = "note"
kind = "command"
command = ["true"]
why = "A step with nothing to measure."
"#
    )
}

struct Checkout {
    dir: tempfile::TempDir,
}

impl Checkout {
    fn new() -> Checkout {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("recipes")).unwrap();
        std::fs::create_dir_all(root.join("checksums")).unwrap();
        std::fs::write(root.join("recipes/ceiling.toml"), recipe(free_port())).unwrap();
        std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
        let c = Checkout { dir };
        let out = c.reprise(&["checksums", "update"]);
        assert!(out.status.success(), "{}", text(&out));
        c
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("root")
    }

    fn command(&self, program: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .env("REPRISE_ROOT", self.root())
            .env("REPRISE_DATA_DIR", self.dir.path().join("data"))
            .env_remove("NO_COLOR")
            .current_dir(self.root())
            .stdin(Stdio::null());
        cmd
    }

    fn reprise(&self, args: &[&str]) -> Output {
        self.command(Path::new(env!("CARGO_BIN_EXE_reprise")), args)
            .output()
            .unwrap()
    }

    /// `reprise ARGS` with its stdout a terminal (util-linux's `script`
    /// gives it a pseudo-terminal), `no_color` deciding NO_COLOR.
    fn on_a_terminal(&self, args: &[&str], no_color: bool) -> String {
        let line = std::iter::once(env!("CARGO_BIN_EXE_reprise"))
            .chain(args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        let mut cmd = self.command(Path::new("script"), &["-qec", &line, "/dev/null"]);
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_quick_run_says_its_runs_elapsed_time_what_is_left_and_the_lane_it_skipped() {
    let c = Checkout::new();
    let out = c.reprise(&["run", "ceiling", "--yes", "--quick"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    // The plan says what the quick run does, not the recipe's three runs,
    // on the one lane that runs here.
    assert!(
        stderr.contains(
            "measures 1 lane × 1 endpoint × 2 runs of 2 s (quick: the recipe's 3 runs of 3 s), \
             each after a warm-up of 1 s (2 s in all): about 6 s (absent cannot run here)"
        ),
        "{stderr}"
    );
    // Each cell: how far, the elapsed time, about how long is left.
    let cell = |n: u32| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("    measure: {n} of 2 cells, ")))
            .unwrap_or_else(|| panic!("no line for cell {n}:\n{stdout}"))
            .to_string()
    };
    let first = cell(1);
    assert!(
        first.contains(" elapsed, about 2 s left"),
        "the second cell is left: {first}"
    );
    let last = cell(2);
    assert!(
        last.ends_with(" elapsed") && !last.contains("left"),
        "{last}"
    );
    assert!(
        stdout.contains("measure | --quick: 2 runs of 2 s per cell, warm-ups at most 1 s"),
        "{stdout}"
    );
    // The end: every lane not measured, with why; no count of none.
    assert!(
        stderr.contains("3 steps finished; 1 lane not measured (absent)"),
        "{stderr}"
    );
    // Said once, in the closing verdicts.
    let absent = "lane absent was not measured (preflight): ";
    assert_eq!(stdout.matches(absent).count(), 1, "{stdout}");
    assert!(stdout.contains("nowhere-server"), "{stdout}");
    assert!(!stderr.contains("0 skipped"), "{stderr}");
    for shown in [&stdout, &stderr] {
        assert!(!shown.contains("(s)"), "{shown}");
        assert!(!shown.contains("Some("), "{shown}");
        assert!(
            !shown.contains('\x1b'),
            "no escapes without a terminal: {shown:?}"
        );
    }
}

#[test]
fn step_ends_are_coloured_on_a_terminal_unless_no_color_is_set() {
    let c = Checkout::new();
    let coloured = c.on_a_terminal(
        &["run", "ceiling", "--yes", "--new", "--step", "note"],
        false,
    );
    assert!(
        coloured.contains("\x1b[32m==> note finished in "),
        "{coloured:?}"
    );
    let plain = c.on_a_terminal(
        &["run", "ceiling", "--yes", "--new", "--step", "note"],
        true,
    );
    assert!(plain.contains("==> note finished in "), "{plain:?}");
    assert!(!plain.contains("\x1b[32m"), "{plain:?}");
    assert!(!plain.contains("\x1b[1m"), "{plain:?}");
}
