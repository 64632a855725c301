//! What to load: the target, the request, the shape of the load, and the errors of a bad spec.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper::header::{CONTENT_LENGTH, HOST, HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Uri};
use serde::{Deserialize, Serialize};

use crate::check::{CheckSample, ResponseChecks};
use crate::secret;
use crate::target::{TargetError, Targets};

pub(crate) const MAX_LOAD_TIME: Duration = Duration::from_secs(30 * 24 * 3600);
/// More connections than one machine can hold open to one server (its
/// ephemeral ports run out first); past it a spec is a mistake, not a load.
const MAX_CONNECTIONS: usize = 100_000;
const MAX_THREADS: usize = 1024;
/// How often a waiting task looks at the stop handle: a stop is seen within this.
pub(crate) const STOP_POLL: Duration = Duration::from_millis(50);

/// A load to generate. Build with [`LoadSpec::new`] and adjust the public fields.
/// Its `Debug` hides the values of credential headers (`Cookie`, `X-CSRF-Token`, …).
#[derive(Clone, Serialize, Deserialize)]
pub struct LoadSpec {
    /// `http://host[:port]/path?query` (plain HTTP/1.1 only).
    pub url: String,
    /// The servers the URL may name; anything else is refused before a connection.
    #[serde(default)]
    pub targets: Targets,
    pub method: String,
    /// Extra request headers as (name, value); cookies go here as `Cookie`.
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// Simulated connections, each with one request in flight at a time.
    pub connections: usize,
    /// Worker threads; connections are spread over them round-robin.
    pub threads: usize,
    /// Measured time, after the warm-up.
    pub duration: Duration,
    /// Load before measuring; its responses are not counted.
    pub warmup: Duration,
    /// Requests per second over all connections (open loop); `None` = closed loop.
    pub rate: Option<f64>,
    /// CPUs to pin worker threads to, one per thread (round-robin if fewer).
    pub cpus: Option<Vec<usize>>,
    /// A request without a response by then is a timeout error.
    pub timeout: Duration,
    pub checks: ResponseChecks,
    pub check_sample: CheckSample,
}

impl LoadSpec {
    /// wrk's defaults: 16 connections, 1 thread, 20 s, no warm-up, 2 s
    /// timeout, GET; a URL on this machine's loopback only.
    pub fn new(url: impl Into<String>) -> LoadSpec {
        LoadSpec {
            url: url.into(),
            targets: Targets::Loopback,
            method: "GET".into(),
            headers: Vec::new(),
            body: None,
            connections: 16,
            threads: 1,
            duration: Duration::from_secs(20),
            warmup: Duration::ZERO,
            rate: None,
            cpus: None,
            timeout: Duration::from_secs(2),
            checks: ResponseChecks::default(),
            check_sample: CheckSample::Every,
        }
    }
}

impl fmt::Debug for LoadSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadSpec")
            .field("url", &self.url)
            .field("method", &self.method)
            .field("headers", &secret::Headers(&self.headers))
            .field("body", &self.body)
            .field("connections", &self.connections)
            .field("threads", &self.threads)
            .field("duration", &self.duration)
            .field("warmup", &self.warmup)
            .field("rate", &self.rate)
            .field("cpus", &self.cpus)
            .field("timeout", &self.timeout)
            .field("checks", &self.checks)
            .field("check_sample", &self.check_sample)
            .finish()
    }
}

/// What is wrong with a load's URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadUrl {
    /// Not a URL that can be sent: the parser's words.
    #[error("{0}")]
    Unparsed(String),
    #[error("scheme {0} is not supported, only http")]
    Scheme(String),
    #[error("missing http:// scheme")]
    NoScheme,
    #[error("missing host")]
    NoHost,
    #[error("a user name or password in the URL is never sent; give credentials in a header")]
    Credentials,
}

/// Why a load could not be run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("invalid URL {url:?}: {reason}")]
    InvalidUrl { url: String, reason: BadUrl },
    #[error("refusing to load {url}: {reason}")]
    NotAllowed { url: String, reason: TargetError },
    #[error("invalid method {0:?}")]
    InvalidMethod(String),
    #[error("invalid header {name:?}: {reason}")]
    InvalidHeader { name: String, reason: String },
    #[error("invalid load: {0}")]
    InvalidSpec(String),
    #[error("cannot pin a worker thread to CPU {cpu}: {reason}")]
    Pinning { cpu: usize, reason: String },
    #[error("cannot start a worker thread: {0}")]
    Thread(#[source] std::io::Error),
    #[error("the load was stopped before its end")]
    Stopped,
    #[error("{0}")]
    Wrk(String),
}

