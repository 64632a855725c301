//! `reprise history`: every run stored on this machine, newest first.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_report::history::{History, data_dir};

use crate::table::Table;

#[derive(ClapArgs)]
pub struct Args {}

/// Opens the history in the data dir, reporting a failure.
pub fn open() -> Result<History, ExitCode> {
    History::open(&data_dir()).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::FAILURE
    })
}

pub fn run(_args: Args) -> ExitCode {
    let history = match open() {
        Ok(h) => h,
        Err(code) => return code,
    };
    let runs = match history.list() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if runs.is_empty() {
        println!(
            "No runs yet in {}. `reprise verdict RECIPE RESULTS_DIR` judges a results directory and stores it.",
            data_dir().display()
        );
        return ExitCode::SUCCESS;
    }
    let mut table = Table::new(&[
        "run",
        "made",
        "recipe",
        "cells",
        "reproduced",
        "not reproduced",
        "inconclusive",
        "not comparable",
    ]);
    for r in runs {
        table.row(vec![
            r.id,
            r.created_at,
            r.recipe,
            r.cells.to_string(),
            r.reproduced.to_string(),
            r.not_reproduced.to_string(),
            r.inconclusive.to_string(),
            r.not_comparable.to_string(),
        ]);
    }
    print!("{}", table.render(0));
    ExitCode::SUCCESS
}
