//! One simulated connection: an HTTP/1.1 client connection sending one
//! request at a time, as a state machine its worker's event loop
//! ([`crate::worker`]) drives from socket events and timers, recording every
//! response into its thread's interval stats.
//!
//! As wrk does: the request goes out in one `write` and the response comes
//! in one `read` into the thread's read buffer ([`crate::http1`]'s parser),
//! a body nobody checks is dropped in the kernel, and no task, allocation,
//! timer or epoll call is made per request. A connection's timeout is one
//! timer entry, moved on only when it fires before the request in flight is
//! due.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::ErrorKind;
use std::os::fd::{AsFd, AsRawFd};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use mio::net::TcpStream;
use mio::{Registry, Token};

use crate::check::{CheckSample, ResponseChecks, check_response};
use crate::http1::{
    ExchangeError, HEAD_READ_BYTES, Response, ResponseParser, closed, connect_outcome, discard,
    open, recv, send, set_rcvlowat,
};
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
    pub fn sample_error(&mut self, message: impl FnOnce() -> String) {
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

/// What a connection acts on besides itself, lent by the worker for one event.
pub(crate) struct Ctx<'a> {
    pub shared: &'a ThreadShared,
    pub stats: &'a mut IntervalStats,
    pub timers: &'a mut Timers,
    pub registry: &'a Registry,
    /// The thread's read buffer, lent to one connection for one read.
    pub buffer: &'a mut [u8],
    /// Connections that have ended.
    pub finished: &'a mut usize,
}

/// What an event said of a socket.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Readiness {
    /// Bytes to read.
    pub readable: bool,
    /// Room to send, or a finished connect.
    pub writable: bool,
    /// The peer's close or an error.
    pub closing: bool,
}

impl From<&mio::event::Event> for Readiness {
    fn from(event: &mio::event::Event) -> Readiness {
        Readiness {
            readable: event.is_readable(),
            writable: event.is_writable(),
            closing: event.is_read_closed() || event.is_write_closed() || event.is_error(),
        }
    }
}

/// What a timer entry is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Alarm {
    /// The end of a wait: an open-loop send time, or a pause after a refused connect.
    Wake,
    /// The timeout of the connect or request in flight (or of an earlier one).
    Deadline,
}

/// The worker's timers: a heap of (when, connection, what for). An entry
/// that no longer stands is skipped when it comes due; each connection has
/// at most one wake and one deadline entry standing.
#[derive(Default)]
pub(crate) struct Timers(BinaryHeap<Reverse<(Instant, usize, Alarm)>>);

impl Timers {
    fn push(&mut self, at: Instant, connection: usize, alarm: Alarm) {
        self.0.push(Reverse((at, connection, alarm)));
    }

    /// When the earliest entry is due.
    pub fn next(&self) -> Option<Instant> {
        self.0.peek().map(|Reverse((at, _, _))| *at)
    }

    /// Takes the earliest entry if it is due at `now`.
    pub fn pop_due(&mut self, now: Instant) -> Option<(Instant, usize, Alarm)> {
        if self.next()? > now {
            return None;
        }
        self.0.pop().map(|Reverse(entry)| entry)
    }
}

/// Sockets a connection may open before its tokens repeat: an event for a
/// socket closed earlier in the same wait is told apart by its number.
pub(crate) const GENERATIONS: usize = 1 << 16;

/// A connection's token: its index and its socket's number.
pub(crate) fn token(index: usize, generation: usize) -> Token {
    Token(index * GENERATIONS + generation % GENERATIONS)
}

/// The connection a token names, and its socket's number.
pub(crate) fn untoken(token: Token) -> (usize, usize) {
    (token.0 / GENERATIONS, token.0 % GENERATIONS)
}