impl From<reprise_cpus::PinError> for LoadError {
    fn from(e: reprise_cpus::PinError) -> Self {
        LoadError::Pinning {
            cpu: e.cpu,
            reason: e.reason,
        }
    }
}

/// Stops a running load from another thread: every load takes one
/// ([`crate::run_until`], [`crate::run_people_until`], [`crate::wrk::run_until`]),
/// so none runs that cannot be stopped. Clones share one flag: the engine's
/// cancel is one of these, seen by the load itself within 50 ms.
#[derive(Debug, Clone, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// Sleeps until `until` or the stop, whichever is first; false when stopped.
    pub(crate) fn sleep_until(&self, until: Instant) -> bool {
        loop {
            if self.is_stopped() {
                return false;
            }
            let now = Instant::now();
            if now >= until {
                return true;
            }
            std::thread::sleep((until - now).min(STOP_POLL));
        }
    }
}

/// The request every connection sends, built once.
#[derive(Clone)]
pub(crate) struct RequestTemplate {
    pub addr: SocketAddr,
    pub method: Method,
    pub path: Uri,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl fmt::Debug for RequestTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| (name.as_str(), value.to_str().unwrap_or("<binary>")))
            .collect();
        f.debug_struct("RequestTemplate")
            .field("addr", &self.addr)
            .field("method", &self.method)
            .field("path", &self.path)
            .field("headers", &secret::Headers(&headers))
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

