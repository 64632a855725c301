//! `clone`: a recipe's source checked out at its pinned revision into
//! `sources/<into>`, through the git cache (see `crate::inputs::source`), from the
//! recipe's URL or the one the reader gave instead (`--source`).

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{CloneStep, Recipe, Revision};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, within};
use crate::inputs::source;
use crate::run::resume::{OutputsGone, Resume};

impl Kind for CloneStep {
    fn describe(&self, recipe: &Recipe) -> String {
        let into = show(&self.into);
        match recipe.sources.iter().find(|s| s.id == self.source) {
            Some(s) => match s.revision() {
                Revision::Pinned(rev) => {
                    format!("{} at {} into sources/{into}", show(&s.url), show(rev))
                }
                Revision::Unpinned { branch, .. } => format!(
                    "{} at the tip of {} (unpinned) into sources/{into}",
                    show(&s.url),
                    show(branch)
                ),
            },
            None => format!("source {}", show(&self.source)),
        }
    }

    /// The source as the recipe gives it (its URL, its revision).
    fn inputs(&self, resume: &Resume) -> Vec<u8> {
        resume
            .recipe
            .sources
            .iter()
            .find(|s| s.id == self.source)
            .map(|src| serde_json::to_vec(src).unwrap_or_default())
            .unwrap_or_default()
    }

    /// The checkout as its commit, with its tracked files unchanged (a
    /// build's `target/` does not count).
    fn outputs_now(&self, resume: &Resume) -> Option<Result<String, OutputsGone>> {
        let dir = within(&resume.run.sources(), &self.into).ok()?;
        Some(match source::checkout_state(&dir) {
            Ok((commit, changed)) if changed.is_empty() => Ok(format!("commit {commit}")),
            Ok((commit, changed)) => {
                Ok(format!("commit {commit} with {} changed", listed(&changed)))
            }
            Err(_) => Err(OutputsGone::Checkout(dir.to_path_buf())),
        })
    }

    fn what_changed(&self, resume: &Resume) -> String {
        let into = &self.into;
        match source::checkout_state(&resume.run.sources().join(into)) {
            Ok((_, changed)) if !changed.is_empty() => format!(
                "sources/{into} has changes to tracked files: {}",
                listed(&changed)
            ),
            _ => format!("sources/{into} is at another commit"),
        }
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, &self.source, &self.into)
    }
}

/// The first few of `files`, and how many more.
fn listed(files: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text = files
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if files.len() > SHOWN {
        text.push_str(&format!(" and {} more", files.len() - SHOWN));
    }
    text
}

fn run(s: &StepInput, source_id: &str, into: &str) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let Some(src) = s.recipe.sources.iter().find(|src| src.id == *source_id) else {
        return Err(StepFailure::NoSource(source_id.to_string()));
    };
    let mut src = src.clone();
    if let Some(url) = ctx.source_overrides.get(source_id) {
        s.note(format!(
            "`{source_id}` from {url} instead of {} (--source): the revision is still checked",
            src.url
        ));
        src.url = url.clone();
    }
    let dest = within(&ctx.run.sources(), into)?;
    let commit = source::checkout(
        &ctx.data.git_cache(),
        &src,
        &dest,
        s.id(),
        &ctx.cancel,
        ctx.events,
    )?;
    Ok(Produced {
        commit: Some(commit),
        outputs: None,
    })
}
