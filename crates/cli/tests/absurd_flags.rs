//! No input to any command makes `reprise` panic: every command and every
//! flag that takes a value, run as the real binary over a table of absurd
//! values (huge, negative, NaN, infinite, empty, garbage, a raw ESC, bytes
//! that are not UTF-8), exits 2 with a message on stderr: never 101 (a
//! panic), never a raw control or invisible character on the terminal.
//!
//! Nothing here starts a run: a value that is refused is refused before
//! anything runs, and a value that is accepted meets a context that fails
//! fast right after the flags are parsed (a recipe that does not exist, a
//! URL that is not http, a flag it conflicts with).

mod support;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use reprise_recipe::shown::is_invisible;
use support::Checkout;

const RECIPE: &str = r#"
[post]
id = "steps"
title = "Steps"
author = "Test"
date = "2026"
summary = "One step."

[[step]]
id = "first"
kind = "command"
command = ["true"]
why = "Does nothing."
"#;

/// The values every flag is given.
fn absurd() -> Vec<OsString> {
    let mut values: Vec<OsString> = [
        "1e19",
        "18446744073709551616",
        "18446744073709551615",
        "9223372036854775808",
        "4294967296",
        "65536",
        "1e18",
        "1e308",
        "-1",
        "-0",
        "-1e19",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "infinity",
        "",
        " ",
        "garbage",
        "1e19s",
        "1e19ms",
        "1e19m",
        "1e19h",
        "18446744073709551616h",
        "nans",
        "-5s",
        "8785h",
        "0x10",
        "1,,2",
        "=",
        "a=",
        "=b",
        "../../..",
        "\u{1b}[2J\u{1b}]0;pwned\u{7}",
        "a\u{202e}b\u{200b}",
        "x\ny",
    ]
    .map(OsString::from)
    .to_vec();
    // Not UTF-8.
    values.push(OsStr::from_bytes(b"\xff\xfe").to_os_string());
    values
}

