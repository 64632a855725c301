//! The cells of a load step as they are measured, round by round, and
//! what they write: one load per cell with the run's generator, each cell's
//! figures, the harness's files and results.json. The load step runs the
//! rounds it plans and `conclusive` the ones it adds.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime};

use reprise_harness_files::bench_env::BenchEnv;
use reprise_loadgen::{LoadError, LoadSpec, Targets, write_hdr_log};
use reprise_probe::Fingerprint;
use reprise_recipe::reading::{count, duration_words, percent};
use reprise_recipe::{Endpoint, Generator, Lane, Metric, Workload};
use reprise_verdict::SPOILED;
use reprise_verdict::sequential::UntilConclusive;
use reprise_verdict::{CellKey, Measurements, Repetition, ServerCpu};
use serde_json::json;

use super::check::checks_of;
use super::kept_databases::KeptDatabases;
use super::{Lanes, StepFailure, StepInput};
use crate::event::Event;
use crate::lanes::server_process::steal_seconds;
use crate::lanes::signed_in::resolve_endpoint;
use crate::run::estimate::Shape;
use crate::run::results::{CHECK_FILE, CellResult, LoadRecord, MEASUREMENTS_FILE, RESULTS_FILE};

impl CellResult {
    fn no_data(lane: &str, endpoint: &str, run: u32, why: &str) -> CellResult {
        CellResult {
            lane: lane.to_string(),
            endpoint: endpoint.to_string(),
            run,
            req_per_s: None,
            requests: 0,
            duration_s: 0.0,
            latency_ms: None,
            errors: Default::default(),
            missed: 0,
            error_samples: Vec::new(),
            rss_kb: None,
            pss_kb: None,
            processes: None,
            cgroup_memory_kb: None,
            server_cpu: None,
            first_attempt_taken: None,
            cpu_share: None,
            cpu_wanted: None,
            timeout_s: None,
            no_data: Some(why.to_string()),
            measured_again: None,
            cancelled: false,
            hdr_log: None,
        }
    }

    fn cancelled(lane: &str, endpoint: &str, run: u32) -> CellResult {
        CellResult {
            cancelled: true,
            ..CellResult::no_data(
                lane,
                endpoint,
                run,
                "the run was cancelled during this cell",
            )
        }
    }

    /// Where the lane's cgroup and its process group's RSS disagree by more
    /// than a quarter: `; its cgroup counts 412 MB against the group's RSS of
    /// 250 MB` (processes that left the group, page cache, or pages the RSS
    /// sum counts twice).
    fn memory_disagreement(&self) -> Option<String> {
        let (cgroup, rss) = (self.cgroup_memory_kb?, self.rss_kb?);
        let (low, high) = (cgroup.min(rss) as f64, cgroup.max(rss) as f64);
        (high > 0.0 && (high - low) / high > 0.25).then(|| {
            format!(
                "; its cgroup counts {} MB against the group's RSS of {} MB",
                cgroup / 1024,
                rss / 1024
            )
        })
    }

    fn describe(&self) -> String {
        match self.req_per_s {
            Some(r) => format!(
                "{r:.0} req/s, p99 {:.2} ms, RSS {} kB{}{}{}",
                self.latency_ms.map_or(0.0, |l| l.p99),
                self.rss_kb.unwrap_or(0),
                self.server_cpu
                    .map(|c| format!(
                        ", server CPU {:.2} s ({:.0}% of {}{})",
                        c.cpu_s,
                        c.share() * 100.0,
                        reprise_verdict::cpu_count_words(c.cpus),
                        match c.wanted() {
                            Some(w) if w >= reprise_verdict::CPU_BOUND => ", CPU-bound".to_string(),
                            Some(w) => format!(", idle {:.0}% of the time", (1.0 - w) * 100.0),
                            None => String::new(),
                        }
                    ))
                    .unwrap_or_default(),
                self.memory_disagreement().unwrap_or_default(),
                if self.missed > 0 {
                    format!(
                        "; the rate was not sustained ({} requests due were never sent)",
                        self.missed
                    )
                } else {
                    String::new()
                }
            ),
            None => format!(
                "no data ({})",
                self.no_data
                    .clone()
                    .unwrap_or_else(|| format!("{} errors", self.errors.total()))
            ),
        }
    }
}

fn slug(endpoint: &str) -> String {
    let s: String = endpoint
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let s = s.trim_matches('_').to_string();
    if s.is_empty() { "root".into() } else { s }
}

