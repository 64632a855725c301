//! `serve`: boots each lane `repeat` times from cold, recording how long it
//! took to accept a connection and to answer its health path
//! (`coldstart.json`), and leaves the last boot running for the steps after
//! it. A lane a `sign_in` step signs in to boots once here: its cold starts
//! are timed there, to the signed-in room page, as the harness times them.
//! A lane that does not boot is skipped with its log's tail.

use reprise_harness_files::records::ColdStart;
use reprise_recipe::Action;

use super::{Lanes, NoLane, Produced, StepFailure, StepInput};

pub(crate) fn run(s: &StepInput, lanes: &mut Lanes, repeat: u32) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let server_cpus = s.ctx.lane_host.cpu_split().servers;
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
        let signed_later = s.recipe.steps.iter().any(|step| {
            matches!(&step.action, Action::SignIn { lanes, .. } if lanes.is_empty() || lanes.contains(&lane.name))
        });
        let repeat = if signed_later { 1 } else { repeat };
        let mut booted = true;
        for rep in 1..=repeat {
            if ctx.cancel.is_cancelled() {
                return Err(StepFailure::cancelled());
            }
            lanes.stop_for_cold_start(ctx, s.id(), &name)?;
            let Some(server) = lanes.start(ctx, s.id(), lane, &server_cpus)? else {
                booted = false;
                break;
            };
            let memory = server.memory();
            let (accept_ms, page_ms) = (server.accept_ms, server.page_ms);
            s.note(format!(
                "lane {name} boot {rep}: accepts after {accept_ms:.0} ms, answers 200 after {page_ms:.0} ms; {} processes, RSS {} kB",
                memory.processes, memory.rss_kb
            ));
            lanes.booted(ColdStart {
                target: name.clone(),
                rep,
                accept_ms,
                page_ms,
                page_code: 200,
            });
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
