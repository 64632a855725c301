//! One person's HTTP connection, kept alive like a browser's, as a state
//! machine its thread's event loop drives: the request goes out in one
//! `send`, the response is parsed by the load's parser ([`ResponseParser`])
//! as it arrives, its body into a buffer lent for the request. Like a
//! browser, it sends a request again on a new connection when the server
//! had closed the old one for idleness: counted as a reconnect, not as the
//! server's error.

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use crate::StopHandle;
use crate::spec::STOP_POLL;

use mio::net::TcpStream;
use mio::{Events, Poll, Registry, Token};

use crate::connection::{GENERATIONS, Readiness};
use crate::http1::{ExchangeError, ResponseParser, closed, connect_outcome, open, recv, send};

/// Why a request got no response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FetchError {
    Connect(String),
    Timeout,
    Io(String),
}

impl FetchError {
    pub fn cause(&self) -> &'static str {
        match self {
            FetchError::Connect(_) => "connect",
            FetchError::Timeout => "timeout",
            FetchError::Io(_) => "io",
        }
    }
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Connect(why) => write!(f, "cannot connect: {why}"),
            FetchError::Timeout => f.write_str("no response in time"),
            FetchError::Io(why) => f.write_str(why),
        }
    }
}

/// A response: its status, the cookie it set (`Debug` hides it) and its body.
#[derive(Default)]
pub(crate) struct Fetched {
    pub status: u16,
    /// `name=value` of the first `Set-Cookie`.
    pub cookie: Option<String>,
    /// The body, in the buffer the request was lent: give it back when read.
    pub body: Vec<u8>,
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetched")
            .field("status", &self.status)
            .field("cookie", &crate::secret::presence(&self.cookie))
            .field("body", &self.body.len())
            .finish()
    }
}

/// A request: what a person asks for.
pub(crate) struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub form: Option<&'a str>,
    pub accept: &'a str,
}

/// What an event or a timer made of the request in flight.
pub(crate) enum Progress {
    /// Still on its way (or none in flight).
    Pending,
    Done(Result<Fetched, FetchError>),
}

struct Connection {
    stream: TcpStream,
    /// Responses served: a close before the first is not an idle close.
    served: u64,
    connected: bool,
    /// An edge said there is something to read not yet read.
    readable: bool,
    closing: bool,
}

struct Exchange {
    request: Vec<u8>,
    head_request: bool,
    written: usize,
    parser: ResponseParser,
    body: Vec<u8>,
    /// The connect's, then the exchange's.
    deadline: Instant,
    resent: bool,
}

pub(crate) struct Browser {
    addr: SocketAddr,
    pub cookie: Option<String>,
    /// Keep the connection open between requests, as a browser does.
    keep_alive: bool,
    timeout: Duration,
    connection: Option<Connection>,
    /// Sockets opened so far: an event for an earlier one is told apart.
    generation: usize,
    exchange: Option<Exchange>,
    /// The server closed the kept-alive connection while it was idle.
    idle_closed: bool,
    /// Requests that went on a new connection because the server had closed
    /// the kept-alive one for idleness (sent again, or seen closed before
    /// sending), not yet counted.
    pub reconnects: u64,
}

impl Browser {
    pub fn new(addr: SocketAddr, timeout: Duration, keep_alive: bool) -> Browser {
        Browser {
            addr,
            cookie: None,
            keep_alive,
            timeout,
            connection: None,
            generation: 0,
            exchange: None,
            idle_closed: false,
            reconnects: 0,
        }
    }

    /// Sends `request` with the session's cookie; its body goes into `body`
    /// (a buffer lent for the request, cleared first). The outcome comes from
    /// the events and deadlines that follow, or at once.
    pub fn fetch(
        &mut self,
        request: &Request,
        mut body: Vec<u8>,
        token: impl Fn(usize) -> Token,
        registry: &Registry,
    ) -> Progress {
        body.clear();
        let wire = match self.wire(request) {
            Ok(wire) => wire,
            Err(e) => return Progress::Done(Err(e)),
        };
        self.exchange = Some(Exchange {
            request: wire,
            head_request: request.method == "HEAD",
            written: 0,
            parser: ResponseParser::new(request.method == "HEAD", true),
            body,
            deadline: Instant::now() + self.timeout,
            resent: false,
        });
        self.begin(token, registry)
    }

    /// When the request in flight times out.
    pub fn deadline(&self) -> Option<Instant> {
        self.exchange.as_ref().map(|x| x.deadline)
    }

