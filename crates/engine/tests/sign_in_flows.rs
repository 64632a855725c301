//! Signing in against a server made by this test (hyper on 127.0.0.1) that
//! implements both of Campfire's flows — the form's authenticity_token, and
//! newer Campfire's Sec-Fetch-Site/Origin check — and its rate limit of 10
//! sign-ins per 3 minutes. A stand-in for Campfire, which cannot run here
//! (no gems registry); the HTTP exchanges are the ones FACTS.md records.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// The test's server listens on loopback.
const LOOPBACK: std::net::IpAddr = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response};
use reprise_engine::lanes::signed_in::{SignInError, UsedFlow, sign_in};
use reprise_recipe::SignInFlow;

const EMAIL: &str = "user1@example.com";
const PASSWORD: &str = "secret 123456&more";
const COOKIE: &str = "session_token=S3CR3T-c00kie";
// Campfire's room page as Rails renders it (trimmed): the room and user in
// meta tags, the sidebar loaded lazily, messages with their ids, a signed
// avatar URL.
const PAGE: &str = r#"<html><head><meta name="csrf-token" content="csrf-abc">
<meta name="current-user-id" content="3" /><meta name="current-user-name" content="User 3" />
<link rel="stylesheet" href="/assets/campfire-0a1b.css" data-turbo-track="reload">
<meta name="current-room-id" content="7"></head>
<body><form action="/rooms/7/messages" method="post"></form>
<div id="message_00000000-0000-4000-8000-000000000042" class="message " data-user-id="2" data-message-id="42">
<img aria-hidden="true" width="48" height="48" src="/users/eyJfcmFpbHMi--5d2a/avatar?v=20260101000002">
<a class="message__permalink" target="_top" href="/rooms/7/@42">#</a></div>
<turbo-frame id="user_sidebar" src="/users/me/sidebar" target="_top" data-turbo-permanent="true"></turbo-frame>
</body></html>"#;
const SIDEBAR: &str = r#"<turbo-frame id="user_sidebar"><div id="shared_rooms">
<a class="room btn" id="list_rooms_open_7" data-room-id="7" href="/rooms/7">All Talk</a>
<a class="room btn" id="list_rooms_open_9" data-room-id="9" href="/rooms/9">Coffee</a></div></turbo-frame>"#;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Form,
    Header,
}

struct Campfire {
    mode: Mode,
    port: AtomicU32,
    sign_ins: AtomicU32,
}

fn respond(status: u16, headers: &[(&str, String)], body: &str) -> Response<Full<Bytes>> {
    let mut r = Response::builder().status(status);
    for (k, v) in headers {
        r = r.header(*k, v);
    }
    r.body(Full::new(Bytes::from(body.to_string()))).unwrap()
}

fn form_decode(s: &str) -> String {
    let bytes = s.replace('+', " ").into_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

async fn handle(
    app: Arc<Campfire>,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let signed = header("cookie").is_some_and(|c| c.contains(COOKIE));
    let (sec_fetch, origin) = (header("sec-fetch-site"), header("origin"));
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let port = app.port.load(Ordering::SeqCst);
    let to_form = [("location", format!("http://127.0.0.1:{port}/session/new"))];
    Ok(match (method.as_str(), path.as_str()) {
        ("GET", "/session/new") => {
            let token = match app.mode {
                Mode::Form => {
                    r#"<input type="hidden" name="authenticity_token" value="tok&#43;en&#x2F;1" autocomplete="off">"#
                }
                Mode::Header => "",
            };
            respond(
                200,
                &[("set-cookie", "_campfire_session=anon; path=/".into())],
                &format!(
                    r#"<form action="/session" method="post">{token}<input name="email_address"></form>"#
                ),
            )
        }
        ("POST", "/session") => {
            if app.sign_ins.fetch_add(1, Ordering::SeqCst) >= 10 {
                return Ok(respond(429, &[], "Try again later."));
            }
            let fields: std::collections::HashMap<String, String> = String::from_utf8_lossy(&body)
                .split('&')
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), form_decode(v)))
                .collect();
            let csrf_ok = match app.mode {
                Mode::Form => {
                    fields.get("authenticity_token").map(String::as_str) == Some("tok+en/1")
                }
                Mode::Header => {
                    sec_fetch.as_deref() == Some("same-origin")
                        && origin == Some(format!("http://127.0.0.1:{port}"))
                }
            };
            if !csrf_ok {
                respond(422, &[], "Unprocessable")
            } else if fields.get("email_address").map(String::as_str) == Some(EMAIL)
                && fields.get("password").map(String::as_str) == Some(PASSWORD)
            {
                respond(
                    302,
                    &[
                        ("location", format!("http://127.0.0.1:{port}/")),
                        ("set-cookie", format!("{COOKIE}; path=/; HttpOnly")),
                    ],
                    "",
                )
            } else {
                // Campfire sends a wrong password back to the form.
                respond(302, &to_form, "")
            }
        }
        ("GET", "/") if signed => respond(302, &[("location", "/rooms/7".into())], ""),
        ("GET", "/rooms/7") if signed => respond(200, &[], PAGE),
        ("GET", "/users/me/sidebar") if signed => respond(200, &[], SIDEBAR),
        _ => respond(302, &to_form, ""),
    })
}

