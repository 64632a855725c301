//! The processes a run starts, kept track of in its folder so that none
//! outlives a Reprise that was killed (SIGKILL, a crash, a power cut of the
//! terminal). PR_SET_PDEATHSIG ends only a group's leader: nginx's workers,
//! Puma's and a step's background children would go on running.
//!
//! - An attempt holds `processes/attempt.lock` (flock) while it runs, so
//!   another Reprise can tell a running run from one that was killed.
//! - Each process group it starts is recorded in `processes/<pgid>.json` as
//!   soon as it is spawned (the leader's start time, its session, the boot)
//!   and forgotten once no process of the group is left.
//! - Its processes carry the run's folder in `REPRISE_RUN_DIR`.
//!
//! - Where cgroups can be had ([`reprise_spawn::cgroup`]), an attempt's
//!   steps, lanes and services each run in a cgroup inside one of the
//!   attempt's own, recorded in `processes/cgroup`: what a step leaves in its
//!   cgroup ends with the step, a lane's with the lane, and everything left
//!   with the attempt, whatever left its group (`setsid`) or its
//!   environment (`env -i`).
//!
//! At the start of a run, and in `reprise clean`, the runs nobody is running
//! have their leftovers ended (SIGTERM, then SIGKILL): the recorded groups,
//! processes that left their group but carry the run's folder in their
//! environment, and whatever else is in the recorded cgroup. A group is
//! signalled only while it is verifiably the one
//! recorded, never a stranger that was given a recycled number: its leader
//! is there with the recorded start time, or, the leader gone, every member
//! is in the recorded session, started no earlier than the leader, and has
//! no environment other than the run's.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::os::workdir::{DataDir, RunDir};

pub use reprise_spawn::{Cgroup, Record, Recorder};

/// The environment variable that names a run's folder in its processes.
pub const MARKER: &str = "REPRISE_RUN_DIR";

/// How long leftovers have after SIGTERM before SIGKILL.
const LEFTOVER_GRACE: Duration = Duration::from_secs(2);

const ATTEMPT_LOCK: &str = "attempt.lock";
/// How long an attempt waits for a lock this process itself holds: an
/// attempt of it running in another thread keeps it, a forked child's copy
/// of an ended attempt's descriptor lets go at the child's exec.
const OWN_LOCK_GRACE: Duration = Duration::from_secs(2);

/// Where an attempt records its cgroup, in `processes/`.
const CGROUP_RECORD: &str = "cgroup";

/// Where a run records the process groups it starts.
#[derive(Clone, Debug)]
pub struct RunProcesses {
    run: RunDir,
    /// The run's folder as its processes see it in [`MARKER`].
    marker: String,
    /// The running attempt's cgroup, where it has one.
    cgroup: Option<Cgroup>,
}

impl RunProcesses {
    pub fn of(run: &RunDir) -> RunProcesses {
        RunProcesses {
            run: run.clone(),
            marker: run.path.display().to_string(),
            cgroup: recorded_cgroup(run),
        }
    }
}

/// The run's cgroup: the one this process made for it (a step that deletes
/// the record cannot take the steps after it out of their cgroups), else
/// the one `run`'s folder records, where it is one and has this run's name
/// (a record a step rewrote cannot point at someone else's cgroup).
fn recorded_cgroup(run: &RunDir) -> Option<Cgroup> {
    if let Some(cgroup) = Cgroup::made_here(&cgroup_name(run)) {
        return Some(cgroup);
    }
    let text = fs::read_to_string(run.processes().join(CGROUP_RECORD)).ok()?;
    let cgroup = Cgroup::at(Path::new(text.trim()))?;
    (cgroup.dir().file_name()? == cgroup_name(run).as_str()).then_some(cgroup)
}

/// `reprise-<run id>-<8 hex digits of its folder>`: one name per run folder,
/// whatever data dir it is in.
fn cgroup_name(run: &RunDir) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(run.path.as_os_str().as_encoded_bytes());
    let short: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("reprise-{}-{short}", run.id)
}

impl Recorder for RunProcesses {
    /// [`MARKER`], and the run's folder.
    fn marker(&self) -> (&str, &str) {
        (MARKER, &self.marker)
    }

