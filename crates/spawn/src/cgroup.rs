//! A run's processes in a cgroup (v2) of their own, so that none outlives
//! the run whatever it does: a process that leaves its group (`setsid`),
//! drops the run's marker from its environment (`env -i`) or double-forks
//! stays in the cgroup it was started in, and killing the cgroup
//! (`cgroup.kill`) ends all of it. A child joins its cgroup between fork and
//! exec ([`Cgroup::join_on_exec`]), so it never runs outside it.
//!
//! Where the cgroup is made: under this process's own cgroup in the v2
//! hierarchy, where this process may write there — as root (the cgroup
//! filesystem directly), or in a cgroup delegated to the reader (`systemd-run
//! --user --scope -p Delegate=yes reprise …`). Where neither holds (no v2
//! hierarchy, or a cgroup not delegated), [`Cgroup::for_run`] says why, and
//! the run notes that it falls back to process groups.
//!
//! A cgroup also counts what its processes use, children that left their
//! process group included: `cpu.stat` (always there in v2) and
//! `memory.current` / `memory.peak` (where the memory controller is enabled
//! for it; on a machine whose memory controller is on cgroup v1 there is
//! none to read).

use std::fs::File;
use std::io::{self, Write as _};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt as _;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A cgroup v2 folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cgroup {
    dir: PathBuf,
}

/// What a cgroup's processes have used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU time, user and system, in microseconds (`cpu.stat`'s `usage_usec`).
    pub cpu_usec: Option<u64>,
    /// Memory now, in kB (`memory.current`), where the controller is there.
    pub memory_kb: Option<u64>,
    /// The most memory since the cgroup was made, in kB (`memory.peak`).
    pub memory_peak_kb: Option<u64>,
}

/// Why a run cannot have a cgroup of its own here.
#[derive(Debug, thiserror::Error)]
pub enum NoCgroup {
    #[error("cannot read /proc/self/mountinfo: {0}")]
    Mounts(io::Error),
    #[error("no cgroup v2 hierarchy is mounted here")]
    NoHierarchy,
    #[error("cannot read /proc/self/cgroup: {0}")]
    Own(io::Error),
    #[error("this process is in no cgroup of the v2 hierarchy")]
    NotInHierarchy,
    #[error(
        "this process's cgroup {} is not delegated to this user (run Reprise as root, or under `systemd-run --user --scope -p Delegate=yes`)",
        .0.display()
    )]
    NotDelegated(PathBuf),
    #[error("cannot make a cgroup in {}: {source}", own.display())]
    Make { own: PathBuf, source: io::Error },
    #[error("cannot record the run's cgroup in its folder: {0}")]
    Record(io::Error),
}

