//! What a measuring step (`load`, `cable`) will do and about how long it
//! will take, from its workload as this run applies it (`--quick` caps it):
//! the plan a reader confirms says it, and the front ends count down from it
//! (elapsed, and about how long is left) as cells finish.
//!
//! ```
//! use reprise_engine::expected::duration_words;
//!
//! assert_eq!(duration_words(72.4), "1 min 12 s");
//! assert_eq!(duration_words(8.0), "8 s");
//! ```

use std::time::Duration;

use reprise_recipe::{Action, Lane, Workload};
use serde::Serialize;

use crate::plan::{Plan, PlannedStep};
use crate::steps::load::Shape;

/// A measuring step's cells and their expected time. Booting the servers
/// and the checks between cells are not counted: "about".
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct Expected {
    /// What the step measures, in words: `3 lanes × 1 endpoint × 3 runs of
    /// 20 s, after warm-ups (12 s in all): about 3 min 12 s`, and the step's
    /// lanes this machine cannot run: `… (falcon cannot run here)`.
    pub shape: String,
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
    /// Seconds of warm-up, every lane's together.
    pub warmup_seconds: f64,
    /// Warm-ups and cells together.
    pub seconds: f64,
    /// Whether `--quick` capped the workload.
    pub quick: bool,
}

/// The cable step's warm-up when neither lane nor workload names one (as
/// the step runs it).
const PEOPLE_WARMUP: Duration = Duration::from_secs(10);

impl Plan<'_> {
    /// What `step` measures and about how long it takes, for a measuring
    /// step (`None` for any other): its lanes that run here, the others
    /// named.
    pub fn expected(&self, step: &PlannedStep, quick: bool) -> Option<Expected> {
        let recipe = self.recipe;
        let (workload, named) = match &step.step.action {
            Action::Load { workload, lanes } | Action::Cable { workload, lanes } => {
                (recipe.workload(workload)?, lanes)
            }
            _ => return None,
        };
        let (lanes, not_here): (Vec<&Lane>, Vec<&Lane>) = recipe
            .lanes
            .iter()
            .filter(|l| self.lanes.iter().any(|p| p == l.name.as_str()))
            .filter(|l| named.is_empty() || named.iter().any(|n| n == &l.name))
            .partition(|l| {
                self.lanes_here
                    .as_ref()
                    .is_none_or(|here| here.iter().any(|h| h == l.name.as_str()))
            });
        let mut expected = match &step.step.action {
            Action::Cable { .. } => people(workload, &lanes, quick)?,
            _ => load(workload, &lanes, quick),
        };
        if !not_here.is_empty() {
            let names: Vec<&str> = not_here.iter().map(|l| l.name.as_str()).collect();
            expected
                .shape
                .push_str(&format!(" ({} cannot run here)", names.join(", ")));
        }
        Some(expected)
    }
}

fn load(workload: &Workload, lanes: &[&Lane], quick: bool) -> Expected {
    let shape = Shape::of(workload, quick);
    let endpoints = workload.endpoints.len() as u32;
    let warmup: f64 = if endpoints == 0 {
        0.0
    } else {
        lanes
            .iter()
            .map(|l| shape.warmup_of(l, quick).as_secs_f64())
            .sum()
    };
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
        if warmup > 0.0 {
            format!(", after warm-ups ({} in all)", duration_words(warmup))
        } else {
            String::new()
        },
        duration_words(seconds)
    );
    Expected {
        shape: words,
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
fn people(workload: &Workload, lanes: &[&Lane], quick: bool) -> Option<Expected> {
    use crate::steps::load::{QUICK_DURATION, QUICK_WARMUP};
    let people = workload.people.as_ref()?;
    let mut steps = people.steps.len() as u32;
    let mut step = people.step_duration.as_duration();
    if quick {
        steps = steps.min(crate::steps::cable::QUICK_STEPS as u32);
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
    Some(Expected {
        shape: format!(
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

/// `1 run`, `3 runs`.
pub fn count(n: u32, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// Seconds as a person reads them: `8 s`, `1 min 12 s`, `2 h 5 min`;
/// under ten seconds with a tenth where it has one (`1.5 s`).
pub fn duration_words(seconds: f64) -> String {
    let seconds = seconds.max(0.0);
    if seconds < 10.0 && (seconds * 10.0).round() % 10.0 != 0.0 {
        return format!("{:.1} s", seconds);
    }
    let s = seconds.round() as u64;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, 0) => format!("{m} min"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, 0, _) => format!("{h} h"),
        (h, m, _) => format!("{h} h {m} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration_words(0.0), "0 s");
        assert_eq!(duration_words(1.5), "1.5 s");
        assert_eq!(duration_words(2.0), "2 s");
        assert_eq!(duration_words(59.6), "1 min");
        assert_eq!(duration_words(192.0), "3 min 12 s");
        assert_eq!(duration_words(3600.0 + 300.0 + 7.0), "1 h 5 min");
        assert_eq!(duration_words(7200.0), "2 h");
    }

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1, "run"), "1 run");
        assert_eq!(count(0, "lane"), "0 lanes");
        assert_eq!(count(3, "endpoint"), "3 endpoints");
    }
}
