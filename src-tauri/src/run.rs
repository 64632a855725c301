//! Running a recipe from the app, through the session API as `reprise run`
//! does: the plan and where the latest run got to, a run whose events go
//! through [`crate::stream`] to a channel, and cancel.

use reprise_engine::{Event, PlanOptions, State};
use reprise_session::Session;
use reprise_session::run::RunOptions;

use crate::commands::{Answer, error, load_recipe};
use crate::views::*;

/// The steps as the engine will take them, and where the latest run got to.
pub fn plan(session: &Session, id: &str) -> Answer<RunPlan> {
    let loaded = load_recipe(session, id)?;
    let plan = reprise_engine::plan(&loaded.recipe, &PlanOptions::default())
        .map_err(|e| error(e.into()))?;
    let latest = session
        .data
        .latest_run(loaded.recipe.id())
        .map_err(|e| error(e.into()))?;
    let state = latest
        .as_ref()
        .and_then(|run| State::load(&run.state_file()).ok().flatten());
    Ok(RunPlan {
        recipe: loaded.recipe.id().to_string(),
        checksum: loaded.checksum.clone(),
        lanes: plan.lanes.clone(),
        latest_run: latest.map(|r| r.id),
        steps: plan
            .steps
            .iter()
            .map(|p| {
                let before = state.as_ref().and_then(|s| s.steps.get(p.id()));
                PlannedStep {
                    id: p.id().to_string(),
                    kind: p.kind(),
                    why: p.step.why.clone(),
                    describe: p.describe(&loaded.recipe),
                    last_status: before.map(|b| b.status),
                    last_reason: before.and_then(|b| b.reason.clone()),
                }
            })
            .collect(),
    })
}

/// Runs (or resumes) the recipe's steps; `send` gets the throttled batches.
/// The session refuses a recipe that is not the reviewed one.
pub fn start<E>(
    session: &Session,
    id: &str,
    fresh: bool,
    quick: bool,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
) -> Answer<RunOutcome> {
    let loaded = load_recipe(session, id)?;
    let options = RunOptions {
        fresh,
        quick,
        origin: "the desktop app".into(),
        ..RunOptions::default()
    };
    let prepared = session.prepare(&loaded, &options).map_err(error)?;
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    std::thread::scope(|scope| {
        let forwarder =
            scope.spawn(move || crate::stream::forward(&rx, crate::stream::INTERVAL, send));
        let sink = move |e: Event| {
            let _ = tx.send(e);
        };
        let outcome = session.execute(prepared, &sink);
        drop(sink);
        let _ = forwarder.join();
        outcome.map_err(error)
    })
}
