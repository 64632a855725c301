//! An `env.json` of this machine, captured as `scripts/bench-env` captures
//! it: the same commands and files, the same fields, nothing it would
//! omit filled in. Reprise's own record of the machine (its fingerprint and
//! the recipe's toolchains) goes under the one key [`REPRISE_KEY`].

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use reprise_probe::toolchain::{self, Origin, SearchPath, ToolQuery};

use super::{BenchEnv, ClockSection, Conditions, CpuSection, GitState, Host};
use crate::timestamp::iso8601_utc;

/// The key under which Reprise's extras live in an `env.json` it writes.
pub const REPRISE_KEY: &str = "reprise";

/// The tools bench-env asks for their version, with its arguments, in its order.
pub const TOOLCHAINS: [(&str, &str); 17] = [
    ("ruby", "--version"),
    ("jruby", "--version"),
    ("spinel", "--version"),
    ("rustc", "--version"),
    ("cargo", "--version"),
    ("go", "version"),
    ("node", "--version"),
    ("bun", "--version"),
    ("crystal", "--version"),
    ("shards", "--version"),
    ("python3", "--version"),
    ("uv", "--version"),
    ("dotnet", "--version"),
    ("wrk", "--version"),
    ("curl", "--version"),
    ("mise", "--version"),
    ("sqlite3", "--version"),
];

/// Every command a capture runs, as a reader is shown them before a run.
pub fn commands() -> Vec<String> {
    let mut commands: Vec<String> = [
        "uname -a",
        "uname -s",
        "uname -m",
        "hostname",
        "lscpu --json",
        "uptime",
        "mise ls --current --json",
        "git rev-parse HEAD",
        "git rev-parse --abbrev-ref HEAD",
        "git log -1 --format=%s",
        "git status --porcelain",
    ]
    .map(String::from)
    .to_vec();
    commands.extend(
        TOOLCHAINS
            .iter()
            .map(|(tool, args)| format!("{tool} {args}")),
    );
    commands
}

/// How long any one of those commands may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// bench-env's `sh`: the command's stripped stdout, `None` when it failed,
/// printed nothing, or is not there.
fn sh(program: &str, args: &[&str], cwd: Option<&Path>) -> Option<String> {
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::null()).stderr(Stdio::null());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let out = cmd.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// bench-env's `read`: a file's stripped contents, the file's absolute
/// path taken under `root` (`/` but in tests of fixture trees).
fn read(root: &Path, path: &str) -> Option<String> {
    std::fs::read_to_string(root.join(path.trim_start_matches('/')))
        .ok()
        .map(|s| s.trim().to_string())
}

/// Ruby's `String#to_i`: the leading integer, 0 when there is none.
fn to_i(s: &str) -> u64 {
    let digits: String = s
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(0)
}

impl BenchEnv {
    /// This machine's env.json at `now`, as bench-env writes it when run in
    /// `git_dir` (the checkout the benchmark ran from) with `harness` as its
    /// invocation.
    pub fn capture(git_dir: Option<&Path>, harness: Option<Value>, now: SystemTime) -> BenchEnv {
        BenchEnv::capture_under(Path::new("/"), git_dir, harness, now)
    }

