//! The coordinator: starts the worker threads, hands them one shared schedule,
//! merges their per-interval stats, reports progress and builds the report.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::connection::{IntervalStats, Pace};
use crate::report::{LatencyInterval, LatencySummary, LoadReport, Phase, Progress};
use crate::spec::{LoadError, LoadSpec, StopHandle};
use crate::worker::{WorkerMessage, WorkerPlan, WorkerSetup, run_worker};

/// Runs the load described by `spec`, calling `progress` once a second;
/// blocks until done, or until `stop` is signalled (from another thread):
/// then every connection is dropped at once, whatever it waits for, and the
/// run ends within ~0.1 s with [`LoadError::Stopped`].
///
/// A run in which any request failed (connect, timeout, socket, status, check)
/// still returns `Ok`, with `req_per_s: None` and the error counts.
pub fn run_until(
    spec: &LoadSpec,
    stop: &StopHandle,
    mut progress: impl FnMut(&Progress),
) -> Result<LoadReport, LoadError> {
    let template = spec.template()?;
    let open_loop = spec.rate.is_some();
    let (to_coordinator, from_workers) = mpsc::channel();
    std::thread::scope(|scope| {
        let mut plan_senders = Vec::with_capacity(spec.threads);
        for thread in 0..spec.threads {
            let (plan_sender, plans) = mpsc::channel();
            plan_senders.push(plan_sender);
            let setup = WorkerSetup {
                cpu: spec.cpus.as_ref().map(|cpus| cpus[thread % cpus.len()]),
                template: template.clone(),
                checks: spec.checks.clone(),
                check_sample: spec.check_sample,
                timeout: spec.timeout,
                open_loop,
                stop: stop.clone(),
            };
            let to_coordinator = to_coordinator.clone();
            std::thread::Builder::new()
                .name(format!("reprise-load-{thread}"))
                .spawn_scoped(scope, move || run_worker(setup, to_coordinator, plans))
                .map_err(LoadError::Thread)?;
        }
        drop(to_coordinator);
        for _ in 0..spec.threads {
            match from_workers.recv() {
                Ok(WorkerMessage::Ready(Ok(()))) => {}
                Ok(WorkerMessage::Ready(Err(e))) => return Err(e),
                Ok(WorkerMessage::Interval { .. }) | Err(_) => {
                    return Err(LoadError::Thread(std::io::Error::other(
                        "a worker thread stopped early",
                    )));
                }
            }
        }

        let start = Instant::now();
        let started_unix_s = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        let schedule = Schedule::new(start, spec.warmup, spec.duration);
        for (thread, plan_sender) in plan_senders.iter().enumerate() {
            let connections = (thread..spec.connections)
                .step_by(spec.threads)
                .map(|i| pace(spec, start, i))
                .collect();
            let _ = plan_sender.send(WorkerPlan {
                connections,
                ticks: schedule.ticks.clone(),
            });
        }

        let mut collector = Collector::new(spec, schedule, open_loop);
        // Ends when every worker has finished and dropped its sender.
        for message in from_workers {
            if let WorkerMessage::Interval { index, at, stats } = message
                && let Some(update) = collector.add(index, at, *stats)
            {
                progress(&update);
            }
        }
        if stop.is_stopped() {
            return Err(LoadError::Stopped);
        }
        let mut report = collector.finish();
        report.started_unix_s = started_unix_s + spec.warmup.as_secs_f64();
        Ok(report)
    })
}

/// Open loop: each connection sends at rate / connections, the connections staggered evenly.
fn pace(spec: &LoadSpec, start: Instant, index: usize) -> Option<Pace> {
    let rate = spec.rate?;
    let per_second = rate / spec.connections as f64;
    // The spec bounds the gap by the longest load; a rate past a nanosecond's
    // resolution has none (and ends at the load's end like any other).
    let interval = Duration::try_from_secs_f64(1.0 / per_second).unwrap_or(Duration::ZERO);
    let offset = interval.mul_f64(index as f64 / spec.connections as f64);
    Some(Pace {
        first: start + offset,
        interval,
        per_second,
    })
}

/// Interval ends: each second of warm-up, the start of measurement, each second of it, the end.
struct Schedule {
    start: Instant,
    measure_start: Instant,
    end: Instant,
    ticks: Vec<Instant>,
}

impl Schedule {
    fn new(start: Instant, warmup: Duration, duration: Duration) -> Schedule {
        let measure_start = start + warmup;
        let end = measure_start + duration;
        let mut ticks = Vec::new();
        for (from, to) in [(start, measure_start), (measure_start, end)] {
            let mut at = from + Duration::from_secs(1);
            while at < to {
                ticks.push(at);
                at += Duration::from_secs(1);
            }
            if to > from {
                ticks.push(to);
            }
        }
        Schedule {
            start,
            measure_start,
            end,
            ticks,
        }
    }
}

struct Pending {
    reported: usize,
    latest: Instant,
    stats: IntervalStats,
}

