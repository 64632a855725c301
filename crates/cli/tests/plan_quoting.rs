//! The consent plan (`reprise run` before it asks) and `reprise show` print
//! each command so that pasting it into `sh` runs exactly its argument
//! vector: `#`, `;`, `|`, `$` and `\` are quoted, not read as a comment, a
//! second command, a pipe, an expansion or an escape; and `NAME=value`
//! reads as one assignment.

mod support;

use std::process::Command;

use support::Checkout;

const RECIPE: &str = r##"
[post]
id = "steps"
title = "Steps"
author = "Test"
date = "2026"
summary = "Commands a shell would read otherwise than they run."

[[step]]
id = "eval"
kind = "command"
command = ["sh", "-c", "eval \"$1\"", "#", "touch${IFS}PWNED"]
env = { A = "1 2", B = "x;y", C = "$(id)" }
why = "Reads as a comment where # is not quoted."

[[step]]
id = "split"
kind = "command"
command = ["echo", "a\\ b", "hello; touch X", "$HOME|x", "", "it's", "A=1"]
why = "One argument each."
"##;

fn argvs() -> Vec<Vec<&'static str>> {
    vec![
        vec!["sh", "-c", "eval \"$1\"", "#", "touch${IFS}PWNED"],
        vec![
            "echo",
            "a\\ b",
            "hello; touch X",
            "$HOME|x",
            "",
            "it's",
            "A=1",
        ],
    ]
}

/// The words `sh` reads from `line`: with no PATH and in a folder of its
/// own, so that a line quoted wrong runs nothing it could find.
fn sh_words(line: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {line}"))
        .env("PATH", "/nonexistent")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{line}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut words: Vec<String> = text.split('\0').map(String::from).collect();
    words.pop();
    words
}

/// Every shown line, read back by `sh`, is one of the recipe's argument
/// vectors, and each vector is shown.
fn reads_back(lines: &[&str], what: &str) {
    let read: Vec<Vec<String>> = lines.iter().map(|l| sh_words(l)).collect();
    for argv in argvs() {
        assert!(
            read.contains(&argv.iter().map(|a| a.to_string()).collect()),
            "{what}: no line reads back as {argv:?}; shown:\n{}",
            lines.join("\n")
        );
    }
    assert_eq!(read.len(), argvs().len(), "{what}: {lines:?}");
}

#[test]
fn show_prints_each_command_as_sh_reads_it() {
    let c = Checkout::new(&[("steps", RECIPE)]);
    let out = c.command(&["show", "steps"]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // Each step's heading (`  1. eval [command]`), then what it does: for a
    // command step, its command line.
    let shown: Vec<&str> = text.lines().collect();
    let lines: Vec<&str> = shown
        .windows(2)
        .filter(|pair| pair[0].ends_with("[command]"))
        .map(|pair| pair[1].trim_start())
        .collect();
    reads_back(&lines, "show");
}

#[test]
fn the_consent_plan_prints_each_command_and_assignment_as_sh_reads_it() {
    let c = Checkout::new(&[("steps", RECIPE)]);
    // No terminal and no --yes: the plan is shown and nothing runs.
    let out = c.command(&["run", "steps"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" command  ").map(|(_, line)| line))
        .collect();
    reads_back(&lines, "the plan");
    // `step eval sets A='1 2'`: one assignment each, the value whole.
    for (name, value) in [("A", "1 2"), ("B", "x;y"), ("C", "$(id)")] {
        let shown = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("step eval sets ")
                    .filter(|a| a.starts_with(&format!("{name}=")))
            })
            .unwrap_or_else(|| panic!("no assignment of {name}:\n{text}"));
        let out = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("{shown}; printf %s \"${name}\""))
            .env("PATH", "/nonexistent")
            .current_dir(c.dir.path())
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), value, "{shown}");
    }
    assert!(!c.dir.path().join("root/PWNED").exists());
}
