//! A stored run written as the original harness's files, so tools written
//! for it read a Reprise run: `per-run.json`, `summary.json` and `env.json`.

use std::path::Path;

use reprise_engine::workdir::write_atomic;
use reprise_report::Report;
use serde_json::{Value, json};

use crate::SessionError;

/// The bench-env of the run: the harness's own `env.json` where it was
/// read, otherwise one made from the report's environment.
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
        "fingerprint": env.fingerprint,
    })
}

/// Writes `per-run.json`, `summary.json` and `env.json` into `dir`.
pub fn export(report: &Report, dir: &Path) -> Result<(), SessionError> {
    let m = &report.measurements;
    let files = [
        (
            reprise_harness::PER_RUN_FILE,
            reprise_harness::per_run::render(m).into_bytes(),
        ),
        (
            reprise_harness::SUMMARY_FILE,
            reprise_harness::pretty(&reprise_harness::summary::summarise(m)),
        ),
        (
            reprise_harness::ENV_FILE,
            reprise_harness::pretty(&bench_env(report)),
        ),
    ];
    std::fs::create_dir_all(dir).map_err(|source| reprise_engine::workdir::WorkDirError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    for (name, bytes) in files {
        write_atomic(&dir.join(name), &bytes)?;
    }
    Ok(())
}
