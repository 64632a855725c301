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

use reprise_recipe::{Recipe, sha256_hex};
use sha2::{Digest, Sha256};

use crate::event::{Event, Stream};
use crate::inputs::tree_digest::hex;
use crate::lanes::server_process::ServerError;
use crate::os::processes::{Attempt, AttemptError, end_all_leftovers};
use crate::os::workdir::{RunDir, State, StepState, StepStatus, WorkDirError, now};
use crate::run::context::RunContext;
use crate::run::plan::{Plan, PlannedStep};
use crate::run::resume::{Decision, Resume};
use failure::StepFailure;
use steps::{Lanes, StepInput, Stopped};

/// Why a run could not go on (a failing step is not an error: it is
/// reported as an event and recorded).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    /// A path that leads out of the run's folder, a write refused
    /// ([`crate::os::run_files::Refused`]) or one that failed.
    #[error("a [[file]] cannot be written: {0}")]
    BadFilePath(std::io::Error),
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
    /// Steps stopped part-way by the cancel.
    pub cancelled_steps: Vec<String>,
    /// The run was cancelled (during a step, or between two).
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
    let mut attempt = Attempting::begin(plan, ctx)?;
    let mut lanes = Lanes::of(plan.recipe);
    for (at, planned) in plan.steps.iter().enumerate() {
        if ctx.cancel.is_cancelled() {
            attempt.report.cancelled = true;
            break;
        }
        if !attempt.take(at, planned, &mut lanes)? {
            break;
        }
    }
    Ok(attempt.finish(lanes))
}

/// One attempt at a run as it goes: its hold on the run's folder, the
/// run's `state.json` and what it will report. Every step's ending is
/// recorded the one way ([`Attempting::record`]): an event, its entry in
/// `state.json`, saved, and its place in the report.
struct Attempting<'a> {
    plan: &'a Plan<'a>,
    ctx: &'a RunContext<'a>,
    /// This attempt's hold on the folder, released when it is dropped.
    hold: Attempt,
    state: State,
    resume: Resume<'a>,
    report: RunReport,
}

impl<'a> Attempting<'a> {
    /// Takes the run's folder, ends what killed attempts left running,
    /// loads (or starts) `state.json` and writes the recipe's files.
    fn begin(plan: &'a Plan<'a>, ctx: &'a RunContext<'a>) -> Result<Self, RunError> {
        let recipe = plan.recipe;
        let recipe_bytes = std::fs::read(&recipe.file).map_err(|source| RunError::Recipe {
            path: recipe.file.clone(),
            source,
        })?;
        // This attempt holds the folder; then what killed attempts (of this
        // run, or of others whose servers may hold the ports this one needs)
        // left running is ended before anything starts.
        let mut hold = Attempt::begin(&ctx.run)?;
        let mut leftovers = vec![hold.end_leftovers()];
        leftovers.extend(end_all_leftovers(&ctx.data, &ctx.run));
        // Everything this attempt starts in a cgroup of its own, ended with it.
        let contained = hold.contain();
        let mut state = State::load(&ctx.run.state_file())?
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
        Ok(Attempting {
            plan,
            ctx,
            hold,
            state,
            resume,
            report: RunReport::default(),
        })
    }

