//! About how long a run has left to measure, counted down as its events
//! come: the step measuring now (its cells left at their expected length,
//! less the time the current cell has run; before its first cell, its whole
//! expected time less the time it has run), then every later measuring step
//! the run will not keep from before. The CLI prints it on its progress
//! lines; the app gets it with each batch of events and counts down between
//! batches.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use reprise_engine::{Decision, Estimate, Event};
use reprise_recipe::StepKind;
use serde::Serialize;
use ts_rs::TS;

use crate::run::PreparedRun;

/// What is left to measure.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Left {
    /// About how many seconds.
    pub seconds: f64,
    /// Whether a measuring step is going on (the time counts down as its
    /// cells run), or the measuring is still to come.
    pub measuring: bool,
}

/// A step as the countdown counts it.
#[derive(Clone, Debug)]
struct Counted {
    id: String,
    /// What it measures as this run applies its workload (`--quick` or not).
    expected: Option<Estimate>,
    /// A load step counts cell by cell; another measuring step (people) by
    /// its whole time.
    by_cell: bool,
    /// Kept from the run resumed: it measures nothing again.
    kept: bool,
}

/// Where a step got to, from its events.
#[derive(Clone, Debug, Default)]
struct Going {
    started: Option<Instant>,
    ended: bool,
    done: u64,
    total: Option<u64>,
    /// Whether a cell has been named (a measuring event came).
    cell: bool,
    /// When the cell being measured began: the cells done last changed.
    cell_since: Option<Instant>,
}

/// The countdown of one run.
#[derive(Clone, Debug)]
pub struct Countdown {
    steps: Vec<Counted>,
    going: HashMap<String, Going>,
    seen: HashSet<String>,
}

impl Countdown {
    /// The countdown of `prepared`'s run, as it will apply its workloads.
    pub fn of(prepared: &PreparedRun) -> Countdown {
        let steps = prepared
            .plan
            .steps
            .iter()
            .zip(&prepared.decisions)
            .map(|(p, decision)| Counted {
                id: p.id().to_string(),
                expected: prepared.plan.expected(p, prepared.quick),
                by_cell: p.kind() == StepKind::Load,
                kept: matches!(decision, Decision::Keep),
            })
            .collect();
        Countdown::new(steps)
    }

    fn new(steps: Vec<Counted>) -> Countdown {
        Countdown {
            steps,
            going: HashMap::new(),
            seen: HashSet::new(),
        }
    }

    /// Takes in an event of the run, as it happened at `now`.
    pub fn observe(&mut self, event: &Event, now: Instant) {
        if let Some(p) = event.progress() {
            let going = self.going.entry(p.step.to_string()).or_default();
            let named = p.cell.is_some() && !going.cell;
            if going.cell_since.is_none() || going.done != p.done || named {
                going.cell_since = Some(now);
            }
            going.done = p.done;
            going.total = (p.total > 0).then_some(p.total);
            going.cell |= p.cell.is_some();
            return;
        }
        let (step, started) = match event {
            Event::Started { step, .. } => (step, true),
            Event::Finished { step, .. }
            | Event::Skipped { step, .. }
            | Event::Failed { step, .. }
            | Event::Cancelled { step } => (step, false),
            _ => return,
        };
        self.seen.insert(step.clone());
        let going = self.going.entry(step.clone()).or_default();
        match started {
            true => going.started = Some(now),
            false => going.ended = true,
        }
    }