struct Collector {
    url: String,
    connections: usize,
    threads: usize,
    rate: Option<f64>,
    open_loop: bool,
    schedule: Schedule,
    pending: BTreeMap<usize, Pending>,
    warmup: IntervalStats,
    measured: IntervalStats,
    intervals: Vec<LatencyInterval>,
    finished_at: Instant,
}

impl Collector {
    fn new(spec: &LoadSpec, schedule: Schedule, open_loop: bool) -> Collector {
        Collector {
            url: spec.url.clone(),
            connections: spec.connections,
            threads: spec.threads,
            rate: spec.rate,
            open_loop,
            finished_at: schedule.end,
            schedule,
            pending: BTreeMap::new(),
            warmup: IntervalStats::new(open_loop),
            measured: IntervalStats::new(open_loop),
            intervals: Vec::new(),
        }
    }

    /// Adds one thread's stats for an interval; once all threads reported it, folds it in.
    fn add(&mut self, index: usize, at: Instant, stats: IntervalStats) -> Option<Progress> {
        let open_loop = self.open_loop;
        let pending = self.pending.entry(index).or_insert_with(|| Pending {
            reported: 0,
            latest: at,
            stats: IntervalStats::new(open_loop),
        });
        pending.reported += 1;
        pending.latest = pending.latest.max(at);
        pending.stats.merge(stats);
        if pending.reported < self.threads {
            return None;
        }
        let Pending { latest, stats, .. } = self.pending.remove(&index)?;
        let ticks = &self.schedule.ticks;
        if index >= ticks.len() {
            // Responses that were in flight at the end: they count, in the last interval.
            self.finished_at = latest.max(self.schedule.end);
            if let Some(last) = self.intervals.last_mut() {
                let _ = last.latency.add(&stats.latency);
                if let (Some(mine), Some(theirs)) = (&mut last.corrected, &stats.corrected) {
                    let _ = mine.add(theirs);
                }
            }
            self.measured.merge(stats);
            return None;
        }
        let from = if index == 0 {
            self.schedule.start
        } else {
            ticks[index - 1]
        };
        let to = ticks[index];
        let seconds = (to - from).as_secs_f64().max(1e-9);
        let interval_requests = stats.requests;
        let (phase, phase_start, phase_end, totals) = if to <= self.schedule.measure_start {
            self.warmup.merge(stats);
            (
                Phase::Warmup,
                self.schedule.start,
                self.schedule.measure_start,
                &self.warmup,
            )
        } else {
            self.intervals.push(LatencyInterval {
                start: from - self.schedule.measure_start,
                duration: to - from,
                latency: stats.latency.clone(),
                corrected: stats.corrected.clone(),
            });
            self.measured.merge(stats);
            (
                Phase::Measure,
                self.schedule.measure_start,
                self.schedule.end,
                &self.measured,
            )
        };
        let p99_of = totals.corrected.as_ref().unwrap_or(&totals.latency);
        Some(Progress {
            phase,
            elapsed_s: (to - phase_start).as_secs_f64(),
            phase_s: (phase_end - phase_start).as_secs_f64(),
            requests: totals.requests,
            req_per_s: interval_requests as f64 / seconds,
            errors: totals.errors.total(),
            reconnects: totals.reconnects,
            p99_ms: LatencySummary::of(p99_of).map(|s| s.p99),
        })
    }

    fn finish(self) -> LoadReport {
        let measured = self.measured;
        let duration_s = (self.finished_at - self.schedule.measure_start)
            .as_secs_f64()
            .max(1e-9);
        let clean = measured.errors.total() == 0 && measured.requests > 0;
        LoadReport {
            url: self.url,
            connections: self.connections,
            threads: self.threads,
            rate: self.rate,
            requests: measured.requests,
            duration_s,
            req_per_s: clean.then(|| measured.requests as f64 / duration_s),
            attempted_per_s: measured.requests as f64 / duration_s,
            bytes: measured.bytes,
            latency: LatencySummary::of(&measured.latency),
            corrected_latency: measured.corrected.as_ref().and_then(LatencySummary::of),
            errors: measured.errors,
            reconnects: measured.reconnects,
            missed: measured.missed,
            error_samples: measured.error_samples,
            started_unix_s: 0.0,
            intervals: self.intervals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_ticks_each_second_and_at_the_phase_boundaries() {
        let start = Instant::now();
        let s = Schedule::new(
            start,
            Duration::from_millis(1500),
            Duration::from_millis(2200),
        );
        let offsets: Vec<u128> = s.ticks.iter().map(|t| (*t - start).as_millis()).collect();
        assert_eq!(offsets, [1000, 1500, 2500, 3500, 3700]);
        let no_warmup = Schedule::new(start, Duration::ZERO, Duration::from_secs(2));
        let offsets: Vec<u128> = no_warmup
            .ticks
            .iter()
            .map(|t| (*t - start).as_millis())
            .collect();
        assert_eq!(offsets, [1000, 2000]);
    }
}
