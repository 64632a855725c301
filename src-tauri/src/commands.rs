//! What each command does: a thin call into the session API (the same the
//! CLI calls), its answer a session view or a crate's type, its failure a
//! [`CommandError`] with what to do. A command that streams (a run, a
//! setup, a validation) sends its messages through `send`; [`crate::ipc`]
//! lists the commands and makes them Tauri's.

use std::time::Duration;

use reprise_engine::{CancelToken, Event, EventSink, LaneHost, ServerHostReading};
use reprise_history::RunSummary;
use reprise_probe::preflight::Preflight;
use reprise_session::community::Community;
use reprise_session::preflight::Versions;
use reprise_session::run::{RunChoices, RunOutcome, ServerChoice};
use reprise_session::setup::{SetupEnd, SetupPlan};
use reprise_session::share::{SharePreview, ShareStatus, SignInCode};
use reprise_session::views::{
    Countdown, Library, PostView, ResultsView, RunPlan, ThisMachine, Validation,
};
use reprise_share::CreatedDiscussion;
use serde::Serialize;
use ts_rs::TS;

use crate::app_state::AppState;
use crate::errors::{CommandError, CommandResult, ErrorKind, error};
use crate::stream::{self, StreamMessage};

/// What this build can do, so the UI shows the rest as not in this build.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Capabilities {
    /// Machine probe and preflight (reprise-probe).
    pub probe: bool,
    /// Running a recipe (reprise-engine).
    pub engine: bool,
    /// The synthetic event stream bench/desktop measures with.
    pub bench_stream: bool,
}

pub fn capabilities(_: &AppState) -> CommandResult<Capabilities> {
    Ok(Capabilities {
        probe: true,
        engine: true,
        bench_stream: cfg!(feature = "bench"),
    })
}

pub fn library(app: &AppState) -> CommandResult<Library> {
    app.session.library_view().map_err(error)
}

pub fn post(app: &AppState, id: String) -> CommandResult<PostView> {
    app.session.post_view(&id).map_err(error)
}

pub fn history(app: &AppState) -> CommandResult<Vec<RunSummary>> {
    let list = || Ok(app.session.history()?.list()?);
    list().map_err(error)
}

pub fn results(app: &AppState, run: String) -> CommandResult<ResultsView> {
    app.session.results_view(&run).map_err(error)
}

pub fn machine(_: &AppState) -> CommandResult<ThisMachine> {
    Ok(ThisMachine::probe())
}

/// Validates this machine as `reprise validate` does (`quick`: about 15 s,
/// else about a minute), each stage's line sent as it happens; saved in the
/// history. Refused while a run goes on.
pub fn validate_machine<E>(
    app: &AppState,
    quick: bool,
    mut send: impl FnMut(String) -> Result<(), E>,
) -> CommandResult<Validation> {
    let (profile, history) = app
        .session
        .validate_machine(quick, true, |line| {
            // A closed window only stops the progress lines, not the validation.
            let _ = send(line.to_string());
        })
        .map_err(error)?;
    Ok(Validation::of(profile, history))
}

/// This machine against the recipe's reference, item by item, as the CLI's
/// preflight does. The toolchains are only looked for until the reader asks
/// their versions (`ask_versions`), which runs the recipe's version
/// commands the page lists: refused for a recipe that is not the reviewed one.
pub fn preflight(app: &AppState, id: String, ask_versions: bool) -> CommandResult<Preflight> {
    let session = &app.session;
    let loaded = session.load_recipe(&id).map_err(error)?;
    let versions = match ask_versions {
        true => Versions::Ask {
            timeout: Duration::from_secs(10),
        },
        false => Versions::Locate,
    };
    session
        .preflight(
            &loaded,
            versions,
            false,
            &LaneHost::ThisMachine,
            ServerHostReading::Hardware,
        )
        .map(|found| found.report)
        .map_err(error)
}

/// The plan, with the lanes on another machine where `server` says so.
pub fn plan_run(
    app: &AppState,
    id: String,
    server: Option<ServerChoice>,
) -> CommandResult<RunPlan> {
    let choices = RunChoices {
        server,
        ..RunChoices::default()
    };
    app.session.plan_for(&id, choices).map_err(error)
}

/// Runs or resumes the recipe's steps as the person chose (a new run, a
/// smoke run, sources from elsewhere, a server host), its events and how
/// long it has left to measure sent in throttled batches; answers when the
/// run ends. The session refuses a recipe that is not the reviewed one
/// unless the reader accepted it.
pub fn start_run<E>(
    app: &AppState,
    id: String,
    choices: RunChoices,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
) -> CommandResult<RunOutcome> {
    let session = &app.session;
    let mut loaded = session.load_recipe(&id).map_err(error)?;
    let options = choices
        .options(&mut loaded.recipe, "the desktop app")
        .map_err(error)?;
    let prepared = session.prepare(&loaded, &options).map_err(error)?;
    let countdown = Countdown::of(&prepared);
    streamed(Some(countdown), send, |sink| {
        session.execute(prepared, sink)
    })
    .map_err(error)
}

pub fn cancel_run(app: &AppState, id: String) -> CommandResult<bool> {
    Ok(app.session.cancel(&id))
}

/// What "Set up what's missing" will install (through mise), write and run.
pub fn setup_plan(app: &AppState, id: String, lanes: Vec<String>) -> CommandResult<SetupPlan> {
    let loaded = app.session.load_recipe(&id).map_err(error)?;
    Ok(app.session.setup_plan(&loaded, &lanes))
}

