//! `bundle`: `bundle install` (always, never only `bundle check`) for one
//! runtime with a lockfile of its own (see `crate::inputs::lockfile`); the tree's
//! main lock must come out unchanged.

use std::collections::BTreeMap;

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{BundleStep, Recipe};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, run_process, within};
use crate::inputs::lockfile::{self, BundleError};

impl Kind for BundleStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "bundle install for {} in trees/{}, lockfile {}",
            show(&self.runtime),
            show(&self.tree),
            show(&self.lockfile)
        )
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, &self.runtime, &self.tree, &self.lockfile, &self.env)
    }
}

fn run(
    s: &StepInput,
    runtime: &str,
    tree: &str,
    lock: &str,
    env: &BTreeMap<String, String>,
) -> Result<Produced, StepFailure> {
    let tree_dir = within(&s.ctx.run.trees(), tree)?;
    let (layout, seeded) = lockfile::prepare(&s.ctx.run.trees(), tree, lock)?;
    let before = lockfile::file_digest(&layout.main_lock)?;
    if seeded {
        s.note(format!(
            "{runtime}: seeded {lock} from the main Gemfile.lock"
        ));
    }
    let mut env = env.clone();
    env.insert(
        "BUNDLE_GEMFILE".into(),
        layout.gemfile.display().to_string(),
    );
    if !layout.is_main {
        env.entry("BUNDLE_LOCKFILE".into())
            .or_insert(layout.lockfile.display().to_string());
    }
    env.entry("BUNDLE_APP_CONFIG".into()).or_insert(
        tree_dir
            .join(format!(".bundle-{runtime}"))
            .display()
            .to_string(),
    );
    // The runtime's own binary runs Bundler (jruby -S bundle, …).
    let program = s
        .recipe
        .toolchain(runtime)
        .and_then(|t| t.command.first().cloned())
        .unwrap_or_else(|| "ruby".into());
    let command: Vec<String> = if program == "ruby" {
        vec!["bundle".into(), "install".into()]
    } else {
        vec![program, "-S".into(), "bundle".into(), "install".into()]
    };
    run_process(s, &command, Some(&format!("trees/{tree}")), &env, &[])?;
    let after = lockfile::file_digest(&layout.main_lock)?;
    if !layout.is_main && before != after {
        return Err(BundleError::MainLockModified(layout.main_lock.display().to_string()).into());
    }
    s.note(format!(
        "{runtime}: bundled into {}; main lock {}",
        layout.lockfile.display(),
        match &after {
            Some(d) => format!("unchanged (sha256 {d})"),
            None => "absent".into(),
        }
    ));
    Ok(Produced::default())
}
