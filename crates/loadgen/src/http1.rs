//! Plain HTTP/1.1, one request at a time, as wrk does it: the response
//! parser both generators use (the head read by httparse; a
//! `Content-Length`, a chunked or a read-to-close body, parsed as the bytes
//! arrive) and the socket calls of
//! their event loops ([`crate::connection`] for the load, the people's
//! browser): the request written in one `send`, the response read into the
//! thread's read buffer, no task, channel or allocation per request. Only a
//! response head split across reads is kept, until it is whole.

use std::os::fd::BorrowedFd;

use rustix::net::{RecvFlags, SendFlags};
use std::io::ErrorKind;
use std::mem::MaybeUninit;

/// How much one read takes: a 117 KiB page in one or two reads.
pub(crate) const READ_BUFFER_BYTES: usize = 256 * 1024;
/// The read for a head when the body is to be discarded: a whole small
/// response, or a head and the start of a large body.
pub(crate) const HEAD_READ_BYTES: usize = 16 * 1024;
/// A response head longer than this is refused (hyper's limit is ~400 KiB).
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Why an exchange got no whole response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ExchangeError {
    /// The server closed a connection that had served before, before any
    /// byte of the response: the keep-alive idle close, to send again.
    IdleClosed,
    Timeout,
    Io(String),
}

/// A whole response: what the load and the people look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Response {
    pub status: u16,
    /// Body bytes (decoded, for a chunked body).
    pub body_len: u64,
    /// `name=value` of the first `Set-Cookie`, when asked for.
    pub cookie: Option<String>,
    /// Whether the connection may carry the next request.
    pub keep_alive: bool,
}

/// Starts connecting to `addr` without waiting, the socket registered for
/// both directions under `token` (edge-triggered, once for its life).
pub(crate) fn open(
    addr: std::net::SocketAddr,
    registry: &mio::Registry,
    token: mio::Token,
) -> std::io::Result<mio::net::TcpStream> {
    let mut stream = mio::net::TcpStream::connect(addr)?;
    registry.register(
        &mut stream,
        token,
        mio::Interest::READABLE | mio::Interest::WRITABLE,
    )?;
    Ok(stream)
}

/// Where a socket being connected stands after an event: connected (and
/// set to send small writes at once), not yet (mio's wake-ups may be
/// spurious), or failed.
pub(crate) fn connect_outcome(stream: &mio::net::TcpStream) -> std::io::Result<bool> {
    if let Some(e) = stream.take_error()? {
        return Err(e);
    }
    match stream.peer_addr() {
        Err(e) if e.kind() == ErrorKind::NotConnected => Ok(false),
        Err(e) => Err(e),
        Ok(_) => stream.set_nodelay(true).map(|()| true),
    }
}

/// Sets how many bytes the socket `fd` must hold before it wakes its
/// reader (`SO_RCVLOWAT`; TCP on Linux caps it at half the most the socket
/// may buffer and makes room for it). A close or an error wakes it anyway.
pub(crate) fn set_rcvlowat(fd: std::os::fd::RawFd, bytes: usize) -> std::io::Result<()> {
    let value = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
    // SAFETY: setsockopt reads an int from the pointer it is given.
    let done = unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_RCVLOWAT,
            (&raw const value).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Drops up to `left` bytes of a body waiting on the socket `fd` in the
/// kernel, without waiting: `recv` with `MSG_TRUNC` on a TCP socket discards
/// them without copying them out (tcp(7)); the count comes back as with a
/// read, 0 at the close. `scratch` bounds the count; nothing is written to it.
pub(crate) fn discard(fd: BorrowedFd<'_>, scratch: &mut [u8], left: u64) -> std::io::Result<usize> {
    let len = (left as usize).min(scratch.len());
    recv_with(
        fd,
        &mut scratch[..len],
        RecvFlags::TRUNC | RecvFlags::DONTWAIT,
    )
}

/// `recv(2)`: rustix makes the system call itself, not the C library's
/// `recv`, which is a thread cancellation point that costs two calls around
/// each (2-3% of the load generator's CPU per request; this program never
/// cancels a thread).
pub(crate) fn recv(fd: BorrowedFd<'_>, buffer: &mut [u8]) -> std::io::Result<usize> {
    recv_with(fd, buffer, RecvFlags::empty())
}

fn recv_with(fd: BorrowedFd<'_>, buffer: &mut [u8], flags: RecvFlags) -> std::io::Result<usize> {
    Ok(rustix::net::recv(fd, buffer, flags)?.1)
}

/// `send(2)` without raising SIGPIPE at a closed peer; see [`recv`].
pub(crate) fn send(fd: BorrowedFd<'_>, bytes: &[u8]) -> std::io::Result<usize> {
    Ok(rustix::net::send(fd, bytes, SendFlags::NOSIGNAL)?)
}

/// An error where a response was expected: the server's idle close (to
/// send again) if the connection had served before and this is a close.
pub(crate) fn closed(served_before: u64, e: std::io::Error) -> ExchangeError {
    if served_before > 0 && is_close(&e) {
        ExchangeError::IdleClosed
    } else {
        ExchangeError::Io(e.to_string())
    }
}

/// Whether an error means the peer closed the connection (EOF, reset, broken pipe).
fn is_close(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::ConnectionReset
            | ErrorKind::BrokenPipe
            | ErrorKind::ConnectionAborted
            | ErrorKind::UnexpectedEof
    )
}

