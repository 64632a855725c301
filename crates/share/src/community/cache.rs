//! The Discussions read so far, kept in the data dir per repository
//! (`community/OWNER/NAME.json`): each discussion's number, title, author,
//! time of update and the result block its body held — never the rest of
//! the body — with the watermark and ETag the next fetch starts from.
//!
//! Bounded: a cache file past [`MAX_CACHE_FILE`] is not read, and past
//! [`MAX_DISCUSSIONS`] or [`MAX_BLOCKS`] bytes of blocks the oldest-updated
//! discussions are dropped. It is only a cache: one that cannot be read is
//! started again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::posts::Found;
use crate::ShareError;

/// The longest title kept.
pub(crate) const MAX_TITLE: usize = 200;
/// The most discussions kept per repository.
pub const MAX_DISCUSSIONS: usize = 5_000;
/// The most bytes of result blocks kept per repository.
pub const MAX_BLOCKS: usize = 32 * 1024 * 1024;
/// A cache file larger than this is not read.
const MAX_CACHE_FILE: u64 = 64 * 1024 * 1024;
/// The last second a fetch can have been made at (9999-12-31T23:59:59Z):
/// a cache that says later was not written by a fetch.
pub const LATEST_FETCH: u64 = 253_402_300_799;

/// A discussion as the cache keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Discussion {
    /// GitHub's node id.
    pub id: String,
    pub number: u64,
    /// As GitHub gave it, cut to [`MAX_TITLE`] characters: text from a
    /// stranger, to be shown escaped.
    pub title: String,
    /// The author's login, where it is one.
    pub author: Option<String>,
    /// RFC 3339, as GitHub wrote it.
    pub updated_at: String,
    pub found: Found,
}

impl Discussion {
    fn block_bytes(&self) -> usize {
        match &self.found {
            Found::Block { text, .. } => text.len(),
            _ => 0,
        }
    }
}

/// One repository's discussions, newest-updated first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cache {
    /// OWNER/NAME.
    pub repo: String,
    /// When it was last brought up to date (Unix seconds).
    pub fetched_at: Option<u64>,
    /// The newest update read in a fetch that finished: every discussion
    /// updated before it is in the cache as it is on GitHub.
    pub synced_to: Option<String>,
    /// The first page's ETag, sent back as `If-None-Match`.
    pub etag: Option<String>,
    /// How many discussions the repository had at the last fetch.
    pub total: Option<u64>,
    pub discussions: Vec<Discussion>,
    /// Discussions dropped to keep within the bounds.
    #[serde(default)]
    pub dropped: usize,
    /// The login the last fetch was signed in as (GitHub's `viewer`): whose
    /// posts are this person's.
    #[serde(default)]
    pub viewer: Option<String>,
    /// Why the cache file there was not read, where there was one that
    /// could not be (it is started again): for a person to be told.
    #[serde(skip)]
    pub unread: Option<String>,
}

impl Cache {
    /// The cache file of `repo` under `data_dir`.
    pub fn file(data_dir: &Path, repo: &str) -> Result<PathBuf, ShareError> {
        let (owner, name) = crate::discussions::split_repo(repo)?;
        let safe = |part: &str| {
            !part.starts_with('.')
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        if !safe(owner) || !safe(name) {
            return Err(ShareError::NoRepository(format!(
                "{} (expected OWNER/NAME)",
                reprise_recipe::shown::escaped(repo)
            )));
        }
        Ok(data_dir
            .join("community")
            .join(owner)
            .join(format!("{name}.json")))
    }

    /// The cache of `repo`, or an empty one where there is none (or it
    /// cannot be read: a cache is started again, never trusted half-read,
    /// and [`Cache::unread`] says why).
    pub fn load(data_dir: &Path, repo: &str) -> Result<Cache, ShareError> {
        let file = Cache::file(data_dir, repo)?;
        let empty = |why: Option<String>| Cache {
            repo: repo.to_string(),
            unread: why.map(|why| format!("{} {why}", file.display())),
            ..Cache::default()
        };
        let Ok(meta) = std::fs::symlink_metadata(&file) else {
            return Ok(empty(None));
        };
        if !meta.is_file() {
            return Ok(empty(Some("is not a file".into())));
        }
        if meta.len() > MAX_CACHE_FILE {
            return Ok(empty(Some(format!(
                "is larger than a cache can be ({} MiB)",
                MAX_CACHE_FILE >> 20
            ))));
        }
        let cache = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice::<Cache>(&bytes),
            Err(e) => return Ok(empty(Some(format!("cannot be read ({e})")))),
        };
        let cache = match cache {
            Ok(cache) => cache,
            // serde's message names the line and column, not the text.
            Err(e) => return Ok(empty(Some(format!("is not a cache ({e})")))),
        };
        if cache.repo != repo {
            return Ok(empty(Some("is another repository's".into())));
        }
        if cache.fetched_at.is_some_and(|at| at > LATEST_FETCH) {
            return Ok(empty(Some(format!(
                "says it was fetched at second {} (after the year 9999)",
                cache.fetched_at.unwrap_or_default()
            ))));
        }
        Ok(Cache {
            unread: None,
            ..cache
        })
    }

