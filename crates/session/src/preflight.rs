//! A recipe's preflight on this machine, as the CLI and the app both run it.
//! Asking a toolchain its version runs the recipe's own command, so it is
//! the reader's choice, shown first, and only for the reviewed recipe
//! (unless the reader allows a modified one); without it the programs are
//! only looked for, and nothing of the recipe's runs.

use std::path::Path;
use std::time::Duration;

use reprise_probe::Fingerprint;
use reprise_probe::preflight::{self, Preflight, recipe_queries};
use reprise_probe::toolchain;

use crate::recipes::Loaded;
use crate::{Session, SessionError};

/// How a preflight learns the toolchains' versions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Versions {
    /// Run each toolchain's version command: the reader accepted them.
    Ask { timeout: Duration },
    /// Only look for the programs; run nothing the recipe names.
    Locate,
}

impl Session {
    /// The preflight of `loaded` on this machine (or on the fixture tree
    /// under `root`). Asking versions of a recipe that is not the reviewed
    /// one is refused unless `allow_modified`.
    pub fn preflight(
        &self,
        loaded: &Loaded,
        versions: Versions,
        allow_modified: bool,
        root: Option<&Path>,
    ) -> Result<Preflight, SessionError> {
        if matches!(versions, Versions::Ask { .. })
            && !loaded.checksum.is_reviewed()
            && !allow_modified
        {
            return Err(SessionError::Unreviewed {
                file: loaded.recipe.file.clone(),
                status: loaded.checksum.clone(),
            });
        }
        let recipe = &loaded.recipe;
        // The toolchains a run would use: the recipe's setup's, if any.
        let search = reprise_engine::mise::search_path(&self.toolchain_env(recipe.id())?);
        let (machine, tools) = std::thread::scope(|scope| {
            let machine = scope.spawn(|| match root {
                Some(root) => Fingerprint::read(root),
                None => Fingerprint::probe(Duration::from_secs(2)),
            });
            let tools = match versions {
                Versions::Ask { timeout } => {
                    preflight::probe_recipe_toolchains(recipe, &search, timeout)
                }
                Versions::Locate => toolchain::locate(&recipe_queries(recipe), &search),
            };
            (machine.join().unwrap_or_default(), tools)
        });
        Ok(preflight::preflight(recipe, &machine, &tools))
    }

    /// The environment `recipe`'s toolchains need: what mise resolves for
    /// its setup (`reprise setup`), or nothing where it has none.
    pub fn toolchain_env(
        &self,
        recipe: &str,
    ) -> Result<std::collections::BTreeMap<String, String>, SessionError> {
        Ok(reprise_engine::mise::run_environment(&self.data, recipe)?)
    }
}
