//! `serve`: boots each lane `repeat` times from cold, recording how long it
//! took to accept a connection and to answer its health path
//! (`coldstart.json`), and leaves the last boot running for the steps after
//! it. A lane a `sign_in` step signs in to boots once here: its cold starts
//! are timed there, to the signed-in room page, as the harness times them.
//! A lane that does not boot is skipped with its log's tail.

use super::{Lanes, NoLane, Produced, StepFailure, StepInput};

pub(crate) fn run(s: &StepInput, lanes: &mut Lanes, repeat: u32) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let repeat = if ctx.quick { 1 } else { repeat.max(1) };
    let to_serve = lanes.runnable(s)?;
    let mut served = 0;
    for lane in &to_serve {
        let name = lane.name.to_string();
        if lane.port.is_none() {
            s.note(format!("lane {name} has no port: nothing to serve"));
            continue;
        }
        // A lane signed in later is timed from cold there, to its signed-in
        // room page (`sign_in::cold_starts`): here it boots once.
        let repeat = if s.recipe.signs_in(&name) { 1 } else { repeat };
        let mut booted = true;
        for rep in 1..=repeat {
            if ctx.cancel.is_cancelled() {
                return Err(StepFailure::cancelled());
            }
            match lanes.cold_start(ctx, s.id(), lane, rep, None)? {
                Some(boot) => lanes.booted(boot),
                None => {
                    booted = false;
                    break;
                }
            }
        }
        served += usize::from(booted);
    }
    ctx.results()
        .write(reprise_harness_files::COLDSTART_FILE, lanes.coldstarts())?;
    if served == 0 && !to_serve.is_empty() {
        return Err(StepFailure::NoLane(NoLane::Served));
    }
    Ok(Produced::default())
}
