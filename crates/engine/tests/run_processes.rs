//! A run's record of the process groups it starts, and the ending of what a
//! killed attempt left running, with real processes: a group recorded and
//! forgotten around a step, leftovers ended with their children, a group
//! whose number now belongs to another process left alone, a process that
//! left its group found by the run's folder in its environment, and a run
//! that is running now not touched.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::lanes::server_process::group_members;
use reprise_engine::os::processes::{
    Attempt, AttemptError, Recorder as _, RunProcesses, end_leftovers,
};
use reprise_engine::os::runner::host::{self, HostCommand};
use reprise_engine::{DataDir, RunDir};

fn run_dir() -> (tempfile::TempDir, RunDir) {
    let dir = tempfile::tempdir().unwrap();
    let run = DataDir::new(dir.path()).create_run("procs").unwrap();
    (dir, run)
}

/// `sh -c script` as the leader of its own process group.
fn group(script: &str, env: &[(&str, &str)]) -> Child {
    Command::new("sh")
        .args(["-c", script])
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap()
}

/// Waits until the group has `n` live members.
fn members(pgid: u32, n: usize) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let found = group_members(pgid);
        if found.len() >= n || Instant::now() >= until {
            return found;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn kill_group(child: &mut Child) {
    // A group this test started.
    let group = rustix::process::Pid::from_child(child);
    let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    let _ = child.wait();
}

#[test]
fn a_step_is_recorded_while_it_runs_and_forgotten_when_it_ends() {
    let (_dir, run) = run_dir();
    let mut cmd = HostCommand::new(
        "look",
        vec![
            "sh".into(),
            "-c".into(),
            // Recorded as soon as it is spawned (a moment after it starts).
            r#"for _ in 1 2 3 4 5 6 7 8 9 10; do test -f "$REPRISE_RUN_DIR/processes/$$.json" && { echo recorded; break; }; sleep 0.1; done; sleep 300 &"#.into(),
        ],
        &run.path,
    );
    cmd.processes = Some(RunProcesses::of(&run));
    let lines = std::sync::Mutex::new(Vec::new());
    let outcome = host::run(&cmd, &CancelToken::new(), &|e| {
        if let Event::Log { line, .. } = e {
            lines.lock().unwrap().push(line);
        }
    })
    .unwrap();
    assert!(outcome.success());
    assert_eq!(lines.into_inner().unwrap(), ["recorded"]);
    assert!(group_members(outcome.pid).is_empty());
    let left: Vec<_> = std::fs::read_dir(run.processes())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_killed_attempts_group_is_ended_with_the_children_its_leader_left() {
    let (_dir, run) = run_dir();
    let processes = RunProcesses::of(&run);
    let (marker, value) = processes.marker();
    // The leader goes; its children stay in the group, as nginx's workers do.
    let mut leader = group("sleep 300 & sleep 300 & exit 0", &[(marker, value)]);
    let pgid = leader.id();
    // Recorded and never forgotten, as by a Reprise that was killed.
    let _ = processes.record(pgid, "lane web: sh").unwrap();
    leader.wait().unwrap();
    let children = members(pgid, 2);
    assert_eq!(children.len(), 2, "{children:?}");

    let found = end_leftovers(&run).unwrap();
    assert!(group_members(pgid).is_empty());
    assert_eq!(found.ended.len(), 1, "{found:?}");
    assert_eq!(found.ended[0].what, "lane web: sh");
    let mut pids = found.ended[0].pids.clone();
    pids.sort();
    assert_eq!(pids, children);
    assert!(found.messages()[0].starts_with("ended lane web: sh left running"));
    assert!(!run.processes().join(format!("{pgid}.json")).exists());
    // Nothing is left to end the next time.
    assert!(end_leftovers(&run).unwrap().is_empty());
}

#[test]
fn a_group_whose_number_belongs_to_another_process_now_is_left_alone() {
    let (_dir, run) = run_dir();
    let mut stranger = group("exec sleep 300", &[]);
    let pgid = stranger.id();
    let _ = RunProcesses::of(&run)
        .record(pgid, "step x: sleep")
        .unwrap();
    // The record says the leader started earlier than the process that has
    // its number now: a recycled pid.
    let file = run.processes().join(format!("{pgid}.json"));
    let mut record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    record["start"] = (record["start"].as_u64().unwrap() - 1).into();
    std::fs::write(&file, serde_json::to_vec(&record).unwrap()).unwrap();

    let found = end_leftovers(&run).unwrap();
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(group_members(pgid), [pgid]);
    assert!(!file.exists(), "the stale record is forgotten");
    kill_group(&mut stranger);
}

#[test]
fn a_process_that_left_its_group_is_found_by_the_run_in_its_environment() {
    let (_dir, run) = run_dir();
    let processes = RunProcesses::of(&run);
    let (marker, value) = processes.marker();
    // A daemon: its own session and group, never recorded.
    let mut daemon = Command::new("setsid")
        .args(["sleep", "300"])
        .env(marker, value)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    // Someone else's process with no marker is not touched.
    let mut other = group("exec sleep 300", &[]);
    std::thread::sleep(Duration::from_millis(100));

    let found = end_leftovers(&run).unwrap();
    assert_eq!(found.ended.len(), 1, "{found:?}");
    assert!(found.ended[0].what.contains("outside their group"));
    let status = daemon.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGTERM)
    );
    assert_eq!(other.try_wait().unwrap(), None);
    kill_group(&mut other);
}

#[test]
fn a_run_that_is_running_is_not_taken_for_leftovers() {
    let (_dir, run) = run_dir();
    let processes = RunProcesses::of(&run);
    let (marker, value) = processes.marker();
    let attempt = Attempt::begin(&run).unwrap();
    let mut child = group("exec sleep 300", &[(marker, value)]);
    let recorded = processes.record(child.id(), "step x: sleep").unwrap();

    match end_leftovers(&run) {
        Err(AttemptError::InUse { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        Attempt::begin(&run),
        Err(AttemptError::InUse { .. })
    ));
    assert_eq!(child.try_wait().unwrap(), None);

    kill_group(&mut child);
    assert!(recorded.forget_if_ended());
    drop(attempt);
    assert!(end_leftovers(&run).unwrap().is_empty());
}
