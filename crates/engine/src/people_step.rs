//! The `cable` step: post 004's many-people load against each lane. Like the
//! `load` step it starts each lane's server (or reuses the one `serve` left
//! up) on the servers' CPUs, skips lanes that cannot run here, and puts the
//! generator on the other CPUs — one generator thread per CPU. It drives the
//! workload's `[workload.people]` steps with `reprise_loadgen::run_people_until`,
//! reports each step live (people, navigations per second, p99, failures)
//! and as it ends, and writes the whole report to
//! `results/<step>/<lane>/people.json`. A step that is not served is a
//! result, not a failed step; a server that cannot start skips its lane; a
//! cancel stops the people within a moment and keeps the steps that ended.

use std::time::Duration;

use reprise_loadgen::people::{LiveStep, PeopleProgress, roster};
use reprise_loadgen::{Mix, PeopleSpec, ServedCriterion, StepReport, StopHandle, run_people_until};
use reprise_recipe::{Lane, Recipe, Step, Workload};

use crate::bench::{Bench, cpu_split, lane_log, note, skipped};
use crate::event::Event;
use crate::lane_server::log_tail;
use crate::measure::{QUICK_DURATION, QUICK_WARMUP};
use crate::run::{RunContext, StepFailure, within};
use crate::workdir::write_atomic;

const DEFAULT_WARMUP: Duration = Duration::from_secs(10);
/// `--quick` keeps this many of the workload's steps of people.
const QUICK_STEPS: usize = 2;

pub(crate) fn run(
    bench: &mut Bench,
    ctx: &RunContext,
    recipe: &Recipe,
    step: &Step,
    plan_lanes: &[String],
    workload: &Workload,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let (server_cpus, client_cpus) = cpu_split();
    note(
        ctx,
        id,
        format!("servers on CPUs {server_cpus:?}, people generator on CPUs {client_cpus:?}"),
    );
    let lanes = bench.lanes_to_measure(ctx, recipe, step, plan_lanes)?;
    let mut loaded = 0;
    for &lane in &lanes {
        let name = lane.name.to_string();
        let port = match bench.ensure_server(ctx, lane, server_cpus.clone()) {
            Ok(server) => server.spec.port,
            Err(e) => {
                let tail = log_tail(&lane_log(ctx, &name), 20);
                bench.skip(ctx, id, skipped(&name, "boot", e.to_string(), tail))?;
                continue;
            }
        };
        let mut spec = people_spec(ctx, workload, lane, port)?;
        spec.threads = client_cpus.as_ref().map_or(1, |c| c.len());
        spec.cpus = client_cpus.clone();
        if ctx.quick {
            spec.steps.truncate(QUICK_STEPS);
            spec.step_duration = spec.step_duration.min(QUICK_DURATION);
            spec.warmup = spec.warmup.min(QUICK_WARMUP);
            note(
                ctx,
                id,
                format!(
                    "--quick: steps {:?} of {:?} each after {:?} (a smoke run, not a measurement)",
                    spec.steps, spec.step_duration, spec.warmup
                ),
            );
        }
        note(
            ctx,
            id,
            format!(
                "lane {name}: people in steps of {:?} on 127.0.0.1:{port}, {} generator thread(s)",
                spec.steps, spec.threads
            ),
        );
        let stop = StopHandle::default();
        let steps = spec.steps.len() as u64;
        let report = run_people_until(&spec, &stop, |progress| {
            if ctx.cancel.is_cancelled() {
                stop.stop();
            }
            match progress {
                PeopleProgress::Live(live) => live_event(ctx, id, &name, steps, &live),
                PeopleProgress::Step(report) => {
                    note(ctx, id, format!("lane {name}: {}", describe(report)))
                }
            }
        })
        .map_err(|e| StepFailure::Failed(format!("lane `{name}`: {e}")))?;
        let out = ctx.run.results().join(id).join(&name);
        std::fs::create_dir_all(&out)?;
        let json = serde_json::to_vec_pretty(&report).map_err(std::io::Error::other)?;
        write_atomic(&out.join("people.json"), &json)?;
        if report.stopped {
            return Err(StepFailure::Cancelled(format!(
                "cancelled during lane {name}; {} step(s) of people kept",
                report.steps.len()
            )));
        }
        note(
            ctx,
            id,
            format!(
                "lane {name}: {} acknowledged writes, {} missing from the database; {}",
                report.acknowledged_writes,
                report
                    .unsaved_writes
                    .map_or("not checked".into(), |n| n.to_string()),
                if report.served {
                    "served at every step"
                } else {
                    "not served at every step"
                }
            ),
        );
        loaded += 1;
    }
    if !lanes.is_empty() && loaded == 0 {
        return Err(StepFailure::Failed("no lane could be loaded".into()));
    }
    Ok(())
}

