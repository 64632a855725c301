//! A lane's server on the host: started in its own process group (pinned to
//! some CPUs where asked), waited for until its port accepts and its health
//! path answers 200, its whole process tree's memory sampled (RSS summed,
//! PSS from `smaps_rollup`), and stopped with a check that nothing is left.
//! With a run's [`RunProcesses`] its group is recorded in the run's folder
//! until it is stopped, so workers that outlive a killed Reprise are ended
//! at the next start.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::event::{CancelToken, Event};
use crate::lanes::http::LaneClient;
use crate::lanes::placement::{LaneFiles, LaneHost};
use crate::os::processes::{Cgroup, Recorder, RunProcesses, signal_group};
use crate::os::run_files::RunFile;
use crate::os::runner::container::{ContainerRunner, ContainerSpec, Network};
use reprise_spawn::{SpawnError, Spawned};

/// Why a server could not be started, did not become ready, or left
/// processes behind.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("lane `{lane}` has an empty command")]
    EmptyCommand { lane: String },
    #[error("`{program}` is not installed (not found on PATH)")]
    NotInstalled { program: String },
    #[error("could not start `{program}`: {source}")]
    Spawn { program: String, source: io::Error },
    #[error("log file {}: {source}", file.display())]
    Log { file: PathBuf, source: io::Error },
    #[error("the server exited during boot ({status})")]
    ExitedDuringBoot { status: String },
    #[error("not ready within the boot budget of {}: {what}", reprise_recipe::reading::duration_words(budget.as_secs_f64()))]
    BootBudget { budget: Duration, what: String },
    #[error(
        "the server's group is still running after SIGKILL: {}",
        crate::os::processes::pid_words(pids)
    )]
    LeftOver { pids: Vec<u32> },
    #[error(
        "port {0} already answers before the server starts: another program holds it, and its figures would be measured instead"
    )]
    PortInUse(u16),
    #[error("container engine: {0}")]
    Container(String),
    #[error("cannot ask the server's health path: {0}")]
    Health(String),
    #[error("the server's container is still running after it was stopped")]
    ContainerLeftOver,
    #[error("cannot record the server in the run's folder, so it was stopped: {0}")]
    Record(io::Error),
    #[error(transparent)]
    Outside(#[from] crate::os::run_files::Outside),
    /// Stopped, but a process it started had moved itself out of its
    /// cgroup (found by its cgroup namespace): ended, and said.
    #[error("{}", reprise_spawn::Escaped::words(ended, "its cgroup"))]
    Escaped { ended: Vec<reprise_spawn::Escaped> },
}

/// A lane that runs in a container (Docker-compatible engine), on the
/// host's network so its port is the same.
#[derive(Clone, Debug)]
pub struct ContainerPlacement {
    pub image: String,
    pub run_id: String,
    /// Bound read-write at the same path inside the container (the run's
    /// folder), so the lane's dir is the same path in both.
    pub mount: PathBuf,
    /// Where the lanes are served: the engine the container runs on, and
    /// whether the lane's dir is bound into it or copied there.
    pub host: LaneHost,
}

impl ContainerPlacement {
    fn connect(&self) -> Result<ContainerRunner, crate::os::runner::container::ContainerError> {
        self.host.connect_engine()
    }
}

/// How to start one server.
#[derive(Clone, Debug)]
pub struct ServerSpec {
    pub lane: String,
    pub argv: Vec<String>,
    pub dir: PathBuf,
    pub env: BTreeMap<String, String>,
    /// Where the server listens: 127.0.0.1, or the server host's address.
    pub address: IpAddr,
    pub port: u16,
    /// The path asked until the server is ready ([`is_up`]); `None` for a
    /// service that speaks no HTTP (Redis): ready once its port accepts.
    pub health: Option<String>,
    pub boot_budget: Duration,
    /// CPUs the server (and everything it forks) may run on.
    pub cpus: Option<Vec<usize>>,
    /// Where stdout and stderr go.
    pub log: RunFile,
    /// How long after SIGTERM before SIGKILL.
    pub grace: Duration,
    /// Run in a container instead of on the host.
    pub container: Option<ContainerPlacement>,
    /// The run whose folder records the server's process group (a
    /// container is found by its labels instead).
    pub processes: Option<RunProcesses>,
}

