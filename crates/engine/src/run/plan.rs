//! The plan: which steps of a recipe run, in dependency order, and what each
//! will do, from the lanes and steps the reader selected.

use std::collections::BTreeSet;

use reprise_recipe::{Action, Recipe, Step, StepKind};

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
        describe(recipe, self.step)
    }
}

/// What a step of `recipe` does, in one line, as the plan a person confirms
/// and `reprise show` say it.
pub fn describe(recipe: &Recipe, step: &Step) -> String {
    crate::run::steps::kind(&step.action).describe(recipe)
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
        if let Action::Clone(clone) = &step.action
            && !recipe.sources.iter().any(|s| s.id == clone.source)
        {
            return Err(PlanError::MissingSource {
                step: step.id.to_string(),
                source_id: clone.source.to_string(),
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
