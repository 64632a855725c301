//! The plan: which steps of a recipe run, in dependency order, and what each
//! will do, from the lanes and steps the reader selected.

use std::collections::BTreeSet;

use reprise_recipe::{Action, Recipe, Revision, Step, StepKind};

use reprise_recipe::shown::{command_line, escaped as show};

/// What the reader asked for.
#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    /// Lanes to run (empty: every runnable lane).
    pub lanes: Vec<String>,
    /// Steps to run, with the steps they need (empty: every step).
    pub steps: Vec<String>,
    /// Redo this step and the steps that depend on it (directly or through
    /// others), even if finished before.
    pub from: Option<String>,
}

/// Why a plan could not be made.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("steps {} wait for each other in a cycle", .0.join(", "))]
    Cycle(Vec<String>),
    #[error("step `{step}` runs after `{after}`, which is not a step of this recipe")]
    MissingDependency { step: String, after: String },
    #[error("step `{step}` clones source `{source_id}`, which is not a [[source]] of this recipe")]
    MissingSource { step: String, source_id: String },
    #[error("no step `{0}` in this recipe")]
    UnknownStep(String),
    #[error("no lane `{0}` in this recipe")]
    UnknownLane(String),
    #[error("lane `{0}` cannot run: it has no command")]
    LaneNotRunnable(String),
}

/// One step as it will run.
#[derive(Clone, Debug)]
pub struct PlannedStep<'r> {
    pub step: &'r Step,
    /// Redo even when an earlier attempt finished: it is `--from`'s step or
    /// depends on it.
    pub forced: bool,
}

impl PlannedStep<'_> {
    pub fn id(&self) -> &str {
        &self.step.id
    }

    pub fn kind(&self) -> StepKind {
        self.step.action.kind()
    }

    /// What the step will do, in one line: the command, the source, the tree.
    pub fn describe(&self, recipe: &Recipe) -> String {
        let argv = |command: &[String], dir: &Option<String>| {
            let shown = command_line(command);
            match dir {
                Some(d) => format!("in {}: {shown}", show(d)),
                None => shown,
            }
        };
        match &self.step.action {
            Action::Clone { source, into } => match recipe.sources.iter().find(|s| s.id == *source)
            {
                Some(s) => match s.revision() {
                    Revision::Pinned(rev) => format!(
                        "{} at {} into sources/{}",
                        show(&s.url),
                        show(rev),
                        show(into)
                    ),
                    Revision::Unpinned { branch, .. } => {
                        format!(
                            "{} at the tip of {} (unpinned) into sources/{}",
                            show(&s.url),
                            show(branch),
                            show(into)
                        )
                    }
                },
                None => format!("source {}", show(source)),
            },
            Action::Build { command, dir, .. } | Action::Command { command, dir, .. } => {
                argv(command, dir)
            }
            Action::Emit {
                command, dir, tree, ..
            } => format!("{} → trees/{}", argv(command, dir), show(tree)),
            Action::Digest { tree, .. } => {
                format!("digest trees/{} and compare with checksums", show(tree))
            }
            Action::Bundle {
                runtime,
                tree,
                lockfile,
                ..
            } => format!(
                "bundle install for {} in trees/{}, lockfile {}",
                show(runtime),
                show(tree),
                show(lockfile)
            ),
            Action::Seed {
                command,
                dir,
                database,
                ..
            } => format!(
                "{}, then count the rows of {}",
                argv(command, dir),
                show(database)
            ),
            Action::Stage { database, tree, to } => {
                format!(
                    "copy {} into trees/{}/{} (SQLite backup)",
                    show(database),
                    show(tree),
                    show(to)
                )
            }
            Action::SignIn { email, lanes, .. } => {
                let boots = step_lanes(recipe, lanes)
                    .map(|l| recipe.cold_starts(l))
                    .max()
                    .unwrap_or(1);
                format!(
                    "sign in to each lane as {}, then boot it from cold {}, timed to its signed-in room page",
                    show(email),
                    match boots {
                        1 => "once more".to_string(),
                        n => format!("{n} times"),
                    }
                )
            }
            Action::Serve { repeat, lanes } => {
                let signed_in_later = step_lanes(recipe, lanes).any(|l| recipe.signs_in(l));
                match repeat {
                    0 | 1 => "boot each lane once until it answers".to_string(),
                    n if signed_in_later => format!(
                        "boot each lane once until it answers (its {n} cold starts are timed once it is signed in)"
                    ),
                    n => format!("boot each lane {n} times (cold starts) until it answers"),
                }
            }
            Action::Check { workload, .. } => {
                format!(
                    "one checked request per endpoint of {} per lane",
                    show(workload)
                )
            }
            Action::Load { workload, .. } => {
                format!("measure {}: lanes × endpoints × runs", show(workload))
            }
            Action::Cable { workload, .. } => {
                format!(
                    "simulated people on {}: steps of people, each judged served or not",
                    show(workload)
                )
            }
        }
    }
}

