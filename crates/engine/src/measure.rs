//! The `load` step: lanes × endpoints × runs with the in-process load
//! generator, a warm-up per lane, runs in alternating lane order, the
//! servers on some CPUs and the client on the others, each server's process
//! tree sampled every second. Writes `per-run.json` (through
//! `reprise-verdict`), `summary.json`, HDR logs, `results.json` (ours, with
//! every figure the load generator gave) and `env.json` (bench-env). A lane
//! that crashes keeps the cells it finished; the rest are no data, and
//! `skipped.json` gets its log tail.

use std::time::{Duration, SystemTime};

use reprise_loadgen::{LatencySummary, LoadSpec, write_hdr_log};
use reprise_probe::Fingerprint;
use reprise_probe::bench_env::{BenchEnv, GitState};
use reprise_recipe::{Lane, Metric, Recipe, Step, Workload};
use reprise_verdict::{CellKey, LaneInfo, Measurements, Run};
use serde::Serialize;
use serde_json::json;

use crate::bench::{Bench, checks_of, cpu_split, lane_log, note, skipped, write_json};
use crate::lane_server::log_tail;
use crate::run::{RunContext, StepFailure};
use crate::sign_in::resolve_endpoint;

/// Caps `--quick` puts on a workload, so a smoke run takes seconds.
pub const QUICK_DURATION: Duration = Duration::from_secs(2);
pub const QUICK_WARMUP: Duration = Duration::from_secs(1);
pub const QUICK_RUNS: u32 = 2;

/// One measured cell of one run, with everything the load generator said.
#[derive(Clone, Debug, Serialize)]
struct CellResult {
    lane: String,
    endpoint: String,
    run: u32,
    req_per_s: Option<f64>,
    requests: u64,
    duration_s: f64,
    latency_ms: Option<LatencySummary>,
    errors: reprise_loadgen::ErrorCounts,
    error_samples: Vec<String>,
    rss_kb: Option<u64>,
    pss_kb: Option<u64>,
    processes: Option<usize>,
    /// Why the cell has no data, where it has none for a reason other than errors.
    no_data: Option<String>,
    hdr_log: Option<String>,
}

/// The workload as this run applies it (`--quick` caps it).
struct Shape {
    duration: Duration,
    runs: u32,
    warmup: Option<Duration>,
}

fn shape(workload: &Workload, quick: bool) -> Shape {
    let duration = workload.duration.as_duration();
    let warmup = workload.warmup.map(|w| w.as_duration());
    if quick {
        Shape {
            duration: duration.min(QUICK_DURATION),
            runs: workload.runs.clamp(1, QUICK_RUNS),
            warmup: warmup.map(|w| w.min(QUICK_WARMUP)),
        }
    } else {
        Shape {
            duration,
            runs: workload.runs.max(1),
            warmup,
        }
    }
}

fn lane_warmup(lane: &Lane, s: &Shape, quick: bool) -> Duration {
    let w = lane
        .warmup
        .map(|w| w.as_duration())
        .or(s.warmup)
        .unwrap_or(Duration::ZERO);
    if quick { w.min(QUICK_WARMUP) } else { w }
}

fn slug(endpoint: &str) -> String {
    let s: String = endpoint
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let s = s.trim_matches('_').to_string();
    if s.is_empty() { "root".into() } else { s }
}

