//! Runs one program on the host: an argument vector in its own process
//! group, its output line by line to a log file and as events, a timeout,
//! and cancellation that ends the whole group (SIGTERM, then SIGKILL). With
//! a run's [`RunProcesses`] the group is recorded in the run's folder while
//! it runs, so a Reprise killed meanwhile leaves nothing unaccounted for.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::event::{CancelToken, Event, EventSink, Stream};
use crate::os::processes::{RunProcesses, signal_group};
use crate::os::run_files::RunFile;
use reprise_spawn::{Recorder, SpawnError, Spawned};

/// What to run and how.
#[derive(Clone, Debug)]
pub struct HostCommand {
    /// The step this process belongs to; events carry it.
    pub step: String,
    /// Program and arguments; never a shell string.
    pub argv: Vec<String>,
    pub dir: PathBuf,
    /// Added to the inherited environment.
    pub env: BTreeMap<String, String>,
    pub timeout: Option<Duration>,
    /// How long the group has after SIGTERM before SIGKILL.
    pub grace: Duration,
    /// Where stdout and stderr lines are written, in the order read.
    pub log: Option<RunFile>,
    /// The run whose folder records the process group (and whose folder
    /// its processes carry in their environment).
    pub processes: Option<RunProcesses>,
}

impl HostCommand {
    pub fn new(step: impl Into<String>, argv: Vec<String>, dir: impl Into<PathBuf>) -> Self {
        HostCommand {
            step: step.into(),
            argv,
            dir: dir.into(),
            env: BTreeMap::new(),
            timeout: None,
            grace: Duration::from_secs(5),
            log: None,
            processes: None,
        }
    }
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited (or was killed by a signal nobody here sent).
    Exited,
    /// It ran past its timeout and was stopped.
    TimedOut,
    /// The run was cancelled and the process stopped.
    Cancelled,
}

/// The recorded result of one process.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub ending: Ending,
    /// The exit code, when it exited normally.
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    pub duration: Duration,
    pub pid: u32,
    /// Processes it started that moved themselves out of its cgroup, found
    /// by its cgroup namespace once the cgroup was killed, and ended.
    pub escaped: Vec<reprise_spawn::Escaped>,
}

impl Outcome {
    /// Exited on its own with status 0.
    pub fn success(&self) -> bool {
        self.ending == Ending::Exited && self.code == Some(0)
    }

    /// Why it did not succeed, in words, or `None` when it did.
    pub fn failure(&self, program: &str) -> Option<String> {
        match (self.ending, self.code, self.signal) {
            (Ending::Exited, Some(0), _) => None,
            (Ending::TimedOut, ..) => Some(format!(
                "`{program}` ran past its timeout and was stopped after {:.1}s",
                self.duration.as_secs_f64()
            )),
            (Ending::Cancelled, ..) => Some(format!("`{program}` was cancelled")),
            (Ending::Exited, Some(code), _) => {
                Some(format!("`{program}` exited with status {code}"))
            }
            (Ending::Exited, None, Some(sig)) => {
                Some(format!("`{program}` was killed by signal {sig}"))
            }
            (Ending::Exited, None, None) => Some(format!("`{program}` ended without a status")),
        }
    }
}

/// Why a process could not be run.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("step `{step}` has an empty command")]
    EmptyCommand { step: String },
    #[error("program `{program}` was not found (is it installed and on PATH?)")]
    ProgramNotFound { program: String },
    #[error("working directory {} does not exist", dir.display())]
    NoDirectory { dir: PathBuf },
    #[error("could not start `{program}`: {source}")]
    Spawn { program: String, source: io::Error },
    #[error("log file {}: {source}", file.display())]
    Log { file: PathBuf, source: io::Error },
    #[error("waiting for `{program}`: {source}")]
    Wait { program: String, source: io::Error },
    #[error("cannot record `{program}` in the run's folder, so it was stopped: {source}")]
    Record { program: String, source: io::Error },
}