    /// The request in flight, failed if its deadline has passed at `now`.
    pub fn on_deadline(&mut self, now: Instant) -> Progress {
        match &self.exchange {
            Some(x) if now >= x.deadline => {
                let connecting = self.connection.as_ref().is_some_and(|c| !c.connected);
                self.fail(if connecting {
                    let seconds = self.timeout.as_secs_f64();
                    FetchError::Connect(format!("no connection within {seconds} s"))
                } else {
                    FetchError::Timeout
                })
            }
            _ => Progress::Pending,
        }
    }

    /// An event for the socket of `generation`.
    pub fn on_event(
        &mut self,
        generation: usize,
        event: Readiness,
        token: impl Fn(usize) -> Token,
        registry: &Registry,
        buffer: &mut [u8],
    ) -> Progress {
        if generation != self.generation {
            return Progress::Pending;
        }
        let Some(connection) = self.connection.as_mut() else {
            return Progress::Pending;
        };
        connection.readable |= event.readable || event.closing;
        connection.closing |= event.closing;
        if self.exchange.is_none() {
            // An idle connection the server closed (as a browser sees it, the
            // next request goes on a new one, counted as a reconnect).
            if connection.closing {
                self.connection = None;
                self.idle_closed = true;
            }
            return Progress::Pending;
        }
        if !connection.connected {
            return self.connected(token, registry, buffer);
        }
        self.advance(token, registry, buffer)
    }

    /// The request on the wire.
    fn wire(&self, request: &Request) -> Result<Vec<u8>, FetchError> {
        use std::io::Write;
        let Request {
            method,
            path,
            form,
            accept,
        } = *request;
        if path.bytes().any(|b| b.is_ascii_control() || b == b' ') {
            return Err(FetchError::Io(format!("building {path}: not a path")));
        }
        let mut wire = Vec::with_capacity(256);
        // Writing to a Vec cannot fail.
        let _ = write!(
            wire,
            "{method} {path} HTTP/1.1\r\nhost: {addr}\r\naccept: {accept}\r\norigin: http://{addr}\r\nsec-fetch-site: same-origin\r\n",
            addr = self.addr
        );
        if let Some(cookie) = &self.cookie {
            let _ = write!(wire, "cookie: {cookie}\r\n");
        }
        if !self.keep_alive {
            // ServerMessage, so the server closes first: the closed connection's
            // TIME_WAIT is then the server's, not one of this machine's
            // ephemeral ports, which thousands of people would use up (and
            // every connect would search past).
            wire.extend_from_slice(b"connection: close\r\n");
        }
        if let Some(form) = form {
            let _ = write!(
                wire,
                "content-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\r\n{form}",
                form.len()
            );
        } else if method == "POST" {
            wire.extend_from_slice(b"content-length: 0\r\n\r\n");
        } else {
            wire.extend_from_slice(b"\r\n");
        }
        Ok(wire)
    }

    /// Sends on the open connection, or connects first.
    fn begin(&mut self, token: impl Fn(usize) -> Token, registry: &Registry) -> Progress {
        if self.connection.is_some() {
            return self.advance(token, registry, &mut []);
        }
        if std::mem::take(&mut self.idle_closed) {
            self.reconnects += 1;
        }
        self.generation = (self.generation + 1) % GENERATIONS;
        match open(self.addr, registry, token(self.generation)) {
            Ok(stream) => {
                self.connection = Some(Connection {
                    stream,
                    served: 0,
                    connected: false,
                    readable: false,
                    closing: false,
                });
                if let Some(x) = self.exchange.as_mut() {
                    x.deadline = Instant::now() + self.timeout;
                }
                Progress::Pending
            }
            Err(e) => self.fail(FetchError::Connect(e.to_string())),
        }
    }

    /// The socket being connected said something: connected, failed, or not yet.
    fn connected(
        &mut self,
        token: impl Fn(usize) -> Token,
        registry: &Registry,
        buffer: &mut [u8],
    ) -> Progress {
        let Some(connection) = self.connection.as_mut() else {
            return Progress::Pending;
        };
        match connect_outcome(&connection.stream) {
            Ok(true) => {}
            Ok(false) => return Progress::Pending,
            Err(e) => return self.fail(FetchError::Connect(e.to_string())),
        }
        connection.connected = true;
        if let Some(x) = self.exchange.as_mut() {
            x.deadline = Instant::now() + self.timeout;
        }
        self.advance(token, registry, buffer)
    }

