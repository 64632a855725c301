//! A web app's signed-in session, and signing in to a lane the way Campfire asks: `GET /session/new`, the
//! form's `authenticity_token` (or, for newer Campfire that renders none,
//! `Sec-Fetch-Site: same-origin` and `Origin`), `POST /session`, a 302, and
//! the session cookies; then the room page for the CSRF token POSTs need and
//! the ids endpoints name (`{first}`, `{second}`, `{message}`, `{user}`,
//! `{avatar}`, `{stylesheet}`), read from Campfire's own markup. The password and the cookie are secrets: they never go
//! into logs, events or results ([`SignedIn`]'s `Debug` hides them).

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use regex::Regex;
use reprise_recipe::{Endpoint, SignInFlow};

use crate::lanes::http::{Body, HttpError, LaneClient, Response};

/// Why signing in failed. Messages never carry the password or a cookie.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("{what}: {source}")]
    Http {
        what: &'static str,
        source: HttpError,
    },
    #[error("GET /session/new answered {0}")]
    Form(u16),
    #[error("the sign-in form has no authenticity_token (the `form` flow needs one)")]
    NoToken,
    #[error(
        "POST /session answered {status}, not 302{}",
        if *.status == 429 { " (rate-limited: Campfire allows 10 sign-ins per 3 minutes)" } else { "" }
    )]
    NotRedirected { status: u16 },
    #[error("POST /session set no session cookie")]
    NoCookie,
    #[error("POST /session sent the browser back to the sign-in form: wrong email or password")]
    Refused,
}

/// A signed-in session: the cookie, the CSRF token for POSTs, and the values
/// endpoint placeholders resolve to.
#[derive(Clone, Default, PartialEq)]
pub struct SignedIn {
    pub cookie: String,
    pub csrf: Option<String>,
    /// The lane's own origin, `http://127.0.0.1:4300`: a browser's POST
    /// carries it, with `Sec-Fetch-Site: same-origin`, and Campfire's main
    /// checks a POST's origin by these headers alone.
    pub origin: Option<String>,
    pub placeholders: BTreeMap<String, String>,
}

impl fmt::Debug for SignedIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignedIn")
            .field("cookie", &"<hidden>")
            .field("csrf", &self.csrf.as_ref().map(|_| "<hidden>"))
            .field("origin", &self.origin)
            .field("placeholders", &self.placeholders)
            .finish()
    }
}

/// Which flow signed in, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsedFlow {
    Form,
    Header,
}

const TIMEOUT: Duration = Duration::from_secs(10);

