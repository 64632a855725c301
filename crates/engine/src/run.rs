//! Running a plan in a run's work dir: writes the recipe's files, then each
//! step in order, skipping steps finished before whose inputs are unchanged
//! and whose outputs are intact, and recording every step in `state.json`.

use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use reprise_recipe::{Action, Recipe, Step, Workload, sha256_hex};
use sha2::{Digest, Sha256};

use crate::bench::{self, Bench};
use crate::event::{CancelToken, Event, EventSink, Stream};
use crate::plan::{Plan, PlannedStep};
use crate::runner::host::{self, Ending, HostCommand};
use crate::source;
use crate::tree_digest::{Manifest, digest_tree_except, hex};
use crate::workdir::{
    DataDir, RunDir, State, StepState, StepStatus, WorkDirError, now, write_atomic,
};
use crate::{measure, steps};

/// Why a run could not go on (a failing step is not an error: it is
/// reported as an event and recorded).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    #[error("[[file]] `{0}` must be a relative path without `..`")]
    BadFilePath(String),
    #[error("cannot read the recipe {}: {source}", path.display())]
    Recipe {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Where a run happens and who hears about it.
pub struct RunContext<'a> {
    pub data: DataDir,
    pub run: RunDir,
    /// The checkout whose `checksums/` holds the tree manifests.
    pub checksums_root: PathBuf,
    pub cancel: CancelToken,
    pub events: &'a dyn EventSink,
    /// How long a process has after SIGTERM before SIGKILL.
    pub grace: Duration,
    /// `--quick`: cap load durations, warm-ups, runs and cold starts, for
    /// tests and smoke runs (the results say so).
    pub quick: bool,
}

/// How the steps of one attempt ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    pub finished: Vec<String>,
    /// Finished in an earlier attempt and still good.
    pub reused: Vec<String>,
    pub skipped: Vec<String>,
    pub failed: Vec<String>,
    pub cancelled: bool,
}

impl RunReport {
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && !self.cancelled
    }
}