/// `load`: the measurement matrix.
pub(crate) fn load(
    bench: &mut Bench,
    ctx: &RunContext,
    recipe: &Recipe,
    step: &Step,
    plan_lanes: &[String],
    workload: &Workload,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let s = shape(workload, ctx.quick);
    if ctx.quick {
        note(
            ctx,
            id,
            format!(
                "--quick: {} run(s) of {:?} per cell, warm-ups capped at {QUICK_WARMUP:?} (a smoke run, not a measurement)",
                s.runs, s.duration
            ),
        );
    }
    let (server_cpus, client_cpus) = cpu_split();
    note(
        ctx,
        id,
        format!("servers on CPUs {server_cpus:?}, load generator on CPUs {client_cpus:?}"),
    );
    let lanes = bench.lanes_to_measure(ctx, recipe, step, plan_lanes)?;
    let mut m = Measurements::default();
    let mut cells: Vec<CellResult> = Vec::new();
    let hdr_dir = ctx.run.results().join("hdr");
    std::fs::create_dir_all(&hdr_dir)?;
    let mut crashed: Vec<String> = Vec::new();

    // Boot and warm up each lane.
    for lane in &lanes {
        let name = lane.name.to_string();
        let warmup = lane_warmup(lane, &s, ctx.quick);
        m.lanes.insert(
            name.clone(),
            LaneInfo {
                target: name.clone(),
                workers: lane.workers,
                warmup_sec: Some(warmup.as_secs_f64()),
            },
        );
        let port = match bench.ensure_server(ctx, lane, server_cpus.clone()) {
            Ok(server) => server.spec.port,
            Err(e) => {
                let tail = log_tail(&lane_log(ctx, &name), 20);
                bench.skip(ctx, id, skipped(&name, "boot", e.to_string(), tail))?;
                crashed.push(name);
                continue;
            }
        };
        if warmup > Duration::ZERO && !workload.endpoints.is_empty() {
            note(ctx, id, format!("lane {name}: warming up for {warmup:?}"));
            let each = warmup / workload.endpoints.len() as u32;
            for endpoint in &workload.endpoints {
                let mut spec = spec_for(bench, &name, endpoint, workload, port, &client_cpus)?;
                spec.duration = each;
                let _ = reprise_loadgen::run(&spec, |_| {});
            }
        }
    }

    let total = u64::from(s.runs) * (lanes.len() * workload.endpoints.len()) as u64;
    let mut done = 0;
    for run in 1..=s.runs {
        let mut order = lanes.clone();
        if run % 2 == 0 {
            order.reverse();
        }
        for lane in order {
            let name = lane.name.to_string();
            for endpoint in &workload.endpoints {
                if ctx.cancel.is_cancelled() {
                    let _ = write_results(ctx, recipe, workload, &s, bench, &m, &cells);
                    return Err(StepFailure::Cancelled("cancelled".into()));
                }
                let ep = endpoint.name.to_string();
                let cell = if crashed.contains(&name) {
                    no_data(&name, &ep, run, "the server stopped before this run")
                } else {
                    let live = |p: &reprise_loadgen::Progress| {
                        if p.phase == reprise_loadgen::Phase::Measure {
                            ctx.events.emit(crate::Event::Measuring {
                                step: id.to_string(),
                                lane: name.clone(),
                                endpoint: ep.clone(),
                                run,
                                cells_done: done,
                                cells: total,
                                req_per_s: p.req_per_s,
                                p99_ms: p.p99_ms,
                                errors: p.errors,
                            });
                        }
                    };
                    measure_cell(
                        bench,
                        &name,
                        endpoint,
                        workload,
                        &s,
                        run,
                        &client_cpus,
                        &hdr_dir,
                        live,
                    )?
                };
                // A server that died during the cell: its later cells are no data.
                let alive = bench
                    .servers
                    .get_mut(&name)
                    .is_some_and(|srv| srv.is_running());
                let cell = if !alive && !crashed.contains(&name) {
                    crashed.push(name.clone());
                    let tail = log_tail(&lane_log(ctx, &name), 20);
                    bench.skip(
                        ctx,
                        id,
                        skipped(
                            &name,
                            "load",
                            format!("the server stopped during run {run} ({ep}); later cells are no data"),
                            tail,
                        ),
                    )?;
                    CellResult {
                        req_per_s: None,
                        no_data: Some("the server stopped during this run".into()),
                        ..cell
                    }
                } else {
                    cell
                };
                note(
                    ctx,
                    id,
                    format!(
                        "lane {name} {ep} run {run}: {}",
                        match cell.req_per_s {
                            Some(r) => format!(
                                "{r:.0} req/s, p99 {:.2} ms, RSS {} kB",
                                cell.latency_ms.map_or(0.0, |l| l.p99),
                                cell.rss_kb.unwrap_or(0)
                            ),
                            None => format!(
                                "no data ({})",
                                cell.no_data
                                    .clone()
                                    .unwrap_or_else(|| format!("{} errors", cell.errors.total()))
                            ),
                        }
                    ),
                );
                record(&mut m, &cell);
                cells.push(cell);
                done += 1;
                ctx.events.emit(crate::Event::Progress {
                    step: id.to_string(),
                    done,
                    total,
                    unit: "cells".into(),
                });
                write_results(ctx, recipe, workload, &s, bench, &m, &cells)?;
            }
        }
    }
    write_results(ctx, recipe, workload, &s, bench, &m, &cells)?;
    if !lanes.is_empty() && cells.iter().all(|c| c.req_per_s.is_none()) {
        return Err(StepFailure::Failed("no cell produced data".into()));
    }
    Ok(())
}

