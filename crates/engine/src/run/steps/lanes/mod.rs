//! The lanes of one attempt at a run, kept behind methods: their servers
//! (a `serve` step leaves them up for `check` and `load`) and the services
//! they need, which of them can run where the run serves its lanes, the
//! signed-in sessions, and the records the steps keep of them
//! (`skipped.json`, `coldstart.json`, the check step's rows). Container
//! lanes' images ([`image`]) and `[[service]]`s ([`service`]) have modules
//! of their own.

mod image;
mod memory;
mod service;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use reprise_harness_files::records::{ColdStart, ShapeSeen, SkippedLane};
use reprise_probe::preflight::LaneAvailability;
use reprise_probe::toolchain::Toolchains;
use reprise_recipe::{CpuPlacement, Lane, Placement, Recipe};
use reprise_verdict::{Deviation, DeviationKind};

use super::check::CheckRow;
use super::{StepFailure, StepInput};
use crate::lanes::allocator::AllocatorSeen;
use crate::lanes::http::LaneClient;
use crate::lanes::server_process::{
    ContainerPlacement, LaneServer, ServerError, ServerSpec, log_tail,
};
use crate::lanes::signed_in::SignedIn;
use crate::os::run_files::within;
use crate::run::context::RunContext;

/// The lanes of this attempt: their running servers (a `serve` step leaves
/// them up for `check` and `load`), which can run here, the signed-in
/// sessions, and the records the steps keep of them (`skipped.json`,
/// `coldstart.json`, the check step's rows).
#[derive(Default)]
pub(crate) struct Lanes {
    servers: BTreeMap<String, LaneServer>,
    /// The `[[service]]`s started for lanes that need them, by name: up
    /// until the run ends, shared by every lane that names them.
    services: BTreeMap<String, LaneServer>,
    /// The services this machine already ran, used as they are and left
    /// running (noted once).
    machine_services: std::collections::BTreeSet<String>,
    /// The recipe's `[[service]]`s, to start them from.
    service_specs: Vec<reprise_recipe::Service>,
    /// The recipe's toolchains, to ask inside a container lane's image.
    toolchain_specs: Vec<reprise_recipe::Toolchain>,
    /// What those images answered that is not the post's version.
    image_deviations: Vec<Deviation>,
    /// Whether each lane can run where the lanes are served, asked once per
    /// attempt.
    here: Option<BTreeMap<String, LaneAvailability>>,
    toolchains: Option<Toolchains>,
    /// Lanes that answered errors in the check step (or could not sign
    /// in): not measured.
    excluded: BTreeMap<String, String>,
    /// A lane's endpoints that answered errors in the check step, by lane
    /// and endpoint, with why: those cells are no data, the lane's other
    /// routes are measured (the harness keeps a lane's other routes).
    failed_endpoints: BTreeMap<(String, String), String>,
    sessions: BTreeMap<String, SignedIn>,
    skipped: Vec<SkippedLane>,
    /// Lanes the run serves whose server did not boot (and has not booted
    /// since) or stopped during a measurement: the run did not measure what
    /// it planned. By lane, the stage.
    failed: BTreeMap<String, String>,
    coldstarts: Vec<ColdStart>,
    checks: Vec<CheckRow>,
    /// What each lane that asked for an allocator was started with.
    allocators: BTreeMap<String, AllocatorSeen>,
    /// The CPUs, workers and threads each lane was given and ran.
    shapes: BTreeMap<String, ShapeSeen>,
    /// How the recipe shares the CPUs between servers and load generator.
    cpu_placement: CpuPlacement,
    /// What each lane was seen to hold, and the lanes stopped to make room.
    memory: memory::LaneMemory,
}

impl Lanes {
    /// The lanes of an attempt at `recipe`, none of them started yet.
    pub fn of(recipe: &Recipe) -> Lanes {
        Lanes {
            service_specs: recipe.services.clone(),
            toolchain_specs: recipe.toolchains.clone(),
            cpu_placement: recipe.cpu_placement(),
            ..Lanes::default()
        }
    }

