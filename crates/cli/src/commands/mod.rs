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
pub mod share;
pub mod show;
pub mod validate;
pub mod verdict;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use reprise_recipe::{Catalog, Recipe};

/// Exit code for bad input (a recipe that does not parse, an unknown id).
pub const BAD_INPUT: u8 = 2;

/// The checkout whose `recipes/` the CLI reads: `REPRISE_ROOT`, else the
/// nearest folder above the working directory that has `recipes/`, else the
/// checkout this binary was built from.
pub fn catalog() -> Catalog {
    if let Some(root) = std::env::var_os("REPRISE_ROOT") {
        return Catalog::new(PathBuf::from(root));
    }
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    Catalog::discover(&here)
        .or_else(|| Catalog::discover(Path::new(env!("CARGO_MANIFEST_DIR"))))
        .unwrap_or_else(|| Catalog::new(here))
}

/// Loads a recipe by id or path, printing located errors on failure.
pub fn load_recipe(catalog: &Catalog, id_or_path: &str) -> Result<Recipe, ExitCode> {
    let file = catalog.resolve(id_or_path).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(BAD_INPUT)
    })?;
    reprise_recipe::load(&file).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(BAD_INPUT)
    })
}

/// Lanes of a recipe that this machine could start: they have a command and
/// every toolchain they need is on PATH (or in mise's install dirs).
pub fn runnable_lanes(recipe: &Recipe) -> Vec<&str> {
    let search = reprise_probe::toolchain::SearchPath::from_env();
    let found = |program: &str| {
        search.find(program).is_some() || !search.mise_candidates(program).is_empty()
    };
    recipe
        .lanes
        .iter()
        .filter(|lane| lane.is_runnable())
        .filter(|lane| {
            recipe
                .lane_toolchains(lane)
                .all(|t| t.command.first().is_some_and(|p| found(p)))
        })
        .map(|lane| lane.name.as_str())
        .collect()
}
