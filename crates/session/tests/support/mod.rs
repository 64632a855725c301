//! A stored run made by a test: a results directory in the harness's format
//! for this checkout's hello-ceiling, judged and stored the way `reprise
//! verdict` stores it. Shared with the app's tests (src-tauri/tests).
#![allow(dead_code)]

use std::path::Path;

use reprise_history::History;
use reprise_report::RunInfo;

/// A results directory of these files (`per-run.json`, `env.json`,
/// `skipped.json`) for `checkout`'s hello-ceiling, judged and stored in
/// `data`'s history. Returns the run id.
pub fn store_results_dir(checkout: &Path, data: &Path, files: &[(&str, String)]) -> String {
    let results = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(results.path().join(name), text).unwrap();
    }
    let recipe = reprise_recipe::load(&checkout.join("recipes/hello-ceiling.toml")).unwrap();
    let mut history = History::open(data).unwrap();
    let id = history
        .new_id("hello-ceiling", "2026-11-30T05:00:00Z")
        .unwrap();
    let run = RunInfo::for_recipe(&recipe, &id, "2026-11-30T05:00:00Z");
    let report = reprise_session::judge::judge_results_dir(
        &recipe,
        results.path(),
        None,
        run,
        &Default::default(),
    )
    .unwrap();
    history.store(&report).unwrap();
    id
}
