//! The many-people load of post 004: simulated people, each signed in with
//! their own session and holding an Action Cable connection with the
//! subscriptions their page makes, navigating and posting; people added in
//! steps; every page, every delivery and every acknowledged write checked.
//!
//! People run as tasks (two small ones each) on a few generator threads, each
//! a current-thread runtime, optionally pinned: no thread per person, and no
//! one thread holding every person's burst of deliveries. What they share —
//! who views which room, the posts owed to viewers, the step's tally — sits
//! behind one mutex, taken briefly and never across an await.

mod browser;
mod page;
mod person;
pub mod roster;
mod tally;
mod world;

use std::collections::HashSet;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use crate::StopHandle;
use crate::connection::STOP_POLL;

pub use tally::{GeneratorCost, Latency, NavKind, PeopleReport, StepReport};

use browser::Browser;
use person::{Shared, run_person};
use world::World;

/// Shares of navigations by kind (post 004: 55 / 20 / 10 / 15).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mix {
    pub open_room: f64,
    pub scroll_history: f64,
    pub search: f64,
    pub return_to_room: f64,
}

impl Default for Mix {
    fn default() -> Mix {
        Mix {
            open_room: 0.55,
            scroll_history: 0.20,
            search: 0.10,
            return_to_room: 0.15,
        }
    }
}

/// When a step counts as served.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ServedCriterion {
    pub navigation_quantile: f64,
    pub navigation_ms: f64,
    pub max_failures: u64,
    pub delivery_quantile: f64,
    pub delivery_ms: f64,
}

impl Default for ServedCriterion {
    fn default() -> ServedCriterion {
        ServedCriterion {
            navigation_quantile: 0.99,
            navigation_ms: 100.0,
            max_failures: 0,
            delivery_quantile: 0.99,
            delivery_ms: 500.0,
        }
    }
}

/// A people load. Paths follow Campfire: `POST /session`, `/rooms/{room}`,
/// `/rooms/{room}/messages?before={message}`, `/searches?q={term}`,
/// `POST /rooms/{room}/messages`, and the cable at `cable_path`.
#[derive(Clone)]
pub struct PeopleSpec {
    /// The server, e.g. `http://127.0.0.1:3000`.
    pub base_url: String,
    pub cable_path: String,
    pub sign_in_path: String,
    /// Accounts `person{n}@example.test` (user id n + 1), all with this password.
    pub password: String,
    /// Sign-ins started per second at most (Campfire rate-limits sign-ins).
    pub sign_in_per_s: f64,
    pub accounts: u32,
    pub rooms: u32,
    /// People in each step, ascending, e.g. `[250, 500, 1000]`.
    pub steps: Vec<u32>,
    pub warmup: Duration,
    pub step_duration: Duration,
    pub navigate_every: Duration,
    pub post_every: Duration,
    pub mix: Mix,
    pub served: ServedCriterion,
    /// A path listing every saved post's client message id, one a line: the
    /// end-of-run check of every acknowledged write against the database.
    pub verify_writes_path: Option<String>,
    pub timeout: Duration,
    /// Keep each person's HTTP connection open between requests, as a browser
    /// does (two sockets a person); off, one socket a person plus requests in flight.
    pub keep_alive: bool,
    pub seed: u64,
    /// Generator threads; people are dealt to them in turn.
    pub threads: usize,
    /// CPUs for the generator threads (thread i on `cpus[i % len]`).
    pub cpus: Option<Vec<usize>>,
    /// Session cookies minted ahead of the run (`name=value`), one per
    /// account in account order: people use them instead of signing in.
    pub sessions: Option<Vec<String>>,
}

/// Every field but the password and the minted sessions (only their number).
impl std::fmt::Debug for PeopleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeopleSpec")
            .field("base_url", &self.base_url)
            .field("cable_path", &self.cable_path)
            .field("sign_in_path", &self.sign_in_path)
            .field("password", &crate::secret::HIDDEN)
            .field("sign_in_per_s", &self.sign_in_per_s)
            .field("accounts", &self.accounts)
            .field("rooms", &self.rooms)
            .field("steps", &self.steps)
            .field("warmup", &self.warmup)
            .field("step_duration", &self.step_duration)
            .field("navigate_every", &self.navigate_every)
            .field("post_every", &self.post_every)
            .field("mix", &self.mix)
            .field("served", &self.served)
            .field("verify_writes_path", &self.verify_writes_path)
            .field("timeout", &self.timeout)
            .field("keep_alive", &self.keep_alive)
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("cpus", &self.cpus)
            .field("sessions", &self.sessions.as_ref().map(Vec::len))
            .finish()
    }
}