    /// A cgroup inside the attempt's, named for `what`.
    fn cgroup(&self, what: &str) -> io::Result<Option<Cgroup>> {
        self.cgroup.as_ref().map(|run| run.child(what)).transpose()
    }

    /// Records the group `pgid` (led by the process just spawned with that
    /// pid) in `processes/<pgid>.json`, described by `what`.
    fn record(&self, pgid: u32, what: &str) -> io::Result<Box<dyn Record>> {
        let leader = ProcStat::read(pgid).ok_or_else(|| {
            io::Error::other(format!("process {pgid} ended before it could be recorded"))
        })?;
        let record = GroupRecord {
            pgid,
            start: leader.start,
            session: leader.session,
            boot: boot_id(),
            what: what.to_string(),
        };
        let bytes = serde_json::to_vec_pretty(&record).map_err(io::Error::other)?;
        // Whole or not at all: a Reprise killed halfway leaves the old
        // record or the new one, never half of one.
        let file = self
            .run
            .file(format!("processes/{pgid}.json"))
            .map_err(io::Error::other)?;
        file.write_atomic(&bytes)?;
        Ok(Box::new(Recorded {
            file: file.path(),
            pgid,
        }))
    }

    /// `processes/<pgid>.cgroupns`, inside the run's folder.
    fn namespace_pin(&self, pgid: u32) -> Option<PathBuf> {
        self.run
            .file(format!("processes/{pgid}.{NAMESPACE_PIN}"))
            .ok()
            .map(|f| f.path())
    }
}

/// A recorded process group: its file in `processes/`.
#[derive(Debug)]
struct Recorded {
    file: PathBuf,
    pgid: u32,
}

impl Record for Recorded {
    /// Forgets the record once no process of the group is left (waiting up
    /// to a second for the last ones to die).
    fn forget_if_ended(self: Box<Self>) -> bool {
        let until = Instant::now() + Duration::from_secs(1);
        while !group_members(self.pgid).is_empty() {
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = fs::remove_file(&self.file);
        true
    }
}

/// What a run's folder says about one of its process groups.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct GroupRecord {
    pgid: u32,
    /// The leader's start time, in clock ticks after boot (`/proc/PID/stat`
    /// field 22).
    start: u64,
    session: u32,
    /// `/proc/sys/kernel/random/boot_id`: after a reboot nothing is left.
    boot: String,
    /// What it was started for (`step build: bundle`, `lane nginx: nginx`).
    what: String,
}

/// An attempt at a run: held while it runs, so no other attempt (in this
/// process or another) runs the same folder or takes its processes for
/// leftovers.
#[derive(Debug)]
pub struct Attempt {
    run: RunDir,
    /// Locked (flock) until dropped; the kernel lets go when the process dies.
    _lock: File,
    /// The attempt's cgroup, once [`Attempt::contain`] made it: killed and
    /// removed when the attempt ends.
    cgroup: Option<Cgroup>,
}

impl Drop for Attempt {
    /// The attempt's cgroup goes with it: whatever is still in it is killed.
    fn drop(&mut self) {
        if let Some(cgroup) = self.cgroup.take() {
            cgroup.kill();
            cgroup.remove();
            if cgroup.pids().is_empty() {
                let _ = fs::remove_file(self.run.processes().join(CGROUP_RECORD));
            }
        }
    }
}

/// Why an attempt cannot have a run's folder.
#[derive(Debug, thiserror::Error)]
pub enum AttemptError {
    #[error("run {run} is running now, in Reprise process {}", pid.map_or("(unknown)".into(), |p| p.to_string()))]
    InUse {
        run: String,
        /// The process that holds it, as it wrote itself down.
        pid: Option<u32>,
    },
    #[error("cannot take run {run} for this attempt: {}: {source}", path.display())]
    Io {
        run: String,
        path: PathBuf,
        source: io::Error,
    },
}

