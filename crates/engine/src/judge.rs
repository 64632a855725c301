//! A finished run, judged against its recipe's claims: the report the results
//! history stores and `reprise report` renders. The CLI and the desktop app
//! both call this, so a run is judged one way wherever it was started.

use reprise_recipe::Recipe;
use reprise_report::{Report, RunInfo, history, results_dir};
use reprise_verdict::{MachineMatch, Settings};

use crate::RunDir;

/// Judges what `run` measured. `origin` says where the run was started (e.g.
/// "reprise run"). `Ok(None)` when the run measured nothing to judge.
pub fn judge_run(recipe: &Recipe, run: &RunDir, origin: &str) -> Result<Option<Report>, String> {
    let results = run.results();
    // Lanes alternate within each round, so rounds are paired samples.
    let settings = Settings {
        rounds_alternate: true,
        ..Settings::default()
    };
    let mut info = RunInfo::for_recipe(recipe, &run.id, &history::utc_now());
    info.origin = Some(format!("{origin}, {}", run.path.display()));
    if results.join(reprise_verdict::PER_RUN_FILE).is_file() {
        return results_dir::report_from_dir(recipe, &results, None, info, &settings)
            .map(Some)
            .map_err(|e| format!("cannot judge {}: {e}", results.display()));
    }
    let measurements = crate::figures::command_measurements(recipe, &results);
    let people = results_dir::read_people(&results).map_err(|e| e.to_string())?;
    if measurements.cells.is_empty() && people.is_empty() {
        return Ok(None);
    }
    let env = results_dir::read_bench_env(&results).unwrap_or(serde_json::Value::Null);
    let machine = if env.is_null() {
        MachineMatch::Differs(vec!["this machine was not compared with the post's".into()])
    } else {
        results_dir::machine_from_bench_env(recipe, &env)
    };
    Ok(Some(Report {
        run: info,
        judgement: reprise_verdict::judge(recipe, &measurements, &machine, &settings),
        environment: results_dir::environment_from_bench_env(recipe, &env),
        measurements,
        people,
    }))
}
