//! `reprise check [FILES]`: validate recipes; exit 0 when all are valid, 2 otherwise.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Recipe files or ids (default: every recipe in recipes/).
    files: Vec<String>,
}

pub fn run(args: Args) -> ExitCode {
    let catalog = super::session().catalog;
    let files: Vec<PathBuf> = if args.files.is_empty() {
        match catalog.files() {
            Ok(f) => f,
            Err(e) => {
                say!(
                    "error: cannot read {}: {e}",
                    super::shown_path(&catalog.recipes_dir())
                );
                return ExitCode::from(super::BAD_INPUT);
            }
        }
    } else {
        let mut out = Vec::new();
        for f in &args.files {
            match catalog.resolve(f) {
                Ok(p) => out.push(p),
                Err(e) => {
                    say!("error: {e}");
                    return ExitCode::from(super::BAD_INPUT);
                }
            }
        }
        out
    };
    let mut bad = 0;
    for file in &files {
        match reprise_recipe::load(file) {
            Ok(r) => println!(
                "ok  {}  ({} steps, {} lanes, {} figures, {} claims)",
                super::shown_path(file),
                r.steps.len(),
                r.lanes.len(),
                r.figures.len(),
                r.claims.len()
            ),
            Err(e) => {
                bad += 1;
                say!("{e}");
            }
        }
    }
    if bad > 0 {
        say!("{bad} of {} recipes have errors", files.len());
        ExitCode::from(super::BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}