/// Runs `plan` in `ctx.run`, resuming from its `state.json` when it has one.
pub fn execute(plan: &Plan, ctx: &RunContext) -> Result<RunReport, RunError> {
    let recipe = plan.recipe;
    let recipe_bytes = std::fs::read(&recipe.file).map_err(|source| RunError::Recipe {
        path: recipe.file.clone(),
        source,
    })?;
    let state_file = ctx.run.state_file();
    let mut state = State::load(&state_file)?
        .unwrap_or_else(|| State::new(recipe.id(), &sha256_hex(&recipe_bytes)));
    state.recipe_sha256 = sha256_hex(&recipe_bytes);
    state.save(&state_file)?;
    ctx.events.emit(Event::Run {
        id: ctx.run.id.clone(),
        dir: ctx.run.path.display().to_string(),
    });
    let files_digest = write_files(recipe, &ctx.run)?;

    let mut report = RunReport::default();
    let mut bench = Bench::default();
    for planned in &plan.steps {
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
        let inputs = inputs_digest(recipe, step, &state, &files_digest);
        let output_dir = outputs(step, &ctx.run);
        // A session lives only in memory (its cookie is never written), so a
        // sign-in is never kept from an earlier attempt.
        let keeps = !matches!(step.action, Action::SignIn { .. });
        if !planned.forced
            && keeps
            && let Some(prev) = state.steps.get(&id)
            && prev.status == StepStatus::Finished
            && prev.inputs == inputs
            && outputs_intact(prev, output_dir.as_deref())
        {
            ctx.events.emit(Event::Skipped {
                step: id.clone(),
                reason: "finished in an earlier attempt; inputs unchanged and outputs intact"
                    .into(),
            });
            report.reused.push(id);
            continue;
        }

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
        state.save(&state_file)?;
        ctx.events.emit(Event::Started {
            step: id.clone(),
            kind: planned.kind().name().to_string(),
        });
        let started = Instant::now();
        let result = run_step(recipe, step, ctx, &mut entry, &mut bench, &plan.lanes);
        let result = result.and_then(|()| match &output_dir {
            Some(dir) => {
                entry.outputs = Some(tree_digest(dir, &id, ctx.events)?.digest());
                Ok(())
            }
            None => Ok(()),
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
            Err(StepFailure::Cancelled(reason)) => {
                entry.status = StepStatus::Cancelled;
                entry.reason = Some(reason.clone());
                ctx.events.emit(Event::Failed {
                    step: id.clone(),
                    reason,
                });
                report.failed.push(id.clone());
                report.cancelled = true;
            }
            Err(StepFailure::Failed(reason)) => {
                entry.status = StepStatus::Failed;
                entry.reason = Some(reason.clone());
                ctx.events.emit(Event::Failed {
                    step: id.clone(),
                    reason,
                });
                report.failed.push(id.clone());
            }
        }
        state.steps.insert(id, entry);
        state.save(&state_file)?;
        if report.cancelled {
            break;
        }
    }
    // The servers the benchmark steps left running go now; any that left a
    // process behind is said.
    for problem in bench.stop_all() {
        ctx.events.emit(Event::Log {
            step: "stop".into(),
            stream: Stream::Stderr,
            line: problem,
        });
    }
    Ok(report)
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
    state.save(&ctx.run.state_file())?;
    report.skipped.push(id);
    Ok(())
}

pub(crate) enum StepFailure {
    Failed(String),
    Cancelled(String),
}

impl<E: std::fmt::Display> From<E> for StepFailure {
    fn from(e: E) -> Self {
        StepFailure::Failed(e.to_string())
    }
}

fn run_step(
    recipe: &Recipe,
    step: &Step,
    ctx: &RunContext,
    entry: &mut StepState,
    bench: &mut Bench,
    plan_lanes: &[String],
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    match &step.action {
        Action::Clone { source, into } => {
            let Some(src) = recipe.sources.iter().find(|s| s.id == *source) else {
                return Err(StepFailure::Failed(format!("no source `{source}`")));
            };
            let dest = within(&ctx.run.sources(), into)?;
            match source::checkout(
                &ctx.data.git_cache(),
                src,
                &dest,
                id,
                &ctx.cancel,
                ctx.events,
            ) {
                Ok(commit) => {
                    entry.commit = Some(commit);
                    Ok(())
                }
                Err(e @ source::SourceError::Cancelled { .. }) => {
                    Err(StepFailure::Cancelled(e.to_string()))
                }
                Err(e) => Err(e.into()),
            }
        }
        Action::Build { command, dir, env } => {
            run_process(step, command, dir.as_deref(), env, &[], ctx)
        }
        Action::Command { command, dir, env } => {
            run_process(step, command, dir.as_deref(), env, &[], ctx)?;
            steps::keep_command_figures(ctx, id)
        }
        Action::Emit {
            command,
            dir,
            env,
            tree,
            manifest,
        } => {
            let tree_dir = within(&ctx.run.trees(), tree)?;
            if tree_dir.exists() {
                std::fs::remove_dir_all(&tree_dir)?;
            }
            let tree_env = [("REPRISE_TREE", tree_dir.display().to_string())];
            run_process(step, command, dir.as_deref(), env, &tree_env, ctx)?;
            if !tree_dir.is_dir() {
                return Err(StepFailure::Failed(format!(
                    "the emitter wrote no tree at {}",
                    tree_dir.display()
                )));
            }
            let expected = manifest_file(recipe, tree, manifest.as_deref(), ctx);
            compare_tree(step, tree, &tree_dir, &expected, false, ctx)
        }
        Action::Digest { tree, manifest } => {
            let tree_dir = within(&ctx.run.trees(), tree)?;
            if !tree_dir.is_dir() {
                return Err(StepFailure::Failed(format!(
                    "no tree at {}",
                    tree_dir.display()
                )));
            }
            let expected = manifest_file(recipe, tree, manifest.as_deref(), ctx);
            compare_tree(step, tree, &tree_dir, &expected, true, ctx)
        }
        Action::Serve { repeat, .. } => {
            let repeat = if ctx.quick { 1 } else { *repeat };
            bench::serve(bench, ctx, recipe, step, plan_lanes, repeat)
        }
        Action::Check { workload, .. } => {
            let w = workload_of(recipe, workload)?;
            bench::check(bench, ctx, recipe, step, plan_lanes, &w.endpoints)
        }
        Action::Load { workload, .. } => {
            let w = workload_of(recipe, workload)?;
            measure::load(bench, ctx, recipe, step, plan_lanes, w)
        }
        Action::SignIn {
            email,
            password,
            flow,
            ..
        } => steps::sign_in(bench, ctx, recipe, step, plan_lanes, email, password, *flow),
        Action::Seed {
            command,
            dir,
            env,
            database,
            verify,
        } => {
            run_process(step, command, dir.as_deref(), env, &[], ctx)?;
            steps::verify_seed(ctx, id, database, verify)
        }
        Action::Stage { database, tree, to } => {
            entry.outputs = Some(steps::stage(ctx, id, database, tree, to)?);
            Ok(())
        }
        Action::Bundle {
            runtime,
            tree,
            lockfile,
            env,
        } => steps::bundle(recipe, step, ctx, runtime, tree, lockfile, env),
        Action::Cable { workload, .. } => {
            let w = workload_of(recipe, workload)?;
            crate::people_step::run(bench, ctx, recipe, step, plan_lanes, w)
        }
    }
}

pub(crate) fn run_process(
    step: &Step,
    command: &[String],
    dir: Option<&str>,
    env: &std::collections::BTreeMap<String, String>,
    extra_env: &[(&str, String)],
    ctx: &RunContext,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let cwd = match dir {
        Some(d) => within(&ctx.run.path, d)?,
        None => ctx.run.path.clone(),
    };
    let mut cmd = HostCommand::new(id, command.to_vec(), cwd);
    cmd.env = env.clone();
    cmd.env
        .insert("REPRISE_RUN_DIR".into(), ctx.run.path.display().to_string());
    for (k, v) in extra_env {
        cmd.env.insert(k.to_string(), v.clone());
    }
    cmd.timeout = step.timeout.map(|t| t.as_duration());
    cmd.grace = ctx.grace;
    cmd.log = Some(ctx.run.logs().join(format!("{id}.log")));
    let outcome = host::run(&cmd, &ctx.cancel, ctx.events)?;
    let program = command.first().map(String::as_str).unwrap_or("");
    match outcome.failure(program) {
        None => Ok(()),
        Some(reason) if outcome.ending == Ending::Cancelled => Err(StepFailure::Cancelled(reason)),
        Some(reason) => Err(StepFailure::Failed(reason)),
    }
}

fn workload_of<'r>(recipe: &'r Recipe, name: &str) -> Result<&'r Workload, StepFailure> {
    recipe
        .workloads
        .iter()
        .find(|w| w.name.as_str() == name)
        .ok_or_else(|| StepFailure::Failed(format!("no workload `{name}` in this recipe")))
}

