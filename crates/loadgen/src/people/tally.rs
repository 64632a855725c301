//! What one step recorded, and the report made of it: navigation latency by
//! kind, delivery latency, failures by cause, re-sends, reconnects, and the
//! generator's own CPU and timer lag.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::ServedCriterion;
use crate::report::new_histogram;

/// Samples kept of a step's failures, beyond the first of each cause,
/// which is always kept: a reader sees an example of every cause counted.
const MAX_SAMPLES: usize = 8;

/// The kinds of navigation in the recipe's mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NavKind {
    OpenRoom,
    ScrollHistory,
    Search,
    ReturnToRoom,
}

impl NavKind {
    pub const ALL: [NavKind; 4] = [
        NavKind::OpenRoom,
        NavKind::ScrollHistory,
        NavKind::Search,
        NavKind::ReturnToRoom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NavKind::OpenRoom => "open_room",
            NavKind::ScrollHistory => "scroll_history",
            NavKind::Search => "search",
            NavKind::ReturnToRoom => "return_to_room",
        }
    }
}

/// Counts and quantiles of one latency histogram, in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    pub count: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latency {
    fn of(h: &Histogram<u64>) -> Option<Latency> {
        (!h.is_empty()).then(|| Latency {
            count: h.len(),
            p50_ms: h.value_at_quantile(0.5) as f64 / 1000.0,
            p99_ms: h.value_at_quantile(0.99) as f64 / 1000.0,
            max_ms: h.max() as f64 / 1000.0,
        })
    }
}

/// The generator's own cost during a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratorCost {
    /// Process CPU time over wall time: 1.0 is one whole core.
    pub cpu_cores: f64,
    /// How late a 1 ms timer woke, in milliseconds.
    pub timer_lag_p50_ms: f64,
    pub timer_lag_p99_ms: f64,
    /// Resident memory at the step's end, in MiB.
    pub rss_mib: f64,
}

/// One step of people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepReport {
    pub people: u32,
    pub served: bool,
    /// Why the step was not served, in words.
    pub not_served: Vec<String>,
    pub duration_s: f64,
    /// All navigations, with the criterion's quantile.
    pub navigation: Option<Latency>,
    pub navigation_quantile_ms: Option<f64>,
    pub navigation_by_kind: BTreeMap<String, Latency>,
    pub delivery: Option<Latency>,
    pub delivery_quantile_ms: Option<f64>,
    pub posts: u64,
    pub acknowledged: u64,
    pub failures: u64,
    pub failures_by_cause: BTreeMap<String, u64>,
    pub failure_samples: Vec<String>,
    pub resends: u64,
    /// Requests sent again on a new connection after an idle close.
    pub reconnects: u64,
    /// Cables opened again after closing or going stale.
    #[serde(default)]
    pub cable_reconnects: u64,
    pub generator: GeneratorCost,
}

/// A whole run: every step, and the end-of-run check of acknowledged writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeopleReport {
    pub steps: Vec<StepReport>,
    pub acknowledged_writes: u64,
    /// Sign-ins the server turned away for its rate limit, then retried.
    pub sign_in_retries: u64,
    /// Acknowledged writes the database does not have (None: not checked).
    pub unsaved_writes: Option<u64>,
    /// Every step served and every acknowledged write saved.
    pub served: bool,
    /// Stopped before the last step ended (`steps` holds the ones that did).
    #[serde(default)]
    pub stopped: bool,
}

/// What the running step records.
pub(crate) struct Tally {
    pub started: Instant,
    cpu_at_start: Duration,
    pub navigation: Histogram<u64>,
    pub by_kind: BTreeMap<NavKind, Histogram<u64>>,
    pub delivery: Histogram<u64>,
    pub timer_lag: Histogram<u64>,
    pub posts: u64,
    pub acknowledged: u64,
    pub failures: BTreeMap<&'static str, u64>,
    pub samples: Vec<String>,
    pub resends: u64,
    pub reconnects: u64,
    pub cable_reconnects: u64,
}

impl Tally {
    pub fn new() -> Tally {
        Tally {
            started: Instant::now(),
            cpu_at_start: process_cpu(),
            navigation: new_histogram(),
            by_kind: BTreeMap::new(),
            delivery: new_histogram(),
            timer_lag: new_histogram(),
            posts: 0,
            acknowledged: 0,
            failures: BTreeMap::new(),
            samples: Vec::new(),
            resends: 0,
            reconnects: 0,
            cable_reconnects: 0,
        }
    }

    pub fn navigated(&mut self, kind: NavKind, took: Duration) {
        let us = micros(took);
        let _ = self.navigation.record(us);
        let _ = self
            .by_kind
            .entry(kind)
            .or_insert_with(new_histogram)
            .record(us);
    }

