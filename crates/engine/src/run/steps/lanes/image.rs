//! A container lane's image: on the engine (pulled by digest with its
//! progress shown, refused where it is not the digest it pins), then asked
//! for the versions of the toolchains the lane needs, inside the image.

use std::time::Duration;

use reprise_recipe::Lane;
use reprise_verdict::{Deviation, DeviationKind};

use super::Lanes;
use crate::event::Event;
use crate::os::runner::container::{ContainerRunner, ContainerSpec};
use crate::run::context::RunContext;

impl Lanes {
    /// The image ready for `lane`, and how its toolchains differ from the
    /// post's; why the lane cannot run otherwise.
    pub(super) fn prepare_image(
        &self,
        ctx: &RunContext,
        step: &str,
        lane: &Lane,
        image: &str,
    ) -> Result<Vec<Deviation>, String> {
        let runner = ctx.lane_host.connect_engine().map_err(|e| e.to_string())?;
        runner
            .ensure_image(image, &|line| {
                ctx.note(step, format!("lane {}: {line}", lane.name))
            })
            .map_err(|e| e.to_string())?;
        self.image_toolchains(&runner, ctx, step, lane, image)
    }

    /// Asks each toolchain `lane` needs its version inside `image` (the
    /// toolchain's own command, in a container of its own): a version other
    /// than the post's is a deviation; a toolchain the image lacks keeps
    /// the lane from running.
    fn image_toolchains(
        &self,
        runner: &ContainerRunner,
        ctx: &RunContext,
        step: &str,
        lane: &Lane,
        image: &str,
    ) -> Result<Vec<Deviation>, String> {
        let mut found = Vec::new();
        let needed = lane.runtime.iter().chain(&lane.needs);
        for tc in needed.filter_map(|n| self.toolchain_specs.iter().find(|t| t.name == *n)) {
            let mut spec = ContainerSpec::new(
                &format!("lane-{}-{}", lane.name, tc.name),
                &ctx.run.id,
                image,
                tc.command.clone(),
            );
            spec.timeout = Some(Duration::from_secs(60));
            spec.read_output = true;
            // What it printed, from its whole log once it stopped.
            let asked = runner.run(&spec, &ctx.cancel, &|_: Event| {});
            let output: String = match &asked {
                Ok(o) => o
                    .output
                    .iter()
                    .map(|(_, line)| format!("{line}\n"))
                    .collect(),
                Err(_) => String::new(),
            };
            let version = match asked {
                Ok(_) => tc.read_version(&output),
                Err(e) => {
                    return Err(format!(
                        "the image {image} cannot run `{}`: {e}",
                        reprise_recipe::shown::command_line(&tc.command)
                    ));
                }
            };
            let Some(version) = version else {
                return Err(format!(
                    "the image {image} has no {} the recipe can read (`{}` printed `{}`)",
                    tc.name,
                    reprise_recipe::shown::command_line(&tc.command),
                    reprise_recipe::shown::escaped(output.lines().next().unwrap_or(""))
                ));
            };
            if tc.version.matches(&version) {
                ctx.note(
                    step,
                    format!("lane {}: {} {version} in its image", lane.name, tc.name),
                );
            } else {
                ctx.note(
                    step,
                    format!(
                        "lane {}: {} {version} in its image, the post's was {}",
                        lane.name, tc.name, tc.version
                    ),
                );
                found.push(Deviation {
                    kind: DeviationKind::Image,
                    what: format!("{} {version} in {image} instead of {}", tc.name, tc.version),
                    lanes: vec![lane.name.to_string()],
                });
            }
        }
        Ok(found)
    }
}
