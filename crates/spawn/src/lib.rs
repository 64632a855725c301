//! Starting a child process Reprise answers for — a step's command, a
//! lane's server, a service, wrk — the one way they are all started:
//!
//! - in a process group of its own, so that ending the group ends whatever
//!   it started that stayed in it, and a terminal's Ctrl-C reaches Reprise,
//!   which ends it, rather than the child alone;
//! - killed by the kernel when Reprise dies (`PR_SET_PDEATHSIG`), so a
//!   killed Reprise does not leave it loading or serving;
//! - pinned to the CPUs it is given;
//! - without the variables Reprise signs in to GitHub with
//!   ([`SIGN_IN_VARIABLES`]), unless the command sets one itself;
//! - with a [`Recorder`], in a cgroup of the run's where the run has one
//!   ([`cgroup`]: joined before the program runs, so nothing it starts
//!   escapes it), marked with the run it belongs to (an environment
//!   variable its own children inherit) and recorded as soon as it is
//!   spawned, so that a Reprise killed meanwhile leaves nothing unaccounted
//!   for; a child that cannot be recorded is killed at once.
//!
//! Reading its output, waiting for it and ending it are the caller's.
//!
//! ```
//! let mut command = std::process::Command::new("true");
//! let mut spawned = reprise_spawn::spawn(&mut command, "an example", &[], None).unwrap();
//! assert!(spawned.child.wait().unwrap().success());
//! ```

pub mod cgroup;

use std::io;
use std::process::{Child, Command};

pub use cgroup::{Cgroup, Escaped, Namespace, NoCgroup, Usage};

/// Where a run records the process groups it starts, and how its
/// processes are marked as the run's.
pub trait Recorder {
    /// The environment variable and value every process of the run carries.
    fn marker(&self) -> (&str, &str);
    /// The cgroup a child started as `what` runs in, inside the run's; `None`
    /// where the run has no cgroup.
    fn cgroup(&self, what: &str) -> io::Result<Option<Cgroup>>;
    /// Records the group led by the process just spawned as `pgid`,
    /// described by `what` (`step build: bundle`, `lane nginx: nginx`).
    fn record(&self, pgid: u32, what: &str) -> io::Result<Box<dyn Record>>;
    /// Where the cgroup namespace of the group `pgid` is pinned, so that a
    /// Reprise killed meanwhile leaves it findable ([`Namespace::pin_at`]);
    /// `None` keeps it unpinned.
    fn namespace_pin(&self, _pgid: u32) -> Option<std::path::PathBuf> {
        None
    }
}

/// A recorded process group.
pub trait Record: Send + std::fmt::Debug {
    /// Forgets the record once no process of the group is left; a group
    /// that is still there stays recorded, for the next start to end.
    /// Answers whether it was forgotten.
    fn forget_if_ended(self: Box<Self>) -> bool;
}

/// Why a child could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// The program is not on the PATH (or not at the path given).
    #[error("`{program}` was not found")]
    NotFound { program: String },
    #[error("could not start `{program}`: {source}")]
    Spawn { program: String, source: io::Error },
    /// It started, but could not be recorded in the run's folder: it was
    /// killed, so that nothing runs unaccounted for. Or its cgroup could not
    /// be made, and it was not started.
    #[error("cannot record `{program}` in the run's folder, so it was stopped: {source}")]
    Record { program: String, source: io::Error },
}

/// A child started by [`spawn`].
#[derive(Debug)]
pub struct Spawned {
    pub child: Child,
    /// Its group's record, with a [`Recorder`].
    pub record: Option<Box<dyn Record>>,
    /// The cgroup it runs in, where the run has one.
    pub cgroup: Option<Cgroup>,
    /// The cgroup namespace it runs in, where it could be given one.
    pub namespace: Option<Namespace>,
}

impl Spawned {
    /// Ends whatever it left in its cgroup (a `setsid` daemon, a
    /// double fork) and removes the cgroup; then ends whatever moved itself
    /// out of the cgroup (found by its namespace), and answers which those
    /// were. Without a cgroup, nothing.
    pub fn end_cgroup(&mut self) -> Vec<Escaped> {
        let Some(cgroup) = self.cgroup.take() else {
            return Vec::new();
        };
        cgroup.kill();
        cgroup.remove();
        self.namespace
            .take()
            .map(|ns| ns.sweep())
            .unwrap_or_default()
    }
}

