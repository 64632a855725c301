//! Judging what a run measured against its recipe's claims, into the
//! [`Report`] the history stores and every front end renders: a Reprise
//! run's folder ([`judge_run`]) or a folder of the harness's files, a
//! published run's ([`judge_results_dir`]). The CLI and the desktop app both
//! come here, so a run is judged one way wherever it was started.

use std::path::Path;

use reprise_engine::{LaneHost, RunDir};
use reprise_harness_files::bench_env::BenchEnv;
use reprise_harness_files::records::SkippedLane;
use reprise_harness_files::timestamp::utc_now;
use reprise_recipe::{Action, Metric, Recipe};
use reprise_report::{Environment, PeopleRun, Report, RunInfo, SourceRevision, ToolchainVersion};
use reprise_verdict::sequential::{Look, Standing, UntilConclusive};
use reprise_verdict::{
    CellKey, Deviation, DeviationKind, LaneInfo, MachineDifference, MachineMatch, Measurements,
    Repetition, Settings, Why, align_lanes, align_not_measured, judge,
};
use serde_json::Value;

use crate::SessionError;
use crate::run_folder::{
    load_record, not_measured_of, read_results_json, skipped_of, until_conclusive,
};

/// Judges what `run` measured. `origin` says where the run was started (e.g.
/// "reprise run"). `Ok(None)` when the run measured nothing to judge.
pub fn judge_run(
    recipe: &Recipe,
    run: &RunDir,
    origin: &str,
) -> Result<Option<Report>, SessionError> {
    let host = LaneHost::recorded(&run.path);
    let report = judge_run_folder(recipe, run, origin)?.map(|mut report| {
        if report.environment.commands.is_empty() {
            report.environment.commands = lane_commands(recipe, &host, &report.measurements);
        }
        report
    });
    Ok(report.map(|r| unnamed(r, &host)))
}

/// The commands of the lanes the run measured, in the recipe's order, as
/// they were started on `host` ([`LaneHost::lane_command`]).
fn lane_commands(
    recipe: &Recipe,
    host: &LaneHost,
    measured: &reprise_verdict::Measurements,
) -> Vec<Vec<String>> {
    recipe
        .lanes
        .iter()
        .filter(|lane| lane.is_runnable())
        .filter(|lane| {
            measured
                .cells
                .iter()
                .any(|c| c.key.lane == lane.name.as_str())
        })
        .map(|lane| host.lane_command(lane))
        .collect()
}

/// `report` with every text that names the server host its lanes were
/// served on (an engine's error says where it was asked) saying "the server
/// host" instead: where a reader's machines are is theirs, not the
/// report's. Its address goes too (sharing also redacts addresses by their
/// shape).
fn unnamed(report: Report, host: &LaneHost) -> Report {
    fn unname(value: &mut Value, host: &LaneHost) {
        match value {
            Value::String(text) => *text = host.unnamed(text),
            Value::Array(items) => items.iter_mut().for_each(|v| unname(v, host)),
            Value::Object(fields) => fields.values_mut().for_each(|v| unname(v, host)),
            _ => {}
        }
    }
    let Ok(mut value) = serde_json::to_value(&report) else {
        return report;
    };
    unname(&mut value, host);
    serde_json::from_value(value).unwrap_or(report)
}

/// Marks each verdict of a run that went on until its claims were decided
/// with the look that decided it, and the judgement with the rule. A verdict
/// is marked only where the final judgement (on every run, other claims'
/// added ones too) says what the deciding look said.
fn mark_sequential(judgement: &mut reprise_verdict::Judgement, record: &UntilConclusive) {
    judgement.sequential = Some(record.rule.clone());
    mark_decided(&mut judgement.verdicts, &record.looks);
}

fn mark_decided(verdicts: &mut [reprise_verdict::Verdict], looks: &[Look]) {
    for look in looks {
        for claim in &look.claims {
            let Standing::Decided {
                outcome,
                measured,
                why,
                notes,
            } = &claim.standing
            else {
                continue;
            };
            let verdict = verdicts.iter_mut().find(|v| v.claim == claim.claim);
            if let Some(v) = verdict.filter(|v| v.decided_after.is_none() && v.outcome == *outcome)
            {
                v.decided_after = Some(look.runs);
                // What the deciding look knew: its interval and why, not
                // those of runs other claims added after it.
                if let Some(measured) = measured {
                    v.measured = Some(*measured);
                }
                if *why != Why::default() {
                    (v.why, v.notes) = (why.clone(), notes.clone());
                }
            }
        }
    }
}

