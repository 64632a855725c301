//! An ordering of lanes ("Falcon above Puma"), judged pair by pair on each
//! pair's ratio interval.

use crate::band::ReadsOff;
use crate::gates::CellReading;
use crate::statistics::median;
use crate::verdict::{FigureReading, Outcome, Settings, Verdict, values_of};
use crate::why::{OrderFinding, OrderPair, PairFigure, Why};

/// The two cells' runs paired by run number, when both ran the same rounds.
pub(crate) fn rounds(
    a: &FigureReading,
    b: &FigureReading,
    cells: &[CellReading],
) -> Option<Vec<(f64, f64)>> {
    let runs = |r: &FigureReading| {
        let key = r.cell.as_ref()?;
        let cell = cells.iter().find(|c| &c.cell.key == key)?;
        let mut runs: Vec<(u32, f64)> = cell
            .cell
            .runs
            .iter()
            .filter_map(|x| Some((x.run, x.value?)))
            .collect();
        runs.sort_by_key(|(n, _)| *n);
        Some(runs)
    };
    let (x, y) = (runs(a)?, runs(b)?);
    let same = x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| p.0 == q.0);
    same.then(|| x.iter().zip(&y).map(|(p, q)| (p.1, q.1)).collect())
}

/// The band around one inside which an ordering's figures are level, where
/// the claim gives no `tolerance`: ±5%.
pub const LEVEL_BAND: f64 = 0.05;

/// An ordering holds pair by pair: each pair's ratio interval (drawn as a
/// ratio claim's is, paired by rounds where the lanes alternated) wholly on
/// the published side of one. A ratio's interval, not whether the two
/// figures' own intervals overlap: two intervals can overlap while their
/// ratio's stays clear of one, so overlap would ask for more runs than the
/// question needs.
pub(crate) fn judge_ordering(
    verdict: &mut Verdict,
    readings: &[&FigureReading],
    cells: &[CellReading],
    settings: &Settings,
    level: f64,
    reads_off: &ReadsOff,
) {
    let higher_first = readings[0].metric.higher_is_better().unwrap_or(true);
    let values = |r: &FigureReading| values_of(r, cells);
    let mut reversed = Vec::new();
    let mut undecided = Vec::new();
    let mut level_pairs = Vec::new();
    let mut pairs = Vec::new();
    for pair in readings.windows(2) {
        if values(pair[0]).is_empty() || values(pair[1]).is_empty() {
            verdict.why = Why::OrderingCellEmpty;
            return;
        }
        let ratio = match rounds(pair[0], pair[1], cells) {
            Some(rounds) if settings.rounds_alternate => settings.bootstrap.paired_ratio(&rounds),
            _ => settings.bootstrap.ratio(&values(pair[0]), &values(pair[1])),
        };
        let ratio = reads_off
            .widening(&pair[0].figure, Some(&pair[1].figure))
            .apply(ratio);
        // A figure of one run has no interval: its value alone.
        let read = |r: &FigureReading| PairFigure {
            figure: r.figure.clone(),
            median: median(&values(r)),
            interval: r.interval,
        };
        let text = OrderPair {
            first: read(pair[0]),
            second: read(pair[1]),
            ratio,
            unit: pair[0].metric.unit().to_string(),
        };
        let (in_order, out_of_order) = if higher_first {
            (ratio.low > 1.0, ratio.high < 1.0)
        } else {
            (ratio.high < 1.0, ratio.low > 1.0)
        };
        let band = [1.0 / (1.0 + level), 1.0 + level];
        if ratio.low >= band[0] && ratio.high <= band[1] {
            level_pairs.push(text.clone());
        } else if out_of_order {
            reversed.push(text.clone());
        } else if !in_order {
            undecided.push(text.clone());
        }
        pairs.push(text);
    }
    let (outcome, finding, pairs) = if !reversed.is_empty() {
        (Outcome::NotReproduced, OrderFinding::Reversed, reversed)
    } else if !level_pairs.is_empty() {
        (
            Outcome::NotReproduced,
            OrderFinding::Level { level },
            level_pairs,
        )
    } else if !undecided.is_empty() {
        (Outcome::Inconclusive, OrderFinding::Undecided, undecided)
    } else {
        (Outcome::Reproduced, OrderFinding::InOrder, pairs)
    };
    verdict.outcome = outcome;
    verdict.why = Why::Ordering { finding, pairs };
}