/// Runs one load with `generator`; the run's cancel is its stop handle, so
/// a cancel ends it (and kills wrk) within a moment.
pub(super) fn run_load(
    s: &StepInput,
    generator: Generator,
    spec: &LoadSpec,
    live: impl FnMut(&reprise_loadgen::Progress),
) -> Result<reprise_loadgen::LoadReport, LoadError> {
    let stop = s.ctx.cancel.stop_handle();
    match generator {
        Generator::Reprise => reprise_loadgen::run_until(spec, stop, live),
        Generator::Wrk => reprise_loadgen::wrk::run_until(spec, stop),
    }
}

/// The cells of a load step as they are measured, round by round.
pub(super) struct Rounds<'a> {
    pub input: &'a StepInput<'a>,
    pub workload: &'a Workload,
    generator: Generator,
    pub shape: &'a Shape,
    client_cpus: &'a Option<Vec<usize>>,
    server_cpus: &'a Option<Vec<usize>>,
    /// The cells this step means to measure, for its progress.
    pub total: u64,
    done: u64,
    /// The lanes whose servers booted.
    booted: BTreeSet<String>,
    /// The lanes whose servers stopped during a cell.
    crashed: BTreeSet<String>,
    /// The lanes whose warm-up has been announced.
    warming: BTreeSet<String>,
    pub measurements: Measurements,
    pub cells: Vec<CellResult>,
    /// With `--until-conclusive`: its looks and what each decided, for
    /// `results.json`.
    pub conclusive: Option<UntilConclusive>,
    /// When the first round started: what a cell takes, all told.
    pub started: Instant,
    /// The databases each round starts from, where the workload writes.
    databases: KeptDatabases,
    /// The first attempts at cells other work spoiled, each measured again,
    /// set aside and kept in `results.json`.
    pub set_aside: Vec<CellResult>,
}

impl Drop for Rounds<'_> {
    /// However the step ends, the databases are left as it found them.
    fn drop(&mut self) {
        self.databases.finish(self.input);
    }
}

