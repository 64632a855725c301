//! Where runs live: the data dir (platform data folder, or
//! `REPRISE_DATA_DIR`), one folder per run with `files/`, `sources/`,
//! `trees/`, `logs/`, `results/` and `state.json`, and the git cache.
//! `state.json` is written atomically (temp file, fsync, rename), so killing
//! the process at any moment loses nothing that finished.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::os::run_files::{Outside, RunFile};

/// Why the data dir or a run's state could not be used.
#[derive(Debug, thiserror::Error)]
pub enum WorkDirError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: not a run's state: {source}", path.display())]
    BadState {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("no run `{0}`")]
    NoSuchRun(String),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> WorkDirError + '_ {
    move |source| WorkDirError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The root of everything Reprise keeps between runs.
#[derive(Clone, Debug)]
pub struct DataDir {
    pub root: PathBuf,
}

impl DataDir {
    /// `REPRISE_DATA_DIR` when set, else `$XDG_DATA_HOME/reprise`, else
    /// `~/.local/share/reprise`.
    pub fn locate() -> DataDir {
        let var = |name| std::env::var_os(name).filter(|d| !d.is_empty());
        let root = match (var("REPRISE_DATA_DIR"), var("XDG_DATA_HOME")) {
            (Some(dir), _) => PathBuf::from(dir),
            (None, Some(xdg)) => PathBuf::from(xdg).join("reprise"),
            (None, None) => var("HOME")
                .map_or_else(|| PathBuf::from("."), PathBuf::from)
                .join(".local/share/reprise"),
        };
        DataDir { root }
    }

    pub fn new(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    pub fn runs(&self) -> PathBuf {
        self.root.join("runs")
    }

    /// Bare git mirrors, one per source URL.
    pub fn git_cache(&self) -> PathBuf {
        self.root.join("cache").join("git")
    }

    /// A new run folder for `recipe`, named by recipe and UTC time.
    pub fn create_run(&self, recipe: &str) -> Result<RunDir, WorkDirError> {
        let runs = self.runs();
        fs::create_dir_all(&runs).map_err(io_err(&runs))?;
        let stamp = reprise_harness_files::timestamp::compact_utc(now());
        let mut id = format!("{recipe}-{stamp}");
        let mut n = 1;
        while runs.join(&id).exists() {
            n += 1;
            id = format!("{recipe}-{stamp}-{n}");
        }
        let run = RunDir {
            path: runs.join(&id),
            id,
        };
        for sub in ["files", "sources", "trees", "logs", "results"] {
            let dir = run.path.join(sub);
            fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        }
        Ok(run)
    }

    /// An existing run by id.
    pub fn run(&self, id: &str) -> Result<RunDir, WorkDirError> {
        let path = self.runs().join(id);
        if id.contains('/') || id.starts_with('.') || !path.join("state.json").is_file() {
            return Err(WorkDirError::NoSuchRun(id.to_string()));
        }
        Ok(RunDir {
            id: id.to_string(),
            path,
        })
    }

    /// Every run with a readable state, oldest first.
    pub fn list_runs(&self) -> Result<Vec<(RunDir, State)>, WorkDirError> {
        let runs = self.runs();
        let entries = match fs::read_dir(&runs) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_err(&runs)(e)),
        };
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let id = entry.file_name().to_string_lossy().into_owned();
            if let Ok(run) = self.run(&id)
                && let Ok(Some(state)) = State::load(&run.state_file())
            {
                out.push((run, state));
            }
        }
        out.sort_by(|a, b| (a.1.created, &a.0.id).cmp(&(b.1.created, &b.0.id)));
        Ok(out)
    }

    /// The most recent run of `recipe`, with where it got to.
    pub fn latest_run(&self, recipe: &str) -> Result<Option<(RunDir, State)>, WorkDirError> {
        Ok(self
            .list_runs()?
            .into_iter()
            .rev()
            .find(|(_, s)| s.recipe == recipe))
    }

    /// Deletes a run's folder.
    pub fn remove_run(&self, id: &str) -> Result<(), WorkDirError> {
        let run = self.run(id)?;
        fs::remove_dir_all(&run.path).map_err(io_err(&run.path))
    }
}

/// One run's folder.
#[derive(Clone, Debug)]
pub struct RunDir {
    pub id: String,
    pub path: PathBuf,
}

