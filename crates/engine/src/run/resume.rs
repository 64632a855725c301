//! What an attempt keeps from an earlier one, and why. A step is kept when
//! it finished before, its inputs are unchanged and its outputs are intact;
//! otherwise it runs (it never finished) or is redone (`--from`, changed
//! inputs, changed outputs), and the reason is said.
//!
//! A step's inputs are one SHA-256 over its definition, what its kind adds
//! (its source, what it compares with: a manifest's content, a digest), the
//! recipe's files, and what the steps it runs after recorded. Its outputs
//! are its kind's to say ([`crate::run::steps::Kind::outputs_now`]): a
//! checkout is its commit with its tracked files unchanged, a tree its
//! digest, a build the files it declares, a database its being there.

use std::path::{Path, PathBuf};

use reprise_recipe::{Action, Recipe, Step};
use sha2::{Digest, Sha256};

use crate::inputs::tree_digest::{DigestError, Manifest, digest_tree_except, hex};
use crate::os::run_files::within;
use crate::os::workdir::{RunDir, State, StepStatus};
use crate::run::plan::Plan;
use crate::run::steps::kind;

/// What happens to a step in this attempt.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(tag = "decision", content = "reason", rename_all = "snake_case")]
pub enum Decision {
    /// Finished in an earlier attempt; inputs unchanged, outputs intact.
    Keep,
    /// It has not finished before (or a sign-in whose session a later step needs).
    Run(String),
    /// It finished before, and is done again: why (`--from`, changed inputs).
    Redo(String),
    /// It finished before, and what it made changed since: what changed. It
    /// is done again, or (`--strict`) the run stops.
    Changed(String),
}

impl Decision {
    pub fn word(&self) -> &'static str {
        match self {
            Decision::Keep => "keep",
            Decision::Run(_) => "run",
            Decision::Redo(_) | Decision::Changed(_) => "redo",
        }
    }

    pub fn reason(&self) -> &str {
        match self {
            Decision::Keep => "finished before; inputs unchanged and outputs intact",
            Decision::Run(r) | Decision::Redo(r) | Decision::Changed(r) => r,
        }
    }
}

/// Where a run's steps are judged for keeping.
pub(crate) struct Resume<'a> {
    pub recipe: &'a Recipe,
    pub run: &'a RunDir,
    pub checksums_root: &'a Path,
    /// The digest of the recipe's `[[file]]`s.
    pub files_digest: String,
}

