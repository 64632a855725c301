//! One run is one run: a cell measured once has no spread, so no interval
//! can be drawn around it. A figure read from such a cell shows its value
//! alone, and a claim resting on one is not decided by it: its verdict says
//! so, with the values at face value.

use reprise_recipe::ClaimKind;

use crate::gates::CellReading;
use crate::verdict::{FigureReading, Outcome, Verdict, values_of as values};
use crate::why::{Note, OneRunReading, Why};

/// A verdict whose claim rests on a cell of one run: no interval, and not
/// decided ("one run: no spread measured"), with the values read and what
/// they would say at face value. A spread claim says so itself; a claim its
/// cells could not be used for (not measured, no data) is left as it is.
pub(crate) fn no_spread(verdict: &mut Verdict, readings: &[&FigureReading], cells: &[CellReading]) {
    let judged = verdict.outcome.is_judged();
    let shown = matches!(verdict.outcome, Outcome::NotComparable) && verdict.measured.is_some();
    // A tag count is exact: the one check that read it is the reading.
    let exact = readings.iter().all(|r| r.metric.is_shape());
    if verdict.kind == ClaimKind::Spread || exact || !(judged || shown) {
        return;
    }
    let runs: Vec<Vec<f64>> = readings.iter().map(|r| values(r, cells)).collect();
    if !runs.iter().any(|v| v.len() == 1) {
        return;
    }
    verdict.measured = None;
    verdict.more_runs = None;
    if shown {
        verdict.notes.push(Note::OneRun);
        return;
    }
    let readings = readings
        .iter()
        .zip(&runs)
        .map(|(r, v)| OneRunReading {
            figure: r.figure.clone(),
            value: crate::statistics::median(v),
            runs: v.len() as u32,
            unit: r.metric.unit().to_string(),
        })
        .collect();
    let face = verdict.outcome;
    verdict.outcome = Outcome::Inconclusive;
    verdict.why = Why::OneRun { readings, face };
    verdict.notes.clear();
}