/// Each command line, `{}` standing for the value; a context that fails
/// fast (exit 2) when the value is accepted.
const CASES: &[&[&str]] = &[
    // Positionals, after `--` so that `-1` is a value.
    &["show", "--", "{}"],
    &["show", "--json", "--", "{}"],
    &["check", "--", "{}"],
    &["digest", "--", "{}"],
    &["run", "--", "{}"],
    &["verdict", "--", "{}", "/nonexistent/results"],
    &["verdict", "--", "steps", "{}"],
    &["compare", "--", "{}", "{}"],
    &["report", "--", "{}"],
    &["share", "--", "{}"],
    &["community", "--offline", "--", "{}"],
    &["load", "--", "{}"],
    &["preflight", "--", "{}"],
    &["setup", "--", "{}"],
    &["clean", "--", "{}"],
    // `run`'s flags.
    &["run", "--until-conclusive", "--budget={}", "nonexistent"],
    &["run", "--lane={}", "steps"],
    &["run", "--step={}", "steps"],
    &["run", "--from={}", "steps"],
    &["run", "--source={}", "steps"],
    &["run", "--generator={}", "nonexistent"],
    &["run", "--placement={}", "nonexistent"],
    &["run", "--server-host={}", "steps"],
    &[
        "run",
        "--server-host=tcp://127.0.0.1:1",
        "--server-certs={}",
        "nonexistent",
    ],
    &["run", "--image={}", "steps"],
    // `verdict`, `report`, `share`, `community`.
    &["verdict", "--machine={}", "nonexistent", "/nonexistent"],
    &[
        "verdict",
        "--format={}",
        "--output=/nonexistent/x",
        "nonexistent",
        "/nonexistent",
    ],
    &["verdict", "--output={}", "nonexistent", "/nonexistent"],
    &["report", "--format={}", "nonexistent"],
    &["report", "--output={}", "nonexistent"],
    &["report", "--harness={}", "nonexistent"],
    &["share", "--repo={}", "nonexistent"],
    &["share", "--category={}", "nonexistent"],
    &["share", "--client-id={}", "nonexistent"],
    &["share", "--output={}", "nonexistent"],
    &["community", "--offline", "--repo={}", "steps"],
    &["community", "--offline", "--client-id={}", "nonexistent"],
    &["digest", "--check={}", "/nonexistent"],
    // `load`'s, against a URL it refuses after checking them.
    &["load", "--duration={}", "https://127.0.0.1:1/"],
    &["load", "--warmup={}", "https://127.0.0.1:1/"],
    &["load", "--timeout={}", "https://127.0.0.1:1/"],
    &["load", "--rate={}", "https://127.0.0.1:1/"],
    &["load", "--connections={}", "https://127.0.0.1:1/"],
    &["load", "--threads={}", "https://127.0.0.1:1/"],
    &["load", "--header={}", "https://127.0.0.1:1/"],
    &["load", "--method={}", "https://127.0.0.1:1/"],
    &["load", "--body={}", "https://127.0.0.1:1/"],
    &["load", "--expect-status={}", "https://127.0.0.1:1/"],
    &["load", "--expect-tags={}", "https://127.0.0.1:1/"],
    &["load", "--expect-bytes={}", "https://127.0.0.1:1/"],
    &["load", "--expect-sha256={}", "https://127.0.0.1:1/"],
    &["load", "--expect-contains={}", "https://127.0.0.1:1/"],
    &["load", "--check-one-in={}", "https://127.0.0.1:1/"],
    &["load", "--cpus={}", "https://127.0.0.1:1/"],
    &["load", "--hdr={}", "https://127.0.0.1:1/"],
    // `probe`'s: the value parsed, then the conflict stops it.
    &["probe", "--timeout={}", "--json", "--format=human"],
    &["probe", "--format={}"],
    &["probe", "--root={}", "--json", "--format=human"],
    // `preflight`'s and `setup`'s.
    &["preflight", "--timeout={}", "nonexistent"],
    &["preflight", "--machine={}", "steps"],
    &["preflight", "--root={}", "nonexistent"],
    &["preflight", "--server-host={}", "steps"],
    &["preflight", "--image={}", "steps"],
    &["setup", "--lane={}", "nonexistent"],
    // `validate`'s, none of which measures.
    &["validate", "--compare={}", "--from=/nonexistent"],
    &["validate", "--from={}"],
    &["validate", "--serve={}", "--json", "--from=/nonexistent"],
    &["validate", "--server-cpus={}"],
];

/// A command that has not ended by then started something it should not have.
const LIMIT: Duration = Duration::from_secs(30);

fn wait(mut child: Child) -> Option<Output> {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Some(child.wait_with_output().unwrap())
}

