//! `reprise probe [--json | --format bench-env]`: this machine's fingerprint
//! and toolchains, as a list, as JSON, or as the original harness's env.json.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use clap::{Args as ClapArgs, ValueEnum};
use reprise_harness_files::bench_env::BenchEnv;
use reprise_probe::toolchain::{self, SearchPath, Status, Toolchains};
use reprise_probe::{Fingerprint, Snapshot};

use crate::table::Table;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// An aligned list for people.
    Human,
    /// `{fingerprint, toolchains}`, for `reprise preflight --machine`.
    Json,
    /// The original harness's env.json, as scripts/bench-env writes it
    /// (Reprise's fingerprint under `reprise`).
    BenchEnv,
}

#[derive(ClapArgs)]
pub struct Args {
    /// Print JSON (same as --format json).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// How long each toolchain may take to print its version (JVMs are
    /// slow): seconds, or e.g. 500ms, 30s; held between 0.1 s and 10 min.
    #[arg(long, default_value = "10s", value_parser = crate::flags::duration)]
    timeout: Duration,
    /// Read /proc and /sys under this directory instead of / (fixture trees).
    #[arg(long, hide = true)]
    root: Option<PathBuf>,
}

/// The fingerprint and the standard toolchains, asked at the same time.
pub fn snapshot(root: Option<&PathBuf>, timeout: Duration) -> Snapshot {
    let search = SearchPath::from_env();
    std::thread::scope(|scope| {
        let machine = scope.spawn(|| match root {
            Some(root) => Fingerprint::read(root),
            None => Fingerprint::probe(),
        });
        let toolchains = toolchain::probe(&toolchain::standard_queries(), &search, timeout);
        Snapshot {
            fingerprint: machine.join().unwrap_or_default(),
            toolchains,
        }
    })
}

pub fn run(args: Args) -> ExitCode {
    let timeout = args
        .timeout
        .clamp(Duration::from_millis(100), Duration::from_secs(600));
    let snap = snapshot(args.root.as_ref(), timeout);
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&snap).unwrap_or_default()
        ),
        Format::BenchEnv => {
            // What scripts/bench-env prints here (run in this folder), with
            // Reprise's fingerprint and toolchains under `reprise`.
            let cwd = std::env::current_dir().ok();
            let root = args.root.clone().unwrap_or_else(|| PathBuf::from("/"));
            let env = BenchEnv::capture_under(&root, cwd.as_deref(), None, SystemTime::now())
                .with_reprise(&snap.fingerprint, &snap.toolchains, Default::default());
            println!("{}", env.to_json());
        }
        Format::Human => print!("{}", render(&snap.fingerprint, &snap.toolchains)),
    }
    ExitCode::SUCCESS
}

/// The machine as `key  value` lines, then the toolchains as a table.
pub fn render(fp: &Fingerprint, tools: &Toolchains) -> String {
    let facts = fp.summary();
    let width = facts
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Machine\n");
    for (key, value) in &facts {
        out.push_str(&format!("  {key:<width$}  {value}\n"));
    }
    out.push_str("\nToolchains\n");
    let mut table = Table::new(&["tool", "version", "where"]);
    for t in &tools.tools {
        let version = match (t.status, &t.banner) {
            (Status::Answered, Some(b)) => b.describe(),
            (Status::Answered, None) => t.first_line.clone().unwrap_or_else(|| "—".to_string()),
            (Status::Missing, _) => "—".to_string(),
            (Status::TimedOut, _) => "timed out".to_string(),
            (Status::Failed, _) => "failed".to_string(),
            (Status::Located, _) => "not asked".to_string(),
        };
        let place = match (&t.path, &t.error) {
            (None, _) => "not found".to_string(),
            (Some(p), None) => format!("{} ({} ms)", super::shown_path(p), t.elapsed_ms),
            (Some(p), Some(e)) => format!("{}: {e}", super::shown_path(p)),
        };
        table.row(vec![t.tool.clone(), version, place]);
    }
    out.push_str(&table.render(2));
    out
}
