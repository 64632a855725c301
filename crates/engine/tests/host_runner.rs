//! The host runner with real child processes.

use std::sync::Mutex;
use std::time::Duration;

use reprise_engine::event::{CancelToken, Event, Stream};
use reprise_engine::os::runner::host::{self, Ending, HostCommand, HostError};

fn argv(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}

fn lines(events: &[Event], want: Stream) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Log { stream, line, .. } if *stream == want => Some(line.clone()),
            _ => None,
        })
        .collect()
}

/// Processes (not zombies) whose process group is `pgid`, read from /proc.
fn live_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
            out.push(pid);
        }
    }
    out
}

#[test]
fn output_is_captured_in_order_to_events_and_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("step.log");
    let mut cmd = HostCommand::new(
        "count",
        argv(&[
            "sh",
            "-c",
            "i=1; while [ $i -le 300 ]; do echo out$i; i=$((i+1)); done; echo oops >&2; echo \"$GREETING from $(pwd)\"; exit 3",
        ]),
        dir.path(),
    );
    cmd.env.insert("GREETING".into(), "hello".into());
    cmd.log = Some(reprise_engine::os::run_files::RunFile::new(dir.path(), "step.log").unwrap());
    let events = Mutex::new(Vec::new());
    let outcome = host::run(&cmd, &CancelToken::new(), &|e| {
        events.lock().unwrap().push(e)
    })
    .unwrap();

    assert_eq!(outcome.ending, Ending::Exited);
    assert_eq!(outcome.code, Some(3));
    assert!(!outcome.success());
    assert!(outcome.failure("sh").unwrap().contains("status 3"));
    let events = events.into_inner().unwrap();
    let out = lines(&events, Stream::Stdout);
    let mut want: Vec<String> = (1..=300).map(|i| format!("out{i}")).collect();
    let cwd = dir.path().canonicalize().unwrap();
    want.push(format!("hello from {}", cwd.display()));
    assert_eq!(out, want);
    assert_eq!(lines(&events, Stream::Stderr), vec!["oops".to_string()]);
    let logged = std::fs::read_to_string(&log).unwrap();
    // Each stream keeps its order; the two pipes are read independently, so
    // where the stderr line falls among stdout's is up to the scheduler.
    let logged_out: Vec<&str> = logged.lines().filter(|l| *l != "oops").collect();
    assert_eq!(logged_out, want);
    assert_eq!(logged.lines().filter(|l| *l == "oops").count(), 1);
}

#[test]
fn a_timeout_ends_the_process() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = HostCommand::new("sleepy", argv(&["sleep", "30"]), dir.path());
    cmd.timeout = Some(Duration::from_millis(300));
    let outcome = host::run(&cmd, &CancelToken::new(), &|_| {}).unwrap();
    assert_eq!(outcome.ending, Ending::TimedOut);
    assert_eq!(outcome.signal, Some(libc_sigterm()));
    assert!(outcome.duration < Duration::from_secs(10));
    assert!(outcome.failure("sleep").unwrap().contains("timeout"));
    assert!(live_members(outcome.pid).is_empty());
}

#[test]
fn cancelling_kills_the_whole_group_even_when_it_ignores_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    // The shell and its children ignore SIGTERM, so only the SIGKILL after
    // the grace period can end them.
    let mut cmd = HostCommand::new(
        "stubborn",
        argv(&[
            "sh",
            "-c",
            "trap '' TERM; sleep 60 & sleep 60 & echo ready; wait",
        ]),
        dir.path(),
    );
    cmd.grace = Duration::from_millis(300);
    let cancel = CancelToken::new();
    let trigger = cancel.clone();
    let outcome = host::run(&cmd, &cancel, &move |e| {
        if matches!(&e, Event::Log { line, .. } if line == "ready") {
            trigger.cancel();
        }
    })
    .unwrap();
    assert_eq!(outcome.ending, Ending::Cancelled);
    assert_eq!(outcome.signal, Some(9));
    // The orphaned sleeps are reaped by init; give it a moment.
    let mut left = live_members(outcome.pid);
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        left = live_members(outcome.pid);
    }
    assert!(
        left.is_empty(),
        "processes left in group {}: {left:?}",
        outcome.pid
    );
}

#[test]
fn a_missing_program_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = HostCommand::new("nope", argv(&["reprise-no-such-program", "x"]), dir.path());
    let err = host::run(&cmd, &CancelToken::new(), &|_| {}).unwrap_err();
    assert!(
        matches!(&err, HostError::ProgramNotFound { program } if program == "reprise-no-such-program"),
        "{err}"
    );
    // What the reader reads names the program.
    assert!(
        err.to_string()
            .contains("`reprise-no-such-program` was not found"),
        "{err}"
    );
}

#[test]
fn a_missing_working_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("gone");
    let cmd = HostCommand::new("x", argv(&["true"]), &gone);
    let err = host::run(&cmd, &CancelToken::new(), &|_| {}).unwrap_err();
    assert!(
        matches!(&err, HostError::NoDirectory { dir } if *dir == gone),
        "{err}"
    );
    assert!(
        err.to_string().contains(&gone.display().to_string()),
        "{err}"
    );
}

fn libc_sigterm() -> i32 {
    15
}
