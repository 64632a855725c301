//! `emit`: the emitter writes a tree into `trees/<tree>` (its path in
//! `REPRISE_TREE`), which is then digested and compared like the `digest`
//! step's, where a manifest is pinned.

use super::TreeFailure;
use std::collections::BTreeMap;

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{EmitStep, ExpectedTree, Recipe};

use super::digest::{compare_tree, expectation};
use super::{Kind, Lanes, Produced, StepFailure, StepInput, command_words, run_process, within};
use crate::run::resume::{OutputsGone, Resume};

impl Kind for EmitStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "{} → trees/{}",
            command_words(&self.command, self.dir.as_deref()),
            show(&self.tree)
        )
    }

    fn inputs(&self, resume: &Resume) -> Vec<u8> {
        expectation(resume, &self.tree, &self.expected)
    }

    fn outputs_now(&self, resume: &Resume) -> Option<Result<String, OutputsGone>> {
        resume.tree_now(&self.tree)
    }

    fn what_changed(&self, resume: &Resume) -> String {
        resume.tree_changed(&self.tree)
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(
            s,
            &self.command,
            self.dir.as_deref(),
            &self.env,
            &self.tree,
            &self.expected,
        )
    }
}

fn run(
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
