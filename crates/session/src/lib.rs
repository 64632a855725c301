//! One API for running, judging, storing and sharing, called by the CLI and
//! the desktop app alike: the front ends translate what a person asked for
//! into these calls and render what comes back, and nothing else. A
//! behaviour difference between the two is a bug here, or in a front end
//! that went around this crate.
//!
//! - [`Session`]: where the recipes are (a checkout's `recipes/`), the data
//!   dir (run folders, the git cache, the history) and the sharing settings.
//! - [`recipes`]: a recipe by id with its checksum status, the library, and
//!   which lanes run here (the probe's one rule).
//! - [`run`]: the checksum gate, the plan, the run folder (resumed or new),
//!   left-over containers, executing with cancel, then judging and storing.
//! - [`clean`]: run folders removed, with what their runs left running.
//! - [`judge`]: a run's folder, or a published run's harness files, judged.
//! - [`share`]: the redacted preview, the prefilled link, GitHub sign-in and
//!   posting.
//! - [`community`]: everyone's results for a recipe, read back from the
//!   Discussions its runs are shared to, with this machine's run among them.
//! - [`harness_files`]: a stored run written as the harness's files.
//! - [`views`]: what both front ends show (a post, a plan's rows, how long
//!   a run has left, a run's results, the machine and its validation),
//!   computed once so the two print the same values.
//!
//! ```no_run
//! use reprise_session::{Session, run::RunOptions};
//!
//! let session = Session::from_env();
//! let loaded = session.load_recipe("hello-ceiling").unwrap();
//! let prepared = session.prepare(&loaded, &RunOptions::default()).unwrap();
//! let outcome = session.execute(prepared, &|event| println!("{event:?}")).unwrap();
//! println!("{:?}", outcome.history);
//! ```

pub mod clean;
pub mod community;
pub mod harness_files;
pub mod judge;
pub mod machine_summary;
pub mod preflight;
pub mod recipes;
pub mod run;
pub mod run_folder;
pub mod setup;
pub mod share;
pub mod validate;
pub mod views;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use recipes::LoadedRecipe;
pub use reprise_engine::{CancelToken, DataDir, Event, EventSink};
pub use reprise_history::History;
use reprise_recipe::Catalog;
pub use run::{HistoryOutcome, RunOptions, RunOutcome};
pub use share::ShareSettings;

