//! One simulated connection: an HTTP/1.1 client connection ([`crate::http1`])
//! sending one request at a time, recording every response into its
//! thread's interval stats.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use crate::check::{CheckSample, ResponseChecks, check_response};
use crate::http1::{ExchangeError, Http1Conn, Response};
use crate::report::{ErrorCounts, new_histogram};
use crate::spec::{RequestTemplate, StopHandle};

const MAX_ERROR_SAMPLES: usize = 5;
const TIMER_SLACK: Duration = Duration::from_millis(2);

/// What one thread's connections recorded since the last interval tick.
#[derive(Debug)]
pub(crate) struct IntervalStats {
    pub requests: u64,
    pub bytes: u64,
    pub errors: ErrorCounts,
    pub reconnects: u64,
    /// Open loop: requests due before the end that were never sent.
    pub missed: u64,
    pub latency: Histogram<u64>,
    pub corrected: Option<Histogram<u64>>,
    pub error_samples: Vec<String>,
}

impl IntervalStats {
    pub fn new(open_loop: bool) -> IntervalStats {
        IntervalStats {
            requests: 0,
            bytes: 0,
            errors: ErrorCounts::default(),
            reconnects: 0,
            missed: 0,
            latency: new_histogram(),
            corrected: open_loop.then(new_histogram),
            error_samples: Vec::new(),
        }
    }

    pub fn merge(&mut self, other: IntervalStats) {
        self.requests += other.requests;
        self.bytes += other.bytes;
        self.errors.add(&other.errors);
        self.reconnects += other.reconnects;
        self.missed = self.missed.saturating_add(other.missed);
        // Both are auto-resizing histograms, so adding cannot run out of range.
        let _ = self.latency.add(&other.latency);
        if let (Some(mine), Some(theirs)) = (&mut self.corrected, &other.corrected) {
            let _ = mine.add(theirs);
        }
        for message in other.error_samples {
            self.sample_error(|| message);
        }
    }

    /// Keeps the first few distinct error messages.
    fn sample_error(&mut self, message: impl FnOnce() -> String) {
        if self.error_samples.len() < MAX_ERROR_SAMPLES {
            let message = message();
            if !self.error_samples.contains(&message) {
                self.error_samples.push(message);
            }
        }
    }
}

/// What all connections of one worker thread share.
pub(crate) struct ThreadShared {
    pub template: RequestTemplate,
    /// The template's request as it goes on the wire.
    pub request: Vec<u8>,
    pub head_request: bool,
    pub checks: ResponseChecks,
    pub check_sample: CheckSample,
    pub timeout: Duration,
    pub end: Instant,
    pub stop: StopHandle,
    pub stats: RefCell<IntervalStats>,
}

/// Open-loop pacing of one connection: its first intended send time and the
/// gap between sends (zero for a rate past a nanosecond's resolution).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pace {
    pub first: Instant,
    pub interval: Duration,
    /// This connection's share of the rate, requests per second.
    pub per_second: f64,
}

enum Failure {
    /// The server closed a keep-alive connection that had served before: reconnect and resend.
    IdleClosed,
    Timeout,
    Io(String),
}

