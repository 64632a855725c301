//! Forwarding a fast event stream to the UI without flooding it: progress
//! is merged to its latest value, log lines are capped, and everything goes
//! out in at most one batch per interval (20 a second by default), so a
//! load generator's 75k events a second cost the webview 20 messages. A
//! run's batches end with how long it has left to measure, counted by the
//! session's [`Countdown`] as the CLI counts it.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use reprise_engine::{Event, LiveCell};
use reprise_session::views::{Countdown, Left};
use serde::Serialize;
use ts_rs::TS;

/// The default interval between batches: 20 a second.
pub const INTERVAL: Duration = Duration::from_millis(50);

/// Log lines kept per step per batch; the rest are counted as dropped.
pub const LOG_LINES_PER_BATCH: usize = 50;

/// One message on a run's event channel: an engine event as it happened, a
/// merged summary of many progress events or log lines, or how long the run
/// has left to measure.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamMessage {
    /// Progress merged over one interval: the latest value and how many
    /// events were folded into it.
    Progress {
        step: String,
        done: f64,
        total: Option<f64>,
        req_per_s: Option<f64>,
        p99_ms: Option<f64>,
        /// The cell being measured, where the step measures cells.
        cell: Option<LiveCell>,
        merged: u32,
    },
    /// Log lines of one step, joined, with how many were dropped to stay
    /// within the interval's budget.
    Log {
        step: String,
        lines: Vec<String>,
        dropped: u32,
    },
    /// Anything else, passed on at once and in order.
    Event { event: Event },
    /// How long the run has left to measure as of this batch (none: nothing
    /// is left); the page counts down from it until the next.
    Left { left: Option<Left> },
}

/// What a bench stream did: events produced, batches the UI received.
#[derive(Clone, Debug, Serialize, TS)]
pub struct StreamSummary {
    pub events: u64,
    pub batches: u64,
}

/// Events held back until the next batch, and the run's countdown.
#[derive(Default)]
pub struct Coalescer {
    progress: BTreeMap<String, StreamMessage>,
    logs: BTreeMap<String, (Vec<String>, u32)>,
    countdown: Option<Countdown>,
}

impl Coalescer {
    /// A coalescer whose batches end with what `countdown` counts.
    pub fn counting(countdown: Option<Countdown>) -> Coalescer {
        Coalescer {
            countdown,
            ..Coalescer::default()
        }
    }

    /// Takes one event; returns it at once when it must not wait (any but
    /// progress and log lines), after whatever was held back, to keep the order.
    pub fn push(&mut self, event: Event) -> Vec<StreamMessage> {
        if let Some(countdown) = &mut self.countdown {
            countdown.observe(&event, Instant::now());
        }
        if let Some(p) = event.progress() {
            self.progress_of(
                p.step.to_string(),
                p.done as f64,
                (p.total > 0).then_some(p.total as f64),
                p.req_per_s,
                p.p99_ms,
                p.cell,
            );
            return Vec::new();
        }
        match event {
            // A cell's start says nothing the page shows: its measuring
            // events and its end do.
            Event::CellStarted { .. } => Vec::new(),
            Event::Log { step, line, .. } => {
                let (lines, dropped) = self.logs.entry(step).or_default();
                if lines.len() < LOG_LINES_PER_BATCH {
                    lines.push(line);
                } else {
                    *dropped += 1;
                }
                Vec::new()
            }
            event => {
                let mut out = self.held();
                out.push(StreamMessage::Event { event });
                out.extend(self.left());
                out
            }
        }
    }

    /// Merges a step's progress into what is held back for it; a cell once
    /// known is kept until another replaces it (a cell's end says none).
    fn progress_of(
        &mut self,
        step: String,
        done: f64,
        total: Option<f64>,
        req_per_s: Option<f64>,
        p99_ms: Option<f64>,
        cell: Option<LiveCell>,
    ) {
        let (merged, cell) = match self.progress.remove(&step) {
            Some(StreamMessage::Progress {
                merged, cell: held, ..
            }) => (merged + 1, cell.or(held)),
            _ => (1, cell),
        };
        self.progress.insert(
            step.clone(),
            StreamMessage::Progress {
                step,
                done,
                total,
                req_per_s,
                p99_ms,
                cell,
                merged,
            },
        );
    }

    /// Everything held back (logs first, then the latest progress), and how
    /// long the run has left as of now.
    pub fn drain(&mut self) -> Vec<StreamMessage> {
        let mut out = self.held();
        if !out.is_empty() {
            out.extend(self.left());
        }
        out
    }

    fn held(&mut self) -> Vec<StreamMessage> {
        let mut out: Vec<StreamMessage> = std::mem::take(&mut self.logs)
            .into_iter()
            .map(|(step, (lines, dropped))| StreamMessage::Log {
                step,
                lines,
                dropped,
            })
            .collect();
        out.extend(std::mem::take(&mut self.progress).into_values());
        out
    }

    fn left(&self) -> Option<StreamMessage> {
        let countdown = self.countdown.as_ref()?;
        Some(StreamMessage::Left {
            left: countdown.left(Instant::now()),
        })
    }
}

