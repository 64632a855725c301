//! What a measuring step (`load`, `cable`) will do and about how long it
//! will take, from its workload as this run applies it (`--quick` caps it):
//! the plan a reader confirms says it, and the front ends count down from it
//! (elapsed, and about how long is left) as cells finish.
//!
//! ```
//! use reprise_recipe::reading::duration_words;
//!
//! assert_eq!(duration_words(72.4), "1 min 12 s");
//! assert_eq!(duration_words(8.0), "8 s");
//! ```

use std::time::Duration;

use reprise_recipe::reading::{count, duration_words};
use reprise_recipe::{Lane, Name, Workload};
use serde::Serialize;

use crate::run::plan::{Plan, PlannedStep};
use crate::run::steps::kind;

/// Caps `--quick` puts on a workload, so a smoke run takes seconds.
pub const QUICK_DURATION: Duration = Duration::from_secs(2);
pub const QUICK_WARMUP: Duration = Duration::from_secs(1);
pub const QUICK_RUNS: u32 = 2;

/// `--quick` keeps this many of the workload's steps of people.
pub const QUICK_STEPS: u32 = 2;

/// The workload as this run applies it (`--quick` caps it).
pub(crate) struct Shape {
    pub duration: Duration,
    pub runs: u32,
    pub warmup: Option<Duration>,
}

impl Shape {
    pub fn of(workload: &Workload, quick: bool) -> Shape {
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

    /// A lane's warm-up: its own, else the workload's.
    pub fn warmup_of(&self, lane: &Lane, quick: bool) -> Duration {
        let w = lane
            .warmup
            .map(|w| w.as_duration())
            .or(self.warmup)
            .unwrap_or(Duration::ZERO);
        if quick { w.min(QUICK_WARMUP) } else { w }
    }
}

/// A measuring step's cells and their expected time. Booting the servers
/// and the checks between cells are not counted: "about".
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct Estimate {
    /// What the step measures, in words: `3 lanes × 1 endpoint × 3 runs of
    /// 20 s, each after a warm-up of 5 s (45 s in all): about 3 min 45 s`, and the step's
    /// lanes this machine cannot run: `… (falcon cannot run here)`.
    pub summary: String,
    /// The lanes the step measures: the plan's that this machine can run
    /// ([`Plan::lanes_here`]).
    pub lanes: u32,
    /// Cells measured: lanes × endpoints × runs (`cable`: lanes × steps of
    /// people).
    pub cells: u32,
    /// Timed runs of each cell (`cable`: 1).
    pub runs: u32,
    /// Seconds one cell measures for.
    pub cell_seconds: f64,
    /// Seconds of warm-up, each lane's before each run of each route, together.
    pub warmup_seconds: f64,
    /// Warm-ups and cells together.
    pub seconds: f64,
    /// Whether `--quick` capped the workload.
    pub quick: bool,
}

/// The cable step's warm-up when neither lane nor workload names one (as
/// the step runs it).
pub(crate) const PEOPLE_WARMUP: Duration = Duration::from_secs(10);

impl Plan<'_> {
    /// What `step` measures and about how long it takes, for a measuring
    /// step (`None` for any other): its lanes that run here, the others
    /// named.
    pub fn expected(&self, step: &PlannedStep, quick: bool) -> Option<Estimate> {
        kind(&step.step.action).expected(self, quick)
    }

    /// A measuring step's estimate over the lanes it `named` (none: every
    /// lane) that the plan runs here, naming those that cannot run here.
    pub(crate) fn estimate(
        &self,
        named: &[Name],
        over: impl FnOnce(&[&Lane]) -> Option<Estimate>,
    ) -> Option<Estimate> {
        let (lanes, not_here): (Vec<&Lane>, Vec<&Lane>) = self
            .recipe
            .lanes
            .iter()
            .filter(|l| self.lanes.iter().any(|p| p == l.name.as_str()))
            .filter(|l| named.is_empty() || named.iter().any(|n| n == &l.name))
            .partition(|l| {
                self.lanes_here
                    .as_ref()
                    .is_none_or(|here| here.iter().any(|h| h == l.name.as_str()))
            });
        let mut expected = over(&lanes)?;
        if !not_here.is_empty() {
            let names: Vec<&str> = not_here.iter().map(|l| l.name.as_str()).collect();
            expected
                .summary
                .push_str(&format!(" ({} cannot run here)", names.join(", ")));
        }
        Some(expected)
    }
}

