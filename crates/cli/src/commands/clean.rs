//! `reprise clean RUN... | --all`: removes run folders from the data dir, and
//! the containers those runs left behind when a container engine answers.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_engine::runner::container::ContainerRunner;

#[derive(ClapArgs)]
pub struct Args {
    /// Run ids (as `reprise runs` lists them).
    runs: Vec<String>,
    /// Remove every run.
    #[arg(long, conflicts_with = "runs")]
    all: bool,
}

pub fn run(args: Args) -> ExitCode {
    let data = super::session().data;
    let ids: Vec<String> = if args.all {
        match data.list_runs() {
            Ok(runs) => runs.into_iter().map(|(r, _)| r.id).collect(),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else if args.runs.is_empty() {
        eprintln!("error: name the runs to remove (see `reprise runs`), or pass --all");
        return ExitCode::from(super::BAD_INPUT);
    } else {
        args.runs
    };
    let mut code = ExitCode::SUCCESS;
    // Containers are labelled with their run; without an engine there are none.
    if let Ok(engine) = ContainerRunner::connect() {
        let runs: Vec<Option<&str>> = if args.all {
            vec![None]
        } else {
            ids.iter().map(|id| Some(id.as_str())).collect()
        };
        for run in runs {
            match engine.remove_left_over(run) {
                Ok(removed) => {
                    for container in removed {
                        println!("removed container {container}");
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    code = ExitCode::FAILURE;
                }
            }
        }
    }
    for id in ids {
        match data.remove_run(&id) {
            Ok(()) => println!("removed {id}"),
            Err(e) => {
                eprintln!("error: {e}");
                code = ExitCode::FAILURE;
            }
        }
    }
    code
}
