//! The steps a recipe is made of, one module per kind, over what they
//! share: the run's [`RunContext`], the lanes of this attempt ([`Lanes`]),
//! a step's command run on the host ([`run_process`]) and a typed
//! [`StepFailure`]. `crate::run` plans the order, decides what is kept from
//! an earlier attempt and dispatches here; a step module implements one
//! kind and nothing else.

pub(crate) mod build;
pub(crate) mod bundle;
pub(crate) mod cable;
pub(crate) mod check;
pub(crate) mod clone;
pub(crate) mod command;
pub(crate) mod conclusive;
pub(crate) mod digest;
pub(crate) mod emit;
pub(crate) mod kept_databases;
pub(crate) mod lanes;
pub(crate) mod load;
pub(crate) mod rounds;
pub(crate) mod seed;
pub(crate) mod serve;
mod server_env;
pub(crate) mod sign_in;
pub(crate) mod stage;

use std::collections::BTreeMap;

use reprise_recipe::shown::{command_line, escaped as show};
use reprise_recipe::{Action, Name, Recipe, Step};

use crate::os::run_files::within;
use crate::os::runner::host::{self, Ending, HostCommand};
use crate::run::context::RunContext;
pub(crate) use crate::run::failure::{NoLane, StepFailure, TreeFailure};

pub(crate) use lanes::{Lanes, Stopped};
pub(crate) use server_env::describe_server_host;

use crate::run::estimate::Estimate;
use crate::run::plan::Plan;
use crate::run::resume::{OutputsGone, Resume};

/// One kind of step, implemented in its own module for the recipe's struct
/// of that kind: what it does in words, what it depends on, what it made and
/// whether that is still there, about how long it takes, and running it.
/// [`kind`] is the one place that goes from a step to its kind.
pub(crate) trait Kind {
    /// What the step will do, in one line: the plan a person confirms and
    /// `reprise show`.
    fn describe(&self, recipe: &Recipe) -> String;

    /// It needs the lanes' servers (their commands, services and requests
    /// are then part of what the reader accepts).
    fn serves(&self) -> bool {
        false
    }

    /// What it depends on besides its definition, the recipe's files and
    /// the steps it runs after: a source, what a tree is compared with.
    fn inputs(&self, _resume: &Resume) -> Vec<u8> {
        Vec::new()
    }

    /// What it made, as it is now: a fingerprint to compare with the one
    /// recorded when it finished, or why there is none. `None` for kinds
    /// that make nothing to check.
    fn outputs_now(&self, _resume: &Resume) -> Option<Result<String, OutputsGone>> {
        None
    }

    /// What changed in what it made since it finished, for a person.
    fn what_changed(&self, _resume: &Resume) -> String {
        "its outputs changed".into()
    }

    /// What a measuring step measures and about how long it takes.
    fn expected(&self, _plan: &Plan, _quick: bool) -> Option<Estimate> {
        None
    }

    /// Runs the step.
    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure>;
}

/// A step's kind: the one `match` from a step to the module that runs it.
pub(crate) fn kind(action: &Action) -> &dyn Kind {
    match action {
        Action::Clone(k) => k,
        Action::Build(k) => k,
        Action::Emit(k) => k,
        Action::Digest(k) => k,
        Action::Bundle(k) => k,
        Action::Seed(k) => k,
        Action::Stage(k) => k,
        Action::SignIn(k) => k,
        Action::Serve(k) => k,
        Action::Check(k) => k,
        Action::Load(k) => k,
        Action::Cable(k) => k,
        Action::Command(k) => k,
    }
}

/// A step's command in words: `in DIR: ARGV`.
pub(crate) fn command_words(command: &[String], dir: Option<&str>) -> String {
    let shown = command_line(command);
    match dir {
        Some(d) => format!("in {}: {shown}", show(d)),
        None => shown,
    }
}

