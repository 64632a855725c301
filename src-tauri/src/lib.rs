//! Reprise's desktop app: a Tauri 2 shell whose commands are thin calls into
//! the session API (`reprise-session`, the same the CLI calls), and whose
//! event forwarding ([`stream`]) keeps a fast stream from flooding the webview.
//!
//! The UI (`ui/`) calls these commands through one backend module; the types
//! it receives are exported to TypeScript, from the crates' own types where
//! they are the crates' and from [`views`] where a page combines several.
//! Nothing here decides what runs, how a run is judged or what is posted.
//!
//! ```
//! use reprise_desktop::commands::library;
//! use reprise_session::{DataDir, Session, ShareSettings};
//!
//! let session = Session::new(
//!     reprise_recipe::Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
//!     DataDir::new(std::env::temp_dir()),
//!     ShareSettings::from_env(),
//! );
//! let cards = library(&session).unwrap().recipes;
//! assert!(cards.iter().any(|c| c.post.id.as_str() == "hello-ceiling"));
//! ```

pub mod commands;
pub mod run;
pub mod setup;
pub mod share;
pub mod stream;
pub mod validate;
pub mod views;

use reprise_session::Session;
use tauri::{Builder, Runtime, State};

use views::*;

// Every command that reads files or asks the machine runs off the main
// thread: a synchronous command runs on it and holds the window's painting
// (the Library's lanes ask which toolchains are here).

#[tauri::command]
async fn library(session: State<'_, Session>) -> Result<Library, CommandError> {
    let session = session.inner().clone();
    blocking(move || commands::library(&session)).await
}

#[tauri::command]
async fn post(session: State<'_, Session>, id: String) -> Result<PostView, CommandError> {
    let session = session.inner().clone();
    blocking(move || commands::post(&session, &id)).await
}

#[tauri::command]
async fn history(session: State<'_, Session>) -> Result<Vec<RunSummary>, CommandError> {
    let session = session.inner().clone();
    blocking(move || commands::history(&session)).await
}

#[tauri::command]
async fn results(session: State<'_, Session>, run: String) -> Result<ResultsView, CommandError> {
    let session = session.inner().clone();
    blocking(move || commands::results(&session, &run)).await
}

#[tauri::command]
async fn share_preview(
    session: State<'_, Session>,
    run: String,
) -> Result<ShareView, CommandError> {
    let session = session.inner().clone();
    blocking(move || share::preview(&session, &run)).await
}

#[tauri::command]
async fn machine() -> Result<ThisMachine, CommandError> {
    blocking(|| Ok(commands::machine())).await
}

/// Validates this machine as `reprise validate` does (`quick`: about 15 s,
/// else about a minute), each stage's line sent to `on_progress`; saved in
/// the history.
#[tauri::command]
async fn validate_machine(
    session: State<'_, Session>,
    quick: bool,
    on_progress: tauri::ipc::Channel<String>,
) -> Result<Validation, CommandError> {
    let session = session.inner().clone();
    blocking(move || {
        validate::validate(&session, quick, |line| {
            // A closed window only stops the progress lines, not the validation.
            let _ = on_progress.send(line.to_string());
        })
    })
    .await
}

/// Blocking work (the probe's toolchain versions, a whole run) on a thread
/// of its own, off the main thread and the async workers.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| {
            Err(CommandError {
                kind: ErrorKind::Internal,
                message: e.to_string(),
                hint: "Try again; report it if it happens again.".into(),
            })
        })
}

#[tauri::command]
async fn preflight(
    session: State<'_, Session>,
    id: String,
    ask_versions: bool,
) -> Result<Preflight, CommandError> {
    let session = session.inner().clone();
    blocking(move || commands::preflight(&session, &id, ask_versions)).await
}

/// The plan, with the lanes on another machine where `server` says so.
#[tauri::command]
async fn plan_run(
    session: State<'_, Session>,
    id: String,
    server: Option<ServerChoice>,
) -> Result<RunPlan, CommandError> {
    let session = session.inner().clone();
    blocking(move || run::plan(&session, &id, server.as_ref())).await
}