fn show(args: &[OsString]) -> String {
    args.iter()
        .map(|a| format!("{:?}", a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What is wrong with how `reprise ARGS` ended, if anything.
fn judge(checkout: &Checkout, args: &[OsString]) -> Option<String> {
    let mut command = checkout.command(&[]);
    command
        .args(args)
        // Nothing reaches past this machine's loopback.
        .env("REPRISE_TOKEN_STORE", "file")
        .env("REPRISE_GITHUB_URL", "http://127.0.0.1:1")
        .env("REPRISE_GITHUB_API_URL", "http://127.0.0.1:1")
        .env_remove("REPRISE_DISCUSSIONS_REPO")
        .env_remove("REPRISE_GITHUB_CLIENT_ID")
        .env_remove("DOCKER_HOST");
    let Some(out) = wait(command.spawn().unwrap()) else {
        return Some(format!("still running after {LIMIT:?}"));
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    let problem = if out.status.code() == Some(101) || stderr.contains("panicked") {
        "panicked"
    } else if out.status.code() != Some(2) {
        "did not exit 2"
    } else if stderr.trim().is_empty() {
        "said nothing on stderr"
    } else if let Some(c) = [&out.stdout, &out.stderr]
        .into_iter()
        .flat_map(|b| {
            String::from_utf8_lossy(b)
                .into_owned()
                .chars()
                .collect::<Vec<_>>()
        })
        .find(|&c| (c.is_control() && c != '\n' && c != '\t') || is_invisible(c))
    {
        return Some(format!(
            "printed a raw U+{:04X}: {:?}",
            c as u32,
            String::from_utf8_lossy(&out.stderr)
        ));
    } else {
        return None;
    };
    Some(format!(
        "{problem} ({:?}): {}",
        out.status.code(),
        stderr.chars().take(600).collect::<String>()
    ))
}

#[test]
fn no_absurd_flag_value_panics_or_gets_past_exit_2() {
    let checkout = Checkout::new(&[("steps", RECIPE)]);
    let values = absurd();
    let lines: Vec<Vec<OsString>> = CASES
        .iter()
        .flat_map(|case| {
            values.iter().map(move |value| {
                case.iter()
                    .map(|a| match a.split_once("{}") {
                        Some((before, after)) => {
                            let mut arg = OsString::from(before);
                            arg.push(value);
                            arg.push(after);
                            arg
                        }
                        None => OsString::from(a),
                    })
                    .collect()
            })
        })
        .collect();
    // Two at a time: ~2,600 short-lived processes.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let halves: Vec<_> = lines
            .chunks(lines.len().div_ceil(2))
            .map(|half| {
                let checkout = &checkout;
                scope.spawn(move || {
                    half.iter()
                        .filter_map(|args| {
                            judge(checkout, args)
                                .map(|problem| format!("reprise {}: {problem}", show(args)))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} command lines:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
}

/// `--budget` is bounded one way whatever its unit: at most 8784 h (a leap
/// year), written in seconds, minutes, hours or milliseconds.
#[test]
fn a_budget_is_bounded_the_same_way_in_every_unit() {
    let checkout = Checkout::new(&[("steps", RECIPE)]);
    let budget = |value: &str| {
        let out = checkout
            .command(&[
                "run",
                "--until-conclusive",
                &format!("--budget={value}"),
                "nonexistent",
            ])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for refused in [
        "1e19",
        "1e18",
        "31622401",
        "31622401s",
        "527041m",
        "8785h",
        "31622400001ms",
        "1e19ms",
        "nan",
        "inf",
        "-1",
        "-1s",
        "garbage",
    ] {
        let (code, stderr) = budget(refused);
        assert_eq!(code, Some(2), "{refused}: {stderr}");
        assert!(
            stderr.contains("invalid value") && stderr.contains("--budget"),
            "{refused} is refused as a flag value: {stderr}"
        );
    }
    for accepted in ["31622400", "31622400s", "527040m", "8784h", "30m", "0.5"] {
        let (code, stderr) = budget(accepted);
        assert_eq!(code, Some(2), "{accepted}: {stderr}");
        assert!(
            stderr.contains("no recipe `nonexistent`"),
            "{accepted} is accepted: {stderr}"
        );
    }
}

/// Paths from the environment (`REPRISE_DATA_DIR`, `REPRISE_ROOT`) with a
/// raw ESC in them are printed through the one escaping function: no
/// command lets one reach the terminal, on stdout or stderr.
#[test]
fn a_path_from_the_environment_never_prints_a_raw_escape() {
    let checkout = Checkout::new(&[("steps", RECIPE)]);
    let root = checkout.dir.path().join("root\u{1b}[2J");
    std::fs::rename(checkout.dir.path().join("root"), &root).unwrap();
    let data = checkout.dir.path().join("d\u{1b}[2J\u{1b}]8;;x\u{7}");
    for args in [
        &["history"][..],
        &["recipes"],
        &["check"],
        &["checksums", "update"],
        &["checksums", "update"],
        &["validate", "steps"],
        &["show", "steps"],
        &["digest", "steps"],
        &["preflight", "steps"],
        &["runs"],
    ] {
        let out = checkout
            .command(args)
            .env("REPRISE_ROOT", &root)
            .env("REPRISE_DATA_DIR", &data)
            .current_dir(&root)
            .env("REPRISE_TOKEN_STORE", "file")
            .env("REPRISE_GITHUB_URL", "http://127.0.0.1:1")
            .env("REPRISE_GITHUB_API_URL", "http://127.0.0.1:1")
            .env_remove("DOCKER_HOST")
            .output()
            .unwrap();
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            assert!(
                !text
                    .chars()
                    .any(|c| (c.is_control() && c != '\n' && c != '\t') || is_invisible(c)),
                "reprise {args:?} printed a raw control on {stream}: {text:?}"
            );
        }
    }
}