/// Signs in to the server at `address`:`port`.
pub fn sign_in(
    address: std::net::IpAddr,
    port: u16,
    email: &str,
    password: &str,
    flow: SignInFlow,
) -> Result<(SignedIn, UsedFlow), SignInError> {
    let http = |what| move |source| SignInError::Http { what, source };
    let client = LaneClient::new(address).map_err(http("the HTTP client"))?;
    let form = client
        .get(port, "/session/new", &[], TIMEOUT)
        .map_err(http("GET /session/new"))?;
    if form.status != 200 {
        return Err(SignInError::Form(form.status));
    }
    let mut jar = Jar::default();
    jar.take(&form);
    let token = scrape(&form.body, r#"name="authenticity_token"\s+value="([^"]*)""#);
    let used = match (flow, &token) {
        (SignInFlow::Form, None) => return Err(SignInError::NoToken),
        (SignInFlow::Header, _) | (SignInFlow::Auto, None) => UsedFlow::Header,
        _ => UsedFlow::Form,
    };
    let mut form = vec![("email_address", email), ("password", password)];
    let mut headers = Vec::new();
    let origin = format!(
        "http://{}:{port}",
        crate::lanes::remote_engine::url_host(address)
    );
    match (used, &token) {
        (UsedFlow::Form, Some(token)) => form.push(("authenticity_token", token)),
        _ => headers.extend(same_origin(&origin)),
    }
    if let Some(cookie) = jar.header() {
        headers.push(("Cookie".into(), cookie));
    }
    let posted = client
        .request(
            port,
            "POST",
            "/session",
            &headers,
            Body::Form(&form),
            TIMEOUT,
        )
        .map_err(http("POST /session"))?;
    if posted.status != 302 {
        return Err(SignInError::NotRedirected {
            status: posted.status,
        });
    }
    if posted
        .header("location")
        .is_some_and(|l| path_of(l).starts_with("/session/new"))
    {
        return Err(SignInError::Refused);
    }
    if !jar.take(&posted) {
        return Err(SignInError::NoCookie);
    }
    let cookie = jar.header().unwrap_or_default();
    let mut session = SignedIn {
        cookie,
        origin: Some(origin),
        ..SignedIn::default()
    };
    // The page the sign-in leads to: the CSRF token and the ids to measure.
    let target = posted
        .header("location")
        .map(|l| path_of(l).to_string())
        .unwrap_or_else(|| "/".into());
    let auth = vec![("Cookie".to_string(), session.cookie.clone())];
    let mut page = client
        .get(port, &target, &auth, TIMEOUT)
        .map_err(http("the room page"))?;
    for _ in 0..3 {
        match page.header("location") {
            Some(next) if (300..400).contains(&page.status) => {
                let next = path_of(next).to_string();
                page = client
                    .get(port, &next, &auth, TIMEOUT)
                    .map_err(http("the room page"))?;
            }
            _ => break,
        }
    }
    session.csrf = scrape(&page.body, r#"<meta name="csrf-token" content="([^"]*)""#);
    // Like a browser, load the page's lazy frames (Campfire's sidebar,
    // `<turbo-frame src="/users/me/sidebar">`): the other rooms are there.
    let mut pages = vec![page.body.clone()];
    for src in lazy_frames(&page.body).into_iter().take(4) {
        if let Ok(frame) = client.get(port, &src, &auth, TIMEOUT)
            && frame.status == 200
        {
            pages.push(frame.body);
        }
    }
    session.placeholders = placeholders(&pages);
    Ok((session, used))
}

/// The paths of the `<turbo-frame src="/…">` elements of a page.
fn lazy_frames(page: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(page);
    let Ok(re) = Regex::new(r#"<turbo-frame\b[^>]*\ssrc="(/[^"]*)""#) else {
        return Vec::new();
    };
    re.captures_iter(&text)
        .map(|c| html_unescape(&c[1]))
        .collect()
}

/// The ids a room page (and its lazy frames) offers, read from Campfire's
/// markup: `{first}` the room shown (`<meta name="current-room-id">`, else
/// the first `/rooms/N` link), `{second}` another room (a sidebar link's
/// `data-room-id`, else the next `/rooms/N` link), `{message}` a message's
/// `data-message-id`, `{user}` the signed-in user
/// (`<meta name="current-user-id">`), `{avatar}` an avatar's URL as the
/// page gives it (Campfire signs them), `{stylesheet}` the first stylesheet.
pub fn placeholders(pages: &[Vec<u8>]) -> BTreeMap<String, String> {
    let text: String = pages
        .iter()
        .map(|p| String::from_utf8_lossy(p))
        .collect::<Vec<_>>()
        .join("\n");
    let single = |pattern: &str| {
        Regex::new(pattern)
            .ok()
            .and_then(|re| re.captures(&text).map(|c| html_unescape(&c[1])))
    };
    let all = |pattern: &str| -> Vec<String> {
        Regex::new(pattern)
            .map(|re| re.captures_iter(&text).map(|c| c[1].to_string()).collect())
            .unwrap_or_default()
    };
    let mut rooms: Vec<String> = Vec::new();
    let shown = single(r#"<meta name="current-room-id" content="(\d+)""#);
    for room in shown
        .into_iter()
        .chain(all(r#"\sdata-room-id="(\d+)""#))
        .chain(all(r"/rooms/(\d+)"))
    {
        if !rooms.contains(&room) {
            rooms.push(room);
        }
    }
    let mut found = BTreeMap::new();
    let mut put = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            found.insert(name.to_string(), v);
        }
    };
    put("first", rooms.first().cloned());
    put("second", rooms.get(1).cloned());
    put(
        "message",
        single(r#"\sdata-message-id="(\d+)""#).or_else(|| single(r#"id="message_(\d+)""#)),
    );
    put(
        "user",
        single(r#"<meta name="current-user-id" content="(\d+)""#)
            .or_else(|| single(r"/users/(\d+)/avatar")),
    );
    put("avatar", single(r#"src="(/users/[^"]+/avatar[^"]*)""#));
    put(
        "stylesheet",
        single(r#"<link[^>]*rel="stylesheet"[^>]*href="([^"]+)""#),
    );
    found
}

/// A request an endpoint makes, placeholders resolved and the session's
/// cookie (and CSRF token for non-GETs) added.
#[derive(Clone, PartialEq)]
pub struct ResolvedRequest {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

/// An endpoint's `{name}` that no signed-in page of its lane offered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("endpoint {endpoint} needs `{{{name}}}`, which no signed-in page of this lane offered")]
pub struct Unresolved {
    pub endpoint: String,
    pub name: String,
}

/// Resolves `{name}` placeholders of an endpoint from the session.
pub fn resolve_endpoint(
    endpoint: &Endpoint,
    session: Option<&SignedIn>,
) -> Result<ResolvedRequest, Unresolved> {
    let empty = BTreeMap::new();
    let values = session.map_or(&empty, |s| &s.placeholders);
    let fill = |text: &str| -> Result<String, Unresolved> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            let name = &rest[open + 1..open + close];
            let value = values.get(name).ok_or_else(|| Unresolved {
                endpoint: endpoint.name.to_string(),
                name: name.to_string(),
            })?;
            out.push_str(&rest[..open]);
            out.push_str(value);
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        Ok(out)
    };
    let path = fill(&endpoint.path)?;
    let mut headers: Vec<(String, String)> = endpoint
        .headers
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(s) = session {
        headers.push(("Cookie".into(), s.cookie.clone()));
        if !endpoint.method.eq_ignore_ascii_case("GET") {
            // As a browser's form post, and the harness's wrk script, send
            // it: the token where the page gave one, and the origin headers
            // Campfire's main checks instead (without them, a 422).
            if let Some(csrf) = &s.csrf {
                headers.push(("X-CSRF-Token".into(), csrf.clone()));
            }
            if let Some(origin) = &s.origin {
                for (name, value) in same_origin(origin) {
                    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(&name)) {
                        headers.push((name, value));
                    }
                }
            }
        }
    }
    let body = endpoint.body.as_deref().map(fill).transpose()?;
    if body.is_some()
        && !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
    {
        headers.push((
            "Content-Type".into(),
            "application/x-www-form-urlencoded".into(),
        ));
    }
    Ok(ResolvedRequest {
        path,
        headers,
        body,
    })
}

/// The headers a browser's same-origin form post carries, which Campfire's
/// main checks in place of an authenticity token.
fn same_origin(origin: &str) -> [(String, String); 2] {
    [
        ("Sec-Fetch-Site".to_string(), "same-origin".to_string()),
        ("Origin".to_string(), origin.to_string()),
    ]
}

/// Cookies by name, from `Set-Cookie` headers.
#[derive(Default)]
struct Jar(BTreeMap<String, String>);

impl Jar {
    /// Takes the response's cookies; true when it set any.
    fn take(&mut self, r: &Response) -> bool {
        let mut any = false;
        for value in r.headers_named("set-cookie") {
            let pair = value.split(';').next().unwrap_or("");
            if let Some((name, v)) = pair.split_once('=') {
                self.0.insert(name.trim().to_string(), v.trim().to_string());
                any = true;
            }
        }
        any
    }

    fn header(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| {
            self.0
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }
}

fn scrape(body: &[u8], pattern: &str) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    Regex::new(pattern)
        .ok()?
        .captures(&text)
        .map(|c| html_unescape(&c[1]))
}

fn html_unescape(s: &str) -> String {
    s.replace("&#x2F;", "/")
        .replace("&#43;", "+")
        .replace("&#x3D;", "=")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The path of a `Location` (absolute URLs point at the same server).
fn path_of(location: &str) -> &str {
    match location.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => location,
    }
}
