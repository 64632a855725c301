//! The benchmark steps' shared state within one attempt of a run: the lanes'
//! running servers (a `serve` step leaves them up for `check` and `load`),
//! which lanes can run here, the signed-in sessions, and the results files
//! (`coldstart.json`, `skipped.json`, `parity.json`, `check.json`), plus the
//! `serve` and `check` steps themselves. The `load` step is in
//! [`crate::measure`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use reprise_loadgen::{ResponseChecks, ResponseFingerprint, check_response};
use reprise_probe::toolchain::{SearchPath, Status, Toolchains};
use reprise_recipe::{Endpoint, Lane, Placement, Recipe, Step};
use reprise_verdict::Parity;
use serde::{Deserialize, Serialize};

use crate::event::{Event, Stream};
use crate::http_probe;
use crate::lane_server::{ContainerPlacement, LaneServer, ServerError, ServerSpec, log_tail};
use crate::run::{RunContext, StepFailure, within};
use crate::sign_in::Session;
use crate::workdir::write_atomic;

/// One entry of the harness's `skipped.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkippedLane {
    pub target: String,
    pub stage: String,
    pub reason: String,
    pub log_tail: String,
}

/// One entry of the harness's `coldstart.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColdStart {
    pub target: String,
    pub rep: u32,
    pub accept_ms: f64,
    pub page_ms: f64,
    pub page_code: u16,
}

/// One row of the check step's parity table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRow {
    pub lane: String,
    pub endpoint: String,
    pub status: u16,
    pub tags: u64,
    pub bytes: u64,
    pub sha256: String,
    /// Why the response fails the endpoint's expectations, if it does.
    pub error: Option<String>,
    /// The response differs from the reference lane's.
    pub differs: bool,
}

/// State shared by the benchmark steps of one attempt.
#[derive(Default)]
pub(crate) struct Bench {
    pub servers: BTreeMap<String, LaneServer>,
    /// Per lane: why it cannot run here (None: it can).
    availability: Option<BTreeMap<String, Option<String>>>,
    pub toolchains: Option<Toolchains>,
    /// Lanes that answered errors in the check step: not measured.
    pub excluded: BTreeMap<String, String>,
    pub sessions: BTreeMap<String, Session>,
    pub skipped: Vec<SkippedLane>,
    pub coldstarts: Vec<ColdStart>,
    pub checks: Vec<CheckRow>,
}