/// Where the running step stands, as the live measurement the UI shows:
/// navigations per second as its rate, failures as its errors.
fn live_event(ctx: &RunContext, id: &str, lane: &str, steps: u64, live: &LiveStep) {
    let seconds = live.elapsed.as_secs_f64().max(1e-3);
    ctx.events.emit(Event::Measuring {
        step: id.to_string(),
        lane: lane.to_string(),
        endpoint: format!(
            "{} people{}",
            live.people,
            if live.measuring { "" } else { " (warming up)" }
        ),
        run: live.step as u32 + 1,
        cells_done: live.step as u64,
        cells: steps,
        req_per_s: live.navigations as f64 / seconds,
        p99_ms: live.navigation_p99_ms,
        errors: live.failures,
    });
}

/// The load the recipe's `[workload.people]` describes, against 127.0.0.1:`port`.
fn people_spec(
    ctx: &RunContext,
    workload: &Workload,
    lane: &Lane,
    port: u16,
) -> Result<PeopleSpec, StepFailure> {
    let people = workload.people.as_ref().ok_or_else(|| {
        StepFailure::Failed(format!(
            "workload `{}` has no [workload.people]",
            workload.name
        ))
    })?;
    let share = |kind: &str| people.mix.get(kind).copied().unwrap_or(0.0);
    let mut spec = PeopleSpec::new(format!("http://127.0.0.1:{port}"));
    spec.accounts = people.accounts;
    spec.rooms = people.rooms;
    spec.steps = people.steps.clone();
    spec.warmup = lane
        .warmup
        .or(workload.warmup)
        .map_or(DEFAULT_WARMUP, |w| w.as_duration());
    spec.step_duration = people.step_duration.as_duration();
    spec.navigate_every = people.navigate_every.as_duration();
    spec.post_every = people.post_every.as_duration();
    spec.mix = Mix {
        open_room: share("open_room"),
        scroll_history: share("scroll_history"),
        search: share("search"),
        return_to_room: share("return_to_room"),
    };
    spec.served = ServedCriterion {
        navigation_quantile: people.served.navigation_quantile,
        navigation_ms: people.served.navigation_ms,
        max_failures: people.served.max_failures,
        delivery_quantile: people.served.delivery_quantile,
        delivery_ms: people.served.delivery_ms,
    };
    spec.verify_writes_path = people.verify_writes.clone();
    if let Some(file) = &people.sessions {
        let path = within(&ctx.run.path, file)?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            StepFailure::Failed(format!(
                "the minted sessions {}: {e} (an earlier step should write them)",
                path.display()
            ))
        })?;
        let sessions = roster::parse_sessions(&text, people.accounts)
            .map_err(|e| StepFailure::Failed(format!("{}: {e}", path.display())))?;
        spec.sessions = Some(sessions);
    }
    Ok(spec)
}

fn describe(s: &StepReport) -> String {
    let nav = s.navigation.as_ref();
    let delivery = s.delivery.as_ref();
    format!(
        "{} people: {} navigations p50 {:.1} ms p99 {:.1} ms; {} deliveries p99 {:.1} ms; {} failures; {} re-sends; {} cable reconnects; generator {:.2} cores, timer lag p99 {:.2} ms; {}",
        s.people,
        nav.map_or(0, |n| n.count),
        nav.map_or(0.0, |n| n.p50_ms),
        nav.map_or(0.0, |n| n.p99_ms),
        delivery.map_or(0, |d| d.count),
        delivery.map_or(0.0, |d| d.p99_ms),
        s.failures,
        s.resends,
        s.cable_reconnects,
        s.generator.cpu_cores,
        s.generator.timer_lag_p99_ms,
        if s.served {
            "served".to_owned()
        } else {
            format!("not served ({})", s.not_served.join("; "))
        }
    )
}