/// Runs or resumes the recipe's steps as the person chose (a new run, a
/// smoke run, sources from elsewhere), forwarding the engine's events
/// (throttled) to `on_event`; answers when the run ends.
#[tauri::command]
async fn start_run(
    session: State<'_, Session>,
    id: String,
    choices: RunChoices,
    on_event: tauri::ipc::Channel<Vec<StreamMessage>>,
) -> Result<RunOutcome, CommandError> {
    let session = session.inner().clone();
    blocking(move || run::start(&session, &id, choices, |batch| on_event.send(batch))).await
}

#[tauri::command]
async fn share_status(session: State<'_, Session>) -> Result<ShareStatus, CommandError> {
    let session = session.inner().clone();
    blocking(move || share::status(&session)).await
}

#[tauri::command]
async fn share_sign_in(
    session: State<'_, Session>,
    pending: State<'_, share::PendingSignIn>,
) -> Result<SignInCode, CommandError> {
    let (session, pending) = (session.inner().clone(), pending.inner().clone());
    blocking(move || share::begin_sign_in(&session, &pending)).await
}

/// Answers once the person has entered the code at GitHub (or it expired).
#[tauri::command]
async fn share_wait_sign_in(
    session: State<'_, Session>,
    pending: State<'_, share::PendingSignIn>,
) -> Result<String, CommandError> {
    let (session, pending) = (session.inner().clone(), pending.inner().clone());
    blocking(move || share::finish_sign_in(&session, &pending, &mut std::thread::sleep)).await
}

#[tauri::command]
async fn share_submit(
    session: State<'_, Session>,
    run: String,
) -> Result<CreatedDiscussion, CommandError> {
    let session = session.inner().clone();
    blocking(move || share::submit(&session, &run)).await
}

/// Keeps the repository to post in (OWNER/NAME, checked) in the data dir.
#[tauri::command]
async fn share_choose_repo(
    session: State<'_, Session>,
    repo: String,
) -> Result<ShareStatus, CommandError> {
    let session = session.inner().clone();
    blocking(move || share::choose_repo(&session, &repo)).await
}

/// Writes the run's redacted report to the data dir; answers the file.
#[tauri::command]
async fn share_save(session: State<'_, Session>, run: String) -> Result<String, CommandError> {
    let session = session.inner().clone();
    blocking(move || share::save(&session, &run)).await
}

/// Opens an http(s) link in the system's browser.
#[tauri::command]
fn open_link(url: String) -> Result<(), CommandError> {
    commands::open_link(&url)
}

#[tauri::command]
fn cancel_run(session: State<'_, Session>, id: String) -> bool {
    session.cancel(&id)
}

/// What "Set up what's missing" will install, write and run.
#[tauri::command]
async fn setup_plan(
    session: State<'_, Session>,
    id: String,
    lanes: Vec<String>,
) -> Result<reprise_session::setup::SetupPlan, CommandError> {
    let session = session.inner().clone();
    blocking(move || setup::plan(&session, &id, &lanes)).await
}

/// Installs the recipe's toolchains through mise, forwarding its output
/// (throttled) to `on_event`; answers when the install ends.
#[tauri::command]
async fn start_setup(
    session: State<'_, Session>,
    setups: State<'_, setup::Setups>,
    id: String,
    lanes: Vec<String>,
    on_event: tauri::ipc::Channel<Vec<StreamMessage>>,
) -> Result<reprise_session::setup::SetupEnd, CommandError> {
    let (session, setups) = (session.inner().clone(), setups.inner().clone());
    blocking(move || setup::start(&session, &setups, &id, &lanes, |b| on_event.send(b))).await
}

#[tauri::command]
fn cancel_setup(setups: State<'_, setup::Setups>, id: String) -> bool {
    setup::cancel(&setups, &id)
}

/// What this build can do, so the UI shows the rest as not in this build.
#[tauri::command]
fn capabilities() -> Capabilities {
    Capabilities {
        probe: true,
        engine: true,
        bench_stream: cfg!(feature = "bench"),
    }
}