fn judge_run_folder(
    recipe: &Recipe,
    run: &RunDir,
    origin: &str,
) -> Result<Option<Report>, SessionError> {
    let results = run.results();
    // Lanes alternate within each round, so rounds are paired samples.
    let settings = Settings {
        rounds_alternate: true,
        ..settings_of(&results)?
    };
    let sequential = until_conclusive(&results)?;
    let mut info = RunInfo::for_recipe(recipe, &run.id, &utc_now());
    info.origin = Some(format!("{origin}, {}", run.path.display()));
    let skipped = skipped_of(&results)?;
    let deviations = deviations_of(&results, &skipped)?;
    if results.join(reprise_harness_files::PER_RUN_FILE).is_file() {
        let mut report = judge_harness_files(recipe, &results, None, info, &settings, &skipped)?;
        report.judgement = report.judgement.with_deviations(deviations);
        if let Some(sequential) = &sequential {
            mark_sequential(&mut report.judgement, sequential);
        }
        return Ok(Some(report));
    }
    let mut measurements = command_measurements(recipe, &results);
    measurements.not_measured = not_measured_of(&skipped);
    align_not_measured(&mut measurements, recipe);
    let people = read_people(&results)?;
    if measurements.cells.is_empty() && people.is_empty() {
        return Ok(None);
    }
    let env = reprise_harness_files::read_env(&results)?.unwrap_or(Value::Null);
    let machine = if env.is_null() {
        MachineMatch::Differs(vec![MachineDifference::not_compared(
            "this machine was not compared with the post's",
        )])
    } else {
        machine_from_bench_env(recipe, &env)
    };
    Ok(Some(Report {
        run: info,
        judgement: judge(recipe, &measurements, &machine, &settings).with_deviations(deviations),
        environment: environment_from_bench_env(recipe, &env),
        measurements,
        people,
    }))
}

/// How a folder of results is judged: a folder of Reprise's
/// (`results.json`) pairs its rounds, as its lanes alternated in them, and a
/// run that went on until its claims were decided is judged at its looks'
/// confidence, so its verdicts hold whichever look it stopped at. A folder
/// of the original harness's alone is judged at the defaults.
pub fn settings_of(results: &Path) -> Result<Settings, SessionError> {
    let Some(record) = load_record(results)? else {
        return Ok(Settings::default());
    };
    let mut settings = Settings {
        rounds_alternate: true,
        ..Settings::default()
    };
    if let Some(confidence) = record
        .until_conclusive
        .map(|r| r.confidence)
        .filter(|c| (0.5..1.0).contains(c))
    {
        settings.bootstrap.confidence = confidence;
    }
    Ok(settings)
}

/// Judges a folder of the harness's files against the recipe's claims:
/// `per-run.json` for the cells, `env.json` for the machine and the
/// appendix, `skipped.json` for the lanes that were not measured and why.
/// `machine` overrides what `env.json` says about the machine.
pub fn judge_results_dir(
    recipe: &Recipe,
    dir: &Path,
    machine: Option<MachineMatch>,
    run: RunInfo,
    settings: &Settings,
) -> Result<Report, SessionError> {
    let skipped = skipped_of(dir)?;
    judge_harness_files(recipe, dir, machine, run, settings, &skipped)
}

/// [`judge_results_dir`] with the folder's `skipped.json` already read.
fn judge_harness_files(
    recipe: &Recipe,
    dir: &Path,
    machine: Option<MachineMatch>,
    run: RunInfo,
    settings: &Settings,
    skipped: &[SkippedLane],
) -> Result<Report, SessionError> {
    let mut measurements = reprise_harness_files::read_measurements(dir)?;
    measurements.not_measured = not_measured_of(skipped);
    align_lanes(&mut measurements, recipe);
    attach_cold_starts(
        &mut measurements,
        recipe,
        &reprise_harness_files::read_cold_starts(dir)?,
    );
    attach_server_cpu(&mut measurements, dir)?;
    measurements.workers_seen = reprise_harness_files::read_shapes(dir)?
        .into_iter()
        .filter_map(|s| Some((s.lane, s.workers_seen?)))
        .collect();
    let env = reprise_harness_files::read_env(dir)?.unwrap_or(Value::Null);
    let server_host = reprise_engine::lanes::remote_engine::as_reported(
        read_results_json(dir, reprise_engine::lanes::remote_engine::SERVER_ENV_FILE)?
            .unwrap_or(Value::Null),
    );
    measurements.link_ceiling = server_host["link"]["ceiling_req_per_s"].as_f64();
    let machine = machine.unwrap_or_else(|| machine_from_bench_env(recipe, &env));
    let judgement = judge(recipe, &measurements, &machine, settings);
    let mut environment = environment_from_bench_env(recipe, &env);
    environment.server_host = server_host;
    Ok(Report {
        run,
        judgement,
        measurements,
        environment,
        people: read_people(dir)?,
    })
}