impl Cgroup {
    /// A new cgroup named `name` for a run, under this process's own cgroup;
    /// an old one of that name (a killed attempt's) is killed and made anew.
    /// `Err` says why cgroups cannot be had here.
    pub fn for_run(name: &str) -> Result<Cgroup, NoCgroup> {
        let own = own_cgroup()?;
        let cgroup = Cgroup {
            dir: own.join(name),
        };
        if cgroup.dir.is_dir() {
            cgroup.kill();
            cgroup.remove();
        }
        match std::fs::create_dir(&cgroup.dir) {
            Ok(()) => Ok(cgroup),
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                Err(NoCgroup::NotDelegated(own))
            }
            Err(source) => Err(NoCgroup::Make { own, source }),
        }
    }

    /// The cgroup named `name` under this process's own, where it is one:
    /// the one [`Cgroup::for_run`] made, found again without any record.
    pub fn made_here(name: &str) -> Option<Cgroup> {
        Cgroup::at(&own_cgroup().ok()?.join(name))
    }

    /// The cgroup at `dir`, where it is one (a folder of a cgroup v2
    /// hierarchy, holding `cgroup.procs`). The path is read from a run's
    /// records, which a step can rewrite: it must be its own canonical form
    /// (no `.`, `..` or link on the way) on a cgroup v2 file system, so no
    /// file elsewhere is ever taken for one.
    pub fn at(dir: &Path) -> Option<Cgroup> {
        let mount = v2_mount().ok()?;
        (std::fs::canonicalize(dir).ok()? == dir
            && dir.starts_with(&mount)
            && is_cgroup2(dir)
            && dir.join("cgroup.procs").is_file())
        .then(|| Cgroup {
            dir: dir.to_path_buf(),
        })
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A cgroup inside this one (made where missing): one a step, a lane or
    /// a service runs in. `name` is made a plain folder name.
    pub fn child(&self, name: &str) -> io::Result<Cgroup> {
        let safe: String = name
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => c,
                _ => '_',
            })
            .collect();
        // `cgroup.*` and the controllers' file names are the kernel's.
        let dir = self.dir.join(format!("u-{safe}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        Ok(Cgroup { dir })
    }

    /// Makes the process `command` starts join this cgroup before it runs
    /// its program, so it and all it starts are counted and ended with it,
    /// and enter a cgroup namespace of its own rooted there (where this
    /// process may make one: as root), so the root cgroup it sees is this
    /// one, and whatever it starts carries that namespace wherever it moves
    /// ([`Namespace::sweep`] finds it). The spawn fails where it cannot join.
    pub fn join_on_exec(&self, command: &mut Command) -> io::Result<()> {
        let procs = File::options()
            .write(true)
            .open(self.dir.join("cgroup.procs"))?;
        // SAFETY: write(2) is async-signal-safe; the descriptor was opened
        // (close-on-exec) before the fork and is the child's copy.
        unsafe {
            command.pre_exec(move || {
                let written = libc::write(procs.as_raw_fd(), b"0".as_ptr().cast(), 1);
                if written != 1 {
                    return Err(io::Error::last_os_error());
                }
                // Best effort: without CAP_SYS_ADMIN the cgroup alone holds it.
                libc::unshare(libc::CLONE_NEWCGROUP);
                Ok(())
            });
        }
        Ok(())
    }

    /// Every process in it and the cgroups inside it.
    pub fn pids(&self) -> Vec<u32> {
        let mut pids = Vec::new();
        collect_pids(&self.dir, &mut pids);
        pids
    }

    /// Kills every process in it and the cgroups inside it (`cgroup.kill`,
    /// else SIGKILL to each until none is left), waiting up to 5 s for the
    /// last to go. Answers how many there were.
    pub fn kill(&self) -> usize {
        let found = self.pids().len();
        if found == 0 {
            return 0;
        }
        // Never through a link, never a file made: the kernel's or none.
        let killed = File::options()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(self.dir.join("cgroup.kill"))
            .and_then(|mut f| f.write_all(b"1"))
            .is_ok();
        let me = std::process::id();
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let left = self.pids();
            if left.is_empty() || Instant::now() >= until {
                return found;
            }
            if !killed {
                for pid in left.into_iter().filter(|&p| p > 1 && p != me) {
                    crate::signal_process(pid, libc::SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Removes it and the cgroups inside it, once empty.
    pub fn remove(&self) {
        remove_tree(&self.dir);
    }

    /// What its processes, and those of the cgroups inside it, have used.
    pub fn usage(&self) -> Usage {
        let read = |file: &str| std::fs::read_to_string(self.dir.join(file)).ok();
        let cpu_usec = read("cpu.stat").and_then(|stat| {
            stat.lines()
                .find_map(|l| l.strip_prefix("usage_usec "))
                .and_then(|v| v.trim().parse().ok())
        });
        let kb = |file: &str| {
            read(file)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(|bytes| bytes / 1024)
        };
        Usage {
            cpu_usec,
            memory_kb: kb("memory.current"),
            memory_peak_kb: kb("memory.peak"),
        }
    }
}

fn collect_pids(dir: &Path, out: &mut Vec<u32>) {
    if let Ok(text) = std::fs::read_to_string(dir.join("cgroup.procs")) {
        out.extend(text.lines().filter_map(|l| l.trim().parse::<u32>().ok()));
    }
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            collect_pids(&entry.path(), out);
        }
    }
}

fn remove_tree(dir: &Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            remove_tree(&entry.path());
        }
    }
    // A cgroup goes with rmdir once it is empty; its files are the kernel's.
    let until = Instant::now() + Duration::from_secs(2);
    while std::fs::remove_dir(dir).is_err() && dir.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Where the cgroup v2 hierarchy is mounted (`/sys/fs/cgroup`, or
/// `/sys/fs/cgroup/unified` beside v1 controllers).
fn v2_mount() -> Result<PathBuf, NoCgroup> {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").map_err(NoCgroup::Mounts)?;
    mounts
        .lines()
        .find_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            (after.split_whitespace().next()? == "cgroup2")
                .then(|| before.split_whitespace().nth(4).map(PathBuf::from))
                .flatten()
        })
        .ok_or(NoCgroup::NoHierarchy)
}