    /// The lanes a per-lane step runs: the ones it names (or all the plan's).
    pub fn of_step<'r>(s: &StepInput<'r>) -> Vec<&'r Lane> {
        let named = s.step.action.lanes();
        s.recipe
            .lanes
            .iter()
            .filter(|l| s.plan_lanes.iter().any(|p| p == l.name.as_str()))
            .filter(|l| named.is_empty() || named.iter().any(|n| n == &l.name))
            .collect()
    }

    /// The step's lanes that can run here; the others are recorded in
    /// `skipped.json` with why.
    pub fn runnable<'r>(&mut self, s: &StepInput<'r>) -> Result<Vec<&'r Lane>, StepFailure> {
        let mut lanes = Vec::new();
        for lane in Lanes::of_step(s) {
            match self.why_not_here(s, lane) {
                Some(reason) => self.skip(s.ctx, s.id(), &lane.name, "preflight", reason, None)?,
                None => lanes.push(lane),
            }
        }
        Ok(lanes)
    }

    /// The lanes a measuring step (`load`, `cable`) runs: the runnable ones
    /// less those the check step left out (noted).
    pub fn measurable<'r>(&mut self, s: &StepInput<'r>) -> Result<Vec<&'r Lane>, StepFailure> {
        let mut lanes = self.runnable(s)?;
        lanes.retain(|lane| match self.excluded.get(lane.name.as_str()) {
            Some(reason) => {
                s.note(format!("lane {} is not measured: {reason}", lane.name));
                false
            }
            None => true,
        });
        Ok(lanes)
    }

    /// Why `lane` cannot run here, by the probe's rule (its toolchains asked
    /// once per attempt, the container engine connected to once).
    fn why_not_here(&mut self, s: &StepInput, lane: &Lane) -> Option<String> {
        self.ask_toolchains(s);
        match self.here.as_ref()?.get(lane.name.as_str())? {
            LaneAvailability::Runs => None,
            LaneAvailability::Blocked { why, .. } | LaneAvailability::PublishedOnly { why } => {
                Some(why.clone())
            }
        }
    }

    /// The recipe's toolchains as this attempt found them, asked once (the
    /// machine's record names them, whatever the steps run).
    pub fn toolchains_asked(&mut self, s: &StepInput) -> &Toolchains {
        self.ask_toolchains(s);
        self.toolchains.get_or_insert_default()
    }

    /// Asks the recipe's toolchains their versions, once per attempt, and
    /// which lanes can run here by them.
    fn ask_toolchains(&mut self, s: &StepInput) {
        if self.here.is_none() {
            let tools = reprise_probe::preflight::probe_recipe_toolchains(
                s.recipe,
                &s.ctx.search_path(),
                Duration::from_secs(10),
            );
            let engine = s.ctx.lane_host.ask_engine(s.recipe).ok().flatten();
            let here = s
                .ctx
                .lane_host
                .lanes_here(s.recipe, &tools, engine.as_ref());
            let found: Vec<Deviation> =
                reprise_probe::preflight::differing_toolchains(s.recipe, &tools)
                    .into_iter()
                    .map(|(tc, here)| Deviation {
                        kind: DeviationKind::Toolchain,
                        what: format!("{}: {here} instead of {}", tc.name, tc.version),
                        lanes: s
                            .recipe
                            .lanes
                            .iter()
                            .filter(|l| l.placement != Placement::Container)
                            .filter(|l| s.recipe.lane_toolchains(l).any(|t| t.name == tc.name))
                            .map(|l| l.name.to_string())
                            .collect(),
                    })
                    .collect();
            if let Err(e) = s
                .ctx
                .results()
                .record_deviations(Some(DeviationKind::Toolchain), &found)
            {
                s.note(format!("cannot record the toolchains that differ: {e}"));
            }
            self.here = Some(here.into_iter().collect());
            self.toolchains = Some(tools);
        }
    }

    /// Records a lane that did not run (or stopped), replacing an earlier
    /// entry of the same lane and stage, and rewrites `skipped.json`. With
    /// `log` the lane server's log's tail goes with it.
    pub fn skip(
        &mut self,
        ctx: &RunContext,
        step: &str,
        lane: &str,
        stage: &str,
        reason: String,
        log: Option<&Path>,
    ) -> Result<(), StepFailure> {
        ctx.note(step, format!("lane {lane} skipped ({stage}): {reason}"));
        let entry = SkippedLane {
            target: lane.to_string(),
            stage: stage.to_string(),
            reason,
            log_tail: log.map(|l| log_tail(l, 20)).unwrap_or_default(),
        };
        if matches!(stage, "boot" | "load") {
            self.failed.insert(lane.to_string(), stage.to_string());
        }
        self.skipped
            .retain(|s| !(s.target == entry.target && s.stage == entry.stage));
        self.skipped.push(entry);
        ctx.results()
            .write(reprise_harness_files::SKIPPED_FILE, &self.skipped)
    }

    /// The server of `lane`, started when it is not running; a server that
    /// does not start skips the lane (stage `boot`, with its log's tail) and
    /// answers `None`.
    pub fn start(
        &mut self,
        ctx: &RunContext,
        step: &str,
        lane: &Lane,
        cpus: &Option<Vec<usize>>,
    ) -> Result<Option<&mut LaneServer>, StepFailure> {
        let name = lane.name.to_string();
        if let Err(why) = self.start_services(ctx, step, lane) {
            self.skip(ctx, step, &name, "boot", why.to_string(), None)?;
            return Ok(None);
        }
        let running = self.servers.get_mut(&name).is_some_and(|s| s.is_running());
        if !running {
            if let Some(mut old) = self.servers.remove(&name)
                && let Err(e @ ServerError::Escaped { .. }) = old.stop()
            {
                ctx.escaped(step, format!("lane {name}: {e}"), vec![name.clone()])?;
            }
            if let (Placement::Container, Some(image)) = (lane.placement, &lane.image) {
                let asked = self.prepare_image(ctx, step, lane, image);
                match asked {
                    Ok(found) => {
                        self.image_deviations.retain(|d| d.lanes != [name.clone()]);
                        self.image_deviations.extend(found);
                        ctx.results().record_deviations(
                            Some(DeviationKind::Image),
                            &self.image_deviations,
                        )?;
                    }
                    Err(why) => {
                        self.skip(ctx, step, &name, "boot", why, None)?;
                        return Ok(None);
                    }
                }
            }
            self.make_room(ctx, step, &name)?;
            let started =
                server_spec(ctx, lane, cpus.clone()).and_then(|spec| LaneServer::start(&spec));
            match started {
                Ok(server) => {
                    self.memory.seen(&name, server.memory().rss_kb);
                    self.memory.used(&name);
                    if let Some(seen) = AllocatorSeen::of(lane, &server) {
                        self.started_with(ctx, step, seen)?;
                    }
                    self.shaped(ctx, step, crate::lanes::shape::seen(lane, &server, cpus))?;
                    self.servers.insert(name.clone(), server);
                    if self.failed.get(&name).is_some_and(|stage| stage == "boot") {
                        self.failed.remove(&name);
                    }
                }
                Err(e) => {
                    let log = ctx.lane_log(&name);
                    self.skip(ctx, step, &name, "boot", e.to_string(), Some(&log))?;
                    return Ok(None);
                }
            }
        }
        Ok(self.servers.get_mut(&name))
    }

    /// Stops the lanes idle longest until `name`, about to start, fits in
    /// the memory its lanes may hold ([`memory`]), each said; they are
    /// parked, and start again, cold, when a step next needs them.
    fn make_room(&mut self, ctx: &RunContext, step: &str, name: &str) -> Result<(), StepFailure> {
        let on_this_machine = matches!(
            ctx.lane_host,
            crate::lanes::placement::LaneHost::ThisMachine
        );
        loop {
            let running: Vec<String> = self
                .servers
                .iter_mut()
                .filter_map(|(n, server)| {
                    (n.as_str() != name && server.is_running()).then(|| n.clone())
                })
                .collect();
            let machine = on_this_machine.then(memory::machine_memory).flatten();
            let Some(room) = self
                .memory
                .room(name, &running, machine, ctx.lane_memory_limit_kb)
            else {
                return Ok(());
            };
            let mb = |kb: u64| kb / 1024;
            let Some(idle) = self.memory.idlest(&running).cloned() else {
                ctx.note(
                    step,
                    format!(
                        "lane {name} may not fit: it was seen holding {} MB, and {} MB are free with no other lane up",
                        mb(room.needs_kb),
                        mb(room.free_kb)
                    ),
                );
                return Ok(());
            };
            ctx.note(
                step,
                format!(
                    "lane {idle} stopped to make room for lane {name} ({} MB needed, {} MB free): it starts again, cold, when it is next needed",
                    mb(room.needs_kb),
                    mb(room.free_kb)
                ),
            );
            match self.stop(&idle) {
                Err(e @ ServerError::Escaped { .. }) => {
                    ctx.escaped(step, format!("lane {idle}: {e}"), vec![idle.clone()])?
                }
                Err(e) => ctx.note(step, format!("lane {idle}: {e}")),
                Ok(()) => {}
            }
            self.memory.parked.insert(idle);
        }
    }

    /// Whether `lane` was stopped to make room for another.
    pub fn is_parked(&self, lane: &str) -> bool {
        self.memory.parked.contains(lane)
    }

    /// `lane` was measured now, its process tree holding `rss_kb` at the
    /// peak: what it is taken to hold from now on.
    pub fn measured(&mut self, lane: &str, rss_kb: Option<u64>) {
        if let Some(kb) = rss_kb {
            self.memory.seen(lane, kb);
        }
        self.memory.used(lane);
    }

    /// Records what a lane's server, just up, was started with:
    /// `allocators.json`, a note, and a deviation where it is not what the
    /// recipe asked for.
    fn started_with(
        &mut self,
        ctx: &RunContext,
        step: &str,
        seen: AllocatorSeen,
    ) -> Result<(), StepFailure> {
        ctx.note(step, format!("lane {}: {seen}", seen.lane));
        self.allocators.insert(seen.lane.clone(), seen);
        record_seen(
            ctx,
            "allocators.json",
            &self.allocators,
            DeviationKind::Allocator,
            |s| !s.as_asked(),
        )
    }

    /// Records what a lane's server, just up, was given and ran
    /// (`results/shapes.json`); a server that ran other workers than it was
    /// given is a deviation of the run.
    fn shaped(&mut self, ctx: &RunContext, step: &str, seen: ShapeSeen) -> Result<(), StepFailure> {
        ctx.note(step, seen.to_string());
        self.shapes.insert(seen.lane.clone(), seen);
        record_seen(
            ctx,
            reprise_harness_files::SHAPES_FILE,
            &self.shapes,
            DeviationKind::Shape,
            |s| !s.as_asked(),
        )
    }

    /// Each of `lanes` with its server up on `cpus` (started where it is not
    /// running; lanes whose server does not start are skipped), handed to `f`
    /// with the server's port. Answers how many reached `f`.
    pub fn for_each_started(
        &mut self,
        ctx: &RunContext,
        step: &str,
        lanes: &[&Lane],
        cpus: &Option<Vec<usize>>,
        mut f: impl FnMut(&mut Lanes, &Lane, u16) -> Result<(), StepFailure>,
    ) -> Result<usize, StepFailure> {
        let mut started = 0;
        for &lane in lanes {
            if ctx.cancel.is_cancelled() {
                return Err(StepFailure::cancelled());
            }
            let Some(server) = self.start(ctx, step, lane, cpus)? else {
                continue;
            };
            let port = server.spec.port;
            f(self, lane, port)?;
            started += 1;
        }
        Ok(started)
    }

    /// Stops `lane`'s server, where one is running: the next start is cold.
    pub fn stop(&mut self, lane: &str) -> Result<(), ServerError> {
        match self.servers.remove(lane) {
            Some(mut old) => old.stop(),
            None => Ok(()),
        }
    }

    /// Boot `rep` of `lane` from cold: its server stopped (a process that
    /// escaped its group recorded, any other failure to stop ending the
    /// step), started again and timed from its spawn to its first answer
    /// and to its health path answering, or, with `signed_in` (a page and
    /// the session's headers), to that page answering 200: polled every
    /// 50 ms within the boot budget, as the harness's `cold_start` polls
    /// it, and recorded with the last status it gave where it never did.
    /// Said in the step's log; `None` where the server did not start
    /// (skipped, with its log's tail, by [`Lanes::start`]).
    pub fn cold_start(
        &mut self,
        ctx: &RunContext,
        step: &str,
        lane: &Lane,
        rep: u32,
        signed_in: Option<(&str, &[(String, String)])>,
    ) -> Result<Option<ColdStart>, StepFailure> {
        let name = lane.name.to_string();
        match self.stop(&name) {
            Err(e @ ServerError::Escaped { .. }) => {
                ctx.escaped(step, format!("lane {name}: {e}"), vec![name.clone()])?
            }
            stopped => stopped?,
        }
        let cpus = ctx.lane_host.cpu_split(self.cpu_placement).servers;
        let Some(server) = self.start(ctx, step, lane, &cpus)? else {
            return Ok(None);
        };
        let (mut page_ms, mut page_code) = (server.page_ms, 200);
        let mut what = "its health path".to_string();
        if let Some((page, headers)) = signed_in {
            let client = LaneClient::new(ctx.lane_host.address())?;
            let (port, budget) = (server.spec.port, server.spec.boot_budget);
            page_code = 0;
            while server.spawned.elapsed() < budget && !ctx.cancel.is_cancelled() {
                page_code = client
                    .get(port, page, headers, Duration::from_secs(5))
                    .map_or(0, |r| r.status);
                if page_code == 200 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            page_ms = server.spawned.elapsed().as_secs_f64() * 1000.0;
            what = format!("the signed-in {page}");
        }
        let memory = server.memory();
        ctx.note(
            step,
            format!(
                "lane {name} boot {rep}: accepts after {:.0} ms, {what} answers {} after {page_ms:.0} ms; {} processes, RSS {} kB",
                server.accept_ms,
                match page_code {
                    200 => "200".to_string(),
                    0 => "nothing".to_string(),
                    code => format!("{code}, not 200,"),
                },
                memory.processes,
                memory.rss_kb
            ),
        );
        Ok(Some(ColdStart {
            target: name,
            rep,
            accept_ms: server.accept_ms,
            page_ms,
            page_code,
        }))
    }

    /// `lane`'s running server.
    pub fn server(&self, lane: &str) -> Option<&LaneServer> {
        self.servers.get(lane)
    }

    /// Whether `lane`'s server is up.
    pub fn is_running(&mut self, lane: &str) -> bool {
        self.servers.get_mut(lane).is_some_and(|s| s.is_running())
    }

    /// Keeps a lane's signed-in session for the steps after.
    pub fn signed_in(&mut self, lane: &str, session: SignedIn) {
        self.sessions.insert(lane.to_string(), session);
    }

    /// `lane`'s signed-in session, where it has one.
    pub fn session(&self, lane: &str) -> Option<&SignedIn> {
        self.sessions.get(lane)
    }

    /// Leaves `lane` out of the measuring steps, with why.
    pub fn exclude(&mut self, lane: &str, reason: String) {
        self.excluded.insert(lane.to_string(), reason);
    }

    /// Leaves `lane`'s `endpoint` out of the measuring steps, with why.
    pub fn exclude_endpoint(&mut self, lane: &str, endpoint: &str, reason: String) {
        self.failed_endpoints
            .insert((lane.to_string(), endpoint.to_string()), reason);
    }

    /// Why `lane`'s `endpoint` is not measured, where the check step left
    /// it out.
    pub fn endpoint_excluded(&self, lane: &str, endpoint: &str) -> Option<&str> {
        self.failed_endpoints
            .get(&(lane.to_string(), endpoint.to_string()))
            .map(String::as_str)
    }

    /// Records a cold start of a lane's server.
    pub fn booted(&mut self, coldstart: ColdStart) {
        self.coldstarts.push(coldstart);
    }

    /// `lane`'s cold starts timed again (to a signed-in page), in place of
    /// those its serve step recorded.
    pub fn booted_again(&mut self, lane: &str, boots: Vec<ColdStart>) {
        self.coldstarts.retain(|c| c.target != lane);
        self.coldstarts.extend(boots);
    }

    /// This attempt's cold starts.
    pub fn coldstarts(&self) -> &[ColdStart] {
        &self.coldstarts
    }

    /// Keeps the check step's rows.
    pub fn checked(&mut self, rows: Vec<CheckRow>) {
        self.checks = rows;
    }

    /// This attempt's check rows.
    pub fn checks(&self) -> &[CheckRow] {
        &self.checks
    }

    /// The lanes recorded as not run, or stopped, with why.
    pub fn skipped(&self) -> &[SkippedLane] {
        &self.skipped
    }

    /// The recipe's toolchains as found for this attempt, once a step asked
    /// which lanes can run.
    pub fn toolchains(&self) -> Option<&Toolchains> {
        self.toolchains.as_ref()
    }

    /// The lanes whose server did not boot or stopped during a measurement.
    pub fn failed(&self) -> Vec<String> {
        self.failed.keys().cloned().collect()
    }

    /// Stops every server; answers each that left processes behind or
    /// had one move out of its cgroup: which, and what.
    pub fn stop_all(&mut self) -> Vec<(Stopped, ServerError)> {
        let mut problems = Vec::new();
        for (name, mut server) in std::mem::take(&mut self.servers) {
            if let Err(e) = server.stop() {
                problems.push((Stopped::Lane(name), e));
            }
        }
        // The services last: the lanes may talk to them until they stop.
        for (name, mut service) in std::mem::take(&mut self.services) {
            if let Err(e) = service.stop() {
                problems.push((Stopped::Service(name), e));
            }
        }
        problems
    }
}