impl<'a> Rounds<'a> {
    /// The rounds of a load step about to measure `to_measure`, whose
    /// servers in `booted` started and warmed up.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        input: &'a StepInput<'a>,
        workload: &'a Workload,
        generator: Generator,
        shape: &'a Shape,
        (client_cpus, server_cpus): (&'a Option<Vec<usize>>, &'a Option<Vec<usize>>),
        to_measure: &[&Lane],
        booted: BTreeSet<String>,
        measurements: Measurements,
        databases: KeptDatabases,
    ) -> Rounds<'a> {
        Rounds {
            input,
            workload,
            generator,
            shape,
            client_cpus,
            server_cpus,
            total: u64::from(shape.runs) * (to_measure.len() * workload.endpoints.len()) as u64,
            done: 0,
            booted,
            crashed: BTreeSet::new(),
            warming: BTreeSet::new(),
            measurements,
            cells: Vec::new(),
            conclusive: None,
            started: Instant::now(),
            databases,
            set_aside: Vec::new(),
        }
    }

    /// Whether a spoiled cell may be measured again: a quarter of the
    /// step's cells at most, and with `--until-conclusive` while its budget
    /// holds one more cell.
    fn may_measure_again(&self) -> bool {
        let ctx = self.input.ctx;
        let within_budget = ctx.conclusive_deadline().is_none_or(|deadline| {
            let per_cell = self.started.elapsed() / (self.done.max(1) as u32);
            Instant::now() + per_cell < deadline
        });
        let most = match ctx.until_conclusive {
            Some(_) => self.total,
            None => (self.total / 4).max(1),
        };
        within_budget && (self.set_aside.len() as u64) < most
    }

    /// Where the step was cut off last time with the inputs it has now: the
    /// cells that attempt measured in full (of its workload, its runs and
    /// a lane measured now) stand, so only the rest is measured. Answers
    /// how many were kept.
    pub fn keep_finished_cells(&mut self, to_measure: &[&Lane]) -> u32 {
        let ctx = self.input.ctx;
        if !self.input.cut_off {
            return 0;
        }
        // A record that does not read keeps nothing: its cells are measured
        // again, and the run says why.
        let earlier = match LoadRecord::read(&ctx.run.results()) {
            Ok(Some(earlier)) => earlier,
            Ok(None) => {
                self.input
                    .note("nothing was measured before the cancel".into());
                return 0;
            }
            Err(e) => {
                self.input.note(format!(
                    "what was measured before the cancel does not read ({e}): measuring every cell again"
                ));
                return 0;
            }
        };
        if earlier.workload != self.workload.name.as_str() || earlier.quick != ctx.quick {
            self.input.note(format!(
                "what was measured before the cancel was of another {}: measuring every cell again",
                if earlier.quick != ctx.quick {
                    "kind of run (--quick or not)"
                } else {
                    "workload"
                }
            ));
            return 0;
        }
        let mut kept = 0;
        for cell in earlier.cells {
            let measured_now = to_measure.iter().any(|l| l.name.as_str() == cell.lane)
                && self
                    .workload
                    .endpoints
                    .iter()
                    .any(|e| e.name.as_str() == cell.endpoint);
            if cell.cancelled
                || cell.req_per_s.is_none()
                || cell.run > self.shape.runs
                || !measured_now
            {
                continue;
            }
            record(&mut self.measurements, &cell);
            self.cells.push(cell);
            self.done += 1;
            kept += 1;
        }
        // The first attempts the kept cells set aside stay on the record.
        self.set_aside = earlier
            .set_aside
            .into_iter()
            .filter(|a| {
                self.cells
                    .iter()
                    .any(|c| c.lane == a.lane && c.endpoint == a.endpoint && c.run == a.run)
            })
            .collect();
        kept
    }

    /// Whether run `run` of `lane`'s `endpoint` is measured already.
    /// Whether any cell measured a rate.
    pub fn any_data(&self) -> bool {
        self.cells.iter().any(|c| c.req_per_s.is_some())
    }

    pub fn has(&self, lane: &Lane, endpoint: &Endpoint, run: u32) -> bool {
        self.cells.iter().any(|c| {
            c.lane == lane.name.as_str() && c.endpoint == endpoint.name.as_str() && c.run == run
        })
    }

    /// Measures run `run` of `lane`'s `endpoint` (no data where its server
    /// did not boot or stopped), records it and writes the results; a
    /// cancel during or right after it ends the step.
    pub fn cell(
        &mut self,
        lanes: &mut Lanes,
        lane: &Lane,
        endpoint: &Endpoint,
        run: u32,
    ) -> Result<(), StepFailure> {
        let (s, ctx) = (self.input, self.input.ctx);
        let name = lane.name.to_string();
        let ep = endpoint.name.to_string();
        let done = self.done;
        let total = self.total;
        let live = |p: &reprise_loadgen::Progress| {
            if p.phase == reprise_loadgen::Phase::Measure {
                ctx.events.emit(Event::Measuring {
                    step: s.id().to_string(),
                    lane: name.clone(),
                    endpoint: ep.clone(),
                    run,
                    cells_done: done,
                    cells: total,
                    req_per_s: p.req_per_s,
                    p99_ms: p.p99_ms,
                    errors: p.errors,
                });
            }
        };
        self.databases.before(s, &name, run);
        // Stopped to make room for another lane: up again, cold, before
        // its warm-up.
        if lanes.is_parked(&name)
            && self.booted.contains(&name)
            && lanes.start(ctx, s.id(), lane, self.server_cpus)?.is_none()
        {
            self.crashed.insert(name.clone());
        }
        let cell = if let Some(why) = lanes.endpoint_excluded(&name, &ep) {
            CellResult::no_data(&name, &ep, run, why)
        } else if !self.booted.contains(&name) || self.crashed.contains(&name) {
            CellResult::no_data(&name, &ep, run, "the server stopped before this run")
        } else {
            let warmup = self.shape.warmup_of(lane, ctx.quick);
            if warmup > Duration::ZERO && self.warming.insert(name.clone()) {
                s.note(format!(
                    "lane {name}: warming up each route for {} before each of its runs",
                    duration_words(warmup.as_secs_f64())
                ));
            }
            let how = Measure {
                workload: self.workload,
                generator: self.generator,
                shape: self.shape,
                run,
                client_cpus: self.client_cpus,
                server_cpus: self.server_cpus,
                usable_cpus: usable_cpus(lane, self.server_cpus),
                warmup,
            };
            let first = measure_cell(s, lanes, &name, endpoint, how, &live)?;
            let again = lanes.is_running(&name) && !ctx.cancel.is_cancelled();
            match (stalled(&first), spoiled(&first)) {
                (Some(stall), _) if again => {
                    // Not "lane … run N: …", which is how a cell's end is said.
                    s.note(format!(
                        "measuring lane {name} {ep} run {run} again, warm-up first: {stall}"
                    ));
                    CellResult {
                        measured_again: Some(format!("the first attempt: {stall}")),
                        ..measure_cell(s, lanes, &name, endpoint, how, &live)?
                    }
                }
                (None, Some(taken)) if again && self.may_measure_again() => {
                    s.note(format!(
                        "measuring lane {name} {ep} run {run} again, warm-up first: other work took {} of its CPU",
                        percent(taken)
                    ));
                    self.set_aside.push(first);
                    CellResult {
                        measured_again: Some(format!(
                            "the first attempt: other work took {} of its CPU",
                            percent(taken)
                        )),
                        first_attempt_taken: Some(taken),
                        ..measure_cell(s, lanes, &name, endpoint, how, &live)?
                    }
                }
                _ => first,
            }
        };
        self.databases.after(&name, run, &endpoint.method);
        lanes.measured(&name, cell.rss_kb);
        if cell.cancelled {
            s.note(format!("lane {name} {ep} run {run}: {}", cell.describe()));
            self.cells.push(cell);
            self.write(lanes)?;
            return Err(StepFailure::cancelled());
        }
        // A server that died during the cell: its later cells are no data.
        let alive = lanes.is_running(&name);
        let cell = if !alive && self.booted.contains(&name) && self.crashed.insert(name.clone()) {
            let log = ctx.lane_log(&name);
            lanes.skip(
                ctx,
                s.id(),
                &name,
                "load",
                format!("the server stopped during run {run} ({ep}); later cells are no data"),
                Some(&log),
            )?;
            CellResult {
                req_per_s: None,
                no_data: Some("the server stopped during this run".into()),
                ..cell
            }
        } else {
            cell
        };
        s.note(format!("lane {name} {ep} run {run}: {}", cell.describe()));
        record(&mut self.measurements, &cell);
        self.cells.push(cell);
        self.done += 1;
        ctx.events.emit(Event::Progress {
            step: s.id().to_string(),
            done: self.done,
            total: self.total,
            unit: "cells".into(),
        });
        self.write(lanes)?;
        // Cancelled as the cell ended: it is kept, no further cell starts.
        if ctx.cancel.is_cancelled() {
            return Err(StepFailure::cancelled());
        }
        Ok(())
    }

    /// Writes the results as they stand.
    pub fn write(&self, lanes: &Lanes) -> Result<(), StepFailure> {
        write_results(
            self.input,
            self.workload,
            self.shape,
            lanes,
            &self.measurements,
            (&self.cells, &self.set_aside),
            self.conclusive.as_ref(),
        )
    }
}