/// A running server.
pub struct LaneServer {
    pub spec: ServerSpec,
    backend: Backend,
    /// Time from spawn until the port accepted a connection.
    pub accept_ms: f64,
    /// Time from spawn until the health path answered as a server that is up.
    pub page_ms: f64,
    /// When it was spawned: what its boot times count from.
    pub spawned: Instant,
    stopped: bool,
}

/// Memory of a process tree at one moment, in kB.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MemorySample {
    pub rss_kb: u64,
    pub pss_kb: u64,
    pub processes: usize,
    /// What the lane's cgroup counts (`memory.current`: its processes'
    /// pages, those that left the group included, and their page cache),
    /// where it has one with the memory controller.
    pub cgroup_kb: Option<u64>,
}

enum Backend {
    /// The group's leader, its record in the run's folder and its cgroup.
    Process(Spawned),
    Container(ContainerLane),
}

struct ContainerLane {
    cancel: CancelToken,
    /// The runner's result once the container ended.
    thread: Option<JoinHandle<Result<String, String>>>,
    placement: ContainerPlacement,
    step: String,
    /// When the container was started (its folder copied in first).
    started: std::sync::mpsc::Receiver<Instant>,
    /// The engine connection memory is sampled over, made once.
    sampler: Sampler,
}

impl ContainerLane {
    fn start(
        spec: &ServerSpec,
        placement: &ContainerPlacement,
    ) -> Result<ContainerLane, ServerError> {
        // Connect here, so an engine that does not answer is a boot error.
        placement
            .connect()
            .map_err(|e| ServerError::Container(e.to_string()))?;
        let step = format!("lane-{}", spec.lane);
        let mut c = ContainerSpec::new(
            &step,
            &placement.run_id,
            &placement.image,
            spec.argv.clone(),
        );
        c.env = spec.env.clone();
        match placement.host.lane_files() {
            LaneFiles::Copied => c
                .copies
                .push((spec.dir.clone(), spec.dir.display().to_string())),
            LaneFiles::Bound => {
                let mount = placement.mount.display().to_string();
                c.binds.push((placement.mount.clone(), mount, false));
            }
        }
        c.workdir = Some(spec.dir.display().to_string());
        c.network = Network::Host;
        c.cpuset = spec.cpus.as_ref().map(|cpus| {
            cpus.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        });
        c.grace = spec.grace;
        c.log = Some(spec.log.clone());
        let (started, started_at) = std::sync::mpsc::channel();
        c.started = Some(started);
        let cancel = CancelToken::new();
        let stop = cancel.clone();
        let engine = placement.clone();
        let thread = std::thread::spawn(move || {
            let runner = engine.connect().map_err(|e| e.to_string())?;
            runner
                .run(&c, &stop, &|_: Event| {})
                .map(|o| match (o.ending, o.code) {
                    (crate::os::runner::host::Ending::Exited, Some(code)) => {
                        format!("the container exited with code {code}")
                    }
                    (crate::os::runner::host::Ending::Exited, None) => {
                        "the container exited".to_string()
                    }
                    (crate::os::runner::host::Ending::TimedOut, _) => {
                        "the container ran past its time and was stopped".to_string()
                    }
                    (crate::os::runner::host::Ending::Cancelled, _) => {
                        "the container was stopped (cancelled)".to_string()
                    }
                })
                .map_err(|e| e.to_string())
        });
        Ok(ContainerLane {
            cancel,
            thread: Some(thread),
            placement: placement.clone(),
            step,
            started: started_at,
            sampler: Sampler::default(),
        })
    }

    /// When the container started, once its folder is copied in (within
    /// `budget`); now, where it never started (its end then says why).
    fn started(&self, budget: Duration) -> Instant {
        self.started
            .recv_timeout(budget)
            .unwrap_or_else(|_| Instant::now())
    }

