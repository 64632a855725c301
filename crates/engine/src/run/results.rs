//! What a run writes into its `results/`: files written whole or not at
//! all, never through a symlink ([`RunFile`]); the names of Reprise's own
//! files there (the harness's are `reprise_harness_files`'), and the types
//! they are written and read as: `deviations.json`, how the run differs
//! from the post, and `results.json`, a load step's record ([`LoadRecord`]).

use serde::{Deserialize, Serialize};

use reprise_harness_files::records::SkippedLane;
use reprise_loadgen::LatencySummary;
use reprise_verdict::sequential::UntilConclusive;
use reprise_verdict::{Deviation, DeviationKind, ServerCpu};

use std::path::{Path, PathBuf};

use crate::os::run_files::RunFile;
use crate::os::workdir::RunDir;
use crate::run::failure::StepFailure;

/// Reprise's record of how a run differs from the post.
pub const DEVIATIONS_FILE: &str = "deviations.json";

/// A load step's record ([`LoadRecord`]).
pub const RESULTS_FILE: &str = "results.json";

/// The cells as the verdicts read them (`reprise_verdict::Measurements`).
pub const MEASUREMENTS_FILE: &str = "measurements.json";

/// Each lane's checked responses, endpoint by endpoint.
pub const CHECK_FILE: &str = "check.json";

/// `results.json`: what a load step measured and how, written after each
/// cell's round, at each look of a run that goes on until its claims are
/// decided, and at its end; read back by a resumed step (the cells it
/// keeps) and by the judge (the looks).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LoadRecord {
    pub recipe: String,
    pub run: String,
    pub workload: String,
    /// A smoke run (`--quick`), with what that capped.
    pub quick: bool,
    #[serde(default)]
    pub quick_note: Option<String>,
    /// bench-env's invocation, with Reprise's notes beside it, in
    /// bench-env's own shape.
    #[serde(default)]
    pub harness: serde_json::Value,
    #[serde(default)]
    pub cells: Vec<CellResult>,
    /// First attempts at cells that other work spoiled, each measured again
    /// (the cell's `measured_again` says so): kept for the record, not judged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_aside: Vec<CellResult>,
    /// The lanes' cold starts and checks, as `coldstart.json` and
    /// `check.json` hold them.
    #[serde(default)]
    pub coldstart: serde_json::Value,
    #[serde(default)]
    pub check: serde_json::Value,
    #[serde(default)]
    pub skipped: Vec<SkippedLane>,
    /// The looks of a run that went on until its claims were decided.
    #[serde(default)]
    pub until_conclusive: Option<UntilConclusive>,
}

/// A file of `results/` that is not what it should be.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", file.display())]
pub struct RecordError {
    pub file: PathBuf,
    pub reason: String,
}

impl LoadRecord {
    /// The `results.json` of a run's `results/`; none where the run has
    /// none (no load step ran), an error naming the file where it is not
    /// one.
    pub fn read(results: &Path) -> Result<Option<LoadRecord>, RecordError> {
        let file = results.join(RESULTS_FILE);
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(RecordError {
                    file,
                    reason: e.to_string(),
                });
            }
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| RecordError {
                file,
                reason: e.to_string(),
            })
    }
}

/// One measured cell of one run, with everything the load generator said.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CellResult {
    pub(crate) lane: String,
    pub(crate) endpoint: String,
    pub(crate) run: u32,
    pub(crate) req_per_s: Option<f64>,
    pub(crate) requests: u64,
    pub(crate) duration_s: f64,
    pub(crate) latency_ms: Option<LatencySummary>,
    pub(crate) errors: reprise_loadgen::ErrorCounts,
    /// Open loop: requests due but never sent (the rate was not sustained).
    pub(crate) missed: u64,
    pub(crate) error_samples: Vec<String>,
    pub(crate) rss_kb: Option<u64>,
    pub(crate) pss_kb: Option<u64>,
    pub(crate) processes: Option<usize>,
    /// The peak of what the lane's cgroup counted (`memory.current`), where
    /// it has one with the memory controller: every process the server
    /// started, in its group or not, and their page cache.
    pub(crate) cgroup_memory_kb: Option<u64>,
    /// What the server got from the machine during the cell: its CPU time
    /// (its cgroup's: its processes and every one they started), its
    /// threads' wait for a CPU, the CPUs it could use, the steal on them.
    pub(crate) server_cpu: Option<ServerCpu>,
    /// Its CPU time over all it could have used (1.0 = all of it).
    pub(crate) cpu_share: Option<f64>,
    /// Its CPU time and wait for a CPU over all it could have used: near
    /// 1.0 or above when it was CPU-bound.
    pub(crate) cpu_wanted: Option<f64>,
    /// How long a request could go unanswered before it counted as a
    /// timeout (`rounds::cell_timeout`).
    #[serde(default)]
    pub(crate) timeout_s: Option<f64>,
    /// Why the cell has no data, where it has none for a reason other than errors.
    pub(crate) no_data: Option<String>,
    /// Where this is the cell's second attempt: what the first came to. A
    /// first attempt whose only errors were requests left unanswered past
    /// the timeout is measured again once (`rounds::stalled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) measured_again: Option<String>,
    /// Where the first attempt was measured again because other work took
    /// more than `rounds::SPOILED` of the server's CPU in it: that share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) first_attempt_taken: Option<f64>,
    /// The run was cancelled during this cell: what it did is not a measurement.
    pub(crate) cancelled: bool,
    pub(crate) hdr_log: Option<String>,
}

/// A run's `results/`, with the deviations known before this attempt.
pub(crate) struct Results<'a> {
    run: &'a RunDir,
    known: &'a [Deviation],
}

impl<'a> Results<'a> {
    pub fn of(run: &'a RunDir, known: &'a [Deviation]) -> Results<'a> {
        Results { run, known }
    }

    /// A file of `results/`, by its name there (`hdr/x.hlog`, `a/b.json`).
    pub fn file(&self, name: &str) -> Result<RunFile, StepFailure> {
        Ok(self.run.file(Path::new("results").join(name))?)
    }

    /// Writes a file of `results/` as pretty JSON.
    pub fn write<T: Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<(), StepFailure> {
        self.write_bytes(name, &reprise_harness_files::pretty(value))
    }

    /// Replaces a file of `results/` whole with `bytes`.
    pub fn write_bytes(&self, name: &str, bytes: &[u8]) -> Result<(), StepFailure> {
        let file = self.file(name)?;
        file.write_atomic(bytes).map_err(|source| StepFailure::Io {
            path: file.path(),
            source,
        })
    }

    /// Rewrites `results/deviations.json`: the deviations known at this
    /// attempt's start, what earlier attempts' steps found (a step kept from
    /// one still stands on it), and `found`, which replaces the earlier
    /// findings of its `kind`.
    pub fn record_deviations(
        &self,
        kind: Option<DeviationKind>,
        found: &[Deviation],
    ) -> Result<(), StepFailure> {
        let earlier: Vec<Deviation> = std::fs::read(self.run.results().join(DEVIATIONS_FILE))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        let mut all = self.known.to_vec();
        for d in earlier {
            if !d.kind.known_before_run() && Some(d.kind) != kind && !all.contains(&d) {
                all.push(d);
            }
        }
        all.extend(found.iter().cloned());
        self.write(DEVIATIONS_FILE, &all)
    }
}
