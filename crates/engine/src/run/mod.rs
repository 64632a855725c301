//! Running a plan in a run's work dir: writes the recipe's files, then takes
//! each step in order — kept from an earlier attempt where it may be
//! ([`crate::run::resume`]), otherwise dispatched to its kind's module in
//! [`crate::run::steps`] — recording every step in `state.json`. Before the first
//! step it takes the run's folder for this attempt and ends what killed
//! attempts left running ([`crate::os::processes`]).

pub mod consent;
pub mod context;
pub mod estimate;
pub mod failure;
pub mod machine_match;
pub mod plan;
pub mod results;
pub(crate) mod resume;
pub(crate) mod steps;

use std::path::{Path, PathBuf};
use std::time::Instant;

use reprise_recipe::{Action, Recipe, sha256_hex};
use sha2::{Digest, Sha256};

use crate::event::{Event, Stream};
use crate::inputs::tree_digest::hex;
use crate::os::processes::{Attempt, AttemptError, end_all_leftovers};
use crate::os::workdir::{RunDir, State, StepState, StepStatus, WorkDirError, now};
use crate::run::context::RunContext;
use crate::run::plan::{Plan, PlannedStep};
use crate::run::resume::{Decision, Resume};
use failure::StepFailure;
use steps::{Lanes, Produced, StepInput};

/// Why a run could not go on (a failing step is not an error: it is
/// reported as an event and recorded).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    #[error("a [[file]] cannot be written: {0}")]
    BadFilePath(String),
    #[error("cannot read the recipe {}: {source}", path.display())]
    Recipe {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Attempt(#[from] AttemptError),
}

/// How the steps of one attempt ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
pub struct RunReport {
    pub finished: Vec<String>,
    /// Finished in an earlier attempt and still good.
    pub reused: Vec<String>,
    pub skipped: Vec<String>,
    pub failed: Vec<String>,
    pub cancelled: bool,
    /// Lanes this machine runs whose server did not boot or stopped during a
    /// measurement (why is in `results/skipped.json`): the steps may have
    /// finished, but the run did not measure what it planned.
    pub lanes_failed: Vec<String>,
}

impl RunReport {
    /// Every step ran to its end, and every lane that runs here with it.
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && !self.cancelled && self.lanes_failed.is_empty()
    }
}