    /// How it ended, once it has.
    fn ended(&mut self) -> Option<String> {
        if self.thread.as_ref().is_some_and(|t| t.is_finished()) {
            let result = self.thread.take().map(|t| t.join());
            return Some(match result {
                Some(Ok(Ok(s))) | Some(Ok(Err(s))) => s,
                _ => "the container's runner stopped".into(),
            });
        }
        self.thread.is_none().then(|| "stopped".into())
    }

    fn memory(&self) -> MemorySample {
        container_memory(&self.placement, &self.step, &self.sampler)
    }

    fn stop(&mut self) -> Result<(), ServerError> {
        self.cancel.cancel();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let runner = self
            .placement
            .connect()
            .map_err(|e| ServerError::Container(e.to_string()))?;
        match runner.memory_kb(&self.placement.run_id, &self.step) {
            Ok(None) => Ok(()),
            Ok(Some(_)) => Err(ServerError::ContainerLeftOver),
            Err(e) => Err(ServerError::Container(e.to_string())),
        }
    }
}

/// A container lane's engine connection for memory samples: made at the
/// first sample and kept (a new TLS connection a second would load the link
/// being measured).
type Sampler = Arc<std::sync::Mutex<Option<ContainerRunner>>>;

fn container_memory(placement: &ContainerPlacement, step: &str, sampler: &Sampler) -> MemorySample {
    let mut runner = sampler.lock().unwrap_or_else(|p| p.into_inner());
    if runner.is_none() {
        *runner = placement.connect().ok();
    }
    let usage = runner
        .as_ref()
        .and_then(|r| r.memory_kb(&placement.run_id, step).ok().flatten());
    match usage {
        Some(kb) => MemorySample {
            rss_kb: kb,
            processes: 1,
            ..MemorySample::default()
        },
        None => MemorySample::default(),
    }
}

/// Whether an answer says the server is up: any HTTP answer but a proxy's
/// "no one behind me yet" (502, 503), as the posts' harness waits for its
/// lanes (`wait_for_port`). A 302 to a sign-in page is up, and so is an
/// app whose `/up` answers 500 (the emitted Campfire at some revisions):
/// whether its routes answer well is the check step's to say, per route.
pub fn is_up(status: u16) -> bool {
    !matches!(status, 502 | 503)
}