/// What one read made of the response so far.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    More,
    Done(Response),
    /// The server closed the connection (a read of 0 bytes) before the response ended.
    Closed,
    Invalid(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    Length(u64),
    Chunked(Chunk),
    UntilClose,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chunk {
    /// Reading a chunk-size line (hex digits, then an extension to the line's end).
    Size {
        size: u64,
        digits: u8,
        extension: bool,
    },
    Data(u64),
    /// The CRLF after a chunk's data.
    DataEnd,
    /// Trailer lines after the last chunk, up to an empty line; `true` at a line's start.
    Trailer(bool),
}

/// Parses one response from the bytes as they arrive.
pub(crate) struct ResponseParser {
    head_request: bool,
    want_cookie: bool,
    /// A head not yet whole (empty while none of it arrived).
    head: Vec<u8>,
    /// Known once the head is whole.
    response: Option<Response>,
    body: Body,
    /// An interim 1xx response arrived: the server has answered this request.
    interim: bool,
}

impl ResponseParser {
    pub fn new(head_request: bool, want_cookie: bool) -> ResponseParser {
        ResponseParser {
            head_request,
            want_cookie,
            head: Vec::new(),
            response: None,
            body: Body::UntilClose,
            interim: false,
        }
    }

    /// Whether no byte of the response has arrived yet.
    pub fn is_untouched(&self) -> bool {
        self.head.is_empty() && self.response.is_none() && !self.interim
    }

    /// What a read that `fed` this parser (or failed) means for the exchange
    /// on a connection that had `served_before` responses: the response,
    /// `None` to read on, or why there is none.
    pub fn outcome(
        &self,
        fed: std::io::Result<Fed>,
        served_before: u64,
    ) -> Result<Option<Response>, ExchangeError> {
        match fed {
            Err(e) if self.is_untouched() => Err(closed(served_before, e)),
            Err(e) => Err(ExchangeError::Io(format!("reading the response: {e}"))),
            Ok(Fed::More) => Ok(None),
            Ok(Fed::Done(response)) => Ok(Some(response)),
            Ok(Fed::Closed) if self.is_untouched() => {
                Err(closed(served_before, ErrorKind::UnexpectedEof.into()))
            }
            Ok(Fed::Closed) => Err(ExchangeError::Io(
                "the server closed the connection in the middle of a response".into(),
            )),
            Ok(Fed::Invalid(why)) => Err(ExchangeError::Io(why)),
        }
    }

    /// The bytes of a `Content-Length` body still to come, once the head is read.
    pub fn body_left(&self) -> Option<u64> {
        match (&self.response, self.body) {
            (Some(_), Body::Length(left)) if left > 0 => Some(left),
            _ => None,
        }
    }

    /// Counts `n` body bytes discarded unread (0: the server closed).
    pub fn discarded(&mut self, n: usize) -> Fed {
        let (Some(response), Body::Length(left)) = (&mut self.response, &mut self.body) else {
            return Fed::Invalid("no body to discard".into());
        };
        if n == 0 {
            return Fed::Closed;
        }
        let n = (n as u64).min(*left);
        *left -= n;
        response.body_len += n;
        if *left == 0 {
            Fed::Done(response.clone())
        } else {
            Fed::More
        }
    }

    /// Takes the bytes of one read (empty: the server closed), the body's into `body`.
    pub fn feed(&mut self, mut data: &[u8], mut body: Option<&mut Vec<u8>>) -> Fed {
        if data.is_empty() {
            return match (&mut self.response, self.body) {
                (Some(response), Body::UntilClose) => Fed::Done(response.clone()),
                _ => Fed::Closed,
            };
        }
        loop {
            if self.response.is_none() {
                match self.take_head(data) {
                    Err(why) => return Fed::Invalid(why),
                    Ok(None) => return Fed::More,
                    Ok(Some(rest)) => data = rest,
                }
                // An interim 1xx response: the real one follows.
                if self.response.as_ref().is_some_and(|r| r.status < 200) {
                    self.response = None;
                    self.interim = true;
                    continue;
                }
            }
            let Some(response) = self.response.as_mut() else {
                return Fed::More;
            };
            let used = match feed_body(&mut self.body, data, &mut response.body_len, &mut body) {
                Ok(used) => used,
                Err(why) => return Fed::Invalid(why),
            };
            let done = matches!(self.body, Body::Length(0) | Body::Chunked(CHUNKED_DONE));
            if done {
                if used < data.len() {
                    return Fed::Invalid(format!(
                        "{} bytes after the response, which was not asked for",
                        data.len() - used
                    ));
                }
                return Fed::Done(response.clone());
            }
            return Fed::More;
        }
    }

    /// Adds `data` to the head; once it is whole, reads it and returns the bytes after it.
    fn take_head<'a>(&mut self, data: &'a [u8]) -> Result<Option<&'a [u8]>, String> {
        let kept = self.head.len();
        let read = if kept == 0 {
            read_head(data, self.head_request, self.want_cookie)?
        } else {
            // The rare head split across reads: read again from its start.
            self.head.extend_from_slice(data);
            read_head(&self.head, self.head_request, self.want_cookie)?
        };
        let Some((response, body, end)) = read else {
            if kept == 0 {
                self.head.extend_from_slice(data);
            }
            if self.head.len() > MAX_HEAD_BYTES {
                return Err(format!("a response head over {MAX_HEAD_BYTES} bytes"));
            }
            return Ok(None);
        };
        self.head = Vec::new();
        self.response = Some(response);
        self.body = body;
        // The head was not whole before these bytes, so it ends in them.
        Ok(Some(&data[end - kept..]))
    }
}