/// Runs `plan` in `ctx.run`, resuming from its `state.json` when it has one.
pub fn execute(plan: &Plan, ctx: &RunContext) -> Result<RunReport, RunError> {
    let recipe = plan.recipe;
    let recipe_bytes = std::fs::read(&recipe.file).map_err(|source| RunError::Recipe {
        path: recipe.file.clone(),
        source,
    })?;
    // This attempt holds the folder; then what killed attempts (of this run,
    // or of others whose servers may hold the ports this one needs) left
    // running is ended before anything starts.
    let mut attempt = Attempt::begin(&ctx.run)?;
    let mut leftovers = vec![attempt.end_leftovers()];
    leftovers.extend(end_all_leftovers(&ctx.data, &ctx.run));
    // Everything this attempt starts in a cgroup of its own, ended with it.
    let contained = attempt.contain();
    let state_file = ctx.run.state_file();
    let mut state = State::load(&state_file)?
        .unwrap_or_else(|| State::new(recipe.id(), &sha256_hex(&recipe_bytes)));
    state.recipe_sha256 = sha256_hex(&recipe_bytes);
    state.save(&ctx.run)?;
    ctx.events.emit(Event::Run {
        id: ctx.run.id.clone(),
        dir: ctx.run.path.display().to_string(),
    });
    for message in leftovers.iter().flat_map(|l| l.messages()) {
        ctx.events.emit(Event::Note { message });
    }
    if let Err(why) = contained {
        ctx.events.emit(Event::Note {
            message: format!(
                "this run's processes are not in a cgroup of their own ({why}): they are ended by their process groups and the run's folder in their environment, so one that leaves both (setsid after env -i) can outlive the run"
            ),
        });
    }
    write_files(recipe, &ctx.run)?;
    if let Err(e) = ctx.results().record_deviations(None, &[]) {
        ctx.note(
            "run",
            format!("cannot record how this run differs from the post: {e}"),
        );
    }
    let resume = Resume {
        recipe,
        run: &ctx.run,
        checksums_root: &ctx.checksums_root,
        files_digest: files_digest(recipe),
    };

    let mut report = RunReport::default();
    let mut lanes = Lanes::of(plan.recipe);
    for (at, planned) in plan.steps.iter().enumerate() {
        let step = planned.step;
        let id = step.id.to_string();
        if ctx.cancel.is_cancelled() {
            report.cancelled = true;
            break;
        }
        let unfinished = step.after.iter().find(|a| {
            plan.steps.iter().any(|p| p.id() == a.as_str())
                && state.steps.get(a.as_str()).map(|s| s.status) != Some(StepStatus::Finished)
        });
        if let Some(dep) = unfinished {
            let reason = format!("needs `{dep}`, which did not finish");
            skip(ctx, &mut state, &mut report, planned, reason)?;
            continue;
        }
        let decision = resume.decide(plan, at, &state);
        match &decision {
            Decision::Keep => {
                ctx.events.emit(Event::Skipped {
                    step: id.clone(),
                    reason: "finished in an earlier attempt; inputs unchanged and outputs intact"
                        .into(),
                });
                report.reused.push(id);
                continue;
            }
            Decision::Changed(what) if ctx.strict => {
                let reason = format!("{what} (--strict: not redone)");
                ctx.events.emit(Event::Failed {
                    step: id.clone(),
                    reason: reason.clone(),
                });
                if let Some(entry) = state.steps.get_mut(&id) {
                    entry.status = StepStatus::Failed;
                    entry.reason = Some(reason);
                }
                state.save(&ctx.run)?;
                report.failed.push(id);
                break;
            }
            Decision::Redo(why) | Decision::Changed(why) => ctx.note(&id, format!("redone: {why}")),
            Decision::Run(why) if state.steps.contains_key(&id) => {
                ctx.note(&id, format!("runs again: {why}"))
            }
            Decision::Run(_) => {}
        }

        let inputs = resume.inputs_digest(step, &state);
        // Cut off last time with the same inputs: what it finished then
        // stands (a load step measures only the cells it had not).
        let cut_off = state.steps.get(&id).is_some_and(|prev| {
            matches!(prev.status, StepStatus::Cancelled | StepStatus::Running)
                && prev.inputs == inputs
        });
        let mut entry = StepState {
            status: StepStatus::Running,
            inputs,
            outputs: None,
            started: now(),
            finished: None,
            reason: None,
            commit: None,
        };
        state.steps.insert(id.clone(), entry.clone());
        state.save(&ctx.run)?;
        ctx.events.emit(Event::Started {
            step: id.clone(),
            kind: planned.kind(),
        });
        let started = Instant::now();
        let input = StepInput {
            recipe,
            step,
            ctx,
            plan_lanes: &plan.lanes,
            cut_off,
        };
        let result = run_step(&input, &mut lanes).and_then(|done| {
            entry.commit = done.commit;
            entry.outputs = match resume.outputs_now(step) {
                Some(Ok(fingerprint)) => Some(fingerprint),
                Some(Err(why)) => {
                    return Err(StepFailure::Failed(format!("the step ended, but {why}")));
                }
                None => done.outputs,
            };
            Ok(())
        });
        entry.finished = Some(now());
        match result {
            Ok(()) => {
                entry.status = StepStatus::Finished;
                ctx.events.emit(Event::Finished {
                    step: id.clone(),
                    duration_ms: started.elapsed().as_millis() as u64,
                });
                report.finished.push(id.clone());
            }
            Err(failure) => {
                let cancelled = failure.is_cancelled();
                let reason = failure.to_string();
                entry.status = if cancelled {
                    StepStatus::Cancelled
                } else {
                    StepStatus::Failed
                };
                entry.reason = Some(reason.clone());
                ctx.events.emit(Event::Failed {
                    step: id.clone(),
                    reason,
                });
                report.failed.push(id.clone());
                report.cancelled |= cancelled;
            }
        }
        state.steps.insert(id, entry);
        state.save(&ctx.run)?;
        if report.cancelled {
            break;
        }
    }
    // A cancel that came as the last step ended still ends the run as
    // cancelled: a cancelled run never reports success.
    report.cancelled |= ctx.cancel.is_cancelled();
    // The servers the benchmark steps left running go now; any that left a
    // process behind is said.
    for problem in lanes.stop_all() {
        ctx.events.emit(Event::Log {
            step: "stop".into(),
            stream: Stream::Stderr,
            line: problem,
        });
    }
    report.lanes_failed = lanes.failed();
    drop(attempt);
    Ok(report)
}