/// Starts the stand-in on a free port; it lives as long as the test.
fn start(mode: Mode) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let app = Arc::new(Campfire {
        mode,
        port: AtomicU32::new(u32::from(port)),
        sign_ins: AtomicU32::new(0),
    });
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                let app = app.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| handle(app.clone(), req));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
        });
    });
    port
}

#[test]
fn the_form_flow_posts_the_token_and_keeps_the_session_and_the_page_ids() {
    let port = start(Mode::Form);
    let (session, used) = sign_in(LOOPBACK, port, EMAIL, PASSWORD, SignInFlow::Auto).unwrap();
    assert_eq!(used, UsedFlow::Form);
    assert!(
        session.cookie.contains(COOKIE),
        "the session cookie is carried"
    );
    assert_eq!(session.csrf.as_deref(), Some("csrf-abc"));
    let ids: Vec<(&str, &str)> = session
        .placeholders
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        ids,
        [
            (
                "avatar",
                "/users/eyJfcmFpbHMi--5d2a/avatar?v=20260101000002"
            ),
            ("first", "7"),
            ("message", "42"),
            ("second", "9"),
            ("stylesheet", "/assets/campfire-0a1b.css"),
            ("user", "3"),
        ]
    );
    let shown = format!("{session:?}");
    assert!(
        !shown.contains("S3CR3T") && !shown.contains("csrf-abc"),
        "{shown}"
    );
}

#[test]
fn newer_campfire_without_a_token_signs_in_with_the_origin_headers() {
    let port = start(Mode::Header);
    let (session, used) = sign_in(LOOPBACK, port, EMAIL, PASSWORD, SignInFlow::Auto).unwrap();
    assert_eq!(used, UsedFlow::Header);
    assert_eq!(session.placeholders["first"], "7");
    let err = sign_in(LOOPBACK, port, EMAIL, PASSWORD, SignInFlow::Form).unwrap_err();
    assert!(matches!(err, SignInError::NoToken), "{err}");
}

#[test]
fn a_wrong_password_and_the_rate_limit_are_errors_that_never_show_the_password() {
    let port = start(Mode::Form);
    let err = sign_in(LOOPBACK, port, EMAIL, "wrong", SignInFlow::Auto).unwrap_err();
    assert_eq!(
        err.to_string(),
        "POST /session sent the browser back to the sign-in form: wrong email or password"
    );
    for _ in 0..9 {
        sign_in(LOOPBACK, port, EMAIL, PASSWORD, SignInFlow::Form).unwrap();
    }
    let err = sign_in(LOOPBACK, port, EMAIL, PASSWORD, SignInFlow::Form).unwrap_err();
    let text = err.to_string();
    assert_eq!(
        text,
        "POST /session answered 429, not 302 (rate-limited: Campfire allows 10 sign-ins per 3 minutes)"
    );
    assert!(!text.contains(PASSWORD));
}
