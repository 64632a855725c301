//! A worker thread: optionally pinned to a CPU, it runs its share of the
//! connections on its own single-threaded tokio runtime (wrk's one event loop
//! per thread) and hands its stats to the coordinator at every interval tick.
//! A stop aborts every connection's task at once, whatever it waits for (a
//! slow response, a connect, its next send time), so a stopped load ends
//! within the stop handle's poll, not within a request.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use crate::check::{CheckSample, ResponseChecks};
use crate::connection::{IntervalStats, Pace, ThreadShared, run_connection};
use crate::spec::{LoadError, RequestTemplate, StopHandle};

/// What a worker needs before the load starts.
pub(crate) struct WorkerSetup {
    pub cpu: Option<usize>,
    pub template: RequestTemplate,
    pub checks: ResponseChecks,
    pub check_sample: CheckSample,
    pub timeout: Duration,
    pub open_loop: bool,
    pub stop: StopHandle,
}

/// The load a worker runs, sent once every worker is ready.
pub(crate) struct WorkerPlan {
    /// One entry per connection: its pacing in open loop, `None` in closed loop.
    pub connections: Vec<Option<Pace>>,
    /// Interval ends; the last one is the end of the load.
    pub ticks: Vec<Instant>,
}

pub(crate) enum WorkerMessage {
    Ready(Result<(), LoadError>),
    /// Stats for interval `index`; `index == ticks.len()` holds responses that finished after the end.
    Interval {
        index: usize,
        at: Instant,
        stats: Box<IntervalStats>,
    },
}

pub(crate) fn run_worker(
    setup: WorkerSetup,
    to_coordinator: Sender<WorkerMessage>,
    plans: Receiver<WorkerPlan>,
) {
    let prepared = prepare(setup.cpu);
    let runtime = match prepared {
        Ok(runtime) => {
            let _ = to_coordinator.send(WorkerMessage::Ready(Ok(())));
            runtime
        }
        Err(e) => {
            let _ = to_coordinator.send(WorkerMessage::Ready(Err(e)));
            return;
        }
    };
    // A dropped sender means the coordinator gave up (another worker failed).
    let Ok(plan) = plans.recv() else { return };
    let Some(&end) = plan.ticks.last() else {
        return;
    };
    let shared = Rc::new(ThreadShared {
        request: setup.template.wire(),
        head_request: setup.template.method == hyper::Method::HEAD,
        template: setup.template,
        checks: setup.checks,
        check_sample: setup.check_sample,
        timeout: setup.timeout,
        end,
        stop: setup.stop.clone(),
        stats: RefCell::new(IntervalStats::new(setup.open_loop)),
    });
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let tasks: Vec<_> = plan
            .connections
            .iter()
            .map(|&pace| tokio::task::spawn_local(run_connection(shared.clone(), pace)))
            .collect();
        let aborts: Vec<_> = tasks.iter().map(|t| t.abort_handle()).collect();
        let take = || {
            std::mem::replace(
                &mut *shared.stats.borrow_mut(),
                IntervalStats::new(setup.open_loop),
            )
        };
        let ticking = async {
            for (index, &tick) in plan.ticks.iter().enumerate() {
                tokio::time::sleep_until(tick.into()).await;
                let _ = to_coordinator.send(WorkerMessage::Interval {
                    index,
                    at: Instant::now(),
                    stats: Box::new(take()),
                });
            }
            // Responses in flight at the end (each within the timeout).
            for task in tasks {
                let _ = task.await;
            }
        };
        tokio::select! {
            () = ticking => {}
            () = setup.stop.stopped() => {
                for task in &aborts {
                    task.abort();
                }
            }
        }
        let index = plan.ticks.len();
        let _ = to_coordinator.send(WorkerMessage::Interval {
            index,
            at: Instant::now(),
            stats: Box::new(take()),
        });
    });
}

fn prepare(cpu: Option<usize>) -> Result<tokio::runtime::Runtime, LoadError> {
    if let Some(cpu) = cpu {
        reprise_cpus::pin_current_thread(cpu).map_err(LoadError::from)?;
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(LoadError::Thread)
}
