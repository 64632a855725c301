//! What the session reads of a run's `results/` beyond the harness's own
//! files (`reprise_harness_files`) and the engine's records
//! (`reprise_engine::run::results`): a JSON file there, the lanes
//! `skipped.json` names, and the looks of a run that went on until its
//! claims were decided, each read one way for the judge and the run alike.

use std::collections::BTreeMap;
use std::path::Path;

use reprise_engine::run::results::LoadRecord;
use reprise_harness_files::records::SkippedLane;
use reprise_verdict::LaneSkip;
use reprise_verdict::sequential::UntilConclusive;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::SessionError;

/// A lane the run did not measure, or stopped measuring, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct LaneSkipped {
    pub lane: String,
    /// Where and why: `preflight: Cannot run: it needs falcon, which this
    /// machine lacks.`; a lane skipped at several stages has them all.
    pub why: String,
}

impl LaneSkipped {
    /// A lane and the stages that skipped it, in words.
    pub fn of(lane: &str, skips: &[LaneSkip]) -> LaneSkipped {
        LaneSkipped {
            lane: lane.to_string(),
            why: skips
                .iter()
                .map(LaneSkip::to_string)
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// The load step's record (`results.json`), where a load step ran; a
/// record that does not read is an error naming the file.
pub(crate) fn load_record(results: &Path) -> Result<Option<LoadRecord>, SessionError> {
    LoadRecord::read(results).map_err(|e| SessionError::ResultsFile {
        file: e.file,
        reason: e.reason,
    })
}

/// The looks of a run that went on until its claims were decided, where
/// it did.
pub(crate) fn until_conclusive(results: &Path) -> Result<Option<UntilConclusive>, SessionError> {
    Ok(load_record(results)?.and_then(|r| r.until_conclusive))
}

/// A JSON file of the results folder, where it is there.
pub(crate) fn read_results_json(results: &Path, name: &str) -> Result<Option<Value>, SessionError> {
    let file = results.join(name);
    if !file.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&file).map_err(|e| SessionError::ResultsFile {
        file: file.clone(),
        reason: e.to_string(),
    })?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| SessionError::ResultsFile {
            file,
            reason: e.to_string(),
        })
}

/// The lanes `skipped.json` says did not run (or stopped), and where; a
/// file that is not a list of them is an error naming it, never "none".
pub(crate) fn skipped_of(results: &Path) -> Result<Vec<SkippedLane>, SessionError> {
    match read_results_json(results, reprise_harness_files::SKIPPED_FILE)? {
        Some(v) => serde_json::from_value(v).map_err(|e| SessionError::ResultsFile {
            file: results.join(reprise_harness_files::SKIPPED_FILE),
            reason: format!("not a list of skipped lanes: {e}"),
        }),
        None => Ok(Vec::new()),
    }
}

/// Every lane a run's `skipped.json` names, with why, by lane.
pub(crate) fn skipped_lanes(results: &Path) -> Result<Vec<LaneSkipped>, SessionError> {
    Ok(not_measured_of(&skipped_of(results)?)
        .iter()
        .map(|(lane, skips)| LaneSkipped::of(lane, skips))
        .collect())
}

/// Why each skipped lane (as `skipped.json` names it) was not measured:
/// at `preflight`, it needs falcon, which this machine lacks; a lane
/// skipped at several stages has them all.
pub(crate) fn not_measured_of(skipped: &[SkippedLane]) -> BTreeMap<String, Vec<LaneSkip>> {
    let mut found: BTreeMap<String, Vec<LaneSkip>> = BTreeMap::new();
    for lane in skipped {
        found
            .entry(lane.target.clone())
            .or_default()
            .push(LaneSkip {
                stage: Some(lane.stage.clone()),
                because: lane.reason.trim().to_string(),
            });
    }
    found
}