/// A server the run stopped: a lane's, or a service's (named as the
/// recipe names them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    Lane(String),
    Service(String),
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Lane(name) => write!(f, "lane {name}"),
            Stopped::Service(name) => write!(f, "service {name}"),
        }
    }
}

/// How a lane's server starts: its command, dir and env, with the shape
/// (workers, threads, heap) also in the environment for apps that read it.
/// What the lanes' servers were seen to run, by lane, written whole to the
/// results' `file`; each that `differs` is a deviation of `kind` of its lane,
/// in the words it displays as.
fn record_seen<T: serde::Serialize + std::fmt::Display>(
    ctx: &RunContext,
    file: &str,
    seen: &BTreeMap<String, T>,
    kind: DeviationKind,
    differs: impl Fn(&T) -> bool,
) -> Result<(), StepFailure> {
    let rows: Vec<&T> = seen.values().collect();
    ctx.results().write(file, &rows)?;
    let found: Vec<Deviation> = seen
        .iter()
        .filter(|(_, s)| differs(s))
        .map(|(lane, s)| Deviation {
            kind,
            what: s.to_string(),
            lanes: vec![lane.clone()],
        })
        .collect();
    ctx.results().record_deviations(Some(kind), &found)
}

fn server_spec(
    ctx: &RunContext,
    lane: &Lane,
    cpus: Option<Vec<usize>>,
) -> Result<ServerSpec, ServerError> {
    let name = lane.name.to_string();
    let argv = ctx.lane_host.lane_command(lane);
    let dir = match &lane.dir {
        Some(d) => within(&ctx.run.path, d).map_err(|_| ServerError::Spawn {
            program: argv.first().cloned().unwrap_or_default(),
            source: std::io::Error::other(format!(
                "the lane's dir `{d}` must be inside the run's folder"
            )),
        })?,
        None => ctx.run.path.clone(),
    };
    // A container carries its own toolchains; the host's are for the host.
    let mut env = match lane.placement {
        Placement::Container => BTreeMap::new(),
        _ => ctx.toolchain_env.clone(),
    };
    env.extend(lane.env.clone());
    // The mark `reprise clean` finds a killed run's processes on this
    // machine by. A container's processes are its engine's, ended with the
    // container (found by its label): unmarked, so that where the engine
    // shares this machine's kernel they are never signalled from outside it.
    if lane.placement != Placement::Container {
        env.insert("REPRISE_RUN_DIR".into(), ctx.run.path.display().to_string());
    }
    let (workers, threads) = crate::lanes::shape::asked(lane, &cpus);
    if let Some(w) = workers {
        env.entry("WEB_CONCURRENCY".into()).or_insert(w.to_string());
    }
    if let Some(t) = threads {
        env.entry("RAILS_MAX_THREADS".into())
            .or_insert(t.to_string());
    }
    if let Some(heap) = lane.heap_mb {
        env.entry("JAVA_OPTS".into())
            .or_insert(format!("-Xmx{heap}m"));
    }
    if let Some(port) = lane.port {
        env.entry("PORT".into()).or_insert(port.to_string());
    }
    // The harness preloads the allocator only where it finds it.
    env.extend(crate::lanes::allocator::preload_env(Path::new("/"), lane));
    let boot_budget = lane
        .boot_budget
        .map(|b| b.as_duration())
        .unwrap_or(Duration::from_secs(60));
    Ok(ServerSpec {
        lane: name.clone(),
        argv,
        dir,
        env,
        address: ctx.lane_host.address(),
        port: lane.port.unwrap_or(0),
        health: Some(lane.health.clone().unwrap_or_else(|| "/".into())),
        boot_budget,
        cpus,
        log: ctx.run.log(&format!("lane-{name}"))?,
        grace: ctx.grace,
        container: (lane.placement == Placement::Container).then(|| ContainerPlacement {
            image: lane.image.clone().unwrap_or_default(),
            run_id: ctx.run.id.clone(),
            mount: ctx.run.path.clone(),
            host: ctx.lane_host.clone(),
        }),
        processes: Some(ctx.processes()),
    })
}