    /// Writes the cache: to a file beside it, then renamed over it, so a
    /// reader never sees half of one.
    pub fn save(&self, data_dir: &Path) -> Result<PathBuf, ShareError> {
        let file = Cache::file(data_dir, &self.repo)?;
        let io = |source| ShareError::Io {
            file: file.clone(),
            source,
        };
        let folder = file.parent().unwrap_or(data_dir);
        std::fs::create_dir_all(folder).map_err(io)?;
        let partial = folder.join(format!(".{}.partial", std::process::id()));
        let json = serde_json::to_vec(self).map_err(|e| io(std::io::Error::other(e)))?;
        std::fs::write(&partial, json)
            .and_then(|()| std::fs::rename(&partial, &file))
            .map_err(io)?;
        Ok(file)
    }

    /// Adds discussions read (replacing the cache's copy of each), newest
    /// first, within the bounds.
    pub fn merge(&mut self, read: Vec<Discussion>) {
        let ids: std::collections::HashSet<String> = read.iter().map(|d| d.id.clone()).collect();
        self.discussions.retain(|d| !ids.contains(&d.id));
        self.discussions.extend(read);
        let dropped = keep_within(&mut self.discussions);
        self.dropped = self.dropped.saturating_add(dropped);
    }
}

/// Discussions read in one fetch, kept within (an eighth past) the cache's
/// bounds as they come: what a fetch holds stays near [`MAX_BLOCKS`] however many pages it
/// reads, and the discussions it leaves out are the ones [`Cache::merge`]
/// would leave out (past the bounds among these alone, they are past them
/// among these and the cache's).
#[derive(Debug, Default)]
pub(crate) struct Fresh {
    discussions: Vec<Discussion>,
    bytes: usize,
    dropped: usize,
}

impl Fresh {
    pub(crate) fn push(&mut self, discussion: Discussion) {
        self.bytes += discussion.block_bytes();
        self.discussions.push(discussion);
        // A little past the bounds before they are kept again, so that a
        // fetch past them does not sort at every discussion.
        if self.bytes > MAX_BLOCKS + MAX_BLOCKS / 8
            || self.discussions.len() > MAX_DISCUSSIONS + MAX_DISCUSSIONS / 8
        {
            self.dropped += keep_within(&mut self.discussions);
            self.bytes = self.discussions.iter().map(Discussion::block_bytes).sum();
        }
    }

    /// Discussions read, those left out included.
    pub(crate) fn read(&self) -> usize {
        self.discussions.len() + self.dropped
    }

    /// Into `cache`, with the discussions it left out counted as dropped.
    pub(crate) fn merge_into(self, cache: &mut Cache) {
        cache.merge(self.discussions);
        cache.dropped = cache.dropped.saturating_add(self.dropped);
    }
}

/// Keeps the newest-updated discussions within [`MAX_DISCUSSIONS`] and
/// [`MAX_BLOCKS`] bytes of blocks, newest first; answers how many it left
/// out.
fn keep_within(discussions: &mut Vec<Discussion>) -> usize {
    discussions.sort_by(|a, b| {
        b.updated_at
            .cmp(&a.updated_at)
            .then(b.number.cmp(&a.number))
    });
    let mut bytes = 0;
    let keep = discussions
        .iter()
        .take(MAX_DISCUSSIONS)
        .take_while(|d| {
            bytes += d.block_bytes();
            bytes <= MAX_BLOCKS
        })
        .count();
    let dropped = discussions.len() - keep;
    discussions.truncate(keep);
    dropped
}