/// The load generator's spec for one endpoint of a lane at `target`: it may
/// load that server only.
pub(super) fn load_spec(
    lanes: &Lanes,
    lane: &str,
    endpoint: &Endpoint,
    workload: &Workload,
    target: SocketAddr,
    client_cpus: &Option<Vec<usize>>,
) -> Result<LoadSpec, StepFailure> {
    let request = resolve_endpoint(endpoint, lanes.session(lane))?;
    let url = crate::lanes::http::lane_url(target.ip(), target.port(), &request.path)?;
    let mut spec = LoadSpec::new(url.to_string());
    spec.targets = Targets::Only(target);
    spec.method = endpoint.method.clone();
    spec.headers = request.headers;
    spec.body = request.body;
    spec.connections = workload.connections as usize;
    spec.threads = workload.threads.max(1) as usize;
    spec.rate = workload.rate;
    spec.cpus = client_cpus.clone();
    spec.checks = checks_of(endpoint);
    Ok(spec)
}

/// How one cell is measured.
#[derive(Clone, Copy)]
struct Measure<'a> {
    workload: &'a Workload,
    generator: Generator,
    shape: &'a Shape,
    run: u32,
    client_cpus: &'a Option<Vec<usize>>,
    server_cpus: &'a Option<Vec<usize>>,
    /// The CPUs the lane's server can keep busy, of those it may use.
    usable_cpus: f64,
    /// The lane's warm-up of this route, before this run of it.
    warmup: Duration,
}

