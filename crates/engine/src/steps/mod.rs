//! The steps a recipe is made of, one module per kind, over what they share:
//! the run's [`RunContext`], the lanes of this attempt ([`Lanes`]: their
//! servers, sessions, which can run here, and what was recorded about
//! them), and a typed [`StepFailure`]. `crate::run` plans the order, decides
//! what is kept from an earlier attempt and dispatches here; a step module
//! implements one kind and nothing else.

pub(crate) mod build;
pub(crate) mod bundle;
pub(crate) mod cable;
pub(crate) mod check;
pub(crate) mod clone;
pub(crate) mod command;
pub(crate) mod digest;
pub(crate) mod emit;
mod image;
pub(crate) mod load;
pub(crate) mod seed;
pub(crate) mod serve;
mod service;
pub(crate) mod sign_in;
pub(crate) mod stage;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use reprise_harness::records::{ColdStart, SkippedLane};
use reprise_probe::preflight::LaneHere;
use reprise_probe::toolchain::{SearchPath, Toolchains};
use reprise_recipe::{Lane, Placement, Recipe, Step};
use reprise_verdict::{Deviation, DeviationKind};
use serde::Serialize;

use crate::event::{CancelToken, Event, EventSink, Stream};
use crate::lane_server::{ContainerPlacement, LaneServer, ServerError, ServerSpec, log_tail};
use crate::run_processes::RunProcesses;
use crate::runner::host::{self, Ending, HostCommand, HostError};
use crate::server_host::ServerHost;
use crate::web_session::Session;
use crate::workdir::{DataDir, RunDir, WorkDirError, write_atomic};

/// Where a run happens and who hears about it.
pub struct RunContext<'a> {
    pub data: DataDir,
    pub run: RunDir,
    /// The checkout whose `checksums/` holds the tree manifests.
    pub checksums_root: PathBuf,
    pub cancel: CancelToken,
    pub events: &'a dyn EventSink,
    /// How long a process has after SIGTERM before SIGKILL.
    pub grace: Duration,
    /// `--quick`: cap load durations, warm-ups, runs and cold starts, for
    /// tests and smoke runs (the results say so).
    pub quick: bool,
    /// `--strict`: a step whose outputs changed since it finished stops the
    /// run instead of being redone.
    pub strict: bool,
    /// Sources fetched from elsewhere than the recipe says (a mirror, a
    /// fork, an offline copy), by source id; the pinned revision still holds.
    pub source_overrides: BTreeMap<String, String>,
    /// `--generator`: the load generator for every workload, instead of
    /// each workload's own.
    pub generator: Option<reprise_recipe::Generator>,
    /// How this run differs from the post, as known before it starts
    /// (sources from elsewhere, a smoke run, a recipe not the reviewed one);
    /// the steps add what they find (toolchains at other versions).
    pub deviations: Vec<Deviation>,
    /// The environment the recipe's toolchains need, under every step's and
    /// lane's own: what mise resolves for the recipe's setup (`reprise
    /// setup`), or nothing where it has none.
    pub toolchain_env: BTreeMap<String, String>,
    /// `--server-host`: the lanes run on another machine's engine, the load
    /// generators here; `None` serves them on this machine.
    pub server_host: Option<ServerHost>,
}

/// Reprise's record of how a run differs from the post.
pub const DEVIATIONS_FILE: &str = "deviations.json";

