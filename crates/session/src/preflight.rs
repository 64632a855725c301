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

    /// Two machines: the preflight of `loaded` with its lanes on `host` —
    /// that machine's hardware (read by a probe container of a lane's
    /// image) against the post's, and each lane's standing there — with
    /// what is known of that host and the link to it. Runs none of the
    /// recipe's version commands: a container lane's toolchains are asked
    /// inside its image when the run starts it.
    pub fn preflight_on_server_host(
        &self,
        loaded: &Loaded,
        host: &reprise_engine::server_host::ServerHost,
    ) -> Result<(Preflight, reprise_engine::server_host::ServerHostEnv), SessionError> {
        let recipe = &loaded.recipe;
        let engine = host.ask_engine().map_err(SessionError::ServerHost)?;
        let image = recipe.lanes.iter().find_map(|l| l.image.as_deref());
        let connections = recipe.workloads.iter().map(|w| w.connections as usize);
        let env = reprise_engine::server_host::ServerHostEnv::capture(
            host,
            Some(engine.clone()),
            image,
            "preflight",
            connections.max().unwrap_or(16),
            &reprise_engine::CancelToken::new(),
        )
        .unwrap_or_default();
        let mut machine = env.fingerprint.clone().unwrap_or_default();
        machine.container_engine = Some(engine);
        let search = reprise_engine::mise::search_path(&self.toolchain_env(recipe.id())?);
        let tools = toolchain::locate(&recipe_queries(recipe), &search);
        let mut report = preflight::preflight(recipe, &machine, &tools);
        for lane in &recipe.lanes {
            let Some(why) = reprise_engine::server_host::why_lane_cannot_run(lane) else {
                continue;
            };
            let name = lane.name.to_string();
            if let Some(item) = report
                .items
                .iter_mut()
                .find(|i| i.subject == preflight::Subject::Lane && i.name == format!("lane {name}"))
            {
                item.verdict = preflight::Verdict::Blocks;
                item.why = format!("Cannot run on the server host: {why}.");
                item.fix = None;
            }
            report.runnable_lanes.retain(|l| *l != name);
            if !report.blocked_lanes.contains(&name) {
                report.blocked_lanes.push(name);
            }
        }
        Ok((report, env))
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
