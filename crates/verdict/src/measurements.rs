//! What was measured, in a plain model a published run and a Reprise run
//! both fit: cells keyed by lane, endpoint and metric, each with its runs.
//! The harness's `per-run.json` is read into it and written from it by
//! `reprise-harness-files`.

use std::collections::BTreeMap;
use std::fmt;

use reprise_recipe::Metric;
use serde::{Deserialize, Serialize};

/// One cell: a lane, an endpoint (where the metric has one) and a metric.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ts_rs::TS)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Repetition {
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
    /// What the server got from the machine during the run, where it was
    /// measured (a load run of a server on this machine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_cpu: Option<ServerCpu>,
    /// Where this run is a second attempt, the first set aside because
    /// other work took more than a tenth of the server's CPU in it: the
    /// share it took then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_attempt_taken: Option<f64>,
}

/// What a lane's server got from the machine during one run: its CPU time,
/// the time its threads waited for a CPU, and the CPUs it could use. From
/// these, its [share](ServerCpu::share) of those CPUs and whether it
/// [wanted](ServerCpu::wanted) all of them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ServerCpu {
    /// The run's wall time, in seconds.
    pub wall_s: f64,
    /// CPU time, user and system, of the server's processes and every one
    /// they started (its cgroup's `cpu.stat`, else its processes' own).
    pub cpu_s: f64,
    /// Time its threads spent runnable but waiting for a CPU, summed over
    /// the threads (`/proc/PID/task/TID/schedstat`), where it was read.
    pub wait_s: Option<f64>,
    /// The CPUs the server could use: the CPUs it was allowed, at most as
    /// many as its processes can keep busy (a CRuby worker holds one at a
    /// time, its lock on the interpreter).
    pub cpus: f64,
    /// Time the hypervisor took from the server's CPUs during the run
    /// (`/proc/stat`'s steal), summed over those CPUs, where it was read.
    pub steal_s: Option<f64>,
    /// Where the server shared its CPUs with the load generator, as the
    /// post's run did: the CPU time the generator took from them (what it
    /// used beyond the CPUs the server could not keep busy). Part of the
    /// method, so not counted as time other work took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator_s: Option<f64>,
}

impl ServerCpu {
    /// The CPU time it had over all it could have used: 1.0 = every one of
    /// its CPUs for the whole run. More than 1.0 where it used more CPUs
    /// than its workers were thought to keep busy.
    pub fn share(&self) -> f64 {
        match self.capacity_s() {
            Some(capacity) => self.cpu_s / capacity,
            None => 0.0,
        }
    }

    /// The share of its CPUs it wanted and did not get (other work had
    /// them); `None` where its wait was not read.
    pub fn taken(&self) -> Option<f64> {
        self.wanted()
            .map(|w| crate::cpu_share::taken(w, self.share()))
    }

    /// The CPU time it could have used: its CPUs for the whole run, less
    /// what the load generator sharing them took.
    fn capacity_s(&self) -> Option<f64> {
        let capacity = self.wall_s * self.cpus - self.generator_s.unwrap_or(0.0);
        (self.wall_s > 0.0 && self.cpus > 0.0 && capacity > 0.0).then_some(capacity)
    }

    /// The CPU time it had plus the time it waited for a CPU, over all it
    /// could have used: near 1.0 (or above) when it wanted every one of its
    /// CPUs the whole run (CPU-bound), well below when it sat idle part of
    /// the time (the load did not reach its ceiling). `None` where the wait
    /// was not read.
    pub fn wanted(&self) -> Option<f64> {
        let wait = self.wait_s?;
        self.capacity_s()
            .map(|capacity| (self.cpu_s + wait) / capacity)
    }
}

/// A cell and its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Cell {
    pub key: CellKey,
    pub runs: Vec<Repetition>,
}

/// How a lane ran, as the harness files record it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct LaneInfo {
    /// The harness's `target` (ruby, jruby, …).
    pub target: String,
    pub workers: Option<u32>,
    pub warmup_sec: Option<f64>,
}

/// The checked request recorded per endpoint and lane before measuring
/// (status, tag count, bytes, SHA-256, folded into one string). Lanes
/// compare only where these agree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Parity {
    pub lane: String,
    pub endpoint: String,
    pub fingerprint: String,
    /// The response's tag count, where the check read it: the lane's
    /// reading of a figure in tags (the harness's parity.txt has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<u64>,
}

/// Why a run did not measure a lane: the stage that skipped it
/// (`skipped.json`'s `preflight`, `boot`, …) and its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct LaneSkip {
    pub stage: Option<String>,
    pub because: String,
}

/// The lanes not measured, as stored now (a list of [`LaneSkip`]s per lane)
/// or as runs stored before it were (`STAGE: why` in one string), read
/// once here.
fn lane_skips<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, Vec<LaneSkip>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Skips(Vec<LaneSkip>),
        Words(String),
    }
    let stored: BTreeMap<String, Stored> = BTreeMap::deserialize(d)?;
    Ok(stored
        .into_iter()
        .map(|(lane, stored)| {
            let skips = match stored {
                Stored::Skips(skips) => skips,
                Stored::Words(words) => vec![match words.split_once(": ") {
                    Some((stage, because))
                        if !stage.is_empty() && !stage.contains(char::is_whitespace) =>
                    {
                        LaneSkip {
                            stage: Some(stage.to_string()),
                            because: because.to_string(),
                        }
                    }
                    _ => LaneSkip {
                        stage: None,
                        because: words,
                    },
                }],
            };
            (lane, skips)
        })
        .collect())
}

/// Everything measured in one run of a recipe (or one published run).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Measurements {
    pub cells: Vec<Cell>,
    pub lanes: BTreeMap<String, LaneInfo>,
    #[serde(default)]
    pub parity: Vec<Parity>,
    /// The lane others are checked against for parity; the first lane with
    /// a parity record when absent.
    pub reference_lane: Option<String>,
    /// Lanes this run did not measure, and why (at `preflight`: it needs
    /// falcon, which this machine lacks): the results folder's
    /// `skipped.json`, keyed by recipe lane once [`crate::align_lanes`] ran.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "lane_skips"
    )]
    pub not_measured: BTreeMap<String, Vec<LaneSkip>>,
    /// With the lanes on a server host: the link's ceiling in requests a
    /// second (`env.server.json`), which no lane's rate can be read near.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_ceiling: Option<f64>,
    /// The most a lane's command was asked to make (`requested` in what it
    /// printed), by lane: a `count` that reached it was stopped by the
    /// recipe's own cap, not by a limit of the machine.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub caps: BTreeMap<String, f64>,
    /// The workers each lane's server was seen running (`shapes.json`), by
    /// lane: lanes the post compared at one shape are judged only where
    /// these agree.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub workers_seen: BTreeMap<String, u32>,
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

    /// Sets the checked responses, and reads each one's tag count as the
    /// lane's one reading of the endpoint's [`Metric::Tags`]: the post's
    /// count is compared with it, never used as a gate.
    pub fn attach_parity(&mut self, parity: Vec<Parity>) {
        for p in &parity {
            if let Some(tags) = p.tags {
                let key = CellKey::new(&p.lane, Some(p.endpoint.as_str()), Metric::Tags);
                self.push_run(
                    key,
                    Repetition {
                        run: 1,
                        value: Some(tags as f64),
                        errors: 0,
                        client_cpu: None,
                        server_cpu: None,
                        first_attempt_taken: None,
                    },
                );
            }
        }
        self.parity = parity;
    }

    /// Adds a run to its cell, creating the cell on first use.
    pub fn push_run(&mut self, key: CellKey, run: Repetition) {
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
}