impl<'a> RunContext<'a> {
    /// A context with the defaults: 5 s of grace after SIGTERM, a full (not
    /// quick) run, redoing what changed, sources from the recipe's URLs, and
    /// no deviation known before the run starts.
    pub fn new(
        data: DataDir,
        run: RunDir,
        checksums_root: PathBuf,
        cancel: CancelToken,
        events: &'a dyn EventSink,
    ) -> RunContext<'a> {
        RunContext {
            data,
            run,
            checksums_root,
            cancel,
            events,
            grace: Duration::from_secs(5),
            quick: false,
            strict: false,
            source_overrides: BTreeMap::new(),
            generator: None,
            deviations: Vec::new(),
            toolchain_env: BTreeMap::new(),
            server_host: None,
        }
    }

    /// Where the lanes listen and the load generators target: 127.0.0.1, or
    /// the server host's address.
    pub fn lane_address(&self) -> IpAddr {
        match &self.server_host {
            Some(host) => host.address,
            None => IpAddr::V4(Ipv4Addr::LOCALHOST),
        }
    }

    /// The engine the lanes' containers run on: the server host's, or this
    /// machine's (`DOCKER_HOST` or the default socket).
    pub(crate) fn container_runner(
        &self,
    ) -> Result<crate::runner::container::ContainerRunner, crate::runner::container::ContainerError>
    {
        crate::runner::container::ContainerRunner::connect_on(
            self.server_host.as_ref().map(|h| &h.endpoint),
        )
    }

    /// The CPUs the servers and the load generator get: split between them
    /// on one machine; on a server host each has its own machine.
    pub(crate) fn cpu_split(&self) -> CpuSplit {
        match self.server_host {
            Some(_) => CpuSplit {
                servers: None,
                clients: Some(reprise_cpus::allowed_cpus()).filter(|c| !c.is_empty()),
                remote: true,
            },
            None => CpuSplit::here(),
        }
    }

    /// Where the toolchains of this run are looked for: the PATH of its
    /// toolchain environment, then mise's installs.
    pub(crate) fn search_path(&self) -> SearchPath {
        crate::mise::search_path(&self.toolchain_env)
    }

    /// A note of the engine's in the step's log.
    pub(crate) fn note(&self, step: &str, line: String) {
        self.events.emit(Event::Log {
            step: step.to_string(),
            stream: Stream::Reprise,
            line,
        });
    }

    /// Rewrites `results/deviations.json`: the deviations known at this
    /// attempt's start, what earlier attempts' steps found (a step kept from
    /// one still stands on it), and `found`, which replaces the earlier
    /// findings of its `kind`.
    pub(crate) fn record_deviations(
        &self,
        kind: Option<DeviationKind>,
        found: &[Deviation],
    ) -> Result<(), StepFailure> {
        let earlier: Vec<Deviation> = std::fs::read(self.run.results().join(DEVIATIONS_FILE))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        let mut all = self.deviations.clone();
        for d in earlier {
            if !d.kind.known_before_run() && Some(d.kind) != kind && !all.contains(&d) {
                all.push(d);
            }
        }
        all.extend(found.iter().cloned());
        self.write_result(DEVIATIONS_FILE, &all)
    }

    /// Writes a file of `results/` as pretty JSON.
    pub(crate) fn write_result<T: Serialize + ?Sized>(
        &self,
        name: &str,
        value: &T,
    ) -> Result<(), StepFailure> {
        let path = within(&self.run.results(), name)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| StepFailure::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        write_atomic(&path, &reprise_harness::pretty(value))?;
        Ok(())
    }

    /// Where the run records the process groups it starts.
    pub(crate) fn processes(&self) -> RunProcesses {
        RunProcesses::of(&self.run)
    }

    /// The log file of a lane's server.
    pub(crate) fn lane_log(&self, lane: &str) -> PathBuf {
        self.run.logs().join(format!("lane-{lane}.log"))
    }
}

/// What one step is given: the recipe, the step, the run, and the lanes the
/// plan selected.
pub(crate) struct StepInput<'a> {
    pub recipe: &'a Recipe,
    pub step: &'a Step,
    pub ctx: &'a RunContext<'a>,
    pub plan_lanes: &'a [String],
}

impl StepInput<'_> {
    pub fn id(&self) -> &str {
        self.step.id.as_str()
    }

    pub fn note(&self, line: String) {
        self.ctx.note(self.id(), line)
    }
}

