//! Running a recipe from the app, through the session API as `reprise run`
//! does: the plan and where the latest run got to, a run whose events go
//! through [`crate::stream`] to a channel, and cancel.

use reprise_engine::{Event, State};
use reprise_session::Session;
use reprise_session::run::RunOptions;

use crate::commands::{Answer, error, load_recipe};
use crate::views::*;

/// The steps as the engine will take them, what each will do (kept, run,
/// redone), and where the latest run got to. A recipe that is not the
/// reviewed one is planned with its deviation and its diff from the
/// reviewed version said; starting it needs the reader's explicit yes.
pub fn plan(session: &Session, id: &str) -> Answer<RunPlan> {
    let loaded = load_recipe(session, id)?;
    let options = RunOptions {
        allow_modified: true,
        ..RunOptions::default()
    };
    let prepared = session.prepare(&loaded, &options).map_err(error)?;
    let state = prepared
        .resumes
        .as_ref()
        .and_then(|run| State::load(&run.state_file()).ok().flatten());
    Ok(RunPlan {
        recipe: loaded.recipe.id().to_string(),
        checksum: loaded.checksum.clone(),
        lanes: prepared.plan.lanes.clone(),
        latest_run: prepared.resumes.as_ref().map(|r| r.id.clone()),
        steps: prepared
            .plan
            .steps
            .iter()
            .zip(&prepared.decisions)
            .map(|(p, decision)| {
                let before = state.as_ref().and_then(|s| s.steps.get(p.id()));
                PlannedStep {
                    id: p.id().to_string(),
                    kind: p.kind(),
                    why: p.step.why.clone(),
                    describe: p.describe(&loaded.recipe),
                    decision: decision.clone(),
                    last_status: before.map(|b| b.status),
                    last_reason: before.and_then(|b| b.reason.clone()),
                    expected: prepared.plan.expected(p, false),
                    expected_quick: prepared.plan.expected(p, true),
                }
            })
            .collect(),
        sources: loaded
            .recipe
            .sources
            .iter()
            .map(|s| SourceOfRun {
                id: s.id.to_string(),
                url: s.url.clone(),
                revision: match s.revision() {
                    reprise_recipe::Revision::Pinned(rev) => rev.to_string(),
                    reprise_recipe::Revision::Unpinned { branch, .. } => {
                        format!("{branch} (unpinned)")
                    }
                },
            })
            .collect(),
        deviations: prepared.deviations.clone(),
        consent: prepared.consent.clone(),
        reviewed_diff: session.reviewed_diff(&loaded),
    })
}

/// Runs (or resumes) the recipe's steps; `send` gets the throttled batches.
/// The session refuses a recipe that is not the reviewed one unless the
/// reader accepted it (`allow_modified`).
pub fn start<E>(
    session: &Session,
    id: &str,
    choices: RunChoices,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
) -> Answer<RunOutcome> {
    let loaded = load_recipe(session, id)?;
    let options = RunOptions {
        fresh: choices.fresh,
        quick: choices.quick,
        sources: choices.sources,
        allow_modified: choices.allow_modified,
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