/// Reads events until the sender hangs up, sending batches: at most one per
/// `interval` for progress and logs, at once for anything else, each ending
/// with what `countdown` counts. Returns how many batches were sent. Stops
/// early when `send` fails (the UI went away).
pub fn forward<E>(
    events: &Receiver<Event>,
    interval: Duration,
    countdown: Option<Countdown>,
    mut send: impl FnMut(Vec<StreamMessage>) -> Result<(), E>,
) -> u64 {
    let mut coalescer = Coalescer::counting(countdown);
    let mut next = Instant::now() + interval;
    let mut sent = 0;
    loop {
        let wait = next.saturating_duration_since(Instant::now());
        let received = events.recv_timeout(wait);
        let batch = match received {
            Ok(event) => coalescer.push(event),
            Err(RecvTimeoutError::Timeout) => Vec::new(),
            Err(RecvTimeoutError::Disconnected) => {
                let rest = coalescer.drain();
                if !rest.is_empty() && send(rest).is_ok() {
                    sent += 1;
                }
                return sent;
            }
        };
        let batch = if Instant::now() >= next {
            next = Instant::now() + interval;
            let mut b = batch;
            b.extend(coalescer.drain());
            b
        } else {
            batch
        };
        if !batch.is_empty() {
            if send(batch).is_err() {
                return sent;
            }
            sent += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn progress(step: &str, done: u64) -> Event {
        Event::Measuring {
            step: step.into(),
            lane: "puma".into(),
            endpoint: "/".into(),
            run: 1,
            cells_done: done,
            cells: 100_000,
            req_per_s: done as f64 * 10.0,
            p99_ms: None,
            errors: 0,
        }
    }

    fn log(step: &str, line: String) -> Event {
        Event::Log {
            step: step.into(),
            stream: reprise_engine::Stream::Stdout,
            line,
        }
    }

    fn finished(step: &str) -> Event {
        Event::Finished {
            step: step.into(),
            duration_ms: 1,
        }
    }

    #[test]
    fn progress_is_merged_to_its_latest_value() {
        let mut c = Coalescer::default();
        for i in 0..1000 {
            assert!(c.push(progress("runs", i)).is_empty());
        }
        let out = c.drain();
        assert_eq!(out.len(), 1);
        match &out[0] {
            StreamMessage::Progress { done, merged, .. } => {
                assert_eq!(*done, 999.0);
                assert_eq!(*merged, 1000);
            }
            other => panic!("expected progress, got {other:?}"),
        }
    }

    #[test]
    fn the_cell_being_measured_outlasts_the_end_of_the_one_before() {
        let mut c = Coalescer::default();
        c.push(progress("runs", 3));
        c.push(Event::Progress {
            step: "runs".into(),
            done: 4,
            total: 100_000,
            unit: "cells".into(),
        });
        match &c.drain()[0] {
            StreamMessage::Progress { done, cell, .. } => {
                assert_eq!(*done, 4.0);
                assert_eq!(
                    cell.as_ref(),
                    Some(&LiveCell {
                        lane: "puma".into(),
                        endpoint: "/".into(),
                        run: 1
                    })
                );
            }
            other => panic!("expected progress, got {other:?}"),
        }
    }

    #[test]
    fn step_events_flush_what_came_before_them_in_order() {
        let mut c = Coalescer::default();
        c.push(log("clone", "Cloning…".into()));
        c.push(progress("clone", 50));
        let out = c.push(finished("clone"));
        assert_eq!(out.len(), 3);
        assert!(matches!(out[0], StreamMessage::Log { .. }));
        assert!(matches!(out[1], StreamMessage::Progress { .. }));
        assert_eq!(
            out[2],
            StreamMessage::Event {
                event: finished("clone")
            }
        );
        assert!(c.drain().is_empty());
    }

    #[test]
    fn log_lines_beyond_the_budget_are_counted_not_sent() {
        let mut c = Coalescer::default();
        for i in 0..LOG_LINES_PER_BATCH + 25 {
            c.push(log("bundle", format!("line {i}")));
        }
        match &c.drain()[0] {
            StreamMessage::Log { lines, dropped, .. } => {
                assert_eq!(lines.len(), LOG_LINES_PER_BATCH);
                assert_eq!(*dropped, 25);
            }
            other => panic!("expected log, got {other:?}"),
        }
    }

    #[test]
    fn a_flood_becomes_a_few_batches_and_the_last_value_arrives() {
        let (tx, rx) = channel();
        let producer = std::thread::spawn(move || {
            let start = Instant::now();
            let mut i = 0u64;
            while start.elapsed() < Duration::from_millis(300) {
                tx.send(progress("runs", i)).unwrap();
                i += 1;
            }
            i
        });
        let mut batches = Vec::new();
        let started = Instant::now();
        let sent = forward(&rx, Duration::from_millis(50), None, |b| {
            batches.push(b);
            Ok::<(), ()>(())
        });
        let took = started.elapsed();
        let produced = producer.join().unwrap();
        assert!(produced > 1000, "the producer made only {produced} events");
        // At most one batch per 50 ms while forwarding (the backlog may
        // outlast the producer on a busy machine), plus the final drain.
        let allowed = took.as_millis() as u64 / 50 + 2;
        assert!(
            sent <= allowed,
            "{sent} batches in {took:?} for {produced} events"
        );
        assert!(
            sent < produced / 100,
            "{sent} batches for {produced} events"
        );
        let last = batches.last().unwrap().last().unwrap();
        assert!(
            matches!(last, StreamMessage::Progress { done, .. } if *done == (produced - 1) as f64)
        );
    }

    #[test]
    fn forwarding_stops_when_the_ui_is_gone() {
        let (tx, rx) = channel();
        tx.send(finished("started")).unwrap();
        tx.send(finished("more")).unwrap();
        let sent = forward(&rx, INTERVAL, None, |_| Err("closed"));
        assert_eq!(sent, 0);
    }
}