impl Attempt {
    /// Takes the run's folder for this attempt, or says who has it.
    pub fn begin(run: &RunDir) -> Result<Attempt, AttemptError> {
        let path = run.processes().join(ATTEMPT_LOCK);
        let opened = run
            .file(format!("processes/{ATTEMPT_LOCK}"))
            .map_err(io::Error::other)
            .and_then(|file| file.open_rw());
        let mut lock = opened.map_err(|source| AttemptError::Io {
            run: run.id.clone(),
            path: path.clone(),
            source,
        })?;
        let until = Instant::now() + OWN_LOCK_GRACE;
        while rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive)
            .is_err()
        {
            let mut text = String::new();
            let _ = lock.rewind();
            let _ = lock.read_to_string(&mut text);
            let pid = text.trim().parse().ok();
            // This process's own lock from an attempt that just ended, or
            // the lock of a Reprise that is gone (killed), is still held by
            // a child forked meanwhile, until that child execs (the
            // descriptor closes then): soon let go.
            let holder_gone = pid.is_some_and(|p: u32| !Path::new(&format!("/proc/{p}")).exists());
            if (pid == Some(std::process::id()) || holder_gone) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            return Err(AttemptError::InUse {
                run: run.id.clone(),
                pid,
            });
        }
        let _ = lock.set_len(0);
        let _ = lock.rewind();
        let _ = writeln!(lock, "{}", std::process::id());
        Ok(Attempt {
            run: run.clone(),
            _lock: lock,
            cgroup: None,
        })
    }

    /// Puts the processes this attempt starts in a cgroup of its own,
    /// recorded in `processes/cgroup`; why it cannot, where it cannot (the
    /// run then falls back to process groups and its folder's marker).
    pub fn contain(&mut self) -> Result<(), reprise_spawn::NoCgroup> {
        let cgroup = Cgroup::for_run(&cgroup_name(&self.run))?;
        let recorded = self
            .run
            .file(format!("processes/{CGROUP_RECORD}"))
            .map_err(io::Error::other)
            .and_then(|file| file.write_atomic(cgroup.dir().display().to_string().as_bytes()));
        if let Err(e) = recorded {
            cgroup.remove();
            return Err(reprise_spawn::NoCgroup::Record(e));
        }
        self.cgroup = Some(cgroup);
        Ok(())
    }

    /// Ends what earlier attempts of this run left running.
    pub fn end_leftovers(&self) -> Leftovers {
        let mut found = Leftovers {
            run: self.run.id.clone(),
            ..Leftovers::default()
        };
        let processes = RunProcesses::of(&self.run);
        let table = ProcTable::read();
        let mut groups: Vec<(PathBuf, GroupRecord, Vec<ProcStat>)> = Vec::new();
        for (file, record) in records(&self.run.processes()) {
            match table.verify(&record) {
                Verdict::Ours(members) => groups.push((file, record, members)),
                Verdict::Gone => {
                    let _ = fs::remove_file(&file);
                }
                Verdict::NotOurs(why) => {
                    found.problems.push(format!(
                        "process group {} ({}) was left alone: {why}",
                        record.pgid, record.what
                    ));
                    let _ = fs::remove_file(&file);
                }
            }
        }
        // Processes that left their group (setsid, a daemon) but still carry
        // the run's folder in their environment.
        let in_groups: BTreeSet<u32> = groups
            .iter()
            .flat_map(|(_, _, m)| m.iter().map(|p| p.pid))
            .collect();
        let strays: Vec<ProcStat> = table
            .marked(&processes.marker)
            .filter(|p| !in_groups.contains(&p.pid))
            .cloned()
            .collect();

        for (_, record, _) in &groups {
            signal_group(record.pgid, libc::SIGTERM);
        }
        for p in &strays {
            reprise_spawn::signal_process(p.pid, libc::SIGTERM);
        }
        let all: Vec<&ProcStat> = groups
            .iter()
            .flat_map(|(_, _, m)| m.iter())
            .chain(&strays)
            .collect();
        let left = wait_gone(&all, LEFTOVER_GRACE);
        if !left.is_empty() {
            for (_, record, _) in &groups {
                // Still members: the number cannot have been given to
                // another group meanwhile.
                if !group_members(record.pgid).is_empty() {
                    signal_group(record.pgid, libc::SIGKILL);
                }
            }
            for p in &strays {
                if ProcStat::read(p.pid).is_some_and(|now| now.start == p.start) {
                    reprise_spawn::signal_process(p.pid, libc::SIGKILL);
                }
            }
        }
        let left = wait_gone(&all, Duration::from_secs(2));

        for (file, record, members) in groups {
            let pids: Vec<u32> = members.iter().map(|p| p.pid).collect();
            let alive: Vec<u32> = pids.iter().copied().filter(|p| left.contains(p)).collect();
            if alive.is_empty() {
                let _ = fs::remove_file(&file);
                found.ended.push(Ended {
                    what: record.what,
                    pids,
                });
            } else {
                found.problems.push(format!(
                    "{} (process group {}) is still running after SIGKILL: {}",
                    record.what,
                    record.pgid,
                    pid_words(&alive)
                ));
            }
        }
        let (gone, alive): (Vec<&ProcStat>, Vec<&ProcStat>) =
            strays.iter().partition(|p| !left.contains(&p.pid));
        if !gone.is_empty() {
            found.ended.push(Ended {
                what: format!("processes outside their group carrying {MARKER} of this run"),
                pids: gone.iter().map(|p| p.pid).collect(),
            });
        }
        if !alive.is_empty() {
            found.problems.push(format!(
                "processes carrying {MARKER} of this run are still running after SIGKILL: {}",
                pid_words(&alive.iter().map(|p| p.pid).collect::<Vec<_>>())
            ));
        }
        // What is left in a killed attempt's cgroup, whatever group or
        // environment it has now (setsid, env -i).
        if let Some(cgroup) = &processes.cgroup {
            let pids = cgroup.pids();
            cgroup.kill();
            let left = cgroup.pids();
            if left.is_empty() {
                cgroup.remove();
                let _ = fs::remove_file(self.run.processes().join(CGROUP_RECORD));
                if !pids.is_empty() {
                    found.ended.push(Ended {
                        what: "processes that left their groups (and their environment) but not the run's cgroup".into(),
                        pids,
                    });
                }
            } else {
                found.problems.push(format!(
                    "the run's cgroup {} still holds processes after SIGKILL: {}",
                    cgroup.dir().display(),
                    pid_words(&left)
                ));
            }
        } else {
            // A record of no cgroup (gone with a reboot, or rewritten):
            // nothing to end, and nothing to look at again.
            let _ = fs::remove_file(self.run.processes().join(CGROUP_RECORD));
        }
        // What moved itself out of the cgroup too, found by the cgroup
        // namespace a killed attempt left pinned.
        let mut escaped: Vec<u32> = Vec::new();
        for pin in namespace_pins(&self.run.processes()) {
            match reprise_spawn::Namespace::sweep_pinned(&pin) {
                Ok(ended) => escaped.extend(ended.iter().map(|e| e.pid)),
                Err(e) => found.problems.push(format!(
                    "the pinned cgroup namespace {} cannot be removed: {e}",
                    pin.display()
                )),
            }
        }
        if !escaped.is_empty() {
            found.ended.push(Ended {
                what: "processes that had moved out of the run's cgroup".into(),
                pids: escaped,
            });
        }
        found
    }
}