/// Why a session call failed: what went wrong, in words a person can act on
/// (each front end adds its own hint).
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Catalog(#[from] reprise_recipe::CatalogError),
    /// The lanes' placement on a server host that cannot be read or
    /// recorded.
    #[error("{0}")]
    ServerHost(String),
    /// `--server-host`: not a server host's address, or its client
    /// certificates are missing.
    #[error("--server-host {url}: {source}")]
    ServerHostAddress {
        url: String,
        source: reprise_probe::container_engine::EndpointError,
    },
    /// `--image LANE=IMAGE` that cannot be given to the recipe's lanes.
    #[error("--image {lane}={image}: {source}")]
    Image {
        lane: String,
        image: String,
        source: reprise_recipe::ImageError,
    },
    /// The server host's engine did not answer, or could not be read.
    #[error(transparent)]
    ServerHostEngine(#[from] reprise_engine::lanes::remote_engine::ServerHostError),
    #[error("{0}")]
    Recipe(#[from] reprise_recipe::RecipeError),
    #[error(
        "{} is not the reviewed recipe, so its commands have not been reviewed: {}",
        file.display(), status.explain()
    )]
    Unreviewed {
        file: PathBuf,
        status: reprise_recipe::ChecksumStatus,
    },
    #[error(transparent)]
    Plan(#[from] reprise_engine::PlanError),
    #[error(transparent)]
    WorkDir(#[from] reprise_engine::os::workdir::WorkDirError),
    #[error(transparent)]
    Run(#[from] reprise_engine::RunError),
    #[error("{0} is already running")]
    Busy(String),
    /// A run and a validation of this machine at once.
    #[error("{0}: a run and a validation at once would measure each other")]
    MachineBusy(String),
    #[error("could not validate: {0}")]
    Validate(#[from] reprise_validate::ValidateError),
    #[error("no source `{id}` in this recipe (its sources: {})", known.join(", "))]
    UnknownSource { id: String, known: Vec<String> },
    #[error(transparent)]
    Harness(#[from] reprise_harness_files::HarnessError),
    #[error(transparent)]
    Mise(#[from] reprise_engine::inputs::mise::MiseError),
    #[error("mise is not installed, and Reprise cannot install it here: {how}")]
    NoMise { how: String },
    #[error(transparent)]
    History(#[from] reprise_history::HistoryError),
    #[error(transparent)]
    Report(#[from] reprise_report::ReportError),
    #[error(transparent)]
    Share(#[from] reprise_share::ShareError),
    #[error(
        "not signed in to GitHub: set GH_TOKEN, sign in the GitHub CLI (`gh auth login`), or paste a token (`reprise share --token-stdin`)"
    )]
    NotSignedIn,
    #[error(
        "that is not a GitHub token (20 to 255 visible characters, no spaces): make one at https://github.com/settings/tokens"
    )]
    BadToken,
    #[error("no GitHub OAuth app is configured to sign in with (REPRISE_GITHUB_CLIENT_ID)")]
    NoOAuthApp,
    #[error("no repository to post in (OWNER/NAME, or REPRISE_DISCUSSIONS_REPO)")]
    NoRepository,
    #[error("`{0}` is not a repository: write it as OWNER/NAME, e.g. rubys/roundhouse")]
    BadRepository(String),
    #[error("{}: {reason}", file.display())]
    ResultsFile { file: PathBuf, reason: String },
}

impl SessionError {
    /// GitHub refused the token (a 401): it is mistyped, expired or
    /// revoked, and signing in again is what to do.
    pub fn is_token_refused(&self) -> bool {
        matches!(
            self,
            SessionError::Share(reprise_share::ShareError::Unauthorized(_))
        )
    }
}

/// The digest of the recipe a run folder's last attempt ran, as the
/// engine recorded it in the folder's state.
fn recorded_recipe_digest(run: &reprise_engine::RunDir) -> Option<String> {
    reprise_engine::os::workdir::State::load(&run.state_file())
        .ok()?
        .map(|state| state.recipe_sha256)
        .filter(|sha| !sha.is_empty())
}

/// Where the recipes and the data are, the sharing settings, and the runs
/// going on now (so a page, or Ctrl-C, can cancel them).
#[derive(Clone)]
pub struct Session {
    pub catalog: Catalog,
    pub data: DataDir,
    pub share: ShareSettings,
    /// Where a preflight (and a plan, for the claims it can judge) reads
    /// this machine: `/` (`None`), or a tree of `/proc`, `/sys` and `/etc`
    /// files under this folder (`reprise preflight --root`; the tests'
    /// fixture machines). The Machine page, a validation and a run read `/`.
    pub machine_root: Option<PathBuf>,
    running: Arc<Mutex<HashMap<String, CancelToken>>>,
}

impl Session {
    pub fn new(catalog: Catalog, data: DataDir, share: ShareSettings) -> Session {
        Session {
            catalog,
            data,
            share,
            machine_root: None,
            running: Arc::default(),
        }
    }

    /// The recipes of `REPRISE_ROOT`, else of the nearest folder above the
    /// working directory that has `recipes/`, else of the checkout `fallback`
    /// (a front end passes its own source tree); the data dir of
    /// [`DataDir::locate`]; sharing as the environment configures it.
    pub fn from_env_or(fallback: &Path) -> Session {
        let catalog = match std::env::var_os("REPRISE_ROOT") {
            Some(root) => Catalog::new(PathBuf::from(root)),
            None => {
                let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
                Catalog::discover(&here)
                    .or_else(|| Catalog::discover(fallback))
                    .unwrap_or_else(|| Catalog::new(here))
            }
        };
        Session::new(catalog, DataDir::locate(), ShareSettings::from_env())
    }

    /// [`Session::from_env_or`] with this crate's own checkout as the fallback.
    pub fn from_env() -> Session {
        Session::from_env_or(Path::new(env!("CARGO_MANIFEST_DIR")))
    }

    /// The results history in the data dir.
    pub fn history(&self) -> Result<History, SessionError> {
        Ok(History::open(&self.data.root)?)
    }

    /// A stored run's report, with what a shared result says of it where
    /// the stored report did not record it: the machine in summary (from
    /// its records) and the recipe's digest (from its run folder's state,
    /// while the folder is there).
    pub fn report(&self, run: &str) -> Result<reprise_report::Report, SessionError> {
        let mut report = self.history()?.load(run)?;
        if report.run.machine.is_none() {
            report.run.machine = machine_summary::of_report(&report);
        }
        if report.run.recipe_sha256.is_none() {
            report.run.recipe_sha256 = self
                .data
                .run(&report.run.id)
                .ok()
                .and_then(|dir| recorded_recipe_digest(&dir));
        }
        Ok(report)
    }

    /// Asks the recipe's run to stop. Answers whether one was going.
    pub fn cancel(&self, recipe: &str) -> bool {
        match self.running().get(recipe) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// Asks every run going on to stop (Ctrl-C).
    pub fn cancel_all(&self) {
        for token in self.running().values() {
            token.cancel();
        }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, CancelToken>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }
}