impl Bench {
    /// The lanes a per-lane step runs: the ones it names (or all the plan's).
    pub fn lanes<'r>(recipe: &'r Recipe, step: &Step, plan_lanes: &[String]) -> Vec<&'r Lane> {
        let named = step.action.lanes();
        recipe
            .lanes
            .iter()
            .filter(|l| plan_lanes.iter().any(|p| p == l.name.as_str()))
            .filter(|l| named.is_empty() || named.iter().any(|n| n == &l.name))
            .collect()
    }

    /// The lanes a measuring step (`load`, `cable`) runs: the step's lanes
    /// less those that cannot run here (recorded in `skipped.json`) and those
    /// the check step left out (noted).
    pub fn lanes_to_measure<'r>(
        &mut self,
        ctx: &RunContext,
        recipe: &'r Recipe,
        step: &Step,
        plan_lanes: &[String],
    ) -> Result<Vec<&'r Lane>, StepFailure> {
        let id = step.id.as_str();
        let mut lanes = Vec::new();
        for lane in Bench::lanes(recipe, step, plan_lanes) {
            let name = lane.name.to_string();
            if let Some(reason) = self.unavailable(recipe, lane) {
                self.skip(ctx, id, skipped(&name, "preflight", reason, String::new()))?;
            } else if let Some(reason) = self.excluded.get(&name) {
                note(ctx, id, format!("lane {name} is not measured: {reason}"));
            } else {
                lanes.push(lane);
            }
        }
        Ok(lanes)
    }

    /// Why `lane` cannot run here (a missing toolchain, a container lane),
    /// probing the recipe's toolchains once.
    pub fn unavailable(&mut self, recipe: &Recipe, lane: &Lane) -> Option<String> {
        if self.availability.is_none() {
            let tools = reprise_probe::preflight::probe_recipe_toolchains(
                recipe,
                &SearchPath::from_env(),
                Duration::from_secs(10),
            );
            let mut map = BTreeMap::new();
            for l in &recipe.lanes {
                let reason = if l.placement == Placement::Container {
                    match &l.image {
                        None => Some("a container lane without an image".to_string()),
                        Some(_) => crate::runner::container::ContainerRunner::connect()
                            .err()
                            .map(|e| format!("runs in a container, and {e}")),
                    }
                } else {
                    recipe
                        .lane_toolchains(l)
                        .find_map(|t| match tools.get(&t.name) {
                            Some(p) if p.status == Status::Missing => {
                                Some(format!("{} is not installed", t.name))
                            }
                            None => Some(format!("{} is not installed", t.name)),
                            _ => None,
                        })
                };
                map.insert(l.name.to_string(), reason);
            }
            self.availability = Some(map);
            self.toolchains = Some(tools);
        }
        self.availability
            .as_ref()
            .and_then(|m| m.get(lane.name.as_str()).cloned().flatten())
    }

    /// Records a lane that did not run (or stopped), replacing an earlier
    /// entry of the same lane and stage, and rewrites `skipped.json`.
    pub fn skip(
        &mut self,
        ctx: &RunContext,
        step: &str,
        entry: SkippedLane,
    ) -> Result<(), StepFailure> {
        note(
            ctx,
            step,
            format!(
                "lane {} skipped ({}): {}",
                entry.target, entry.stage, entry.reason
            ),
        );
        self.skipped
            .retain(|s| !(s.target == entry.target && s.stage == entry.stage));
        self.skipped.push(entry);
        write_json(ctx, "skipped.json", &self.skipped)
    }

    /// The server of `lane`, started when it is not running.
    pub fn ensure_server(
        &mut self,
        ctx: &RunContext,
        lane: &Lane,
        cpus: Option<Vec<usize>>,
    ) -> Result<&mut LaneServer, ServerError> {
        let name = lane.name.to_string();
        let running = self.servers.get_mut(&name).is_some_and(|s| s.is_running());
        if !running {
            if let Some(mut old) = self.servers.remove(&name) {
                let _ = old.stop();
            }
            let spec = server_spec(ctx, lane, cpus)?;
            let server = LaneServer::start(&spec)?;
            self.servers.insert(name.clone(), server);
        }
        Ok(self.servers.get_mut(&name).expect("inserted above"))
    }

    /// Stops every server; reports any that left processes behind.
    pub fn stop_all(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        for (name, mut server) in std::mem::take(&mut self.servers) {
            if let Err(e) = server.stop() {
                problems.push(format!("lane {name}: {e}"));
            }
        }
        problems
    }
}

/// The CPUs the servers and the load generator get: the first half of this
/// process's CPUs for the servers, the rest for the client, where there are
/// at least two.
pub(crate) fn cpu_split() -> (Option<Vec<usize>>, Option<Vec<usize>>) {
    let cpus = reprise_loadgen::allowed_cpus();
    if cpus.len() < 2 {
        return (None, None);
    }
    let half = cpus.len() / 2;
    (Some(cpus[..half].to_vec()), Some(cpus[half..].to_vec()))
}

/// How a lane's server starts: its command, dir and env, with the shape
/// (workers, threads, heap) also in the environment for apps that read it.
pub(crate) fn server_spec(
    ctx: &RunContext,
    lane: &Lane,
    cpus: Option<Vec<usize>>,
) -> Result<ServerSpec, ServerError> {
    let name = lane.name.to_string();
    let argv = lane.command.clone().unwrap_or_default();
    let dir = match &lane.dir {
        Some(d) => within(&ctx.run.path, d).map_err(|_| ServerError::Spawn {
            program: argv.first().cloned().unwrap_or_default(),
            source: std::io::Error::other(format!(
                "the lane's dir `{d}` must be inside the run's folder"
            )),
        })?,
        None => ctx.run.path.clone(),
    };
    let mut env = lane.env.clone();
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
        port: lane.port.unwrap_or(0),
        health: lane.health.clone().unwrap_or_else(|| "/".into()),
        boot_budget,
        cpus,
        log: ctx.run.logs().join(format!("lane-{name}.log")),
        grace: ctx.grace,
        container: (lane.placement == Placement::Container).then(|| ContainerPlacement {
            image: lane.image.clone().unwrap_or_default(),
            run_id: ctx.run.id.clone(),
            mount: ctx.run.path.clone(),
        }),
    })
}

