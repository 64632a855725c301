//! Tree digests: a manifest of every regular file of a tree in `sha256sum`
//! format (`<hex>  <relative path>`, paths sorted bytewise, so
//! `sha256sum -c` checks it from the tree's root), and one digest over the
//! manifest's text. Files are hashed in parallel.
//!
//! Symbolic links and empty directories are not in the manifest, as with
//! `find -type f`.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use sha2::{Digest, Sha256};

/// Why a tree could not be digested or a manifest read.
#[derive(Debug, thiserror::Error)]
pub enum DigestError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: the path is not UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    #[error("{}:{line}: not a sha256sum line (`<64 hex>  <path>`)", file.display())]
    BadLine { file: PathBuf, line: usize },
}

/// Every file of a tree with its SHA-256, sorted by path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Relative path (with `/`) to lowercase hex digest.
    pub files: BTreeMap<String, String>,
}

impl Manifest {
    /// The manifest in `sha256sum` format. Paths with a backslash or a
    /// newline are escaped the way coreutils escapes them.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.files.len() * 100);
        for (path, hex) in &self.files {
            if path.contains(['\\', '\n']) {
                let escaped = path.replace('\\', "\\\\").replace('\n', "\\n");
                out.push_str(&format!("\\{hex}  {escaped}\n"));
            } else {
                out.push_str(&format!("{hex}  {path}\n"));
            }
        }
        out
    }

    /// One digest for the whole tree: the SHA-256 of [`Manifest::text`].
    pub fn digest(&self) -> String {
        hex(&Sha256::digest(self.text().as_bytes()))
    }

    /// Reads a manifest in `sha256sum` format; `file` names it in errors.
    pub fn parse(file: &Path, text: &str) -> Result<Manifest, DigestError> {
        let mut files = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            if raw.is_empty() {
                continue;
            }
            let bad = || DigestError::BadLine {
                file: file.to_path_buf(),
                line: i + 1,
            };
            let (escaped, line) = match raw.strip_prefix('\\') {
                Some(rest) => (true, rest),
                None => (false, raw),
            };
            let (hex, path) = line.split_once("  ").ok_or_else(bad)?;
            let path = path.strip_prefix('*').unwrap_or(path);
            if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) || path.is_empty() {
                return Err(bad());
            }
            let path = if escaped {
                path.replace("\\n", "\n").replace("\\\\", "\\")
            } else {
                path.to_string()
            };
            let path = path.strip_prefix("./").map(str::to_string).unwrap_or(path);
            files.insert(path, hex.to_ascii_lowercase());
        }
        Ok(Manifest { files })
    }

    /// Reads a manifest file.
    pub fn read(file: &Path) -> Result<Manifest, DigestError> {
        let text = std::fs::read_to_string(file).map_err(|source| DigestError::Io {
            path: file.to_path_buf(),
            source,
        })?;
        Manifest::parse(file, &text)
    }

    /// How this tree differs from `expected`; empty when they match.
    pub fn compare(&self, expected: &Manifest) -> Mismatch {
        let mut m = Mismatch::default();
        for (path, want) in &expected.files {
            match self.files.get(path) {
                None => m.missing.push(path.clone()),
                Some(got) if got != want => m.differ.push(path.clone()),
                Some(_) => {}
            }
        }
        for path in self.files.keys() {
            if !expected.files.contains_key(path) {
                m.extra.push(path.clone());
            }
        }
        m
    }
}

/// The files by which a tree differs from its manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mismatch {
    /// In both, with different contents.
    pub differ: Vec<String>,
    /// In the manifest, not in the tree.
    pub missing: Vec<String>,
    /// In the tree, not in the manifest.
    pub extra: Vec<String>,
}

impl Mismatch {
    pub fn is_empty(&self) -> bool {
        self.differ.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 10;
        let mut parts = Vec::new();
        for (what, list) in [
            ("differ", &self.differ),
            ("missing", &self.missing),
            ("extra", &self.extra),
        ] {
            if list.is_empty() {
                continue;
            }
            let mut names = list
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if list.len() > SHOWN {
                names.push_str(&format!(" and {} more", list.len() - SHOWN));
            }
            parts.push(format!("{} {what}: {names}", list.len()));
        }
        write!(f, "{}", parts.join("; "))
    }
}

/// Digests every regular file under `root`, in parallel; `progress` is
/// called with (files done, files in all) as files finish.
pub fn digest_tree(
    root: &Path,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Manifest, DigestError> {
    digest_tree_except(root, &[], progress)
}

/// Like [`digest_tree`], leaving out top-level entries named in `skip`
/// (e.g. `.git` of a checkout).
pub fn digest_tree_except(
    root: &Path,
    skip: &[&str],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Manifest, DigestError> {
    let mut paths = Vec::new();
    walk(root, "", skip, &mut paths)?;
    let total = paths.len() as u64;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(String, String)>> = Mutex::new(Vec::with_capacity(paths.len()));
    let first_error: Mutex<Option<DigestError>> = Mutex::new(None);
    let workers = thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(paths.len().max(1));
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut buf = vec![0u8; 256 * 1024];
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(rel) = paths.get(i) else { break };
                    let path = root.join(rel);
                    match hash_file(&path, &mut buf) {
                        Ok(hex) => mine.push((rel.clone(), hex)),
                        Err(source) => {
                            first_error
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(DigestError::Io { path, source });
                            next.store(paths.len(), Ordering::Relaxed);
                            break;
                        }
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(64) || n as u64 == total {
                        progress(n as u64, total);
                    }
                }
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend(mine);
            });
        }
    });
    if let Some(err) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(err);
    }
    let files = results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .collect();
    Ok(Manifest { files })
}

fn walk(root: &Path, rel: &str, skip: &[&str], out: &mut Vec<String>) -> Result<(), DigestError> {
    let dir = root.join(rel);
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DigestError::Io { path, source }
    };
    for entry in std::fs::read_dir(&dir).map_err(io_err(&dir))? {
        let entry = entry.map_err(io_err(&dir))?;
        let name = entry.file_name();
        let name = name
            .to_str()
            .ok_or_else(|| DigestError::NotUtf8 { path: entry.path() })?;
        if rel.is_empty() && skip.contains(&name) {
            continue;
        }
        let child = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry.file_type().map_err(io_err(&entry.path()))?;
        if kind.is_dir() {
            walk(root, &child, skip, out)?;
        } else if kind.is_file() {
            out.push(child);
        }
    }
    Ok(())
}

fn hash_file(path: &Path, buf: &mut [u8]) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    loop {
        let n = file.read(buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