fn spec_for(
    bench: &Bench,
    lane: &str,
    endpoint: &reprise_recipe::Endpoint,
    workload: &Workload,
    port: u16,
    client_cpus: &Option<Vec<usize>>,
) -> Result<LoadSpec, StepFailure> {
    let request =
        resolve_endpoint(endpoint, bench.sessions.get(lane)).map_err(StepFailure::Failed)?;
    let mut spec = LoadSpec::new(format!("http://127.0.0.1:{port}{}", request.path));
    spec.method = endpoint.method.clone();
    spec.headers = request.headers;
    spec.body = request.body;
    spec.connections = workload.connections as usize;
    spec.threads = workload.threads.max(1) as usize;
    spec.rate = workload.rate;
    spec.cpus = client_cpus.clone();
    spec.checks = checks_of(endpoint);
    Ok(spec)
}

#[allow(clippy::too_many_arguments)]
fn measure_cell(
    bench: &Bench,
    lane: &str,
    endpoint: &reprise_recipe::Endpoint,
    workload: &Workload,
    s: &Shape,
    run: u32,
    client_cpus: &Option<Vec<usize>>,
    hdr_dir: &std::path::Path,
    live: impl FnMut(&reprise_loadgen::Progress),
) -> Result<CellResult, StepFailure> {
    let ep = endpoint.name.to_string();
    let Some(server) = bench.servers.get(lane) else {
        return Ok(no_data(lane, &ep, run, "the server is not running"));
    };
    let mut spec = spec_for(
        bench,
        lane,
        endpoint,
        workload,
        server.spec.port,
        client_cpus,
    )?;
    spec.duration = s.duration;
    let sampler = server.sample_memory(Duration::from_secs(1));
    let mut live = live;
    let result = reprise_loadgen::run(&spec, |p| live(p));
    let memory = sampler.finish();
    let report = match result {
        Ok(r) => r,
        Err(e) => return Ok(no_data(lane, &ep, run, &e.to_string())),
    };
    let hdr_name = format!("{lane}__{}__run{run}.hlog", slug(&ep));
    let hdr = std::fs::File::create(hdr_dir.join(&hdr_name))
        .ok()
        .and_then(|f| write_hdr_log(&report, std::io::BufWriter::new(f)).ok())
        .map(|()| format!("hdr/{hdr_name}"));
    Ok(CellResult {
        lane: lane.to_string(),
        endpoint: ep,
        run,
        req_per_s: report.req_per_s,
        requests: report.requests,
        duration_s: report.duration_s,
        latency_ms: report.latency,
        errors: report.errors.clone(),
        error_samples: report.error_samples.clone(),
        rss_kb: (memory.processes > 0).then_some(memory.rss_kb),
        pss_kb: (memory.processes > 0).then_some(memory.pss_kb),
        processes: Some(memory.processes),
        no_data: None,
        hdr_log: hdr,
    })
}