impl PeopleSpec {
    pub fn new(base_url: impl Into<String>) -> PeopleSpec {
        PeopleSpec {
            base_url: base_url.into(),
            cable_path: "/cable".into(),
            sign_in_path: "/session".into(),
            password: "secret123".into(),
            sign_in_per_s: 200.0,
            accounts: 5000,
            rooms: 30,
            steps: vec![250, 500, 1000, 2000, 3000],
            warmup: Duration::from_secs(10),
            step_duration: Duration::from_secs(60),
            navigate_every: Duration::from_secs(10),
            post_every: Duration::from_secs(300),
            mix: Mix::default(),
            served: ServedCriterion::default(),
            verify_writes_path: None,
            timeout: Duration::from_secs(5),
            keep_alive: true,
            seed: 4,
            threads: 1,
            cpus: None,
            sessions: None,
        }
    }
}

/// Why a people load could not run.
#[derive(Debug, thiserror::Error)]
pub enum PeopleError {
    #[error("bad base URL {0:?}: expected http://host:port")]
    Url(String),
    #[error("steps must be non-empty and ascending, got {0:?}")]
    Steps(Vec<u32>),
    #[error("{have} minted sessions for {accounts} accounts: every account needs one")]
    Sessions { have: usize, accounts: u32 },
    #[error("{0}")]
    Runtime(String),
}

/// What a people load reports while it runs.
#[derive(Debug)]
pub enum PeopleProgress<'a> {
    /// About once a second: where the running step stands.
    Live(LiveStep),
    /// A step ended, with its report.
    Step(&'a StepReport),
}

/// The running step, so far.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveStep {
    /// Index into the spec's steps.
    pub step: usize,
    pub people: u32,
    /// Warming up (nothing recorded yet) or measuring.
    pub measuring: bool,
    /// Time into the warm-up or the measurement.
    pub elapsed: Duration,
    pub navigations: u64,
    pub navigation_p99_ms: Option<f64>,
    pub failures: u64,
}

/// Runs every step; `progress` sees each step's report as it ends.
pub fn run_people(
    spec: &PeopleSpec,
    mut progress: impl FnMut(&StepReport),
) -> Result<PeopleReport, PeopleError> {
    run_people_until(spec, &StopHandle::default(), |p| {
        if let PeopleProgress::Step(step) = p {
            progress(step)
        }
    })
}

/// Runs every step until `stop` is stopped: then the people stop, the
/// report holds the steps that ended, and says it was stopped.
pub fn run_people_until(
    spec: &PeopleSpec,
    stop: &StopHandle,
    mut progress: impl FnMut(PeopleProgress<'_>),
) -> Result<PeopleReport, PeopleError> {
    if spec.steps.is_empty() || spec.steps.windows(2).any(|w| w[0] > w[1]) {
        return Err(PeopleError::Steps(spec.steps.clone()));
    }
    if let Some(sessions) = &spec.sessions
        && (sessions.len() as u64) < u64::from(spec.accounts.max(1))
    {
        return Err(PeopleError::Sessions {
            have: sessions.len(),
            accounts: spec.accounts,
        });
    }
    let addr = address(&spec.base_url)?;
    let memberships: Vec<Vec<u32>> = (0..spec.accounts.max(1))
        .map(|a| roster::seeded_rooms(a, spec.rooms))
        .collect();
    let mut room_sizes = vec![0u32; spec.rooms as usize + 1];
    for rooms in &memberships {
        for &r in rooms {
            room_sizes[r as usize] += 1;
        }
    }
    let shared = Arc::new(Shared {
        spec: spec.clone(),
        addr,
        memberships,
        world: Mutex::new(World::new(spec.rooms, room_sizes, lost_after(spec))),
        stopped: AtomicBool::new(false),
    });
    let threads = spec.threads.max(1);
    let (steps, runtime_error) = std::thread::scope(|scope| {
        let mut senders = Vec::with_capacity(threads);
        let mut tickers = Vec::with_capacity(threads);
        let mut shards = Vec::with_capacity(threads);
        for shard in 0..threads {
            let (to_shard, from_controller) = unbounded_channel();
            let (ticker, ticks) = unbounded_channel();
            let cpu = spec
                .cpus
                .as_ref()
                .filter(|c| !c.is_empty())
                .map(|c| c[shard % c.len()]);
            let shared = shared.clone();
            shards.push(
                scope.spawn(move || run_shard(shared, shard, threads, cpu, from_controller, ticks)),
            );
            senders.push(to_shard);
            tickers.push(ticker);
        }
        let ticking = shared.clone();
        scope.spawn(move || tick(&ticking, &tickers));
        let steps = drive_steps(&shared, &senders, stop, &mut progress);
        shared.stopped.store(true, Ordering::Relaxed);
        drop(senders);
        let runtime_error = shards
            .into_iter()
            .filter_map(|s| {
                s.join()
                    .unwrap_or_else(|_| Err("a generator thread panicked".into()))
                    .err()
            })
            .next();
        (steps, runtime_error)
    });
    if let Some(e) = runtime_error {
        return Err(PeopleError::Runtime(e));
    }
    let stopped = stop.is_stopped();
    let acknowledged = shared.world().acknowledged.clone();
    let unsaved = match (&spec.verify_writes_path, stopped) {
        (Some(path), false) => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| PeopleError::Runtime(e.to_string()))?;
            let local = tokio::task::LocalSet::new();
            Some(local.block_on(
                &runtime,
                unsaved_writes(addr, path, spec.timeout, &acknowledged),
            ))
        }
        _ => None,
    };
    let retries = shared.world().sign_in_retries;
    Ok(finish(
        steps,
        acknowledged.len() as u64,
        retries,
        unsaved,
        stopped,
    ))
}

