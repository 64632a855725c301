//! `reprise history`: every run stored on this machine, newest first, a
//! smoke run (`--quick`) said to be one.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_session::{History, Session};

use crate::table::Table;

#[derive(ClapArgs)]
pub struct Args {}

/// Opens the history in the data dir, reporting a failure.
pub fn open(session: &Session) -> Result<History, ExitCode> {
    session.history().map_err(|e| {
        say!("error: {e}");
        ExitCode::FAILURE
    })
}

pub fn run(_args: Args) -> ExitCode {
    let session = super::session();
    let history = match open(&session) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let runs = match history.list() {
        Ok(r) => r,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if runs.is_empty() {
        println!(
            "No runs yet in {}. `reprise verdict RECIPE RESULTS_DIR` judges a results directory and stores it.",
            super::shown_path(&session.data.root)
        );
        return ExitCode::SUCCESS;
    }
    let mut table = Table::new(&[
        "run",
        "made",
        "kind",
        "ended",
        "recipe",
        "cells",
        "reproduced",
        "not reproduced",
        "inconclusive",
        "no data",
        "not measured",
        "not comparable",
    ]);
    for r in runs {
        table.row(vec![
            r.id,
            r.created_at,
            if r.smoke_run { "smoke" } else { "measured" }.to_string(),
            r.ending.map_or("—", |e| e.words()).to_string(),
            r.recipe,
            r.cells.to_string(),
            r.reproduced.to_string(),
            r.not_reproduced.to_string(),
            r.inconclusive.to_string(),
            r.no_data.to_string(),
            r.not_measured.to_string(),
            r.not_comparable.to_string(),
        ]);
    }
    print!("{}", table.render(0));
    ExitCode::SUCCESS
}