/// Ends what the attempts of `run` left running, unless it is running now.
pub fn end_leftovers(run: &RunDir) -> Result<Leftovers, AttemptError> {
    Ok(Attempt::begin(run)?.end_leftovers())
}

/// Ends the leftovers of every run in `data` that is not running now (a
/// killed run's server holds the port another run's lane needs); `except`
/// (the run about to start, which does its own) is not touched.
pub fn end_all_leftovers(data: &DataDir, except: &RunDir) -> Vec<Leftovers> {
    let Ok(entries) = fs::read_dir(data.runs()) else {
        return Vec::new();
    };
    // One look at every process's environment, rather than one per run.
    let table = ProcTable::read();
    let marked: BTreeSet<String> = table
        .processes
        .iter()
        .filter(|p| !p.zombie)
        .filter_map(|p| p.environment()?.remove(MARKER))
        .collect();
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let dir = path.join("processes");
        let left = has_records(&dir)
            || dir.join(CGROUP_RECORD).is_file()
            || !namespace_pins(&dir).is_empty()
            || marked.contains(&path.display().to_string());
        if path == except.path || !left {
            continue;
        }
        let run = RunDir {
            id: entry.file_name().to_string_lossy().into_owned(),
            path,
        };
        if let Ok(leftovers) = end_leftovers(&run)
            && !leftovers.is_empty()
        {
            found.push(leftovers);
        }
    }
    found
}

