//! Single HTTP requests to a lane's server: health checks,
//! the check step's one request per endpoint, and signing in. reqwest on a
//! current-thread tokio runtime the client owns, so callers stay plain
//! threads; redirects are not followed (a sign-in expects its 302), cookies
//! are not kept (a signed-in session keeps its own), no proxy is asked.
//!
//! Every request goes to the lane's address (127.0.0.1, or the run's server
//! host) and the lane's port, and nowhere else: a
//! path that would make the URL point at another host (`//host/…`,
//! `@host/…`) is refused before anything is sent. The load itself goes
//! through `reprise-loadgen`.

use std::net::IpAddr;
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

/// Why a request got no response.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("`{path}` is not a path on the lane's server: {why}")]
    NotAPath { path: String, why: &'static str },
    #[error("invalid method `{0}`")]
    Method(String),
    #[error("invalid header `{0}`")]
    Header(String),
    #[error("{0}")]
    Request(#[from] reqwest::Error),
    #[error("cannot start the HTTP client: {0}")]
    Runtime(#[from] std::io::Error),
}

/// A response: its status, headers (names lowercased, in order) and body.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The first header of this (lowercase) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every header of this (lowercase) name.
    pub fn headers_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A request's body: raw bytes, or a form reqwest encodes.
pub enum Body<'a> {
    None,
    Bytes(Vec<u8>),
    Form(&'a [(&'a str, &'a str)]),
}

/// Requests to lanes' servers at one address: 127.0.0.1, or the run's
/// server host.
pub struct LaneClient {
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    address: IpAddr,
}

impl LaneClient {
    pub fn new(address: IpAddr) -> Result<LaneClient, HttpError> {
        // reqwest's rustls on ring, bollard's provider (an error only says
        // one is installed already).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .build()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        Ok(LaneClient {
            client,
            runtime,
            address,
        })
    }

    /// GET `path` from the address's `port`.
    pub fn get(
        &self,
        port: u16,
        path: &str,
        headers: &[(String, String)],
        timeout: Duration,
    ) -> Result<Response, HttpError> {
        self.request(port, "GET", path, headers, Body::None, timeout)
    }

    /// One request to the address's `port`.
    pub fn request(
        &self,
        port: u16,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: Body<'_>,
        timeout: Duration,
    ) -> Result<Response, HttpError> {
        let url = lane_url(self.address, port, path)?;
        let method =
            Method::from_bytes(method.as_bytes()).map_err(|_| HttpError::Method(method.into()))?;
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            let bad = || HttpError::Header(name.clone());
            map.append(
                HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad())?,
                HeaderValue::from_str(value).map_err(|_| bad())?,
            );
        }
        let mut request = self
            .client
            .request(method, url)
            .headers(map)
            .timeout(timeout);
        request = match body {
            Body::None => request,
            Body::Bytes(bytes) => request.body(bytes),
            Body::Form(form) => request.form(form),
        };
        self.runtime.block_on(async {
            let response = request.send().await?;
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .map(|(n, v)| {
                    (
                        n.as_str().to_string(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect();
            let body = response.bytes().await?.to_vec();
            Ok(Response {
                status,
                headers,
                body,
            })
        })
    }
}

/// `http://ADDRESS:PORT` + `path`, where `path` is an absolute path (and
/// query) on that server and nothing else.
pub fn lane_url(address: IpAddr, port: u16, path: &str) -> Result<reqwest::Url, HttpError> {
    // The path may hold what a served page offered: shown escaped.
    let not = |why| HttpError::NotAPath {
        path: reprise_recipe::shown::escaped(path).into_owned(),
        why,
    };
    // The recipe's rule (a placeholder has been filled by now), then the
    // URL itself must still name the lane's server.
    if !path.starts_with('/') {
        return Err(not("it must start with `/`"));
    }
    if let Some(why) = reprise_recipe::not_a_request_path(path) {
        return Err(not(why));
    }
    let host = crate::lanes::remote_engine::url_host(address);
    let url = reqwest::Url::parse(&format!("http://{host}:{port}{path}"))
        .map_err(|_| not("it does not parse as part of a URL"))?;
    if url.host_str() != Some(host.as_str())
        || url.port() != Some(port)
        || !url.username().is_empty()
    {
        return Err(not("it would send the request to another server"));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn only_paths_on_the_lane_s_own_server_are_requested() {
        assert_eq!(
            lane_url(LOOPBACK, 3000, "/rooms/1?x=2").unwrap().as_str(),
            "http://127.0.0.1:3000/rooms/1?x=2"
        );
        for path in [
            "@evil.example:80/",
            "//evil.example/",
            "rooms",
            "/a b",
            "/a\r\nHost: x",
        ] {
            assert!(lane_url(LOOPBACK, 3000, path).is_err(), "{path:?}");
        }
        // `@` inside a path is a path character, not an authority.
        let url = lane_url(LOOPBACK, 3000, "/@evil.example:80/").unwrap();
        assert_eq!(url.host_str(), Some("127.0.0.1"));
        assert_eq!(url.port(), Some(3000));
    }

    #[test]
    fn a_server_host_s_lanes_are_requested_at_its_address_only() {
        let v6: IpAddr = "fd00::2".parse().unwrap();
        assert_eq!(
            lane_url(v6, 9292, "/").unwrap().as_str(),
            "http://[fd00::2]:9292/"
        );
        let v4: IpAddr = "169.254.77.2".parse().unwrap();
        let url = lane_url(v4, 9292, "/@evil.example:80/").unwrap();
        assert_eq!(url.host_str(), Some("169.254.77.2"));
        assert!(lane_url(v4, 9292, "//evil.example/").is_err());
    }
}