fn measure_cell(
    s: &StepInput,
    lanes: &Lanes,
    lane: &str,
    endpoint: &Endpoint,
    how: Measure,
    live: impl FnMut(&reprise_loadgen::Progress),
) -> Result<CellResult, StepFailure> {
    let Measure {
        workload,
        generator,
        shape,
        run,
        client_cpus,
        server_cpus,
        usable_cpus,
        warmup,
    } = how;
    let ep = endpoint.name.to_string();
    s.ctx.events.emit(Event::CellStarted {
        step: s.id().to_string(),
        lane: lane.to_string(),
        endpoint: ep.clone(),
        run,
    });
    let Some(server) = lanes.server(lane) else {
        return Ok(CellResult::no_data(
            lane,
            &ep,
            run,
            "the server is not running",
        ));
    };
    let mut spec = load_spec(
        lanes,
        lane,
        endpoint,
        workload,
        SocketAddr::new(s.ctx.lane_host.address(), server.spec.port),
        client_cpus,
    )?;
    // The route's warm-up before each of its runs, as the harness warms it
    // (`wrk -d$warm` before every measurement). Its figures are not kept
    // but its p99, which the cell's timeout follows; its errors show in the
    // cell.
    let mut warm_up_p99 = None;
    if warmup > Duration::ZERO {
        let warm_up = LoadSpec {
            duration: warmup,
            ..spec.clone()
        };
        let warmed = run_load(s, generator, &warm_up, |_| {});
        if s.ctx.cancel.is_cancelled() {
            return Ok(CellResult::cancelled(lane, &ep, run));
        }
        warm_up_p99 = warmed
            .ok()
            .and_then(|warm| warm_up_p99_of(&warm, warm_up.timeout));
    }
    spec.duration = shape.duration;
    spec.timeout = cell_timeout(spec.timeout, warm_up_p99, spec.duration);
    let sampler = server.sample_memory(Duration::from_secs(1));
    // Servers and load generator on the same CPUs (the recipe's
    // `cpu_placement = "shared"`, or a machine of one CPU): what the
    // generator used is part of the method, not other work.
    let shared = client_cpus.is_none() && server_cpus.is_none();
    let allowed = crate::lanes::shape::cpu_count(server_cpus) as f64;
    let server_cpus = server_cpus.as_deref();
    let (cpu_before, steal_before) = (server.cpu_counters(), steal_seconds(server_cpus));
    let generator_before = generator_cpu_s();
    let started = Instant::now();
    let result = run_load(s, generator, &spec, live);
    let wall_s = started.elapsed().as_secs_f64();
    // The generator's CPU time beyond the CPUs the server could not keep
    // busy: what it took from the server's.
    let generator_s = shared.then(|| {
        let used = (generator_cpu_s() - generator_before).max(0.0);
        (used - (allowed - usable_cpus).max(0.0) * wall_s).max(0.0)
    });
    let server_cpu = server
        .cpu_counters()
        .zip(cpu_before)
        .map(|(after, before)| {
            let (cpu_s, wait_s) = after.since(&before);
            ServerCpu {
                wall_s,
                cpu_s,
                wait_s: Some(wait_s),
                cpus: usable_cpus,
                steal_s: steal_seconds(server_cpus)
                    .zip(steal_before)
                    .map(|(after, before)| (after - before).max(0.0)),
                generator_s,
            }
        })
        .filter(|c| c.cpu_s > 0.0 && wall_s > 0.0);
    let memory = sampler.finish();
    let report = match result {
        Ok(r) => r,
        // Stopped, or wrk ended by the same Ctrl-C: not a measurement either way.
        Err(_) if s.ctx.cancel.is_cancelled() => return Ok(CellResult::cancelled(lane, &ep, run)),
        Err(e) => return Ok(CellResult::no_data(lane, &ep, run, &e.to_string())),
    };
    // wrk keeps no histogram to write.
    let hdr_name = format!("{lane}__{}__run{run}.hlog", slug(&ep));
    let hdr = (!report.intervals.is_empty())
        .then(|| {
            let file = s.ctx.results().file(&format!("hdr/{hdr_name}")).ok()?;
            file.create().ok()
        })
        .flatten()
        .and_then(|f| write_hdr_log(&report, std::io::BufWriter::new(f)).ok())
        .map(|()| format!("hdr/{hdr_name}"));
    Ok(CellResult {
        lane: lane.to_string(),
        endpoint: ep,
        run,
        req_per_s: report.req_per_s,
        requests: report.requests,
        duration_s: report.duration_s,
        latency_ms: report.latency,
        errors: report.errors.clone(),
        missed: report.missed,
        error_samples: report.error_samples.clone(),
        rss_kb: (memory.processes > 0).then_some(memory.rss_kb),
        pss_kb: (memory.processes > 0).then_some(memory.pss_kb),
        processes: Some(memory.processes),
        cgroup_memory_kb: memory.cgroup_kb,
        server_cpu,
        cpu_share: server_cpu.map(|c| c.share()),
        cpu_wanted: server_cpu.and_then(|c| c.wanted()),
        timeout_s: Some(spec.timeout.as_secs_f64()),
        no_data: None,
        measured_again: None,
        first_attempt_taken: None,
        cancelled: false,
        hdr_log: hdr,
    })
}