/// This process's cgroup folder in the v2 hierarchy.
fn own_cgroup() -> Result<PathBuf, NoCgroup> {
    let mount = v2_mount()?;
    let own = std::fs::read_to_string("/proc/self/cgroup").map_err(NoCgroup::Own)?;
    let path = own
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .ok_or(NoCgroup::NotInHierarchy)?;
    Ok(mount.join(path.trim_start_matches('/')))
}

/// Whether `dir` is on a cgroup v2 file system.
fn is_cgroup2(dir: &Path) -> bool {
    rustix::fs::statfs(dir).is_ok_and(|fs| fs.f_type as u64 == libc::CGROUP2_SUPER_MAGIC as u64)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Cgroups where this machine has them (root, a v2 hierarchy): the
    /// tests that need them say so and fail where they cannot be had.
    fn run_cgroup(name: &str) -> Cgroup {
        Cgroup::for_run(&format!("reprise-test-{name}-{}", std::process::id()))
            .unwrap_or_else(|why| panic!("cgroups cannot be had here: {why}"))
    }

    #[test]
    fn a_child_and_what_it_starts_with_setsid_are_ended_with_its_cgroup() {
        let run = run_cgroup("setsid");
        let unit = run.child("step setsid/x").unwrap();
        assert!(
            unit.dir().ends_with("u-step_setsid_x"),
            "{}",
            unit.dir().display()
        );
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "setsid sleep 300 >/dev/null 2>&1 & env -i setsid sleep 301 >/dev/null 2>&1 & echo started",
        ]);
        command.stdout(std::process::Stdio::piped());
        unit.join_on_exec(&mut command).unwrap();
        let out = command.spawn().unwrap().wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "started\n");
        // The shell is gone; its setsid'd children are in the cgroup still.
        let until = Instant::now() + Duration::from_secs(5);
        while run.pids().len() < 2 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        let pids = run.pids();
        assert_eq!(pids.len(), 2, "{pids:?}");
        assert!(run.usage().cpu_usec.is_some());
        assert_eq!(run.kill(), 2);
        for pid in pids {
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = state.rsplit(") ").next().unwrap_or("").chars().next();
            assert!(matches!(state, None | Some('Z')), "{pid} lives: {state:?}");
        }
        run.remove();
        assert!(!run.dir().exists());
    }

    #[test]
    fn only_a_cgroup_folder_is_taken_for_one() {
        assert_eq!(Cgroup::at(Path::new("/tmp")), None);
        let run = run_cgroup("at");
        assert_eq!(Cgroup::at(run.dir()), Some(run.clone()));
        // A run's record is a step's to rewrite: a path through `..` to a
        // folder that looks like a cgroup is not one.
        let planted = tempfile::tempdir().unwrap();
        let planted = planted.path();
        std::fs::write(planted.join("cgroup.procs"), "0\n").unwrap();
        let mut through = run.dir().to_path_buf();
        for _ in run.dir().components().skip(1) {
            through.push("..");
        }
        let through = through.join(planted.strip_prefix("/").unwrap());
        assert!(through.join("cgroup.procs").is_file());
        assert_eq!(Cgroup::at(&through), None);
        run.remove();
    }

    #[test]
    fn a_pin_that_is_no_namespace_is_removed_and_nothing_else_is_touched() {
        let dir = tempfile::tempdir().unwrap();
        // A FIFO: opened as it is, it would wait for a writer for ever.
        let fifo = dir.path().join("1.cgroupns");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(Namespace::sweep_pinned(&fifo).unwrap(), Vec::new());
        assert!(!fifo.exists());
        // A link to a folder: the link goes, never what it points at.
        let target = dir.path().join("kept");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("file"), "kept").unwrap();
        let link = dir.path().join("2.cgroupns");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(Namespace::sweep_pinned(&link).unwrap(), Vec::new());
        assert!(std::fs::symlink_metadata(&link).is_err());
        assert_eq!(
            std::fs::read_to_string(target.join("file")).unwrap(),
            "kept"
        );
        // A plain file (a pin after a reboot): removed.
        let plain = dir.path().join("3.cgroupns");
        std::fs::write(&plain, "").unwrap();
        assert_eq!(Namespace::sweep_pinned(&plain).unwrap(), Vec::new());
        assert!(!plain.exists());
    }
}

