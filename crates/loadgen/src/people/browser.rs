//! One person's HTTP connection, kept alive like a browser's: it reuses
//! loadgen's connection (`connection::connect`) and, like a browser, sends a
//! request again on a new connection when the server had closed the old one
//! for idleness — counted as a reconnect, not as the server's error.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper::header::{ACCEPT, CONTENT_TYPE, COOKIE, HOST, ORIGIN, SET_COOKIE};

use crate::connection::{Conn, connect, is_close};

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
    conn: Option<Conn>,
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
                None => connect(self.addr, self.timeout)
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
        mut conn: Conn,
        method: &str,
        path: &str,
        form: Option<&str>,
        accept: &str,
        body: &mut Vec<u8>,
    ) -> Result<Fetched, Attempt> {
        let served_before = conn.served;
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, &self.host)
            .header(ACCEPT, accept)
            .header(ORIGIN, &self.origin)
            .header("Sec-Fetch-Site", "same-origin");
        if let Some(cookie) = &self.cookie {
            request = request.header(COOKIE, cookie);
        }
        if form.is_some() {
            request = request.header(CONTENT_TYPE, "application/x-www-form-urlencoded");
        }
        let payload = Bytes::copy_from_slice(form.unwrap_or("").as_bytes());
        let request = request
            .body(Full::new(payload))
            .map_err(|e| Attempt::Failed(FetchError::Io(format!("building {path}: {e}"))))?;
        let round_trip = async {
            let early = |e: hyper::Error| {
                if served_before > 0 && is_close(&e) {
                    Attempt::IdleClosed
                } else {
                    Attempt::Failed(FetchError::Io(e.to_string()))
                }
            };
            conn.sender.ready().await.map_err(early)?;
            let response = conn.sender.send_request(request).await.map_err(early)?;
            let header = |name| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v: &hyper::header::HeaderValue| v.to_str().ok())
                    .map(str::to_owned)
            };
            let fetched = Fetched {
                status: response.status().as_u16(),
                cookie: header(SET_COOKIE)
                    .and_then(|c| c.split(';').next().map(|c| c.trim().to_owned())),
            };
            let mut incoming = response.into_body();
            while let Some(frame) = incoming.frame().await {
                let frame = frame.map_err(|e| {
                    Attempt::Failed(FetchError::Io(format!("reading the body: {e}")))
                })?;
                if let Some(data) = frame.data_ref() {
                    body.extend_from_slice(data);
                }
            }
            Ok(fetched)
        };
        let fetched = tokio::time::timeout(self.timeout, round_trip)
            .await
            .map_err(|_| Attempt::Failed(FetchError::Timeout))??;
        conn.served += 1;
        if self.keep_alive {
            self.conn = Some(conn);
        }
        Ok(fetched)
    }
}
