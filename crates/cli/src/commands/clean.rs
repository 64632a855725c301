//! `reprise clean RUN... | --all`: removes run folders from the data dir,
//! after ending the processes those runs left running (a killed Reprise's
//! servers and step children) and removing the containers they left behind
//! when a container engine answers, on this machine and on the server host
//! a run recorded (`reprise run --server-host`). A run that is running now
//! is left as it is; so is one whose server host does not answer, since its
//! folder is what says where its containers are.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_engine::run_processes::Attempt;
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
    let engine = ContainerRunner::connect().ok();
    let remove_containers = |run: Option<&str>| {
        let Some(engine) = &engine else {
            return true;
        };
        match engine.remove_left_over(run) {
            Ok(removed) => {
                for container in removed {
                    println!("removed container {container}");
                }
                true
            }
            Err(e) => {
                eprintln!("error: {e}");
                false
            }
        }
    };
    let mut any_running = false;
    for id in ids {
        let run = match data.run(&id) {
            Ok(run) => run,
            Err(e) => {
                eprintln!("error: {e}");
                code = ExitCode::FAILURE;
                continue;
            }
        };
        // Held until the folder is gone, so no attempt starts meanwhile.
        let attempt = match Attempt::begin(&run) {
            Ok(attempt) => attempt,
            Err(e) => {
                eprintln!("error: {e}: not removed");
                any_running = true;
                code = ExitCode::FAILURE;
                continue;
            }
        };
        // The processes first: the folder records which they are.
        let leftovers = attempt.end_leftovers();
        for line in leftovers.messages() {
            println!("{line}");
        }
        if !leftovers.problems.is_empty() {
            code = ExitCode::FAILURE;
        }
        if !remove_containers(Some(&id)) {
            code = ExitCode::FAILURE;
        }
        if let Some(host) = reprise_engine::server_host::ServerHost::recorded(&run.path) {
            let url = host.endpoint.url();
            let removed = ContainerRunner::connect_endpoint(&host.endpoint)
                .and_then(|engine| engine.remove_left_over(Some(&id)));
            match removed {
                Ok(removed) => {
                    for container in removed {
                        println!("removed container {container} on the server host {url}");
                    }
                }
                Err(e) => {
                    eprintln!(
                        "error: {id} not removed: its server host's engine at {url} does not answer ({e}), and this run's folder is what says where its containers are"
                    );
                    code = ExitCode::FAILURE;
                    continue;
                }
            }
        }
        match data.remove_run(&id) {
            Ok(()) => println!("removed {id}"),
            Err(e) => {
                eprintln!("error: {e}");
                code = ExitCode::FAILURE;
            }
        }
        drop(attempt);
    }
    // Containers of runs whose folders are gone already.
    if args.all && !any_running && !remove_containers(None) {
        code = ExitCode::FAILURE;
    }
    code
}