struct Socket {
    stream: TcpStream,
    /// Responses served: a close before the first is not an idle close.
    served: u64,
    /// An edge said there is something to read (bytes, the close, an error) not yet read.
    readable: bool,
    /// An edge said the peer closed or the socket failed: no edge is to
    /// come for it, so every read goes on until the close is read.
    closing: bool,
    /// The socket wakes its reader only once the rest of a large body is
    /// there (SO_RCVLOWAT), not at each segment.
    waits_for_body: bool,
}

impl Socket {
    /// Before waiting for more of a response: with `left` bytes of a large
    /// body to come, the socket is told to wake its reader only once they
    /// are all there (as far as its buffer allows), one wake-up for the rest
    /// of the body instead of one a segment, each of which the server pays
    /// for too; with `None` (the response is whole), every byte wakes it
    /// again. A response's time is still that of its last byte.
    fn wait_for_body(&mut self, left: Option<u64>) {
        let wait = left.is_some_and(|left| left > WAIT_FOR_BODY_FROM);
        if wait || self.waits_for_body {
            let bytes = left.filter(|_| wait).unwrap_or(1);
            let set = set_rcvlowat(self.stream.as_raw_fd(), bytes as usize).is_ok();
            self.waits_for_body = wait && set;
        }
    }
}

/// The rest of a body worth one wake-up rather than one a segment.
const WAIT_FOR_BODY_FROM: u64 = 16 * 1024;

/// One request, across a resend on a new connection.
struct Attempt {
    /// Open loop: when it was due.
    intended: Option<Instant>,
    /// A resend after an idle close keeps the first attempt's send time: the wait was real.
    first_sent: Option<Instant>,
    resent: bool,
}

/// What comes after a wait.
#[derive(Clone, Copy)]
enum Then {
    /// The open-loop request due now.
    Send,
    /// The next request, if the load goes on.
    Next,
}

struct Exchange {
    attempt: Attempt,
    sent: Instant,
    deadline: Instant,
    written: usize,
    parser: ResponseParser,
    /// Where the body goes when it is checked.
    body: Option<Vec<u8>>,
}

enum State {
    Waiting { until: Instant, then: Then },
    Connecting { attempt: Attempt, deadline: Instant },
    Exchanging(Exchange),
    Done,
}

/// One connection until the end of the load.
///
/// Open loop follows wrk2: a request is due at its place in the schedule and
/// its corrected latency runs from then, so a connection that falls behind
/// sends at once until it catches up and the wait is counted. The schedule
/// ends with the load: requests still due at the end (the connection never
/// caught up, as with a rate the server or this generator cannot sustain)
/// are not sent but counted as `missed`.
pub(crate) struct Connection {
    index: usize,
    pace: Option<Pace>,
    next_send: Option<Instant>,
    socket: Option<Socket>,
    /// Sockets opened so far.
    generation: usize,
    state: State,
    responses: u64,
    /// The deadline entry standing in the timers.
    deadline_armed: Option<Instant>,
}

impl Connection {
    pub fn new(index: usize, pace: Option<Pace>) -> Connection {
        Connection {
            index,
            pace,
            next_send: pace.map(|p| p.first),
            socket: None,
            generation: 0,
            state: State::Done,
            responses: 0,
            deadline_armed: None,
        }
    }

    /// Sends the first request, or waits for its time.
    pub fn start(&mut self, ctx: &mut Ctx) {
        self.next_request(Instant::now(), ctx);
    }

    /// Its socket (of `generation`) became readable or writable, or `closing`.
    pub fn on_event(&mut self, generation: usize, event: Readiness, ctx: &mut Ctx) {
        let Readiness {
            readable,
            writable,
            closing,
        } = event;
        let Some(socket) = self.socket.as_mut() else {
            return;
        };
        if generation != self.generation % GENERATIONS {
            return;
        }
        socket.readable |= readable || closing;
        socket.closing |= closing;
        let sent_whole = match &self.state {
            State::Exchanging(x) => x.written == ctx.shared.request.len(),
            _ => false,
        };
        match (&self.state, sent_whole) {
            (State::Connecting { .. }, _) => self.connected(ctx),
            // The response is read once the request is out.
            (State::Exchanging(_), false) if writable || closing => self.write(ctx),
            (State::Exchanging(_), true) if socket.readable => self.read(ctx),
            _ => {}
        }
    }

