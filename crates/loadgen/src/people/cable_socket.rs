//! One person's cable as a state machine its thread's event loop drives:
//! the WebSocket opened (connect, upgrade, welcome) and Action Cable's
//! protocol ([`CableProtocol`]) over frames read in place from the thread's
//! read buffer: a delivery costs no allocation, task or wake-up of its own.
//! Like `@rails/actioncable`'s connection monitor, a cable that closes or
//! goes stale waits to be opened again (at most once a second) and sends
//! its subscriptions again.

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use base64::Engine;
use mio::net::TcpStream;
use mio::{Registry, Token};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

use super::roster::SplitMix;
use crate::cable::{
    CABLE_PROTOCOL, CableError, CableProtocol, STALE_AFTER, ServerMessage,
    unescape_json_string_into,
};
use crate::connection::{GENERATIONS, Readiness};
use crate::http1::{connect_outcome, open, recv, send};
use crate::websocket::{Kind, read_frame, write_frame};

/// A cable that keeps dropping is opened again at most this often, not in a
/// tight loop against a struggling server.
const REOPEN_AT_MOST_EVERY: Duration = Duration::from_secs(1);
/// The longest upgrade response head read.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What the person hears of their cable, besides deliveries.
#[derive(Debug)]
pub(crate) enum SocketEvent {
    /// Open, with the welcome; `again` when it was opened again.
    Opened {
        again: bool,
    },
    /// It could not be opened: the first time (`lost` is `None`), or again
    /// after it was lost for `lost`. Either way it stays closed.
    OpenFailed {
        lost: Option<String>,
        error: CableError,
    },
    /// A subscription was confirmed.
    Confirmed,
    Rejected(String),
    /// The server said go away and do not come back: it stays closed.
    Disconnected(Option<String>),
    /// Subscribes sent again for want of an answer.
    Resent(u64),
}

/// How to open the cable.
pub(crate) struct OpenWith<'a> {
    pub addr: SocketAddr,
    pub path: &'a str,
    pub cookie: Option<&'a str>,
    pub timeout: Duration,
}

enum State {
    /// Never opened, or given up.
    Closed,
    /// Lost for the reason given: opened again at `until`.
    Waiting {
        until: Instant,
        why: String,
    },
    Connecting {
        stream: TcpStream,
        deadline: Instant,
        /// The `Sec-WebSocket-Accept` the server must answer with.
        accept: String,
    },
    /// The upgrade request sent (or on its way): its answer is awaited.
    Upgrading {
        stream: TcpStream,
        deadline: Instant,
        accept: String,
    },
    /// Upgraded: the welcome is awaited.
    Welcoming {
        stream: TcpStream,
        deadline: Instant,
    },
    Open {
        stream: TcpStream,
    },
}

pub(crate) struct CableSocket {
    state: State,
    /// Sockets opened so far: an event for an earlier one is told apart.
    generation: usize,
    pub protocol: CableProtocol,
    /// Opened before: a later open is a reopen.
    opened_once: bool,
    /// When it was last opened again.
    reopened: Option<Instant>,
    /// The loss being mended by the open in progress.
    mending: Option<String>,
    /// Bytes read and not yet used: a frame (or the upgrade's answer) not yet whole.
    input: Vec<u8>,
    /// Bytes not yet sent.
    output: Vec<u8>,
    /// An edge said there is something to read not yet read.
    readable: bool,
    closing: bool,
    /// How long an open may take, to the welcome.
    timeout: Duration,
    /// Keys and masks.
    dice: SplitMix,
}

impl CableSocket {
    pub fn new(seed: u64) -> CableSocket {
        CableSocket {
            state: State::Closed,
            generation: 0,
            protocol: CableProtocol::new(Instant::now()),
            opened_once: false,
            reopened: None,
            mending: None,
            input: Vec::new(),
            output: Vec::new(),
            readable: false,
            closing: false,
            timeout: Duration::ZERO,
            dice: SplitMix::new(seed),
        }
    }

    pub fn is_open(&self) -> bool {
        matches!(self.state, State::Open { .. })
    }

    /// Never opened, or given up: it opens only when told to.
    pub fn is_closed(&self) -> bool {
        matches!(self.state, State::Closed)
    }