/// The lanes a per-lane step names, in words after what it does: nothing
/// for every lane.
pub(crate) fn named_lanes(named: &[Name]) -> String {
    match named {
        [] => String::new(),
        [one] => format!(" (lane {})", show(one)),
        more => format!(
            " (lanes {})",
            more.iter()
                .map(|n| show(n).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The lanes a per-lane step names, or every lane of the recipe.
pub(crate) fn step_lanes<'r>(
    recipe: &'r Recipe,
    named: &'r [Name],
) -> impl Iterator<Item = &'r str> {
    recipe
        .lanes
        .iter()
        .map(|l| l.name.as_str())
        .filter(move |l| reprise_recipe::takes_in(named, l))
}

/// What one step is given: the recipe, the step, the run, and the lanes the
/// plan selected.
pub(crate) struct StepInput<'a> {
    pub recipe: &'a Recipe,
    pub step: &'a Step,
    pub ctx: &'a RunContext<'a>,
    pub plan_lanes: &'a [String],
    /// The step was cancelled or interrupted last time with the inputs it
    /// has now: what it finished then may be kept.
    pub cut_off: bool,
}

impl StepInput<'_> {
    pub fn id(&self) -> &str {
        self.step.id.as_str()
    }

    pub fn note(&self, line: String) {
        self.ctx.note(self.id(), line)
    }
}

/// What a finished step produced that its record keeps besides "finished".
#[derive(Debug, Default)]
pub(crate) struct Produced {
    /// The commit a clone checked out.
    pub commit: Option<String>,
    /// The digest of what the step produced, where it is not a folder the
    /// run digests itself (a staged database).
    pub outputs: Option<String>,
}

/// Runs a step's command in the run's folder (or `dir` inside it), its
/// output as log events and in `logs/<step>.log`.
pub(crate) fn run_process(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
    extra_env: &[(&str, String)],
) -> Result<(), StepFailure> {
    run_process_to(s, command, dir, env, extra_env, s.ctx.events)
}

/// [`run_process`], its output's events going to `events`.
pub(crate) fn run_process_to(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
    extra_env: &[(&str, String)],
    events: &dyn crate::event::EventSink,
) -> Result<(), StepFailure> {
    let ctx = s.ctx;
    let id = s.id();
    let cwd = match dir {
        Some(d) => within(&ctx.run.path, d)?,
        None => ctx.run.path.clone(),
    };
    let mut cmd = HostCommand::new(id, command.to_vec(), cwd);
    cmd.env = ctx.toolchain_env.clone();
    cmd.env.extend(env.clone());
    cmd.env
        .insert("REPRISE_RUN_DIR".into(), ctx.run.path.display().to_string());
    for (k, v) in extra_env {
        cmd.env.insert(k.to_string(), v.clone());
    }
    cmd.timeout = s.step.timeout.map(|t| t.as_duration());
    cmd.grace = ctx.grace;
    cmd.log = Some(ctx.run.log(id)?);
    cmd.processes = Some(ctx.processes());
    let outcome = host::run(&cmd, &ctx.cancel, events)?;
    let program = command.first().map(String::as_str).unwrap_or("");
    if !outcome.escaped.is_empty() {
        let what = reprise_spawn::Escaped::words(&outcome.escaped, "the run's cgroup");
        ctx.escaped(id, format!("step {id}: {what}"), Vec::new())?;
    }
    match outcome.failure(program) {
        None => Ok(()),
        Some(reason) if outcome.ending == Ending::Cancelled => Err(StepFailure::Cancelled(reason)),
        Some(reason) => Err(StepFailure::Command(reason)),
    }
}

/// The workload a step names.
pub(crate) fn workload<'r>(
    recipe: &'r Recipe,
    name: &str,
) -> Result<&'r reprise_recipe::Workload, StepFailure> {
    recipe
        .workloads
        .iter()
        .find(|w| w.name.as_str() == name)
        .ok_or_else(|| StepFailure::NoWorkload(name.to_string()))
}

#[cfg(test)]
mod tests {
    use crate::lanes::server_process::ServerError;
    use std::time::Duration;

    #[test]
    fn processes_and_budgets_are_said_in_words_not_debug_form() {
        use crate::os::processes::pid_words;
        assert_eq!(pid_words(&[4242]), "process 4242");
        assert_eq!(pid_words(&[4242, 4243]), "processes 4242, 4243");
        let late = ServerError::BootBudget {
            budget: Duration::from_secs(30),
            what: "no answer on /".into(),
        };
        assert_eq!(
            late.to_string(),
            "not ready within the boot budget of 30 s: no answer on /"
        );
        let left = ServerError::LeftOver { pids: vec![7, 8] };
        assert_eq!(
            left.to_string(),
            "the server's group is still running after SIGKILL: processes 7, 8"
        );
    }
}