impl RequestTemplate {
    /// The request as it goes on the wire, built once: the request line,
    /// the headers, a `Content-Length` where there is a body (or the method
    /// expects one), and the body.
    pub fn wire(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128 + self.body.len());
        out.extend_from_slice(self.method.as_str().as_bytes());
        out.push(b' ');
        out.extend_from_slice(self.path.to_string().as_bytes());
        out.extend_from_slice(b" HTTP/1.1\r\n");
        for (name, value) in &self.headers {
            out.extend_from_slice(name.as_str().as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(value.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        let expects_body = [Method::POST, Method::PUT, Method::PATCH].contains(&self.method);
        if (!self.body.is_empty() || expects_body) && !self.headers.contains_key(CONTENT_LENGTH) {
            out.extend_from_slice(format!("content-length: {}\r\n", self.body.len()).as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }
}

impl LoadSpec {
    /// Validates the spec and builds the request template.
    pub(crate) fn template(&self) -> Result<RequestTemplate, LoadError> {
        if self.connections == 0 || self.connections > MAX_CONNECTIONS {
            return Err(LoadError::InvalidSpec(format!(
                "connections must be between 1 and {MAX_CONNECTIONS}, not {}",
                self.connections
            )));
        }
        if self.threads == 0 || self.threads > self.connections || self.threads > MAX_THREADS {
            return Err(LoadError::InvalidSpec(format!(
                "threads must be between 1 and the number of connections ({}, at most {MAX_THREADS}), not {}",
                self.connections, self.threads
            )));
        }
        if self.duration.is_zero() {
            return Err(LoadError::InvalidSpec("duration must be above zero".into()));
        }
        let load_time = self.duration.checked_add(self.warmup);
        if load_time.is_none_or(|t| t > MAX_LOAD_TIME) || self.timeout > MAX_LOAD_TIME {
            return Err(LoadError::InvalidSpec(
                "duration, warm-up and timeout must each fit in 30 days".into(),
            ));
        }
        // Each connection's gap between sends, connections / rate, must fit in the run too.
        if let Some(rate) = self.rate
            && !(rate.is_finite()
                && rate > 0.0
                && self.connections as f64 / rate < MAX_LOAD_TIME.as_secs_f64())
        {
            return Err(LoadError::InvalidSpec(format!(
                "rate must be a positive number of requests per second, not {rate}"
            )));
        }
        if let Some(cpus) = &self.cpus
            && cpus.is_empty()
        {
            return Err(LoadError::InvalidSpec("the CPU list is empty".into()));
        }
        let bad_url = |reason: BadUrl| LoadError::InvalidUrl {
            url: self.url.clone(),
            reason,
        };
        let unparsed = |e: hyper::http::uri::InvalidUri| bad_url(BadUrl::Unparsed(e.to_string()));
        let uri: Uri = self.url.parse().map_err(unparsed)?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => return Err(bad_url(BadUrl::Scheme(other.to_string()))),
            None => return Err(bad_url(BadUrl::NoScheme)),
        }
        let authority = uri.authority().ok_or_else(|| bad_url(BadUrl::NoHost))?;
        if authority.as_str().contains('@') {
            return Err(bad_url(BadUrl::Credentials));
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        let port = authority.port_u16().unwrap_or(80);
        let addr = self
            .targets
            .resolve(host, port)
            .map_err(|reason| LoadError::NotAllowed {
                url: self.url.clone(),
                reason,
            })?;
        let path: Uri = uri
            .path_and_query()
            .map(|p| p.as_str())
            .filter(|p| !p.is_empty())
            .unwrap_or("/")
            .parse()
            .map_err(unparsed)?;
        let method = Method::from_bytes(self.method.as_bytes())
            .map_err(|_| LoadError::InvalidMethod(self.method.clone()))?;
        let mut headers = HeaderMap::new();
        for (name, value) in &self.headers {
            let invalid = |reason: String| LoadError::InvalidHeader {
                name: name.clone(),
                reason,
            };
            let header_name = HeaderName::from_bytes(name.trim().as_bytes())
                .map_err(|e| invalid(e.to_string()))?;
            let header_value =
                HeaderValue::from_str(value.trim()).map_err(|e| invalid(e.to_string()))?;
            headers.append(header_name, header_value);
        }
        if !headers.contains_key(HOST) {
            let host_value = HeaderValue::from_str(authority.as_str())
                .map_err(|e| bad_url(BadUrl::Unparsed(e.to_string())))?;
            headers.insert(HOST, host_value);
        }
        let body = self.body.clone().map(Bytes::from).unwrap_or_default();
        Ok(RequestTemplate {
            addr,
            method,
            path,
            headers,
            body,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_becomes_an_address_an_origin_form_path_and_a_host_header() {
        let mut spec = LoadSpec::new("http://127.0.0.1:8080/rooms/1?before=5");
        spec.headers.push(("Cookie".into(), "session=abc".into()));
        let template = spec.template().unwrap();
        assert_eq!(template.addr, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(template.path, "/rooms/1?before=5");
        assert_eq!(template.headers[HOST], "127.0.0.1:8080");
        assert_eq!(template.headers["cookie"], "session=abc");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        type Said = fn(&BadUrl) -> bool;
        let cases: [(&str, Said); 4] = [
            ("https://127.0.0.1/", |r| {
                *r == BadUrl::Scheme("https".into())
            }),
            ("127.0.0.1:80/", |r| matches!(r, BadUrl::Unparsed(_))),
            ("/rooms/1", |r| *r == BadUrl::NoScheme),
            ("http://exa mple/", |r| matches!(r, BadUrl::Unparsed(_))),
        ];
        for (url, reason) in cases {
            let err = LoadSpec::new(url).template().unwrap_err();
            assert!(
                matches!(&err, LoadError::InvalidUrl { url: u, reason: r } if u == url && reason(r)),
                "{url}: {err}"
            );
        }
        let mut spec = LoadSpec::new("http://127.0.0.1/");
        spec.threads = 17;
        assert!(matches!(spec.template(), Err(LoadError::InvalidSpec(_))));
        spec.threads = 1;
        for rate in [0.0, -1.0, f64::NAN, 1e-300] {
            spec.rate = Some(rate);
            assert!(
                matches!(spec.template(), Err(LoadError::InvalidSpec(_))),
                "{rate}"
            );
        }
        spec.rate = None;
        spec.duration = Duration::MAX;
        spec.warmup = Duration::from_secs(1);
        assert!(matches!(spec.template(), Err(LoadError::InvalidSpec(_))));
        spec.duration = Duration::from_secs(1);
        spec.headers.push(("Bad Name".into(), "x".into()));
        assert!(matches!(
            spec.template(),
            Err(LoadError::InvalidHeader { .. })
        ));
    }
}
