//! `serve`: boots each lane `repeat` times from cold, recording how long it
//! took to accept a connection and to answer its health path
//! (`coldstart.json`), and leaves the last boot running for the steps after
//! it. A lane a `sign_in` step signs in to boots once here: its cold starts
//! are timed there, to the signed-in room page, as the harness times them.
//! A lane that does not boot is skipped with its log's tail.

use reprise_recipe::{Recipe, ServeStep};

use super::{Kind, Lanes, NoLane, Produced, StepFailure, StepInput, named_lanes, step_lanes};

impl Kind for ServeStep {
    fn describe(&self, recipe: &Recipe) -> String {
        let signed_in_later = step_lanes(recipe, &self.lanes).any(|l| recipe.signs_in(l));
        let does = match self.repeat {
            0 | 1 => "boot each lane once until it answers".to_string(),
            n if signed_in_later => format!(
                "boot each lane once until it answers (its {n} cold starts are timed once it is signed in)"
            ),
            n => format!("boot each lane {n} times (cold starts) until it answers"),
        };
        format!("{does}{}", named_lanes(&self.lanes))
    }

    fn serves(&self) -> bool {
        true
    }

    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, lanes, self.repeat)
    }
}

fn run(s: &StepInput, lanes: &mut Lanes, repeat: u32) -> Result<Produced, StepFailure> {
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