/// Runs one connection until the end of the load. A stop aborts its task
/// (see the worker), whatever it is waiting for.
///
/// Open loop follows wrk2: a request is due at its place in the schedule and
/// its corrected latency runs from then, so a connection that falls behind
/// sends at once until it catches up and the wait is counted. The schedule
/// ends with the load: requests still due at the end (the connection never
/// caught up, as with a rate the server or this generator cannot sustain)
/// are not sent but counted as `missed`.
pub(crate) async fn run_connection(shared: std::rc::Rc<ThreadShared>, pace: Option<Pace>) {
    let needs_body = shared.checks.needs_body();
    let mut conn: Option<Http1Conn> = None;
    let mut responses: u64 = 0;
    let mut next_send = pace.map(|p| p.first);
    // The clock read when the last response ended: the next request goes at once.
    let mut now = Instant::now();
    loop {
        if now >= shared.end || shared.stop.is_stopped() {
            break;
        }
        let intended = match (next_send.as_mut(), pace) {
            (Some(next), Some(p)) => {
                if *next >= shared.end {
                    break;
                }
                // tokio's timer works in 1 ms ticks and fires up to ~2 ms after a deadline:
                // aim that much early so the client's own timer is not counted as the
                // server's latency (an early send is measured from when it was sent).
                let wake = next.checked_sub(TIMER_SLACK).unwrap_or(*next);
                if wake > Instant::now() {
                    tokio::time::sleep_until(wake.into()).await;
                }
                let at = *next;
                *next += p.interval;
                Some(at)
            }
            _ => None,
        };
        let mut resent = false;
        // A resend after an idle close keeps the first attempt's send time: the wait was real.
        let mut first_sent: Option<Instant> = None;
        loop {
            let mut current = match conn.take() {
                Some(c) => c,
                None => match Http1Conn::connect(shared.template.addr, shared.timeout).await {
                    Ok(c) => c,
                    Err(message) => {
                        {
                            let mut stats = shared.stats.borrow_mut();
                            stats.errors.connect += 1;
                            stats.sample_error(|| format!("connect: {message}"));
                        }
                        // Back off briefly so a refused port does not spin the thread.
                        let pause = Instant::now() + Duration::from_millis(10);
                        tokio::time::sleep_until(pause.min(shared.end).into()).await;
                        now = Instant::now();
                        break;
                    }
                },
            };
            let check_body = needs_body && shared.check_sample.selects(responses);
            let mut body =
                check_body.then(|| BODIES.with(|b| b.borrow_mut().pop()).unwrap_or_default());
            // Read now, not reused from the last response's end: that
            // response's checks (a body's SHA-256) ran in between.
            let sent = first_sent.unwrap_or_else(Instant::now);
            first_sent = Some(sent);
            let outcome = exchange(&mut current, &shared, body.as_mut(), sent).await;
            let done = Instant::now();
            now = done;
            match outcome {
                Ok(response) => {
                    let (status, len) = (response.status, response.body_len);
                    if response.keep_alive {
                        conn = Some(current);
                    }
                    responses += 1;
                    let checked = check_response(&shared.checks, status, len, body.as_deref());
                    if let Some(mut body) = body {
                        body.clear();
                        BODIES.with(|b| b.borrow_mut().push(body));
                    }
                    let mut stats = shared.stats.borrow_mut();
                    stats.requests += 1;
                    stats.bytes += len;
                    let _ = stats.latency.record(micros(done - sent));
                    if let (Some(corrected), Some(at)) = (stats.corrected.as_mut(), intended) {
                        // Sent early: the request's own latency; sent late: from when it was due.
                        let since_due = done.saturating_duration_since(at);
                        let _ = corrected.record(micros(since_due.max(done - sent)));
                    }
                    if let Err(failure) = checked {
                        if (200..300).contains(&status) {
                            stats.errors.check += 1;
                        } else {
                            stats.errors.status += 1;
                            *stats.errors.statuses.entry(status).or_default() += 1;
                        }
                        stats.sample_error(|| failure.to_string());
                    }
                }
                Err(Failure::IdleClosed) if !resent => {
                    shared.stats.borrow_mut().reconnects += 1;
                    resent = true;
                    continue;
                }
                Err(Failure::IdleClosed) => {
                    let mut stats = shared.stats.borrow_mut();
                    stats.errors.io += 1;
                    stats
                        .sample_error(|| "connection closed again right after reconnecting".into());
                }
                Err(Failure::Timeout) => {
                    let mut stats = shared.stats.borrow_mut();
                    stats.errors.timeout += 1;
                    stats.sample_error(|| {
                        format!("no response within {} s", shared.timeout.as_secs_f64())
                    });
                }
                Err(Failure::Io(message)) => {
                    let mut stats = shared.stats.borrow_mut();
                    stats.errors.io += 1;
                    stats.sample_error(|| message);
                }
            }
            break;
        }
    }
    if let (Some(next), Some(p)) = (next_send, pace)
        && next < shared.end
        && !shared.stop.is_stopped()
    {
        // Due in [next, end) and not sent; a float-to-integer cast saturates.
        let missed = ((shared.end - next).as_secs_f64() * p.per_second).ceil() as u64;
        let mut stats = shared.stats.borrow_mut();
        stats.missed = stats.missed.saturating_add(missed);
    }
}

fn micros(d: Duration) -> u64 {
    (d.as_micros() as u64).max(1)
}

thread_local! {
    /// Bodies being checked on this thread, lent to a connection for one
    /// response: memory grows with the checks in flight, not the connections.
    static BODIES: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Sends the request and reads the whole response (its body into `body`
/// when given); gives the connection back when it can carry the next.
async fn exchange(
    conn: &mut Http1Conn,
    shared: &ThreadShared,
    body: Option<&mut Vec<u8>>,
    sent: Instant,
) -> Result<Response, Failure> {
    conn.exchange(
        &shared.request,
        shared.head_request,
        false,
        body,
        sent + shared.timeout,
    )
    .await
    .map_err(|e| match e {
        ExchangeError::IdleClosed => Failure::IdleClosed,
        ExchangeError::Timeout => Failure::Timeout,
        ExchangeError::Io(message) => Failure::Io(message),
    })
}