/// The manifest a tree is checked against: the step's own, or
/// `checksums/trees/<recipe>/<tree>.sha256` in the checkout.
fn manifest_file(recipe: &Recipe, tree: &str, manifest: Option<&str>, ctx: &RunContext) -> PathBuf {
    match manifest {
        Some(m) => ctx.checksums_root.join(m),
        None => ctx
            .checksums_root
            .join("checksums/trees")
            .join(recipe.id())
            .join(format!("{tree}.sha256")),
    }
}

/// Digests a tree, keeps its manifest in results/, and compares it with the
/// expected one. Without an expected manifest an emit step notes the digest;
/// a digest step fails, since comparing is its whole purpose.
fn compare_tree(
    step: &Step,
    tree: &str,
    tree_dir: &Path,
    expected: &Path,
    required: bool,
    ctx: &RunContext,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let manifest = tree_digest(tree_dir, id, ctx.events)?;
    let result = within(&ctx.run.results(), &format!("{tree}.sha256"))?;
    if let Some(parent) = result.parent() {
        std::fs::create_dir_all(parent)?;
    }
    write_atomic(&result, manifest.text().as_bytes())?;
    let note = |line: String| {
        ctx.events.emit(Event::Log {
            step: id.to_string(),
            stream: Stream::Stdout,
            line,
        })
    };
    note(format!(
        "trees/{tree}: {} files, digest {}",
        manifest.files.len(),
        manifest.digest()
    ));
    if !expected.is_file() {
        if required {
            return Err(StepFailure::Failed(format!(
                "no manifest at {} to compare trees/{tree} with (results/{tree}.sha256 has this run's)",
                expected.display()
            )));
        }
        note(format!(
            "no manifest at {}; nothing to compare with",
            expected.display()
        ));
        return Ok(());
    }
    let want = Manifest::read(expected)?;
    let mismatch = manifest.compare(&want);
    if mismatch.is_empty() {
        note(format!("trees/{tree} matches {}", expected.display()));
        Ok(())
    } else {
        Err(StepFailure::Failed(format!(
            "trees/{tree} does not match {}: {mismatch}",
            expected.display()
        )))
    }
}