/// Where other work took more than [`SPOILED`] of the CPUs the server
/// wanted during a cell: the share it took. Judged per CPU-second, such a
/// run is widened by what that share may move it; measured again, on a
/// machine whose other work comes and goes, it may not need to be.
fn spoiled(cell: &CellResult) -> Option<f64> {
    let taken = cell.server_cpu?.taken()?;
    (cell.req_per_s.is_some() && !cell.cancelled && taken > SPOILED).then_some(taken)
}

/// Where a cell has no rate only because requests went unanswered past its
/// timeout, and nothing else failed: what happened, in words. A busy machine
/// can stall one response of a lane for seconds (here, beside the test
/// command's other lanes, a route answering in 16 ms left one request
/// unanswered for 2 s); the harness's wrk gives such a run no rate. Reprise
/// measures the cell again once, and keeps the first attempt's words: a
/// lane that stops answering fails the second attempt too.
fn stalled(cell: &CellResult) -> Option<String> {
    let timeouts = cell.errors.timeout;
    (cell.req_per_s.is_none()
        && !cell.cancelled
        && cell.no_data.is_none()
        && timeouts > 0
        && cell.errors.total() == timeouts)
        .then(|| {
            format!(
                "{} with no response within {} s, no other error",
                count(u32::try_from(timeouts).unwrap_or(u32::MAX), "request"),
                cell.timeout_s.unwrap_or_default()
            )
        })
}

/// A warm-up's p99, which its lane's cells' timeouts follow ([`cell_timeout`]):
/// at least its own `timeout` where a request of it timed out.
fn warm_up_p99_of(warm_up: &reprise_loadgen::LoadReport, timeout: Duration) -> Option<Duration> {
    if warm_up.errors.timeout > 0 {
        return Some(timeout);
    }
    warm_up
        .latency
        .and_then(|l| Duration::try_from_secs_f64(l.p99 / 1000.0).ok())
}

/// How long a request of a cell lasting `duration` may go unanswered before
/// it counts as a timeout, which leaves the cell without a rate (as the
/// harness leaves a cell with wrk's socket errors: a censored rate).
/// `default` (the load generator's 2 s, wrk's and so the harness's) where
/// the lane answered the route fast while it warmed up; ten times its p99
/// then, where that is longer: a busy machine slows every response of a
/// lane without its server failing, and beside other work a page whose p99
/// was about a second waited past 2 s once in a cell, which then had no
/// rate. Never past the cell's whole duration, so that a request unanswered
/// all along is still a timeout.
pub(super) fn cell_timeout(
    default: Duration,
    warm_up_p99: Option<Duration>,
    duration: Duration,
) -> Duration {
    let slow = warm_up_p99.map_or(Duration::ZERO, |p99| p99.saturating_mul(10));
    let timeout = slow.min(duration).max(default);
    // In tenths of a second, as the cell and its errors say it.
    Duration::from_millis(
        u64::try_from(timeout.as_millis().div_ceil(100) * 100).unwrap_or(u64::MAX),
    )
}

/// The CPU time, user and system, of this process (Reprise's own load
/// generator runs in it) and of its children that ended (wrk, once waited
/// for), in seconds.
fn generator_cpu_s() -> f64 {
    let seconds = |who| {
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage writes only the struct it is given.
        if unsafe { libc::getrusage(who, &mut usage) } != 0 {
            return 0.0;
        }
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        tv(usage.ru_utime) + tv(usage.ru_stime)
    };
    seconds(libc::RUSAGE_SELF) + seconds(libc::RUSAGE_CHILDREN)
}

