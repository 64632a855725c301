//! `reprise verdict RECIPE RESULTS_DIR`: judge a directory of the harness's
//! result files (a published run's, or one of this machine's) against the
//! recipe's claims, store it in the history, and print the verdicts.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, ValueEnum};
use reprise_harness_files::timestamp::utc_now;
use reprise_report::{Format, RunInfo};
use reprise_session::judge::judge_results_dir;
use reprise_verdict::MachineMatch;

#[derive(Clone, Copy, ValueEnum)]
enum Machine {
    /// Compare env.json's machine with the recipe's reference machine.
    Auto,
    /// Treat the measuring machine as the post's: judge absolute figures.
    Matches,
    /// Treat it as different: absolute figures for information only.
    Differs,
}

#[derive(ClapArgs)]
pub struct Args {
    /// Recipe id or file.
    recipe: String,
    /// Directory with per-run.json (and env.json, parity.json where present).
    results: PathBuf,
    /// Whether the measuring machine matches the post's.
    #[arg(long, value_enum, default_value = "auto")]
    machine: Machine,
    /// Also write the report in this format (md, html, json).
    #[arg(long, requires = "output")]
    format: Option<Format>,
    /// Where to write the report.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Judge without storing the run in the history.
    #[arg(long)]
    no_store: bool,
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    let (recipe, recipe_sha256) = match super::load_recipe(&session, &args.recipe) {
        Ok(r) => (r.recipe, r.sha256),
        Err(code) => return code,
    };
    let machine = match args.machine {
        Machine::Auto => None,
        Machine::Matches => Some(MachineMatch::Matches),
        Machine::Differs => Some(MachineMatch::Differs(vec![
            reprise_verdict::MachineDifference::not_compared("said so on the command line"),
        ])),
    };
    let created_at = utc_now();
    let mut history = if args.no_store {
        None
    } else {
        match super::history::open(&session) {
            Ok(h) => Some(h),
            Err(code) => return code,
        }
    };
    let id = match &history {
        Some(h) => match h.new_id(recipe.id(), &created_at) {
            Ok(id) => id,
            Err(e) => {
                say!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => format!("{}-unsaved", recipe.id()),
    };
    let mut run = RunInfo::for_recipe(&recipe, &id, &created_at);
    run.origin = Some(args.results.display().to_string());
    run.recipe_sha256 = Some(recipe_sha256);
    let report = match reprise_session::judge::settings_of(&args.results)
        .and_then(|settings| judge_results_dir(&recipe, &args.results, machine, run, &settings))
    {
        Ok(r) => r,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    if let Some(h) = &mut history {
        if let Err(e) = h.store(&report) {
            say!("error: {e}");
            return ExitCode::FAILURE;
        }
        println!("Stored as run {id}: `reprise report {id} --format html -o report.html`");
    }
    // The verdicts last, and the next command the very last line.
    print!(
        "{}",
        crate::output::closing(&report, crate::output::colour(), history.is_some())
    );
    match (args.format, &args.output) {
        (format, Some(file)) => {
            let format = format.unwrap_or(Format::Markdown);
            super::report::write_report(&report, format, Some(file))
        }
        _ => ExitCode::SUCCESS,
    }
}
