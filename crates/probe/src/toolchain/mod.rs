//! Toolchains: found on a search path (and in mise's install dirs), each asked
//! for its version concurrently, each cut off at a timeout (JVMs take seconds
//! to answer; a hung one must not hold up the rest).

pub mod banner;
mod run;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use banner::Banner;

/// How to ask one tool for its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolQuery {
    /// The name reports use, e.g. `java`.
    pub tool: String,
    /// The executable's file name to look for.
    pub program: String,
    /// The arguments that make it print its version.
    pub args: Vec<String>,
}

impl ToolQuery {
    pub fn new(tool: &str, args: &[&str]) -> Self {
        Self {
            tool: tool.to_string(),
            program: tool.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }
}

/// The toolchains Reprise's recipes use, each with the flag that prints its version.
pub fn standard_queries() -> Vec<ToolQuery> {
    let mut queries: Vec<ToolQuery> = [
        "ruby",
        "jruby",
        "truffleruby",
        "bundle",
        "gem",
        "rustc",
        "cargo",
        "node",
        "git",
        "sqlite3",
        "mise",
        "podman",
        "docker",
    ]
    .iter()
    .map(|t| ToolQuery::new(t, &["--version"]))
    .collect();
    queries.push(ToolQuery::new("java", &["-version"]));
    // wrk has no version flag: -v prints the banner to stderr and exits non-zero.
    queries.push(ToolQuery::new("wrk", &["-v"]));
    queries
}

/// Where executables are looked for: PATH-like directories, then mise's
/// install dirs (`<installs>/<tool>/<version>/bin`).
#[derive(Debug, Clone, Default)]
pub struct SearchPath {
    pub dirs: Vec<PathBuf>,
    pub mise_installs: Option<PathBuf>,
}

impl SearchPath {
    /// This process's `PATH` and `~/.local/share/mise/installs` (or
    /// `$MISE_DATA_DIR/installs`) when it exists.
    pub fn from_env() -> Self {
        let dirs = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        let mise = std::env::var_os("MISE_DATA_DIR")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share/mise")))
            .map(|d| d.join("installs"))
            .filter(|d| d.is_dir());
        Self {
            dirs,
            mise_installs: mise,
        }
    }

    /// The first executable named `program` in the PATH directories.
    pub fn find(&self, program: &str) -> Option<PathBuf> {
        if program.contains('/') {
            let path = PathBuf::from(program);
            return is_executable(&path).then_some(path);
        }
        self.dirs
            .iter()
            .map(|d| d.join(program))
            .find(|p| is_executable(p))
    }

    /// Every `<installs>/<tool>/<version>/bin/<program>` mise holds, one per
    /// real file (mise's `4` → `4.0.5` symlinks are skipped).
    pub fn mise_candidates(&self, program: &str) -> Vec<PathBuf> {
        let Some(installs) = &self.mise_installs else {
            return Vec::new();
        };
        let mut seen = BTreeSet::new();
        let mut found = Vec::new();
        for tool_dir in sorted_dirs(installs) {
            for version_dir in sorted_dirs(&tool_dir) {
                if version_dir.is_symlink() {
                    continue;
                }
                let exe = version_dir.join("bin").join(program);
                if is_executable(&exe) {
                    let real = exe.canonicalize().unwrap_or_else(|_| exe.clone());
                    if seen.insert(real) {
                        found.push(exe);
                    }
                }
            }
        }
        found
    }

    /// The directories as a `PATH` value for the tools' own children.
    pub fn joined(&self) -> std::ffi::OsString {
        std::env::join_paths(&self.dirs).unwrap_or_default()
    }
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Where an executable was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// First on the search path: what a plain command line runs.
    Path,
    /// In mise's install dirs: runnable through `mise exec`.
    Mise,
}

/// How asking went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It answered (possibly with a non-zero exit, as `wrk -v` does).
    Answered,
    /// Not on the search path.
    Missing,
    /// Still running at the timeout, and killed.
    TimedOut,
    /// It could not be started, or failed without printing anything useful.
    Failed,
    /// Found on the search path and not asked (see [`locate`]): present, its
    /// version unknown.
    Located,
}

impl Status {
    /// Whether the tool is there to run: it answered, or was found and not asked.
    pub fn is_present(self) -> bool {
        matches!(self, Status::Answered | Status::Located)
    }
}