    /// A timer entry of this connection, set for `at`, came due.
    pub fn on_timer(&mut self, at: Instant, alarm: Alarm, now: Instant, ctx: &mut Ctx) {
        match alarm {
            Alarm::Wake => {
                let State::Waiting { until, then } = self.state else {
                    return;
                };
                if until != at {
                    return;
                }
                match then {
                    Then::Send => self.send_due(ctx),
                    Then::Next => self.next_request(now, ctx),
                }
            }
            Alarm::Deadline => {
                if self.deadline_armed != Some(at) {
                    return;
                }
                self.deadline_armed = None;
                let deadline = match &self.state {
                    State::Connecting { deadline, .. } => *deadline,
                    State::Exchanging(x) => x.deadline,
                    State::Waiting { .. } | State::Done => return,
                };
                if now < deadline {
                    // Fired for an earlier request: wait on for this one.
                    self.arm_deadline(deadline, ctx);
                } else if matches!(self.state, State::Connecting { .. }) {
                    let seconds = ctx.shared.timeout.as_secs_f64();
                    self.connect_failed(format!("no connection within {seconds} s"), ctx);
                } else {
                    self.fail(ExchangeError::Timeout, ctx);
                }
            }
        }
    }

    /// `now`: when the last response ended, or the clock after a failure.
    fn next_request(&mut self, now: Instant, ctx: &mut Ctx) {
        let shared = ctx.shared;
        if now >= shared.end || shared.stop.is_stopped() {
            return self.finish(ctx);
        }
        let Some(next) = self.next_send else {
            return self.begin(
                Attempt {
                    intended: None,
                    first_sent: None,
                    resent: false,
                },
                ctx,
            );
        };
        if next >= shared.end {
            return self.finish(ctx);
        }
        // The timers' wait rounds up to a millisecond, and a woken thread
        // may run later still: aim that much early so the client's own
        // timer is not counted as the server's latency (an early send is
        // measured from when it was sent).
        let wake = next.checked_sub(TIMER_SLACK).unwrap_or(next);
        if wake > Instant::now() {
            self.state = State::Waiting {
                until: wake,
                then: Then::Send,
            };
            ctx.timers.push(wake, self.index, Alarm::Wake);
            return;
        }
        self.send_due(ctx);
    }

    /// Sends the open-loop request due now.
    fn send_due(&mut self, ctx: &mut Ctx) {
        let (Some(at), Some(pace)) = (self.next_send, self.pace) else {
            return self.finish(ctx);
        };
        self.next_send = Some(at + pace.interval);
        self.begin(
            Attempt {
                intended: Some(at),
                first_sent: None,
                resent: false,
            },
            ctx,
        );
    }

    /// Sends on the open socket, or connects first.
    fn begin(&mut self, attempt: Attempt, ctx: &mut Ctx) {
        if self.socket.is_some() {
            return self.exchange(attempt, ctx);
        }
        self.generation += 1;
        let token = token(self.index, self.generation);
        match open(ctx.shared.template.addr, ctx.registry, token) {
            Ok(stream) => {
                self.socket = Some(Socket {
                    stream,
                    served: 0,
                    readable: false,
                    closing: false,
                    waits_for_body: false,
                });
                let deadline = Instant::now() + ctx.shared.timeout;
                self.state = State::Connecting { attempt, deadline };
                self.arm_deadline(deadline, ctx);
            }
            Err(e) => self.connect_failed(e.to_string(), ctx),
        }
    }

