//! A claim the post made between lanes of one shape (the `rails` and `ruby`
//! rows both at Campfire's `(processor_count * 0.666).ceil` workers, the
//! one-process rows at one) is a claim about their runtimes only where they
//! ran one shape. Where the servers here ran different numbers of workers
//! (one sized itself to the CPUs it saw, another was given a number), the
//! claim is not judged, and the verdict says what each ran.

use std::collections::{BTreeMap, BTreeSet};

use reprise_recipe::Recipe;

use crate::verdict::{FigureReading, Outcome, Verdict};
use crate::why::{LaneWorkers, Why};

/// Makes a judged claim over lanes the recipe gives one shape (the same
/// `workers`) not comparable where their servers ran different numbers of
/// workers here ([`crate::Measurements::workers_seen`]).
pub(crate) fn unmatched(
    verdict: &mut Verdict,
    readings: &[&FigureReading],
    recipe: &Recipe,
    workers_seen: &BTreeMap<String, u32>,
) {
    if !verdict.outcome.is_judged() {
        return;
    }
    let lanes: BTreeSet<&str> = readings.iter().map(|r| r.lane.as_str()).collect();
    if lanes.len() < 2 {
        return;
    }
    let declared: Option<Vec<_>> = lanes
        .iter()
        .map(|l| recipe.lane(l).and_then(|lane| lane.workers))
        .collect();
    let Some(declared) = declared else {
        return;
    };
    if declared.windows(2).any(|w| w[0] != w[1]) {
        return;
    }
    let seen: Option<Vec<(&str, u32)>> = lanes
        .iter()
        .map(|l| workers_seen.get(*l).map(|w| (*l, *w)))
        .collect();
    let Some(seen) = seen else {
        return;
    };
    if seen.windows(2).all(|w| w[0].1 == w[1].1) {
        return;
    }
    verdict.outcome = Outcome::NotComparable;
    verdict.more_runs = None;
    verdict.why = Why::ShapeUnmatched {
        declared: declared[0].to_string(),
        ran: seen
            .iter()
            .map(|(lane, workers)| LaneWorkers {
                lane: lane.to_string(),
                workers: *workers,
            })
            .collect(),
    };
}
