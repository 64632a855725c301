//! The recipes a session offers: one by id (with whether it is the reviewed
//! one), the whole library (the files that do not load kept apart, so one
//! broken recipe hides no other), and which of a recipe's lanes run here.

use std::path::{Path, PathBuf};

use reprise_engine::LaneHost;
use reprise_probe::preflight::{LaneAvailability, recipe_queries};
use reprise_probe::toolchain::{self, SearchPath};
use reprise_recipe::{ChecksumStatus, Recipe};
use serde::Serialize;
use ts_rs::TS;

use crate::{Session, SessionError};

/// A recipe and whether it is the reviewed one.
pub struct LoadedRecipe {
    pub recipe: Recipe,
    pub checksum: ChecksumStatus,
    /// SHA-256 of the bytes the recipe was parsed from: what a run of it
    /// records, and a shared result says it reproduced.
    pub sha256: String,
}

/// The library: every recipe that loads, and every file that does not.
pub struct Library {
    pub recipes: Vec<LoadedRecipe>,
    pub problems: Vec<Problem>,
}

/// A recipe file that does not load.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(rename = "RecipeProblem")]
pub struct Problem {
    /// Its file name without `.toml`.
    pub id: String,
    #[ts(type = "string")]
    pub file: PathBuf,
    /// The located error (file:line:col, what was expected).
    pub message: String,
}

/// How a lane stands on this machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct LaneStanding {
    pub lane: String,
    pub here: LaneAvailability,
}

impl Session {
    /// A recipe by id (`campfire-runtimes`) or path, with its checksum status.
    pub fn load_recipe(&self, id_or_path: &str) -> Result<LoadedRecipe, SessionError> {
        self.load_substituted(id_or_path, &[])
            .map(|(loaded, _)| loaded)
    }

    /// [`Session::load_recipe`] with substitutions files applied, one after
    /// another (`reprise run --substitutions FILE`), and what each entry
    /// changed. The published file is the one a run digests and the one
    /// its checksum is of.
    pub fn load_substituted(
        &self,
        id_or_path: &str,
        files: &[PathBuf],
    ) -> Result<(LoadedRecipe, Vec<reprise_recipe::Substitution>), SessionError> {
        let file = self.catalog.resolve(id_or_path)?;
        let read = |path: &Path| {
            std::fs::read(path).map_err(|source| reprise_recipe::RecipeError::Io {
                file: path.to_path_buf(),
                source,
            })
        };
        // One read: the bytes digested are the bytes that run.
        let bytes = read(&file)?;
        let mut recipe = reprise_recipe::parse_bytes(&file, &bytes)?;
        let mut done = Vec::new();
        if !files.is_empty() {
            let texts = files
                .iter()
                .map(|f| {
                    String::from_utf8(read(f)?).map_err(|_| reprise_recipe::RecipeError::Io {
                        file: f.clone(),
                        source: std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            "not UTF-8 text",
                        ),
                    })
                })
                .collect::<Result<Vec<String>, _>>()?;
            let named: Vec<(&Path, &str)> = files
                .iter()
                .zip(&texts)
                .map(|(f, t)| (f.as_path(), t.as_str()))
                .collect();
            // Parsed above: UTF-8.
            let text = std::str::from_utf8(&bytes).unwrap_or_default();
            (recipe, done) = reprise_recipe::substitute(&file, text, &named)?;
        }
        let checksum = self.catalog.checksum_status_of(&file, &bytes);
        let loaded = LoadedRecipe {
            recipe,
            checksum,
            sha256: reprise_recipe::sha256_hex(&bytes),
        };
        Ok((loaded, done))
    }

    /// For a modified recipe in a git checkout: the diff from the reviewed
    /// version (the newest committed version whose digest is the one
    /// `checksums/recipes.sha256` lists) to the file as it is, so that a
    /// reader accepting it sees exactly what changed. `None` when the
    /// recipe is not modified or no reviewed version is in the history.
    pub fn reviewed_diff(&self, loaded: &LoadedRecipe) -> Option<String> {
        let ChecksumStatus::Modified { expected, .. } = &loaded.checksum else {
            return None;
        };
        let file = loaded.recipe.file.canonicalize().ok()?;
        let repo = git2::Repository::discover(&file).ok()?;
        let rel = file
            .strip_prefix(repo.workdir()?.canonicalize().ok()?)
            .ok()?
            .to_path_buf();
        let mut walk = repo.revwalk().ok()?;
        walk.push_head().ok()?;
        let reviewed = walk.take(2_000).filter_map(Result::ok).find_map(|oid| {
            let tree = repo.find_commit(oid).ok()?.tree().ok()?;
            let blob = repo.find_blob(tree.get_path(&rel).ok()?.id()).ok()?;
            (reprise_recipe::sha256_hex(blob.content()) == *expected)
                .then(|| blob.content().to_vec())
        })?;
        let now = std::fs::read(&file).ok()?;
        let mut patch =
            git2::Patch::from_buffers(&reviewed, Some(&rel), &now, Some(&rel), None).ok()?;
        let text = patch.to_buf().ok()?;
        Some(reprise_recipe::shown::escaped_text(&String::from_utf8_lossy(&text)).into_owned())
    }

    /// Every recipe in the checkout's `recipes/`, sorted by file name.
    pub fn library(&self) -> Result<Library, SessionError> {
        let files = self
            .catalog
            .files()
            .map_err(reprise_recipe::CatalogError::Io)?;
        let mut library = Library {
            recipes: Vec::new(),
            problems: Vec::new(),
        };
        for file in files {
            let loaded = std::fs::read(&file)
                .map_err(|source| reprise_recipe::RecipeError::Io {
                    file: file.clone(),
                    source,
                })
                .and_then(|bytes| {
                    let recipe = reprise_recipe::parse_bytes(&file, &bytes)?;
                    Ok(LoadedRecipe {
                        checksum: self.catalog.checksum_status_of(&file, &bytes),
                        sha256: reprise_recipe::sha256_hex(&bytes),
                        recipe,
                    })
                });
            match loaded {
                Ok(loaded) => library.recipes.push(loaded),
                Err(e) => library.problems.push(Problem {
                    id: file
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    file,
                    message: e.to_string(),
                }),
            }
        }
        Ok(library)
    }
}