/// What was found of the processes earlier attempts of a run left running.
#[derive(Clone, Debug, Default)]
pub struct Leftovers {
    pub run: String,
    pub ended: Vec<Ended>,
    /// Groups still running after SIGKILL, or left alone because they no
    /// longer look like the ones recorded.
    pub problems: Vec<String>,
}

/// Processes that were ended.
#[derive(Clone, Debug)]
pub struct Ended {
    /// As recorded: `step slow: sh`, `lane nginx: nginx`.
    pub what: String,
    pub pids: Vec<u32>,
}

impl Leftovers {
    pub fn is_empty(&self) -> bool {
        self.ended.is_empty() && self.problems.is_empty()
    }

    /// For a person, one line each.
    pub fn messages(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .ended
            .iter()
            .map(|e| {
                format!(
                    "ended {} left running by an earlier attempt of run {} (pid{} {})",
                    e.what,
                    self.run,
                    if e.pids.len() == 1 { "" } else { "s" },
                    e.pids
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect();
        lines.extend(
            self.problems
                .iter()
                .map(|p| format!("run {}: {p}", self.run)),
        );
        lines
    }
}

fn is_record(name: &str) -> bool {
    !name.starts_with('.') && name.ends_with(".json")
}

/// The suffix of a pinned cgroup namespace's file in `processes/`.
const NAMESPACE_PIN: &str = "cgroupns";

/// The cgroup namespaces pinned in a run's `processes/`.
fn namespace_pins(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == NAMESPACE_PIN))
        .collect()
}

/// Whether a run's `processes/` records any group.
fn has_records(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| is_record(&e.file_name().to_string_lossy()))
    })
}

/// The records in a run's `processes/` (an unreadable one, which nothing
/// can be verified by, is dropped).
fn records(dir: &Path) -> Vec<(PathBuf, GroupRecord)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_record(&name) {
            continue;
        }
        match fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
        {
            Some(record) => found.push((path, record)),
            None => {
                let _ = fs::remove_file(&path);
            }
        }
    }
    found.sort_by_key(|(_, r): &(PathBuf, GroupRecord)| r.pgid);
    found
}

/// One process, from `/proc/PID/stat` (and `environ` when asked).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ProcStat {
    pub pid: u32,
    pub zombie: bool,
    pub ppid: u32,
    pub pgrp: u32,
    pub session: u32,
    /// Clock ticks after boot.
    pub start: u64,
}

impl ProcStat {
    pub fn read(pid: u32) -> Option<ProcStat> {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name may hold spaces and parens: fields are counted
        // after its last `)` (state is field 3, so index 0 here).
        let rest = &stat[stat.rfind(')')? + 1..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        Some(ProcStat {
            pid,
            zombie: *fields.first()? == "Z",
            ppid: fields.get(1)?.parse().ok()?,
            pgrp: fields.get(2)?.parse().ok()?,
            session: fields.get(3)?.parse().ok()?,
            start: fields.get(19)?.parse().ok()?,
        })
    }

    /// The process's environment: `None` when it cannot be read (another
    /// user's); empty when it has none left (nginx writes its process title
    /// over it).
    fn environment(&self) -> Option<BTreeMap<String, String>> {
        let bytes = fs::read(format!("/proc/{}/environ", self.pid)).ok()?;
        Some(
            bytes
                .split(|b| *b == 0)
                .filter_map(|e| {
                    let e = String::from_utf8_lossy(e);
                    let (k, v) = e.split_once('=')?;
                    Some((k.to_string(), v.to_string()))
                })
                .collect(),
        )
    }
}

/// Every process now.
struct ProcTable {
    processes: Vec<ProcStat>,
}

enum Verdict {
    /// The recorded group, with its live members.
    Ours(Vec<ProcStat>),
    /// Nothing of it is left.
    Gone,
    /// Processes hold the number but are not verifiably the group recorded.
    NotOurs(String),
}

impl ProcTable {
    fn read() -> ProcTable {
        let mut processes = Vec::new();
        if let Ok(entries) = fs::read_dir("/proc") {
            for entry in entries.flatten() {
                if let Some(p) = entry
                    .file_name()
                    .to_str()
                    .and_then(|n| n.parse().ok())
                    .and_then(ProcStat::read)
                {
                    processes.push(p);
                }
            }
        }
        ProcTable { processes }
    }

