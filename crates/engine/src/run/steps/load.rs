//! `load`: lanes × endpoints × runs with the in-process load generator (or
//! wrk, when the workload or the run asks for the posts' own), each route
//! warmed up before each of its runs, runs in alternating lane order, the servers on some
//! CPUs and the client on the others, each server's process tree sampled
//! every second. Writes the harness's `per-run.json`, `summary.json` and
//! `env.json` (through `reprise-harness-files`), HDR logs, `measurements.json` and
//! `results.json` (ours, with every figure the load generator gave). A lane
//! that crashes keeps the cells it finished; the rest are no data, and
//! `skipped.json` gets its log tail. A cancel stops the cell going on
//! within a second (the run's cancel is the load's stop handle), records it
//! as cancelled, not as a measurement, and keeps the cells that ended. The
//! load goes to the lane's server and nowhere else.

use std::collections::BTreeSet;

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{Generator, Lane, LoadStep, Recipe};
use reprise_verdict::{LaneInfo, Measurements};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, named_lanes, workload};
use crate::lanes::cpu_split::CpuSplit;
use crate::run::estimate::{self, Estimate, QUICK_WARMUP, Shape};
use crate::run::plan::Plan;
use reprise_recipe::reading::{count, duration_words};

use super::kept_databases::KeptDatabases;
use super::rounds::Rounds;

impl Kind for LoadStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "measure {}: lanes × endpoints × runs{}",
            show(&self.workload),
            named_lanes(&self.lanes)
        )
    }

    fn serves(&self) -> bool {
        true
    }

    fn expected(&self, plan: &Plan, quick: bool) -> Option<Estimate> {
        let workload = plan.recipe.workload(&self.workload)?;
        plan.estimate(&self.lanes, |lanes| {
            Some(estimate::load(workload, lanes, quick))
        })
    }

    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, lanes, &self.workload)
    }
}

fn run(s: &StepInput, lanes: &mut Lanes, workload_name: &str) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let workload = workload(s.recipe, workload_name)?;
    let shape = Shape::of(workload, ctx.quick);
    let generator = ctx.generator.unwrap_or(workload.generator);
    if generator == Generator::Wrk {
        let found = std::process::Command::new("wrk")
            .arg("--version")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        if found.is_err() {
            return Err(StepFailure::WrkMissing);
        }
        s.note("measured with wrk, as the posts measured (non-2xx responses or socket errors: no data)".to_string());
    }
    if ctx.quick {
        s.note(format!(
            "--quick: {} of {} per cell, warm-ups at most {} (a smoke run, not a measurement)",
            count(shape.runs, "run"),
            duration_words(shape.duration.as_secs_f64()),
            duration_words(QUICK_WARMUP.as_secs_f64())
        ));
    }
    let split = s.ctx.lane_host.cpu_split(s.recipe.cpu_placement());
    s.note(split.describe("load generator"));
    let CpuSplit {
        servers: server_cpus,
        clients: client_cpus,
        ..
    } = split;
    let to_measure = lanes.measurable(s)?;
    let mut m = Measurements::default();
    super::describe_server_host(s, &to_measure, workload.connections as usize)?;
    // Boot each lane; a lane that does not boot has no data.
    let mut booted = BTreeSet::new();
    for lane in &to_measure {
        // Named in the harness's files as the harness names it, so its
        // tools group and label the cells as they would the post's.
        let harness = lane.harness_name();
        m.lanes.insert(
            lane.name.to_string(),
            LaneInfo {
                target: harness.target,
                workers: harness.workers,
                warmup_sec: Some(shape.warmup_of(lane, ctx.quick).as_secs_f64()),
            },
        );
    }
    // A lane stopped to make room for another booted already: it starts
    // again when its first cell comes.
    let (parked, to_boot): (Vec<&Lane>, Vec<&Lane>) =
        to_measure.iter().partition(|l| lanes.is_parked(&l.name));
    booted.extend(parked.iter().map(|l| l.name.to_string()));
    lanes.for_each_started(ctx, s.id(), &to_boot, &server_cpus, |_, lane, _| {
        booted.insert(lane.name.to_string());
        Ok(())
    })?;

    let mut rounds = Rounds::new(
        s,
        workload,
        generator,
        &shape,
        (&client_cpus, &server_cpus),
        &to_measure,
        booted,
        m,
        KeptDatabases::keep(s, workload)?,
    );
    let kept = rounds.keep_finished_cells(&to_measure);
    if kept > 0 {
        s.note(format!(
            "kept {} measured before the cancel; measuring the rest",
            count(kept, "cell")
        ));
    }
    for run in 1..=shape.runs {
        let mut order = to_measure.clone();
        if run % 2 == 0 {
            order.reverse();
        }
        for lane in order {
            for endpoint in &workload.endpoints {
                if rounds.has(lane, endpoint, run) {
                    continue;
                }
                rounds.cell(lanes, lane, endpoint, run)?;
            }
        }
    }
    if let Some(budget) = ctx.until_conclusive {
        super::conclusive::extend(&mut rounds, lanes, &to_measure, budget)?;
    }
    rounds.write(lanes)?;
    if !to_measure.is_empty() && !rounds.any_data() {
        return Err(StepFailure::NoData);
    }
    Ok(Produced::default())
}
