//! Sources with git2: a bare mirror per URL in the data dir's cache, fetched
//! only when the wanted revision is missing from it, and a checkout of that
//! exact commit into the run's `sources/<into>`. Short SHAs and tags resolve;
//! the checked-out commit is verified; fetch progress is reported as events.

use std::path::{Path, PathBuf};

use git2::build::{CheckoutBuilder, CloneLocal, RepoBuilder};
use git2::{ErrorCode, FetchOptions, Oid, RemoteCallbacks, Repository};
use reprise_recipe::{Revision, Source};
use sha2::{Digest, Sha256};

use crate::event::{CancelToken, Event, EventSink, Stream};
use crate::inputs::tree_digest::hex;

/// Why a source could not be checked out.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("revision `{rev}` does not exist in {url}")]
    NoSuchRevision { url: String, rev: String },
    #[error("revision `{rev}` is ambiguous in {url}: give more of the SHA")]
    Ambiguous { url: String, rev: String },
    #[error("cannot fetch {url}: {message}")]
    Fetch { url: String, message: String },
    #[error("checked out {got} in {}, but wanted {want}", dir.display())]
    WrongCommit {
        dir: PathBuf,
        want: String,
        got: String,
    },
    #[error("cancelled while fetching {url}")]
    Cancelled { url: String },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Git { path: PathBuf, source: git2::Error },
}

/// The cached bare mirror of `url` under `cache`.
pub fn mirror_path(cache: &Path, url: &str) -> PathBuf {
    let tail: String = url
        .trim_end_matches('/')
        .trim_end_matches(".git")
        .rsplit(['/', ':'])
        .next()
        .unwrap_or("repo")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    let hash = hex(&Sha256::digest(url.as_bytes()));
    cache.join(format!("{tail}-{}.git", &hash[..12]))
}

/// Checks out `source` at its revision into `dest` (replacing what is
/// there), through the mirror in `cache`. Returns the commit's full SHA.
pub fn checkout(
    cache: &Path,
    source: &Source,
    dest: &Path,
    step: &str,
    cancel: &CancelToken,
    events: &dyn EventSink,
) -> Result<String, SourceError> {
    let mirror_dir = mirror_path(cache, &source.url);
    let git = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SourceError::Git { path, source }
    };
    let log = |line: String| {
        events.emit(Event::Log {
            step: step.to_string(),
            stream: Stream::Note,
            line,
        })
    };
    if !mirror_dir.exists() && is_local(&source.url) {
        // A repository on this machine: copy (hardlink) its objects into the
        // cache instead of packing them through the transport, as
        // `git clone /path` does.
        RepoBuilder::new()
            .bare(true)
            .clone_local(CloneLocal::Local)
            .clone(&source.url, &mirror_dir)
            .map_err(|e| SourceError::Fetch {
                url: source.url.clone(),
                message: e.message().to_string(),
            })?;
        log(format!(
            "copied the local repository {} into the cache",
            source.url
        ));
    }
    let mirror = open_mirror(&mirror_dir, &source.url).map_err(git(&mirror_dir))?;

    let oid = match source.revision() {
        Revision::Pinned(rev) => match resolve(&mirror, &source.url, rev)? {
            Some(oid) => {
                log(format!("{rev} is in the cache; no fetch needed"));
                oid
            }
            None => {
                fetch(&mirror, &source.url, step, cancel, events)?;
                resolve(&mirror, &source.url, rev)?.ok_or_else(|| SourceError::NoSuchRevision {
                    url: source.url.clone(),
                    rev: rev.to_string(),
                })?
            }
        },
        Revision::Unpinned { branch, .. } => {
            let fetched = fetch(&mirror, &source.url, step, cancel, events);
            if let Err(SourceError::Cancelled { .. }) = fetched {
                return fetched.map(|_| String::new());
            }
            let candidates: Vec<String> = if branch == "HEAD" {
                vec!["refs/heads/main".into(), "refs/heads/master".into()]
            } else {
                vec![format!("refs/heads/{branch}")]
            };
            let found = candidates.iter().find_map(|r| mirror.refname_to_id(r).ok());
            match (found, fetched) {
                (Some(oid), Ok(())) => oid,
                (Some(oid), Err(e)) => {
                    log(format!("offline: {e}; using the cached {branch} at {oid}"));
                    oid
                }
                (None, Err(e)) => return Err(e),
                (None, Ok(())) => {
                    return Err(SourceError::NoSuchRevision {
                        url: source.url.clone(),
                        rev: branch.to_string(),
                    });
                }
            }
        }
    };

    // A checkout that has the commit is put back to it in place: its tracked
    // files restored, its untracked and ignored ones (a build's target/)
    // kept. Anything else is cloned afresh.
    if let Ok(repo) = Repository::open(dest)
        && repo.find_commit(oid).is_ok()
    {
        repo.set_head_detached(oid).map_err(git(dest))?;
        let mut force = CheckoutBuilder::new();
        force.force();
        repo.checkout_head(Some(&mut force)).map_err(git(dest))?;
        repo.remote_set_url("origin", &source.url)
            .map_err(git(dest))?;
        log(format!(
            "restored {} to {oid} in place (untracked files, such as a build's, kept)",
            dest.display()
        ));
        return Ok(oid.to_string());
    }
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(|e| SourceError::Io {
            path: dest.to_path_buf(),
            source: e,
        })?;
    }
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(|e| SourceError::Io {
            path: parent.to_path_buf(),
            source: e,
        })?;
    }
    // The mirror's HEAD points at the wanted commit, so the clone checks out
    // exactly that, detached, in one pass.
    mirror.set_head_detached(oid).map_err(git(&mirror_dir))?;
    let mut progress = Throttle::default();
    let mut checkout = CheckoutBuilder::new();
    checkout.progress(|_, done, total| {
        if progress.due(done, total) {
            events.emit(Event::Progress {
                step: step.to_string(),
                done: done as u64,
                total: total as u64,
                unit: "files".into(),
            });
        }
    });
    let repo = RepoBuilder::new()
        .with_checkout(checkout)
        .clone(&mirror_dir.to_string_lossy(), dest)
        .map_err(git(dest))?;
    repo.remote_set_url("origin", &source.url)
        .map_err(git(dest))?;
    let head = repo
        .head()
        .and_then(|h| h.peel_to_commit())
        .map_err(git(dest))?
        .id();
    if head != oid {
        return Err(SourceError::WrongCommit {
            dir: dest.to_path_buf(),
            want: oid.to_string(),
            got: head.to_string(),
        });
    }
    log(format!("checked out {oid} into {}", dest.display()));
    Ok(oid.to_string())
}

