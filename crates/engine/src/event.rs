//! What a run reports while it goes: one tagged enum, delivered to a sink the
//! caller provides (the CLI prints events; the desktop app forwards them).

use std::sync::mpsc::Sender;

use reprise_loadgen::StopHandle;
use reprise_recipe::StepKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where a log line came from: the step's process (its standard output or
/// error), or Reprise itself saying what the step did (always shown).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Stream {
    Stdout,
    Stderr,
    Note,
}

/// Something that happened during a run. Serialized with an `event` tag, so
/// `--json` prints lines like `{"event":"finished","step":"emit","duration_ms":2041}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A run began (or resumed) in `dir`.
    Run { id: String, dir: String },
    /// A step began.
    Started { step: String, kind: StepKind },
    /// Part of a step is done: `done` of `total` `unit`s (objects, files, ...).
    Progress {
        step: String,
        done: u64,
        total: u64,
        unit: String,
    },
    /// A cell's load begins: its warm-up, where it has one, then its
    /// measured run. What runs beside a lane (a test's CPU hog) is switched
    /// here, not at the first `measuring`, a second into the measurement.
    CellStarted {
        step: String,
        lane: String,
        endpoint: String,
        run: u32,
    },
    /// Once a second while a cell is measured: the load so far, for live
    /// req/s and latency.
    Measuring {
        step: String,
        lane: String,
        endpoint: String,
        run: u32,
        /// Cells of the step finished before this one, of `cells`.
        cells_done: u64,
        cells: u64,
        req_per_s: f64,
        p99_ms: Option<f64>,
        errors: u64,
    },
    /// One line a step's process wrote, or a note the engine adds.
    Log {
        step: String,
        stream: Stream,
        line: String,
    },
    /// A step ended well.
    Finished { step: String, duration_ms: u64 },
    /// A step did not run, and why.
    Skipped { step: String, reason: String },
    /// A step ran and failed, and why.
    Failed { step: String, reason: String },
    /// A step was stopped part-way by a cancel (the reader's, or a
    /// signal): what it did stands for a resume, and it is not a failure.
    Cancelled { step: String },
    /// Something about the run as a whole: containers an earlier attempt
    /// left and that were removed, where the results were stored.
    Note { message: String },
}

/// How far a step has got, as a progress or a measuring event says it:
/// the one reading both front ends (the CLI's bars, the app's stream) take.
#[derive(Clone, Debug, PartialEq)]
pub struct StepProgress<'e> {
    pub step: &'e str,
    /// Parts done of `total` (a measuring step's cells).
    pub done: u64,
    pub total: u64,
    /// The load on the cell being measured, for a measuring step.
    pub req_per_s: Option<f64>,
    pub p99_ms: Option<f64>,
    /// The cell being measured, for a measuring step.
    pub cell: Option<LiveCell>,
}

/// The cell a measuring step is on: the lane, the endpoint (or step of
/// people) and which timed run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LiveCell {
    pub lane: String,
    pub endpoint: String,
    pub run: u32,
}

impl Event {
    /// How far a step has got, for a progress or a measuring event.
    pub fn progress(&self) -> Option<StepProgress<'_>> {
        match self {
            Event::Progress {
                step, done, total, ..
            } => Some(StepProgress {
                step,
                done: *done,
                total: *total,
                req_per_s: None,
                p99_ms: None,
                cell: None,
            }),
            Event::Measuring {
                step,
                lane,
                endpoint,
                run,
                cells_done,
                cells,
                req_per_s,
                p99_ms,
                ..
            } => Some(StepProgress {
                step,
                done: *cells_done,
                total: *cells,
                req_per_s: Some(*req_per_s),
                p99_ms: *p99_ms,
                cell: Some(LiveCell {
                    lane: lane.clone(),
                    endpoint: endpoint.clone(),
                    run: *run,
                }),
            }),
            _ => None,
        }
    }
}

/// Where events go. Implemented for closures and for channel senders.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: Event);
}

impl<F: Fn(Event) + Send + Sync> EventSink for F {
    fn emit(&self, event: Event) {
        self(event)
    }
}

impl EventSink for Sender<Event> {
    fn emit(&self, event: Event) {
        // A receiver that hung up no longer wants events; the run goes on.
        let _ = self.send(event);
    }
}

/// A shared flag that asks a run to stop: running processes get SIGTERM,
/// then SIGKILL after a grace period, loads stop within a moment (the flag
/// is the load generator's own stop handle, so no load runs without it),
/// and no further step starts.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(StopHandle);

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.0.stop();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.is_stopped()
    }

    /// The same flag, as the load generator takes it.
    pub fn stop_handle(&self) -> &StopHandle {
        &self.0
    }
}