/// Writes a results file as pretty JSON.
pub(crate) fn write_json<T: Serialize>(
    ctx: &RunContext,
    name: &str,
    value: &T,
) -> Result<(), StepFailure> {
    let dir = ctx.run.results();
    std::fs::create_dir_all(&dir)?;
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    write_atomic(&dir.join(name), &bytes)?;
    Ok(())
}

/// A note of the engine's in the step's log.
pub(crate) fn note(ctx: &RunContext, step: &str, line: String) {
    ctx.events.emit(Event::Log {
        step: step.to_string(),
        stream: Stream::Stdout,
        line,
    });
}

/// `serve`: boots each lane `repeat` times from cold, recording accept and
/// page times, and leaves the last boot running for the steps after it.
pub(crate) fn serve(
    bench: &mut Bench,
    ctx: &RunContext,
    recipe: &Recipe,
    step: &Step,
    plan_lanes: &[String],
    repeat: u32,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let (server_cpus, _) = cpu_split();
    let mut served = 0;
    let lanes = Bench::lanes(recipe, step, plan_lanes);
    for lane in &lanes {
        let name = lane.name.to_string();
        if let Some(reason) = bench.unavailable(recipe, lane) {
            bench.skip(ctx, id, skipped(&name, "preflight", reason, String::new()))?;
            continue;
        }
        if lane.port.is_none() {
            note(
                ctx,
                id,
                format!("lane {name} has no port: nothing to serve"),
            );
            continue;
        }
        let mut ok = true;
        for rep in 1..=repeat.max(1) {
            if ctx.cancel.is_cancelled() {
                return Err(StepFailure::Cancelled("cancelled".into()));
            }
            if let Some(mut old) = bench.servers.remove(&name) {
                old.stop()?;
            }
            match bench.ensure_server(ctx, lane, server_cpus.clone()) {
                Ok(server) => {
                    let memory = server.memory();
                    let (accept_ms, page_ms) = (server.accept_ms, server.page_ms);
                    note(
                        ctx,
                        id,
                        format!(
                            "lane {name} boot {rep}: accepts after {:.0} ms, answers 200 after {:.0} ms; {} processes, RSS {} kB",
                            accept_ms, page_ms, memory.processes, memory.rss_kb
                        ),
                    );
                    bench.coldstarts.push(ColdStart {
                        target: name.clone(),
                        rep,
                        accept_ms,
                        page_ms,
                        page_code: 200,
                    });
                }
                Err(e) => {
                    let tail = log_tail(&ctx.run.logs().join(format!("lane-{name}.log")), 20);
                    bench.skip(ctx, id, skipped(&name, "boot", e.to_string(), tail))?;
                    ok = false;
                    break;
                }
            }
        }
        served += usize::from(ok);
    }
    write_json(ctx, "coldstart.json", &bench.coldstarts)?;
    if served == 0 && !lanes.is_empty() {
        return Err(StepFailure::Failed(
            "no lane could be served (see skipped.json)".into(),
        ));
    }
    Ok(())
}

pub(crate) fn skipped(target: &str, stage: &str, reason: String, log_tail: String) -> SkippedLane {
    SkippedLane {
        target: target.to_string(),
        stage: stage.to_string(),
        reason,
        log_tail,
    }
}

/// The checks an endpoint's `expect` asks for.
pub(crate) fn checks_of(endpoint: &Endpoint) -> ResponseChecks {
    ResponseChecks {
        status: endpoint.expect.status,
        tags: endpoint.expect.tags,
        bytes: endpoint.expect.bytes,
        sha256: endpoint.expect.sha256.clone(),
        contains: endpoint.expect.contains.clone(),
    }
}

/// The fingerprint as one string, as parity records it.
pub(crate) fn fingerprint_text(f: &ResponseFingerprint) -> String {
    format!(
        "status={} tags={} bytes={} sha256={}",
        f.status, f.tags, f.bytes, f.sha256
    )
}

