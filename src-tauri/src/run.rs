//! Running a recipe from the app, through the session API as `reprise run`
//! does: the plan and where the latest run got to, a run whose events go
//! through [`crate::stream`] to a channel, and cancel.

use reprise_engine::{Event, LaneHost, State};
use reprise_session::Session;
use reprise_session::run::RunOptions;

use crate::commands::{Answer, error, load_recipe};
use crate::views::*;

/// The steps as the engine will take them, what each will do (kept, run,
/// redone), and where the latest run got to. A recipe that is not the
/// reviewed one is planned with its deviation and its diff from the
/// reviewed version said; starting it needs the reader's explicit yes.
pub fn plan(session: &Session, id: &str, server: Option<&ServerChoice>) -> Answer<RunPlan> {
    let mut loaded = load_recipe(session, id)?;
    let (images, lane_host) = place(&mut loaded.recipe, server)?;
    let options = RunOptions {
        allow_modified: true,
        images,
        lane_host,
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

/// The server choice applied to the recipe as `reprise run` applies its
/// options: the lanes' images, and where the lanes are served.
fn place(
    recipe: &mut reprise_recipe::Recipe,
    server: Option<&ServerChoice>,
) -> Answer<(std::collections::BTreeMap<String, String>, LaneHost)> {
    let Some(server) = server else {
        return Ok(Default::default());
    };
    let images: std::collections::BTreeMap<String, String> = server
        .images
        .iter()
        .filter(|(_, image)| !image.trim().is_empty())
        .map(|(lane, image)| (lane.clone(), image.trim().to_string()))
        .collect();
    let certs = server
        .certs
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(std::path::Path::new);
    let host = reprise_session::run::place_lanes(recipe, Some(server.host.trim()), certs, &images)
        .map_err(error)?;
    Ok((images, host))
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
    let mut loaded = load_recipe(session, id)?;
    let (images, lane_host) = place(&mut loaded.recipe, choices.server.as_ref())?;
    let options = RunOptions {
        fresh: choices.fresh,
        quick: choices.quick,
        sources: choices.sources,
        allow_modified: choices.allow_modified,
        origin: "the desktop app".into(),
        images,
        lane_host,
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
