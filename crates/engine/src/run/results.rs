//! What a run writes into its `results/`: files written whole or not at
//! all, never through a symlink ([`RunFile`]), and `deviations.json`,
//! Reprise's record of how the run differs from the post.

use serde::Serialize;

use reprise_verdict::{Deviation, DeviationKind};

use std::path::Path;

use crate::os::run_files::RunFile;
use crate::os::workdir::RunDir;
use crate::run::failure::StepFailure;

/// Reprise's record of how a run differs from the post.
pub const DEVIATIONS_FILE: &str = "deviations.json";

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
