//! Processes that try to outlive their run: a step's children that leave
//! its process group (`setsid`) and drop the run's folder from their
//! environment too (`env -i setsid`). Each run's steps run in a cgroup of
//! the run's (here, as root, on the cgroup filesystem directly): what a
//! step leaves ends with the step; what a killed Reprise leaves ends at the
//! next start of the run, or with `reprise clean`. Real processes, found by
//! the pids they wrote, not by asking Reprise.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use std::time::{Duration, Instant};
use support::Checkout;

/// `detach` leaves two children behind and ends; `hold` leaves two and
/// waits (to be killed with Reprise).
const RECIPE: &str = r#"
[post]
id = "escapes"
title = "Escapes"
author = "Test"
date = "2026"
summary = "Steps whose children leave their process group and environment."

[[file]]
path = "detach.sh"
content = """
setsid sh -c 'echo $$ > setsid.pid; exec sleep 300' >/dev/null 2>&1 </dev/null &
env -i setsid sh -c 'echo $$ > envi.pid; exec sleep 301' >/dev/null 2>&1 </dev/null &
until [ -s setsid.pid ] && [ -s envi.pid ]; do sleep 0.05; done
"""
why = "Two children that leave the step's process group, one without the run's marker."

[[step]]
id = "detach"
kind = "command"
command = ["sh", "files/detach.sh"]
why = "Ends with its children still running."

[[step]]
id = "hold"
kind = "command"
after = ["detach"]
command = ["sh", "-c", "mkdir -p held && cd held && sh ../files/detach.sh && echo holding > ../holding && sleep 300"]
why = "Leaves two more and waits, to be killed with Reprise."
"#;

/// The pids the children wrote in `dir`, once both are there.
fn children(dir: &Path) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let pids: Vec<u32> = ["setsid.pid", "envi.pid"]
            .iter()
            .filter_map(|f| {
                std::fs::read_to_string(dir.join(f))
                    .ok()?
                    .trim()
                    .parse()
                    .ok()
            })
            .collect();
        if pids.len() == 2 {
            return pids;
        }
        assert!(
            Instant::now() < until,
            "the children never wrote their pids in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit(") ").next()?.chars().next())
        .is_some_and(|state| state != 'Z')
}

