//! What was measured, in a plain model a published run and a Reprise run
//! both fit: cells keyed by lane, endpoint and metric, each with its runs.
//!
//! The original harness writes `per-run.json` (one JSON object a line:
//! `target, workers, endpoint, run, warmup_sec, rss_kb, pss_kb, req_sec,
//! p50_ms, p99_ms, socket_errors`); [`Measurements::from_per_run`] reads it
//! and [`Measurements::to_per_run`] writes it back. Reprise adds two optional
//! fields a line, `client_cpu` (the load generator's CPU fraction for the
//! run) and `errors` (non-2xx responses and failed checks), which the
//! harness's readers ignore.

use std::collections::BTreeMap;
use std::fmt;

use reprise_recipe::Metric;
use serde::{Deserialize, Serialize};

use crate::VerdictError;

/// One cell: a lane, an endpoint (where the metric has one) and a metric.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CellKey {
    pub lane: String,
    pub endpoint: Option<String>,
    pub metric: MetricName,
}

impl CellKey {
    pub fn new(lane: &str, endpoint: Option<&str>, metric: Metric) -> Self {
        CellKey {
            lane: lane.to_string(),
            endpoint: endpoint.map(str::to_string),
            metric: MetricName(metric),
        }
    }

    pub fn metric(&self) -> Metric {
        self.metric.0
    }
}

impl fmt::Display for CellKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.endpoint {
            Some(e) => write!(f, "{} {} {}", self.lane, e, self.metric.0.name()),
            None => write!(f, "{} {}", self.lane, self.metric.0.name()),
        }
    }
}

/// A recipe [`Metric`] that orders and hashes by its name, so cells sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MetricName(pub Metric);

impl PartialOrd for MetricName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for MetricName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.name().cmp(other.0.name())
    }
}

/// One timed run of a cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The run's number, from 1.
    pub run: u32,
    /// The value; `None` when the run produced no number (the harness writes
    /// `req_sec: null` for a run with errors).
    pub value: Option<f64>,
    /// Socket errors, non-2xx responses and failed response checks.
    pub errors: u64,
    /// The load generator's CPU use over the run, as a fraction of the CPU
    /// it had (1.0 = all of it), where it was measured.
    pub client_cpu: Option<f64>,
}

/// A cell and its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub key: CellKey,
    pub runs: Vec<Run>,
}

/// How a lane ran, as the harness files record it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaneInfo {
    /// The harness's `target` (ruby, jruby, …).
    pub target: String,
    pub workers: Option<u32>,
    pub warmup_sec: Option<f64>,
}

/// The checked request recorded per endpoint and lane before measuring
/// (status, tag count, bytes, SHA-256, folded into one string). Lanes
/// compare only where these agree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parity {
    pub lane: String,
    pub endpoint: String,
    pub fingerprint: String,
}

/// Everything measured in one run of a recipe (or one published run).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurements {
    pub cells: Vec<Cell>,
    pub lanes: BTreeMap<String, LaneInfo>,
    #[serde(default)]
    pub parity: Vec<Parity>,
    /// The lane others are checked against for parity; the first lane with
    /// a parity record when absent.
    pub reference_lane: Option<String>,
}

/// One line of the harness's `per-run.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct PerRunLine {
    target: String,
    workers: Option<u32>,
    endpoint: Option<String>,
    run: u32,
    warmup_sec: Option<f64>,
    rss_kb: Option<f64>,
    pss_kb: Option<f64>,
    req_sec: Option<f64>,
    p50_ms: Option<f64>,
    p99_ms: Option<f64>,
    socket_errors: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    errors: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_cpu: Option<f64>,
}

/// The metrics a `per-run.json` line carries: field, metric, scale to the metric's unit.
const PER_RUN_METRICS: [(Metric, f64); 5] = [
    (Metric::ReqPerS, 1.0),
    (Metric::P50Ms, 1.0),
    (Metric::P99Ms, 1.0),
    (Metric::RssMb, 1.0 / 1024.0),
    (Metric::PssMb, 1.0 / 1024.0),
];

fn line_value(line: &PerRunLine, metric: Metric) -> Option<f64> {
    match metric {
        Metric::ReqPerS => line.req_sec,
        Metric::P50Ms => line.p50_ms,
        Metric::P99Ms => line.p99_ms,
        Metric::RssMb => line.rss_kb,
        Metric::PssMb => line.pss_kb,
        _ => None,
    }
}

/// Whether a metric is read off the load generator (so errors and a
/// saturated client bear on it), as opposed to memory sampled on the server.
pub fn is_load_metric(metric: Metric) -> bool {
    matches!(
        metric,
        Metric::ReqPerS | Metric::P50Ms | Metric::P99Ms | Metric::ReqPerSPerGb
    )
}

impl Measurements {
    pub fn cell(&self, key: &CellKey) -> Option<&Cell> {
        self.cells.iter().find(|c| &c.key == key)
    }