    /// Writes what is left of the request, then reads what the socket has.
    fn advance(
        &mut self,
        token: impl Fn(usize) -> Token,
        registry: &Registry,
        buffer: &mut [u8],
    ) -> Progress {
        let (Some(connection), Some(x)) = (self.connection.as_mut(), self.exchange.as_mut()) else {
            return Progress::Pending;
        };
        if !connection.connected {
            return Progress::Pending;
        }
        let fd = connection.stream.as_fd();
        while x.written < x.request.len() {
            match send(fd, &x.request[x.written..]) {
                Ok(0) => {
                    let failure = closed(connection.served, ErrorKind::WriteZero.into());
                    return self.failed(failure, token, registry);
                }
                Ok(n) => x.written += n,
                // The writable edge comes when there is room.
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Progress::Pending,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    let failure = closed(connection.served, e);
                    return self.failed(failure, token, registry);
                }
            }
        }
        if !connection.readable || buffer.is_empty() {
            return Progress::Pending;
        }
        loop {
            let step =
                recv(fd, buffer).map(|n| (n, x.parser.feed(&buffer[..n], Some(&mut x.body))));
            // A short read took all there was: the next bytes bring an edge
            // (but a close that came with the bytes is still to be read).
            let drained = |n: usize| n < buffer.len() && !connection.closing;
            let n = match &step {
                Ok((n, _)) => *n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    connection.readable = false;
                    return Progress::Pending;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            let fed = step.map(|(_, fed)| fed);
            match x.parser.outcome(fed, connection.served) {
                Ok(None) if drained(n) => {
                    connection.readable = false;
                    return Progress::Pending;
                }
                Ok(None) => {}
                Ok(Some(response)) => {
                    connection.served += 1;
                    connection.readable = !drained(n);
                    if !(self.keep_alive && response.keep_alive) {
                        self.connection = None;
                    }
                    let Some(x) = self.exchange.take() else {
                        return Progress::Pending;
                    };
                    return Progress::Done(Ok(Fetched {
                        status: response.status,
                        cookie: response.cookie,
                        body: x.body,
                    }));
                }
                Err(failure) => return self.failed(failure, token, registry),
            }
        }
    }

    /// The exchange got no whole response: sent again once after an idle
    /// close, as a browser does, else failed.
    fn failed(
        &mut self,
        failure: ExchangeError,
        token: impl Fn(usize) -> Token,
        registry: &Registry,
    ) -> Progress {
        self.connection = None;
        match failure {
            ExchangeError::IdleClosed => match self.exchange.as_mut() {
                Some(x) if !x.resent => {
                    x.resent = true;
                    x.written = 0;
                    x.parser = ResponseParser::new(x.head_request, true);
                    x.body.clear();
                    self.reconnects += 1;
                    self.begin(token, registry)
                }
                _ => self.fail(FetchError::Io(
                    "connection closed again right after reconnecting".into(),
                )),
            },
            ExchangeError::Timeout => self.fail(FetchError::Timeout),
            ExchangeError::Io(message) => self.fail(FetchError::Io(message)),
        }
    }

    fn fail(&mut self, error: FetchError) -> Progress {
        self.connection = None;
        self.exchange = None;
        Progress::Done(Err(error))
    }
}

