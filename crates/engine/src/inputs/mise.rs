//! Toolchains through mise, the posts' own convention ("toolchains pinned
//! via mise"): the versions a recipe pins are written into a mise config of
//! the recipe's own (`<data dir>/setup/<recipe>/mise.toml`), `mise install`
//! provides them with its output as live progress, and every step and lane
//! of a run, and every preflight, gets the environment mise resolves for
//! that config — so the versions used are exactly the pinned ones, whatever
//! else the machine has on its PATH.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use reprise_recipe::Recipe;

use crate::event::{CancelToken, EventSink};
use crate::os::runner::host::{self, HostCommand, HostError, Outcome};
use crate::os::workdir::DataDir;

/// The config file's name in a setup's folder.
pub const CONFIG: &str = "mise.toml";

/// Why mise could not be used.
#[derive(Debug, thiserror::Error)]
pub enum MiseError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`mise env --json` in {}: {reason}", dir.display())]
    Env { dir: PathBuf, reason: String },
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    WorkDir(#[from] crate::os::workdir::WorkDirError),
}

/// One tool of a setup: what mise installs, and the recipe's toolchains it
/// provides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiseTool {
    /// mise's name for it: `ruby`, `java`, `gem:falcon`.
    pub tool: String,
    pub versions: Vec<String>,
    /// The recipe's toolchains it provides (`ruby`, `jruby`, …).
    pub provides: Vec<String>,
}

/// A recipe's mise setup on this machine.
#[derive(Clone, Debug)]
pub struct Setup {
    pub dir: PathBuf,
}

impl Setup {
    /// Where `recipe`'s setup lives in `data`.
    pub fn of(data: &DataDir, recipe: &str) -> Setup {
        Setup {
            dir: data.root.join("setup").join(recipe),
        }
    }

    pub fn config(&self) -> PathBuf {
        self.dir.join(CONFIG)
    }

    /// Whether a setup was written for this recipe.
    pub fn exists(&self) -> bool {
        self.config().is_file()
    }

    /// Writes the config for `tools`.
    pub fn write(&self, tools: &[MiseTool]) -> Result<(), MiseError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| MiseError::Io {
            path: self.dir.clone(),
            source,
        })?;
        Ok(crate::os::workdir::write_atomic(
            &self.config(),
            config_text(tools).as_bytes(),
        )?)
    }

    /// The environment every command mise runs for this setup gets: its
    /// config trusted (it is Reprise's own, written from the reviewed
    /// recipe), and no question asked.
    fn mise_env(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            (
                "MISE_TRUSTED_CONFIG_PATHS".to_string(),
                self.dir.display().to_string(),
            ),
            ("MISE_YES".to_string(), "1".to_string()),
        ])
    }

    /// `mise install` in the setup's folder, as a command of step `setup`.
    pub fn install_command(&self, mise: &Path) -> HostCommand {
        let mut cmd = HostCommand::new(
            "setup",
            vec![mise.display().to_string(), "install".into()],
            &self.dir,
        );
        cmd.env = self.mise_env();
        cmd.timeout = None;
        cmd
    }

    /// Runs `mise install`, its output as `events`, until it ends or
    /// `cancel` stops it. Run again, it installs only what is missing.
    pub fn install(
        &self,
        mise: &Path,
        cancel: &CancelToken,
        events: &dyn EventSink,
    ) -> Result<Outcome, MiseError> {
        Ok(host::run(&self.install_command(mise), cancel, events)?)
    }

    /// The environment mise resolves for the setup (`mise env --json`):
    /// PATH with the pinned versions' bin folders first, and whatever else
    /// the tools set (JAVA_HOME, …).
    pub fn environment(&self, mise: &Path) -> Result<BTreeMap<String, String>, MiseError> {
        let failed = |reason: String| MiseError::Env {
            dir: self.dir.clone(),
            reason,
        };
        let out = Command::new(mise)
            .args(["env", "--json"])
            .current_dir(&self.dir)
            .envs(self.mise_env())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| failed(e.to_string()))?;
        if !out.status.success() {
            return Err(failed(
                String::from_utf8_lossy(&out.stderr).trim().to_string(),
            ));
        }
        let vars: BTreeMap<String, serde_json::Value> =
            serde_json::from_slice(&out.stdout).map_err(|e| failed(e.to_string()))?;
        Ok(vars
            .into_iter()
            .filter_map(|(k, v)| Some((k, v.as_str()?.to_string())))
            .collect())
    }
}

