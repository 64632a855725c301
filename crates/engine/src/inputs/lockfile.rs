//! `bundle install` for one runtime with a lockfile of its own: the
//! runtime's lockfile is seeded from the tree's main `Gemfile.lock` and
//! re-seeded whenever the main lock's digest changes; Bundler is pointed at
//! a copy of the Gemfile next to that lockfile (`BUNDLE_GEMFILE`, and
//! `BUNDLE_LOCKFILE` for Bundlers that honour it), so the main lock is never
//! touched — and afterwards its digest is checked to prove it.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::inputs::tree_digest::hex;
use crate::os::run_files::RunFile;

/// Why a runtime's bundle could not be prepared or went wrong.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("no Gemfile in {0}")]
    NoGemfile(String),
    #[error(
        "the runtime's lockfile `{0}` must end in .lock (Bundler's lockfile of the Gemfile beside it) and stay inside the run's trees/"
    )]
    BadLockfile(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("bundle install modified the main lock {0}: its digest changed")]
    MainLockModified(String),
    #[error(transparent)]
    Outside(#[from] crate::os::run_files::Outside),
}

/// Where one runtime's bundle lives.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeBundle {
    /// The tree's own Gemfile and lock.
    pub main_gemfile: PathBuf,
    pub main_lock: PathBuf,
    /// The Gemfile Bundler is pointed at, and its lockfile.
    pub gemfile: PathBuf,
    pub lockfile: PathBuf,
    /// Whether the runtime uses the main lock itself.
    pub is_main: bool,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> BundleError + '_ {
    move |source| BundleError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// SHA-256 of a file, `None` when it does not exist.
pub fn file_digest(path: &Path) -> Result<Option<String>, BundleError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(hex(&Sha256::digest(&bytes)))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path)(e)),
    }
}

/// Lays out the runtime's bundle in the run's `trees` folder: copies the
/// tree's Gemfile beside the runtime's lockfile and seeds the lockfile from
/// the main lock when it is missing or the main lock changed since it was
/// seeded. `lockfile` is relative to `tree` and may sit beside it in
/// `trees` (`../ruby-bundle/Gemfile.lock`), never further out. Every file
/// it writes is written as the run's own files are ([`RunFile`]): through
/// no symlink, so a tree that links `Gemfile.jruby` to a file elsewhere
/// makes the step fail instead of overwriting that file. Returns the layout
/// and whether it seeded.
pub fn prepare(
    trees: &Path,
    tree: &str,
    lockfile: &str,
) -> Result<(RuntimeBundle, bool), BundleError> {
    let outside = || BundleError::BadLockfile(format!("{tree}/{lockfile}"));
    let tree_dir = trees.join(normalize(Path::new(tree)).ok_or_else(outside)?);
    let main_gemfile = tree_dir.join("Gemfile");
    let main_lock = tree_dir.join("Gemfile.lock");
    if !main_gemfile.is_file() {
        return Err(BundleError::NoGemfile(tree_dir.display().to_string()));
    }
    let lock_rel = normalize(&Path::new(tree).join(lockfile)).ok_or_else(outside)?;
    let lock = trees.join(&lock_rel);
    if lock == main_lock {
        return Ok((
            RuntimeBundle {
                gemfile: main_gemfile.clone(),
                lockfile: main_lock.clone(),
                main_gemfile,
                main_lock,
                is_main: true,
            },
            false,
        ));
    }
    let gemfile_rel = lock_rel
        .to_str()
        .and_then(|l| l.strip_suffix(".lock"))
        .map(PathBuf::from)
        .ok_or_else(|| BundleError::BadLockfile(lockfile.to_string()))?;
    let marker_rel = lock_rel.with_file_name(format!(
        "{}.seeded-from",
        lock_rel
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("Gemfile.lock")
    ));
    let (gemfile_file, lock_file, marker_file) = (
        RunFile::new(trees, &gemfile_rel)?,
        RunFile::new(trees, &lock_rel)?,
        RunFile::new(trees, &marker_rel)?,
    );
    let text = std::fs::read(&main_gemfile).map_err(io(&main_gemfile))?;
    let gemfile = gemfile_file.path();
    gemfile_file.write_atomic(&text).map_err(io(&gemfile))?;
    let main_digest = file_digest(&main_lock)?;
    let seeded_from = std::fs::read_to_string(marker_file.path()).ok();
    let mut seeded = false;
    if let Some(digest) = &main_digest
        && (!lock.is_file() || seeded_from.as_deref().map(str::trim) != Some(digest.as_str()))
    {
        let main = std::fs::read(&main_lock).map_err(io(&main_lock))?;
        lock_file.write_atomic(&main).map_err(io(&lock))?;
        marker_file
            .write_atomic(format!("{digest}\n").as_bytes())
            .map_err(io(&marker_file.path()))?;
        seeded = true;
    }
    Ok((
        RuntimeBundle {
            main_gemfile,
            main_lock,
            gemfile,
            lockfile: lock,
            is_main: false,
        },
        seeded,
    ))
}

/// `a/b/../c` → `a/c`, without touching the file system; `None` where a
/// `..` climbs past the path's start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}