fn no_data(lane: &str, endpoint: &str, run: u32, why: &str) -> CellResult {
    CellResult {
        lane: lane.to_string(),
        endpoint: endpoint.to_string(),
        run,
        req_per_s: None,
        requests: 0,
        duration_s: 0.0,
        latency_ms: None,
        errors: Default::default(),
        error_samples: Vec::new(),
        rss_kb: None,
        pss_kb: None,
        processes: None,
        no_data: Some(why.to_string()),
        hdr_log: None,
    }
}

fn record(m: &mut Measurements, c: &CellResult) {
    let errors = c.errors.total();
    let key = |metric| CellKey::new(&c.lane, Some(&c.endpoint), metric);
    let run = |value: Option<f64>, errors: u64| Run {
        run: c.run,
        value,
        errors,
        client_cpu: None,
    };
    m.push_run(key(Metric::ReqPerS), run(c.req_per_s, errors));
    let has = c.req_per_s.is_some();
    m.push_run(
        key(Metric::P50Ms),
        run(c.latency_ms.filter(|_| has).map(|l| l.p50), errors),
    );
    m.push_run(
        key(Metric::P99Ms),
        run(c.latency_ms.filter(|_| has).map(|l| l.p99), errors),
    );
    if let Some(rss) = c.rss_kb {
        m.push_run(key(Metric::RssMb), run(Some(rss as f64 / 1024.0), 0));
    }
    if let Some(pss) = c.pss_kb.filter(|&p| p > 0) {
        m.push_run(key(Metric::PssMb), run(Some(pss as f64 / 1024.0), 0));
    }
}

fn write_results(
    ctx: &RunContext,
    recipe: &Recipe,
    workload: &Workload,
    s: &Shape,
    bench: &mut Bench,
    m: &Measurements,
    cells: &[CellResult],
) -> Result<(), StepFailure> {
    let mut m = m.clone();
    m.parity = std::fs::read(ctx.run.results().join("parity.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let dir = ctx.run.results();
    crate::workdir::write_atomic(&dir.join("per-run.json"), m.to_per_run().as_bytes())?;
    write_json(ctx, "summary.json", &reprise_report::harness::summary(&m))?;
    write_json(ctx, "measurements.json", &m)?;
    let harness = json!({
        "workers": null,
        "concurrency": workload.connections,
        "runs": s.runs,
        "duration_sec": s.duration.as_secs_f64(),
        "warmup_sec": s.warmup.map(|w| w.as_secs_f64()),
        "threads": workload.threads,
        "wrk_threads": workload.threads,
        "endpoints": workload.endpoints.iter().map(|e| e.name.to_string()).collect::<Vec<_>>(),
        "targets": m.lanes.keys().collect::<Vec<_>>(),
        "command": format!("reprise run {}{}", recipe.id(), if ctx.quick { " --quick" } else { "" }),
        "quick": ctx.quick,
        "load_generator": "reprise-loadgen",
    });
    write_json(
        ctx,
        "results.json",
        &json!({
            "recipe": recipe.id(),
            "run": ctx.run.id,
            "workload": workload.name.to_string(),
            "quick": ctx.quick,
            "quick_note": ctx.quick.then_some("durations, warm-ups and runs were capped by --quick: a smoke run, not a measurement"),
            "harness": harness,
            "cells": cells,
            "coldstart": bench.coldstarts,
            "check": bench.checks,
            "skipped": bench.skipped,
        }),
    )?;
    if !dir.join("env.json").exists() {
        let fp = Fingerprint::probe(Duration::from_secs(2));
        let tools = bench.toolchains.clone().unwrap_or_default();
        let mut env = BenchEnv::from_fingerprint(
            &fp,
            &tools,
            GitState::read(&ctx.checksums_root),
            SystemTime::now(),
        );
        env.harness = Some(harness);
        crate::workdir::write_atomic(&dir.join("env.json"), env.to_json().as_bytes())?;
    }
    Ok(())
}
