//! `reprise runs [--json]`: the runs kept in the data dir, oldest first.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_engine::StepStatus;
use reprise_harness_files::timestamp::compact_utc;
use reprise_report::RunEnding;

use crate::table::Table;

#[derive(ClapArgs)]
pub struct Args {
    /// Print each run's state as JSON, one per line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let runs = match super::session().data.list_runs() {
        Ok(r) => r,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.json {
        for (run, state) in &runs {
            let value = serde_json::json!({
                "id": run.id,
                "dir": run.path.display().to_string(),
                "state": state,
            });
            println!("{value}");
        }
        return ExitCode::SUCCESS;
    }
    if runs.is_empty() {
        println!("No runs yet.");
        return ExitCode::SUCCESS;
    }
    let mut table = Table::new(&[
        "RUN",
        "RECIPE",
        "STARTED (UTC)",
        "FINISHED",
        "FAILED",
        "SKIPPED",
        "ENDED",
    ]);
    for (run, state) in &runs {
        let count = |s: StepStatus| {
            state
                .steps
                .values()
                .filter(|st| st.status == s)
                .count()
                .to_string()
        };
        let failed = state
            .steps
            .values()
            .filter(|st| {
                matches!(
                    st.status,
                    StepStatus::Failed | StepStatus::Cancelled | StepStatus::Running
                )
            })
            .count();
        let has = |s: StepStatus| state.steps.values().any(|st| st.status == s);
        // A step left running: the Reprise that ran it was killed.
        let ended = match has(StepStatus::Running) {
            true => "stopped (Reprise was killed)",
            false => {
                RunEnding::of(has(StepStatus::Cancelled), has(StepStatus::Failed), false).words()
            }
        };
        table.row(vec![
            run.id.clone(),
            state.recipe.clone(),
            compact_utc(state.created),
            count(StepStatus::Finished),
            failed.to_string(),
            count(StepStatus::Skipped),
            ended.to_string(),
        ]);
    }
    print!("{}", table.render(0));
    ExitCode::SUCCESS
}