/// The CPUs a lane's server can keep busy, of the `allowed` ones (every CPU
/// this process may use where the split gives the servers none of their
/// own): a CRuby process holds one CPU at a time (its interpreter lock), so
/// a CRuby lane keeps at most its workers busy; a lane of another runtime
/// at most its workers' threads; a lane that says neither, all of them.
fn usable_cpus(lane: &Lane, allowed: &Option<Vec<usize>>) -> f64 {
    let (workers, threads) = crate::lanes::shape::asked(lane, allowed);
    let allowed = crate::lanes::shape::cpu_count(allowed);
    let interpreter_lock = lane.runtime.as_deref().is_some_and(|r| r == "ruby");
    let busy = match (workers, threads) {
        (Some(w), _) if interpreter_lock => Some(w),
        (Some(w), Some(t)) => Some(w * t),
        (Some(w), None) => Some(w),
        (None, Some(t)) if !interpreter_lock => Some(t),
        (None, _) if interpreter_lock => Some(1),
        (None, _) => None,
    };
    busy.map_or(allowed, |b| (b.max(1) as usize).min(allowed)) as f64
}

fn record(m: &mut Measurements, c: &CellResult) {
    let errors = c.errors.total();
    let key = |metric| CellKey::new(&c.lane, Some(&c.endpoint), metric);
    let run = |value: Option<f64>, errors: u64| Repetition {
        run: c.run,
        value,
        errors,
        client_cpu: None,
        server_cpu: None,
        first_attempt_taken: None,
    };
    m.push_run(
        key(Metric::ReqPerS),
        Repetition {
            server_cpu: c.server_cpu,
            first_attempt_taken: c.first_attempt_taken,
            ..run(c.req_per_s, errors)
        },
    );
    let has = c.req_per_s.is_some();
    m.push_run(
        key(Metric::P50Ms),
        run(c.latency_ms.filter(|_| has).map(|l| l.p50), errors),
    );
    m.push_run(
        key(Metric::P99Ms),
        run(c.latency_ms.filter(|_| has).map(|l| l.p99), errors),
    );
    if let Some(rss) = c.rss_kb {
        m.push_run(key(Metric::RssMb), run(Some(rss as f64 / 1024.0), 0));
    }
    if let Some(pss) = c.pss_kb.filter(|&p| p > 0) {
        m.push_run(key(Metric::PssMb), run(Some(pss as f64 / 1024.0), 0));
    }
}

/// What this attempt's `serve` or `check` recorded, or, when that step was
/// kept from an earlier attempt, what its file holds.
fn this_attempts_or_kept<T: serde::Serialize>(
    dir: &std::path::Path,
    file: &str,
    now: &[T],
) -> serde_json::Value {
    if now.is_empty()
        && let Some(kept) = std::fs::read(dir.join(file))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
    {
        return kept;
    }
    json!(now)
}

fn write_results(
    s: &StepInput,
    workload: &Workload,
    shape: &Shape,
    lanes: &Lanes,
    m: &Measurements,
    (cells, set_aside): (&[CellResult], &[CellResult]),
    conclusive: Option<&UntilConclusive>,
) -> Result<(), StepFailure> {
    let ctx = s.ctx;
    let dir = ctx.run.results();
    let mut m = m.clone();
    m.parity = reprise_harness_files::read_parity(&dir)?;
    let per_run = reprise_harness_files::per_run::render(&m);
    let results = ctx.results();
    results.write_bytes(reprise_harness_files::PER_RUN_FILE, per_run.as_bytes())?;
    // The harness's own aggregation of those lines, byte for byte.
    let summary = reprise_harness_files::summary::aggregate(&per_run)?;
    results.write_bytes(
        reprise_harness_files::SUMMARY_FILE,
        summary.json().as_bytes(),
    )?;
    results.write_bytes(
        reprise_harness_files::SUMMARY_MD_FILE,
        summary.markdown().as_bytes(),
    )?;
    ctx.results().write(MEASUREMENTS_FILE, &m)?;
    let measured: Vec<&Lane> = m.lanes.keys().filter_map(|n| s.recipe.lane(n)).collect();
    let servers = s.ctx.lane_host.cpu_split(s.recipe.cpu_placement()).servers;
    let harness = invocation(s, workload, shape, &m, &measured, &servers);
    let notes = json!({
        "quick": ctx.quick,
        "load_generator": s.ctx.generator.unwrap_or(workload.generator).name(),
        // bench-env records one thread count; lanes may each have their own.
        "threads_per_lane": measured.iter().map(|l| (l.name.to_string(), crate::lanes::shape::asked(l, &servers).1)).collect::<std::collections::BTreeMap<_, _>>(),
    });
    // bench-env's invocation with Reprise's notes beside it.
    let mut harness_and_notes = harness.clone();
    if let (Some(h), Some(n)) = (harness_and_notes.as_object_mut(), notes.as_object()) {
        h.extend(n.clone());
    }
    ctx.results().write(
        RESULTS_FILE,
        &LoadRecord {
            recipe: s.recipe.id().to_string(),
            run: ctx.run.id.clone(),
            workload: workload.name.to_string(),
            quick: ctx.quick,
            quick_note: ctx.quick.then(|| {
                "durations, warm-ups and runs were capped by --quick: a smoke run, not a measurement".to_string()
            }),
            harness: harness_and_notes,
            cells: cells.to_vec(),
            set_aside: set_aside.to_vec(),
            coldstart: this_attempts_or_kept(
                &dir,
                reprise_harness_files::COLDSTART_FILE,
                lanes.coldstarts(),
            ),
            check: this_attempts_or_kept(&dir, CHECK_FILE, lanes.checks()),
            skipped: lanes.skipped().to_vec(),
            until_conclusive: conclusive.cloned(),
        },
    )?;
    let tools = lanes.toolchains().cloned().unwrap_or_default();
    record_machine(s, &tools, Some(harness), &notes)
}

