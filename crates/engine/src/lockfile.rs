//! `bundle install` for one runtime with a lockfile of its own: the
//! runtime's lockfile is seeded from the tree's main `Gemfile.lock` and
//! re-seeded whenever the main lock's digest changes; Bundler is pointed at
//! a copy of the Gemfile next to that lockfile (`BUNDLE_GEMFILE`, and
//! `BUNDLE_LOCKFILE` for Bundlers that honour it), so the main lock is never
//! touched — and afterwards its digest is checked to prove it.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::tree_digest::hex;

/// Why a runtime's bundle could not be prepared or went wrong.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("no Gemfile in {0}")]
    NoGemfile(String),
    #[error(
        "the runtime's lockfile `{0}` must end in .lock (Bundler's lockfile of the Gemfile beside it)"
    )]
    BadLockfile(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("bundle install modified the main lock {0}: its digest changed")]
    MainLockModified(String),
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

/// Lays out the runtime's bundle: copies the Gemfile beside its lockfile and
/// seeds the lockfile from the main lock when it is missing or the main lock
/// changed since it was seeded. Returns the layout and whether it seeded.
pub fn prepare(tree: &Path, lockfile: &str) -> Result<(RuntimeBundle, bool), BundleError> {
    let main_gemfile = tree.join("Gemfile");
    let main_lock = tree.join("Gemfile.lock");
    if !main_gemfile.is_file() {
        return Err(BundleError::NoGemfile(tree.display().to_string()));
    }
    let lock = tree.join(lockfile);
    if normalize(&lock) == normalize(&main_lock) {
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
    let gemfile = lockfile
        .strip_suffix(".lock")
        .map(|g| tree.join(g))
        .ok_or_else(|| BundleError::BadLockfile(lockfile.to_string()))?;
    if let Some(parent) = lock.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let text = std::fs::read(&main_gemfile).map_err(io(&main_gemfile))?;
    std::fs::write(&gemfile, text).map_err(io(&gemfile))?;
    let marker = lock.with_file_name(format!(
        "{}.seeded-from",
        lock.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("Gemfile.lock")
    ));
    let main_digest = file_digest(&main_lock)?;
    let seeded_from = std::fs::read_to_string(&marker).ok();
    let mut seeded = false;
    if let Some(digest) = &main_digest
        && (!lock.is_file() || seeded_from.as_deref().map(str::trim) != Some(digest.as_str()))
    {
        std::fs::copy(&main_lock, &lock).map_err(io(&lock))?;
        std::fs::write(&marker, format!("{digest}\n")).map_err(io(&marker))?;
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

/// `a/b/../c` → `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