fn tree_digest(dir: &Path, step: &str, events: &dyn EventSink) -> Result<Manifest, StepFailure> {
    Ok(digest_tree_except(dir, &[".git"], &|done, total| {
        events.emit(Event::Progress {
            step: step.to_string(),
            done,
            total,
            unit: "files".into(),
        })
    })?)
}

/// The folder a step produces, whose digest says whether it is intact.
fn outputs(step: &Step, run: &RunDir) -> Option<PathBuf> {
    match &step.action {
        Action::Clone { into, .. } => within(&run.sources(), into).ok(),
        Action::Emit { tree, .. } | Action::Digest { tree, .. } => within(&run.trees(), tree).ok(),
        _ => None,
    }
}

fn outputs_intact(prev: &StepState, dir: Option<&Path>) -> bool {
    match (dir, &prev.outputs) {
        (None, _) => true,
        (Some(dir), Some(recorded)) => {
            digest_tree_except(dir, &[".git"], &|_, _| {}).is_ok_and(|m| &m.digest() == recorded)
        }
        (Some(_), None) => false,
    }
}

/// What a step depends on, as one SHA-256: its definition, its source, the
/// recipe's files, and the recorded outputs of the steps it runs after.
fn inputs_digest(recipe: &Recipe, step: &Step, state: &State, files_digest: &str) -> String {
    let mut h = Sha256::new();
    h.update(serde_json::to_vec(step).unwrap_or_default());
    if let Action::Clone { source, .. } = &step.action
        && let Some(src) = recipe.sources.iter().find(|s| s.id == *source)
    {
        h.update(serde_json::to_vec(src).unwrap_or_default());
    }
    h.update(files_digest.as_bytes());
    for after in &step.after {
        let prev = state.steps.get(after.as_str());
        h.update(after.as_bytes());
        h.update(
            prev.and_then(|p| p.outputs.as_deref())
                .unwrap_or("")
                .as_bytes(),
        );
        h.update(prev.map(|p| p.inputs.as_str()).unwrap_or("").as_bytes());
    }
    hex(&h.finalize())
}

/// Writes the recipe's `[[file]]`s into `files/`; returns a digest of them.
fn write_files(recipe: &Recipe, run: &RunDir) -> Result<String, RunError> {
    let mut h = Sha256::new();
    for file in &recipe.files {
        let path = within(&run.files(), &file.path)
            .map_err(|_| RunError::BadFilePath(file.path.to_string()))?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| WorkDirError::Io {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        write_atomic(&path, file.content.as_bytes())?;
        h.update(file.path.as_bytes());
        h.update([0]);
        h.update(file.content.as_bytes());
        h.update([0]);
    }
    Ok(hex(&h.finalize()))
}

/// `base/rel`, refusing absolute paths and `..`.
pub(crate) fn within(base: &Path, rel: &str) -> Result<PathBuf, StepFailure> {
    let path = Path::new(rel);
    if path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        Ok(base.join(path))
    } else {
        Err(StepFailure::Failed(format!(
            "`{rel}` must be a relative path inside the run's folder, without `..`"
        )))
    }
}