impl RunDir {
    /// The recipe's `[[file]]`s.
    pub fn files(&self) -> PathBuf {
        self.path.join("files")
    }
    pub fn sources(&self) -> PathBuf {
        self.path.join("sources")
    }
    pub fn trees(&self) -> PathBuf {
        self.path.join("trees")
    }
    pub fn logs(&self) -> PathBuf {
        self.path.join("logs")
    }
    pub fn results(&self) -> PathBuf {
        self.path.join("results")
    }
    pub fn state_file(&self) -> PathBuf {
        self.path.join("state.json")
    }
    /// A file of the run's folder that Reprise writes, by its path inside
    /// it: opened without following any symlink on the way.
    pub fn file(&self, rel: impl AsRef<Path>) -> Result<RunFile, Outside> {
        RunFile::new(&self.path, rel)
    }
    /// `logs/<name>.log`.
    pub fn log(&self, name: &str) -> Result<RunFile, Outside> {
        self.file(Path::new("logs").join(format!("{name}.log")))
    }
    /// The process groups the run has running, and the lock of the attempt
    /// running it ([`crate::os::processes`]).
    pub fn processes(&self) -> PathBuf {
        self.path.join("processes")
    }
}

/// Where a step got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// Started and not (yet) ended: a run killed here redoes the step.
    Running,
    Finished,
    Failed,
    Cancelled,
    Skipped,
}

/// What a run remembers about one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepState {
    pub status: StepStatus,
    /// SHA-256 over what the step depends on: its definition, the recipe's
    /// files, its sources, the outputs of the steps before it.
    pub inputs: String,
    /// The tree digest of what the step produced, for steps that produce a tree.
    pub outputs: Option<String>,
    /// Seconds since the Unix epoch.
    pub started: u64,
    pub finished: Option<u64>,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
    /// The commit a clone step checked out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

impl StepState {
    /// A step that ended as soon as it was taken (skipped, or refused
    /// under `--strict`): no inputs, no outputs.
    pub fn ended(status: StepStatus, reason: String) -> StepState {
        StepState {
            status,
            inputs: String::new(),
            outputs: None,
            started: now(),
            finished: Some(now()),
            reason: Some(reason),
            commit: None,
        }
    }
}

/// A run's `state.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub recipe: String,
    /// SHA-256 of the recipe file the run was made from.
    pub recipe_sha256: String,
    /// Seconds since the Unix epoch.
    pub created: u64,
    pub steps: BTreeMap<String, StepState>,
}

impl State {
    pub fn new(recipe: &str, recipe_sha256: &str) -> State {
        State {
            recipe: recipe.to_string(),
            recipe_sha256: recipe_sha256.to_string(),
            created: now(),
            steps: BTreeMap::new(),
        }
    }

    /// Whether every step of `plan` finished or was skipped.
    pub fn ended(&self, plan: &[&str]) -> bool {
        plan.iter().all(|id| {
            self.steps
                .get(*id)
                .is_some_and(|s| matches!(s.status, StepStatus::Finished | StepStatus::Skipped))
        })
    }

    /// Reads a state file; `None` when there is none yet.
    pub fn load(path: &Path) -> Result<Option<State>, WorkDirError> {
        match fs::read(path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes)
                    .map(Some)
                    .map_err(|source| WorkDirError::BadState {
                        path: path.to_path_buf(),
                        source,
                    })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_err(path)(e)),
        }
    }

    /// Writes the state of `run` atomically, into its `state.json`.
    pub fn save(&self, run: &RunDir) -> Result<(), WorkDirError> {
        let path = run.state_file();
        let mut text =
            serde_json::to_vec_pretty(self).map_err(|source| WorkDirError::BadState {
                path: path.clone(),
                source,
            })?;
        text.push(b'\n');
        run.file("state.json")
            .map_err(|e| io_err(&path)(std::io::Error::other(e)))?
            .write_atomic(&text)
            .map_err(io_err(&path))
    }
}

/// Writes `bytes` to `path` through a temp file in the same folder, synced
/// before it is renamed over the old file, so a reader sees old or new, never half.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WorkDirError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file = File::create(&tmp).map_err(io_err(&tmp))?;
    file.write_all(bytes).map_err(io_err(&tmp))?;
    crate::os::run_files::sync(&file).map_err(io_err(&tmp))?;
    drop(file);
    fs::rename(&tmp, path).map_err(io_err(path))?;
    // The rename itself is durable once the folder is synced.
    if let Ok(d) = File::open(dir) {
        let _ = crate::os::run_files::sync(&d);
    }
    Ok(())
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    reprise_harness_files::timestamp::now_secs()
}
