//! Paths a recipe names, kept inside the run's folder: a relative path
//! without `..`, through no symlink that leads out (a step may leave one
//! behind; Reprise never writes through it).

use std::path::{Component, Path, PathBuf};

/// A path a recipe or a step named that would lead out of the run's folder.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Outside(String);

/// `base/rel`, where `rel` is a relative path without `..` and no part of
/// it that exists is a symlink leading out of `base`. A dangling symlink is
/// refused too: writing through it would create its target, wherever that is.
pub(crate) fn within(base: &Path, rel: &str) -> Result<PathBuf, Outside> {
    let path = Path::new(rel);
    if !path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(Outside(format!(
            "`{}` must be a relative path inside the run's folder, without `..`",
            reprise_recipe::shown::shown(rel)
        )));
    }
    let root = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
    let mut at = base.to_path_buf();
    for part in path.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let leads_out = match at.canonicalize() {
                    Ok(target) => !target.starts_with(&root),
                    Err(_) => true,
                };
                if leads_out {
                    return Err(Outside(format!(
                        "`{}` leads out of {} through the symlink {}: Reprise does not write \
                         outside the run's folder",
                        reprise_recipe::shown::shown(rel),
                        base.display(),
                        at.display()
                    )));
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(base.join(path))
}
