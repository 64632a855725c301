//! `reprise clean RUN... | --all`: removes run folders from the data dir,
//! after ending the processes those runs left running and removing the
//! containers they left behind (see `reprise_session::clean`).

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_session::clean::{CleanLine, Runs};

#[derive(ClapArgs)]
pub struct Args {
    /// Run ids (as `reprise runs` lists them).
    runs: Vec<String>,
    /// Remove every run.
    #[arg(long, conflicts_with = "runs")]
    all: bool,
}

pub fn run(args: Args) -> ExitCode {
    let runs = if args.all {
        Runs::All
    } else if args.runs.is_empty() {
        say!("error: name the runs to remove (see `reprise runs`), or pass --all");
        return ExitCode::from(super::BAD_INPUT);
    } else {
        Runs::Named(args.runs)
    };
    let session = super::session();
    // A name that is no run is a typo: nothing is removed, as with any
    // other bad input.
    if let Runs::Named(ids) = &runs {
        let unknown: Vec<String> = ids
            .iter()
            .filter_map(|id| session.data.run(id).err())
            .map(|e| e.to_string())
            .collect();
        if !unknown.is_empty() {
            for e in &unknown {
                say!("error: {e}");
            }
            say!("nothing removed (see `reprise runs`)");
            return ExitCode::from(super::BAD_INPUT);
        }
    }
    let cleaned = match session.clean(runs) {
        Ok(cleaned) => cleaned,
        Err(e) => {
            say!("{}", super::error_text(&e));
            return ExitCode::FAILURE;
        }
    };
    for said in &cleaned.said {
        match said {
            CleanLine::Done(line) => println!("{line}"),
            CleanLine::Problem(line) => say!("error: {line}"),
        }
    }
    if cleaned.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
