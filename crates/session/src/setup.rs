//! Provisioning a recipe's toolchains, as the CLI (`reprise setup`) and the
//! app ("Set up what's missing") both do it: the versions the recipe pins
//! written into its mise config, shown, and installed by mise with its
//! output as live progress; runs and preflights of the recipe then use
//! exactly those versions (`reprise_engine::inputs::mise`). Like asking versions,
//! installing runs what the recipe names, so it is for the reviewed recipe
//! only unless the reader allows a modified one.

use std::path::PathBuf;

use reprise_engine::inputs::mise::{self, MiseTool, Setup};
use reprise_engine::os::runner::host::{self, HostCommand};
use reprise_engine::{CancelToken, EventSink};
use serde::Serialize;

use crate::recipes::LoadedRecipe;
use crate::{Session, SessionError};

/// What a setup will do, for the reader to accept.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct SetupPlan {
    pub recipe: String,
    /// The lanes it provides for (every lane when none was chosen).
    pub lanes: Vec<String>,
    /// The mise config it writes, and what it holds.
    pub config: String,
    pub config_text: String,
    /// What mise installs: `ruby 4.0.5, jruby-10.1.1.0 (for ruby, jruby)`.
    pub installs: Vec<String>,
    /// The recipe's toolchains mise cannot provide (no `mise = …`), with
    /// how to install them by hand.
    pub by_hand: Vec<String>,
    /// mise, where it is; `None` when it must be installed first.
    pub mise: Option<String>,
    /// How to get mise when it is missing; `cargo install mise --locked`
    /// where cargo is there (which Reprise can run, once accepted).
    pub get_mise: Option<String>,
    /// The commands the setup runs, in order, each a shell line, run in
    /// `dir`.
    pub commands: Vec<String>,
    /// Where they run: the folder of the config.
    pub dir: String,
}

/// How mise can be had where it is missing: built by cargo where cargo and
/// what its build needs (cmake, a C compiler) are here, else by hand.
enum MiseRoute {
    Cargo(PathBuf),
    ByHand(String),
}

impl MiseRoute {
    fn here() -> MiseRoute {
        let Some(cargo) = which("cargo") else {
            return MiseRoute::ByHand("there is no cargo (Rust) here".into());
        };
        let missing: Vec<&str> = [("cmake", "cmake"), ("cc", "a C compiler")]
            .into_iter()
            .filter(|(program, _)| which(program).is_none())
            .map(|(_, what)| what)
            .collect();
        match missing.is_empty() {
            true => MiseRoute::Cargo(cargo),
            false => MiseRoute::ByHand(format!(
                "`cargo install mise --locked` cannot build it here: it needs {}, which this machine lacks (sudo apt-get install cmake build-essential)",
                missing.join(" and ")
            )),
        }
    }

    /// What the reader is told: the cargo route it takes, or why not and
    /// what to do instead.
    fn words(&self) -> String {
        match self {
            MiseRoute::Cargo(_) => {
                "cargo builds it first (`cargo install mise --locked`, a few minutes)".into()
            }
            MiseRoute::ByHand(why) => {
                format!("install mise (https://mise.jdx.dev/getting-started.html); {why}")
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum SetupEnd {
    Installed,
    Failed,
    Cancelled,
}

impl Session {
    /// What setting up `loaded` for `lanes` (every lane when empty) does.
    pub fn setup_plan(&self, loaded: &LoadedRecipe, lanes: &[String]) -> SetupPlan {
        let recipe = &loaded.recipe;
        let tools = mise::tools(recipe, lanes);
        let setup = Setup::of(&self.data, recipe.id());
        let found = mise::find();
        let route = MiseRoute::here();
        let mut commands = Vec::new();
        // Only a route that can work here: without mise, and without what
        // cargo needs to build it, nothing is proposed to run.
        if !tools.is_empty() && (found.is_some() || matches!(route, MiseRoute::Cargo(_))) {
            if found.is_none() {
                commands.push("cargo install mise --locked".to_string());
            }
            commands.push("mise install".to_string());
        }
        let by_hand = recipe
            .toolchains
            .iter()
            .filter(|t| t.mise.is_none())
            .filter(|t| {
                recipe
                    .lanes
                    .iter()
                    .filter(|l| lanes.is_empty() || lanes.iter().any(|n| n == l.name.as_str()))
                    .any(|l| recipe.lane_toolchains(l).any(|x| x.name == t.name))
            })
            .map(|t| format!("{} {}", t.name, t.version))
            .collect();
        SetupPlan {
            recipe: recipe.id().to_string(),
            lanes: lanes.to_vec(),
            config: setup.config().display().to_string(),
            config_text: mise::config_text(&tools),
            installs: tools.iter().map(describe).collect(),
            by_hand,
            get_mise: (found.is_none() && !tools.is_empty()).then(|| route.words()),
            dir: setup.dir.display().to_string(),
            mise: found.map(|m| m.display().to_string()),
            commands,
        }
    }

    /// Carries out `plan`: installs mise with cargo where it is missing,
    /// writes the config and runs `mise install`, every line of output to
    /// `events` (step `setup`). Run again, it installs only what is missing.
    pub fn setup(
        &self,
        loaded: &LoadedRecipe,
        plan: &SetupPlan,
        allow_modified: bool,
        events: &dyn EventSink,
        cancel: &CancelToken,
    ) -> Result<SetupEnd, SessionError> {
        if !loaded.checksum.is_reviewed() && !allow_modified {
            return Err(SessionError::Unreviewed {
                file: loaded.recipe.file.clone(),
                status: loaded.checksum.clone(),
            });
        }
        let tools = mise::tools(&loaded.recipe, &plan.lanes);
        let mise_path = match mise::find() {
            Some(path) => path,
            None => {
                // The route the plan showed, and no other.
                let MiseRoute::Cargo(cargo) = MiseRoute::here() else {
                    return Err(SessionError::NoMise {
                        how: plan.get_mise.clone().unwrap_or_default(),
                    });
                };
                let cmd = HostCommand::new(
                    "setup",
                    vec![
                        cargo.display().to_string(),
                        "install".into(),
                        "mise".into(),
                        "--locked".into(),
                    ],
                    std::env::temp_dir(),
                );
                let outcome = host::run(&cmd, cancel, events)
                    .map_err(reprise_engine::inputs::mise::MiseError::from)?;
                if let Some(end) = unfinished(&outcome, cancel) {
                    return Ok(end);
                }
                mise::find().ok_or_else(|| SessionError::NoMise {
                    how: "cargo installed mise, but it is not on PATH nor in ~/.cargo/bin".into(),
                })?
            }
        };
        let setup = Setup::of(&self.data, loaded.recipe.id());
        setup.write(&tools)?;
        let outcome = setup.install(&mise_path, cancel, events)?;
        Ok(unfinished(&outcome, cancel).unwrap_or(SetupEnd::Installed))
    }
}

/// How a setup command that did not succeed ended, or `None` when it did.
fn unfinished(outcome: &host::Outcome, cancel: &CancelToken) -> Option<SetupEnd> {
    if outcome.success() {
        None
    } else if cancel.is_cancelled() {
        Some(SetupEnd::Cancelled)
    } else {
        Some(SetupEnd::Failed)
    }
}

fn describe(t: &MiseTool) -> String {
    format!(
        "{} {} (for {})",
        t.tool,
        t.versions.join(", "),
        t.provides.join(", ")
    )
}

/// A program on PATH, found as every toolchain is.
fn which(program: &str) -> Option<PathBuf> {
    reprise_probe::toolchain::SearchPath::from_env().find(program)
}