/// `check`: one request per endpoint per lane; a parity table; lanes whose
/// responses differ from the reference lane's are flagged, lanes answering
/// errors are not measured.
pub(crate) fn check(
    bench: &mut Bench,
    ctx: &RunContext,
    recipe: &Recipe,
    step: &Step,
    plan_lanes: &[String],
    endpoints: &[Endpoint],
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let (server_cpus, _) = cpu_split();
    let mut rows: Vec<CheckRow> = Vec::new();
    let mut passed = 0;
    for lane in Bench::lanes(recipe, step, plan_lanes) {
        let name = lane.name.to_string();
        if let Some(reason) = bench.unavailable(recipe, lane) {
            bench.skip(ctx, id, skipped(&name, "preflight", reason, String::new()))?;
            continue;
        }
        let port = match bench.ensure_server(ctx, lane, server_cpus.clone()) {
            Ok(server) => server.spec.port,
            Err(e) => {
                let tail = log_tail(&ctx.run.logs().join(format!("lane-{name}.log")), 20);
                bench.skip(ctx, id, skipped(&name, "boot", e.to_string(), tail))?;
                continue;
            }
        };
        let session = bench.sessions.get(&name);
        let mut errors = Vec::new();
        for endpoint in endpoints {
            let request = match crate::sign_in::resolve_endpoint(endpoint, session) {
                Ok(r) => r,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let row = match http_probe::request(
                port,
                &endpoint.method,
                &request.path,
                &request.headers,
                request.body.as_deref().map(str::as_bytes),
                Duration::from_secs(10),
            ) {
                Ok(r) => {
                    let f = ResponseFingerprint::of(r.status, &r.body);
                    let error = check_response(
                        &checks_of(endpoint),
                        r.status,
                        r.body.len() as u64,
                        Some(&r.body),
                    )
                    .err()
                    .map(|e| e.to_string());
                    CheckRow {
                        lane: name.clone(),
                        endpoint: endpoint.name.to_string(),
                        status: f.status,
                        tags: f.tags,
                        bytes: f.bytes,
                        sha256: f.sha256,
                        error,
                        differs: false,
                    }
                }
                Err(e) => CheckRow {
                    lane: name.clone(),
                    endpoint: endpoint.name.to_string(),
                    status: 0,
                    tags: 0,
                    bytes: 0,
                    sha256: String::new(),
                    error: Some(e.to_string()),
                    differs: false,
                },
            };
            if let Some(e) = &row.error {
                errors.push(format!("{}: {e}", row.endpoint));
            }
            rows.push(row);
        }
        if errors.is_empty() {
            passed += 1;
        } else {
            let reason = format!("answered errors, not measured: {}", errors.join("; "));
            bench.excluded.insert(name.clone(), reason.clone());
            let tail = bench
                .servers
                .get(&name)
                .map(|s| s.log_tail(20))
                .unwrap_or_default();
            bench.skip(ctx, id, skipped(&name, "check", reason, tail))?;
        }
    }
    // The reference for each endpoint: the first lane that answered it well.
    for endpoint in endpoints {
        let name = endpoint.name.as_str();
        let reference = rows
            .iter()
            .find(|r| r.endpoint == name && r.error.is_none())
            .map(|r| (r.status, r.tags, r.bytes, r.sha256.clone()));
        for row in rows.iter_mut().filter(|r| r.endpoint == name) {
            row.differs = reference
                .as_ref()
                .is_some_and(|f| *f != (row.status, row.tags, row.bytes, row.sha256.clone()));
        }
    }
    for row in &rows {
        note(
            ctx,
            id,
            format!(
                "{:<12} {:<24} status {:>3} tags {:>5} bytes {:>8} sha256 {}{}{}",
                row.lane,
                row.endpoint,
                row.status,
                row.tags,
                row.bytes,
                row.sha256.get(..12).unwrap_or(""),
                if row.differs {
                    "  DIFFERS from the reference lane"
                } else {
                    ""
                },
                row.error
                    .as_deref()
                    .map(|e| format!("  ERROR {e}"))
                    .unwrap_or_default()
            ),
        );
    }
    let parity: Vec<Parity> = rows
        .iter()
        .filter(|r| r.error.is_none())
        .map(|r| Parity {
            lane: r.lane.clone(),
            endpoint: r.endpoint.clone(),
            fingerprint: fingerprint_text(&ResponseFingerprint {
                status: r.status,
                tags: r.tags,
                bytes: r.bytes,
                sha256: r.sha256.clone(),
            }),
        })
        .collect();
    write_json(ctx, "parity.json", &parity)?;
    write_json(ctx, "check.json", &rows)?;
    bench.checks = rows;
    if passed == 0 {
        return Err(StepFailure::Failed(
            "no lane answered every endpoint well (see check.json)".into(),
        ));
    }
    Ok(())
}

/// The log file of a lane's server.
pub(crate) fn lane_log(ctx: &RunContext, lane: &str) -> PathBuf {
    ctx.run.logs().join(format!("lane-{lane}.log"))
}