/// Headers a head is first read with room for (on the stack, left
/// uninitialized): more than any server here sends. A head with more is
/// read again with room for one per line.
const HEADERS: usize = 64;

/// How heads are read: a name followed by spaces before its colon and a
/// value folded over lines are taken (as the hand-written reader before
/// httparse took them, and as browsers do), not refused.
fn head_parser() -> httparse::ParserConfig {
    let mut config = httparse::ParserConfig::default();
    config
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true);
    config
}

/// Reads a head (status line and headers, up to and with the blank line)
/// with httparse, then only the headers that say how the body ends,
/// whether the connection stays open, and the cookie. `None` while the
/// blank line has not come; else the response, its body and where the head
/// ends. CR LF and LF line ends are both read.
fn read_head(
    bytes: &[u8],
    head_request: bool,
    want_cookie: bool,
) -> Result<Option<(Response, Body, usize)>, String> {
    let mut headers = [const { MaybeUninit::uninit() }; HEADERS];
    match read_head_into(bytes, &mut headers, head_request, want_cookie) {
        Err(HeadError::TooManyHeaders) => {
            // Each header takes a line at least, in a head of the most bytes taken.
            let most = bytes.len().min(MAX_HEAD_BYTES + 1);
            let lines = memchr::memchr_iter(b'\n', &bytes[..most]).count();
            let mut headers = Vec::with_capacity(lines);
            headers.resize_with(lines, MaybeUninit::uninit);
            read_head_into(bytes, &mut headers, head_request, want_cookie)
                .map_err(|e| e.said(bytes))
        }
        read => read.map_err(|e| e.said(bytes)),
    }
}

/// Why a head could not be read.
enum HeadError {
    /// More headers than there was room for: read again with more.
    TooManyHeaders,
    Parse(httparse::Error),
    Invalid(String),
}

impl HeadError {
    /// The reason, with the status line of the head `bytes` for a head
    /// httparse refused.
    fn said(self, bytes: &[u8]) -> String {
        match self {
            HeadError::TooManyHeaders => format!("a response head over {MAX_HEAD_BYTES} bytes"),
            HeadError::Parse(httparse::Error::Version) => {
                format!("not an HTTP/1.x response: {:?}", first_line(bytes))
            }
            HeadError::Parse(httparse::Error::Status) => {
                format!("no status in {:?}", first_line(bytes))
            }
            HeadError::Parse(e) => format!("a bad response head ({e}): {:?}", first_line(bytes)),
            HeadError::Invalid(why) => why,
        }
    }
}