impl Resume<'_> {
    /// What a step depends on, as one SHA-256.
    pub fn inputs_digest(&self, step: &Step, state: &State) -> String {
        let mut h = Sha256::new();
        h.update(serde_json::to_vec(step).unwrap_or_default());
        h.update(kind(&step.action).inputs(self));
        h.update(self.files_digest.as_bytes());
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

    /// What a step produced, as it is now: a fingerprint to compare with
    /// the one recorded when it finished, or why there is none. `None` for
    /// kinds that produce nothing to check.
    pub fn outputs_now(&self, step: &Step) -> Option<Result<String, OutputsGone>> {
        kind(&step.action).outputs_now(self)
    }

    /// A tree an emit or digest step made, as it is now: its digest.
    pub(crate) fn tree_now(&self, tree: &str) -> Option<Result<String, OutputsGone>> {
        let dir = within(&self.run.trees(), tree).ok()?;
        Some(
            self.tree_as_made(&dir, tree)
                .map(|m| m.digest())
                .map_err(|_| OutputsGone::Tree(tree.to_string())),
        )
    }

    /// What changed in a tree since it was made: the files, where its
    /// manifest was kept.
    pub(crate) fn tree_changed(&self, tree: &str) -> String {
        let recorded = self.run.results().join(format!("{tree}.sha256"));
        let now = self.tree_as_made(&self.run.trees().join(tree), tree);
        match (Manifest::read(&recorded), now) {
            (Ok(was), Ok(now)) => {
                format!(
                    "trees/{tree} changed since it was made: {}",
                    now.compare(&was)
                )
            }
            _ => format!("trees/{tree} changed since it was made"),
        }
    }

    /// Whether step `at` of `plan` is kept, run or redone, given the run's
    /// state now.
    pub fn decide(&self, plan: &Plan, at: usize, state: &State) -> Decision {
        let planned = &plan.steps[at];
        let step = planned.step;
        let Some(prev) = state.steps.get(step.id.as_str()) else {
            return Decision::Run("not run before".into());
        };
        match prev.status {
            StepStatus::Finished => {}
            StepStatus::Failed | StepStatus::Cancelled => {
                return Decision::Run(format!(
                    "{} last time{}",
                    if prev.status == StepStatus::Failed {
                        "failed"
                    } else {
                        "cancelled"
                    },
                    // "cancelled last time", not "…: cancelled" again.
                    prev.reason
                        .as_deref()
                        .filter(|r| *r != "cancelled")
                        .map(|r| format!(": {r}"))
                        .unwrap_or_default()
                ));
            }
            StepStatus::Running => return Decision::Run("interrupted last time".into()),
            StepStatus::Skipped => return Decision::Run("skipped last time".into()),
        }
        if planned.forced {
            return Decision::Redo("--from asks for it".into());
        }
        if prev.inputs != self.inputs_digest(step, state) {
            return Decision::Redo(
                "its inputs changed (its definition, source, what it compares with, the recipe's files, or what it runs after)"
                    .into(),
            );
        }
        if matches!(step.action, Action::SignIn(_))
            && let Some(later) = self.runs_after_it(plan, at, state)
        {
            // A session lives only in memory (its cookie is never written):
            // kept only while nothing that needs it runs.
            return Decision::Run(format!("`{later}` runs and needs a session"));
        }
        match self.outputs_now(step) {
            None => Decision::Keep,
            Some(Ok(now)) if prev.outputs.as_deref() == Some(now.as_str()) => Decision::Keep,
            Some(Ok(_)) => Decision::Changed(kind(&step.action).what_changed(self)),
            Some(Err(why)) => Decision::Changed(why.to_string()),
        }
    }

    /// A tree as its emit made it: every file but `.git` and those the
    /// recipe's stage steps put into it afterwards (a seeded database),
    /// which are theirs, not the emitter's.
    fn tree_as_made(&self, dir: &Path, tree: &str) -> Result<Manifest, DigestError> {
        let mut manifest = digest_tree_except(dir, &[".git"], &|_, _| {})?;
        for step in &self.recipe.steps {
            if let Action::Stage(stage) = &step.action
                && stage.tree == tree
            {
                manifest.files.remove(stage.to.trim_start_matches("./"));
            }
        }
        Ok(manifest)
    }

    /// The first step after step `at` that depends on it (directly or
    /// through others) and will run, counting a step after one that runs as
    /// running (as [`Resume::preview`] does).
    fn runs_after_it<'p>(&self, plan: &'p Plan, at: usize, state: &State) -> Option<&'p str> {
        let mut needs_it = vec![plan.steps[at].id()];
        let mut going: Vec<&str> = Vec::new();
        for (j, planned) in plan.steps.iter().enumerate().skip(at + 1) {
            let after = |ids: &[&str]| planned.step.after.iter().any(|a| ids.contains(&a.as_str()));
            let runs = after(&going) || self.decide(plan, j, state) != Decision::Keep;
            if runs {
                going.push(planned.id());
            }
            if after(&needs_it) {
                if runs {
                    return Some(planned.id());
                }
                needs_it.push(planned.id());
            }
        }
        None
    }

    /// Every step's decision before anything runs, for the plan a person
    /// confirms: a step after one that runs is said to run after it (it may
    /// yet be kept, if that step's outputs come out the same).
    pub fn preview(&self, plan: &Plan, state: &State) -> Vec<Decision> {
        let mut going: Vec<&str> = Vec::new();
        plan.steps
            .iter()
            .enumerate()
            .map(|(at, planned)| {
                let mut decision = self.decide(plan, at, state);
                if decision == Decision::Keep
                    && let Some(up) = planned
                        .step
                        .after
                        .iter()
                        .find(|a| going.contains(&a.as_str()))
                {
                    decision = Decision::Run(format!(
                        "after `{up}`, which runs (kept if its output comes out the same)"
                    ));
                }
                if decision != Decision::Keep {
                    going.push(planned.id());
                }
                decision
            })
            .collect()
    }
}

/// What a finished step produced that is no longer there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputsGone {
    #[error("{} is not a checkout any more", .0.display())]
    Checkout(PathBuf),
    #[error("trees/{0} is gone")]
    Tree(String),
    #[error("{0} is missing")]
    File(String),
    #[error("{0} is gone")]
    Gone(String),
}