/// Starts `command` as a child Reprise answers for (see the crate's
/// documentation), on `cpus` (any, when empty), recorded by `recorder` as
/// `what` where one is given. Its stdio is the caller's to set first.
pub fn spawn(
    command: &mut Command,
    what: &str,
    cpus: &[usize],
    recorder: Option<&dyn Recorder>,
) -> Result<Spawned, SpawnError> {
    let program = command.get_program().to_string_lossy().into_owned();
    own_group(command);
    reprise_cpus::pin_command(command, cpus);
    let mut cgroup = None;
    if let Some(recorder) = recorder {
        let (name, value) = recorder.marker();
        command.env(name, value);
        cgroup = recorder.cgroup(what).map_err(|source| SpawnError::Record {
            program: program.clone(),
            source,
        })?;
        if let Some(cgroup) = &cgroup {
            cgroup
                .join_on_exec(command)
                .map_err(|source| SpawnError::Record {
                    program: program.clone(),
                    source,
                })?;
        }
    }
    let mut child = command.spawn().map_err(|source| match source.kind() {
        io::ErrorKind::NotFound => SpawnError::NotFound {
            program: program.clone(),
        },
        _ => SpawnError::Spawn {
            program: program.clone(),
            source,
        },
    })?;
    let record = match recorder {
        None => None,
        Some(recorder) => match recorder.record(child.id(), what) {
            Ok(record) => Some(record),
            Err(source) => {
                signal_group(child.id(), libc::SIGKILL);
                let _ = child.wait();
                return Err(SpawnError::Record { program, source });
            }
        },
    };
    let mut namespace = cgroup
        .as_ref()
        .and_then(|_| Namespace::of_child(child.id()));
    if let (Some(namespace), Some(at)) = (
        namespace.as_mut(),
        recorder.and_then(|r| r.namespace_pin(child.id())),
    ) {
        // Unpinned, it is still watched while Reprise runs.
        let _ = namespace.pin_at(&at);
    }
    Ok(Spawned {
        child,
        record,
        cgroup,
        namespace,
    })
}

/// The variables Reprise signs in to GitHub with. No child it starts
/// inherits them (a step that prints its environment would write them into
/// its log); one the command sets itself (a recipe's `env`, which the reader
/// saw in the plan) it keeps.
pub const SIGN_IN_VARIABLES: [&str; 3] = ["GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN"];

fn without_sign_in(command: &mut Command) {
    for name in SIGN_IN_VARIABLES {
        if !command
            .get_envs()
            .any(|(key, value)| key == name && value.is_some())
        {
            command.env_remove(name);
        }
    }
}

/// A process group of its own, SIGKILL when Reprise dies, and none of
/// Reprise's [`SIGN_IN_VARIABLES`]: what [`spawn`] does first, for a caller
/// that starts the command itself (the toolchain probes, through
/// `tokio::process::Command::from`).
#[cfg(target_os = "linux")]
pub fn own_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    without_sign_in(command);
    command.process_group(0);
    // SAFETY: prctl is async-signal-safe and touches no memory of ours.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
pub fn own_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    without_sign_in(command);
    command.process_group(0);
}

/// Sends `signal` to every process of the group `pgid` (never to group 0
/// or 1, which would be this process's own group or every process). ESRCH
/// (the group is gone) is fine.
pub fn signal_group(pgid: u32, signal: libc::c_int) {
    if let Some((pgid, signal)) = target(pgid, signal) {
        let _ = rustix::process::kill_process_group(pgid, signal);
    }
}

/// Sends `signal` to the process `pid` (never to 0 or 1). ESRCH (it is
/// gone) is fine.
pub fn signal_process(pid: u32, signal: libc::c_int) {
    if let Some((pid, signal)) = target(pid, signal) {
        let _ = rustix::process::kill_process(pid, signal);
    }
}

