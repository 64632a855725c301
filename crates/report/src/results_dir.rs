//! A directory of the harness's result files (a published run's, or one
//! Reprise wrote) read into a [`Report`]: `per-run.json` for the cells,
//! `env.json` (bench-env) for the appendix and the machine.

use std::path::Path;

use reprise_recipe::Recipe;
use reprise_verdict::{MachineMatch, Settings, align_lanes, judge, read_results_dir};
use serde_json::Value;

use crate::{Environment, Report, ReportError, RunInfo, ToolchainVersion};

/// The harness's bench-env file.
pub const ENV_FILE: &str = "env.json";

/// `env.json` of a results directory, or `null` when there is none.
pub fn read_bench_env(dir: &Path) -> Result<Value, ReportError> {
    let file = dir.join(ENV_FILE);
    if !file.exists() {
        return Ok(Value::Null);
    }
    let text = std::fs::read_to_string(&file).map_err(|source| ReportError::Io {
        file: file.clone(),
        source,
    })?;
    Ok(serde_json::from_str(&text)?)
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Whether the machine a bench-env describes is the recipe's reference
/// machine, by CPU model, thread count, boost and governor. A stand-in until
/// the probe's preflight supplies the answer; no bench-env is a difference.
pub fn machine_from_bench_env(recipe: &Recipe, env: &Value) -> MachineMatch {
    let Some(machine) = &recipe.machine else {
        return MachineMatch::Differs(vec!["the recipe names no reference machine".into()]);
    };
    if env.is_null() {
        return MachineMatch::Differs(vec![
            "no fingerprint of the measuring machine (env.json)".into(),
        ]);
    }
    let mut reasons = Vec::new();
    match text(&env["cpu"]["brand"]) {
        Some(cpu) if cpu == machine.cpu => {}
        Some(cpu) => reasons.push(format!("CPU {cpu}, the post's was {}", machine.cpu)),
        None => reasons.push("the CPU model is not recorded".into()),
    }
    if let (Some(threads), Some(logical)) = (machine.threads, env["cpu"]["logical"].as_u64())
        && u64::from(threads) != logical
    {
        reasons.push(format!(
            "{logical} hardware threads, the post's had {threads}"
        ));
    }
    if let (Some(boost), Some(seen)) = (machine.boost, env["clock"]["boost"].as_bool())
        && boost != seen
    {
        reasons.push(format!(
            "boost {}, the post's was {}",
            if seen { "on" } else { "off" },
            if boost { "on" } else { "off" }
        ));
    }
    if let (Some(governor), Some(seen)) = (&machine.governor, text(&env["clock"]["governor"]))
        && *governor != seen
    {
        reasons.push(format!("governor {seen}, the post's was {governor}"));
    }
    if reasons.is_empty() {
        MachineMatch::Matches
    } else {
        MachineMatch::Differs(reasons)
    }
}

/// The appendix a bench-env and the recipe give.
pub fn environment_from_bench_env(recipe: &Recipe, env: &Value) -> Environment {
    let mut fingerprint = serde_json::Map::new();
    for key in ["host", "os", "cpu", "memory_mb", "clock", "conditions"] {
        if let Some(v) = env.get(key) {
            fingerprint.insert(key.to_string(), v.clone());
        }
    }
    let toolchains = env["toolchains"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(name, v)| {
                    text(v).map(|version| ToolchainVersion {
                        name: name.clone(),
                        version,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let mut sources = Environment::sources_of(recipe);
    if let Some(sha) = text(&env["git"]["sha"]) {
        let dirty = env["git"]["dirty"].as_bool() == Some(true);
        sources.push(crate::SourceRevision {
            id: "harness".into(),
            url: text(&env["git"]["branch"]).unwrap_or_default(),
            revision: if dirty { format!("{sha} (dirty)") } else { sha },
        });
    }
    Environment {
        fingerprint: if fingerprint.is_empty() {
            Value::Null
        } else {
            Value::Object(fingerprint)
        },
        toolchains,
        sources,
        tree_digests: Vec::new(),
        harness: env.get("harness").cloned().unwrap_or(Value::Null),
        commands: Vec::new(),
        bench_env: env.clone(),
    }
}

/// The many-people reports under `dir`: every `<step>/<lane>/people.json`,
/// sorted by step, then lane. An unreadable one is an error naming the file.
pub fn read_people(dir: &Path) -> Result<Vec<crate::PeopleRun>, ReportError> {
    let mut found = Vec::new();
    let Ok(steps) = std::fs::read_dir(dir) else {
        return Ok(found);
    };
    let mut steps: Vec<_> = steps.filter_map(Result::ok).map(|e| e.path()).collect();
    steps.sort();
    for step in steps.iter().filter(|p| p.is_dir()) {
        let Ok(lanes) = std::fs::read_dir(step) else {
            continue;
        };
        let mut files: Vec<_> = lanes
            .filter_map(Result::ok)
            .map(|e| e.path().join("people.json"))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for file in files {
            let bad = |reason: String| ReportError::People {
                file: file.clone(),
                reason,
            };
            let text = std::fs::read_to_string(&file).map_err(|e| bad(e.to_string()))?;
            let report = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            let name = |p: &Path| {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            };
            found.push(crate::PeopleRun {
                step: name(step),
                lane: name(file.parent().unwrap_or(step)),
                report,
            });
        }
    }
    Ok(found)
}

/// Judges a results directory against the recipe's claims. `machine`
/// overrides what `env.json` says about the machine.
pub fn report_from_dir(
    recipe: &Recipe,
    dir: &Path,
    machine: Option<MachineMatch>,
    run: RunInfo,
    settings: &Settings,
) -> Result<Report, ReportError> {
    let mut measurements = read_results_dir(dir)?;
    align_lanes(&mut measurements, recipe);
    let env = read_bench_env(dir)?;
    let machine = machine.unwrap_or_else(|| machine_from_bench_env(recipe, &env));
    let judgement = judge(recipe, &measurements, &machine, settings);
    Ok(Report {
        run,
        judgement,
        measurements,
        environment: environment_from_bench_env(recipe, &env),
        people: read_people(dir)?,
    })
}