/// One toolchain as found and asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolProbe {
    pub tool: String,
    pub path: Option<PathBuf>,
    pub origin: Option<Origin>,
    pub status: Status,
    /// The raw banner line (the first line that parses as a version, else the first line).
    pub first_line: Option<String>,
    /// The parsed banner.
    pub banner: Option<Banner>,
    /// Why it failed, for `Failed` and `TimedOut`.
    pub error: Option<String>,
    pub elapsed_ms: u64,
    /// Its whole answer (stdout then stderr, at most 8 KiB), for a recipe's
    /// own version pattern. Not serialised: the first line is the record.
    #[serde(skip)]
    pub output: String,
}

impl ToolProbe {
    /// The parsed version, e.g. `4.0.5`.
    pub fn version(&self) -> Option<&str> {
        self.banner.as_ref().map(|b| b.version.as_str())
    }
}

/// Every toolchain asked, PATH hits first, then mise installs, in query order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Toolchains {
    pub tools: Vec<ToolProbe>,
    /// Read from a record of a machine (a published `env.json`), not asked
    /// here: a tool the record does not list was not recorded, which says
    /// nothing of whether that machine had it.
    #[serde(default)]
    pub recorded: bool,
}

impl Toolchains {
    /// What a plain command line would run for `tool` (the PATH hit), or
    /// the `Missing` entry.
    pub fn get(&self, tool: &str) -> Option<&ToolProbe> {
        self.tools
            .iter()
            .find(|t| t.tool == tool && t.origin != Some(Origin::Mise))
    }

    /// Every executable found for `tool`, PATH first then mise.
    pub fn candidates<'a>(&'a self, tool: &'a str) -> impl Iterator<Item = &'a ToolProbe> + 'a {
        self.tools
            .iter()
            .filter(move |t| t.tool == tool && t.status.is_present())
    }
}

impl ToolProbe {
    fn unasked(tool: &str, path: Option<PathBuf>, origin: Option<Origin>, status: Status) -> Self {
        ToolProbe {
            tool: tool.to_string(),
            path,
            origin,
            status,
            first_line: None,
            banner: None,
            error: None,
            elapsed_ms: 0,
            output: String::new(),
        }
    }
}

/// Finds and asks every queried tool concurrently; returns when all have
/// answered or been cut off at `timeout`.
pub fn probe(queries: &[ToolQuery], search: &SearchPath, timeout: Duration) -> Toolchains {
    let mut jobs = Vec::new();
    let mut tools = Vec::new();
    for query in queries {
        match search.find(&query.program) {
            Some(path) => jobs.push((query.clone(), path, Origin::Path)),
            None => tools.push(ToolProbe::unasked(&query.tool, None, None, Status::Missing)),
        }
        for path in search.mise_candidates(&query.program) {
            jobs.push((query.clone(), path, Origin::Mise));
        }
    }
    tools.extend(run::ask_all(jobs, &search.joined(), timeout));
    sorted(queries, tools)
}

/// Finds every queried tool without running any of them: `Located` where
/// found, `Missing` where not. For listings that must not execute what a
/// recipe names (asking a version runs the recipe's command).
pub fn locate(queries: &[ToolQuery], search: &SearchPath) -> Toolchains {
    let mut tools = Vec::new();
    for query in queries {
        let (path, origin, status) = match search.find(&query.program) {
            Some(path) => (Some(path), Some(Origin::Path), Status::Located),
            None => (None, None, Status::Missing),
        };
        tools.push(ToolProbe::unasked(&query.tool, path, origin, status));
        for path in search.mise_candidates(&query.program) {
            tools.push(ToolProbe::unasked(
                &query.tool,
                Some(path),
                Some(Origin::Mise),
                Status::Located,
            ));
        }
    }
    sorted(queries, tools)
}

/// PATH hits first, then mise installs, in query order.
fn sorted(queries: &[ToolQuery], mut tools: Vec<ToolProbe>) -> Toolchains {
    let order = |t: &ToolProbe| {
        (
            queries.iter().position(|q| q.tool == t.tool),
            t.origin == Some(Origin::Mise),
        )
    };
    tools.sort_by_key(order);
    Toolchains {
        tools,
        recorded: false,
    }
}