/// What a finished step leaves in its record besides "finished".
#[derive(Debug, Default)]
pub(crate) struct Done {
    /// The commit a clone checked out.
    pub commit: Option<String>,
    /// The digest of what the step produced, where it is not a folder the
    /// run digests itself (a staged database).
    pub outputs: Option<String>,
}

/// Why a step did not finish. A cancel is told apart from a failure; every
/// other cause keeps its own error type until it is recorded as text.
#[derive(Debug, thiserror::Error)]
pub enum StepFailure {
    #[error("{0}")]
    Cancelled(String),
    /// The step ran and judged the outcome a failure (no lane served, a tree
    /// unlike its manifest, …).
    #[error("{0}")]
    Failed(String),
    #[error(transparent)]
    Source(#[from] crate::source::SourceError),
    #[error(transparent)]
    Process(#[from] HostError),
    #[error(transparent)]
    Digest(#[from] crate::tree_digest::DigestError),
    #[error(transparent)]
    Lockfile(#[from] crate::lockfile::BundleError),
    #[error(transparent)]
    Database(#[from] crate::database::DatabaseError),
    #[error(transparent)]
    Server(#[from] ServerError),
    #[error(transparent)]
    Harness(#[from] reprise_harness::HarnessError),
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl StepFailure {
    pub fn is_cancelled(&self) -> bool {
        matches!(self, StepFailure::Cancelled(_))
            || matches!(
                self,
                StepFailure::Source(crate::source::SourceError::Cancelled { .. })
            )
    }

    pub(crate) fn cancelled() -> StepFailure {
        StepFailure::Cancelled("cancelled".into())
    }
}

/// `base/rel`, where `rel` is a relative path without `..` and no part of
/// it that exists is a symlink leading out of `base` (a step may leave one
/// behind: Reprise never writes through it). A dangling symlink is refused
/// too: writing through it would create its target, wherever that is.
pub(crate) fn within(base: &Path, rel: &str) -> Result<PathBuf, StepFailure> {
    let path = Path::new(rel);
    if !path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(StepFailure::Failed(format!(
            "`{}` must be a relative path inside the run's folder, without `..`",
            reprise_recipe::shown::shown(rel)
        )));
    }
    let root = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
    let mut at = base.to_path_buf();
    for part in path.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let leads_out = match at.canonicalize() {
                    Ok(target) => !target.starts_with(&root),
                    Err(_) => true,
                };
                if leads_out {
                    return Err(StepFailure::Failed(format!(
                        "`{}` leads out of {} through the symlink {}: Reprise does not write \
                         outside the run's folder",
                        reprise_recipe::shown::shown(rel),
                        base.display(),
                        at.display()
                    )));
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(base.join(path))
}

/// Runs a step's command in the run's folder (or `dir` inside it), its
/// output as log events and in `logs/<step>.log`.
pub(crate) fn run_process(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
    extra_env: &[(&str, String)],
) -> Result<(), StepFailure> {
    let ctx = s.ctx;
    let id = s.id();
    let cwd = match dir {
        Some(d) => within(&ctx.run.path, d)?,
        None => ctx.run.path.clone(),
    };
    let mut cmd = HostCommand::new(id, command.to_vec(), cwd);
    cmd.env = ctx.toolchain_env.clone();
    cmd.env.extend(env.clone());
    cmd.env
        .insert("REPRISE_RUN_DIR".into(), ctx.run.path.display().to_string());
    for (k, v) in extra_env {
        cmd.env.insert(k.to_string(), v.clone());
    }
    cmd.timeout = s.step.timeout.map(|t| t.as_duration());
    cmd.grace = ctx.grace;
    cmd.log = Some(ctx.run.logs().join(format!("{id}.log")));
    cmd.processes = Some(ctx.processes());
    let outcome = host::run(&cmd, &ctx.cancel, ctx.events)?;
    let program = command.first().map(String::as_str).unwrap_or("");
    match outcome.failure(program) {
        None => Ok(()),
        Some(reason) if outcome.ending == Ending::Cancelled => Err(StepFailure::Cancelled(reason)),
        Some(reason) => Err(StepFailure::Failed(reason)),
    }
}

/// The workload a step names.
pub(crate) fn workload<'r>(
    recipe: &'r Recipe,
    name: &str,
) -> Result<&'r reprise_recipe::Workload, StepFailure> {
    recipe
        .workloads
        .iter()
        .find(|w| w.name.as_str() == name)
        .ok_or_else(|| StepFailure::Failed(format!("no workload `{name}` in this recipe")))
}

/// With the lanes on a server host, before a measuring step starts its
/// lanes: that host's engine, hardware and link in
/// `results/env.server.json`, the ceiling loaded at `connections`. Once a
/// run; a cancelled capture writes nothing (a resume captures again).
pub(crate) fn describe_server_host(
    s: &StepInput,
    lanes: &[&reprise_recipe::Lane],
    connections: usize,
) -> Result<(), StepFailure> {
    use crate::server_host::{SERVER_ENV_FILE, ServerHostEnv};
    let ctx = s.ctx;
    let Some(host) = &ctx.server_host else {
        return Ok(());
    };
    if lanes.is_empty() || ctx.run.results().join(SERVER_ENV_FILE).exists() {
        return Ok(());
    }
    let image = lanes.iter().find_map(|l| l.image.as_deref());
    s.note(
        "the server host: asking its engine, timing the link, probing its hardware in a container, loading Reprise's reference server there".into(),
    );
    let engine = host.ask_engine().ok();
    let Some(env) =
        ServerHostEnv::capture(host, engine, image, &ctx.run.id, connections, &ctx.cancel)
    else {
        return Err(StepFailure::cancelled());
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
    ctx.write_result(SERVER_ENV_FILE, &env)?;
    Ok(())
}

/// The CPUs the servers and the load generator get: the first half of this
/// process's CPUs for the servers, the rest for the client, where there are
/// at least two (with one, both run anywhere).
pub(crate) struct CpuSplit {
    pub servers: Option<Vec<usize>>,
    pub clients: Option<Vec<usize>>,
    /// The servers run on the server host, not on this machine.
    pub remote: bool,
}

impl CpuSplit {
    pub fn here() -> CpuSplit {
        let cpus = reprise_cpus::allowed_cpus();
        if cpus.len() < 2 {
            return CpuSplit {
                servers: None,
                clients: None,
                remote: false,
            };
        }
        let half = cpus.len() / 2;
        CpuSplit {
            servers: Some(cpus[..half].to_vec()),
            clients: Some(cpus[half..].to_vec()),
            remote: false,
        }
    }

    /// Says in the step's log where the servers and the `client` run.
    pub fn note(&self, s: &StepInput, client: &str) {
        s.note(self.describe(client));
    }

    /// `servers on CPU 0, load generator on CPU 1`; `servers on CPUs 0-5,
    /// load generator on CPUs 6-11`.
    pub fn describe(&self, client: &str) -> String {
        if self.remote {
            return format!("servers on the server host, {client} on this machine's CPUs");
        }
        match (&self.servers, &self.clients) {
            (Some(servers), Some(clients)) => format!(
                "servers on {}, {client} on {}",
                cpu_words(servers),
                cpu_words(clients)
            ),
            _ => format!("servers and {client} on any CPU (one CPU: no split)"),
        }
    }
}

/// `CPU 0`, `CPUs 0-5`, `CPUs 0,2,4`: the kernel's list form.
pub(crate) fn cpu_words(cpus: &[usize]) -> String {
    let list: Vec<u32> = cpus.iter().map(|&c| c as u32).collect();
    format!(
        "CPU{} {}",
        if cpus.len() == 1 { "" } else { "s" },
        reprise_probe::format_cpu_list(&list)
    )
}

/// The lanes of this attempt: their running servers (a `serve` step leaves
/// them up for `check` and `load`), which can run here, the signed-in
/// sessions, and the records the steps keep of them (`skipped.json`,
/// `coldstart.json`, the check step's rows).
#[derive(Default)]
pub(crate) struct Lanes {
    pub servers: BTreeMap<String, LaneServer>,
    /// The `[[service]]`s started for lanes that need them, by name: up
    /// until the run ends, shared by every lane that names them.
    pub services: BTreeMap<String, LaneServer>,
    /// The recipe's `[[service]]`s, to start them from.
    pub service_specs: Vec<reprise_recipe::Service>,
    /// The recipe's toolchains, to ask inside a container lane's image.
    pub toolchain_specs: Vec<reprise_recipe::Toolchain>,
    /// What those images answered that is not the post's version.
    pub image_deviations: Vec<Deviation>,
    /// Whether each lane can run here, asked once per attempt.
    here: Option<BTreeMap<String, LaneHere>>,
    pub toolchains: Option<Toolchains>,
    /// Lanes that answered errors in the check step (or could not sign
    /// in): not measured.
    pub excluded: BTreeMap<String, String>,
    pub sessions: BTreeMap<String, Session>,
    pub skipped: Vec<SkippedLane>,
    /// Lanes this machine runs whose server did not boot (and has not
    /// booted since) or stopped during a measurement: the run did not
    /// measure what it planned. By lane, the stage.
    pub failed: BTreeMap<String, String>,
    pub coldstarts: Vec<ColdStart>,
    pub checks: Vec<check::CheckRow>,
}

impl Lanes {
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
        if self.here.is_none() {
            let tools = reprise_probe::preflight::probe_recipe_toolchains(
                s.recipe,
                &s.ctx.search_path(),
                Duration::from_secs(10),
            );
            let engine = match &s.ctx.server_host {
                Some(host) => host.ask_engine().ok(),
                None => s
                    .recipe
                    .lanes
                    .iter()
                    .any(|l| l.placement == Placement::Container)
                    .then(|| reprise_probe::container_engine::ask_from_env(Duration::from_secs(2)))
                    .flatten(),
            };
            let here = reprise_probe::preflight::lanes_here(s.recipe, &tools, engine.as_ref());
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
                .record_deviations(Some(DeviationKind::Toolchain), &found)
            {
                s.note(format!("cannot record the toolchains that differ: {e}"));
            }
            self.here = Some(here.into_iter().collect());
            self.toolchains = Some(tools);
        }
        if s.ctx.server_host.is_some()
            && let Some(why) = crate::server_host::why_lane_cannot_run(lane)
        {
            return Some(why);
        }
        match self.here.as_ref()?.get(lane.name.as_str())? {
            LaneHere::Runs => None,
            LaneHere::Blocked { why, .. } | LaneHere::PublishedOnly { why } => Some(why.clone()),
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
        ctx.write_result(reprise_harness::SKIPPED_FILE, &self.skipped)
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
            self.skip(ctx, step, &name, "boot", why, None)?;
            return Ok(None);
        }
        let running = self.servers.get_mut(&name).is_some_and(|s| s.is_running());
        if !running {
            if let Some(mut old) = self.servers.remove(&name) {
                let _ = old.stop();
            }
            if let (Placement::Container, Some(image)) = (lane.placement, &lane.image) {
                let asked = self.prepare_image(ctx, step, lane, image);
                match asked {
                    Ok(found) => {
                        self.image_deviations.retain(|d| d.lanes != [name.clone()]);
                        self.image_deviations.extend(found);
                        ctx.record_deviations(Some(DeviationKind::Image), &self.image_deviations)?;
                    }
                    Err(why) => {
                        self.skip(ctx, step, &name, "boot", why, None)?;
                        return Ok(None);
                    }
                }
            }
            let started =
                server_spec(ctx, lane, cpus.clone()).and_then(|spec| LaneServer::start(&spec));
            match started {
                Ok(server) => {
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

    /// Stops every server; reports any that left processes behind.
    pub fn stop_all(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        for (name, mut server) in std::mem::take(&mut self.servers) {
            if let Err(e) = server.stop() {
                problems.push(format!("lane {name}: {e}"));
            }
        }
        // The services last: the lanes may talk to them until they stop.
        for (name, mut service) in std::mem::take(&mut self.services) {
            if let Err(e) = service.stop() {
                problems.push(format!("service {name}: {e}"));
            }
        }
        problems
    }
}

/// How a lane's server starts: its command, dir and env, with the shape
/// (workers, threads, heap) also in the environment for apps that read it.
fn server_spec(
    ctx: &RunContext,
    lane: &Lane,
    cpus: Option<Vec<usize>>,
) -> Result<ServerSpec, ServerError> {
    let name = lane.name.to_string();
    let argv = crate::server_host::lane_command(lane, ctx.lane_address());
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
    env.insert("REPRISE_RUN_DIR".into(), ctx.run.path.display().to_string());
    if let Some(w) = lane.workers {
        env.entry("WEB_CONCURRENCY".into()).or_insert(w.to_string());
    }
    if let Some(t) = lane.threads {
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
    let boot_budget = lane
        .boot_budget
        .map(|b| b.as_duration())
        .unwrap_or(Duration::from_secs(60));
    Ok(ServerSpec {
        lane: name.clone(),
        argv,
        dir,
        env,
        address: ctx.lane_address(),
        port: lane.port.unwrap_or(0),
        health: Some(lane.health.clone().unwrap_or_else(|| "/".into())),
        boot_budget,
        cpus,
        log: ctx.lane_log(&name),
        grace: ctx.grace,
        container: (lane.placement == Placement::Container).then(|| ContainerPlacement {
            image: lane.image.clone().unwrap_or_default(),
            run_id: ctx.run.id.clone(),
            mount: ctx.run.path.clone(),
            server_host: ctx.server_host.as_ref().map(|h| h.endpoint.clone()),
        }),
        processes: Some(ctx.processes()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_split_is_said_in_words_not_debug_form() {
        let split = CpuSplit {
            servers: Some(vec![0]),
            clients: Some(vec![1]),
            remote: false,
        };
        assert_eq!(
            split.describe("load generator"),
            "servers on CPU 0, load generator on CPU 1"
        );
        let wide = CpuSplit {
            servers: Some((0..6).collect()),
            clients: Some(vec![6, 8, 10]),
            remote: false,
        };
        assert_eq!(
            wide.describe("people generator"),
            "servers on CPUs 0-5, people generator on CPUs 6,8,10"
        );
        let one = CpuSplit {
            servers: None,
            clients: None,
            remote: false,
        };
        let said = one.describe("load generator");
        assert_eq!(
            said,
            "servers and load generator on any CPU (one CPU: no split)"
        );
        assert!(!said.contains("Some(") && !said.contains("None"));
        let two_machines = CpuSplit {
            servers: None,
            clients: None,
            remote: true,
        };
        assert_eq!(
            two_machines.describe("load generator"),
            "servers on the server host, load generator on this machine's CPUs"
        );
    }

    #[test]
    fn processes_and_budgets_are_said_in_words_not_debug_form() {
        use crate::run_processes::pid_words;
        assert_eq!(pid_words(&[4242]), "process 4242");
        assert_eq!(pid_words(&[4242, 4243]), "processes 4242, 4243");
        let late = ServerError::BootBudget {
            budget: Duration::from_secs(30),
            what: "no answer on /".into(),
        };
        assert_eq!(
            late.to_string(),
            "not ready within the boot budget of 30 s: no answer on /"
        );
        let left = ServerError::LeftOver { pids: vec![7, 8] };
        assert_eq!(
            left.to_string(),
            "the server's group is still running after SIGKILL: processes 7, 8"
        );
    }
}