impl LaneServer {
    /// Starts the server and waits until it is ready, within its boot budget.
    pub fn start(spec: &ServerSpec) -> Result<LaneServer, ServerError> {
        let addr = SocketAddr::new(spec.address, spec.port);
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return Err(ServerError::PortInUse(spec.port));
        }
        let mut started = Instant::now();
        let backend = match &spec.container {
            Some(placement) => {
                let lane = ContainerLane::start(spec, placement)?;
                // The copy of the lane's folder to a server host is not boot.
                started = lane.started(Duration::from_secs(600));
                Backend::Container(lane)
            }
            None => Backend::Process(Self::spawn(spec)?),
        };
        let mut server = LaneServer {
            spec: spec.clone(),
            backend,
            accept_ms: 0.0,
            page_ms: 0.0,
            spawned: started,
            stopped: false,
        };
        server.wait_ready(started)?;
        Ok(server)
    }

    fn spawn(spec: &ServerSpec) -> Result<Spawned, ServerError> {
        let program = spec.argv.first().ok_or_else(|| ServerError::EmptyCommand {
            lane: spec.lane.clone(),
        })?;
        let log = spec.log.append().map_err(|source| ServerError::Log {
            file: spec.log.path(),
            source,
        })?;
        let log_err = log.try_clone().map_err(|source| ServerError::Log {
            file: spec.log.path(),
            source,
        })?;
        let mut command = Command::new(program);
        command
            .args(&spec.argv[1..])
            .current_dir(&spec.dir)
            .envs(&spec.env)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err);
        let what = format!("lane {}: {program}", spec.lane);
        let cpus = spec.cpus.as_deref().unwrap_or_default();
        let recorder = spec.processes.as_ref().map(|p| p as &dyn Recorder);
        reprise_spawn::spawn(&mut command, &what, cpus, recorder).map_err(|e| match e {
            SpawnError::NotFound { program } => ServerError::NotInstalled { program },
            SpawnError::Spawn { program, source } => ServerError::Spawn { program, source },
            SpawnError::Record { source, .. } => ServerError::Record(source),
        })
    }

    /// How the server ended, if it has.
    fn ended(&mut self) -> Option<String> {
        match &mut self.backend {
            Backend::Process(Spawned { child, .. }) => match child.try_wait() {
                Ok(Some(status)) => Some(status.to_string()),
                Ok(None) => None,
                Err(e) => Some(e.to_string()),
            },
            Backend::Container(c) => c.ended(),
        }
    }

    fn wait_ready(&mut self, started: Instant) -> Result<(), ServerError> {
        let spec = self.spec.clone();
        let server = self;
        let addr = SocketAddr::new(spec.address, spec.port);
        let deadline = started + spec.boot_budget;
        let client =
            LaneClient::new(spec.address).map_err(|e| ServerError::Health(e.to_string()))?;
        let mut accepted = None;
        let mut last = String::from("the port never accepted a connection");
        loop {
            if let Some(status) = server.ended() {
                let _ = server.stop();
                return Err(ServerError::ExitedDuringBoot { status });
            }
            if Instant::now() >= deadline {
                let _ = server.stop();
                return Err(ServerError::BootBudget {
                    budget: spec.boot_budget,
                    what: last,
                });
            }
            if accepted.is_none()
                && TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok()
            {
                accepted = Some(started.elapsed());
            }
            if let Some(at) = accepted {
                let Some(health) = &spec.health else {
                    (server.accept_ms, server.page_ms) = (ms(at), ms(at));
                    return Ok(());
                };
                match client.get(spec.port, health, &[], Duration::from_secs(5)) {
                    Ok(r) if is_up(r.status) => {
                        server.page_ms = ms(started.elapsed());
                        server.accept_ms = ms(at);
                        return Ok(());
                    }
                    Ok(r) => last = format!("GET {health} answered {}", r.status),
                    Err(e) => last = format!("GET {health}: {e}"),
                }
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// The process group leader's pid (also the group's id); `None` for a
    /// container.
    pub fn pid(&self) -> Option<u32> {
        match &self.backend {
            Backend::Process(spawned) => Some(spawned.child.id()),
            Backend::Container(_) => None,
        }
    }

    /// The server's live processes, read from this machine's /proc: its
    /// process group, or a container's first process (the engine's
    /// `State.Pid`, where the engine runs on this machine) and its
    /// descendants. Empty where they cannot be read from here.
    pub fn processes(&self) -> Vec<u32> {
        match &self.backend {
            Backend::Process(spawned) => group_members(spawned.child.id()),
            Backend::Container(c) if matches!(c.placement.host, LaneHost::ThisMachine) => c
                .placement
                .connect()
                .ok()
                .and_then(|r| r.host_pid(&c.placement.run_id, &c.step).ok().flatten())
                .map(crate::os::processes::process_tree)
                .unwrap_or_default(),
            Backend::Container(_) => Vec::new(),
        }
    }

    /// Whether the server is still running.
    pub fn is_running(&mut self) -> bool {
        !self.stopped && self.ended().is_none()
    }

    /// Memory of the whole process group (and its cgroup), or of the
    /// container, now.
    pub fn memory(&self) -> MemorySample {
        match &self.backend {
            Backend::Process(spawned) => process_memory(spawned.child.id(), &spawned.cgroup),
            Backend::Container(c) => c.memory(),
        }
    }

    /// The CPU time its cgroup has counted so far, in microseconds, where
    /// it has one: its processes' and those of every one they started,
    /// whichever group they are in.
    pub fn cpu_usec(&self) -> Option<u64> {
        match &self.backend {
            Backend::Process(spawned) => spawned.cgroup.as_ref()?.usage().cpu_usec,
            Backend::Container(_) => None,
        }
    }

    /// What its processes have had of the CPU so far, where it runs on this
    /// machine: the CPU time its cgroup counted (else its threads'), and
    /// each thread's time on the CPU and waiting for one.
    pub fn cpu_counters(&self) -> Option<CpuCounters> {
        match &self.backend {
            Backend::Process(spawned) => {
                let mut pids = group_members(spawned.child.id());
                if let Some(cgroup) = &spawned.cgroup {
                    pids.extend(cgroup.pids());
                }
                pids.sort_unstable();
                pids.dedup();
                Some(CpuCounters {
                    cgroup_usec: spawned.cgroup.as_ref().and_then(|c| c.usage().cpu_usec),
                    threads: thread_schedstats(&pids),
                })
            }
            Backend::Container(_) => None,
        }
    }

    /// Samples the memory every `every` until the returned sampler is
    /// finished; it keeps the peak.
    pub fn sample_memory(&self, every: Duration) -> MemorySampler {
        let probe: Box<dyn Fn() -> MemorySample + Send> = match &self.backend {
            Backend::Process(spawned) => {
                let (pgid, cgroup) = (spawned.child.id(), spawned.cgroup.clone());
                Box::new(move || process_memory(pgid, &cgroup))
            }
            Backend::Container(c) => {
                let (placement, step, sampler) =
                    (c.placement.clone(), c.step.clone(), c.sampler.clone());
                Box::new(move || container_memory(&placement, &step, &sampler))
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let mut peak = MemorySample::default();
            loop {
                let now = probe();
                peak.rss_kb = peak.rss_kb.max(now.rss_kb);
                peak.pss_kb = peak.pss_kb.max(now.pss_kb);
                peak.processes = peak.processes.max(now.processes);
                peak.cgroup_kb = peak.cgroup_kb.max(now.cgroup_kb);
                let until = Instant::now() + every;
                while Instant::now() < until {
                    if flag.load(Ordering::SeqCst) {
                        return peak;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        });
        MemorySampler { stop, handle }
    }

    /// The last `lines` lines of the server's log.
    pub fn log_tail(&self, lines: usize) -> String {
        log_tail(&self.spec.log.path(), lines)
    }

    /// SIGTERM to the group, SIGKILL after the grace period, then checks that
    /// no process of the group is left.
    pub fn stop(&mut self) -> Result<(), ServerError> {
        let grace = self.spec.grace;
        let was_stopped = std::mem::replace(&mut self.stopped, true);
        let spawned = match &mut self.backend {
            Backend::Container(c) => return c.stop(),
            Backend::Process(spawned) => spawned,
        };
        let child = &mut spawned.child;
        let pid = child.id();
        if !was_stopped {
            signal_group(pid, libc::SIGTERM);
            let until = Instant::now() + grace;
            while Instant::now() < until && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        // Whatever is left of the group (workers that outlived their master)
        // goes now.
        signal_group(pid, libc::SIGKILL);
        let _ = child.wait();
        // And whatever left the group but not the lane's cgroup, and what
        // left the cgroup too.
        let escaped = spawned.end_cgroup();
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let left = group_members(pid);
            if left.is_empty() {
                if let Some(recorded) = spawned.record.take() {
                    recorded.forget_if_ended();
                }
                if !escaped.is_empty() {
                    return Err(ServerError::Escaped { ended: escaped });
                }
                return Ok(());
            }
            if Instant::now() >= until {
                return Err(ServerError::LeftOver { pids: left });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for LaneServer {
    fn drop(&mut self) {
        match &mut self.backend {
            Backend::Process(spawned) => {
                signal_group(spawned.child.id(), libc::SIGKILL);
                let _ = spawned.child.wait();
                spawned.end_cgroup();
                if let Some(recorded) = spawned.record.take() {
                    recorded.forget_if_ended();
                }
            }
            Backend::Container(c) => {
                let _ = c.stop();
            }
        }
    }
}

/// A running memory sampler.
pub struct MemorySampler {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<MemorySample>,
}

impl MemorySampler {
    /// Stops sampling; returns the peak.
    pub fn finish(self) -> MemorySample {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.join().unwrap_or_default()
    }
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0 * 10.0).round() / 10.0
}

/// The pids of every process (not a zombie) whose process group is `pgid`.
pub fn group_members(pgid: u32) -> Vec<u32> {
    crate::os::processes::group_members(pgid)
}

/// What a server's processes have had of the CPU up to a moment.
#[derive(Clone, Debug, Default)]
pub struct CpuCounters {
    /// Its cgroup's CPU time, in microseconds, where it has one.
    cgroup_usec: Option<u64>,
    /// Each thread's time on a CPU and time runnable waiting for one, in
    /// nanoseconds (`/proc/PID/task/TID/schedstat`), by thread id.
    threads: BTreeMap<u32, (u64, u64)>,
}

impl CpuCounters {
    /// The CPU time and the wait for a CPU between `earlier` and this
    /// reading, in seconds. CPU time is the cgroup's where both have it (it
    /// keeps what ended processes used), else the threads'; a thread started
    /// in between counts whole, one that ended in between is lost.
    pub fn since(&self, earlier: &CpuCounters) -> (f64, f64) {
        let (mut run_ns, mut wait_ns) = (0u64, 0u64);
        for (tid, (run, wait)) in &self.threads {
            let (run0, wait0) = earlier.threads.get(tid).copied().unwrap_or((0, 0));
            run_ns += run.saturating_sub(run0);
            wait_ns += wait.saturating_sub(wait0);
        }
        let cpu_s = match (self.cgroup_usec, earlier.cgroup_usec) {
            (Some(now), Some(then)) => now.saturating_sub(then) as f64 / 1e6,
            _ => run_ns as f64 / 1e9,
        };
        (cpu_s, wait_ns as f64 / 1e9)
    }
}

/// Every thread's schedstat (time on a CPU, time waiting for one) of the
/// processes `pids`.
fn thread_schedstats(pids: &[u32]) -> BTreeMap<u32, (u64, u64)> {
    let mut threads = BTreeMap::new();
    for pid in pids {
        let tasks = Path::new("/proc").join(pid.to_string()).join("task");
        for task in std::fs::read_dir(tasks).into_iter().flatten().flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else {
                continue;
            };
            let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().ok());
            if let (Some(Some(run)), Some(Some(wait))) = (fields.next(), fields.next()) {
                threads.insert(tid, (run, wait));
            }
        }
    }
    threads
}

/// The steal time of `cpus` (every CPU where `None`) so far, in seconds
/// (`/proc/stat`'s eighth field, in clock ticks of 1/100 s).
pub fn steal_seconds(cpus: Option<&[usize]>) -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let mut ticks = 0u64;
    let mut found = false;
    for line in stat.lines() {
        let mut fields = line.split_whitespace();
        let Some(name) = fields.next() else { continue };
        let Some(n) = name.strip_prefix("cpu").filter(|n| !n.is_empty()) else {
            continue;
        };
        let Ok(n) = n.parse::<usize>() else { continue };
        if cpus.is_some_and(|c| !c.contains(&n)) {
            continue;
        }
        ticks += fields.nth(6).and_then(|f| f.parse::<u64>().ok())?;
        found = true;
    }
    // USER_HZ is 100 on every Linux this runs on.
    found.then(|| ticks as f64 / 100.0)
}

/// The group's memory, with what its cgroup counts.
fn process_memory(pgid: u32, cgroup: &Option<Cgroup>) -> MemorySample {
    MemorySample {
        cgroup_kb: cgroup.as_ref().and_then(|c| c.usage().memory_kb),
        ..group_memory(pgid)
    }
}

/// RSS summed over the group's processes, and their PSS.
pub fn group_memory(pgid: u32) -> MemorySample {
    let pids = group_members(pgid);
    let mut sample = MemorySample {
        processes: pids.len(),
        ..MemorySample::default()
    };
    for pid in pids {
        let proc_dir = Path::new("/proc").join(pid.to_string());
        if let Ok(status) = std::fs::read_to_string(proc_dir.join("status")) {
            sample.rss_kb += kb_field(&status, "VmRSS:");
        }
        if let Ok(rollup) = std::fs::read_to_string(proc_dir.join("smaps_rollup")) {
            sample.pss_kb += kb_field(&rollup, "Pss:");
        }
    }
    sample
}

fn kb_field(text: &str, name: &str) -> u64 {
    text.lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The last `lines` lines of a file (reading at most its last 64 KiB).
pub fn log_tail(file: &Path, lines: usize) -> String {
    let Ok(mut f) = File::open(file) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)));
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
