//! A count stopped at the recipe's own cap: where every lane of an ordering
//! made exactly what its command asked for, the ordering says nothing about
//! which can make more, and the verdict says why ("both reached the cap of
//! 10,000") rather than a bare inconclusive.

use reprise_recipe::{ClaimKind, Metric};
use std::collections::BTreeMap;

use crate::gates::CellReading;
use crate::verdict::{FigureReading, Outcome, Verdict};
use crate::why::Why;

/// Makes an ordering of counts inconclusive where every figure's cell
/// reached, in every run, the cap its lane's command was given
/// ([`crate::Measurements::caps`]), the same cap for all.
pub(crate) fn both_at_cap(
    verdict: &mut Verdict,
    readings: &[&FigureReading],
    cells: &[CellReading],
    caps: &BTreeMap<String, f64>,
) {
    if verdict.kind != ClaimKind::Ordering || !verdict.outcome.is_judged() || readings.len() < 2 {
        return;
    }
    let at_cap = |r: &FigureReading| -> Option<f64> {
        let cap = *caps.get(&r.lane)?;
        let key = r.cell.as_ref().filter(|k| k.metric() == Metric::Count)?;
        let values = cells.iter().find(|c| &c.cell.key == key)?.values();
        (!values.is_empty() && values.iter().all(|v| *v == cap)).then_some(cap)
    };
    let Some(caps): Option<Vec<f64>> = readings.iter().map(|r| at_cap(r)).collect() else {
        return;
    };
    if caps.windows(2).any(|w| w[0] != w[1]) {
        return;
    }
    verdict.outcome = Outcome::Inconclusive;
    verdict.measured = None;
    verdict.more_runs = None;
    verdict.why = Why::AtCap {
        cap: caps[0],
        lanes: readings.len() as u32,
    };
}
