//! SHA-256 manifests in `sha256sum` format, so `sha256sum -c` checks them too.
//!
//! Recipes run commands on the reader's machine, so a recipe whose digest
//! differs from `checksums/recipes.sha256` is reported as modified before
//! anything runs.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// A manifest: relative path → expected digest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checksums {
    entries: BTreeMap<String, String>,
}

/// How a file compares with its manifest entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ChecksumStatus {
    /// The reviewed recipe, byte for byte.
    Matches,
    Modified {
        expected: String,
        actual: String,
    },
    /// Not in the manifest: never reviewed.
    Unlisted,
    /// The recipe or the manifest could not be read.
    Unreadable {
        reason: String,
    },
}

impl ChecksumStatus {
    /// Whether the file is the reviewed one.
    pub fn is_reviewed(&self) -> bool {
        *self == ChecksumStatus::Matches
    }

    /// Why a recipe is or is not the reviewed one, in a sentence's words.
    pub fn explain(&self) -> String {
        match self {
            ChecksumStatus::Matches => "it is the reviewed recipe, byte for byte".into(),
            ChecksumStatus::Modified { expected, actual } => format!(
                "it is modified (SHA-256 {}…, the reviewed one is {}…)",
                &actual[..actual.len().min(12)],
                &expected[..expected.len().min(12)]
            ),
            ChecksumStatus::Unlisted => {
                "it is not listed in checksums/recipes.sha256: never reviewed".into()
            }
            ChecksumStatus::Unreadable { reason } => {
                format!("its checksum could not be checked: {reason}")
            }
        }
    }

    /// How a person reads it: `reviewed`, `modified`, `not listed`, `unreadable`.
    pub fn word(&self) -> &'static str {
        match self {
            ChecksumStatus::Matches => "reviewed",
            ChecksumStatus::Modified { .. } => "modified",
            ChecksumStatus::Unlisted => "not listed",
            ChecksumStatus::Unreadable { .. } => "unreadable",
        }
    }
}

impl Checksums {
    /// Parses `sha256sum` output: `<hex>  <path>` (or `<hex> *<path>`) per line.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut entries = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (hex, path) = line
                .split_once("  ")
                .or_else(|| line.split_once(" *"))
                .ok_or_else(|| format!("line {}: expected `<sha256>  <path>`", n + 1))?;
            if hex.len() != 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(format!("line {}: `{hex}` is not a SHA-256", n + 1));
            }
            entries.insert(path.to_string(), hex.to_ascii_lowercase());
        }
        Ok(Checksums { entries })
    }

    pub fn read(file: &Path) -> io::Result<Self> {
        match std::fs::read_to_string(file) {
            Ok(text) => Self::parse(&text).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {e}", file.display()),
                )
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Checksums::default()),
            Err(e) => Err(e),
        }
    }

    /// Writes the manifest atomically (temp file, then rename).
    pub fn write(&self, file: &Path) -> io::Result<()> {
        let tmp = file.with_extension("sha256.tmp");
        std::fs::write(&tmp, self.to_string())?;
        std::fs::rename(&tmp, file)
    }

    pub fn status(&self, path: &str, bytes: &[u8]) -> ChecksumStatus {
        match self.entries.get(path) {
            None => ChecksumStatus::Unlisted,
            Some(expected) => {
                let actual = sha256_hex(bytes);
                if &actual == expected {
                    ChecksumStatus::Matches
                } else {
                    ChecksumStatus::Modified {
                        expected: expected.clone(),
                        actual,
                    }
                }
            }
        }
    }

    pub fn set(&mut self, path: impl Into<String>, digest: String) {
        self.entries.insert(path.into(), digest);
    }

    /// Keeps only the listed paths.
    pub fn retain(&mut self, keep: &[String]) {
        self.entries.retain(|k, _| keep.contains(k));
    }

    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }
}

impl std::fmt::Display for Checksums {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (path, hex) in &self.entries {
            writeln!(f, "{hex}  {path}")?;
        }
        Ok(())
    }
}

/// The path of `file` relative to `root`, with `/` separators, as manifests list it.
pub(crate) fn relative(root: &Path, file: &Path) -> PathBuf {
    file.strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| file.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn one_changed_byte_is_modified() {
        let mut sums = Checksums::default();
        sums.set("recipes/a.toml", sha256_hex(b"rate = 16"));
        assert_eq!(
            sums.status("recipes/a.toml", b"rate = 16"),
            ChecksumStatus::Matches
        );
        assert!(matches!(
            sums.status("recipes/a.toml", b"rate = 17"),
            ChecksumStatus::Modified { .. }
        ));
        assert_eq!(sums.status("recipes/b.toml", b""), ChecksumStatus::Unlisted);
        let round = Checksums::parse(&sums.to_string()).unwrap();
        assert_eq!(round, sums);
    }

    #[test]
    fn malformed_manifest_lines_are_refused() {
        assert!(Checksums::parse("nothex  recipes/a.toml\n").is_err());
        assert!(Checksums::parse("justonefield\n").is_err());
    }
}