/// The recipe's toolchains mise can provide for `lanes` (every lane when
/// empty), one entry per mise tool, its versions in the recipe's order (the
/// first is the one a bare `ruby` runs).
pub fn tools(recipe: &Recipe, lanes: &[String]) -> Vec<MiseTool> {
    let mut needed: Vec<&str> = Vec::new();
    for lane in recipe
        .lanes
        .iter()
        .filter(|l| lanes.is_empty() || lanes.iter().any(|n| n == l.name.as_str()))
    {
        for tc in recipe.lane_toolchains(lane) {
            if !needed.contains(&tc.name.as_str()) {
                needed.push(tc.name.as_str());
            }
        }
    }
    let mut tools: Vec<MiseTool> = Vec::new();
    for tc in recipe
        .toolchains
        .iter()
        .filter(|t| needed.contains(&t.name.as_str()))
    {
        let Some((tool, version)) = tc.mise_tool() else {
            continue;
        };
        match tools.iter_mut().find(|t| t.tool == tool) {
            Some(t) => {
                if !t.versions.iter().any(|v| v == version) {
                    t.versions.push(version.to_string());
                }
                t.provides.push(tc.name.to_string());
            }
            None => tools.push(MiseTool {
                tool: tool.to_string(),
                versions: vec![version.to_string()],
                provides: vec![tc.name.to_string()],
            }),
        }
    }
    tools
}

/// `mise.toml` for `tools`: `[tools]`, a version or a list of versions each.
pub fn config_text(tools: &[MiseTool]) -> String {
    let mut table = toml::Table::new();
    for t in tools {
        let value = match t.versions.as_slice() {
            [one] => toml::Value::String(one.clone()),
            many => toml::Value::Array(many.iter().cloned().map(toml::Value::String).collect()),
        };
        table.insert(t.tool.clone(), value);
    }
    let mut doc = toml::Table::new();
    doc.insert("tools".into(), toml::Value::Table(table));
    format!(
        "# Written by `reprise setup`: the toolchains the recipe pins.\n{}",
        toml::to_string(&doc).unwrap_or_default()
    )
}

/// Where mise is: on PATH, else where `cargo install` and mise's own
/// installer put it.
pub fn find() -> Option<PathBuf> {
    let mut search = reprise_probe::toolchain::SearchPath::from_env();
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
        search.dirs.push(home.join(".cargo/bin"));
        search.dirs.push(home.join(".local/bin"));
    }
    search.find("mise")
}

/// The toolchain environment of `recipe`'s runs and preflights: mise's for
/// its setup where there is one (and mise to resolve it), else nothing
/// added to this process's own.
pub fn run_environment(
    data: &DataDir,
    recipe: &str,
) -> Result<BTreeMap<String, String>, MiseError> {
    let setup = Setup::of(data, recipe);
    match (setup.exists(), find()) {
        (true, Some(mise)) => setup.environment(&mise),
        _ => Ok(BTreeMap::new()),
    }
}

/// `PATH` as a toolchain environment sets it, else this process's.
pub fn path_of(env: &BTreeMap<String, String>) -> OsString {
    env.get("PATH")
        .map(OsString::from)
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default()
}

/// Where toolchains are looked for under a toolchain environment: its PATH,
/// then mise's installs.
pub fn search_path(env: &BTreeMap<String, String>) -> reprise_probe::toolchain::SearchPath {
    reprise_probe::toolchain::SearchPath {
        dirs: std::env::split_paths(&path_of(env)).collect(),
        ..reprise_probe::toolchain::SearchPath::from_env()
    }
}
