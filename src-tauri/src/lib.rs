//! Reprise's desktop app: a Tauri 2 shell whose commands are thin calls into
//! the session API (`reprise-session`, the same the CLI calls), and whose
//! event forwarding ([`stream`]) keeps a fast stream from flooding the webview.
//!
//! The commands are listed once, in [`ipc`]; their handlers are in
//! [`commands`], and the UI (`ui/`) calls them through the TypeScript client
//! generated from that list ([`client`]), with the types the crates define
//! (the session's views for what both front ends show). Nothing here
//! decides what runs, how a run is judged or what is posted.
//!
//! ```
//! use reprise_desktop::{commands, app_state::AppState};
//! use reprise_session::{DataDir, Session, ShareSettings};
//!
//! let app = AppState::new(Session::new(
//!     reprise_recipe::Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
//!     DataDir::new(std::env::temp_dir()),
//!     ShareSettings::from_env(),
//! ));
//! let cards = commands::library(&app).unwrap().recipes;
//! assert!(cards.iter().any(|c| c.post.id.as_str() == "hello-ceiling"));
//! ```

pub mod app_state;
#[cfg(feature = "bench")]
mod bench;
pub mod client;
pub mod commands;
pub mod errors;
pub mod ipc;
pub mod link;
pub mod stream;

use reprise_session::Session;
use tauri::{Builder, Runtime};

/// Registers the app's state and commands on a builder (the real one or
/// Tauri's mock runtime in tests).
pub fn app<R: Runtime>(builder: Builder<R>, session: Session) -> Builder<R> {
    builder
        .manage(app_state::AppState::new(session))
        .invoke_handler(ipc::handler())
}

/// Writes the UI's TypeScript client into `dir`: the command list's types
/// and `commands.ts`, and the failure every command may answer.
pub fn write_client(dir: &std::path::Path) -> Result<(), String> {
    let cfg = ts_rs::Config::new()
        .with_out_dir(dir)
        .with_large_int("number");
    client::write(
        &cfg,
        dir,
        &ipc::list(),
        &[client::Type::of::<errors::CommandError>()],
    )
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