/// Each boot of `coldstart.json` as a run of the cells the recipe's figures
/// read of its lane: `boot_accept_s` (to its first answer) and
/// `boot_page_s` (to its page answering 200, the signed-in room page where
/// the lane was signed in to; a page that never did is a run without a
/// value). A boot's `target` names its lane as
/// [`reprise_verdict::lane_of_target`] reads it.
fn attach_cold_starts(
    measurements: &mut Measurements,
    recipe: &Recipe,
    boots: &[reprise_harness_files::records::ColdStart],
) {
    for boot in boots {
        let Some(lane) = reprise_verdict::lane_of_target(recipe, &boot.target) else {
            continue;
        };
        let readings = [
            (Metric::BootAcceptS, Some(boot.accept_ms / 1000.0)),
            (
                Metric::BootPageS,
                (boot.page_code == 200).then_some(boot.page_ms / 1000.0),
            ),
        ];
        for (metric, value) in readings {
            let read = recipe
                .figures
                .iter()
                .any(|f| f.lane.as_str() == lane && f.endpoint.is_none() && f.metric == metric);
            if !read {
                continue;
            }
            measurements.push_run(
                CellKey::new(lane, None, metric),
                Repetition {
                    run: boot.rep,
                    value,
                    errors: u64::from(value.is_none()),
                    client_cpu: None,
                    server_cpu: None,
                    first_attempt_taken: None,
                },
            );
        }
    }
}

/// What each server got from the machine in each run, and the runs measured
/// again because other work spoiled their first attempt, which the harness's
/// `per-run.json` has no field for: Reprise keeps it in its own
/// `measurements.json` beside it (cells keyed by the recipe's lanes).
fn attach_server_cpu(measurements: &mut Measurements, dir: &Path) -> Result<(), SessionError> {
    let Some(ours) = read_results_json(dir, reprise_engine::run::results::MEASUREMENTS_FILE)?
    else {
        return Ok(());
    };
    let Ok(ours) = serde_json::from_value::<Measurements>(ours) else {
        return Ok(());
    };
    for cell in &mut measurements.cells {
        let Some(theirs) = ours.cell(&cell.key) else {
            continue;
        };
        for run in &mut cell.runs {
            let ours = theirs
                .runs
                .iter()
                .find(|r| r.run == run.run && r.value == run.value);
            run.server_cpu = ours.and_then(|r| r.server_cpu);
            run.first_attempt_taken = ours.and_then(|r| r.first_attempt_taken);
        }
    }
    Ok(())
}

/// How the run differs from the post: what the engine recorded in
/// `deviations.json`, and every lane `skipped.json` says did not run.
fn deviations_of(results: &Path, skipped: &[SkippedLane]) -> Result<Vec<Deviation>, SessionError> {
    let mut found: Vec<Deviation> =
        match read_results_json(results, reprise_engine::DEVIATIONS_FILE)? {
            Some(v) => serde_json::from_value(v).unwrap_or_default(),
            None => Vec::new(),
        };
    for lane in skipped {
        found.push(Deviation {
            kind: DeviationKind::Lane,
            // Worded as the verdicts of its claims say it, so that a page
            // or the terminal can say it once.
            what: format!(
                "lane {} was not measured ({}): {}",
                lane.target,
                lane.stage,
                lane.reason.trim()
            ),
            lanes: vec![lane.target.clone()],
        });
    }
    Ok(found)
}