/// The steps that will run, in order.
#[derive(Clone, Debug)]
pub struct Plan<'r> {
    pub recipe: &'r Recipe,
    pub steps: Vec<PlannedStep<'r>>,
    /// The lanes per-lane steps will use.
    pub lanes: Vec<String>,
    /// Those of `lanes` this machine can run, where the planner looked (the
    /// session does, by the probe's rule, running nothing of the recipe's):
    /// what a measuring step expects to measure. `None`: all of `lanes`.
    /// The steps still ask when they run, and skip the others with why.
    pub lanes_here: Option<Vec<String>>,
}

/// Orders the recipe's steps by their `after` lists and applies the
/// reader's selection.
pub fn plan<'r>(recipe: &'r Recipe, options: &PlanOptions) -> Result<Plan<'r>, PlanError> {
    for step in &recipe.steps {
        for after in &step.after {
            if recipe.step(after).is_none() {
                return Err(PlanError::MissingDependency {
                    step: step.id.to_string(),
                    after: after.to_string(),
                });
            }
        }
        if let Action::Clone { source, .. } = &step.action
            && !recipe.sources.iter().any(|s| s.id == *source)
        {
            return Err(PlanError::MissingSource {
                step: step.id.to_string(),
                source_id: source.to_string(),
            });
        }
    }
    let ordered = recipe.ordered_steps();
    if ordered.len() < recipe.steps.len() {
        let placed: BTreeSet<&str> = ordered.iter().map(|s| s.id.as_str()).collect();
        let stuck = recipe
            .steps
            .iter()
            .map(|s| s.id.to_string())
            .filter(|id| !placed.contains(id.as_str()))
            .collect();
        return Err(PlanError::Cycle(stuck));
    }

    for id in options.steps.iter().chain(&options.from) {
        if recipe.step(id).is_none() {
            return Err(PlanError::UnknownStep(id.clone()));
        }
    }
    let mut wanted: BTreeSet<&str> = BTreeSet::new();
    if options.steps.is_empty() {
        wanted.extend(recipe.steps.iter().map(|s| s.id.as_str()));
    } else {
        let mut todo: Vec<&str> = options.steps.iter().map(String::as_str).collect();
        while let Some(id) = todo.pop() {
            if wanted.insert(id)
                && let Some(step) = recipe.step(id)
            {
                todo.extend(step.after.iter().map(|a| a.as_str()));
            }
        }
    }

    let lanes = if options.lanes.is_empty() {
        recipe
            .lanes
            .iter()
            .filter(|l| l.is_runnable())
            .map(|l| l.name.to_string())
            .collect()
    } else {
        for name in &options.lanes {
            match recipe.lane(name) {
                None => return Err(PlanError::UnknownLane(name.clone())),
                Some(l) if !l.is_runnable() => {
                    return Err(PlanError::LaneNotRunnable(name.clone()));
                }
                Some(_) => {}
            }
        }
        options.lanes.clone()
    };

    // `--from`'s step and everything that depends on it, in dependency order.
    let mut redo: BTreeSet<&str> = BTreeSet::new();
    let mut steps = Vec::new();
    for step in ordered {
        let forced = options.from.as_deref() == Some(step.id.as_str())
            || step.after.iter().any(|a| redo.contains(a.as_str()));
        if forced {
            redo.insert(step.id.as_str());
        }
        if wanted.contains(step.id.as_str()) {
            steps.push(PlannedStep { step, forced });
        }
    }
    Ok(Plan {
        recipe,
        steps,
        lanes,
        lanes_here: None,
    })
}

/// The lanes a per-lane step names, or every lane of the recipe.
fn step_lanes<'r>(
    recipe: &'r Recipe,
    named: &'r [reprise_recipe::Name],
) -> impl Iterator<Item = &'r str> {
    recipe
        .lanes
        .iter()
        .map(|l| l.name.as_str())
        .filter(move |l| named.is_empty() || named.iter().any(|n| n.as_str() == *l))
}
