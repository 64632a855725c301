//! One person's HTTP connection, kept alive like a browser's: it reuses
//! loadgen's HTTP/1.1 connection ([`Http1Conn`]) and, like a browser, sends a
//! request again on a new connection when the server had closed the old one
//! for idleness — counted as a reconnect, not as the server's error.

use std::net::SocketAddr;
use std::time::Duration;

use std::time::Instant;

use crate::http1::{ExchangeError, Http1Conn};

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

/// A response: its status and the cookie it set (`Debug` hides it).
#[derive(Default)]
pub(crate) struct Fetched {
    pub status: u16,
    /// `name=value` of the first `Set-Cookie`.
    pub cookie: Option<String>,
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetched")
            .field("status", &self.status)
            .field("cookie", &crate::secret::presence(&self.cookie))
            .finish()
    }
}

pub(crate) struct Browser {
    addr: SocketAddr,
    host: String,
    origin: String,
    pub cookie: Option<String>,
    conn: Option<Http1Conn>,
    /// The request being sent, reused from one to the next.
    request: Vec<u8>,
    timeout: Duration,
    /// Keep the connection open between requests, as a browser does.
    keep_alive: bool,
    /// Requests re-sent on a new connection after an idle close.
    pub reconnects: u64,
}

enum Attempt {
    IdleClosed,
    Failed(FetchError),
}

impl Browser {
    pub fn new(addr: SocketAddr, timeout: Duration, keep_alive: bool) -> Browser {
        Browser {
            addr,
            host: addr.to_string(),
            origin: format!("http://{addr}"),
            cookie: None,
            conn: None,
            request: Vec::new(),
            timeout,
            keep_alive,
            reconnects: 0,
        }
    }

    /// Sends one request; the body goes into `body` (cleared first).
    pub async fn fetch(
        &mut self,
        method: &str,
        path: &str,
        form: Option<&str>,
        accept: &str,
        body: &mut Vec<u8>,
    ) -> Result<Fetched, FetchError> {
        let mut resent = false;
        loop {
            let conn = match self.conn.take() {
                Some(conn) => conn,
                None => Http1Conn::connect(self.addr, self.timeout)
                    .await
                    .map_err(FetchError::Connect)?,
            };
            body.clear();
            match self.exchange(conn, method, path, form, accept, body).await {
                Ok(fetched) => return Ok(fetched),
                Err(Attempt::IdleClosed) if !resent => {
                    self.reconnects += 1;
                    resent = true;
                }
                Err(Attempt::IdleClosed) => {
                    return Err(FetchError::Io(
                        "connection closed again right after reconnecting".into(),
                    ));
                }
                Err(Attempt::Failed(e)) => return Err(e),
            }
        }
    }

    async fn exchange(
        &mut self,
        mut conn: Http1Conn,
        method: &str,
        path: &str,
        form: Option<&str>,
        accept: &str,
        body: &mut Vec<u8>,
    ) -> Result<Fetched, Attempt> {
        use std::io::Write;
        let request = &mut self.request;
        request.clear();
        // Writing to a Vec cannot fail.
        let _ = write!(
            request,
            "{method} {path} HTTP/1.1\r\nhost: {}\r\naccept: {accept}\r\norigin: {}\r\nsec-fetch-site: same-origin\r\n",
            self.host, self.origin
        );
        if let Some(cookie) = &self.cookie {
            let _ = write!(request, "cookie: {cookie}\r\n");
        }
        if !self.keep_alive {
            // Said, so the server closes first: the closed connection's
            // TIME_WAIT is then the server's, not one of this machine's
            // ephemeral ports, which thousands of people would use up (and
            // every connect would search past).
            request.extend_from_slice(b"connection: close\r\n");
        }
        if let Some(form) = form {
            let _ = write!(
                request,
                "content-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\r\n{form}",
                form.len()
            );
        } else if method == "POST" {
            request.extend_from_slice(b"content-length: 0\r\n\r\n");
        } else {
            request.extend_from_slice(b"\r\n");
        }
        if path.bytes().any(|b| b.is_ascii_control() || b == b' ') {
            return Err(Attempt::Failed(FetchError::Io(format!(
                "building {path}: not a path"
            ))));
        }
        let deadline = Instant::now() + self.timeout;
        let response = conn
            .exchange(request, method == "HEAD", true, Some(body), deadline)
            .await
            .map_err(|e| match e {
                ExchangeError::IdleClosed => Attempt::IdleClosed,
                ExchangeError::Timeout => Attempt::Failed(FetchError::Timeout),
                ExchangeError::Io(message) => Attempt::Failed(FetchError::Io(message)),
            })?;
        if self.keep_alive && response.keep_alive {
            self.conn = Some(conn);
        }
        Ok(Fetched {
            status: response.status,
            cookie: response.cookie,
        })
    }
}