/// Installs what [`setup_plan`] shows for `id`'s `lanes`, mise's output
/// sent in throttled batches; answers when the install ends.
pub fn start_setup<E>(
    app: &AppState,
    id: String,
    lanes: Vec<String>,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
) -> CommandResult<SetupEnd> {
    let session = &app.session;
    let loaded = session.load_recipe(&id).map_err(error)?;
    let plan = session.setup_plan(&loaded, &lanes);
    let cancel = CancelToken::new();
    app.setups().insert(id.clone(), cancel.clone());
    let end = streamed(None, send, |sink| {
        session.setup(&loaded, &plan, false, sink, &cancel)
    });
    app.setups().remove(&id);
    end.map_err(error)
}

/// Stops `id`'s setup; whether one was going.
pub fn cancel_setup(app: &AppState, id: String) -> CommandResult<bool> {
    Ok(app.setups().get(&id).map(CancelToken::cancel).is_some())
}

/// What sharing `run` would post, redacted, with the Markdown Copy gives.
pub fn share_preview(app: &AppState, run: String) -> CommandResult<SharePreview> {
    app.session
        .share_preview(&run, None, None, true)
        .map_err(error)
}

pub fn share_status(app: &AppState) -> CommandResult<ShareStatus> {
    app.session.share_status().map_err(error)
}

/// Keeps `repo` (OWNER/NAME, checked) in the data dir as where to post;
/// answers the status with it.
pub fn share_choose_repo(app: &AppState, repo: String) -> CommandResult<ShareStatus> {
    app.session.choose_repo(&repo).map_err(error)?;
    share_status(app)
}

/// Keeps a pasted GitHub token where the device flow's would be kept;
/// answers the status with it.
pub fn share_keep_token(app: &AppState, token: String) -> CommandResult<ShareStatus> {
    app.session.keep_token(&token).map_err(error)?;
    share_status(app)
}

/// Forgets the kept token in every store it may be in; a store that still
/// holds one is an error naming it.
pub fn share_sign_out(app: &AppState) -> CommandResult<ShareStatus> {
    let out = app.session.sign_out();
    if !out.complete() {
        return Err(CommandError::new(
            ErrorKind::Share,
            format!("the token is still in {}", out.failed.join(", ")),
            "Remove it by hand (the token file in the data dir, or the keyring's “reprise” entry), and revoke it at https://github.com/settings/tokens.",
        ));
    }
    share_status(app)
}

/// Writes the run's redacted report (Markdown, as previewed) to the data
/// dir's `shares/RUN.md`; answers where.
pub fn share_save(app: &AppState, run: String) -> CommandResult<String> {
    let preview = share_preview(app, run)?;
    let file = app.session.save_share(&preview, None).map_err(error)?;
    Ok(file.display().to_string())
}

/// Asks GitHub for a device code for the person to enter.
pub fn share_sign_in(app: &AppState) -> CommandResult<SignInCode> {
    let code = app.session.begin_sign_in().map_err(error)?;
    let shown = SignInCode::of(&code);
    *app.sign_in() = Some(code);
    Ok(shown)
}

/// Answers once the person has entered the code at GitHub (or it expired),
/// with where the token is kept.
pub fn share_wait_sign_in(app: &AppState) -> CommandResult<String> {
    finish_sign_in(app, &mut std::thread::sleep)
}

/// [`share_wait_sign_in`], waiting between polls with `sleep`.
pub fn finish_sign_in(app: &AppState, sleep: &mut dyn FnMut(Duration)) -> CommandResult<String> {
    let code = app.sign_in().take().ok_or_else(|| {
        CommandError::new(
            ErrorKind::Share,
            "no sign-in is waiting",
            "Press “Sign in to GitHub” first.",
        )
    })?;
    let kept = app.session.finish_sign_in(&code, sleep).map_err(error)?;
    Ok(kept.store)
}

/// Posts the run's redacted report, exactly as previewed.
pub fn share_submit(app: &AppState, run: String) -> CommandResult<CreatedDiscussion> {
    let preview = share_preview(app, run)?;
    app.session.submit(&preview).map_err(error)
}

/// Everyone's results for recipe `id`, read back from the sharing
/// repository's Discussions: fetched first when `fetch` and signed in
/// (GitHub's GraphQL API answers only with a token), else the cache.
pub fn community(app: &AppState, id: String, fetch: bool) -> CommandResult<Community> {
    app.session.community(&id, None, fetch).map_err(error)
}

/// Opens an http(s) link (a post, a discussion) in the system's browser.
pub fn open_link(_: &AppState, url: String) -> CommandResult<()> {
    crate::link::open(&url)
}

/// For `bench/desktop`: synthetic progress events for `millis` ms through
/// the throttle a run's events go through; with `forward` false the batches
/// are dropped instead of sent (the same CPU load without the UI's share).
#[cfg(feature = "bench")]
pub fn bench_stream<E>(
    _: &AppState,
    millis: u32,
    forward: bool,
    mut send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send + 'static,
) -> CommandResult<stream::StreamSummary> {
    crate::bench::stream(millis, move |batch| match forward {
        true => send(batch),
        false => Ok(()),
    })
}

/// Runs `work` with an event sink whose events reach `send` in throttled
/// batches ([`stream::forward`]), with how long the run has left where
/// `countdown` counts it.
fn streamed<T, E>(
    countdown: Option<Countdown>,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
    work: impl FnOnce(&dyn EventSink) -> T,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    std::thread::scope(|scope| {
        let forwarder =
            scope.spawn(move || stream::forward(&rx, stream::INTERVAL, countdown, send));
        let result = work(&tx);
        drop(tx);
        let _ = forwarder.join();
        result
    })
}
