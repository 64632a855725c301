//! One module per subcommand, plus how the CLI finds the recipes.

pub mod check;
pub mod checksums;
pub mod clean;
pub mod compare;
pub mod digest;
pub mod history;
pub mod load;
pub mod logout;
pub mod preflight;
pub mod probe;
pub mod recipes;
pub mod report;
pub mod run;
pub mod runs;
pub mod setup;
pub mod share;
pub mod show;
pub mod validate;
pub mod verdict;

use std::path::Path;
use std::process::ExitCode;

use reprise_session::{Loaded, Session};

/// Exit code for bad input (a recipe that does not parse, an unknown id).
pub const BAD_INPUT: u8 = 2;

/// The session the commands call: the recipes of `REPRISE_ROOT`, else of the
/// nearest folder above the working directory that has `recipes/`, else of
/// the checkout this binary was built from; the data dir; sharing settings.
pub fn session() -> Session {
    Session::from_env_or(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Loads a recipe by id or path, printing located errors on failure.
pub fn load_recipe(session: &Session, id_or_path: &str) -> Result<Loaded, ExitCode> {
    session.load_recipe(id_or_path).map_err(|e| {
        eprintln!("{}", error_text(&e));
        ExitCode::from(BAD_INPUT)
    })
}

/// A session error as the terminal shows it: a recipe's located diagnostic
/// as it is, anything else after `error: `.
pub fn error_text(e: &reprise_session::SessionError) -> String {
    match e {
        reprise_session::SessionError::Recipe(e) => e.to_string(),
        other => format!("error: {other}"),
    }
}