/// Waits up to 10 s for every one of `pids` to be gone.
fn gone(pids: &[u32]) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&p| alive(p)) {
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

/// Starts `reprise run RECIPE`, waits until a step of it writes `holding`
/// in the run's folder, and answers the run's folder and Reprise, to kill.
#[expect(
    clippy::zombie_processes,
    reason = "Reprise is handed to the caller, which kills and waits for it"
)]
fn run_until_holding(c: &Checkout, recipe: &str) -> (PathBuf, Child) {
    let mut reprise = start_run(c, recipe);
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(run) = c.run_dir().filter(|r| r.join("holding").is_file()) {
            return (run, reprise);
        }
        if Instant::now() >= until {
            let _ = reprise.kill();
            let _ = reprise.wait();
            panic!("the holding step never started");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `reprise run RECIPE --yes`, started, quiet.
fn start_run(c: &Checkout, recipe: &str) -> Child {
    c.command(&["run", recipe, "--yes"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Starts `reprise run escapes`, waits until the `hold` step has its
/// children, and kills Reprise with SIGKILL: answers the children left.
fn killed_while_holding(c: &Checkout) -> (PathBuf, Vec<u32>) {
    let (run, mut reprise) = run_until_holding(c, "escapes");
    let held = children(&run.join("held"));
    // Both in a cgroup of the run's, the one without the run's marker too.
    for pid in &held {
        let cgroup = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap();
        let v2 = cgroup.lines().find(|l| l.starts_with("0::")).unwrap_or("");
        assert!(v2.contains("/reprise-escapes-"), "{pid} is in {v2}");
    }
    reprise.kill().unwrap();
    reprise.wait().unwrap();
    assert!(
        held.iter().all(|&p| alive(p)),
        "the children died with Reprise: the test proves nothing"
    );
    (run, held)
}

#[test]
fn what_a_step_leaves_behind_ends_with_the_step() {
    let c = Checkout::new(&[("escapes", RECIPE)]);
    let out = c
        .command(&["run", "escapes", "--yes", "--step", "detach"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("not in a cgroup"),
        "cgroups could not be had here: {stderr}"
    );
    let left = children(&c.run_dir().unwrap());
    assert!(
        gone(&left),
        "a setsid or env -i child outlived its step: {left:?}"
    );
}

#[test]
fn a_step_that_deletes_the_cgroup_record_does_not_free_the_steps_after_it() {
    let recipe = RECIPE.replace(
        r#"command = ["sh", "files/detach.sh"]
why = "Ends with its children still running.""#,
        r#"command = ["sh", "files/detach.sh"]
why = "Ends with its children still running."
after = ["forget"]

[[step]]
id = "forget"
kind = "command"
command = ["rm", "-f", "processes/cgroup"]
why = "Deletes the record of the run's cgroup.""#,
    );
    let c = Checkout::new(&[("escapes", &recipe)]);
    let out = c
        .command(&["run", "escapes", "--yes", "--step", "detach"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("run  forget"), "{stderr}");
    let left = children(&c.run_dir().unwrap());
    assert!(
        gone(&left),
        "a setsid or env -i child outlived its step: {left:?}"
    );
}

#[test]
fn what_a_killed_run_leaves_ends_at_its_next_start() {
    let c = Checkout::new(&[("escapes", RECIPE)]);
    let (run, held) = killed_while_holding(&c);
    // The next start ends them before its first step; it is stopped once
    // they are gone, and cleaned after.
    let mut again = c
        .command(&["run", "escapes", "--yes"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let ended = gone(&held);
    let _ = again.kill();
    let _ = again.wait();
    let out = c.command(&["clean", "--all"]).output().unwrap();
    assert!(
        ended,
        "the next start left {held:?} running (run {})",
        run.display()
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn what_a_killed_run_leaves_ends_with_clean() {
    let c = Checkout::new(&[("escapes", RECIPE)]);
    let (_, held) = killed_while_holding(&c);
    let out = c.command(&["clean", "--all"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(gone(&held), "clean --all left {held:?} running");
}

/// A step whose child clears its environment, leaves its process group and
/// moves itself to the root cgroup (as root may, on the cgroup filesystem
/// as mounted): it carries the step's cgroup namespace still, so it is found
/// when the step ends, ended, and said as a deviation of the run.
const MOVES_OUT: &str = r#"
[post]
id = "moves-out"
title = "Moves out"
author = "Test"
date = "2026"
summary = "A step whose child moves itself out of the run's cgroup."

[[file]]
path = "move.sh"
content = """
root=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
env -i setsid sh -c "echo \\$\\$ > '$root/cgroup.procs' && echo \\$\\$ > moved.pid && exec sleep 302" >/dev/null 2>&1 </dev/null &
until [ -s moved.pid ]; do sleep 0.05; done
"""
why = "A child that leaves its group, its environment and its cgroup."

[[step]]
id = "move"
kind = "command"
command = ["sh", "files/move.sh"]
why = "Ends with a child that left the run's cgroup."
"#;

/// Runs `recipe` and answers what it said, once the process that wrote
/// `pid_file` in its run's folder is checked gone and recorded as an
/// `escape` deviation naming it.
fn run_and_find_the_escape_ended(c: &Checkout, recipe: &str, pid_file: &str) -> String {
    let out = c.command(&["run", recipe, "--yes"]).output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !said.contains("not in a cgroup"),
        "cgroups could not be had here: {said}"
    );
    assert!(out.status.success(), "{said}");
    let run = c.run_dir().unwrap();
    let pid: u32 = std::fs::read_to_string(run.join(pid_file))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        gone(&[pid]),
        "the process that moved to the root cgroup outlived the run"
    );
    let deviations = std::fs::read_to_string(run.join("results/deviations.json")).unwrap();
    assert!(
        deviations.contains("\"escape\"") && deviations.contains(&format!("pid {pid} (sleep)")),
        "{deviations}"
    );
    said
}

#[test]
fn a_process_that_moves_out_of_the_run_s_cgroup_is_found_ended_and_said() {
    let c = Checkout::new(&[("moves-out", MOVES_OUT)]);
    let said = run_and_find_the_escape_ended(&c, "moves-out", "moved.pid");
    assert!(said.contains("moved out of the run's cgroup"), "{said}");
}

/// A lane whose server starts a child that leaves its group, its
/// environment and its cgroup before it serves; the run stops the lane at
/// its end. Lanes run in a cgroup namespace as steps do.
fn lane_moves_out(port: u16) -> String {
    format!(
        r#"
[post]
id = "lane-moves-out"
title = "A lane moves out"
author = "Test"
date = "2026"
summary = "A lane whose server leaves a child outside the run's cgroup."

[[toolchain]]
name = "ruby"
version = "*"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'

[[file]]
path = "lane.sh"
content = """
root=$(awk '$9 == "cgroup2" {{ print $5; exit }}' /proc/self/mountinfo)
env -i setsid sh -c "echo \\$\\$ > '$root/cgroup.procs' && echo \\$\\$ > lane-moved.pid && exec sleep 303" >/dev/null 2>&1 </dev/null &
until [ -s lane-moved.pid ]; do sleep 0.05; done
exec ruby -rsocket -e 's = TCPServer.new("127.0.0.1", {port}); loop {{ c = s.accept; while (l = c.gets) && l != "\\r\\n"; end; c.write("HTTP/1.1 200 OK\\r\\ncontent-length: 2\\r\\nconnection: close\\r\\n\\r\\nok"); c.close }}'
"""
why = "A server that first leaves a child outside its cgroup."

[[lane]]
name = "app"
runtime = "ruby"
command = ["sh", "files/lane.sh"]
port = {port}
health = "/"
boot_budget = "10s"
why = "Serves, with an escaped child beside it."

[[step]]
id = "serve"
kind = "serve"
why = "Boot the lane."
"#
    )
}

#[test]
fn a_lane_s_process_that_moves_out_of_its_cgroup_is_ended_and_said() {
    let port = support::free_port();
    let c = Checkout::new(&[("lane-moves-out", &lane_moves_out(port))]);
    let said = run_and_find_the_escape_ended(&c, "lane-moves-out", "lane-moved.pid");
    assert!(
        said.contains("lane app: a process it started moved out of its cgroup"),
        "{said}"
    );
}

/// A step whose child moves itself out of the run's cgroup (as
/// `MOVES_OUT`), then waits, to be killed with Reprise.
fn moves_out_and_holds() -> String {
    MOVES_OUT.replace(
        r#"command = ["sh", "files/move.sh"]"#,
        r#"command = ["sh", "-c", "sh files/move.sh && echo holding > holding && sleep 300"]"#,
    )
}

#[test]
fn what_moved_out_of_the_cgroup_of_a_killed_run_ends_with_clean() {
    let c = Checkout::new(&[("moves-out", &moves_out_and_holds())]);
    let (run, mut reprise) = run_until_holding(&c, "moves-out");
    let pid: u32 = std::fs::read_to_string(run.join("moved.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    reprise.kill().unwrap();
    reprise.wait().unwrap();
    let cgroup = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap();
    assert!(
        alive(pid) && !cgroup.contains("/reprise-"),
        "the child should have outlived Reprise outside the run's cgroup: {cgroup}"
    );
    let out = c.command(&["clean", "--all"]).output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(gone(&[pid]), "clean --all left {pid} running: {said}");
    assert!(said.contains("moved out of the run's cgroup"), "{said}");
    // Nothing pinned is left behind: no mount under the run's folder.
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    assert!(
        !mounts.contains(&run.display().to_string()),
        "a namespace is still pinned under {}",
        run.display()
    );
}