/// Figures a plain command step printed: a command step named like a lane
/// whose last output line is a JSON object leaves it in
/// `results/<step>.json` (an array of them, one per run, for a step that
/// repeats); its keys named like a metric (`seconds`, `count`,
/// `memory_mb`, …) become that lane's cells, a run per object. A
/// `requested` key is the count the command was asked for: the lane's cap.
fn command_measurements(recipe: &Recipe, results: &Path) -> Measurements {
    let mut m = Measurements::default();
    for step in &recipe.steps {
        if !matches!(step.action, Action::Command(_)) || recipe.lane(&step.id).is_none() {
            continue;
        }
        let Some(printed) = std::fs::read(results.join(format!("{}.json", step.id)))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        else {
            continue;
        };
        let runs = match printed {
            Value::Array(runs) => runs,
            one => vec![one],
        };
        for (n, figures) in runs.iter().enumerate() {
            for metric in Metric::ALL {
                if let Some(value) = figures.get(metric.name()).and_then(|v| v.as_f64()) {
                    m.lanes
                        .entry(step.id.to_string())
                        .or_insert_with(|| LaneInfo {
                            target: step.id.to_string(),
                            ..LaneInfo::default()
                        });
                    m.push_run(
                        CellKey::new(&step.id, None, metric),
                        Repetition {
                            run: n as u32 + 1,
                            value: Some(value),
                            errors: 0,
                            client_cpu: None,
                            server_cpu: None,
                            first_attempt_taken: None,
                        },
                    );
                }
            }
            if let Some(cap) = figures.get("requested").and_then(Value::as_f64) {
                m.caps.insert(step.id.to_string(), cap);
            }
        }
    }
    m
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Whether the machine an `env.json` describes is the recipe's reference
/// machine: the file read as a fingerprint (lscpu's rows, boost's "0"/"1",
/// what it does not record left unknown) and compared item by item exactly
/// as `reprise preflight --machine` compares it. Anything that differs or
/// is not recorded keeps absolute figures from being judged.
fn machine_from_bench_env(recipe: &Recipe, env: &Value) -> MachineMatch {
    if recipe.machine.is_none() {
        return MachineMatch::Differs(vec![MachineDifference::not_compared(
            "the recipe names no reference machine",
        )]);
    }
    if env.is_null() {
        return MachineMatch::Differs(vec![MachineDifference::not_compared(
            "no fingerprint of the measuring machine (env.json)",
        )]);
    }
    let fingerprint = match serde_json::from_value::<BenchEnv>(env.clone()) {
        Ok(env) => env.to_fingerprint(),
        Err(e) => {
            return MachineMatch::Differs(vec![MachineDifference::not_compared(format!(
                "env.json is not bench-env's record of a machine: {e}"
            ))]);
        }
    };
    reprise_engine::run::machine_match::machine_match(recipe, &fingerprint)
}

/// The appendix a bench-env and the recipe give.
/// Every toolchain the recipe names (its servers too), in its order, as the
/// run asked them (Reprise's own record in env.json): the version's first
/// line, or that it was not found. `None` for a run without that record (a
/// published harness run: bench-env's own list stands).
fn recipe_toolchains(recipe: &Recipe, env: &Value) -> Option<Vec<ToolchainVersion>> {
    let tools = env["reprise"]["toolchains"]["tools"].as_array()?;
    Some(
        recipe
            .toolchains
            .iter()
            .map(|t| {
                let asked = tools.iter().find(|a| a["tool"] == t.name.as_str());
                let version = match asked {
                    Some(a) if a["status"] == "missing" => "not found on this machine".to_string(),
                    Some(a) => text(&a["first_line"])
                        .or_else(|| text(&a["error"]).map(|e| format!("did not answer: {e}")))
                        .unwrap_or_else(|| "not asked".into()),
                    None => "not asked".into(),
                };
                ToolchainVersion {
                    name: t.name.to_string(),
                    version,
                }
            })
            .collect(),
    )
}

fn environment_from_bench_env(recipe: &Recipe, env: &Value) -> Environment {
    let mut fingerprint = serde_json::Map::new();
    for key in ["host", "os", "cpu", "memory_mb", "clock", "conditions"] {
        if let Some(v) = env.get(key) {
            fingerprint.insert(key.to_string(), v.clone());
        }
    }
    let toolchains = recipe_toolchains(recipe, env).unwrap_or_else(|| {
        env["toolchains"]
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
            .unwrap_or_default()
    });
    let mut sources = Environment::sources_of(recipe);
    if let Some(sha) = text(&env["git"]["sha"]) {
        let dirty = env["git"]["dirty"].as_bool() == Some(true);
        sources.push(SourceRevision {
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
        server_host: Value::Null,
    }
}

/// The many-people reports under `dir`: every `<step>/<lane>/people.json`,
/// sorted by step, then lane. An unreadable one is an error naming the file.
fn read_people(dir: &Path) -> Result<Vec<PeopleRun>, SessionError> {
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
            let bad = |reason: String| SessionError::ResultsFile {
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
            found.push(PeopleRun {
                step: name(step),
                lane: name(file.parent().unwrap_or(step)),
                report,
            });
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(claim: &str, outcome: &str) -> reprise_verdict::Verdict {
        serde_json::from_value(serde_json::json!({
            "claim": claim, "kind": "ratio", "quote": "", "outcome": outcome,
            "reason": "", "published": 1.0, "unit": "×", "tolerance": 0.1,
            "band": [0.9, 1.1], "measured": null, "more_runs": null, "figures": [],
        }))
        .unwrap()
    }

    /// Looks as `results.json` has them (a decided standing written before
    /// its interval and reason were recorded has neither).
    fn looks(written: Value) -> Vec<Look> {
        serde_json::from_value(written).unwrap()
    }

    #[test]
    fn the_record_reads_back_as_the_engine_wrote_it_and_a_broken_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let looks = reprise_verdict::sequential::Looks::plan(3, 12);
        let mut record = UntilConclusive::planned(600, &looks);
        record.looks = self::looks(serde_json::json!([
            {"runs": 3, "claims": [{"claim": "c", "standing": "open", "why": "w", "cells": []}]},
        ]));
        record.stopped = Some("the last planned look (12 runs per cell)".into());
        record.runs = Some(12);
        let results = |until_conclusive: serde_json::Value| {
            let written = serde_json::json!({
                "recipe": "r", "run": "r-1", "workload": "w", "quick": false,
                "cells": [], "until_conclusive": until_conclusive,
            });
            std::fs::write(dir.path().join("results.json"), written.to_string()).unwrap();
            written
        };
        let written = results(serde_json::to_value(&record).unwrap());
        // The field names results.json has always had.
        let mut fields: Vec<&String> = written["until_conclusive"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        fields.sort();
        assert_eq!(
            fields,
            [
                "budget_s",
                "confidence",
                "looks",
                "looks_planned",
                "rule",
                "runs",
                "stopped"
            ]
        );
        assert_eq!(until_conclusive(dir.path()).unwrap(), Some(record.clone()));
        let settings = settings_of(dir.path()).unwrap();
        assert_eq!(settings.bootstrap.confidence, looks.confidence);

        results(serde_json::Value::Null);
        assert_eq!(until_conclusive(dir.path()).unwrap(), None);
        results(serde_json::json!({"looks": "none"}));
        let Err(SessionError::ResultsFile { file, reason }) = until_conclusive(dir.path()) else {
            panic!("a broken record is an error")
        };
        assert_eq!(file, dir.path().join("results.json"));
        assert!(reason.contains("line 1 column"), "{reason}");
    }

    #[test]
    fn a_verdict_is_marked_decided_only_where_the_final_judgement_agrees_with_its_look() {
        let mut verdicts = [
            verdict("kept", "reproduced"),
            verdict("overturned", "inconclusive"),
            verdict("open", "not_reproduced"),
        ];
        let looks = looks(serde_json::json!([
            {"runs": 3, "claims": [
                {"claim": "kept", "standing": "decided", "outcome": "reproduced"},
                {"claim": "overturned", "standing": "decided", "outcome": "reproduced"},
                {"claim": "open", "standing": "open", "why": "", "cells": []},
            ]},
            {"runs": 5, "claims": [
                {"claim": "kept", "standing": "decided", "outcome": "reproduced"},
                {"claim": "open", "standing": "decided", "outcome": "not_reproduced"},
            ]},
        ]));
        mark_decided(&mut verdicts, &looks);
        let after: Vec<_> = verdicts.iter().map(|v| v.decided_after).collect();
        assert_eq!(after, [Some(3), None, Some(5)]);
    }

    #[test]
    fn a_decided_verdict_shows_the_interval_and_reason_of_the_look_that_decided_it() {
        // Decided at 3 runs; later runs, added for another claim, moved the
        // final interval: the verdict that says "decided after 3" shows
        // what the third run's look knew.
        let mut verdicts = [verdict("early", "reproduced")];
        verdicts[0].measured = Some(reprise_verdict::Interval {
            estimate: 1.0,
            low: 0.99,
            high: 1.01,
        });
        verdicts[0].why = Why::Worded {
            text: "from 27 runs".into(),
        };
        let looks = looks(serde_json::json!([
            {"runs": 3, "claims": [
                {"claim": "early", "standing": "decided", "outcome": "reproduced",
                 "measured": {"estimate": 1.02, "low": 0.95, "high": 1.08},
                 "reason": "from 3 runs"},
            ]},
        ]));
        mark_decided(&mut verdicts, &looks);
        let v = &verdicts[0];
        assert_eq!(v.decided_after, Some(3));
        assert_eq!(v.measured.map(|m| m.low), Some(0.95));
        // A look an earlier Reprise recorded with its reason in words.
        assert_eq!(
            v.why,
            Why::Worded {
                text: "from 3 runs".into()
            }
        );
    }
}
