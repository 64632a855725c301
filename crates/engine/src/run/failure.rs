//! Why a step did not finish: a cancel told apart from a failure, every
//! other cause in its own error type until it is recorded as text.

use std::path::PathBuf;

use crate::inputs::{
    database::DatabaseError, lockfile::BundleError, source::SourceError, tree_digest::DigestError,
};
use crate::lanes::http::HttpError;
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
    /// The step's command ended badly: its exit status, a signal or its
    /// time limit, as said.
    #[error("{0}")]
    Command(String),
    #[error("no source `{0}`")]
    NoSource(String),
    #[error("no workload `{0}` in this recipe")]
    NoWorkload(String),
    #[error("workload `{0}` has no [workload.people]")]
    NoPeople(String),
    #[error(
        "the workload is measured with wrk (generator = \"wrk\"), which is not installed (Debian: apt-get install wrk)"
    )]
    WrkMissing,
    /// A tree that is not there, or not what the recipe expects.
    #[error(transparent)]
    Tree(#[from] TreeFailure),
    /// The step ended, but what it produced is not what it was.
    #[error("the step ended, but {0}")]
    Outputs(crate::run::resume::OutputsGone),
    /// None of the step's lanes did what the step is for.
    #[error("{0}")]
    NoLane(NoLane),
    #[error("no cell produced data")]
    NoData,
    /// An endpoint that cannot be asked as the recipe says it.
    #[error(transparent)]
    Endpoint(#[from] crate::lanes::signed_in::Unresolved),
    #[error(transparent)]
    Http(#[from] HttpError),
    #[error("lane `{lane}`: {source}")]
    People {
        lane: String,
        source: reprise_loadgen::PeopleError,
    },
    /// The sessions an earlier step minted for the people: the file and
    /// the line, never a line's content (it is cookies).
    #[error("the minted sessions {}: {source} (an earlier step should write them)", path.display())]
    SessionsUnread {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the minted sessions {}, {source}", path.display())]
    Sessions {
        path: PathBuf,
        source: reprise_loadgen::people::roster::SessionsError,
    },
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

/// What a step is for that none of its lanes did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoLane {
    Served,
    SignedIn,
    Checked,
    Loaded,
}

impl std::fmt::Display for NoLane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoLane::Served => "no lane could be served (see skipped.json)",
            NoLane::SignedIn => "no lane could be signed in to",
            NoLane::Checked => "no lane answered any endpoint well (see check.json)",
            NoLane::Loaded => "no lane could be loaded",
        })
    }
}

/// A tree a step digests that is not there, or not what the recipe
/// expects.
#[derive(Debug, thiserror::Error)]
pub enum TreeFailure {
    #[error("no tree at {}", .0.display())]
    Missing(PathBuf),
    #[error("the emitter wrote no tree at {}", .0.display())]
    NotEmitted(PathBuf),
    #[error("the recipe names the manifest {}, which does not exist", .0.display())]
    NoManifest(PathBuf),
    /// Its digest is not the recipe's; `against` says which files differ
    /// from the manifest, where there is one.
    #[error("trees/{tree} has digest {digest}, the recipe expects {want}{}", match against {
        Some((differ, manifest)) => format!(": {differ} (against {})", manifest.display()),
        None => format!(" (results/{tree}.sha256 lists this run's files)"),
    })]
    Digest {
        tree: String,
        digest: String,
        want: String,
        against: Option<(String, PathBuf)>,
    },
    #[error("trees/{tree} does not match {}: {differ}", manifest.display())]
    Manifest {
        tree: String,
        manifest: PathBuf,
        differ: String,
    },
    #[error("no manifest at {} and no digest in the recipe to compare trees/{tree} with (results/{tree}.sha256 has this run's)", manifest.display())]
    NothingToCompare { tree: String, manifest: PathBuf },
}
