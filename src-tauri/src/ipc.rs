//! The app's commands, listed once. Each line names a command, its
//! arguments (and the channel it streams on, after `;`), and what it
//! answers; the handler of the same name in [`crate::commands`] does the
//! work. From this one list come the Tauri commands (each run off the main
//! thread), the handler the builder registers, and the TypeScript client
//! (`ui/src/bindings/commands.ts`, by [`crate::client`]): adding a command
//! is its handler, its line here and the page that calls it.

use tauri::ipc::Channel;

use crate::app_state::AppState;
use crate::client::{Arg, Command, Type};
use crate::commands::{self, Capabilities};
use crate::errors::{CommandError, ErrorKind};
use crate::stream::{StreamMessage, StreamSummary};
use reprise_history::RunSummary;
use reprise_probe::preflight::Preflight;
use reprise_session::community::Community;
use reprise_session::run::{RunChoices, RunOutcome, ServerChoice};
use reprise_session::setup::{SetupEnd, SetupPlan};
use reprise_session::share::{SharePreview, ShareStatus, SignInCode};
use reprise_session::views::{Library, PostView, ResultsView, RunPlan, ThisMachine, Validation};
use reprise_share::CreatedDiscussion;

/// Makes the list's Tauri commands, [`handler`] and [`list`].
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        fn $name:ident($($arg:ident: $ty:ty),* $(; $chan:ident: $msg:ty)?) -> $answer:ty;
    )*) => {
        $(
            $(#[cfg($cfg)])?
            #[tauri::command]
            async fn $name(
                app: tauri::State<'_, AppState>,
                $($arg: $ty,)*
                $($chan: Channel<$msg>,)?
            ) -> Result<$answer, CommandError> {
                let app = app.inner().clone();
                blocking(move || commands::$name(&app, $($arg,)* $(move |m| $chan.send(m))?)).await
            }
        )*

        /// Every command, for `Builder::invoke_handler`.
        pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($(#[cfg($cfg)])? $name),*]
        }

        /// Every command as the TypeScript client calls it (those of other
        /// builds too: [`Capabilities`] says which this one has).
        pub fn list() -> Vec<Command> {
            vec![$(Command {
                name: stringify!($name),
                docs: vec![$($doc),*],
                args: vec![$(Arg::of::<$ty>(stringify!($arg))),*],
                channel: None$(.or(Some(Arg::of::<$msg>(stringify!($chan)))))?,
                answer: Type::of::<$answer>(),
            }),*]
        }
    };
}

commands! {
    /// What this build can do, so the UI shows the rest as not in this build.
    fn capabilities() -> Capabilities;
    /// Every recipe as a card, and the files that did not load.
    fn library() -> Library;
    fn post(id: String) -> PostView;
    fn history() -> Vec<RunSummary>;
    fn results(run: String) -> ResultsView;
    fn machine() -> ThisMachine;
    /// Validates this machine as `reprise validate` does (`quick`: about 15 s,
    /// else about a minute), each stage's line sent on the channel; saved in
    /// the history.
    fn validate_machine(quick: bool; on_event: String) -> Validation;
    /// The preflight; `ask_versions` runs the recipe's version commands (the
    /// reader accepted them).
    fn preflight(id: String, ask_versions: bool) -> Preflight;
    /// The plan, with the lanes on another machine where `server` says so.
    fn plan_run(id: String, server: Option<ServerChoice>) -> RunPlan;
    /// Runs (or, unless `choices.fresh`, resumes) the recipe; batches of
    /// events arrive on the channel.
    fn start_run(id: String, choices: RunChoices; on_event: Vec<StreamMessage>) -> RunOutcome;
    fn cancel_run(id: String) -> bool;
    /// What setting up the recipe's toolchains (through mise) installs,
    /// writes and runs.
    fn setup_plan(id: String, lanes: Vec<String>) -> SetupPlan;
    /// Installs them; mise's output arrives on the channel.
    fn start_setup(id: String, lanes: Vec<String>; on_event: Vec<StreamMessage>) -> SetupEnd;
    fn cancel_setup(id: String) -> bool;
    /// What sharing the run would post, redacted, with the Markdown Copy gives.
    fn share_preview(run: String) -> SharePreview;
    fn share_status() -> ShareStatus;
    /// A device code to enter at GitHub.
    fn share_sign_in() -> SignInCode;
    /// Answers once the code was entered, with where the token is kept.
    fn share_wait_sign_in() -> String;
    fn share_submit(run: String) -> CreatedDiscussion;
    /// Keeps the repository to post in (owner/name, checked); answers the
    /// status with it.
    fn share_choose_repo(repo: String) -> ShareStatus;
    /// Keeps a GitHub token the reader pasted (checked, never shown back);
    /// answers the status with it.
    fn share_keep_token(token: String) -> ShareStatus;
    /// Forgets the token Reprise kept (the keyring's and the token file's);
    /// answers the status without it.
    fn share_sign_out() -> ShareStatus;
    /// Writes the run's redacted report (Markdown) to the data dir; answers
    /// the file.
    fn share_save(run: String) -> String;
    /// Everyone's results for the recipe from the sharing repository's
    /// Discussions (fetched first when `fetch` and signed in, else the
    /// cache), with this machine's latest run among them.
    fn community(id: String, fetch: bool) -> Community;
    /// Opens an http(s) link (a post) in the system's browser.
    fn open_link(url: String) -> ();
    /// Streams synthetic progress events for `millis` ms through the app's
    /// throttle (the bench build's).
    #[cfg(feature = "bench")]
    fn bench_stream(millis: u32, forward: bool; on_event: Vec<StreamMessage>) -> StreamSummary;
}

/// Blocking work (a probe, a whole run) on a thread of its own, off the
/// main thread (a synchronous command runs on it and holds the window's
/// painting) and the async workers.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| {
            Err(CommandError::new(
                ErrorKind::Internal,
                e.to_string(),
                "Try again; report it if it happens again.",
            ))
        })
}
