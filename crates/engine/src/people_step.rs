//! The `cable` step: post 004's many-people load against each lane. It starts
//! the lane's server (its command, on its port), drives the workload's
//! `[workload.people]` steps with `reprise_loadgen::run_people`, judges each
//! step by the recipe's served criterion, and writes the whole report to
//! `results/<step>/<lane>/people.json`. A step that is not served is a
//! result, not a failed step; a server that cannot start fails the step.

use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reprise_loadgen::{Mix, PeopleSpec, ServedCriterion, StepReport, run_people};
use reprise_recipe::{Lane, Name, Recipe, Step, Workload};

use crate::event::{Event, Stream};
use crate::run::RunContext;
use crate::workdir::write_atomic;

const DEFAULT_BOOT_BUDGET: Duration = Duration::from_secs(60);
const DEFAULT_WARMUP: Duration = Duration::from_secs(10);

pub(crate) fn run(
    recipe: &Recipe,
    step: &Step,
    workload: &Name,
    lanes: &[Name],
    ctx: &RunContext,
) -> Result<(), String> {
    let id = step.id.as_str();
    let workload = recipe
        .workload(workload.as_str())
        .ok_or_else(|| format!("no workload `{workload}`"))?;
    let lanes: Vec<&Lane> = if lanes.is_empty() {
        recipe.lanes.iter().filter(|l| l.is_runnable()).collect()
    } else {
        lanes
            .iter()
            .map(|n| {
                recipe
                    .lane(n.as_str())
                    .ok_or_else(|| format!("no lane `{n}`"))
            })
            .collect::<Result<_, _>>()?
    };
    let note = |line: String| {
        ctx.events.emit(Event::Log {
            step: id.to_string(),
            stream: Stream::Stdout,
            line,
        })
    };
    for lane in lanes {
        let Some(port) = lane.port else {
            return Err(format!("lane `{}` has no port to load", lane.name));
        };
        let mut spec = people_spec(workload, port)?;
        if let Some(warmup) = lane.warmup.or(workload.warmup) {
            spec.warmup = warmup.as_duration();
        }
        let server = Server::start(lane, port, id, ctx)?;
        note(format!(
            "{}: {} people steps {:?} on 127.0.0.1:{port}",
            lane.name,
            spec.steps.len(),
            spec.steps
        ));
        let report = run_people(&spec, |s| note(format!("{}: {}", lane.name, describe(s))));
        drop(server);
        let report = report.map_err(|e| format!("lane `{}`: {e}", lane.name))?;
        note(format!(
            "{}: {} acknowledged writes, {} missing from the database; {}",
            lane.name,
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
        let out = ctx.run.results().join(id).join(lane.name.as_str());
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        let json = serde_json::to_vec_pretty(&report).map_err(|e| e.to_string())?;
        write_atomic(&out.join("people.json"), &json).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The load the recipe's `[workload.people]` describes, against 127.0.0.1:`port`.
fn people_spec(workload: &Workload, port: u16) -> Result<PeopleSpec, String> {
    let people = workload
        .people
        .as_ref()
        .ok_or_else(|| format!("workload `{}` has no [workload.people]", workload.name))?;
    let share = |kind: &str| people.mix.get(kind).copied().unwrap_or(0.0);
    let mut spec = PeopleSpec::new(format!("http://127.0.0.1:{port}"));
    spec.accounts = people.accounts;
    spec.rooms = people.rooms;
    spec.steps = people.steps.clone();
    spec.warmup = DEFAULT_WARMUP;
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
    Ok(spec)
}

fn describe(s: &StepReport) -> String {
    let nav = s.navigation.as_ref();
    let delivery = s.delivery.as_ref();
    format!(
        "{} people: {} navigations p50 {:.1} ms p99 {:.1} ms; {} deliveries p99 {:.1} ms; {} failures; {} re-sends; generator {:.2} cores, timer lag p99 {:.2} ms; {}",
        s.people,
        nav.map_or(0, |n| n.count),
        nav.map_or(0.0, |n| n.p50_ms),
        nav.map_or(0.0, |n| n.p99_ms),
        delivery.map_or(0, |d| d.count),
        delivery.map_or(0.0, |d| d.p99_ms),
        s.failures,
        s.resends,
        s.generator.cpu_cores,
        s.generator.timer_lag_p99_ms,
        if s.served {
            "served".to_owned()
        } else {
            format!("not served ({})", s.not_served.join("; "))
        }
    )
}

/// The lane's server, stopped when dropped.
struct Server {
    child: Child,
}

impl Server {
    fn start(lane: &Lane, port: u16, step: &str, ctx: &RunContext) -> Result<Server, String> {
        let Some(argv) = lane.command.as_ref().filter(|c| !c.is_empty()) else {
            return Err(format!("lane `{}` has no command", lane.name));
        };
        let dir = match &lane.dir {
            Some(d) if !Path::new(d).is_absolute() && !d.contains("..") => ctx.run.path.join(d),
            Some(d) => return Err(format!("lane dir `{d}` must be inside the run's folder")),
            None => ctx.run.path.clone(),
        };
        let logs = ctx.run.logs();
        std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
        let log_path = logs.join(format!("{step}-{}.log", lane.name));
        let log =
            std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let err_log = log.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(&argv[0])
            .args(&argv[1..])
            .current_dir(&dir)
            .envs(&lane.env)
            .env("REPRISE_RUN_DIR", &ctx.run.path)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err_log)
            .spawn()
            .map_err(|e| format!("starting lane `{}` ({}): {e}", lane.name, argv[0]))?;
        let mut server = Server { child };
        let budget = lane
            .boot_budget
            .map_or(DEFAULT_BOOT_BUDGET, |b| b.as_duration());
        let deadline = Instant::now() + budget;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!(
                    "lane `{}` exited ({status}) before listening on port {port}; see {}",
                    lane.name,
                    log_path.display()
                ));
            }
            if Instant::now() > deadline || ctx.cancel.is_cancelled() {
                return Err(format!(
                    "lane `{}` did not listen on port {port} within {budget:?}",
                    lane.name
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(server)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM first, so the server can finish; SIGKILL after a moment.
        // SAFETY: kill(2) on the pid of a child this struct owns and has not reaped.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
