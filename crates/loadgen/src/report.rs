//! What a load run found: counts, latency summaries, errors, and once-a-second progress.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Latencies are recorded in microseconds, from 1 µs, 3 significant digits; the
/// histogram grows past its initial hour when needed, so recording cannot fail on range.
pub(crate) fn new_histogram() -> Histogram<u64> {
    let mut histogram =
        Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("constant bounds are valid");
    histogram.auto(true);
    histogram
}

/// Error counts by kind. Reconnects after an idle keep-alive close are not errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorCounts {
    /// Failed TCP connects or HTTP handshakes.
    pub connect: u64,
    /// Requests without a complete response within the timeout.
    pub timeout: u64,
    /// Socket read/write failures and malformed responses.
    pub io: u64,
    /// Responses with a non-2xx status.
    pub status: u64,
    /// 2xx responses that failed a response check.
    pub check: u64,
    /// Non-2xx responses by status code.
    pub statuses: BTreeMap<u16, u64>,
}

impl ErrorCounts {
    pub fn total(&self) -> u64 {
        self.connect + self.timeout + self.io + self.status + self.check
    }

    pub(crate) fn add(&mut self, other: &ErrorCounts) {
        self.connect += other.connect;
        self.timeout += other.timeout;
        self.io += other.io;
        self.status += other.status;
        self.check += other.check;
        for (code, n) in &other.statuses {
            *self.statuses.entry(*code).or_default() += n;
        }
    }
}

/// Latency percentiles in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencySummary {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    /// `None` where the generator gives none (wrk prints no 99.9th).
    pub p999: Option<f64>,
    pub max: f64,
    pub mean: f64,
    pub stdev: f64,
}

impl LatencySummary {
    /// Summarises a histogram of microseconds; `None` when it is empty.
    pub fn of(histogram: &Histogram<u64>) -> Option<LatencySummary> {
        if histogram.is_empty() {
            return None;
        }
        let ms = |us: u64| us as f64 / 1000.0;
        Some(LatencySummary {
            p50: ms(histogram.value_at_quantile(0.50)),
            p90: ms(histogram.value_at_quantile(0.90)),
            p99: ms(histogram.value_at_quantile(0.99)),
            p999: Some(ms(histogram.value_at_quantile(0.999))),
            max: ms(histogram.max()),
            mean: histogram.mean() / 1000.0,
            stdev: histogram.stdev() / 1000.0,
        })
    }
}

/// Whether the load is warming up or being measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Warmup,
    Measure,
}

/// Once a second while the load runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub phase: Phase,
    /// Seconds since the phase began.
    pub elapsed_s: f64,
    /// Seconds the phase lasts.
    pub phase_s: f64,
    /// Responses so far in this phase.
    pub requests: u64,
    /// Responses per second over the last interval.
    pub req_per_s: f64,
    /// Errors so far in this phase.
    pub errors: u64,
    pub reconnects: u64,
    /// p99 latency so far in this phase, ms (the corrected one in open loop).
    pub p99_ms: Option<f64>,
}

/// One interval's latency histograms (µs), merged over threads; saved as the HdrHistogram log.
#[derive(Debug, Clone)]
pub struct LatencyInterval {
    /// Start, relative to the start of measurement.
    pub start: Duration,
    pub duration: Duration,
    /// From the actual send to the end of the response.
    pub latency: Histogram<u64>,
    /// From the intended send time (open loop only).
    pub corrected: Option<Histogram<u64>>,
}

/// The result of a load run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadReport {
    pub url: String,
    pub connections: usize,
    pub threads: usize,
    /// The open-loop rate asked for, if any.
    pub rate: Option<f64>,
    /// Responses completed while measuring (including failed ones).
    pub requests: u64,
    /// When measurement began, seconds since the Unix epoch.
    pub started_unix_s: f64,
    /// Measured time in seconds.
    pub duration_s: f64,
    /// Successful responses per second; `None` ("no data") when anything failed.
    pub req_per_s: Option<f64>,
    /// Responses per second whatever their outcome, for diagnosis only.
    pub attempted_per_s: f64,
    /// Response bytes read (bodies only).
    pub bytes: u64,
    /// From the actual send; `None` when no response completed.
    pub latency: Option<LatencySummary>,
    /// From the intended send time (open loop only).
    pub corrected_latency: Option<LatencySummary>,
    pub errors: ErrorCounts,
    /// Connections re-opened after the server closed an idle keep-alive connection.
    pub reconnects: u64,
    /// Open loop: requests due during the load but never sent, because their
    /// connection was still behind schedule at the end (a connection's one
    /// request waiting on the response in flight when the load ended is
    /// not missed: the end cut it off, not the rate). Not the server's
    /// errors (a throughput figure stays), but any means the rate asked was
    /// not sustained; the corrected latency covers only the requests sent.
    #[serde(default)]
    pub missed: u64,
    /// The first few error messages, to say why a run has no data.
    pub error_samples: Vec<String>,
    /// Per-second histograms; written with [`crate::write_hdr_log`].
    #[serde(skip)]
    pub intervals: Vec<LatencyInterval>,
}

impl LoadReport {
    /// Whether the run produced a number: no error of any kind.
    pub fn has_data(&self) -> bool {
        self.req_per_s.is_some()
    }

    /// The whole measurement's uncorrected and corrected histograms, merged from the intervals.
    pub fn histograms(&self) -> (Histogram<u64>, Option<Histogram<u64>>) {
        merge_intervals(&self.intervals)
    }
}

pub(crate) fn merge_intervals(
    intervals: &[LatencyInterval],
) -> (Histogram<u64>, Option<Histogram<u64>>) {
    let mut latency = new_histogram();
    let mut corrected: Option<Histogram<u64>> = None;
    for interval in intervals {
        // Auto-resizing histograms take any other histogram's values.
        let _ = latency.add(&interval.latency);
        if let Some(c) = &interval.corrected {
            let _ = corrected.get_or_insert_with(new_histogram).add(c);
        }
    }
    (latency, corrected)
}