/// The first line of `bytes` (at most 200 bytes of it), for an error.
fn first_line(bytes: &[u8]) -> String {
    let line = &bytes[..memchr::memchr(b'\n', bytes).unwrap_or(bytes.len()).min(200)];
    String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned()
}

/// [`read_head`] with room for `headers.len()` headers.
fn read_head_into<'b>(
    bytes: &'b [u8],
    headers: &mut [MaybeUninit<httparse::Header<'b>>],
    head_request: bool,
    want_cookie: bool,
) -> Result<Option<(Response, Body, usize)>, HeadError> {
    let mut head = httparse::Response::new(&mut []);
    let end = match head_parser().parse_response_with_uninit_headers(&mut head, bytes, headers) {
        Ok(httparse::Status::Complete(end)) => end,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => return Err(HeadError::TooManyHeaders),
        Err(e) => return Err(HeadError::Parse(e)),
    };
    // Both are set in a whole head.
    let (Some(minor), Some(status)) = (head.version, head.code) else {
        return Err(HeadError::Parse(httparse::Error::Status));
    };
    if status < 100 {
        return Err(HeadError::Parse(httparse::Error::Status));
    }
    let mut length: Option<u64> = None;
    let mut chunked = false;
    let mut keep_alive = minor != 0;
    let mut cookie = None;
    for header in head.headers.iter() {
        let (name, value) = (header.name.as_bytes(), header.value.trim_ascii());
        // Most headers are none of these: their length and first letter say so.
        match (name.len(), name.first().map(u8::to_ascii_lowercase)) {
            (14, Some(b'c')) if name.eq_ignore_ascii_case(b"content-length") => {
                let n = std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| {
                        HeadError::Invalid(format!(
                            "a bad Content-Length: {:?}",
                            String::from_utf8_lossy(value)
                        ))
                    })?;
                if length.is_some_and(|l| l != n) {
                    return Err(HeadError::Invalid("two different Content-Lengths".into()));
                }
                length = Some(n);
            }
            (17, Some(b't')) if name.eq_ignore_ascii_case(b"transfer-encoding") => {
                chunked = value
                    .rsplit(|&b| b == b',')
                    .next()
                    .is_some_and(|last| last.trim_ascii().eq_ignore_ascii_case(b"chunked"));
            }
            (10, Some(b'c')) if name.eq_ignore_ascii_case(b"connection") => {
                for token in value.split(|&b| b == b',').map(<[u8]>::trim_ascii) {
                    if token.eq_ignore_ascii_case(b"close") {
                        keep_alive = false;
                    } else if token.eq_ignore_ascii_case(b"keep-alive") {
                        keep_alive = true;
                    }
                }
            }
            (10, Some(b's'))
                if want_cookie && cookie.is_none() && name.eq_ignore_ascii_case(b"set-cookie") =>
            {
                let pair = value.split(|&b| b == b';').next().unwrap_or_default();
                cookie = Some(String::from_utf8_lossy(pair.trim_ascii()).into_owned());
            }
            _ => {}
        }
    }
    let body = if head_request || status < 200 || status == 204 || status == 304 {
        Body::Length(0)
    } else if chunked {
        Body::Chunked(CHUNK_START)
    } else if let Some(n) = length {
        Body::Length(n)
    } else {
        keep_alive = false;
        Body::UntilClose
    };
    let response = Response {
        status,
        body_len: 0,
        cookie,
        keep_alive,
    };
    Ok(Some((response, body, end)))
}

/// A chunk-size line about to be read.
const CHUNK_START: Chunk = Chunk::Size {
    size: 0,
    digits: 0,
    extension: false,
};

/// The chunked body's end, once its last chunk and trailers are read.
const CHUNKED_DONE: Chunk = Chunk::Size {
    size: u64::MAX,
    digits: 0,
    extension: false,
};

