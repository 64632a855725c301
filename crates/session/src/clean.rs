//! Removing run folders from the data dir (`reprise clean`), after ending
//! the processes those runs left running (a killed Reprise's servers and
//! step children) and removing the containers they left behind, on this
//! machine's engine and on the server host a run recorded. A run that is
//! running now is left as it is; so is one whose server host does not
//! answer, since its folder is what says where its containers are.

use reprise_engine::LaneHost;
use reprise_engine::os::processes::Attempt;

use crate::{Session, SessionError};

/// Which runs to remove.
pub enum Runs {
    /// These, by id (as `reprise runs` lists them).
    Named(Vec<String>),
    /// Every run, and the containers of runs whose folders are gone.
    All,
}

/// What cleaning did, line by line in order, and whether all of it went well.
#[derive(Debug, Default)]
pub struct Cleaned {
    pub said: Vec<CleanLine>,
    /// Something could not be done (a line says what).
    pub failed: bool,
}

/// One line of what cleaning did.
#[derive(Debug, PartialEq, Eq)]
pub enum CleanLine {
    /// Done: `removed RUN`, a container removed, a process ended.
    Done(String),
    /// Could not be done, and why.
    Problem(String),
}

impl Cleaned {
    fn done(&mut self, line: String) {
        self.said.push(CleanLine::Done(line));
    }

    fn problem(&mut self, line: String) {
        self.said.push(CleanLine::Problem(line));
        self.failed = true;
    }
}

impl Session {
    /// Removes `runs`, ending their leftovers first.
    pub fn clean(&self, runs: Runs) -> Result<Cleaned, SessionError> {
        let all = matches!(runs, Runs::All);
        let ids: Vec<String> = match runs {
            Runs::All => self
                .data
                .list_runs()?
                .into_iter()
                .map(|(r, _)| r.id)
                .collect(),
            Runs::Named(ids) => ids,
        };
        let mut cleaned = Cleaned::default();
        let mut any_running = false;
        for id in ids {
            let run = match self.data.run(&id) {
                Ok(run) => run,
                Err(e) => {
                    cleaned.problem(e.to_string());
                    continue;
                }
            };
            // Held until the folder is gone, so no attempt starts meanwhile.
            let attempt = match Attempt::begin(&run) {
                Ok(attempt) => attempt,
                Err(e) => {
                    cleaned.problem(format!("{e}: not removed"));
                    any_running = true;
                    continue;
                }
            };
            // The processes first: the folder records which they are.
            let leftovers = attempt.end_leftovers();
            // Its problems are among its messages.
            leftovers
                .messages()
                .into_iter()
                .for_each(|l| cleaned.done(l));
            cleaned.failed |= !leftovers.problems.is_empty();
            // A process that survived is still named by the folder's
            // records (its group, its cgroup): keep them for the next try.
            let mut keep_folder = !leftovers.problems.is_empty();
            // Containers are labelled with their run: on this machine, and
            // where the run's folder says its lanes were served.
            let mut hosts = vec![LaneHost::ThisMachine];
            hosts.push(LaneHost::recorded(&run.path));
            hosts.dedup();
            for host in hosts {
                let containers = host.clean_containers(&id);
                containers.removed.into_iter().for_each(|l| cleaned.done(l));
                if let Some(problem) = containers.problem {
                    cleaned.problem(problem);
                }
                keep_folder |= containers.keep_folder;
            }
            if keep_folder {
                continue;
            }
            match self.data.remove_run(&id) {
                Ok(()) => cleaned.done(format!("removed {id}")),
                Err(e) => cleaned.problem(e.to_string()),
            }
            drop(attempt);
        }
        // Containers of runs whose folders are gone already.
        if all && !any_running {
            match LaneHost::ThisMachine.remove_left_over_containers(None) {
                Ok(removed) => removed
                    .into_iter()
                    .for_each(|c| cleaned.done(format!("removed container {c}"))),
                Err(e) => cleaned.problem(e.to_string()),
            }
        }
        Ok(cleaned)
    }
}