/// A load step's cells: lanes × endpoints × runs, each after its warm-up.
pub(crate) fn load(workload: &Workload, lanes: &[&Lane], quick: bool) -> Estimate {
    let shape = Shape::of(workload, quick);
    let endpoints = workload.endpoints.len() as u32;
    // Each route is warmed up before each of its runs, as the harness does.
    let warmups: Vec<f64> = lanes
        .iter()
        .map(|l| shape.warmup_of(l, quick).as_secs_f64())
        .collect();
    let warmup: f64 = warmups.iter().sum::<f64>() * f64::from(endpoints * shape.runs);
    let cells = lanes.len() as u32 * endpoints * shape.runs;
    let cell = shape.duration.as_secs_f64();
    let seconds = warmup + f64::from(cells) * cell;
    let full = Shape::of(workload, false);
    let capped = quick && (full.runs != shape.runs || full.duration != shape.duration);
    let words = format!(
        "{} × {} × {} of {}{}{}: about {}",
        count(lanes.len() as u32, "lane"),
        count(endpoints, "endpoint"),
        count(shape.runs, "run"),
        duration_words(cell),
        if capped {
            format!(
                " (quick: the recipe's {} of {})",
                count(full.runs, "run"),
                duration_words(full.duration.as_secs_f64())
            )
        } else {
            String::new()
        },
        match warmups.first() {
            _ if warmup <= 0.0 => String::new(),
            Some(&each) if warmups.iter().all(|&w| w == each) => format!(
                ", each after a warm-up of {} ({} in all)",
                duration_words(each),
                duration_words(warmup)
            ),
            _ => format!(
                ", each after its lane's warm-up ({} in all)",
                duration_words(warmup)
            ),
        },
        duration_words(seconds)
    );
    Estimate {
        summary: words,
        lanes: lanes.len() as u32,
        cells,
        runs: shape.runs,
        cell_seconds: cell,
        warmup_seconds: warmup,
        seconds,
        quick,
    }
}

/// The cable step: per lane, a warm-up then each step of people for the
/// step duration (`--quick` keeps two steps, capped as the step caps them).
pub(crate) fn people(workload: &Workload, lanes: &[&Lane], quick: bool) -> Option<Estimate> {
    let people = workload.people.as_ref()?;
    let mut steps = people.steps.len() as u32;
    let mut step = people.step_duration.as_duration();
    if quick {
        steps = steps.min(QUICK_STEPS);
        step = step.min(QUICK_DURATION);
    }
    let warmup: f64 = lanes
        .iter()
        .map(|l| {
            let w = l
                .warmup
                .or(workload.warmup)
                .map_or(PEOPLE_WARMUP, |w| w.as_duration());
            if quick { w.min(QUICK_WARMUP) } else { w }.as_secs_f64()
        })
        .sum();
    let cells = lanes.len() as u32 * steps;
    let cell = step.as_secs_f64();
    let seconds = warmup + f64::from(cells) * cell;
    Some(Estimate {
        summary: format!(
            "{} × {} of people of {}{}, after warm-ups ({} in all): about {}",
            count(lanes.len() as u32, "lane"),
            count(steps, "step"),
            duration_words(cell),
            if quick { " (quick)" } else { "" },
            duration_words(warmup),
            duration_words(seconds)
        ),
        lanes: lanes.len() as u32,
        cells,
        runs: 1,
        cell_seconds: cell,
        warmup_seconds: warmup,
        seconds,
        quick,
    })
}