    /// Starts opening the cable.
    pub fn open(
        &mut self,
        with: &OpenWith,
        token: impl Fn(usize) -> Token,
        registry: &Registry,
        news: &mut Vec<SocketEvent>,
    ) {
        let now = Instant::now();
        if self.opened_once {
            self.reopened = Some(now);
        }
        self.input.clear();
        self.output.clear();
        self.readable = false;
        self.closing = false;
        self.timeout = with.timeout;
        self.generation = (self.generation + 1) % GENERATIONS;
        let key = base64::engine::general_purpose::STANDARD.encode(
            [
                self.dice.next().to_le_bytes(),
                self.dice.next().to_le_bytes(),
            ]
            .concat(),
        );
        let request = upgrade_request(with, &key);
        let deadline = now + with.timeout;
        match open(with.addr, registry, token(self.generation)) {
            Ok(stream) => {
                self.output = request;
                let accept = derive_accept_key(key.as_bytes());
                self.state = State::Connecting {
                    stream,
                    deadline,
                    accept,
                };
            }
            Err(e) => {
                let error = CableError::WebSocket(format!("connecting to {}: {e}", with.addr));
                self.open_failed(error, news);
            }
        }
    }

    /// Subscribes to `identifier` (sent now if the cable is open, else when it opens).
    pub fn subscribe(&mut self, identifier: &str, now: Instant) {
        let command = self.protocol.subscribe(identifier, now);
        self.command(&command);
    }

    pub fn unsubscribe(&mut self, identifier: &str) {
        let command = self.protocol.unsubscribe(identifier);
        self.command(&command);
    }

    /// Sends a command if the cable is open; a closed cable sends the
    /// subscriptions that stand when it opens.
    fn command(&mut self, text: &str) {
        if self.is_open() {
            self.queue(Kind::Text, text.as_bytes());
            if let Err(why) = self.flush() {
                self.lost(why, Instant::now());
            }
        }
    }

    fn queue(&mut self, kind: Kind, payload: &[u8]) {
        let mask = (self.dice.next() as u32).to_le_bytes();
        write_frame(&mut self.output, kind, payload, Some(mask));
    }

    /// When it next needs the clock: an open's deadline, a staleness
    /// check, a subscribe to send again, or a reopen.
    pub fn deadline(&self) -> Option<Instant> {
        match &self.state {
            State::Closed => None,
            State::Waiting { until, .. } => Some(*until),
            State::Connecting { deadline, .. }
            | State::Upgrading { deadline, .. }
            | State::Welcoming { deadline, .. } => Some(*deadline),
            State::Open { .. } => {
                // Just after it would be stale: is_stale is "longer than".
                let stale = self.protocol.last_ping() + STALE_AFTER + Duration::from_millis(1);
                Some(self.protocol.next_resend().map_or(stale, |r| r.min(stale)))
            }
        }
    }

    /// Acts on what is due at `now`; true when it is time to open it again.
    pub fn on_timer(&mut self, now: Instant, news: &mut Vec<SocketEvent>) -> bool {
        match &self.state {
            State::Waiting { until, why } if *until <= now => {
                self.mending = Some(why.clone());
                true
            }
            State::Connecting { deadline, .. }
            | State::Upgrading { deadline, .. }
            | State::Welcoming { deadline, .. }
                if *deadline <= now =>
            {
                self.open_failed(CableError::NoWelcome(self.timeout), news);
                false
            }
            State::Open { .. } => {
                if self.protocol.is_stale(now) {
                    self.lost("no ping for over 6 s".into(), now);
                    return false;
                }
                let resent = self.protocol.resend_due(now);
                if !resent.is_empty() {
                    news.push(SocketEvent::Resent(resent.len() as u64));
                    for command in resent {
                        self.queue(Kind::Text, command.as_bytes());
                    }
                    if let Err(why) = self.flush() {
                        self.lost(why, now);
                    }
                }
                false
            }
            _ => false,
        }
    }

