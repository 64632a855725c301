//! `digest`: a tree's sha256sum manifest and its one-line digest, kept in
//! `results/<tree>.sha256` and compared with what the recipe expects: a
//! manifest in the checkout (the step's `manifest`, else
//! `checksums/trees/<recipe>/<tree>.sha256`) and or a one-line `digest`
//! written in the recipe. A mismatch names the files that differ, are
//! missing or extra. A tree that comes from an unpinned source has no
//! digest anyone could publish: its digest is recorded, not compared. The
//! `emit` step compares its tree the same way.

use super::TreeFailure;
use std::path::{Path, PathBuf};

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{DigestStep, ExpectedTree, Recipe};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, within};
use crate::event::{Event, EventSink};
use crate::inputs::tree_digest::{Manifest, digest_tree_except};
use crate::run::resume::{OutputsGone, Resume};

impl Kind for DigestStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "digest trees/{} and compare with {}{}",
            show(&self.tree),
            self.expected
                .manifest
                .as_deref()
                .map_or("checksums".into(), show),
            self.expected
                .digest
                .as_ref()
                .map(|d| format!(", expecting {d}"))
                .unwrap_or_default()
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
        run(s, &self.tree, &self.expected)
    }
}

fn run(s: &StepInput, tree: &str, expected: &ExpectedTree) -> Result<Produced, StepFailure> {
    let tree_dir = within(&s.ctx.run.trees(), tree)?;
    if !tree_dir.is_dir() {
        return Err(TreeFailure::Missing(tree_dir).into());
    }
    compare_tree(s, tree, &tree_dir, expected, true)?;
    Ok(Produced::default())
}

/// The manifest file a tree is compared with: the step's own, or
/// `checksums/trees/<recipe>/<tree>.sha256` in the checkout.
pub(crate) fn manifest_file(
    recipe: &Recipe,
    checksums_root: &Path,
    tree: &str,
    expected: &ExpectedTree,
) -> PathBuf {
    match &expected.manifest {
        Some(m) => checksums_root.join(m),
        None => checksums_root
            .join("checksums/trees")
            .join(recipe.id())
            .join(format!("{tree}.sha256")),
    }
}

/// What an emit or digest step compares with, as bytes for the step's
/// inputs: a changed manifest or digest redoes the comparison.
pub(crate) fn expectation(resume: &Resume, tree: &str, expected: &ExpectedTree) -> Vec<u8> {
    let file = manifest_file(resume.recipe, resume.checksums_root, tree, expected);
    let mut bytes = std::fs::read(file).unwrap_or_default();
    bytes.extend(expected.digest.as_deref().unwrap_or("").as_bytes());
    bytes
}

/// Digests a tree, keeps its manifest in results/, and compares it with
/// what the recipe expects. Where nothing is expected an emit step notes the
/// digest; a digest step (`required`) fails, since comparing is its purpose —
/// unless the tree comes from unpinned sources, whose digest is recorded.
pub(crate) fn compare_tree(
    s: &StepInput,
    tree: &str,
    tree_dir: &Path,
    expected: &ExpectedTree,
    required: bool,
) -> Result<(), StepFailure> {
    let found = digest_with_progress(tree_dir, s.id(), s.ctx.events)?;
    s.ctx
        .results()
        .write_bytes(&format!("{tree}.sha256"), found.text().as_bytes())?;
    let digest = found.digest();
    s.note(format!(
        "trees/{tree}: {} files, digest {digest}",
        found.files.len()
    ));
    let unpinned = s.recipe.unpinned_sources_upstream(s.step);
    if let Some(source) = unpinned.first() {
        s.note(format!(
            "trees/{tree} comes from `{}`, which is not pinned: there is no published digest to compare with; this run's is recorded in results/{tree}.sha256",
            source.id
        ));
        return Ok(());
    }
    let file = manifest_file(s.recipe, &s.ctx.checksums_root, tree, expected);
    let manifest = if file.is_file() {
        Some(Manifest::read(&file)?)
    } else if expected.manifest.is_some() {
        return Err(TreeFailure::NoManifest(file).into());
    } else {
        None
    };
    let mismatch = manifest.as_ref().map(|want| found.compare(want));
    match (&expected.digest, &mismatch) {
        (Some(want), _) if *want != digest => {
            return Err(TreeFailure::Digest {
                tree: tree.to_string(),
                digest: digest.clone(),
                want: want.clone(),
                against: mismatch
                    .as_ref()
                    .filter(|m| !m.is_empty())
                    .map(|m| (m.to_string(), file.clone())),
            }
            .into());
        }
        (_, Some(m)) if !m.is_empty() => {
            return Err(TreeFailure::Manifest {
                tree: tree.to_string(),
                manifest: file,
                differ: m.to_string(),
            }
            .into());
        }
        (Some(_), _) => s.note(format!("trees/{tree} has the digest the recipe expects")),
        (None, Some(_)) => s.note(format!("trees/{tree} matches {}", file.display())),
        (None, None) if required => {
            return Err(TreeFailure::NothingToCompare {
                tree: tree.to_string(),
                manifest: file,
            }
            .into());
        }
        (None, None) => s.note(format!(
            "no manifest at {}; nothing to compare with",
            file.display()
        )),
    }
    Ok(())
}

/// A tree's manifest, its progress reported as the step's.
pub(crate) fn digest_with_progress(
    dir: &Path,
    step: &str,
    events: &dyn EventSink,
) -> Result<Manifest, StepFailure> {
    Ok(digest_tree_except(dir, &[".git"], &|done, total| {
        events.emit(Event::Progress {
            step: step.to_string(),
            done,
            total,
            unit: "files".into(),
        })
    })?)
}