    /// The socket being connected said something: connected, failed, or not yet.
    fn connected(&mut self, ctx: &mut Ctx) {
        let Some(socket) = self.socket.as_mut() else {
            return;
        };
        match connect_outcome(&socket.stream) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => return self.connect_failed(e.to_string(), ctx),
        }
        let State::Connecting { attempt, .. } = std::mem::replace(&mut self.state, State::Done)
        else {
            return;
        };
        self.exchange(attempt, ctx);
    }

    fn connect_failed(&mut self, message: String, ctx: &mut Ctx) {
        ctx.stats.errors.connect += 1;
        ctx.stats.sample_error(|| format!("connect: {message}"));
        self.socket = None;
        // Back off briefly so a refused port does not spin the thread.
        let until = (Instant::now() + Duration::from_millis(10)).min(ctx.shared.end);
        self.state = State::Waiting {
            until,
            then: Then::Next,
        };
        ctx.timers.push(until, self.index, Alarm::Wake);
    }

    fn exchange(&mut self, mut attempt: Attempt, ctx: &mut Ctx) {
        let shared = ctx.shared;
        let check_body = shared.checks.needs_body() && shared.check_sample.selects(self.responses);
        let body = check_body.then(|| BODIES.with(|b| b.borrow_mut().pop()).unwrap_or_default());
        // Read now, not reused from the last response's end: that
        // response's checks (a body's SHA-256) ran in between.
        let sent = *attempt.first_sent.get_or_insert_with(Instant::now);
        let deadline = sent + shared.timeout;
        self.state = State::Exchanging(Exchange {
            attempt,
            sent,
            deadline,
            written: 0,
            parser: ResponseParser::new(shared.head_request, false),
            body,
        });
        self.arm_deadline(deadline, ctx);
        self.write(ctx);
    }

    fn write(&mut self, ctx: &mut Ctx) {
        let (Some(socket), State::Exchanging(x)) = (self.socket.as_mut(), &mut self.state) else {
            return;
        };
        let request = &ctx.shared.request;
        while x.written < request.len() {
            match send(socket.stream.as_fd(), &request[x.written..]) {
                Ok(0) => {
                    let failure = closed(socket.served, ErrorKind::WriteZero.into());
                    return self.fail(failure, ctx);
                }
                Ok(n) => x.written += n,
                // The writable edge comes when there is room.
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    let failure = closed(socket.served, e);
                    return self.fail(failure, ctx);
                }
            }
        }
        // What arrived while idle (the server's close) has no edge to come.
        if socket.readable {
            self.read(ctx);
        }
    }

    /// Reads what the socket has, until the response is whole or the socket is drained.
    fn read(&mut self, ctx: &mut Ctx) {
        let (Some(socket), State::Exchanging(x)) = (self.socket.as_mut(), &mut self.state) else {
            return;
        };
        // A body nobody reads is discarded in the kernel, not copied out;
        // the head then comes in a small read, leaving the body there.
        let discarding = x.body.is_none();
        let fd = socket.stream.as_fd();
        let buffer = &mut *ctx.buffer;
        loop {
            let left = x.parser.body_left().filter(|_| discarding);
            let (asked, step) = match left {
                Some(left) => {
                    let asked = (left as usize).min(buffer.len());
                    let step = discard(fd, buffer, left).map(|n| (n, x.parser.discarded(n)));
                    (asked, step)
                }
                None => {
                    let asked = if discarding {
                        HEAD_READ_BYTES
                    } else {
                        buffer.len()
                    };
                    let step = recv(fd, &mut buffer[..asked])
                        .map(|n| (n, x.parser.feed(&buffer[..n], x.body.as_mut())));
                    (asked, step)
                }
            };
            // A short read took all there was: the next bytes bring an edge
            // (but a close that came with the bytes is still to be read).
            let drained = |n: usize| n < asked && !socket.closing;
            let n = match &step {
                Ok((n, _)) => *n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    socket.readable = false;
                    return socket.wait_for_body(x.parser.body_left());
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            match x.parser.outcome(step.map(|(_, fed)| fed), socket.served) {
                Ok(None) if drained(n) => {
                    socket.readable = false;
                    return socket.wait_for_body(x.parser.body_left());
                }
                Ok(None) => {}
                Ok(Some(response)) => {
                    socket.served += 1;
                    socket.readable = !drained(n);
                    socket.wait_for_body(None);
                    return self.answered(response, ctx);
                }
                Err(failure) => return self.fail(failure, ctx),
            }
        }
    }

    /// A whole response: counted, checked, and the next request.
    fn answered(&mut self, response: Response, ctx: &mut Ctx) {
        let done = Instant::now();
        let State::Exchanging(x) = std::mem::replace(&mut self.state, State::Done) else {
            return;
        };
        let (status, len) = (response.status, response.body_len);
        if !response.keep_alive {
            self.socket = None;
        }
        self.responses += 1;
        let checked = check_response(&ctx.shared.checks, status, len, x.body.as_deref());
        if let Some(mut body) = x.body {
            body.clear();
            BODIES.with(|b| b.borrow_mut().push(body));
        }
        let stats = &mut *ctx.stats;
        stats.requests += 1;
        stats.bytes += len;
        let _ = stats.latency.record(micros(done - x.sent));
        if let (Some(corrected), Some(at)) = (stats.corrected.as_mut(), x.attempt.intended) {
            // Sent early: the request's own latency; sent late: from when it was due.
            let since_due = done.saturating_duration_since(at);
            let _ = corrected.record(micros(since_due.max(done - x.sent)));
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
        self.next_request(done, ctx);
    }

    /// The request in flight got no whole response: the socket is closed.
    fn fail(&mut self, failure: ExchangeError, ctx: &mut Ctx) {
        self.socket = None;
        let State::Exchanging(x) = std::mem::replace(&mut self.state, State::Done) else {
            return;
        };
        let stats = &mut *ctx.stats;
        match failure {
            ExchangeError::IdleClosed if !x.attempt.resent => {
                stats.reconnects += 1;
                let attempt = Attempt {
                    resent: true,
                    ..x.attempt
                };
                return self.begin(attempt, ctx);
            }
            ExchangeError::IdleClosed => {
                stats.errors.io += 1;
                stats.sample_error(|| "connection closed again right after reconnecting".into());
            }
            ExchangeError::Timeout => {
                stats.errors.timeout += 1;
                let seconds = ctx.shared.timeout.as_secs_f64();
                stats.sample_error(|| format!("no response within {seconds} s"));
            }
            ExchangeError::Io(message) => {
                stats.errors.io += 1;
                stats.sample_error(|| message);
            }
        }
        self.next_request(Instant::now(), ctx);
    }

    /// Makes sure a deadline entry stands no later than `deadline`.
    fn arm_deadline(&mut self, deadline: Instant, ctx: &mut Ctx) {
        if self.deadline_armed.is_none_or(|armed| deadline < armed) {
            ctx.timers.push(deadline, self.index, Alarm::Deadline);
            self.deadline_armed = Some(deadline);
        }
    }

    /// The load is over for this connection: its socket closes.
    fn finish(&mut self, ctx: &mut Ctx) {
        self.socket = None;
        self.state = State::Done;
        *ctx.finished += 1;
        let shared = ctx.shared;
        if let (Some(next), Some(p)) = (self.next_send, self.pace)
            && next < shared.end
            && !shared.stop.is_stopped()
        {
            // Due in [next, end) and not sent; a float-to-integer cast saturates.
            let due = ((shared.end - next).as_secs_f64() * p.per_second).ceil() as u64;
            // The first of them waited only on the response in flight when
            // the load ended, as any open-loop request may wait: mid-run it
            // would have been sent late and measured from when it was due;
            // here the end cut it off. The schedule was behind only by those
            // due after it.
            ctx.stats.missed = ctx.stats.missed.saturating_add(due.saturating_sub(1));
        }
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