/// Takes body bytes from `data`; returns how many belonged to the body.
fn feed_body(
    state: &mut Body,
    data: &[u8],
    len: &mut u64,
    body: &mut Option<&mut Vec<u8>>,
) -> Result<usize, String> {
    let mut keep = |bytes: &[u8]| {
        *len += bytes.len() as u64;
        if let Some(body) = body.as_mut() {
            body.extend_from_slice(bytes);
        }
    };
    match state {
        Body::UntilClose => {
            keep(data);
            Ok(data.len())
        }
        Body::Length(left) => {
            let take = (*left).min(data.len() as u64) as usize;
            keep(&data[..take]);
            *left -= take as u64;
            Ok(take)
        }
        Body::Chunked(chunk) => {
            let mut at = 0;
            while at < data.len() && *chunk != CHUNKED_DONE {
                match chunk {
                    Chunk::Data(left) => {
                        let take = (*left).min((data.len() - at) as u64) as usize;
                        keep(&data[at..at + take]);
                        at += take;
                        *left -= take as u64;
                        if *left == 0 {
                            *chunk = Chunk::DataEnd;
                        }
                        continue;
                    }
                    Chunk::DataEnd => match data[at] {
                        b'\r' => {}
                        b'\n' => *chunk = CHUNK_START,
                        other => return Err(format!("no CRLF after a chunk, but {other:#04x}")),
                    },
                    Chunk::Size {
                        size,
                        digits,
                        extension,
                    } => match data[at] {
                        b'\n' if *digits == 0 => return Err("a chunk without a size".into()),
                        b'\n' if *size == 0 => *chunk = Chunk::Trailer(true),
                        b'\n' => *chunk = Chunk::Data(*size),
                        _ if *extension => {}
                        b';' | b' ' | b'\t' | b'\r' => *extension = true,
                        b => {
                            let digit = (b as char)
                                .to_digit(16)
                                .ok_or_else(|| format!("a bad chunk size byte {b:#04x}"))?;
                            if *digits >= 15 {
                                return Err("a chunk size past 60 bits".into());
                            }
                            *size = *size * 16 + u64::from(digit);
                            *digits += 1;
                        }
                    },
                    Chunk::Trailer(line_start) => match data[at] {
                        b'\n' if *line_start => *chunk = CHUNKED_DONE,
                        b'\n' => *line_start = true,
                        b'\r' => {}
                        _ => *line_start = false,
                    },
                }
                at += 1;
            }
            Ok(at)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `wire` in pieces of `piece` bytes; the response and body once done.
    fn parse_in_pieces(wire: &[u8], piece: usize) -> (Fed, Vec<u8>) {
        let mut parser = ResponseParser::new(false, true);
        let mut body = Vec::new();
        for part in wire.chunks(piece) {
            match parser.feed(part, Some(&mut body)) {
                Fed::More => {}
                done => return (done, body),
            }
        }
        (parser.feed(&[], Some(&mut body)), body)
    }

    fn done(status: u16, body_len: u64, keep_alive: bool) -> Fed {
        Fed::Done(Response {
            status,
            body_len,
            cookie: None,
            keep_alive,
        })
    }

    #[test]
    fn a_large_body_split_across_any_reads_is_read_whole() {
        let page: Vec<u8> = (0..117 * 1024).map(|i| b'a' + (i % 26) as u8).collect();
        let mut wire = format!(
            "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: {}\r\n\r\n",
            page.len()
        )
        .into_bytes();
        wire.extend_from_slice(&page);
        for piece in [1, 2, 3, 7, 64, 1000, 65536, wire.len()] {
            let (fed, body) = parse_in_pieces(&wire, piece);
            assert_eq!(fed, done(200, page.len() as u64, true), "pieces of {piece}");
            assert_eq!(body, page, "pieces of {piece}");
        }
    }

    #[test]
    fn a_chunked_body_is_decoded_with_extensions_and_trailers() {
        let wire = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
            5\r\nhello\r\n1;ext=1\r\n,\r\nA\r\n the world\r\n0\r\nX-Trailer: t\r\n\r\n";
        for piece in 1..=wire.len() {
            let (fed, body) = parse_in_pieces(wire, piece);
            assert_eq!(fed, done(200, 16, true), "pieces of {piece}");
            assert_eq!(body, b"hello, the world", "pieces of {piece}");
        }
    }

    #[test]
    fn a_head_says_how_the_body_ends_and_whether_the_connection_stays() {
        let cases: [(&[u8], Fed); 5] = [
            // HTTP/1.0 without keep-alive, and no length: the body runs to the close.
            (b"HTTP/1.0 200 OK\r\n\r\nuntil close", done(200, 11, false)),
            (
                b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
                done(200, 2, false),
            ),
            (b"HTTP/1.1 204 No Content\r\n\r\n", done(204, 0, true)),
            // An interim 100 Continue is skipped for the response after it.
            (
                b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 500 Oops\r\ncontent-length: 1\r\n\r\nx",
                done(500, 1, true),
            ),
            // LF-only line ends are read too.
            (
                b"HTTP/1.1 404 Not Found\ncontent-length: 0\n\n",
                done(404, 0, true),
            ),
        ];
        for (wire, expected) in cases {
            assert_eq!(parse_in_pieces(wire, 1).0, expected, "{wire:?}");
            assert_eq!(parse_in_pieces(wire, wire.len()).0, expected, "{wire:?}");
        }
    }

    #[test]
    fn a_close_after_an_interim_response_is_not_an_idle_close() {
        let mut parser = ResponseParser::new(false, false);
        assert!(parser.is_untouched());
        assert_eq!(
            parser.feed(b"HTTP/1.1 100 Continue\r\n\r\n", None),
            Fed::More
        );
        // The server answered this request, so it is not resent.
        assert!(!parser.is_untouched());
        assert_eq!(parser.feed(b"", None), Fed::Closed);
    }

    #[test]
    fn the_first_cookie_is_kept_without_its_attributes() {
        let wire = b"HTTP/1.1 302 Found\r\nSet-Cookie: s=abc; path=/; HttpOnly\r\n\
            set-cookie: other=1\r\nContent-Length: 0\r\n\r\n";
        let Fed::Done(response) = parse_in_pieces(wire, 5).0 else {
            panic!("not done")
        };
        assert_eq!(response.cookie.as_deref(), Some("s=abc"));
    }

    #[test]
    fn a_head_with_more_headers_than_the_first_room_is_read_whole() {
        let mut wire = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..3 * HEADERS {
            wire.extend_from_slice(format!("X-Header-{i}: {i}\r\n").as_bytes());
        }
        wire.extend_from_slice(b"Set-Cookie: late=1\r\nContent-Length: 3\r\n\r\nabc");
        for piece in [7, 100, wire.len()] {
            let (fed, body) = parse_in_pieces(&wire, piece);
            let Fed::Done(response) = fed else {
                panic!("pieces of {piece}: {fed:?}")
            };
            assert_eq!((response.status, response.body_len), (200, 3));
            assert_eq!(response.cookie.as_deref(), Some("late=1"));
            assert_eq!(body, b"abc");
        }
    }

    #[test]
    fn lenient_heads_real_servers_send_are_read() {
        let cases: [&[u8]; 3] = [
            // A space between a header's name and its colon.
            b"HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok",
            // A value folded over two lines.
            b"HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 2\r\n\r\nok",
            // No reason phrase.
            b"HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok",
        ];
        for wire in cases {
            assert_eq!(parse_in_pieces(wire, 3).0, done(200, 2, true), "{wire:?}");
        }
    }

    #[test]
    fn a_broken_head_says_what_is_wrong_with_it() {
        let why = |wire: &[u8]| match parse_in_pieces(wire, wire.len()).0 {
            Fed::Invalid(why) => why,
            other => panic!("{wire:?}: {other:?}"),
        };
        assert_eq!(
            why(b"HTTP/2 200\r\n\r\n"),
            "not an HTTP/1.x response: \"HTTP/2 200\""
        );
        assert_eq!(
            why(b"HTTP/1.1 2x0 OK\r\n\r\n"),
            "no status in \"HTTP/1.1 2x0 OK\""
        );
        assert_eq!(
            why(b"HTTP/1.1 099 Low\r\n\r\n"),
            "no status in \"HTTP/1.1 099 Low\""
        );
        assert_eq!(
            why(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            "two different Content-Lengths"
        );
        assert!(
            why(b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n").starts_with("a bad response head"),
            "a header line without a colon"
        );
    }

    #[test]
    fn broken_responses_are_errors_not_hangs() {
        for wire in [
            &b"HTTP/2 200\r\n\r\n"[..],
            b"HTTP/1.1 2x0 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy",
        ] {
            assert!(
                matches!(parse_in_pieces(wire, wire.len()).0, Fed::Invalid(_)),
                "{wire:?}"
            );
        }
        // A close in the middle of a body is not a response.
        let cut = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort";
        assert_eq!(parse_in_pieces(cut, 4).0, Fed::Closed);
    }
}
