//! Reprise's desktop app: a Tauri 2 shell whose commands are thin calls into
//! reprise-recipe, -probe, -engine, -verdict and -report, and whose event
//! forwarding ([`stream`]) keeps a fast stream from flooding the webview.
//!
//! The UI (`ui/`) calls these commands through one backend module; the
//! views it receives are exported to TypeScript from [`views`].
//!
//! ```
//! use reprise_desktop::commands::{Shell, library};
//! use reprise_recipe::Catalog;
//!
//! let shell = Shell {
//!     catalog: Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
//!     data_dir: std::env::temp_dir(),
//!     share: reprise_desktop::share::ShareConfig::from_env(),
//! };
//! let cards = library(&shell).unwrap().recipes;
//! assert!(cards.iter().any(|c| c.id == "hello-ceiling"));
//! ```

pub mod commands;
pub mod run;
pub mod share;
pub mod stream;
pub mod views;

use tauri::{Builder, Runtime, State};

use commands::Shell;
use views::*;

#[tauri::command]
fn library(shell: State<'_, Shell>) -> Result<Library, CommandError> {
    commands::library(&shell)
}

#[tauri::command]
fn post(shell: State<'_, Shell>, id: String) -> Result<PostView, CommandError> {
    commands::post(&shell, &id)
}

#[tauri::command]
fn history(shell: State<'_, Shell>) -> Result<Vec<RunSummary>, CommandError> {
    commands::history(&shell)
}

#[tauri::command]
fn results(shell: State<'_, Shell>, run: String) -> Result<ResultsView, CommandError> {
    commands::results(&shell, &run)
}

#[tauri::command]
fn share_preview(shell: State<'_, Shell>, run: String) -> Result<SharePreview, CommandError> {
    commands::share_preview(&shell, &run)
}

#[tauri::command]
async fn machine() -> ThisMachine {
    commands::machine()
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
                kind: "internal".into(),
                message: e.to_string(),
                hint: "Try again; report it if it happens again.".into(),
            })
        })
}

#[tauri::command]
async fn preflight(shell: State<'_, Shell>, id: String) -> Result<PreflightView, CommandError> {
    let shell = shell.inner().clone();
    blocking(move || commands::preflight(&shell, &id)).await
}

#[tauri::command]
fn plan_run(shell: State<'_, Shell>, id: String) -> Result<RunPlan, CommandError> {
    run::plan(&shell, &id)
}

/// Runs or resumes the recipe's steps (`quick`: short loads, for a smoke
/// run), forwarding the engine's events
/// (throttled) to `on_event`; answers when the run ends.
#[tauri::command]
async fn start_run(
    shell: State<'_, Shell>,
    runs: State<'_, run::Runs>,
    id: String,
    fresh: bool,
    quick: bool,
    on_event: tauri::ipc::Channel<Vec<StreamMessage>>,
) -> Result<RunOutcome, CommandError> {
    let (shell, runs) = (shell.inner().clone(), runs.inner().clone());
    blocking(move || {
        run::start(&shell, &runs, &id, fresh, quick, |batch| {
            on_event.send(batch)
        })
    })
    .await
}

#[tauri::command]
async fn share_status(shell: State<'_, Shell>) -> Result<ShareStatus, CommandError> {
    let shell = shell.inner().clone();
    blocking(move || share::status(&shell)).await
}

#[tauri::command]
async fn share_sign_in(
    shell: State<'_, Shell>,
    pending: State<'_, share::PendingSignIn>,
) -> Result<SignInCode, CommandError> {
    let (shell, pending) = (shell.inner().clone(), pending.inner().clone());
    blocking(move || share::begin_sign_in(&shell, &pending)).await
}

/// Answers once the person has entered the code at GitHub (or it expired).
#[tauri::command]
async fn share_wait_sign_in(
    shell: State<'_, Shell>,
    pending: State<'_, share::PendingSignIn>,
) -> Result<String, CommandError> {
    let (shell, pending) = (shell.inner().clone(), pending.inner().clone());
    blocking(move || share::finish_sign_in(&shell, &pending, &mut std::thread::sleep)).await
}

#[tauri::command]
async fn share_submit(shell: State<'_, Shell>, run: String) -> Result<Submitted, CommandError> {
    let shell = shell.inner().clone();
    blocking(move || share::submit(&shell, &run)).await
}

#[tauri::command]
fn cancel_run(runs: State<'_, run::Runs>, id: String) -> bool {
    run::cancel(&runs, &id)
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
    use std::time::{Duration, Instant};
    use stream::{INTERVAL, Incoming};
    let (tx, rx) = std::sync::mpsc::channel();
    let producer = std::thread::spawn(move || {
        let start = Instant::now();
        let budget = Duration::from_millis(u64::from(millis));
        let mut events = 0u64;
        while start.elapsed() < budget {
            for _ in 0..256 {
                events += 1;
                let _ = tx.send(Incoming::Progress {
                    step: "measure".into(),
                    done: start.elapsed().as_secs_f64(),
                    total: Some(budget.as_secs_f64()),
                    req_per_s: Some(75_000.0 + (events % 1000) as f64),
                    p99_ms: Some(1.2),
                });
            }
            let _ = tx.send(Incoming::Log {
                step: "measure".into(),
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
        kind: "stream".into(),
        message: "a bench thread stopped".into(),
        hint: "Run the bench again.".into(),
    };
    let events = producer.join().map_err(|_| stopped())?;
    let batches = forwarder.join().map_err(|_| stopped())?;
    Ok(StreamSummary { events, batches })
}

/// Registers the shell's state and commands on a builder (the real one or
/// Tauri's mock runtime in tests).
pub fn app<R: Runtime>(builder: Builder<R>, shell: Shell) -> Builder<R> {
    builder
        .manage(shell)
        .manage(run::Runs::default())
        .manage(share::PendingSignIn::default())
        .invoke_handler(tauri::generate_handler![
            library,
            post,
            history,
            results,
            share_preview,
            machine,
            preflight,
            plan_run,
            start_run,
            cancel_run,
            share_status,
            share_sign_in,
            share_wait_sign_in,
            share_submit,
            capabilities,
            #[cfg(feature = "bench")]
            bench_stream
        ])
}

/// Starts the desktop app.
pub fn run() {
    app(tauri::Builder::default(), Shell::from_env())
        .run(tauri::generate_context!())
        .expect("the desktop app failed to start");
}
