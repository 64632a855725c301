//! For `bench/desktop`: synthetic progress events produced as fast as a
//! thread can, forwarded through the same throttle a run's events go
//! through ([`crate::stream`]). No recipe runs.

use std::time::{Duration, Instant};

use reprise_engine::Event;

use crate::errors::{CommandError, CommandResult, ErrorKind};
use crate::stream::{self, INTERVAL, StreamMessage, StreamSummary};

/// Produces events for `millis` ms, their batches sent to `send`.
pub fn stream<E>(
    millis: u32,
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send + 'static,
) -> CommandResult<StreamSummary> {
    let (tx, rx) = std::sync::mpsc::channel();
    let producer = std::thread::spawn(move || {
        let start = Instant::now();
        let budget = Duration::from_millis(u64::from(millis));
        let mut events = 0u64;
        while start.elapsed() < budget {
            for _ in 0..256 {
                events += 1;
                let _ = tx.send(Event::Measuring {
                    step: "measure".into(),
                    lane: "bench".into(),
                    endpoint: "/".into(),
                    run: 1,
                    cells_done: start.elapsed().as_millis() as u64,
                    cells: budget.as_millis() as u64,
                    req_per_s: 75_000.0 + (events % 1000) as f64,
                    p99_ms: Some(1.2),
                    errors: 0,
                });
            }
            let _ = tx.send(Event::Log {
                step: "measure".into(),
                stream: reprise_engine::Stream::Stdout,
                line: format!("{events} events so far"),
            });
        }
        events
    });
    let forwarder = std::thread::spawn(move || stream::forward(&rx, INTERVAL, None, send));
    let stopped = || {
        CommandError::new(
            ErrorKind::Internal,
            "a bench thread stopped",
            "Run the bench again.",
        )
    };
    let events = producer.join().map_err(|_| stopped())?;
    let batches = forwarder.join().map_err(|_| stopped())?;
    Ok(StreamSummary { events, batches })
}