    pub fn delivered(&mut self, took: Duration) {
        let _ = self.delivery.record(micros(took));
    }

    /// A tick of the 1 ms timer was handled `late`: the ticks that fired
    /// meanwhile (one every `tick`) were as late, less their own delay.
    pub fn lagged(&mut self, late: Duration, tick: Duration) {
        let _ = self.timer_lag.record_correct(micros(late), micros(tick));
    }

    pub fn fail(&mut self, cause: &'static str, detail: impl FnOnce() -> String) {
        let count = self.failures.entry(cause).or_default();
        *count += 1;
        if *count == 1 || self.samples.len() < MAX_SAMPLES {
            let sample = format!("{cause}: {}", detail());
            if !self.samples.contains(&sample) {
                self.samples.push(sample);
            }
        }
    }

    /// The step's report, judged by the served criterion.
    pub fn report(&self, people: u32, served: &ServedCriterion) -> StepReport {
        let wall = self.started.elapsed();
        let cpu = process_cpu().saturating_sub(self.cpu_at_start);
        let quantile = |h: &Histogram<u64>, q: f64| {
            (!h.is_empty()).then(|| h.value_at_quantile(q) as f64 / 1000.0)
        };
        let navigation_quantile_ms = quantile(&self.navigation, served.navigation_quantile);
        let delivery_quantile_ms = quantile(&self.delivery, served.delivery_quantile);
        let failures: u64 = self.failures.values().sum();
        let mut not_served = Vec::new();
        match navigation_quantile_ms {
            None => not_served.push("no navigation completed".to_owned()),
            Some(ms) if ms > served.navigation_ms => not_served.push(format!(
                "navigation p{} {ms:.1} ms > {} ms",
                served.navigation_quantile * 100.0,
                served.navigation_ms
            )),
            Some(_) => {}
        }
        if failures > served.max_failures {
            not_served.push(format!("{failures} failures > {}", served.max_failures));
        }
        if let Some(ms) = delivery_quantile_ms.filter(|&ms| ms > served.delivery_ms) {
            not_served.push(format!(
                "delivery p{} {ms:.1} ms > {} ms",
                served.delivery_quantile * 100.0,
                served.delivery_ms
            ));
        }
        StepReport {
            people,
            served: not_served.is_empty(),
            not_served,
            duration_s: wall.as_secs_f64(),
            navigation: Latency::of(&self.navigation),
            navigation_quantile_ms,
            navigation_by_kind: self
                .by_kind
                .iter()
                .filter_map(|(k, h)| Some((k.name().to_owned(), Latency::of(h)?)))
                .collect(),
            delivery: Latency::of(&self.delivery),
            delivery_quantile_ms,
            posts: self.posts,
            acknowledged: self.acknowledged,
            failures,
            failures_by_cause: self
                .failures
                .iter()
                .map(|(k, v)| ((*k).to_owned(), *v))
                .collect(),
            failure_samples: self.samples.clone(),
            resends: self.resends,
            reconnects: self.reconnects,
            cable_reconnects: self.cable_reconnects,
            generator: GeneratorCost {
                cpu_cores: cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9),
                timer_lag_p50_ms: quantile(&self.timer_lag, 0.5).unwrap_or(0.0),
                timer_lag_p99_ms: quantile(&self.timer_lag, 0.99).unwrap_or(0.0),
                rss_mib: resident_mib(),
            },
        }
    }
}

fn micros(d: Duration) -> u64 {
    (d.as_micros() as u64).max(1)
}

/// User plus system CPU time of this whole process.
pub fn process_cpu() -> Duration {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return Duration::ZERO;
        }
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// This process's resident memory in MiB, from /proc/self/statm.
pub fn resident_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    let page = rustix::param::page_size() as f64;
    pages * page / (1024.0 * 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cause_keeps_a_sample_when_the_samples_are_full() {
        let mut tally = Tally::new();
        for i in 0..20 {
            tally.fail("missing_newest_post", || format!("GET /rooms/{i}"));
        }
        tally.fail("post_status", || "POST /rooms/1/messages: 500".into());
        tally.fail("post_status", || "POST /rooms/2/messages: 500".into());
        assert_eq!(tally.failures["missing_newest_post"], 20);
        assert_eq!(tally.failures["post_status"], 2);
        assert_eq!(tally.samples.len(), MAX_SAMPLES + 1, "{:?}", tally.samples);
        assert_eq!(
            tally.samples.last().unwrap(),
            "post_status: POST /rooms/1/messages: 500"
        );
    }
}