/// What each step of `plan` will do in `run` (kept, run, redone, and why),
/// before anything runs: the plan a person confirms.
pub fn preview(
    plan: &Plan,
    run: &RunDir,
    checksums_root: &Path,
) -> Result<Vec<Decision>, RunError> {
    let state = State::load(&run.state_file())?.unwrap_or_else(|| State::new(plan.recipe.id(), ""));
    let resume = Resume {
        recipe: plan.recipe,
        run,
        checksums_root,
        files_digest: files_digest(plan.recipe),
    };
    Ok(resume.preview(plan, &state))
}

/// One step, by its kind.
fn run_step(s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
    match &s.step.action {
        Action::Clone { source, into } => steps::clone::run(s, source, into),
        Action::Build {
            command, dir, env, ..
        } => steps::build::run(s, command, dir.as_deref(), env),
        Action::Command {
            command,
            dir,
            env,
            repeat,
        } => steps::command::run(s, command, dir.as_deref(), env, *repeat),
        Action::Emit {
            command,
            dir,
            env,
            tree,
            expected,
        } => steps::emit::run(s, command, dir.as_deref(), env, tree, expected),
        Action::Digest { tree, expected } => steps::digest::run(s, tree, expected),
        Action::Bundle {
            runtime,
            tree,
            lockfile,
            env,
        } => steps::bundle::run(s, runtime, tree, lockfile, env),
        Action::Seed {
            command,
            dir,
            env,
            database,
            verify,
        } => steps::seed::run(s, command, dir.as_deref(), env, database, verify),
        Action::Stage { database, tree, to } => steps::stage::run(s, database, tree, to),
        Action::Serve { repeat, .. } => steps::serve::run(s, lanes, *repeat),
        Action::SignIn {
            email,
            password,
            flow,
            ..
        } => steps::sign_in::run(s, lanes, email, password, *flow),
        Action::Check { workload, .. } => steps::check::run(s, lanes, workload),
        Action::Load { workload, .. } => steps::load::run(s, lanes, workload),
        Action::Cable { workload, .. } => steps::cable::run(s, lanes, workload),
    }
}

fn skip(
    ctx: &RunContext,
    state: &mut State,
    report: &mut RunReport,
    planned: &PlannedStep,
    reason: String,
) -> Result<(), RunError> {
    let id = planned.id().to_string();
    ctx.events.emit(Event::Skipped {
        step: id.clone(),
        reason: reason.clone(),
    });
    state.steps.insert(
        id.clone(),
        StepState {
            status: StepStatus::Skipped,
            inputs: String::new(),
            outputs: None,
            started: now(),
            finished: Some(now()),
            reason: Some(reason),
            commit: None,
        },
    );
    state.save(&ctx.run)?;
    report.skipped.push(id);
    Ok(())
}

/// Writes the recipe's `[[file]]`s into `files/`.
fn write_files(recipe: &Recipe, run: &RunDir) -> Result<(), RunError> {
    for file in &recipe.files {
        let bad = |e: &dyn std::fmt::Display| RunError::BadFilePath(e.to_string());
        let to = run
            .file(Path::new("files").join(file.path.as_str()))
            .map_err(|e| bad(&e))?;
        to.write_atomic(file.content.as_bytes())
            .map_err(|e| bad(&e))?;
    }
    Ok(())
}

/// One digest of the recipe's `[[file]]`s, paths and contents.
fn files_digest(recipe: &Recipe) -> String {
    let mut h = Sha256::new();
    for file in &recipe.files {
        h.update(file.path.as_bytes());
        h.update([0]);
        h.update(file.content.as_bytes());
        h.update([0]);
    }
    hex(&h.finalize())
}
