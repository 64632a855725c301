//! `emit`: the emitter writes a tree into `trees/<tree>` (its path in
//! `REPRISE_TREE`), which is then digested and compared like the `digest`
//! step's, where a manifest is pinned.

use super::TreeFailure;
use std::collections::BTreeMap;

use reprise_recipe::ExpectedTree;

use super::digest::compare_tree;
use super::{Produced, StepFailure, StepInput, run_process, within};

pub(crate) fn run(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
    tree: &str,
    expected: &ExpectedTree,
) -> Result<Produced, StepFailure> {
    let tree_dir = within(&s.ctx.run.trees(), tree)?;
    if tree_dir.exists() {
        std::fs::remove_dir_all(&tree_dir).map_err(|source| StepFailure::Io {
            path: tree_dir.clone(),
            source,
        })?;
    }
    let tree_env = [("REPRISE_TREE", tree_dir.display().to_string())];
    run_process(s, command, dir, env, &tree_env)?;
    if !tree_dir.is_dir() {
        return Err(TreeFailure::NotEmitted(tree_dir).into());
    }
    compare_tree(s, tree, &tree_dir, expected, false)?;
    Ok(Produced::default())
}