/// Runs `cmd` to its end, reporting each output line to `events` and the log.
pub fn run(
    cmd: &HostCommand,
    cancel: &CancelToken,
    events: &dyn EventSink,
) -> Result<Outcome, HostError> {
    let program = cmd.argv.first().ok_or_else(|| HostError::EmptyCommand {
        step: cmd.step.clone(),
    })?;
    if !cmd.dir.is_dir() {
        return Err(HostError::NoDirectory {
            dir: cmd.dir.clone(),
        });
    }
    let mut log = match &cmd.log {
        Some(file) => Some(file.create().map_err(|source| HostError::Log {
            file: file.path(),
            source,
        })?),
        None => None,
    };
    let started = Instant::now();
    let mut command = Command::new(program);
    command
        .args(&cmd.argv[1..])
        .current_dir(&cmd.dir)
        .envs(&cmd.env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let what = format!("step {}: {program}", cmd.step);
    let recorder = cmd.processes.as_ref().map(|p| p as &dyn Recorder);
    let Spawned {
        mut child,
        record: recorded,
        cgroup,
        namespace,
    } = reprise_spawn::spawn(&mut command, &what, &[], recorder).map_err(|e| match e {
        SpawnError::NotFound { program } => HostError::ProgramNotFound { program },
        SpawnError::Spawn { program, source } => HostError::Spawn { program, source },
        SpawnError::Record { program, source } => HostError::Record { program, source },
    })?;
    let pid = child.id();
    let lines = read_lines(&mut child);
    let wait_err = |source| HostError::Wait {
        program: program.clone(),
        source,
    };

    let mut ending = Ending::Exited;
    let mut kill_at: Option<Instant> = None;
    let status = loop {
        forward(&lines, Duration::from_millis(20), cmd, &mut log, events);
        if let Some(status) = child.try_wait().map_err(wait_err)? {
            break status;
        }
        if kill_at.is_none() {
            let timed_out = cmd.timeout.is_some_and(|t| started.elapsed() >= t);
            if timed_out || cancel.is_cancelled() {
                ending = if timed_out {
                    Ending::TimedOut
                } else {
                    Ending::Cancelled
                };
                signal_group(pid, libc::SIGTERM);
                kill_at = Some(Instant::now() + cmd.grace);
            }
        } else if kill_at.is_some_and(|at| Instant::now() >= at) {
            signal_group(pid, libc::SIGKILL);
        }
    };
    let duration = started.elapsed();
    // The leader is gone; whatever it left in its group goes with it, so no
    // stray process outlives its step or holds the output pipes open; and
    // whatever it left in its cgroup, in its group or not (setsid).
    signal_group(pid, libc::SIGKILL);
    if let Some(cgroup) = cgroup {
        cgroup.kill();
        cgroup.remove();
    }
    // And whatever moved itself out of the cgroup: its namespace tells.
    let escaped = namespace.map(|ns| ns.sweep()).unwrap_or_default();
    // Read what is left; a process that escaped the group (setsid) could hold
    // the pipes open forever, so the wait is bounded.
    let drain_until = Instant::now() + Duration::from_secs(5);
    while let Ok(line) = lines.recv_timeout(drain_until.saturating_duration_since(Instant::now())) {
        write_line(line, cmd, &mut log, events);
    }
    if let Some(log) = log.as_mut() {
        let _ = log.flush();
    }
    if let Some(recorded) = recorded {
        recorded.forget_if_ended();
    }
    Ok(Outcome {
        ending,
        code: status.code(),
        signal: status.signal(),
        duration,
        pid,
        escaped,
    })
}

type Line = (Stream, String);

/// One reader thread per stream, both feeding one channel, so lines of a
/// stream arrive in the order written.
fn read_lines(child: &mut Child) -> Receiver<Line> {
    let (tx, rx) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        spawn_reader(out, Stream::Stdout, tx.clone());
    }
    if let Some(err) = child.stderr.take() {
        spawn_reader(err, Stream::Stderr, tx);
    }
    rx
}

fn spawn_reader(pipe: impl Read + Send + 'static, stream: Stream, tx: mpsc::Sender<Line>) {
    thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if buf.last() == Some(&b'\n') {
                        buf.pop();
                    }
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send((stream, line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
}

/// Passes on the lines that arrive within `wait`.
fn forward(
    lines: &Receiver<Line>,
    wait: Duration,
    cmd: &HostCommand,
    log: &mut Option<File>,
    events: &dyn EventSink,
) {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => write_line(line, cmd, log, events),
            Err(RecvTimeoutError::Timeout) => return,
            Err(RecvTimeoutError::Disconnected) => {
                thread::sleep(left);
                return;
            }
        }
    }
}

fn write_line(
    (stream, line): Line,
    cmd: &HostCommand,
    log: &mut Option<File>,
    events: &dyn EventSink,
) {
    if let Some(file) = log.as_mut() {
        // A log that cannot be written must not stop the process; the events
        // still carry every line.
        let _ = writeln!(file, "{line}");
    }
    events.emit(Event::Log {
        step: cmd.step.clone(),
        stream,
        line,
    });
}