/// For `bench/desktop`: synthetic progress events produced as fast as a
/// thread can for `millis` ms, forwarded through the same throttle a run's
/// events go through. No recipe runs. With `forward` false the batches are
/// dropped instead of sent: the same CPU load without the UI's share.
#[cfg(feature = "bench")]
#[tauri::command]
async fn bench_stream(
    millis: u32,
    forward: bool,
    on_event: tauri::ipc::Channel<Vec<StreamMessage>>,
) -> Result<StreamSummary, CommandError> {
    use reprise_engine::Event;
    use std::time::{Duration, Instant};
    use stream::INTERVAL;
    let (tx, rx) = std::sync::mpsc::channel();
    let producer = std::thread::spawn(move || {
        let start = Instant::now();
        let budget = Duration::from_millis(u64::from(millis));
        let mut events = 0u64;
        while start.elapsed() < budget {
            for _ in 0..256 {
                events += 1;
                let _ = tx.send(Event::Measuring {
                    step: "measure".into(),
                    lane: "bench".into(),
                    endpoint: "/".into(),
                    run: 1,
                    cells_done: start.elapsed().as_millis() as u64,
                    cells: budget.as_millis() as u64,
                    req_per_s: 75_000.0 + (events % 1000) as f64,
                    p99_ms: Some(1.2),
                    errors: 0,
                });
            }
            let _ = tx.send(Event::Log {
                step: "measure".into(),
                stream: reprise_engine::Stream::Stdout,
                line: format!("{events} events so far"),
            });
        }
        events
    });
    let send_on = forward;
    let forwarder = std::thread::spawn(move || {
        stream::forward(&rx, INTERVAL, |b| {
            if send_on { on_event.send(b) } else { Ok(()) }
        })
    });
    let stopped = || CommandError {
        kind: ErrorKind::Internal,
        message: "a bench thread stopped".into(),
        hint: "Run the bench again.".into(),
    };
    let events = producer.join().map_err(|_| stopped())?;
    let batches = forwarder.join().map_err(|_| stopped())?;
    Ok(StreamSummary { events, batches })
}

/// Registers the shell's state and commands on a builder (the real one or
/// Tauri's mock runtime in tests).
pub fn app<R: Runtime>(builder: Builder<R>, session: Session) -> Builder<R> {
    builder
        .manage(session)
        .manage(share::PendingSignIn::default())
        .manage(setup::Setups::default())
        .invoke_handler(tauri::generate_handler![
            library,
            post,
            history,
            results,
            share_preview,
            machine,
            validate_machine,
            preflight,
            plan_run,
            start_run,
            cancel_run,
            setup_plan,
            start_setup,
            cancel_setup,
            share_status,
            share_sign_in,
            share_wait_sign_in,
            share_submit,
            share_choose_repo,
            share_save,
            open_link,
            capabilities,
            #[cfg(feature = "bench")]
            bench_stream
        ])
}

/// Starts the desktop app.
pub fn run() {
    plain_rendering();
    let context = tauri::generate_context!();
    let recipes = recipes_fallback(&context);
    app(tauri::Builder::default(), Session::from_env_or(&recipes))
        .run(context)
        .expect("the desktop app failed to start");
}

/// WebKitGTK's accelerated compositing, off unless the person set
/// `WEBKIT_DISABLE_COMPOSITING_MODE` themselves (`=0` keeps it on). The
/// pages are plain documents; where GL is software (VMs, remote desktops,
/// Xvfb), compositing cost every update of a live run a frame of its own:
/// 16 fps against 57 without it, measured by bench/desktop on this project's
/// 2-core VM.
fn plain_rendering() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        // SAFETY: the first thing the app does, before any thread starts
        // (nothing else reads or writes the environment yet).
        unsafe { std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1") };
    }
}

/// Where the recipes are when neither `REPRISE_ROOT` nor the working
/// directory says: the checkout this binary was built from while it runs from
/// that checkout (a developer's build), else the recipes and checksums the
/// installed bundle carries in its resource dir (`/usr/lib/Reprise` for the
/// .deb).
fn recipes_fallback<R: Runtime>(context: &tauri::Context<R>) -> std::path::PathBuf {
    let checkout = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let from_checkout = std::env::current_exe()
        .ok()
        .zip(checkout.canonicalize().ok())
        .is_some_and(|(exe, checkout)| exe.starts_with(checkout));
    let bundled =
        tauri::utils::platform::resource_dir(context.package_info(), &tauri::Env::default())
            .ok()
            .filter(|dir| dir.join("recipes").is_dir());
    match bundled {
        Some(dir) if !from_checkout => dir,
        _ => checkout.to_path_buf(),
    }
}
