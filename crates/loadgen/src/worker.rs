//! A worker thread: optionally pinned to a CPU, it runs its share of the
//! connections in one event loop (wrk's one loop per thread): one
//! `epoll_wait` (kqueue elsewhere, through mio) hands over the sockets that
//! became ready, a heap holds the connections' timers, and the stats go to
//! the coordinator at every interval tick. A stop closes every connection at
//! once, whatever it waits for (a slow response, a connect, its next send
//! time), so a stopped load ends within the stop handle's poll, not within a
//! request.

use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use mio::{Events, Poll};

use crate::check::{CheckSample, ResponseChecks};
use crate::connection::{
    Connection, Ctx, IntervalStats, Pace, Readiness, ThreadShared, Timers, untoken,
};
use crate::http1::READ_BUFFER_BYTES;
use crate::spec::{LoadError, RequestTemplate, STOP_POLL, StopHandle};

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
    let mut poll = match prepare(setup.cpu) {
        Ok(poll) => {
            let _ = to_coordinator.send(WorkerMessage::Ready(Ok(())));
            poll
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
    let shared = ThreadShared {
        request: setup.template.wire(),
        head_request: setup.template.method == hyper::Method::HEAD,
        template: setup.template,
        checks: setup.checks,
        check_sample: setup.check_sample,
        timeout: setup.timeout,
        end,
        stop: setup.stop.clone(),
    };
    let open_loop = setup.open_loop;
    let mut stats = IntervalStats::new(open_loop);
    let mut timers = Timers::default();
    let mut finished = 0;
    let mut buffer = vec![0; READ_BUFFER_BYTES].into_boxed_slice();
    let mut connections: Vec<Connection> = (plan.connections.iter().enumerate())
        .map(|(index, &pace)| Connection::new(index, pace))
        .collect();
    // The loop's state lent to one connection for one call: built afresh
    // each time, as `poll` is borrowed mutably by each wait in between.
    macro_rules! ctx {
        () => {
            &mut Ctx {
                shared: &shared,
                stats: &mut stats,
                timers: &mut timers,
                registry: poll.registry(),
                buffer: &mut buffer,
                finished: &mut finished,
            }
        };
    }
    for connection in &mut connections {
        connection.start(ctx!());
    }
    let mut events = Events::with_capacity(1024);
    let mut tick = 0;
    let take = |stats: &mut IntervalStats| {
        Box::new(std::mem::replace(stats, IntervalStats::new(open_loop)))
    };
    while !shared.stop.is_stopped() {
        let now = Instant::now();
        while let Some(&at) = plan.ticks.get(tick)
            && now >= at
        {
            let _ = to_coordinator.send(WorkerMessage::Interval {
                index: tick,
                at: now,
                stats: take(&mut stats),
            });
            tick += 1;
        }
        while let Some((at, index, alarm)) = timers.pop_due(now) {
            connections[index].on_timer(at, alarm, now, ctx!());
        }
        // Responses in flight at the end (each within the timeout) count too.
        if tick == plan.ticks.len() && finished == connections.len() {
            break;
        }
        let mut wake = now + STOP_POLL;
        for at in [plan.ticks.get(tick).copied(), timers.next()]
            .into_iter()
            .flatten()
        {
            wake = wake.min(at);
        }
        if let Err(e) = poll.poll(&mut events, Some(wake.saturating_duration_since(now)))
            && e.kind() != std::io::ErrorKind::Interrupted
        {
            stats.errors.io += 1;
            stats.sample_error(|| format!("waiting for sockets: {e}"));
            break;
        }
        for event in &events {
            let (index, generation) = untoken(event.token());
            let readiness = Readiness::from(event);
            if let Some(connection) = connections.get_mut(index) {
                connection.on_event(generation, readiness, ctx!());
            }
        }
    }
    // Stopped or done: every socket closes here.
    drop(connections);
    let _ = to_coordinator.send(WorkerMessage::Interval {
        index: plan.ticks.len(),
        at: Instant::now(),
        stats: take(&mut stats),
    });
}

fn prepare(cpu: Option<usize>) -> Result<Poll, LoadError> {
    if let Some(cpu) = cpu {
        reprise_cpus::pin_current_thread(cpu).map_err(LoadError::from)?;
    }
    Poll::new().map_err(LoadError::Thread)
}