    /// An event for the socket of `generation`: reads what came, handing
    /// each delivery's HTML to `deliver` (unescaped into `scratch`), and
    /// sends what waits.
    #[allow(clippy::too_many_arguments)]
    pub fn on_event(
        &mut self,
        generation: usize,
        event: Readiness,
        now: Instant,
        buffer: &mut [u8],
        scratch: &mut String,
        news: &mut Vec<SocketEvent>,
        deliver: &mut dyn FnMut(&str),
    ) {
        if generation != self.generation {
            return;
        }
        self.readable |= event.readable || event.closing;
        self.closing |= event.closing;
        if let State::Connecting { stream, .. } = &self.state {
            match connect_outcome(stream) {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    let error = CableError::WebSocket(format!("connecting: {e}"));
                    return self.open_failed(error, news);
                }
            }
            let State::Connecting {
                stream,
                deadline,
                accept,
            } = std::mem::replace(&mut self.state, State::Closed)
            else {
                return;
            };
            self.state = State::Upgrading {
                stream,
                deadline,
                accept,
            };
        }
        if let Err(why) = self.flush() {
            return self.lost_or_failed(why, now, news);
        }
        if self.readable {
            self.read(now, buffer, scratch, news, deliver);
        }
    }

    /// Sends what waits, as far as the socket takes it.
    fn flush(&mut self) -> Result<(), String> {
        let Some(stream) = self.stream() else {
            return Ok(());
        };
        let fd = stream.as_fd();
        let mut sent = 0;
        let failed = loop {
            if sent == self.output.len() {
                break None;
            }
            match send(fd, &self.output[sent..]) {
                Ok(0) => break Some("the cable closed while sending".to_owned()),
                Ok(n) => sent += n,
                // The writable edge comes when there is room.
                Err(e) if e.kind() == ErrorKind::WouldBlock => break None,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => break Some(format!("sending: {e}")),
            }
        };
        self.output.drain(..sent);
        failed.map_or(Ok(()), Err)
    }

    fn stream(&self) -> Option<&TcpStream> {
        match &self.state {
            State::Upgrading { stream, .. }
            | State::Welcoming { stream, .. }
            | State::Open { stream } => Some(stream),
            State::Closed | State::Waiting { .. } | State::Connecting { .. } => None,
        }
    }

    /// Reads until the socket is drained, using every whole frame.
    fn read(
        &mut self,
        now: Instant,
        buffer: &mut [u8],
        scratch: &mut String,
        news: &mut Vec<SocketEvent>,
        deliver: &mut dyn FnMut(&str),
    ) {
        loop {
            let Some(stream) = self.stream() else { return };
            let n = match recv(stream.as_fd(), buffer) {
                Ok(0) => {
                    return self.lost_or_failed("the server closed the cable".into(), now, news);
                }
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    self.readable = false;
                    return;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return self.lost_or_failed(format!("reading: {e}"), now, news),
            };
            // A short read took all there was: the next bytes bring an edge
            // (but a close that came with the bytes is still to be read).
            let drained = n < buffer.len() && !self.closing;
            if self.input.is_empty() {
                let used = self.take(&mut buffer[..n], now, scratch, news, deliver);
                if self.stream().is_some() {
                    self.input.extend_from_slice(&buffer[used..n]);
                }
            } else {
                let mut input = std::mem::take(&mut self.input);
                input.extend_from_slice(&buffer[..n]);
                let used = self.take(&mut input, now, scratch, news, deliver);
                if self.stream().is_some() {
                    input.drain(..used);
                    self.input = input;
                }
            }
            if self.stream().is_none() || drained {
                self.readable = !drained;
                return;
            }
        }
    }

    /// Uses the upgrade's answer and the whole frames at the front of
    /// `bytes`; how many bytes it used.
    fn take(
        &mut self,
        bytes: &mut [u8],
        now: Instant,
        scratch: &mut String,
        news: &mut Vec<SocketEvent>,
        deliver: &mut dyn FnMut(&str),
    ) -> usize {
        let mut used = 0;
        if let State::Upgrading { accept, .. } = &self.state {
            match upgraded(bytes, accept) {
                Ok(None) if bytes.len() > MAX_HEAD_BYTES => {
                    let why = format!("an upgrade answer over {MAX_HEAD_BYTES} bytes");
                    self.open_failed(CableError::WebSocket(why), news);
                    return bytes.len();
                }
                Ok(None) => return 0,
                Ok(Some(head)) => used = head,
                Err(error) => {
                    self.open_failed(error, news);
                    return bytes.len();
                }
            }
            let State::Upgrading {
                stream, deadline, ..
            } = std::mem::replace(&mut self.state, State::Closed)
            else {
                return used;
            };
            self.state = State::Welcoming { stream, deadline };
        }
        while self.stream().is_some() {
            let frame = match read_frame(&mut bytes[used..]) {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    self.lost_or_failed(e.to_string(), now, news);
                    break;
                }
            };
            let payload = (used + frame.payload.start)..(used + frame.payload.end);
            used += frame.len;
            match frame.kind {
                Kind::Text => {
                    let Ok(text) = std::str::from_utf8(&bytes[payload]) else {
                        self.lost_or_failed("a text frame not in UTF-8".into(), now, news);
                        break;
                    };
                    self.heard(text, now, scratch, news, deliver);
                }
                Kind::Ping => {
                    let payload = bytes[payload].to_vec();
                    self.queue(Kind::Pong, &payload);
                    if let Err(why) = self.flush() {
                        self.lost_or_failed(why, now, news);
                    }
                }
                Kind::Close => {
                    self.lost_or_failed("the server closed the cable".into(), now, news);
                }
                Kind::Binary | Kind::Pong => {}
            }
        }
        used
    }

    /// One text frame.
    fn heard(
        &mut self,
        text: &str,
        now: Instant,
        scratch: &mut String,
        news: &mut Vec<SocketEvent>,
        deliver: &mut dyn FnMut(&str),
    ) {
        let said = match self.protocol.read(text, now) {
            Ok(Some(said)) => said,
            Ok(None) => return,
            Err(e) => return self.lost_or_failed(e.to_string(), now, news),
        };
        let welcoming = matches!(self.state, State::Welcoming { .. });
        match said {
            ServerMessage::Welcome if welcoming => {
                let State::Welcoming { stream, .. } =
                    std::mem::replace(&mut self.state, State::Closed)
                else {
                    return;
                };
                self.state = State::Open { stream };
                // A reopened cable asks again for the page's subscriptions.
                for command in self.protocol.reopened(now) {
                    self.queue(Kind::Text, command.as_bytes());
                }
                if let Err(why) = self.flush() {
                    return self.open_failed(CableError::WebSocket(why), news);
                }
                let again = std::mem::replace(&mut self.opened_once, true);
                self.mending = None;
                news.push(SocketEvent::Opened { again });
            }
            ServerMessage::Disconnect { reason, .. } if welcoming => {
                self.open_failed(CableError::Refused(reason.unwrap_or_default()), news);
            }
            _ if welcoming => {}
            ServerMessage::Welcome | ServerMessage::Ping => {}
            ServerMessage::Confirmed(_) => news.push(SocketEvent::Confirmed),
            ServerMessage::Rejected(id) => news.push(SocketEvent::Rejected(id)),
            ServerMessage::Message { message, .. } => {
                let literal = message.get();
                if !literal.starts_with('"') {
                    return; // not a page's HTML
                }
                if !unescape_json_string_into(literal, scratch) {
                    let why = format!("unreadable message {}", &literal[..literal.len().min(200)]);
                    return self.lost_or_failed(why, now, news);
                }
                deliver(scratch);
            }
            ServerMessage::Disconnect {
                reconnect: true,
                reason,
            } => self.lost(format!("the server disconnected ({reason:?})"), now),
            ServerMessage::Disconnect {
                reconnect: false,
                reason,
            } => {
                self.state = State::Closed;
                news.push(SocketEvent::Disconnected(reason));
            }
        }
    }

    /// Lost while open, or failed while opening.
    fn lost_or_failed(&mut self, why: String, now: Instant, news: &mut Vec<SocketEvent>) {
        if self.is_open() {
            self.lost(why, now);
        } else {
            self.open_failed(CableError::WebSocket(why), news);
        }
    }

    /// The open cable was lost: it waits to be opened again.
    fn lost(&mut self, why: String, now: Instant) {
        let until = self
            .reopened
            .map_or(now, |at| (at + REOPEN_AT_MOST_EVERY).max(now));
        self.state = State::Waiting { until, why };
    }

    fn open_failed(&mut self, error: CableError, news: &mut Vec<SocketEvent>) {
        self.state = State::Closed;
        let lost = self.mending.take();
        news.push(SocketEvent::OpenFailed { lost, error });
    }
}

