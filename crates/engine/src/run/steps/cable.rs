//! The `cable` step: post 004's many-people load against each lane. Like the
//! `load` step it starts each lane's server (or reuses the one `serve` left
//! up) on the servers' CPUs, skips lanes that cannot run here, and puts the
//! generator on the other CPUs — one generator thread per CPU. It drives the
//! workload's `[workload.people]` steps with `reprise_loadgen::run_people_until`,
//! reports each step live (people, navigations per second, p99, failures)
//! and as it ends, and writes the whole report to
//! `results/<step>/<lane>/people.json`. A step that is not served is a
//! result, not a failed step; a server that cannot start skips its lane; a
//! cancel (the people's stop handle) stops the people within a moment and
//! keeps the steps that ended. The people load the lane's server only.

use std::net::SocketAddr;
use std::path::Path;

use reprise_loadgen::people::{LiveStep, PeopleProgress, roster};
use reprise_loadgen::{Mix, PeopleSpec, ServedCriterion, StepReport, Targets, run_people_until};
use reprise_recipe::shown::escaped as show;
use reprise_recipe::{CableStep, Lane, Recipe, Workload};

use super::{Kind, Lanes, NoLane, Produced, StepFailure, StepInput, named_lanes, workload};
use crate::event::Event;
use crate::lanes::cpu_split::CpuSplit;
use crate::os::run_files::within;
use crate::run::context::RunContext;
use crate::run::estimate::{self, Estimate};
use crate::run::estimate::{QUICK_DURATION, QUICK_STEPS, QUICK_WARMUP};
use crate::run::plan::Plan;
use reprise_recipe::reading::count;

impl Kind for CableStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "simulated people on {}: steps of people, each judged served or not{}",
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
            estimate::people(workload, lanes, quick)
        })
    }

    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, lanes, &self.workload)
    }
}

fn run(s: &StepInput, lanes: &mut Lanes, workload_name: &str) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let id = s.id();
    let workload = workload(s.recipe, workload_name)?;
    let split = s.ctx.lane_host.cpu_split(s.recipe.cpu_placement());
    s.note(split.describe("people generator"));
    let CpuSplit {
        servers: server_cpus,
        clients: client_cpus,
        ..
    } = split;
    let to_load = lanes.measurable(s)?;
    super::describe_server_host(s, &to_load, 16)?;
    let loaded = lanes.for_each_started(ctx, id, &to_load, &server_cpus, |_, lane, port| {
        let name = lane.name.to_string();
        let mut spec = people_spec(ctx, workload, lane, port)?;
        spec.threads = client_cpus.as_ref().map_or(1, |c| c.len());
        spec.cpus = client_cpus.clone();
        if ctx.quick {
            spec.steps.truncate(QUICK_STEPS as usize);
            spec.step_duration = spec.step_duration.min(QUICK_DURATION);
            spec.warmup = spec.warmup.min(QUICK_WARMUP);
            s.note(format!(
                "--quick: {} of {} each after {} (a smoke run, not a measurement)",
                people_steps(&spec.steps),
                reprise_recipe::reading::duration_words(spec.step_duration.as_secs_f64()),
                reprise_recipe::reading::duration_words(spec.warmup.as_secs_f64())
            ));
        }
        s.note(format!(
            "lane {name}: {} on {}:{port}, {}",
            people_steps(&spec.steps),
            crate::lanes::remote_engine::url_host(ctx.lane_host.address()),
            count(spec.threads as u32, "generator thread")
        ));
        // Cells across the step, as the plan expects them: every lane's
        // steps of people, a lane that did not boot counted as done.
        let steps = spec.steps.len() as u64;
        let before = to_load
            .iter()
            .position(|l| l.name == lane.name)
            .unwrap_or(0) as u64;
        let cells = Cells {
            done: before * steps,
            total: to_load.len() as u64 * steps,
        };
        let report = run_people_until(&spec, ctx.cancel.stop_handle(), |progress| match progress {
            PeopleProgress::Live(live) => live_event(ctx, id, &name, cells, &live),
            PeopleProgress::Step(report) => s.note(format!("lane {name}: {}", describe(report))),
        })
        .map_err(|source| StepFailure::People {
            lane: name.clone(),
            source,
        })?;
        ctx.results()
            .write(&format!("{id}/{name}/people.json"), &report)?;
        if report.stopped {
            return Err(StepFailure::Cancelled(format!(
                "cancelled during lane {name}; {} of its steps of people kept",
                report.steps.len()
            )));
        }
        s.note(format!(
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
        ));
        Ok(())
    })?;
    if !to_load.is_empty() && loaded == 0 {
        return Err(StepFailure::NoLane(NoLane::Loaded));
    }
    Ok(Produced::default())
}

