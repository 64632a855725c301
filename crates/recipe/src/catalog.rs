//! The recipes of a Reprise checkout: `recipes/*.toml` and their digests in
//! `checksums/recipes.sha256`.

use std::io;
use std::path::{Path, PathBuf};

use crate::checksum::{ChecksumStatus, Checksums, relative, sha256_hex};
use crate::diagnostic::did_you_mean;

/// A folder holding `recipes/` and `checksums/`.
#[derive(Clone, Debug)]
pub struct Catalog {
    pub root: PathBuf,
}

/// Why a recipe could not be found.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("no recipe `{id}` in {dir}{}", .suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default())]
    NotFound {
        id: String,
        dir: PathBuf,
        suggestion: Option<String>,
    },
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl Catalog {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Catalog { root: root.into() }
    }

    /// The nearest folder at or above `start` that has a `recipes/` folder.
    pub fn discover(start: &Path) -> Option<Catalog> {
        start
            .ancestors()
            .find(|d| d.join("recipes").is_dir())
            .map(Catalog::new)
    }

    pub fn recipes_dir(&self) -> PathBuf {
        self.root.join("recipes")
    }

    pub fn checksums_file(&self) -> PathBuf {
        self.root.join("checksums").join("recipes.sha256")
    }

    /// Every `recipes/*.toml`, sorted by name.
    pub fn files(&self) -> io::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.recipes_dir())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        Ok(files)
    }

    /// A recipe by id (`campfire-runtimes`) or by path.
    pub fn resolve(&self, id_or_path: &str) -> Result<PathBuf, CatalogError> {
        let as_path = Path::new(id_or_path);
        if id_or_path.ends_with(".toml") || as_path.components().count() > 1 {
            return Ok(as_path.to_path_buf());
        }
        let file = self.recipes_dir().join(format!("{id_or_path}.toml"));
        if file.is_file() {
            return Ok(file);
        }
        let ids: Vec<String> = self
            .files()?
            .iter()
            .filter_map(|f| f.file_stem().and_then(|s| s.to_str()).map(str::to_string))
            .collect();
        let suggestion =
            did_you_mean(id_or_path, ids.iter().map(String::as_str)).map(str::to_string);
        Err(CatalogError::NotFound {
            id: id_or_path.to_string(),
            dir: self.recipes_dir(),
            suggestion,
        })
    }

    pub fn checksums(&self) -> io::Result<Checksums> {
        Checksums::read(&self.checksums_file())
    }

    /// The manifest's path for a recipe file: relative to the root, `/`-separated.
    pub fn manifest_path(&self, file: &Path) -> String {
        let rel = relative(
            &self
                .root
                .canonicalize()
                .unwrap_or_else(|_| self.root.clone()),
            &file.canonicalize().unwrap_or_else(|_| file.to_path_buf()),
        );
        rel.to_string_lossy().replace('\\', "/")
    }

    /// Whether a recipe file is the one the manifest lists.
    pub fn status(&self, checksums: &Checksums, file: &Path) -> io::Result<ChecksumStatus> {
        let bytes = std::fs::read(file)?;
        Ok(checksums.status(&self.manifest_path(file), &bytes))
    }

    /// Whether a recipe file is the reviewed one, reading the manifest; a
    /// manifest or recipe that cannot be read is `Unreadable`, never a pass.
    pub fn checksum_status(&self, file: &Path) -> ChecksumStatus {
        match std::fs::read(file) {
            Ok(bytes) => self.checksum_status_of(file, &bytes),
            Err(e) => ChecksumStatus::Unreadable {
                reason: format!("{}: {e}", file.display()),
            },
        }
    }

    /// Whether `bytes`, read from `file`, are the reviewed recipe. A missing
    /// or malformed manifest is `Unreadable`, never a pass.
    pub fn checksum_status_of(&self, file: &Path, bytes: &[u8]) -> ChecksumStatus {
        let manifest = self.checksums_file();
        if !manifest.is_file() {
            return ChecksumStatus::Unreadable {
                reason: format!("{} is missing", manifest.display()),
            };
        }
        match self.checksums() {
            Ok(sums) => sums.status(&self.manifest_path(file), bytes),
            Err(e) => ChecksumStatus::Unreadable {
                reason: e.to_string(),
            },
        }
    }

    /// Rewrites the manifest from the recipes as they are now; returns the
    /// paths whose entry changed.
    pub fn update_checksums(&self) -> io::Result<Vec<String>> {
        let mut sums = self.checksums()?;
        let before = sums.clone();
        let mut listed = Vec::new();
        for file in self.files()? {
            let path = self.manifest_path(&file);
            sums.set(path.clone(), sha256_hex(&std::fs::read(&file)?));
            listed.push(path);
        }
        sums.retain(&listed);
        let changed = listed
            .iter()
            .filter(|p| {
                before.status(p, &[]) == ChecksumStatus::Unlisted || self.differs(&before, p)
            })
            .cloned()
            .chain(
                before
                    .paths()
                    .filter(|p| !listed.iter().any(|l| l == p))
                    .map(str::to_string),
            )
            .collect();
        if let Some(dir) = self.checksums_file().parent() {
            std::fs::create_dir_all(dir)?;
        }
        sums.write(&self.checksums_file())?;
        Ok(changed)
    }

    fn differs(&self, before: &Checksums, path: &str) -> bool {
        std::fs::read(self.root.join(path))
            .map(|b| before.status(path, &b) != ChecksumStatus::Matches)
            .unwrap_or(true)
    }
}