    /// About how long is left to measure at `now`; `None` when nothing is.
    pub fn left(&self, now: Instant) -> Option<Left> {
        let since = |at: Option<Instant>| at.map_or(0.0, |t| now.duration_since(t).as_secs_f64());
        let running = self.steps.iter().position(|s| {
            self.going
                .get(&s.id)
                .is_some_and(|g| g.started.is_some() && !g.ended)
        });
        let later: f64 = self.steps[running.map_or(0, |i| i + 1)..]
            .iter()
            .filter(|s| !s.kept && !self.seen.contains(&s.id))
            .filter_map(|s| s.expected.as_ref())
            .map(|e| e.seconds)
            .sum();
        let measuring_later = self.steps[running.map_or(0, |i| i + 1)..]
            .iter()
            .any(|s| !s.kept && !self.seen.contains(&s.id) && s.expected.is_some());
        let current = running.map(|i| &self.steps[i]);
        let Some((step, expected)) = current.and_then(|s| Some((s, s.expected.as_ref()?))) else {
            return measuring_later.then_some(Left {
                seconds: later,
                measuring: false,
            });
        };
        let going = &self.going[&step.id];
        let total = going.total.unwrap_or(u64::from(expected.cells));
        let done = going.done.min(total);
        let cells_done = going.total.is_some() && done >= total;
        if cells_done && !measuring_later {
            return None;
        }
        let here = if cells_done {
            0.0
        } else if step.by_cell && going.cell {
            let in_cell = since(going.cell_since).min(expected.cell_seconds);
            (total - done) as f64 * expected.cell_seconds - in_cell
        } else {
            expected.seconds - since(going.started)
        };
        Some(Left {
            seconds: here.max(0.0) + later,
            measuring: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn expected(cells: u32, cell_seconds: f64, seconds: f64) -> Estimate {
        Estimate {
            summary: String::new(),
            lanes: 2,
            cells,
            runs: 2,
            cell_seconds,
            warmup_seconds: seconds - f64::from(cells) * cell_seconds,
            seconds,
            quick: false,
        }
    }

    /// A clone, then a load step of 6 cells of 10 s (70 s with warm-ups).
    fn clone_then_measure(kept: bool) -> Countdown {
        Countdown::new(vec![
            Counted {
                id: "clone".into(),
                expected: None,
                by_cell: false,
                kept: false,
            },
            Counted {
                id: "measure".into(),
                expected: Some(expected(6, 10.0, 70.0)),
                by_cell: true,
                kept,
            },
        ])
    }

    fn started(step: &str) -> Event {
        Event::Started {
            step: step.into(),
            kind: StepKind::Load,
        }
    }

    fn cell(done: u64, total: u64) -> Event {
        Event::Measuring {
            step: "measure".into(),
            lane: "puma".into(),
            endpoint: "/".into(),
            run: 1,
            cells_done: done,
            cells: total,
            req_per_s: 1.0,
            p99_ms: None,
            errors: 0,
        }
    }

    fn after(t0: Instant, seconds: f64) -> Instant {
        t0 + Duration::from_secs_f64(seconds)
    }

    #[test]
    fn before_measuring_the_measuring_steps_to_come_are_counted_whole() {
        let t0 = Instant::now();
        let mut c = clone_then_measure(false);
        assert_eq!(
            c.left(t0),
            Some(Left {
                seconds: 70.0,
                measuring: false
            })
        );
        c.observe(&started("clone"), t0);
        assert_eq!(c.left(after(t0, 5.0)).map(|l| l.seconds), Some(70.0));
    }

    #[test]
    fn a_resumed_run_counts_nothing_for_a_measuring_step_it_keeps() {
        let t0 = Instant::now();
        let mut c = clone_then_measure(true);
        c.observe(&started("clone"), t0);
        assert_eq!(c.left(after(t0, 1.0)), None);
    }

    #[test]
    fn cells_count_down_as_they_finish_less_the_time_the_current_one_has_run() {
        let t0 = Instant::now();
        let mut c = clone_then_measure(false);
        c.observe(&started("clone"), t0);
        c.observe(
            &Event::Finished {
                step: "clone".into(),
                duration_ms: 1,
            },
            t0,
        );
        c.observe(&started("measure"), t0);
        // Warming up, no cell yet: the step's whole time less what it ran.
        let warming = c.left(after(t0, 4.0)).unwrap();
        assert_eq!((warming.seconds, warming.measuring), (66.0, true));
        c.observe(&cell(0, 6), after(t0, 10.0));
        assert_eq!(c.left(after(t0, 13.0)).unwrap().seconds, 57.0);
        // A cell runs past its expected length: it counts as done, not less.
        assert_eq!(c.left(after(t0, 25.0)).unwrap().seconds, 50.0);
        c.observe(&cell(5, 6), after(t0, 60.0));
        assert_eq!(c.left(after(t0, 62.5)).unwrap().seconds, 7.5);
        // The last cell done: nothing left to say.
        c.observe(
            &Event::Progress {
                step: "measure".into(),
                done: 6,
                total: 6,
                unit: "cells".into(),
            },
            after(t0, 70.0),
        );
        assert_eq!(c.left(after(t0, 70.0)), None);
    }

    #[test]
    fn a_measuring_step_of_people_counts_its_whole_time() {
        let t0 = Instant::now();
        let mut c = Countdown::new(vec![Counted {
            id: "people".into(),
            expected: Some(expected(2, 30.0, 70.0)),
            by_cell: false,
            kept: false,
        }]);
        c.observe(&started("people"), t0);
        assert_eq!(c.left(after(t0, 20.0)).unwrap().seconds, 50.0);
    }
}