/// The controller: adds each step's people, warms up, measures, settles the
/// step's deliveries and reports it. Returns the steps that ended.
fn drive_steps(
    shared: &Shared,
    shards: &[UnboundedSender<usize>],
    stop: &StopHandle,
    progress: &mut impl FnMut(PeopleProgress<'_>),
) -> Vec<StepReport> {
    let spec = &shared.spec;
    let grace = lost_after(spec);
    let mut steps = Vec::new();
    for (k, &people) in spec.steps.iter().enumerate() {
        {
            let mut world = shared.world();
            world.step = k;
            world.measuring = false;
        }
        for shard in shards {
            let _ = shard.send(people as usize);
        }
        if !wait(shared, k, people, spec.warmup, stop, progress) {
            break;
        }
        {
            let mut world = shared.world();
            world.tally = tally::Tally::new();
            world.measuring = true;
        }
        if !wait(shared, k, people, spec.step_duration, stop, progress) {
            break;
        }
        shared.world().measuring = false;
        std::thread::sleep(grace);
        let mut world = shared.world();
        world.settle_step(k, Instant::now() - grace);
        let report = world.tally.report(people, &spec.served);
        drop(world);
        progress(PeopleProgress::Step(&report));
        steps.push(report);
    }
    steps
}

/// Sleeps `length` in short slices, reporting the step about once a second;
/// false when `stop` was stopped.
fn wait(
    shared: &Shared,
    step: usize,
    people: u32,
    length: Duration,
    stop: &StopHandle,
    progress: &mut impl FnMut(PeopleProgress<'_>),
) -> bool {
    let started = Instant::now();
    let end = started + length;
    let mut next_report = started + LIVE_EVERY;
    loop {
        if stop.is_stopped() {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        if now >= next_report {
            next_report += LIVE_EVERY;
            let live = shared.world().live(step, people, now - started);
            progress(PeopleProgress::Live(live));
        }
        std::thread::sleep((end - now).min(next_report - now).min(STOP_POLL));
    }
}

const LIVE_EVERY: Duration = Duration::from_secs(1);

/// One generator thread: people `shard`, `shard + threads`, … as tasks on a
/// current-thread runtime, added as the controller raises the step's count.
fn run_shard(
    shared: Arc<Shared>,
    shard: usize,
    threads: usize,
    cpu: Option<usize>,
    mut people: UnboundedReceiver<usize>,
    ticks: UnboundedReceiver<Instant>,
) -> Result<(), String> {
    if let Some(cpu) = cpu {
        // Best effort: an unpinned generator still runs, only less steadily.
        let _ = reprise_cpus::pin_current_thread(cpu);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        tokio::task::spawn_local(measure_timer_lag(shared.clone(), ticks));
        let mut next = shard;
        while let Some(target) = people.recv().await {
            while next < target {
                tokio::task::spawn_local(run_person(shared.clone(), next));
                next += threads;
            }
        }
    });
    Ok(())
}

fn finish(
    mut steps: Vec<StepReport>,
    acknowledged: u64,
    sign_in_retries: u64,
    unsaved: Option<Result<Vec<String>, String>>,
    stopped: bool,
) -> PeopleReport {
    let unsaved_writes = match unsaved {
        None => None,
        Some(Ok(missing)) => {
            if let (Some(last), false) = (steps.last_mut(), missing.is_empty()) {
                last.failures += missing.len() as u64;
                *last
                    .failures_by_cause
                    .entry("unsaved_write".into())
                    .or_default() += missing.len() as u64;
                last.failure_samples.push(format!(
                    "unsaved_write: acknowledged but not in the database: {}",
                    missing
                        .iter()
                        .take(5)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                last.served = false;
                last.not_served.push(format!(
                    "{} acknowledged writes missing from the database",
                    missing.len()
                ));
            }
            Some(missing.len() as u64)
        }
        Some(Err(why)) => {
            if let Some(last) = steps.last_mut() {
                last.failures += 1;
                *last
                    .failures_by_cause
                    .entry("verify_writes".into())
                    .or_default() += 1;
                last.failure_samples.push(format!("verify_writes: {why}"));
                last.served = false;
                last.not_served.push(format!(
                    "the acknowledged writes could not be checked: {why}"
                ));
            }
            None
        }
    };
    let served = !stopped && steps.iter().all(|s| s.served);
    PeopleReport {
        steps,
        acknowledged_writes: acknowledged,
        sign_in_retries,
        unsaved_writes,
        served,
        stopped,
    }
}

/// The acknowledged writes the database listing at `path` does not have.
async fn unsaved_writes(
    addr: SocketAddr,
    path: &str,
    timeout: Duration,
    acknowledged: &[String],
) -> Result<Vec<String>, String> {
    let mut browser = Browser::new(addr, timeout, true);
    let mut body = Vec::new();
    let fetched = browser
        .fetch("GET", path, None, "text/plain", &mut body)
        .await
        .map_err(|e| format!("GET {path}: {e:?}"))?;
    if fetched.status != 200 {
        return Err(format!("GET {path}: {}", fetched.status));
    }
    let text = String::from_utf8_lossy(&body);
    let saved: HashSet<&str> = text.lines().map(str::trim).collect();
    Ok(acknowledged
        .iter()
        .filter(|id| !saved.contains(id.as_str()))
        .cloned()
        .collect())
}

/// The generator's timer lag: a side thread's precise 1 ms timer (the OS's
/// nanosleep) sends each generator thread a tick stamped with when it fired,
/// and the thread's loop records how much later it got to it. Tokio's own
/// timers round to whole milliseconds (and so does the wait for events when
/// idle), which alone would show up to 2 ms of lag on an idle generator;
/// this measures the generator, not that rounding.
fn tick(shared: &Shared, tickers: &[UnboundedSender<Instant>]) {
    while !shared.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
        let fired = Instant::now();
        for ticker in tickers {
            let _ = ticker.send(fired);
        }
    }
}

/// Records, while measuring, how late this generator thread handles each tick.
async fn measure_timer_lag(shared: Arc<Shared>, mut ticks: UnboundedReceiver<Instant>) {
    while let Some(fired) = ticks.recv().await {
        let late = fired.elapsed();
        let mut world = shared.world();
        if world.measuring {
            world.tally.lagged(late);
        }
    }
}

/// How long a post may take to reach a viewer before it counts as lost:
/// twice the served limit, at least a second.
fn lost_after(spec: &PeopleSpec) -> Duration {
    Duration::from_secs_f64((spec.served.delivery_ms * 2.0 / 1000.0).max(1.0))
}

fn address(base_url: &str) -> Result<SocketAddr, PeopleError> {
    let bad = || PeopleError::Url(base_url.to_owned());
    let rest = base_url.strip_prefix("http://").ok_or_else(bad)?;
    let host = rest.split('/').next().ok_or_else(bad)?;
    host.to_socket_addrs()
        .map_err(|_| bad())?
        .next()
        .ok_or_else(bad)
}