    /// Adds a run to its cell, creating the cell on first use.
    pub fn push_run(&mut self, key: CellKey, run: Run) {
        match self.cells.iter_mut().find(|c| c.key == key) {
            Some(cell) => cell.runs.push(run),
            None => self.cells.push(Cell {
                key,
                runs: vec![run],
            }),
        }
    }

    /// The parity fingerprint of a lane's endpoint, where one was recorded.
    pub fn parity_of(&self, lane: &str, endpoint: &str) -> Option<&str> {
        self.parity
            .iter()
            .find(|p| p.lane == lane && p.endpoint == endpoint)
            .map(|p| p.fingerprint.as_str())
    }

    /// The lane parity is checked against.
    pub fn parity_reference(&self) -> Option<&str> {
        self.reference_lane
            .as_deref()
            .or_else(|| self.parity.first().map(|p| p.lane.as_str()))
    }

    /// Reads the harness's `per-run.json` (JSON lines). A lane is named by
    /// its `target`; where one target ran with several worker counts, each
    /// shape is its own lane, `target/wN`.
    pub fn from_per_run(text: &str) -> Result<Measurements, VerdictError> {
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let raw = raw.trim();
            if raw.is_empty() {
                continue;
            }
            let line: PerRunLine =
                serde_json::from_str(raw).map_err(|source| VerdictError::PerRun {
                    line: i + 1,
                    source,
                })?;
            lines.push(line);
        }
        let mut shapes: BTreeMap<&str, Vec<Option<u32>>> = BTreeMap::new();
        for line in &lines {
            let seen = shapes.entry(&line.target).or_default();
            if !seen.contains(&line.workers) {
                seen.push(line.workers);
            }
        }
        let lane_name = |line: &PerRunLine| match (shapes[line.target.as_str()].len(), line.workers)
        {
            (n, Some(w)) if n > 1 => format!("{}/w{w}", line.target),
            _ => line.target.clone(),
        };
        let mut m = Measurements::default();
        for line in &lines {
            let lane = lane_name(line);
            m.lanes.entry(lane.clone()).or_insert_with(|| LaneInfo {
                target: line.target.clone(),
                workers: line.workers,
                warmup_sec: line.warmup_sec,
            });
            let errors = line.socket_errors.unwrap_or(0) + line.errors.unwrap_or(0);
            for (metric, scale) in PER_RUN_METRICS {
                let value = line_value(line, metric).map(|v| v * scale);
                // Memory is absent from some harness versions; a missing
                // memory field is no cell, a null req_sec is a run without data.
                if value.is_none() && metric != Metric::ReqPerS {
                    continue;
                }
                let load = is_load_metric(metric);
                m.push_run(
                    CellKey::new(&lane, line.endpoint.as_deref(), metric),
                    Run {
                        run: line.run,
                        value,
                        errors: if load { errors } else { 0 },
                        client_cpu: if load { line.client_cpu } else { None },
                    },
                );
            }
        }
        Ok(m)
    }

    /// Writes the harness's `per-run.json`: one line per lane, endpoint and
    /// run, with the fields the harness writes (and Reprise's two extras
    /// where measured).
    pub fn to_per_run(&self) -> String {
        let mut rows: BTreeMap<(String, Option<String>, u32), PerRunLine> = BTreeMap::new();
        for cell in &self.cells {
            let lane = self.lanes.get(&cell.key.lane);
            for run in &cell.runs {
                let row = rows
                    .entry((cell.key.lane.clone(), cell.key.endpoint.clone(), run.run))
                    .or_insert_with(|| PerRunLine {
                        target: lane.map_or_else(|| cell.key.lane.clone(), |l| l.target.clone()),
                        workers: lane.and_then(|l| l.workers),
                        endpoint: cell.key.endpoint.clone(),
                        run: run.run,
                        warmup_sec: lane.and_then(|l| l.warmup_sec),
                        ..PerRunLine::default()
                    });
                let kb = run.value.map(|v| (v * 1024.0).round());
                match cell.key.metric() {
                    Metric::ReqPerS => row.req_sec = run.value,
                    Metric::P50Ms => row.p50_ms = run.value,
                    Metric::P99Ms => row.p99_ms = run.value,
                    Metric::RssMb => row.rss_kb = kb,
                    Metric::PssMb => row.pss_kb = kb,
                    _ => continue,
                }
                if is_load_metric(cell.key.metric()) {
                    row.socket_errors = Some(run.errors);
                    row.client_cpu = row.client_cpu.or(run.client_cpu);
                }
            }
        }
        let mut out = String::new();
        for row in rows.values() {
            // Serialising plain numbers and strings cannot fail.
            out.push_str(&serde_json::to_string(row).unwrap_or_default());
            out.push('\n');
        }
        out
    }
}