/// The cgroup namespace a child was started in ([`Cgroup::join_on_exec`]),
/// held open so that its number cannot pass to another namespace while it
/// is watched: every process the child starts carries it, whatever cgroup,
/// process group or environment it moves to (short of leaving the
/// namespace too: `unshare -C` or `setns`, which take root).
///
/// Pinned to a file ([`Namespace::pin_at`]: a bind mount of it, as `ip
/// netns` pins a network namespace), it outlives a Reprise killed while it
/// is watched, still with its own number, and the next look at the file
/// ([`Namespace::sweep_pinned`]) ends what moved out of the cgroup
/// meanwhile. Dropped, it is unpinned.
#[derive(Debug)]
pub struct Namespace {
    inode: u64,
    held: File,
    pinned: Option<PathBuf>,
}

/// The filesystem of namespace files (`NSFS_MAGIC`).
const NSFS_MAGIC: u64 = 0x6e73_6673;

/// Whether `path` is a namespace file (a pinned namespace, `/proc/PID/ns/*`).
pub fn is_namespace_file(path: &Path) -> bool {
    rustix::fs::statfs(path).is_ok_and(|fs| fs.f_type as u64 == NSFS_MAGIC)
}

impl Drop for Namespace {
    fn drop(&mut self) {
        if let Some(at) = self.pinned.take() {
            let _ = unpin(&at);
        }
    }
}

/// Removes the pin at `at`: its mount (never through a link put in its
/// place), then the file.
fn unpin(at: &Path) -> io::Result<()> {
    use rustix::mount::UnmountFlags;
    let _ = rustix::mount::unmount(at, UnmountFlags::DETACH | UnmountFlags::NOFOLLOW);
    match std::fs::remove_file(at) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// A process that left its cgroup and was ended: `pid 4242 (sleep)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escaped {
    pub pid: u32,
    pub command: String,
}

impl Escaped {
    /// What `ended` did, as a log says it: `a process it started moved out
    /// of OUT_OF and was ended: pid 4242 (sleep)`, or `2 processes …`.
    pub fn words(ended: &[Escaped], out_of: &str) -> String {
        let pids: Vec<String> = ended.iter().map(ToString::to_string).collect();
        match ended.len() {
            1 => format!(
                "a process it started moved out of {out_of} and was ended: {}",
                pids[0]
            ),
            n => format!(
                "{n} processes it started moved out of {out_of} and were ended: {}",
                pids.join(", ")
            ),
        }
    }
}

impl std::fmt::Display for Escaped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pid {} ({})", self.pid, self.command)
    }
}

