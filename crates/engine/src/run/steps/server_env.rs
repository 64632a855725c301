//! Before a measuring step starts its lanes: what is known of the machine
//! that serves them, where that is not this one ([`LaneHost::capture_environment`]):
//! its engine, hardware and link in `results/env.server.json`, the link's
//! ceiling loaded at the workload's connections. Once a run; a cancelled
//! capture writes nothing (a resume captures again).
//!
//! [`LaneHost::capture_environment`]: crate::lanes::placement::LaneHost::capture_environment

use super::{StepFailure, StepInput};
use crate::lanes::placement::Captured;
use crate::lanes::remote_engine::SERVER_ENV_FILE;

pub(crate) fn describe_server_host(
    s: &StepInput,
    lanes: &[&reprise_recipe::Lane],
    connections: usize,
) -> Result<(), StepFailure> {
    let ctx = s.ctx;
    if lanes.is_empty() || ctx.run.results().join(SERVER_ENV_FILE).exists() {
        return Ok(());
    }
    let image = lanes.iter().find_map(|l| l.image.as_deref());
    let captured = ctx.lane_host.capture_environment(
        s.recipe,
        image,
        &ctx.run.id,
        connections,
        &ctx.cancel,
        &|line| s.note(line.into()),
    );
    let env = match captured {
        Captured::Nothing => return Ok(()),
        Captured::Cancelled => return Err(StepFailure::cancelled()),
        Captured::ServerHost(env) => env,
    };
    if let Some(why) = &env.probe_error {
        s.note(format!("the server host's hardware is not known: {why}"));
    }
    match &env.link {
        Some(link) => s.note(format!("the link to the server host: {}", link.describe())),
        None => {
            s.note("the link to the server host: its engine's port did not answer a connect".into())
        }
    }
    ctx.results().write(SERVER_ENV_FILE, &env)?;
    Ok(())
}