/// The machine and the toolchains the run used, in `env.json` as bench-env
/// records them (with Reprise's fields beside), once per run, by whichever
/// measuring step ends first. Some 25 commands (lscpu, each toolchain's
/// version): not after a cancel, which must end the run now (on a busy
/// machine they took seconds); the attempt that finishes records it.
pub(super) fn record_machine(
    s: &StepInput,
    tools: &reprise_probe::toolchain::Toolchains,
    harness: Option<serde_json::Value>,
    notes: &serde_json::Value,
) -> Result<(), StepFailure> {
    let ctx = s.ctx;
    if ctx
        .run
        .results()
        .join(reprise_harness_files::ENV_FILE)
        .exists()
        || ctx.cancel.is_cancelled()
    {
        return Ok(());
    }
    let fp = Fingerprint::probe();
    let notes = notes.as_object().cloned().unwrap_or_default();
    let env = BenchEnv::capture(Some(&ctx.checksums_root), harness, SystemTime::now())
        .with_reprise(&fp, tools, notes);
    ctx.results()
        .write_bytes(reprise_harness_files::ENV_FILE, env.to_json().as_bytes())
}

/// The run as bench-env's `harness` block records a `scripts/bench`
/// invocation: its worker counts, connections, runs, whole seconds of
/// duration and warm-up, the servers' threads per worker (where the lanes
/// agree), the load generator's threads, endpoints, targets and command.
fn invocation(
    s: &StepInput,
    workload: &Workload,
    shape: &Shape,
    m: &Measurements,
    measured: &[&Lane],
    servers: &Option<Vec<usize>>,
) -> serde_json::Value {
    let mut workers: Vec<u32> = Vec::new();
    let mut targets: Vec<String> = Vec::new();
    for info in m.lanes.values() {
        let w = info.workers.unwrap_or(1);
        if !workers.contains(&w) {
            workers.push(w);
        }
        if !targets.contains(&info.target) {
            targets.push(info.target.clone());
        }
    }
    let mut threads: Vec<u32> = measured
        .iter()
        .filter_map(|l| crate::lanes::shape::asked(l, servers).1)
        .collect();
    threads.dedup();
    let mut h = serde_json::Map::new();
    h.insert("workers".into(), json!(workers));
    h.insert("concurrency".into(), json!(workload.connections));
    h.insert("runs".into(), json!(shape.runs));
    h.insert("duration_sec".into(), json!(shape.duration.as_secs()));
    if let Some(warmup) = shape.warmup {
        h.insert("warmup_sec".into(), json!(warmup.as_secs()));
    }
    if let [one] = threads.as_slice() {
        h.insert("threads".into(), json!(one));
    }
    h.insert("wrk_threads".into(), json!(workload.threads));
    h.insert(
        "endpoints".into(),
        json!(
            workload
                .endpoints
                .iter()
                .map(|e| e.name.to_string())
                .collect::<Vec<_>>()
        ),
    );
    h.insert("targets".into(), json!(targets));
    h.insert(
        "command".into(),
        json!(format!(
            "reprise run {}{}",
            s.recipe.id(),
            if s.ctx.quick { " --quick" } else { "" }
        )),
    );
    serde_json::Value::Object(h)
}
