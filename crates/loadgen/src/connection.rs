//! One simulated connection: a hyper HTTP/1.1 client connection sending one
//! request at a time, recording every response into its thread's interval stats.

use std::cell::RefCell;
use std::error::Error as _;
use std::io::ErrorKind;
use std::time::{Duration, Instant};

use bytes::Bytes;
use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::check::{CheckSample, ResponseChecks, check_response};
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

pub(crate) struct Conn {
    pub sender: SendRequest<Full<Bytes>>,
    /// Responses this connection has served: a close before the first is not an idle close.
    pub served: u64,
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
    let mut conn: Option<Conn> = None;
    let mut responses: u64 = 0;
    let mut next_send = pace.map(|p| p.first);
    let mut body = Vec::new();
    loop {
        if Instant::now() >= shared.end || shared.stop.is_stopped() {
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
            let current = match conn.take() {
                Some(c) => c,
                None => match connect(shared.template.addr, shared.timeout).await {
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
                        break;
                    }
                },
            };
            let check_body = needs_body && shared.check_sample.selects(responses);
            body.clear();
            let sent = *first_sent.get_or_insert_with(Instant::now);
            let outcome = exchange(current, &shared, check_body.then_some(&mut body)).await;
            let done = Instant::now();
            match outcome {
                Ok((c, status, len)) => {
                    conn = Some(c);
                    responses += 1;
                    let checked = check_response(
                        &shared.checks,
                        status,
                        len,
                        check_body.then_some(&body[..]),
                    );
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
                    stats.sample_error(|| format!("no response within {:?}", shared.timeout));
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

pub(crate) async fn connect(addr: std::net::SocketAddr, timeout: Duration) -> Result<Conn, String> {
    let handshake = async {
        let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::task::spawn_local(connection);
        Ok(Conn { sender, served: 0 })
    };
    tokio::time::timeout(timeout, handshake)
        .await
        .unwrap_or_else(|_| Err(format!("no connection within {timeout:?}")))
}

/// Sends one request and reads the whole response; returns the connection when it can be reused.
async fn exchange(
    mut conn: Conn,
    shared: &ThreadShared,
    mut body: Option<&mut Vec<u8>>,
) -> Result<(Conn, u16, u64), Failure> {
    let served_before = conn.served;
    let round_trip = async {
        // Before any response byte arrived: a close here on a used connection is an idle close.
        let early = |e: hyper::Error| {
            if served_before > 0 && is_close(&e) {
                Failure::IdleClosed
            } else {
                Failure::Io(e.to_string())
            }
        };
        conn.sender.ready().await.map_err(early)?;
        let response = conn
            .sender
            .send_request(shared.template.build())
            .await
            .map_err(early)?;
        let status = response.status().as_u16();
        let mut incoming = response.into_body();
        let mut len = 0u64;
        while let Some(frame) = incoming.frame().await {
            let frame = frame.map_err(|e| Failure::Io(format!("reading the body: {e}")))?;
            if let Some(data) = frame.data_ref() {
                len += data.len() as u64;
                if let Some(buf) = body.as_mut() {
                    buf.extend_from_slice(data);
                }
            }
        }
        Ok((status, len))
    };
    let (status, len) = tokio::time::timeout(shared.timeout, round_trip)
        .await
        .map_err(|_| Failure::Timeout)??;
    conn.served += 1;
    Ok((conn, status, len))
}

/// Whether an error means the peer closed the connection (EOF, reset, broken pipe).
pub(crate) fn is_close(e: &hyper::Error) -> bool {
    if e.is_canceled() || e.is_closed() || e.is_incomplete_message() {
        return true;
    }
    let mut source = e.source();
    while let Some(err) = source {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return matches!(
                io.kind(),
                ErrorKind::ConnectionReset
                    | ErrorKind::BrokenPipe
                    | ErrorKind::ConnectionAborted
                    | ErrorKind::UnexpectedEof
            );
        }
        source = err.source();
    }
    false
}
