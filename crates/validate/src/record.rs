//! A validation as a run in the history (reprise-history), so `reprise
//! history`, `reprise report` and `reprise share` read it like any run.

use std::path::Path;

use reprise_history::History;
use reprise_recipe::Metric;
use reprise_report::{Environment, Report, RunInfo};
use reprise_verdict::{
    CellKey, Judgement, MachineMatch, Measurements, Repetition, Settings, read_cells,
};

use crate::fitness::Fitness;
use crate::profile::Profile;
use crate::{ValidateError, machine_recipe};

/// The lane the reference server's cells are recorded under.
pub const REFERENCE_LANE: &str = "reference";
/// The lane the stability kernel's runs are recorded under.
pub const KERNEL_LANE: &str = "kernel-run";

/// The profile as a report: the ceiling's runs, the kernel's runs and the
/// timer lag as cells; the verdict in the title; the profile itself in the
/// appendix.
pub fn to_report(profile: &Profile, id: &str) -> Result<Report, ValidateError> {
    let recipe = machine_recipe()?;
    let mut measurements = Measurements {
        reference_lane: Some(REFERENCE_LANE.to_string()),
        ..Measurements::default()
    };
    for (n, run) in profile.ceiling.runs.iter().enumerate() {
        let number = n as u32 + 1;
        measurements.push_run(
            CellKey::new(REFERENCE_LANE, Some("/"), Metric::ReqPerS),
            Repetition {
                run: number,
                value: run.req_per_s,
                errors: run.errors,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
        measurements.push_run(
            CellKey::new(REFERENCE_LANE, Some("/"), Metric::P99Ms),
            Repetition {
                run: number,
                value: run.p99_ms,
                errors: run.errors,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
    // Each kernel run is one fixed piece of work: its time in µs reads
    // better in a report than a fraction of a second.
    let kernel_runs = profile
        .stability
        .cores
        .iter()
        .flat_map(|c| c.runs_ms.iter());
    for (n, ms) in kernel_runs.enumerate() {
        measurements.push_run(
            CellKey::new(KERNEL_LANE, None, Metric::UsPerRequest),
            Repetition {
                run: n as u32 + 1,
                value: Some(ms * 1000.0),
                errors: 0,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
    let timer = &profile.stability.timer;
    for (metric, value) in [(Metric::P50Ms, timer.p50_ms), (Metric::P99Ms, timer.p99_ms)] {
        measurements.push_run(
            CellKey::new("timer-lag", None, metric),
            Repetition {
                run: 1,
                value: Some(value),
                errors: 0,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
    let settings = Settings::default();
    let judgement = Judgement {
        recipe: recipe.id().to_string(),
        machine: match profile.fitness {
            Fitness::Ready => MachineMatch::Matches,
            _ => MachineMatch::Differs(
                profile
                    .caveats
                    .iter()
                    .map(reprise_verdict::MachineDifference::not_compared)
                    .collect(),
            ),
        },
        settings,
        cells: read_cells(&measurements, &settings.thresholds),
        figures: Vec::new(),
        verdicts: Vec::new(),
        deviations: Vec::new(),
        sequential: None,
    };
    let mut run = RunInfo::for_recipe(&recipe, id, &profile.created_at);
    run.title = format!("{}: {}", recipe.post.title, profile.fitness.word());
    run.origin = Some(format!("reprise validate ({})", profile.mode));
    let mut harness = serde_json::to_value(profile)?;
    if let Some(map) = harness.as_object_mut() {
        map.remove("fingerprint");
    }
    Ok(Report {
        run,
        judgement,
        measurements,
        environment: Environment {
            fingerprint: serde_json::to_value(&profile.fingerprint)?,
            harness,
            ..Environment::default()
        },
        people: Vec::new(),
    })
}

/// Saves the validation in the history in `data_dir`; returns its run id.
pub fn save(profile: &Profile, data_dir: &Path) -> Result<String, ValidateError> {
    let mut history = History::open(data_dir)?;
    let recipe = machine_recipe()?;
    let id = history.new_id(recipe.id(), &profile.created_at)?;
    history.store(&to_report(profile, &id)?)?;
    Ok(id)
}