/// The upgrade request: a GET with the WebSocket headers, the Action Cable
/// subprotocol, and the page's origin and session cookie.
fn upgrade_request(with: &OpenWith, key: &str) -> Vec<u8> {
    let mut request = format!(
        "GET {path} HTTP/1.1\r\nhost: {addr}\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-key: {key}\r\nsec-websocket-version: 13\r\nsec-websocket-protocol: {CABLE_PROTOCOL}\r\norigin: http://{addr}\r\n",
        path = with.path,
        addr = with.addr,
    );
    if let Some(cookie) = with.cookie {
        request.push_str(&format!("cookie: {cookie}\r\n"));
    }
    request.push_str("\r\n");
    request.into_bytes()
}

/// Reads the answer to the upgrade request at the front of `bytes`: where
/// its head ends once whole, or why it is not the upgrade asked for.
fn upgraded(bytes: &[u8], accept: &str) -> Result<Option<usize>, CableError> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut head = httparse::Response::new(&mut headers);
    let end = match head.parse(bytes) {
        Ok(httparse::Status::Complete(end)) => end,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => {
            return Err(CableError::WebSocket(format!(
                "a bad answer to the upgrade: {e}"
            )));
        }
    };
    if head.code != Some(101) {
        let code = head.code.map(|c| c.to_string()).unwrap_or_default();
        let reason = [code.as_str(), head.reason.unwrap_or_default()]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        return Err(CableError::UpgradeRefused(reason));
    }
    let header = |name: &str| {
        head.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value.trim_ascii()))
    };
    if header("sec-websocket-accept").as_deref() != Some(accept) {
        return Err(CableError::AcceptMismatch);
    }
    if header("sec-websocket-protocol").as_deref() != Some(CABLE_PROTOCOL) {
        return Err(CableError::NoSubprotocol);
    }
    Ok(Some(end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mio::{Events, Poll};
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    /// A cable server in a thread: reads the upgrade request, then writes
    /// `answer(key)` (the whole reply) in pieces of `piece` bytes, a pause
    /// between them, and keeps the socket open until the test ends.
    fn server(
        piece: usize,
        answer: impl FnOnce(&str) -> Vec<u8> + Send + 'static,
    ) -> (SocketAddr, std::thread::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let thread = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                request.push_str(&line);
                if line == "\r\n" {
                    break;
                }
            }
            let key = request
                .lines()
                .find_map(|l| l.strip_prefix("sec-websocket-key: "))
                .unwrap()
                .to_owned();
            for part in answer(&key).chunks(piece) {
                (&stream).write_all(part).unwrap();
                std::thread::sleep(Duration::from_millis(2));
            }
            std::thread::sleep(Duration::from_millis(500));
            request
        });
        (addr, thread)
    }

    fn upgrade_and(frames: &[&str]) -> impl Fn(&str) -> Vec<u8> + Send + 'static {
        let frames: Vec<String> = frames.iter().map(|f| f.to_string()).collect();
        move |key| {
            let mut bytes = format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {}\r\nSec-WebSocket-Protocol: actioncable-v1-json\r\n\r\n",
                derive_accept_key(key.as_bytes())
            )
            .into_bytes();
            for frame in &frames {
                write_frame(&mut bytes, Kind::Text, frame.as_bytes(), None);
            }
            bytes
        }
    }

    /// Opens a cable to `addr` and drives it until `done` says so (or 5 s):
    /// what it heard, and the deliveries' HTML.
    fn drive(
        addr: SocketAddr,
        done: impl Fn(&[SocketEvent], &[String], &CableSocket) -> bool,
    ) -> (Vec<SocketEvent>, Vec<String>, CableSocket) {
        let mut poll = Poll::new().unwrap();
        let mut cable = CableSocket::new(7);
        let mut news = Vec::new();
        let with = OpenWith {
            addr,
            path: "/cable",
            cookie: Some("session_token=s"),
            timeout: Duration::from_secs(5),
        };
        cable.open(&with, Token, poll.registry(), &mut news);
        let (mut heard, mut delivered) = (Vec::new(), Vec::new());
        let mut buffer = vec![0; 4096];
        let mut scratch = String::new();
        let mut events = Events::with_capacity(8);
        let until = Instant::now() + Duration::from_secs(5);
        while !done(&heard, &delivered, &cable) && Instant::now() < until {
            poll.poll(&mut events, Some(Duration::from_millis(10)))
                .unwrap();
            for event in &events {
                let readiness = Readiness::from(event);
                let mut deliver = |html: &str| delivered.push(html.to_owned());
                cable.on_event(
                    event.token().0,
                    readiness,
                    Instant::now(),
                    &mut buffer,
                    &mut scratch,
                    &mut news,
                    &mut deliver,
                );
            }
            heard.append(&mut news);
        }
        (heard, delivered, cable)
    }

    #[test]
    fn an_answer_and_frames_split_across_reads_are_read_whole() {
        let delivery = r#"{"identifier":"{\"channel\":\"Turbo::StreamsChannel\"}","message":"\u003cdiv id=\"message_p1-1\"\u003ehi\u003c/div\u003e"}"#;
        for piece in [1, 7, 100] {
            let (addr, server) = server(piece, |key| {
                upgrade_and(&[
                    r#"{"type":"welcome"}"#,
                    r#"{"type":"ping","message":1}"#,
                    delivery,
                    delivery,
                ])(key)
            });
            let (heard, delivered, cable) = drive(addr, |_, d, _| d.len() == 2);
            assert!(
                matches!(heard[..], [SocketEvent::Opened { again: false }]),
                "pieces of {piece}: {heard:?}"
            );
            assert_eq!(
                delivered, [r#"<div id="message_p1-1">hi</div>"#; 2],
                "pieces of {piece}"
            );
            assert!(cable.is_open());
            let request = server.join().unwrap();
            assert!(request.starts_with("GET /cable HTTP/1.1\r\n"), "{request}");
            for header in [
                "upgrade: websocket",
                "sec-websocket-protocol: actioncable-v1-json",
                "cookie: session_token=s",
                &format!("origin: http://{addr}"),
            ] {
                assert!(request.contains(header), "{header} missing from {request}");
            }
        }
    }

    #[test]
    fn a_refused_upgrade_or_a_disconnect_before_the_welcome_fails_the_open() {
        let (addr, _server) = server(1000, |_| {
            b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n".to_vec()
        });
        let (heard, _, cable) = drive(addr, |h, _, _| !h.is_empty());
        assert!(
            matches!(
                &heard[..],
                [SocketEvent::OpenFailed { lost: None, error: CableError::UpgradeRefused(status) }]
                    if status == "403 Forbidden"
            ),
            "{heard:?}"
        );
        assert!(cable.is_closed());
        let (addr, _server) = server(
            1000,
            upgrade_and(&[r#"{"type":"disconnect","reason":"unauthorized","reconnect":false}"#]),
        );
        let (heard, _, _) = drive(addr, |h, _, _| !h.is_empty());
        assert!(
            matches!(
                heard.first(),
                Some(SocketEvent::OpenFailed { lost: None, error: CableError::Refused(why) })
                    if why == "unauthorized"
            ),
            "{heard:?}"
        );
    }

    #[test]
    fn a_cable_the_server_closes_waits_to_be_opened_again() {
        let (addr, server) = server(1000, |key| {
            let mut bytes = upgrade_and(&[r#"{"type":"welcome"}"#])(key);
            write_frame(&mut bytes, Kind::Close, &[], None);
            bytes
        });
        let (heard, _, mut cable) = drive(addr, |h, _, cable| !h.is_empty() && !cable.is_open());
        assert!(
            matches!(heard[..], [SocketEvent::Opened { again: false }]),
            "{heard:?}"
        );
        assert!(!cable.is_closed(), "lost, to be opened again");
        let mut news = Vec::new();
        assert!(
            cable.on_timer(Instant::now(), &mut news),
            "the first reopen is due at once"
        );
        server.join().unwrap();
    }

    #[test]
    fn an_upgrade_is_taken_only_with_its_key_and_the_cable_subprotocol() {
        let accept = derive_accept_key(b"dGhlIHNhbXBsZSBub25jZQ==");
        let answer = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\nSec-WebSocket-Protocol: actioncable-v1-json\r\n\r\nhi"
        );
        let bytes = answer.as_bytes();
        assert_eq!(
            upgraded(&bytes[..20], &accept).unwrap(),
            None,
            "not whole yet"
        );
        assert_eq!(upgraded(bytes, &accept).unwrap(), Some(bytes.len() - 2));
        let wrong_key = upgraded(bytes, "c29tZXRoaW5nIGVsc2U=").unwrap_err();
        assert!(
            matches!(wrong_key, CableError::AcceptMismatch),
            "{wrong_key}"
        );
        let no_protocol = answer.replace("Sec-WebSocket-Protocol: actioncable-v1-json\r\n", "");
        let e = upgraded(no_protocol.as_bytes(), &accept).unwrap_err();
        assert!(matches!(e, CableError::NoSubprotocol), "{e}");
        let refused = upgraded(b"HTTP/1.1 403 Forbidden\r\n\r\n", &accept).unwrap_err();
        assert_eq!(refused.to_string(), "WebSocket: HTTP error: 403 Forbidden");
    }
}
