//! `build`: a command that compiles something (the emitter, a binary) in
//! the run's folder. Its outputs stay where it wrote them: the step is kept
//! from an earlier attempt while the files it declares are unchanged.

use std::collections::BTreeMap;
use std::path::Path;

use reprise_recipe::{BuildStep, Recipe};
use sha2::{Digest, Sha256};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, command_words, run_process, within};
use crate::inputs::tree_digest::hex;
use crate::run::resume::{OutputsGone, Resume};

impl Kind for BuildStep {
    fn describe(&self, _: &Recipe) -> String {
        command_words(&self.command, self.dir.as_deref())
    }

    /// The files it declares, each with its SHA-256.
    fn outputs_now(&self, resume: &Resume) -> Option<Result<String, OutputsGone>> {
        if self.outputs.is_empty() {
            return None;
        }
        let base = match &self.dir {
            Some(d) => within(&resume.run.path, d).ok()?,
            None => resume.run.path.clone(),
        };
        Some(files_fingerprint(&base, &self.outputs))
    }

    fn what_changed(&self, _: &Resume) -> String {
        format!("what it built changed: {}", self.outputs.join(", "))
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, &self.command, self.dir.as_deref(), &self.env)
    }
}

/// Runs a command that makes something, in the run's folder.
fn run(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
) -> Result<Produced, StepFailure> {
    run_process(s, command, dir, env, &[])?;
    Ok(Produced::default())
}

/// The files a build declares, each with its SHA-256.
fn files_fingerprint(base: &Path, files: &[String]) -> Result<String, OutputsGone> {
    let mut h = Sha256::new();
    for rel in files {
        let bytes = std::fs::read(base.join(rel)).map_err(|_| OutputsGone::File(rel.clone()))?;
        h.update(rel.as_bytes());
        h.update(Sha256::digest(&bytes));
    }
    Ok(hex(&h.finalize()))
}
