//! Running a recipe from the app: the engine's plan, its events forwarded
//! through [`crate::stream`] to a channel, cancel, and re-entering a run
//! (the engine resumes a recipe's latest run; its state file says where
//! each step got to).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{DataDir, PlanOptions, RunContext, State};
use reprise_recipe::Recipe;

use crate::commands::{Shell, load_recipe};
use crate::stream::Incoming;
use crate::views::*;

/// The runs going on now, by recipe id, so a page can cancel them.
#[derive(Clone, Default)]
pub struct Runs(Arc<Mutex<HashMap<String, CancelToken>>>);

fn error(kind: &str, message: impl ToString, hint: &str) -> CommandError {
    CommandError {
        kind: kind.into(),
        message: message.to_string(),
        hint: hint.into(),
    }
}

fn data(shell: &Shell) -> DataDir {
    DataDir {
        root: shell.data_dir.clone(),
    }
}

fn plan_of<'r>(recipe: &'r Recipe) -> Result<reprise_engine::Plan<'r>, CommandError> {
    reprise_engine::plan(recipe, &PlanOptions::default()).map_err(|e| {
        error(
            "plan",
            e,
            "The recipe's steps cannot be planned; `reprise run` shows the same error.",
        )
    })
}

/// The steps as the engine will take them, and where the latest run got to.
pub fn plan(shell: &Shell, id: &str) -> Result<RunPlan, CommandError> {
    let (recipe, checksum) = load_recipe(shell, id)?;
    let plan = plan_of(&recipe)?;
    let latest = data(shell).latest_run(recipe.id()).map_err(|e| {
        error(
            "io",
            e,
            "Check that the data dir is writable, or set REPRISE_DATA_DIR.",
        )
    })?;
    let state = match &latest {
        Some(run) => State::load(&run.state_file()).ok().flatten(),
        None => None,
    };
    let word = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    Ok(RunPlan {
        recipe: recipe.id().to_string(),
        checksum,
        lanes: plan.lanes.clone(),
        latest_run: latest.map(|r| r.id),
        steps: plan
            .steps
            .iter()
            .map(|p| {
                let before = state.as_ref().and_then(|s| s.steps.get(p.id()));
                PlannedStepView {
                    id: p.id().to_string(),
                    kind: p.kind().name().into(),
                    why: p.step.why.clone(),
                    describe: p.describe(&recipe),
                    last_status: before
                        .map(|b| word(serde_json::to_value(b.status).unwrap_or_default())),
                    last_reason: before.and_then(|b| b.reason.clone()),
                }
            })
            .collect(),
    })
}

/// An engine event as the throttle takes it: progress and log lines are
/// merged, everything else goes on at once as JSON.
pub fn incoming(event: Event) -> Incoming {
    match event {
        Event::Progress {
            step, done, total, ..
        } => Incoming::Progress {
            step,
            done: done as f64,
            total: (total > 0).then_some(total as f64),
            req_per_s: None,
            p99_ms: None,
        },
        Event::Measuring {
            step,
            cells_done,
            cells,
            req_per_s,
            p99_ms,
            ..
        } => Incoming::Progress {
            step,
            done: cells_done as f64,
            total: (cells > 0).then_some(cells as f64),
            req_per_s: Some(req_per_s),
            p99_ms,
        },
        Event::Log { step, line, .. } => Incoming::Log { step, line },
        other => Incoming::Other(serde_json::to_string(&other).unwrap_or_default()),
    }
}

/// Runs (or resumes) the recipe's steps; `send` gets the throttled batches.
/// Refuses a recipe whose checksum does not match: its commands have not
/// been reviewed.
pub fn start<E>(
    shell: &Shell,
    runs: &Runs,
    id: &str,
    fresh: bool,
    quick: bool,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
) -> Result<RunOutcome, CommandError> {
    let (recipe, checksum) = load_recipe(shell, id)?;
    if checksum != "ok" {
        return Err(error(
            "modified",
            format!(
                "{} is {checksum} in checksums/recipes.sha256: its commands have not been reviewed",
                recipe.file.display()
            ),
            "Review the recipe, then record it with `reprise checksums update`, or run it from the CLI with --allow-modified.",
        ));
    }
    let plan = plan_of(&recipe)?;
    let data = data(shell);
    let io = |e: reprise_engine::workdir::WorkDirError| {
        error(
            "io",
            e,
            "Check that the data dir is writable, or set REPRISE_DATA_DIR.",
        )
    };
    let latest = if fresh {
        None
    } else {
        data.latest_run(recipe.id()).map_err(io)?
    };
    let run = match latest {
        Some(run) => run,
        None => data.create_run(recipe.id()).map_err(io)?,
    };
    let cancel = CancelToken::new();
    {
        let mut going = runs.0.lock().unwrap_or_else(|p| p.into_inner());
        if going.contains_key(recipe.id()) {
            return Err(error(
                "busy",
                format!("{} is already running", recipe.id()),
                "Wait for it to finish, or cancel it first.",
            ));
        }
        going.insert(recipe.id().to_string(), cancel.clone());
    }
    let run_id = run.id.clone();
    let (tx, rx) = std::sync::mpsc::channel::<Incoming>();
    let result = std::thread::scope(|scope| {
        let forwarder =
            scope.spawn(move || crate::stream::forward(&rx, crate::stream::INTERVAL, send));
        let sink = move |e: Event| {
            let _ = tx.send(incoming(e));
        };
        let ctx = RunContext {
            data,
            run,
            checksums_root: shell.catalog.root.clone(),
            cancel,
            events: &sink,
            grace: std::time::Duration::from_secs(5),
            quick,
        };
        let result = reprise_engine::execute(&plan, &ctx);
        let stored = result.is_ok() && store_in_history(shell, &recipe, &ctx.run);
        drop(ctx);
        drop(sink);
        let _ = forwarder.join();
        result.map(|r| (r, stored))
    });
    runs.0
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(recipe.id());
    let (report, stored) = result.map_err(|e| {
        error(
            "run",
            e,
            "The run stopped; its log is in the run folder. Start it again to resume.",
        )
    })?;
    Ok(RunOutcome {
        stored: stored.then(|| run_id.clone()),
        run: run_id,
        finished: report.finished,
        reused: report.reused,
        skipped: report.skipped,
        failed: report.failed,
        cancelled: report.cancelled,
    })
}

/// Asks the recipe's run to stop. Answers whether one was going.
pub fn cancel(runs: &Runs, id: &str) -> bool {
    match runs.0.lock().unwrap_or_else(|p| p.into_inner()).get(id) {
        Some(token) => {
            token.cancel();
            true
        }
        None => false,
    }
}

/// Judges what the run measured and stores it in the results history, as
/// `reprise run` does, so the Results and Share pages have it. Answers
/// whether there was something to store.
fn store_in_history(shell: &Shell, recipe: &Recipe, run: &reprise_engine::RunDir) -> bool {
    let Ok(Some(report)) = reprise_engine::judge::judge_run(recipe, run, "the desktop app") else {
        return false;
    };
    reprise_report::history::History::open(&shell.data_dir)
        .and_then(|mut h| h.store(&report))
        .is_ok()
}
