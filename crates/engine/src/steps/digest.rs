//! `digest`: a tree's sha256sum manifest and its one digest, compared with
//! the manifest the recipe pins (the step's own, or
//! `checksums/trees/<recipe>/<tree>.sha256` in the checkout); a mismatch
//! names the files that differ, are missing or extra. The `emit` step
//! compares its tree the same way.

use std::path::{Path, PathBuf};

use super::{Done, StepFailure, StepInput, within};
use crate::event::{Event, EventSink};
use crate::tree_digest::{Manifest, digest_tree_except};
use crate::workdir::write_atomic;

pub(crate) fn run(s: &StepInput, tree: &str, manifest: Option<&str>) -> Result<Done, StepFailure> {
    let tree_dir = within(&s.ctx.run.trees(), tree)?;
    if !tree_dir.is_dir() {
        return Err(StepFailure::Failed(format!(
            "no tree at {}",
            tree_dir.display()
        )));
    }
    compare_tree(s, tree, &tree_dir, manifest, true)?;
    Ok(Done::default())
}

/// The manifest a tree is checked against: the step's own, or
/// `checksums/trees/<recipe>/<tree>.sha256` in the checkout.
fn manifest_file(s: &StepInput, tree: &str, manifest: Option<&str>) -> PathBuf {
    let root = &s.ctx.checksums_root;
    match manifest {
        Some(m) => root.join(m),
        None => root
            .join("checksums/trees")
            .join(s.recipe.id())
            .join(format!("{tree}.sha256")),
    }
}

/// Digests a tree, keeps its manifest in results/, and compares it with the
/// expected one. Without an expected manifest an emit step notes the digest;
/// a digest step (`required`) fails, since comparing is its whole purpose.
pub(crate) fn compare_tree(
    s: &StepInput,
    tree: &str,
    tree_dir: &Path,
    manifest: Option<&str>,
    required: bool,
) -> Result<(), StepFailure> {
    let expected = manifest_file(s, tree, manifest);
    let manifest = digest_with_progress(tree_dir, s.id(), s.ctx.events)?;
    let result = within(&s.ctx.run.results(), &format!("{tree}.sha256"))?;
    if let Some(parent) = result.parent() {
        std::fs::create_dir_all(parent).map_err(|source| StepFailure::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    write_atomic(&result, manifest.text().as_bytes())?;
    s.note(format!(
        "trees/{tree}: {} files, digest {}",
        manifest.files.len(),
        manifest.digest()
    ));
    if !expected.is_file() {
        if required {
            return Err(StepFailure::Failed(format!(
                "no manifest at {} to compare trees/{tree} with (results/{tree}.sha256 has this run's)",
                expected.display()
            )));
        }
        s.note(format!(
            "no manifest at {}; nothing to compare with",
            expected.display()
        ));
        return Ok(());
    }
    let want = Manifest::read(&expected)?;
    let mismatch = manifest.compare(&want);
    if mismatch.is_empty() {
        s.note(format!("trees/{tree} matches {}", expected.display()));
        Ok(())
    } else {
        Err(StepFailure::Failed(format!(
            "trees/{tree} does not match {}: {mismatch}",
            expected.display()
        )))
    }
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
