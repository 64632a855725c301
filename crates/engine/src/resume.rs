//! What an attempt keeps from an earlier one: a step that finished, whose
//! inputs are unchanged and whose outputs are intact. Its inputs are one
//! SHA-256 over its definition, its source, the recipe's files and what the
//! steps it runs after recorded; its outputs are the folder it produces,
//! digested.

use std::path::{Path, PathBuf};

use reprise_recipe::{Action, Recipe, Step};
use sha2::{Digest, Sha256};

use crate::steps::within;
use crate::tree_digest::{digest_tree_except, hex};
use crate::workdir::{RunDir, State, StepState};

/// What a step depends on, as one SHA-256: its definition, its source, the
/// recipe's files, and the recorded outputs of the steps it runs after.
pub(crate) fn inputs_digest(
    recipe: &Recipe,
    step: &Step,
    state: &State,
    files_digest: &str,
) -> String {
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

/// The folder a step produces, whose digest says whether it is intact.
pub(crate) fn output_dir(step: &Step, run: &RunDir) -> Option<PathBuf> {
    match &step.action {
        Action::Clone { into, .. } => within(&run.sources(), into).ok(),
        Action::Emit { tree, .. } | Action::Digest { tree, .. } => within(&run.trees(), tree).ok(),
        _ => None,
    }
}

/// Whether the folder a finished step produced still has the digest it
/// recorded.
pub(crate) fn outputs_intact(prev: &StepState, dir: Option<&Path>) -> bool {
    match (dir, &prev.outputs) {
        (None, _) => true,
        (Some(dir), Some(recorded)) => {
            digest_tree_except(dir, &[".git"], &|_, _| {}).is_ok_and(|m| &m.digest() == recorded)
        }
        (Some(_), None) => false,
    }
}