    fn verify(&self, record: &GroupRecord) -> Verdict {
        if record.boot != boot_id() {
            return Verdict::Gone;
        }
        let group: Vec<&ProcStat> = self
            .processes
            .iter()
            .filter(|p| p.pgrp == record.pgid)
            .collect();
        let members: Vec<ProcStat> = group
            .iter()
            .filter(|p| !p.zombie)
            .map(|p| (*p).clone())
            .collect();
        if members.is_empty() {
            return Verdict::Gone;
        }
        // A group's number stays taken while any process is in it, so its
        // leader (even a zombie) at the recorded start time settles it.
        if let Some(leader) = group.iter().find(|p| p.pid == record.pgid) {
            // Another start time: the number was given out again, which
            // it could only be once the recorded group was empty.
            return if leader.start == record.start {
                Verdict::Ours(members)
            } else {
                Verdict::Gone
            };
        }
        let own = std::process::id();
        for p in &members {
            if p.pid == own {
                return Verdict::NotOurs("this Reprise is in it".into());
            }
            if p.session != record.session || p.start < record.start {
                return Verdict::NotOurs(format!(
                    "process {} is not of the session or time recorded",
                    p.pid
                ));
            }
            if let Some(env) = p.environment()
                && !env.is_empty()
                && !env.contains_key(MARKER)
            {
                return Verdict::NotOurs(format!("process {} does not carry {MARKER}", p.pid));
            }
        }
        Verdict::Ours(members)
    }

    /// Live processes (not this one) whose environment names `run_dir`.
    fn marked<'t>(&'t self, run_dir: &'t str) -> impl Iterator<Item = &'t ProcStat> + 't {
        let own = std::process::id();
        self.processes.iter().filter(move |p| {
            !p.zombie
                && p.pid != own
                && p.environment()
                    .is_some_and(|env| env.get(MARKER).is_some_and(|v| v == run_dir))
        })
    }
}

/// The pids of `processes` still alive (the same process: same start time)
/// once they all died or `within` passed.
fn wait_gone(processes: &[&ProcStat], within: Duration) -> BTreeSet<u32> {
    let until = Instant::now() + within;
    loop {
        let alive: BTreeSet<u32> = processes
            .iter()
            .filter(|p| {
                ProcStat::read(p.pid).is_some_and(|now| now.start == p.start && !now.zombie)
            })
            .map(|p| p.pid)
            .collect();
        if alive.is_empty() || Instant::now() >= until {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pids of every live (not zombie) process in the group `pgid`.
pub(crate) fn group_members(pgid: u32) -> Vec<u32> {
    ProcTable::read()
        .processes
        .into_iter()
        .filter(|p| p.pgrp == pgid && !p.zombie)
        .map(|p| p.pid)
        .collect()
}

/// `root` and every live process descended from it: a container's
/// processes, from its first one's host pid.
pub(crate) fn process_tree(root: u32) -> Vec<u32> {
    let table = ProcTable::read().processes;
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            table
                .iter()
                .filter(|p| p.ppid == parent && !p.zombie && p.pid != root)
                .map(|p| p.pid),
        );
        i += 1;
    }
    tree
}

fn boot_id() -> String {
    fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Sends `sig` to every process of the group `pgid`.
pub(crate) use reprise_spawn::signal_group;

/// `process 4242`, `processes 4242, 4243`.
pub(crate) fn pid_words(pids: &[u32]) -> String {
    let list: Vec<String> = pids.iter().map(|p| p.to_string()).collect();
    format!(
        "process{} {}",
        if pids.len() == 1 { "" } else { "es" },
        list.join(", ")
    )
}