/// A `file://` URL or a path: a repository on this machine.
fn is_local(url: &str) -> bool {
    url.starts_with("file://") || url.starts_with('/')
}

fn open_mirror(dir: &Path, url: &str) -> Result<Repository, git2::Error> {
    let repo = match Repository::open_bare(dir) {
        Ok(r) => r,
        Err(_) => Repository::init_bare(dir)?,
    };
    match repo.find_remote("origin") {
        Ok(remote) if remote.url().ok() == Some(url) => {}
        Ok(_) => repo.remote_set_url("origin", url)?,
        Err(_) => {
            repo.remote_with_fetch("origin", url, "+refs/heads/*:refs/heads/*")?;
        }
    }
    Ok(repo)
}

/// The commit `rev` names in `repo`: a full or short SHA, a tag or a branch;
/// `None` when the cache does not have it (yet).
fn resolve(repo: &Repository, url: &str, rev: &str) -> Result<Option<Oid>, SourceError> {
    match repo.revparse_single(&format!("{rev}^{{commit}}")) {
        Ok(obj) => Ok(Some(obj.id())),
        Err(e) if e.code() == ErrorCode::Ambiguous => Err(SourceError::Ambiguous {
            url: url.to_string(),
            rev: rev.to_string(),
        }),
        Err(_) => Ok(None),
    }
}

fn fetch(
    repo: &Repository,
    url: &str,
    step: &str,
    cancel: &CancelToken,
    events: &dyn EventSink,
) -> Result<(), SourceError> {
    let mut remote = repo.find_remote("origin").map_err(|e| SourceError::Fetch {
        url: url.to_string(),
        message: e.message().to_string(),
    })?;
    let mut progress = Throttle::default();
    let mut callbacks = RemoteCallbacks::new();
    callbacks.transfer_progress(|p| {
        if progress.due(p.received_objects(), p.total_objects()) {
            events.emit(Event::Progress {
                step: step.to_string(),
                done: p.received_objects() as u64,
                total: p.total_objects() as u64,
                unit: "objects".into(),
            });
        }
        !cancel.is_cancelled()
    });
    let mut options = FetchOptions::new();
    options.remote_callbacks(callbacks);
    remote
        .fetch(
            &["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"],
            Some(&mut options),
            None,
        )
        .map_err(|e| {
            if cancel.is_cancelled() {
                SourceError::Cancelled {
                    url: url.to_string(),
                }
            } else {
                SourceError::Fetch {
                    url: url.to_string(),
                    message: e.message().to_string(),
                }
            }
        })
}

/// Lets through a progress report about every 2% and the last one.
#[derive(Default)]
struct Throttle {
    last: Option<usize>,
}

impl Throttle {
    fn due(&mut self, done: usize, total: usize) -> bool {
        let step = (total / 50).max(1);
        let due = done == total || self.last.is_none_or(|l| done >= l + step);
        if due && self.last != Some(done) {
            self.last = Some(done);
            return true;
        }
        false
    }
}

/// What a checkout is now: its HEAD commit, and the tracked files that
/// differ from it (modified, deleted, staged). Untracked and ignored files —
/// what a build writes into `target/` — do not count: a checkout's identity
/// is its commit and its tracked files.
pub fn checkout_state(dir: &Path) -> Result<(String, Vec<String>), git2::Error> {
    let repo = Repository::open(dir)?;
    let head = repo.head()?.peel_to_commit()?.id().to_string();
    let mut options = git2::StatusOptions::new();
    options
        .include_untracked(false)
        .include_ignored(false)
        .exclude_submodules(true);
    let changed = repo
        .statuses(Some(&mut options))?
        .iter()
        .filter(|e| e.status() != git2::Status::CURRENT)
        .filter_map(|e| e.path().ok().map(str::to_string))
        .collect();
    Ok((head, changed))
}
