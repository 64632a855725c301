//! An interval against the band a claim accepts: wholly inside it
//! reproduced, wholly outside it not reproduced, across an edge
//! inconclusive, with how many more runs would settle it; and how far an
//! interval judged per CPU-second is widened for how far it may read off.

use crate::cpu_share::{LaneCpu, MISS_PER_SHARE_TAKEN};
use crate::statistics::{Interval, narrowed};
use crate::verdict::{Outcome, Verdict};
use crate::why::{Measure, Place, Settle, Why};

/// Where an interval lies against a band.
#[derive(Debug, PartialEq)]
pub(crate) enum Lies {
    Inside,
    Outside,
    Straddling,
}

/// What an interval comes to against a band: wholly inside it reproduced,
/// wholly outside it not reproduced, across an edge inconclusive. The rule
/// every verdict on a band is reached by, and by which a stranger's post is
/// checked (its stated outcome against its own interval and this recipe's
/// band).
pub fn placed(interval: &Interval, band: [f64; 2]) -> Outcome {
    match lies(interval, band) {
        Lies::Inside => Outcome::Reproduced,
        Lies::Outside => Outcome::NotReproduced,
        Lies::Straddling => Outcome::Inconclusive,
    }
}

pub(crate) fn lies(interval: &Interval, band: [f64; 2]) -> Lies {
    if interval.low >= band[0] && interval.high <= band[1] {
        Lies::Inside
    } else if interval.high < band[0] || interval.low > band[1] {
        Lies::Outside
    } else {
        Lies::Straddling
    }
}

/// How many more runs per cell would likely put the whole interval on one
/// side of the band's nearest edge, its width narrowing as
/// [`crate::statistics::narrowed`] says for an interval at `confidence`.
/// `None` when the estimate sits on the edge itself, or more than 10,000
/// runs would be needed.
pub fn more_runs_to_settle(
    interval: &Interval,
    band: [f64; 2],
    runs: usize,
    confidence: f64,
) -> Option<u32> {
    const MOST: usize = 10_000;
    let est = interval.estimate;
    let distance = (est - band[0]).abs().min((est - band[1]).abs());
    let half = (est - interval.low).max(interval.high - est);
    if distance <= f64::EPSILON * est.abs().max(1.0) || runs == 0 || !half.is_finite() {
        return None;
    }
    let settles = |n: usize| narrowed(half, runs, n, confidence) < distance;
    // The half-width only narrows with more runs: double, then bisect.
    let (mut short, mut enough) = (runs, runs + 1);
    while !settles(enough) {
        if enough >= MOST {
            return None;
        }
        short = enough;
        enough = (enough * 2).min(MOST);
    }
    while enough - short > 1 {
        let mid = (short + enough) / 2;
        if settles(mid) {
            enough = mid;
        } else {
            short = mid;
        }
    }
    Some((enough - runs) as u32)
}

/// Places `measured`, widened by `widening`, against `band`.
pub(crate) fn banded(
    verdict: &mut Verdict,
    measured: Interval,
    widening: Widening,
    band: [f64; 2],
    runs: usize,
    what: Measure,
    confidence: f64,
) {
    let interval = widening.apply(measured);
    verdict.band = Some(band);
    verdict.measured = Some(interval);
    let place = match lies(&interval, band) {
        Lies::Inside => {
            verdict.outcome = Outcome::Reproduced;
            Place::Inside
        }
        Lies::Outside => {
            verdict.outcome = Outcome::NotReproduced;
            Place::Outside
        }
        Lies::Straddling => {
            verdict.outcome = Outcome::Inconclusive;
            let settling = widening.settling_band(measured.estimate, band);
            verdict.more_runs =
                settling.and_then(|band| more_runs_to_settle(&measured, band, runs, confidence));
            let settle = match verdict.more_runs {
                Some(runs) => Settle::MoreRuns { runs },
                None if widening.is_some() && settling.is_none() => Settle::QuieterMachine,
                None => Settle::OnTheEdge,
            };
            Place::Straddles { settle }
        }
    };
    verdict.why = Why::Banded {
        what,
        measured: interval,
        band,
        confidence,
        place,
    };
}

/// How far each figure's rates per CPU-second may read from a quiet run's:
/// up to [`MISS_PER_SHARE_TAKEN`] of the share of its CPUs other work took,
/// either way. Putting back the time taken does not put back what the other
/// work did to the rest (caches and memory bandwidth spoiled reads low; a
/// server that had less CPU serving fuller queues, fewer wake-ups a request,
/// reads high), and bench/contention measured how far that goes.
#[derive(Debug, Default)]
pub(crate) struct ReadsOff(Vec<(String, f64)>);

impl ReadsOff {
    pub(crate) fn of(lanes: &[LaneCpu]) -> ReadsOff {
        ReadsOff(
            lanes
                .iter()
                .filter_map(|l| Some((l.figure.clone(), l.taken()?)))
                .filter(|(_, taken)| *taken > 0.0)
                .collect(),
        )
    }

    /// The most `figure`'s rates may read off, as a share of the quiet rate.
    fn off(&self, figure: &str) -> f64 {
        self.0
            .iter()
            .find(|(f, _)| f == figure)
            .map_or(0.0, |(_, t)| (t * MISS_PER_SHARE_TAKEN).min(0.9))
    }

    /// How far the interval of `figure`, or of `figure` over `over`,
    /// reaches: each may read low or high by its own [`Self::off`].
    pub(crate) fn widening(&self, figure: &str, over: Option<&str>) -> Widening {
        let (num, den) = (self.off(figure), over.map_or(0.0, |d| self.off(d)));
        Widening {
            down: (1.0 - den) / (1.0 + num),
            up: (1.0 + den) / (1.0 - num),
        }
    }
}

/// An interval's ends moved out by factors that more runs do not shrink.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Widening {
    down: f64,
    up: f64,
}

impl Widening {
    pub(crate) fn apply(self, interval: Interval) -> Interval {
        Interval {
            estimate: interval.estimate,
            low: interval.low * self.down,
            high: interval.high * self.up,
        }
    }

    pub(crate) fn is_some(self) -> bool {
        self.down < 1.0 || self.up > 1.0
    }

    /// The band the unwidened interval must settle against so that the
    /// widened one settles against `band`; `None` where the widening alone,
    /// at the estimate, already reaches across the band's nearest edge.
    pub(crate) fn settling_band(self, estimate: f64, band: [f64; 2]) -> Option<[f64; 2]> {
        let (inner, outer) = (
            [band[0] / self.down, band[1] / self.up],
            [band[0] / self.up, band[1] / self.down],
        );
        let settles = if estimate < band[0] {
            estimate < outer[0]
        } else if estimate > band[1] {
            estimate > outer[1]
        } else {
            inner[0] < estimate && estimate < inner[1]
        };
        settles.then_some(if (band[0]..=band[1]).contains(&estimate) {
            inner
        } else {
            outer
        })
    }
}