    /// Takes the plan's step `at`: skipped when a step it needs did not
    /// finish, kept when an earlier attempt's still stands, else run.
    /// `false` when the run stops here.
    fn take(
        &mut self,
        at: usize,
        planned: &PlannedStep,
        lanes: &mut Lanes,
    ) -> Result<bool, RunError> {
        let (plan, ctx) = (self.plan, self.ctx);
        let id = planned.id().to_string();
        let unfinished = planned.step.after.iter().find(|a| {
            plan.steps.iter().any(|p| p.id() == a.as_str())
                && self.state.steps.get(a.as_str()).map(|s| s.status) != Some(StepStatus::Finished)
        });
        if let Some(dep) = unfinished {
            let reason = format!("needs `{dep}`, which did not finish");
            self.record(&id, StepState::ended(StepStatus::Skipped, reason), None)?;
            return Ok(true);
        }
        match self.resume.decide(plan, at, &self.state) {
            Decision::Keep => {
                ctx.events.emit(Event::Skipped {
                    step: id.clone(),
                    reason: "finished in an earlier attempt; inputs unchanged and outputs intact"
                        .into(),
                });
                self.report.reused.push(id);
                return Ok(true);
            }
            Decision::Changed(what) if ctx.strict => {
                let reason = format!("{what} (--strict: not redone)");
                let mut entry = self
                    .state
                    .steps
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| StepState::ended(StepStatus::Failed, String::new()));
                entry.status = StepStatus::Failed;
                entry.reason = Some(reason);
                self.record(&id, entry, None)?;
                return Ok(false);
            }
            Decision::Redo(why) | Decision::Changed(why) => ctx.note(&id, format!("redone: {why}")),
            Decision::Run(why) if self.state.steps.contains_key(&id) => {
                ctx.note(&id, format!("runs again: {why}"))
            }
            Decision::Run(_) => {}
        }
        self.run(planned, lanes)?;
        Ok(!self.report.cancelled)
    }

    /// Runs one step and records how it ended.
    fn run(&mut self, planned: &PlannedStep, lanes: &mut Lanes) -> Result<(), RunError> {
        let (step, ctx) = (planned.step, self.ctx);
        let id = step.id.to_string();
        let inputs = self.resume.inputs_digest(step, &self.state);
        // Cut off last time with the same inputs: what it finished then
        // stands (a load step measures only the cells it had not).
        let cut_off = self.state.steps.get(&id).is_some_and(|prev| {
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
        self.state.steps.insert(id.clone(), entry.clone());
        self.state.save(&ctx.run)?;
        ctx.events.emit(Event::Started {
            step: id.clone(),
            kind: planned.kind(),
        });
        let started = Instant::now();
        let input = StepInput {
            recipe: self.plan.recipe,
            step,
            ctx,
            plan_lanes: &self.plan.lanes,
            cut_off,
        };
        let result = steps::kind(&step.action)
            .run(&input, lanes)
            .and_then(|produced| {
                entry.commit = produced.commit;
                entry.outputs = match self.resume.outputs_now(step) {
                    Some(Ok(fingerprint)) => Some(fingerprint),
                    Some(Err(why)) => {
                        return Err(StepFailure::Outputs(why));
                    }
                    None => produced.outputs,
                };
                Ok(())
            });
        entry.finished = Some(now());
        match result {
            Ok(()) => entry.status = StepStatus::Finished,
            Err(failure) => {
                entry.status = if failure.is_cancelled() {
                    StepStatus::Cancelled
                } else {
                    StepStatus::Failed
                };
                entry.reason = Some(failure.to_string());
            }
        }
        self.record(&id, entry, Some(started))
    }

    /// How a step ended, the one way: its event, its entry in `state.json`
    /// (saved) and its place in the report.
    fn record(
        &mut self,
        id: &str,
        entry: StepState,
        started: Option<Instant>,
    ) -> Result<(), RunError> {
        let step = id.to_string();
        let reason = entry.reason.clone().unwrap_or_default();
        let (event, listed) = match entry.status {
            StepStatus::Finished => (
                Event::Finished {
                    step,
                    duration_ms: started.map_or(0, |t| t.elapsed().as_millis() as u64),
                },
                &mut self.report.finished,
            ),
            StepStatus::Skipped => (Event::Skipped { step, reason }, &mut self.report.skipped),
            StepStatus::Cancelled => (Event::Cancelled { step }, &mut self.report.cancelled_steps),
            StepStatus::Failed | StepStatus::Running => {
                (Event::Failed { step, reason }, &mut self.report.failed)
            }
        };
        listed.push(id.to_string());
        self.report.cancelled |= entry.status == StepStatus::Cancelled;
        self.ctx.events.emit(event);
        self.state.steps.insert(id.to_string(), entry);
        self.state.save(&self.ctx.run)?;
        Ok(())
    }

    /// Stops the servers the steps left running (any that left a process
    /// behind is said) and lets go of the run's folder.
    fn finish(mut self, mut lanes: Lanes) -> RunReport {
        // A cancel that came as the last step ended still ends the run as
        // cancelled: a cancelled run never reports success.
        self.report.cancelled |= self.ctx.cancel.is_cancelled();
        for (who, problem) in lanes.stop_all() {
            let line = format!("{who}: {problem}");
            if let ServerError::Escaped { .. } = problem {
                let lanes = match who {
                    Stopped::Lane(name) => vec![name],
                    Stopped::Service(_) => Vec::new(),
                };
                if let Err(e) = self.ctx.escaped("stop", line, lanes) {
                    self.ctx.events.emit(Event::Log {
                        step: "stop".into(),
                        stream: Stream::Stderr,
                        line: format!("cannot record the escape as a deviation: {e}"),
                    });
                }
                continue;
            }
            self.ctx.events.emit(Event::Log {
                step: "stop".into(),
                stream: Stream::Stderr,
                line,
            });
        }
        self.report.lanes_failed = lanes.failed();
        drop(self.hold);
        self.report
    }
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

/// Writes the recipe's `[[file]]`s into `files/`.
fn write_files(recipe: &Recipe, run: &RunDir) -> Result<(), RunError> {
    for file in &recipe.files {
        let to = run
            .file(Path::new("files").join(file.path.as_str()))
            .map_err(|e| RunError::BadFilePath(std::io::Error::other(e)))?;
        to.write_atomic(file.content.as_bytes())
            .map_err(RunError::BadFilePath)?;
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