/// `steps of 250, 500 and 1,000 people`.
fn people_steps(steps: &[u32]) -> String {
    let shown: Vec<String> = steps.iter().map(|n| n.to_string()).collect();
    match shown.split_last() {
        None => "no steps of people".into(),
        Some((last, [])) => format!("one step of {last} people"),
        Some((last, rest)) => format!("steps of {} and {last} people", rest.join(", ")),
    }
}

/// The step's cells (steps of people, every lane's): those finished before
/// the lane's first, and all of them.
#[derive(Clone, Copy)]
struct Cells {
    done: u64,
    total: u64,
}

/// Where the running step stands, as the live measurement the UI shows:
/// navigations per second as its rate, failures as its errors, the cells
/// done of the whole step's.
fn live_event(ctx: &RunContext, id: &str, lane: &str, cells: Cells, live: &LiveStep) {
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
        cells_done: cells.done + live.step as u64,
        cells: cells.total,
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
    let people = workload
        .people
        .as_ref()
        .ok_or_else(|| StepFailure::NoPeople(workload.name.to_string()))?;
    let share = |kind: &str| people.mix.get(kind).copied().unwrap_or(0.0);
    let address = ctx.lane_host.address();
    let mut spec = PeopleSpec::new(format!(
        "http://{}:{port}",
        crate::lanes::remote_engine::url_host(address)
    ));
    spec.targets = Targets::Only(SocketAddr::new(address, port));
    spec.accounts = people.accounts;
    spec.rooms = people.rooms;
    spec.steps = people.steps.clone();
    spec.warmup = lane
        .warmup
        .or(workload.warmup)
        .map_or(estimate::PEOPLE_WARMUP, |w| w.as_duration());
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
    if let Some(password) = &people.password {
        spec.password = password.clone();
    }
    if let Some(file) = &people.sessions {
        let path = within(&ctx.run.path, file)?;
        spec.sessions = Some(read_sessions(&path, people.accounts)?);
    }
    Ok(spec)
}

/// The minted sessions in `path`. A failure names the file and the line,
/// never a line's content ([`roster::SessionsError`] cannot hold any): the
/// file is cookies, and this reason reaches the terminal, events and state.
fn read_sessions(path: &Path, accounts: u32) -> Result<Vec<String>, StepFailure> {
    let text = std::fs::read_to_string(path).map_err(|source| StepFailure::SessionsUnread {
        path: path.to_path_buf(),
        source,
    })?;
    roster::parse_sessions(&text, accounts).map_err(|source| StepFailure::Sessions {
        path: path.to_path_buf(),
        source,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_sessions_file_names_file_and_line_but_not_the_cookie() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sessions.tsv");
        let cookie = "_campfire_session=SGVsbG8gY29va2ll--0123abcd";
        std::fs::write(
            &path,
            format!("person0@example.test\t{cookie}\nperson1@example.test {cookie}\n"),
        )
        .unwrap();
        let Err(failure @ StepFailure::Sessions { .. }) = read_sessions(&path, 2) else {
            panic!("a malformed line is a failed step");
        };
        // The reason is what this test is about: the file and line, no cookie.
        let reason = failure.to_string();
        assert!(
            reason.contains(&format!("{}, line 2: expected", path.display())),
            "{reason}"
        );
        assert!(!reason.contains("SGVsbG8gY29va2ll"), "{reason}");
        assert!(!reason.contains("0123abcd"), "{reason}");
    }
}