/// Sends `request` with `browser` and waits here for the outcome, driving
/// the browser with a wait of its own (`poll`, whose tokens are the
/// browser's generations); `None` when `stop` was stopped meanwhile.
pub(crate) fn fetch_waiting(
    browser: &mut Browser,
    poll: &mut Poll,
    request: &Request,
    stop: &StopHandle,
) -> Option<Result<Fetched, FetchError>> {
    let mut progress = browser.fetch(request, Vec::new(), Token, poll.registry());
    let mut buffer = vec![0; 64 * 1024];
    let mut events = Events::with_capacity(8);
    loop {
        if let Progress::Done(outcome) = progress {
            return Some(outcome);
        }
        if stop.is_stopped() {
            return None;
        }
        let now = Instant::now();
        progress = browser.on_deadline(now);
        let wait = (browser.deadline()).map_or(STOP_POLL, |at| at.saturating_duration_since(now));
        if let Err(e) = poll.poll(&mut events, Some(wait.min(STOP_POLL)))
            && e.kind() != ErrorKind::Interrupted
        {
            return Some(Err(FetchError::Io(format!("waiting for the socket: {e}"))));
        }
        for event in &events {
            let readiness = Readiness::from(event);
            let registry = poll.registry();
            if let Progress::Done(outcome) =
                browser.on_event(event.token().0, readiness, Token, registry, &mut buffer)
            {
                return Some(outcome);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;

    const GET: Request = Request {
        method: "GET",
        path: "/",
        form: None,
        accept: "text/html",
    };

    /// Reads one request's head from `reader`; false at the close.
    fn read_request(reader: &mut impl BufRead) -> bool {
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return false;
            }
            if line == "\r\n" {
                return true;
            }
        }
    }

    #[test]
    fn a_request_the_server_never_answers_times_out_at_its_deadline() {
        // Accepts, never answers.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut browser = Browser::new(addr, Duration::from_millis(200), true);
        let mut poll = Poll::new().unwrap();
        let asked = Instant::now();
        let outcome = fetch_waiting(&mut browser, &mut poll, &GET, &StopHandle::default());
        assert_eq!(outcome.unwrap().unwrap_err(), FetchError::Timeout);
        let took = asked.elapsed();
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_secs(5),
            "{took:?}"
        );
        drop(listener);
    }

    #[test]
    fn a_connection_the_server_never_accepts_fails_as_a_connect_not_a_timeout() {
        // A listener whose queue of unaccepted connections is full: the
        // kernel drops the next handshake, so the connect never finishes.
        let listener = {
            use rustix::net::{AddressFamily, SocketType};
            let fd = rustix::net::socket(AddressFamily::INET, SocketType::STREAM, None).unwrap();
            rustix::net::bind(&fd, &std::net::SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
            rustix::net::listen(&fd, 0).unwrap();
            TcpListener::from(fd)
        };
        let addr = listener.local_addr().unwrap();
        // Linux queues backlog + 1: this one fills the queue.
        let queued = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).unwrap();
        let mut browser = Browser::new(addr, Duration::from_millis(300), true);
        let mut poll = Poll::new().unwrap();
        let outcome = fetch_waiting(&mut browser, &mut poll, &GET, &StopHandle::default());
        match outcome.unwrap() {
            Err(FetchError::Connect(why)) => {
                assert!(why.contains("no connection within 0.3 s"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        drop((queued, listener));
    }

    #[test]
    fn a_request_after_an_idle_close_is_sent_again_on_a_new_connection() {
        // Answers one request a connection, keep-alive, then closes it: as a
        // server's idle timeout does between a browser's requests.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            for n in 0..2 {
                let (stream, _) = listener.accept().unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                assert!(read_request(&mut reader));
                let body = format!("page {n}");
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nSet-Cookie: s={n}; path=/\r\n\r\n{body}",
                    body.len()
                );
                (&stream).write_all(answer.as_bytes()).unwrap();
                // Wait for the client to be idle before closing.
                std::thread::sleep(Duration::from_millis(100));
                drop(stream);
            }
        });
        let mut browser = Browser::new(addr, Duration::from_secs(5), true);
        let mut poll = Poll::new().unwrap();
        let stop = StopHandle::default();
        let first = fetch_waiting(&mut browser, &mut poll, &GET, &stop)
            .unwrap()
            .unwrap();
        assert_eq!((first.status, first.body.as_slice()), (200, &b"page 0"[..]));
        assert_eq!(first.cookie.as_deref(), Some("s=0"));
        std::thread::sleep(Duration::from_millis(300));
        let second = fetch_waiting(&mut browser, &mut poll, &GET, &stop)
            .unwrap()
            .unwrap();
        assert_eq!(second.body, b"page 1");
        assert_eq!(browser.reconnects, 1, "sent again, not failed");
        // Watched while idle (as a person's loop does), the close is seen
        // before the next request, which goes on a new connection: counted too.
        let mut events = Events::with_capacity(8);
        let mut buffer = vec![0; 1024];
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            poll.poll(&mut events, Some(Duration::from_millis(10)))
                .unwrap();
            for event in &events {
                let readiness = Readiness::from(event);
                let progress = browser.on_event(
                    event.token().0,
                    readiness,
                    Token,
                    poll.registry(),
                    &mut buffer,
                );
                assert!(matches!(progress, Progress::Pending));
            }
        }
        assert!(
            browser.connection.is_none(),
            "the closed connection is gone"
        );
        server.join().unwrap();
        let refused = fetch_waiting(&mut browser, &mut poll, &GET, &stop).unwrap();
        assert_eq!(browser.reconnects, 2);
        assert!(
            matches!(refused, Err(FetchError::Connect(_))),
            "the server is gone"
        );
    }

    #[test]
    fn a_connection_the_server_closes_mid_response_is_an_error_not_a_resend() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut head = [0u8; 1024];
            let _ = stream.read(&mut head);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
        });
        let mut browser = Browser::new(addr, Duration::from_secs(5), true);
        let mut poll = Poll::new().unwrap();
        let outcome = fetch_waiting(&mut browser, &mut poll, &GET, &StopHandle::default());
        match outcome.unwrap() {
            Err(FetchError::Io(why)) => assert!(why.contains("middle of a response"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(browser.reconnects, 0);
    }
}