    /// [`BenchEnv::capture`] with the files it reads (`/proc`, `/sys`,
    /// `/etc/os-release`) taken under `root`; the commands it runs are this
    /// machine's.
    pub fn capture_under(
        root: &Path,
        git_dir: Option<&Path>,
        harness: Option<Value>,
        now: SystemTime,
    ) -> BenchEnv {
        let read = |path: &str| read(root, path);
        let stamp = iso8601_utc(now);
        let os = read("/etc/os-release").map(|release| {
            let mut parsed = BTreeMap::new();
            for line in release.lines() {
                if let Some((k, v)) = line.trim().split_once('=') {
                    parsed.insert(k.to_lowercase(), v.replace('"', "").trim().to_string());
                }
            }
            parsed
        });
        let lscpu = sh("lscpu", &["--json"], None).and_then(|s| serde_json::from_str(&s).ok());
        let mut cpu = CpuSection {
            lscpu,
            board_name: read("/sys/class/dmi/id/board_name"),
            board_vendor: read("/sys/class/dmi/id/board_vendor"),
            product_name: read("/sys/class/dmi/id/product_name"),
            ..CpuSection::default()
        };
        if cfg!(target_os = "macos") {
            cpu.brand = sh("sysctl", &["-n", "machdep.cpu.brand_string"], None);
            cpu.physical = sh("sysctl", &["-n", "hw.physicalcpu"], None).map(|s| to_i(&s) as u32);
            cpu.logical = sh("sysctl", &["-n", "hw.logicalcpu"], None).map(|s| to_i(&s) as u32);
        }
        let memory_mb = read("/proc/meminfo")
            .and_then(|m| {
                let line = m.lines().find(|l| l.starts_with("MemTotal"))?.to_string();
                Some(to_i(line.split_whitespace().nth(1)?))
            })
            .map(|kb| kb / 1024);
        let policy = "/sys/devices/system/cpu/cpufreq/policy0";
        let khz = |name: &str| read(&format!("{policy}/{name}")).map(|s| to_i(&s));
        let clock = ClockSection {
            governor: read(&format!("{policy}/scaling_governor")),
            boost: read("/sys/devices/system/cpu/cpufreq/boost").map(Value::String),
            cur_khz: khz("scaling_cur_freq"),
            min_khz: khz("scaling_min_freq"),
            max_khz: khz("scaling_max_freq"),
            extra: BTreeMap::new(),
        };
        let (toolchains, toolchain_paths) = toolchain_versions();
        let loadavg = read("/proc/loadavg").and_then(|l| {
            let parts: Vec<f64> = l
                .split_whitespace()
                .take(3)
                .filter_map(|p| p.parse().ok())
                .collect();
            <[f64; 3]>::try_from(parts).ok()
        });
        let mut extra = BTreeMap::new();
        if let Some(mise) = sh("mise", &["ls", "--current", "--json"], git_dir)
            .and_then(|s| serde_json::from_str::<Value>(&s).ok())
        {
            extra.insert("mise_current".to_string(), mise);
        }
        BenchEnv {
            captured_at: Some(stamp.clone()),
            host: Some(Host {
                uname: sh("uname", &["-a"], None),
                platform: sh("uname", &["-s"], None).map(|s| s.to_lowercase()),
                arch: sh("uname", &["-m"], None),
                hostname: sh("hostname", &[], None),
                extra: BTreeMap::new(),
            }),
            os: os.filter(|o| !o.is_empty()),
            cpu: Some(cpu).filter(|c| *c != CpuSection::default()),
            memory_mb,
            clock: Some(clock).filter(|c| *c != ClockSection::default()),
            toolchains: Some(toolchains),
            toolchain_paths: Some(toolchain_paths),
            git: Some(git_state(git_dir)),
            conditions: Some(Conditions {
                loadavg_1_5_15: loadavg,
                uptime: sh("uptime", &[], None),
                date_utc: Some(stamp),
                extra: BTreeMap::new(),
            }),
            harness: harness.filter(|h| h.as_object().is_some_and(|o| !o.is_empty())),
            extra,
        }
    }
}

/// bench-env's git block: in a checkout its state; elsewhere only
/// `dirty: false`, which it always writes.
fn git_state(dir: Option<&Path>) -> GitState {
    let git = |args: &[&str]| sh("git", args, dir);
    let dirty = git(&["status", "--porcelain"]).is_some_and(|s| !s.is_empty());
    GitState {
        sha: git(&["rev-parse", "HEAD"]),
        branch: git(&["rev-parse", "--abbrev-ref", "HEAD"]),
        subject: git(&["log", "-1", "--format=%s"]),
        dirty: Some(dirty),
    }
}

/// Each of bench-env's tools on PATH: the first line of what it printed
/// (stdout and stderr, its exit status ignored), and where it is.
fn toolchain_versions() -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let queries: Vec<ToolQuery> = TOOLCHAINS
        .iter()
        .map(|(tool, args)| ToolQuery::new(tool, &[args]))
        .collect();
    let search = SearchPath {
        mise_installs: None,
        ..SearchPath::from_env()
    };
    let mut versions = BTreeMap::new();
    let mut paths = BTreeMap::new();
    for probe in toolchain::probe(&queries, &search, TIMEOUT).tools {
        if probe.origin != Some(Origin::Path) {
            continue;
        }
        if let Some(path) = &probe.path {
            paths.insert(probe.tool.clone(), path.display().to_string());
        }
        if let Some(first) = probe.output.trim().lines().next() {
            versions.insert(probe.tool.clone(), first.trim().to_string());
        }
    }
    (versions, paths)
}
