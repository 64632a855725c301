//! A recipe's preflight on this machine, as the CLI and the app both run it.
//! Asking a toolchain its version runs the recipe's own command, so it is
//! the reader's choice, shown first, and only for the reviewed recipe
//! (unless the reader allows a modified one); without it the programs are
//! only looked for, and nothing of the recipe's runs.

use std::time::Duration;

use reprise_engine::lanes::remote_engine::ServerHostEnv;
use reprise_engine::{LaneHost, ServerHostReading};
use reprise_probe::preflight::{self, Preflight, recipe_queries};
use reprise_probe::toolchain;

use crate::recipes::LoadedRecipe;
use crate::{Session, SessionError};

/// How a preflight learns the toolchains' versions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Versions {
    /// Run each toolchain's version command: the reader accepted them.
    Ask { timeout: Duration },
    /// Only look for the programs; run nothing the recipe names.
    Locate,
}

/// A preflight, with what is known of the server host where the lanes are
/// served on one.
pub struct Preflighted {
    pub report: Preflight,
    /// The machine the lanes would run on, as it was read.
    pub fingerprint: reprise_probe::Fingerprint,
    /// The server host's engine, hardware and link; `None` for lanes on
    /// this machine.
    pub server_host: Option<ServerHostEnv>,
}

impl Session {
    /// The preflight of `loaded` with its lanes served on `host`: that
    /// machine's hardware against the post's (this machine's, read under
    /// [`Session::machine_root`]; a server host's as a probe container of a
    /// lane's image reads it), the toolchains, and each lane's standing there.
    /// Asking versions of a recipe that is not the reviewed one is refused
    /// unless `allow_modified`; a server host's lanes are asked inside their
    /// images when the run starts them, so none of the recipe's version
    /// commands runs for them here. A server host's link is measured only
    /// where `reading` asks for it.
    pub fn preflight(
        &self,
        loaded: &LoadedRecipe,
        versions: Versions,
        allow_modified: bool,
        host: &LaneHost,
        reading: ServerHostReading,
    ) -> Result<Preflighted, SessionError> {
        let versions = match host.toolchains_are_here() {
            true => versions,
            false => Versions::Locate,
        };
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
        let search = reprise_engine::inputs::mise::search_path(&self.toolchain_env(recipe.id())?);
        let (machine, tools) = std::thread::scope(|scope| {
            let machine =
                scope.spawn(|| host.machine(recipe, self.machine_root.as_deref(), reading));
            let tools = match versions {
                Versions::Ask { timeout } => {
                    preflight::probe_recipe_toolchains(recipe, &search, timeout)
                }
                Versions::Locate => toolchain::locate(&recipe_queries(recipe), &search),
            };
            (machine.join(), tools)
        });
        let machine = machine
            .map_err(|_| SessionError::ServerHost("the machine could not be read".into()))??;
        let report = preflight_on(recipe, &machine.fingerprint, &tools, host);
        Ok(Preflighted {
            report,
            fingerprint: machine.fingerprint,
            server_host: machine.server_host,
        })
    }

    /// The environment `recipe`'s toolchains need: what mise resolves for
    /// its setup (`reprise setup`), or nothing where it has none.
    pub fn toolchain_env(
        &self,
        recipe: &str,
    ) -> Result<std::collections::BTreeMap<String, String>, SessionError> {
        Ok(reprise_engine::inputs::mise::run_environment(
            &self.data, recipe,
        )?)
    }
}

/// `recipe`'s preflight on the machine its lanes would run on, with the
/// toolchains found: the probe's items, the lanes `host` cannot run
/// blocked, and what a run can judge.
pub(crate) fn preflight_on(
    recipe: &reprise_recipe::Recipe,
    fingerprint: &reprise_probe::Fingerprint,
    tools: &toolchain::Toolchains,
    host: &LaneHost,
) -> Preflight {
    let mut report = preflight::preflight(recipe, fingerprint, tools);
    for lane in &recipe.lanes {
        let Some(why) = host.why_lane_cannot_run(lane) else {
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
    report.claims = preflight::ClaimsHere::of(preflight::claims_here(recipe, &report));
    report
}
