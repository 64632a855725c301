//! The many-people load of post 004: simulated people, each signed in with
//! their own session and holding an Action Cable connection with the
//! subscriptions their page makes, navigating and posting; people added in
//! steps; every page, every delivery and every acknowledged write checked.
//!
//! People run on a few generator threads, each one event loop over its
//! people's sockets and timers ([`shard`]), optionally pinned: no thread or
//! task per person, and no one thread holding every person's burst of
//! deliveries. What they share — who views which room, the posts owed to
//! viewers, the step's tally — sits behind one mutex, taken briefly.

mod browser;
mod cable_socket;
mod page;
mod person;
pub mod roster;
mod shard;
mod simulation;
mod spec;
mod tally;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mio::{Poll, Waker};

use crate::StopHandle;
use crate::spec::STOP_POLL;

pub use spec::{
    InvalidSpec, MAX_ACCOUNTS, MAX_PEOPLE, MAX_ROOMS, Mix, PeopleError, PeopleSpec, ServedCriterion,
};
pub use tally::{GeneratorCost, Latency, NavKind, PeopleReport, StepReport};

use browser::{Browser, Request, fetch_waiting};
use person::Shared;
use shard::{ShardLink, WAKE, run_shard};
use simulation::Simulation;

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

/// Runs every step until `stop` is stopped: then the people stop within
/// ~0.1 s, the report holds the steps that ended, and says it was stopped.
/// A spec out of range (no rooms, no accounts, a NaN rate, a path that is
/// not a path, a server the spec's targets do not allow) is refused first.
pub fn run_people_until(
    spec: &PeopleSpec,
    stop: &StopHandle,
    mut progress: impl FnMut(PeopleProgress<'_>),
) -> Result<PeopleReport, PeopleError> {
    let addr = spec.validate()?;
    let memberships: Vec<Vec<u32>> = (0..spec.accounts.max(1))
        .map(|a| roster::seeded_rooms(a, spec.rooms))
        .collect();
    let mut room_sizes = vec![0u32; spec.rooms as usize + 1];
    for rooms in &memberships {
        for &r in rooms {
            room_sizes[r as usize] += 1;
        }
    }
    let shared = Shared {
        spec: spec.clone(),
        addr,
        memberships,
        world: Mutex::new(Simulation::new(spec.rooms, room_sizes, lost_after(spec))),
        stopped: AtomicBool::new(false),
    };
    let threads = spec.threads.max(1);
    let started = Instant::now();
    let mut polls = Vec::with_capacity(threads);
    let mut links = Vec::with_capacity(threads);
    for _ in 0..threads {
        let poll = Poll::new().map_err(|e| PeopleError::Runtime(e.to_string()))?;
        let waker =
            Waker::new(poll.registry(), WAKE).map_err(|e| PeopleError::Runtime(e.to_string()))?;
        links.push(ShardLink {
            waker,
            people: AtomicUsize::new(0),
            tick: AtomicU64::new(0),
        });
        polls.push(poll);
    }
    let (steps, runtime_error) = std::thread::scope(|scope| {
        let mut shards = Vec::with_capacity(threads);
        for (shard, poll) in polls.into_iter().enumerate() {
            let cpu = spec
                .cpus
                .as_ref()
                .filter(|c| !c.is_empty())
                .map(|c| c[shard % c.len()]);
            let (shared, link) = (&shared, &links[shard]);
            shards.push(scope.spawn(move || {
                if let Some(cpu) = cpu {
                    // Best effort: an unpinned generator still runs, only less steadily.
                    let _ = reprise_cpus::pin_current_thread(cpu);
                }
                run_shard(shared, shard, threads, poll, link, started)
            }));
        }
        scope.spawn(|| tick(&shared, &links, started));
        let steps = drive_steps(&shared, &links, stop, &mut progress);
        shared.stopped.store(true, Ordering::Relaxed);
        for link in &links {
            let _ = link.waker.wake();
        }
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
        (Some(path), false) => unsaved_writes(addr, path, spec.timeout, &acknowledged, stop),
        _ => None,
    };
    let stopped = stop.is_stopped();
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
    shards: &[ShardLink],
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
            shard.people.store(people as usize, Ordering::Relaxed);
            let _ = shard.waker.wake();
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
        // The step's last posts get their time to arrive, unless the run is stopped.
        if !stop.sleep_until(Instant::now() + grace) {
            break;
        }
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

/// The acknowledged writes the database listing at `path` does not have;
/// `None` when the load was stopped meanwhile.
fn unsaved_writes(
    addr: SocketAddr,
    path: &str,
    timeout: Duration,
    acknowledged: &[String],
    stop: &StopHandle,
) -> Option<Result<Vec<String>, String>> {
    let mut browser = Browser::new(addr, timeout, true);
    let mut poll = match Poll::new() {
        Ok(poll) => poll,
        Err(e) => return Some(Err(format!("GET {path}: {e}"))),
    };
    let request = Request {
        method: "GET",
        path,
        form: None,
        accept: "text/plain",
    };
    let fetched = match fetch_waiting(&mut browser, &mut poll, &request, stop)? {
        Ok(fetched) => fetched,
        Err(e) => return Some(Err(format!("GET {path}: {e}"))),
    };
    if fetched.status != 200 {
        return Some(Err(format!("GET {path}: {}", fetched.status)));
    }
    let text = String::from_utf8_lossy(&fetched.body);
    let saved: HashSet<&str> = text.lines().map(str::trim).collect();
    Some(Ok(acknowledged
        .iter()
        .filter(|id| !saved.contains(id.as_str()))
        .cloned()
        .collect()))
}

/// How often the timer whose lag is measured fires.
const TICK: Duration = Duration::from_millis(1);

/// The generator's timer lag: a side thread's precise 1 ms timer (the OS's
/// nanosleep) marks each generator thread's tick with when it fired and
/// wakes the thread, whose loop records how much later it got to it (from
/// the oldest tick it had not got to, the ticks it missed too). A wait for sockets
/// rounds its timeout to whole milliseconds, which alone would show up to
/// 2 ms of lag on an idle generator; this measures the generator, not that
/// rounding.
fn tick(shared: &Shared, links: &[ShardLink], started: Instant) {
    while !shared.is_stopped() {
        std::thread::sleep(TICK);
        let fired = (started.elapsed().as_nanos() as u64).max(1);
        for link in links {
            let _ = link
                .tick
                .compare_exchange(0, fired, Ordering::Relaxed, Ordering::Relaxed);
            let _ = link.waker.wake();
        }
    }
}

/// How long a post may take to reach a viewer before it counts as lost:
/// twice the served limit (at most 60 days: the spec bounds the limit), at least a second.
fn lost_after(spec: &PeopleSpec) -> Duration {
    let seconds = (spec.served.delivery_ms * 2.0 / 1000.0).max(1.0);
    Duration::try_from_secs_f64(seconds).unwrap_or(crate::spec::MAX_LOAD_TIME)
}
