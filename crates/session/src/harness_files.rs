//! A stored run written as the original harness's files, so tools written
//! for it read a Reprise run: `per-run.json`, `summary.json`, `summary.md`
//! and `env.json`.

use std::path::Path;

use reprise_engine::os::workdir::write_atomic;
use reprise_harness_files::bench_env::REPRISE_KEY;
use reprise_report::Report;
use serde_json::{Value, json};

use crate::SessionError;

/// The env.json of the run: the one the run wrote (bench-env's fields, with
/// Reprise's under `reprise`) or the harness's own where it was read;
/// otherwise what the report knows, in bench-env's keys, with the
/// fingerprint under `reprise`.
pub fn bench_env(report: &Report) -> Value {
    if !report.environment.bench_env.is_null() {
        return report.environment.bench_env.clone();
    }
    let env = &report.environment;
    let toolchains: serde_json::Map<String, Value> = env
        .toolchains
        .iter()
        .map(|t| (t.name.clone(), Value::String(t.version.clone())))
        .collect();
    json!({
        "captured_at": report.run.created_at,
        "toolchains": toolchains,
        "harness": env.harness,
        REPRISE_KEY: { "fingerprint": env.fingerprint },
    })
}

/// The machine a stored run was measured on, read from its env.json as
/// bench-env's fields or Reprise's own fingerprint; `None` when the run
/// records nothing of its machine.
pub fn measured_on(report: &Report) -> Option<reprise_probe::Fingerprint> {
    let env =
        serde_json::from_value::<reprise_harness_files::bench_env::BenchEnv>(bench_env(report));
    env.ok()
        .map(|env| env.to_fingerprint())
        .filter(|fingerprint| *fingerprint != reprise_probe::Fingerprint::default())
}

/// Writes `per-run.json`, `summary.json`, `summary.md` and `env.json` into
/// `dir`; the summaries are the harness's own aggregation of that
/// `per-run.json`.
pub fn export(report: &Report, dir: &Path) -> Result<(), SessionError> {
    let per_run = reprise_harness_files::per_run::render(&report.measurements);
    let summary = reprise_harness_files::summary::aggregate(&per_run)?;
    let files = [
        (reprise_harness_files::PER_RUN_FILE, per_run.into_bytes()),
        (
            reprise_harness_files::SUMMARY_FILE,
            summary.json().into_bytes(),
        ),
        (
            reprise_harness_files::SUMMARY_MD_FILE,
            summary.markdown().into_bytes(),
        ),
        (
            reprise_harness_files::ENV_FILE,
            reprise_harness_files::pretty(&bench_env(report)),
        ),
    ];
    std::fs::create_dir_all(dir).map_err(|source| {
        reprise_engine::os::workdir::WorkDirError::Io {
            path: dir.to_path_buf(),
            source,
        }
    })?;
    for (name, bytes) in files {
        write_atomic(&dir.join(name), &bytes)?;
    }
    Ok(())
}