impl Namespace {
    /// The cgroup namespace of the child `pid`, where it has one other than
    /// this process's (none where it could not make one).
    pub fn of_child(pid: u32) -> Option<Namespace> {
        let own = ns_inode(std::process::id())?;
        let held = File::open(format!("/proc/{pid}/ns/cgroup")).ok()?;
        let inode = std::os::unix::fs::MetadataExt::ino(&held.metadata().ok()?);
        (inode != own).then_some(Namespace {
            inode,
            held,
            pinned: None,
        })
    }

    /// Pins the namespace at `at`, a file made for it (never one that is
    /// there already): a bind mount of the namespace, which keeps it, and
    /// its number, until it is unpinned.
    pub fn pin_at(&mut self, at: &Path) -> io::Result<()> {
        File::options().write(true).create_new(true).open(at)?;
        let source = format!("/proc/self/fd/{}", self.held.as_raw_fd());
        if let Err(e) = rustix::mount::mount_bind(source.as_str(), at) {
            let _ = std::fs::remove_file(at);
            return Err(e.into());
        }
        self.pinned = Some(at.to_path_buf());
        Ok(())
    }

    /// Ends what is in the namespace pinned at `at` (by a Reprise killed
    /// while it watched it) and unpins it; names what it ended. A file that
    /// is not a pinned namespace (a link, a FIFO, a file of another file
    /// system), or pins this process's own namespace or the first
    /// process's, ends nothing: it is only removed, never unmounted through.
    /// `Err` where the pin cannot be removed (its folder then stays).
    pub fn sweep_pinned(at: &Path) -> io::Result<Vec<Escaped>> {
        // A regular file as listed, opened without following a link or
        // waiting on a FIFO put in its place since.
        let pinned = std::fs::symlink_metadata(at)
            .ok()
            .filter(|m| m.is_file())
            .and_then(|_| {
                File::options()
                    .read(true)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                    .open(at)
                    .ok()
            })
            .filter(|f| rustix::fs::fstatfs(f).is_ok_and(|fs| fs.f_type as u64 == NSFS_MAGIC));
        let Some(held) = pinned else {
            std::fs::remove_file(at)?;
            return Ok(Vec::new());
        };
        let inode = held
            .metadata()
            .map_or(0, |m| std::os::unix::fs::MetadataExt::ino(&m));
        let namespace = Namespace {
            inode,
            held,
            pinned: Some(at.to_path_buf()),
        };
        let others = [ns_inode(std::process::id()), ns_inode(1)];
        let ended = if inode == 0 || others.contains(&Some(inode)) {
            Vec::new()
        } else {
            namespace.sweep()
        };
        let mut namespace = namespace;
        if let Some(at) = namespace.pinned.take() {
            unpin(&at)?;
        }
        Ok(ended)
    }

    /// The number the kernel gives it (`cgroup:[4026532451]`).
    pub fn inode(&self) -> u64 {
        self.inode
    }

    /// Every process still in the namespace once its cgroup was killed —
    /// those that moved themselves out of it — killed (SIGKILL) and named.
    pub fn sweep(&self) -> Vec<Escaped> {
        let me = std::process::id();
        let mut ended = Vec::new();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return ended;
        };
        for pid in entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| pid > 1 && pid != me)
        {
            if ns_inode(pid) != Some(self.inode) {
                continue;
            }
            let command = std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .map(|c| c.trim().to_string())
                .unwrap_or_default();
            // The namespace is held open, so the pid read from it is one of
            // its processes.
            crate::signal_process(pid, libc::SIGKILL);
            ended.push(Escaped { pid, command });
        }
        ended
    }
}

/// The inode of `/proc/PID/ns/cgroup`.
fn ns_inode(pid: u32) -> Option<u64> {
    std::fs::metadata(format!("/proc/{pid}/ns/cgroup"))
        .ok()
        .map(|m| std::os::unix::fs::MetadataExt::ino(&m))
}
