//! Why a step did not finish: a cancel told apart from a failure, every
//! other cause in its own error type until it is recorded as text.

use std::path::PathBuf;

use crate::inputs::{
    database::DatabaseError, lockfile::BundleError, source::SourceError, tree_digest::DigestError,
};
use crate::lanes::server_process::ServerError;
use crate::os::run_files::Outside;
use crate::os::runner::host::HostError;
use crate::os::workdir::WorkDirError;

/// Why a step did not finish. A cancel is told apart from a failure; every
/// other cause keeps its own error type until it is recorded as text.
#[derive(Debug, thiserror::Error)]
pub enum StepFailure {
    #[error("{0}")]
    Cancelled(String),
    /// The step ran and judged the outcome a failure (no lane served, a tree
    /// unlike its manifest, …).
    #[error("{0}")]
    Failed(String),
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error(transparent)]
    Process(#[from] HostError),
    #[error(transparent)]
    Digest(#[from] DigestError),
    #[error(transparent)]
    Lockfile(#[from] BundleError),
    #[error(transparent)]
    Database(#[from] DatabaseError),
    #[error(transparent)]
    Server(#[from] ServerError),
    #[error(transparent)]
    Harness(#[from] reprise_harness_files::HarnessError),
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    /// A path that would lead out of the run's folder.
    #[error(transparent)]
    Outside(#[from] Outside),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl StepFailure {
    pub fn is_cancelled(&self) -> bool {
        matches!(self, StepFailure::Cancelled(_))
            || matches!(self, StepFailure::Source(SourceError::Cancelled { .. }))
    }

    pub(crate) fn cancelled() -> StepFailure {
        StepFailure::Cancelled("cancelled".into())
    }
}