/// What of a recipe's needs is installed here: each toolchain looked for
/// (never run), and whether each lane can run by the probe's rule.
pub struct InstalledHere {
    pub toolchains: toolchain::Toolchains,
    pub lanes: Vec<LaneStanding>,
}

impl crate::Session {
    /// Which of `recipe`'s toolchains and lanes are here, judged from what
    /// is installed without running anything the recipe names (its
    /// toolchains are only looked for: on the PATH its runs would have,
    /// its `reprise setup`'s where it has one, and in mise's installs):
    /// for listings. A preflight asks each toolchain its version; the rule
    /// is the same.
    pub fn found_here(&self, recipe: &Recipe) -> InstalledHere {
        // A setup mise cannot resolve lists as no setup: the preflight and
        // the run say why.
        let env = self.toolchain_env(recipe.id()).unwrap_or_default();
        found_with(recipe, &reprise_engine::inputs::mise::search_path(&env))
    }
}

impl Session {
    /// Whether each lane of `recipe` can run where `host` serves the lanes:
    /// its engine asked (a server host's engine that does not answer is an
    /// error now, before anything starts), the toolchains looked for (never
    /// run), then the host's own rule.
    pub fn lane_standings(
        &self,
        recipe: &Recipe,
        host: &LaneHost,
    ) -> Result<Vec<LaneStanding>, crate::SessionError> {
        let engine = host.ask_engine(recipe)?;
        let env = self.toolchain_env(recipe.id()).unwrap_or_default();
        let toolchains = toolchain::locate(
            &recipe_queries(recipe),
            &reprise_engine::inputs::mise::search_path(&env),
        );
        Ok(standings(host.lanes_here(
            recipe,
            &toolchains,
            engine.as_ref(),
        )))
    }
}

fn found_with(recipe: &Recipe, search: &SearchPath) -> InstalledHere {
    let toolchains = toolchain::locate(&recipe_queries(recipe), search);
    let here = LaneHost::ThisMachine;
    let engine = here.ask_engine(recipe).ok().flatten();
    let lanes = standings(here.lanes_here(recipe, &toolchains, engine.as_ref()));
    InstalledHere { toolchains, lanes }
}

fn standings(lanes: Vec<(String, LaneAvailability)>) -> Vec<LaneStanding> {
    lanes
        .into_iter()
        .map(|(lane, here)| LaneStanding { lane, here })
        .collect()
}

/// The names of the lanes that run, of `standings`.
pub fn running(standings: &[LaneStanding]) -> Vec<&str> {
    standings
        .iter()
        .filter(|s| s.here == LaneAvailability::Runs)
        .map(|s| s.lane.as_str())
        .collect()
}