/// A pid or group to signal, past 1, and a signal rustix names.
fn target(
    pid: u32,
    signal: libc::c_int,
) -> Option<(rustix::process::Pid, rustix::process::Signal)> {
    let pid = i32::try_from(pid)
        .ok()
        .filter(|&pid| pid > 1)
        .and_then(rustix::process::Pid::from_raw)?;
    Some((pid, rustix::process::Signal::from_named_raw(signal)?))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Book {
        recorded: Mutex<Vec<(u32, String)>>,
        refuse: bool,
    }

    #[derive(Debug)]
    struct Entry;

    impl Record for Entry {
        fn forget_if_ended(self: Box<Self>) -> bool {
            true
        }
    }

    impl Recorder for Book {
        fn marker(&self) -> (&str, &str) {
            ("REPRISE_SPAWN_TEST", "the run")
        }
        fn cgroup(&self, _: &str) -> io::Result<Option<Cgroup>> {
            Ok(None)
        }
        fn record(&self, pgid: u32, what: &str) -> io::Result<Box<dyn Record>> {
            if self.refuse {
                return Err(io::Error::other("the folder is gone"));
            }
            self.recorded.lock().unwrap().push((pgid, what.into()));
            Ok(Box::new(Entry))
        }
    }

    fn stat_field(pid: u32, n: usize) -> String {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        after.split(' ').nth(n - 3).unwrap().to_string()
    }

    #[test]
    fn a_child_leads_its_own_group_is_marked_pinned_and_recorded() {
        let book = Book::default();
        let cpu = reprise_cpus::allowed_cpus()[0];
        let mut command = Command::new("sh");
        command
            .args([
                "-c",
                "echo \"$REPRISE_SPAWN_TEST\"; grep Cpus_allowed_list /proc/self/status; sleep 5",
            ])
            .stdout(std::process::Stdio::piped());
        let mut spawned = spawn(&mut command, "step demo: sh", &[cpu], Some(&book)).unwrap();
        let pid = spawned.child.id();
        // Field 5 of /proc/PID/stat is the process group.
        assert_eq!(stat_field(pid, 5), pid.to_string());
        assert_eq!(
            book.recorded.lock().unwrap().as_slice(),
            [(pid, "step demo: sh".to_string())]
        );
        // Its two lines, then the group ends.
        let mut lines = std::io::BufReader::new(spawned.child.stdout.take().unwrap());
        let mut out = String::new();
        for _ in 0..2 {
            std::io::BufRead::read_line(&mut lines, &mut out).unwrap();
        }
        signal_group(pid, libc::SIGKILL);
        spawned.child.wait().unwrap();
        assert!(out.starts_with("the run\n"), "{out}");
        assert!(
            out.contains(&format!("Cpus_allowed_list:\t{cpu}\n")),
            "{out}"
        );
        assert!(spawned.record.take().unwrap().forget_if_ended());
    }

    #[test]
    fn a_child_that_cannot_be_recorded_is_killed_and_said() {
        let book = Book {
            refuse: true,
            ..Book::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("ran");
        let mut command = Command::new("sh");
        command.args(["-c", &format!("sleep 1; touch {}", marker.display())]);
        let err = spawn(&mut command, "lane demo: sh", &[], Some(&book)).unwrap_err();
        assert!(matches!(err, SpawnError::Record { .. }), "{err}");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        assert!(!marker.exists(), "the unrecorded child ran on");
    }

    #[test]
    fn a_missing_program_is_not_found() {
        let mut command = Command::new("reprise-no-such-program");
        let err = spawn(&mut command, "x", &[], None).unwrap_err();
        assert!(
            matches!(&err, SpawnError::NotFound { program } if program == "reprise-no-such-program"),
            "{err}"
        );
    }

    #[test]
    fn a_child_dies_with_the_thread_that_started_it() {
        // PR_SET_PDEATHSIG fires when the thread that forked the child ends.
        let pid = std::thread::spawn(|| {
            let mut command = Command::new("sleep");
            command.arg("30");
            let spawned = spawn(&mut command, "x", &[], None).unwrap();
            let pid = spawned.child.id();
            std::mem::forget(spawned);
            pid
        })
        .join()
        .unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .map(|_| stat_field(pid, 3))
                .unwrap_or_default();
            if state.is_empty() || state == "Z" {
                break;
            }
            assert!(
                std::time::Instant::now() < until,
                "sleep outlived its parent thread"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Reap it.
        if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
            let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::NOHANG);
        }
    }
}
