//! Sharing, against a local HTTP server (hyper, on 127.0.0.1) that stands
//! in for github.com and api.github.com: it speaks GitHub's device-flow and
//! GraphQL wire formats, answering from a script each test writes. No test
//! talks to the internet. Time between polls is the one fake: the client's
//! waits are recorded instead of slept, so the tests take milliseconds.

#[path = "../../report/tests/fixture/mod.rs"]
mod fixture;

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use reprise_share::{
    GitHub, Redactor, ShareError, TokenFileProblem, TokenStore, create_discussion, find_target,
    new_discussion_url, request_code, sign_in,
};

#[derive(Clone, Debug)]
struct Recorded {
    path: String,
    authorization: Option<String>,
    body: String,
}

#[derive(Default)]
struct Script {
    answers: HashMap<String, VecDeque<(u16, String)>>,
    requests: Vec<Recorded>,
}

/// The stand-in for github.com: a real HTTP/1.1 server on loopback.
struct StandIn {
    base: String,
    script: Arc<Mutex<Script>>,
}

impl StandIn {
    fn start() -> StandIn {
        let script = Arc::new(Mutex::new(Script::default()));
        let shared = script.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        break;
                    };
                    let script = shared.clone();
                    let service =
                        hyper::service::service_fn(move |req| answer(req, script.clone()));
                    tokio::spawn(async move {
                        let io = hyper_util::rt::TokioIo::new(stream);
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(io, service)
                            .await;
                    });
                }
            });
        });
        let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        StandIn {
            base: format!("http://{addr}"),
            script,
        }
    }

    /// Queues an answer for a path.
    fn answer(&self, path: &str, status: u16, body: serde_json::Value) -> &Self {
        self.script
            .lock()
            .unwrap()
            .answers
            .entry(path.to_string())
            .or_default()
            .push_back((status, body.to_string()));
        self
    }

    /// Queues an answer that is not JSON, as a server may send.
    fn answer_raw(&self, path: &str, status: u16, body: &str) -> &Self {
        self.script
            .lock()
            .unwrap()
            .answers
            .entry(path.to_string())
            .or_default()
            .push_back((status, body.to_string()));
        self
    }

    fn requests(&self, path: &str) -> Vec<Recorded> {
        self.script
            .lock()
            .unwrap()
            .requests
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }

    fn github(&self) -> GitHub {
        GitHub::new(&self.base, &self.base)
    }
}

async fn answer(
    req: Request<Incoming>,
    script: Arc<Mutex<Script>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_string();
    let authorization = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = req
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let (status, text) = {
        let mut s = script.lock().unwrap();
        s.requests.push(Recorded {
            path: path.clone(),
            authorization,
            body: String::from_utf8_lossy(&body).into_owned(),
        });
        s.answers
            .get_mut(&path)
            .and_then(VecDeque::pop_front)
            .unwrap_or((404, r#"{"message":"Not Found"}"#.to_string()))
    };
    Ok(Response::builder()
        .status(status)
        .header("content-type", "application/json; charset=utf-8")
        .body(Full::new(Bytes::from(text)))
        .unwrap())
}

const CODE: &str = "/login/device/code";
const TOKEN: &str = "/login/oauth/access_token";
const GRAPHQL: &str = "/graphql";

fn device_code(server: &StandIn, expires_in: u64) {
    server.answer(
        CODE,
        200,
        serde_json::json!({
            "device_code": "3584d83530557fdd1f46af8289938c8ef79f9dc5",
            "user_code": "WDJB-MJHT",
            "verification_uri": "https://github.com/login/device",
            "expires_in": expires_in,
            "interval": 5
        }),
    );
}

fn pending() -> serde_json::Value {
    serde_json::json!({"error": "authorization_pending", "error_description": "The authorization request is still pending.", "error_uri": "https://docs.github.com"})
}

#[test]
fn sign_in_polls_through_authorization_pending_then_gets_the_token() {
    let server = StandIn::start();
    device_code(&server, 900);
    server
        .answer(TOKEN, 200, pending())
        .answer(TOKEN, 200, pending())
        .answer(TOKEN, 200, serde_json::json!({"access_token": "gho_16C7e42F292c6912E7710c838347Ae178B4a", "token_type": "bearer", "scope": "public_repo"}));
    let github = server.github();
    let code = request_code(&github, "Iv1.test", "public_repo").unwrap();
    assert_eq!(code.user_code, "WDJB-MJHT");
    assert_eq!(code.verification_uri, "https://github.com/login/device");
    let mut waits = Vec::new();
    let token = sign_in(&github, "Iv1.test", &code, &mut |d| waits.push(d.as_secs())).unwrap();
    assert_eq!(token, "gho_16C7e42F292c6912E7710c838347Ae178B4a");
    assert_eq!(waits, [5, 5, 5]);
    let polls = server.requests(TOKEN);
    assert_eq!(polls.len(), 3);
    assert!(
        polls[0]
            .body
            .contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"),
        "{}",
        polls[0].body
    );
    assert!(
        polls[0]
            .body
            .contains("device_code=3584d83530557fdd1f46af8289938c8ef79f9dc5")
    );
    assert!(server.requests(CODE)[0].body.contains("client_id=Iv1.test"));
}

#[test]
fn slow_down_lengthens_the_wait_between_polls() {
    let server = StandIn::start();
    device_code(&server, 900);
    server
        .answer(TOKEN, 200, pending())
        .answer(TOKEN, 200, serde_json::json!({"error": "slow_down", "error_description": "Too many requests have been made in the same timeframe.", "interval": 10}))
        .answer(TOKEN, 200, pending())
        .answer(TOKEN, 200, serde_json::json!({"access_token": "gho_slow", "token_type": "bearer", "scope": "public_repo"}));
    let github = server.github();
    let code = request_code(&github, "Iv1.test", "public_repo").unwrap();
    let mut waits = Vec::new();
    let token = sign_in(&github, "Iv1.test", &code, &mut |d| waits.push(d.as_secs())).unwrap();
    assert_eq!(token, "gho_slow");
    assert_eq!(waits, [5, 5, 10, 10]);
}

#[test]
fn an_error_that_echoes_the_device_code_never_says_it() {
    let server = StandIn::start();
    device_code(&server, 900);
    server.answer(TOKEN, 200, serde_json::json!({"error": "incorrect_device_code", "error_description": "device_code 3584d83530557fdd1f46af8289938c8ef79f9dc5 is not valid\u{1b}[2K"}));
    let github = server.github();
    let code = request_code(&github, "Iv1.test", "public_repo").unwrap();
    let err = sign_in(&github, "Iv1.test", &code, &mut |_| {}).unwrap_err();
    let said = err.to_string();
    assert!(said.contains("incorrect_device_code"), "{said}");
    assert!(
        !said.contains("3584d83530557fdd1f46af8289938c8ef79f9dc5"),
        "{said}"
    );
    assert!(!said.contains('\u{1b}'), "{said}");
}

#[test]
fn an_expired_code_ends_the_sign_in() {
    let server = StandIn::start();
    device_code(&server, 900);
    server
        .answer(TOKEN, 200, pending())
        .answer(TOKEN, 200, serde_json::json!({"error": "expired_token", "error_description": "The device_code has expired."}));
    let github = server.github();
    let code = request_code(&github, "Iv1.test", "public_repo").unwrap();
    let err = sign_in(&github, "Iv1.test", &code, &mut |_| {}).unwrap_err();
    assert!(matches!(err, ShareError::Expired), "{err}");
    assert!(err.to_string().contains("expired"), "{err}");

    // A code that runs out while still pending is expired too, without
    // polling past its lifetime.
    device_code(&server, 12);
    for _ in 0..5 {
        server.answer(TOKEN, 200, pending());
    }
    let code = request_code(&github, "Iv1.test", "public_repo").unwrap();
    let before = server.requests(TOKEN).len();
    let err = sign_in(&github, "Iv1.test", &code, &mut |_| {}).unwrap_err();
    assert!(matches!(err, ShareError::Expired), "{err}");
    assert_eq!(server.requests(TOKEN).len() - before, 3);
}

/// The stand-in for github.com answers the device-code request as a hostile
/// server would: a code that redraws the terminal, a page elsewhere.
#[test]
fn a_device_code_is_shown_escaped_and_only_with_a_github_page() {
    let server = StandIn::start();
    let hostile = |uri: &str, code: &str| {
        server.answer(
            CODE,
            200,
            serde_json::json!({"device_code": "3584d83530557fdd1f46af8289938c8ef79f9dc5",
                "user_code": code, "verification_uri": uri, "expires_in": 900, "interval": 5}),
        );
        request_code(&server.github(), "Iv1.test", "public_repo")
    };
    let code = hostile(
        "https://github.com/login/device",
        "WDJB\u{1b}[2J\u{1b}]8;;https://evil.example\u{7}-MJHT\u{202e}\u{c}",
    )
    .unwrap();
    assert!(
        !code
            .user_code
            .chars()
            .any(|c| c.is_control() || c == '\u{202e}'),
        "{:?}",
        code.user_code
    );
    assert_eq!(
        code.user_code,
        "WDJB\\u{1b}[2J\\u{1b}]8;;https://evil.example\\u{7}-MJHT\\u{202e}"
    );
    // The configured host (a GitHub Enterprise's, here the stand-in's) is
    // GitHub too, over https.
    let own = format!(
        "{}/login/device",
        server.base.replacen("http:", "https:", 1)
    );
    assert_eq!(hostile(&own, "ABCD-1234").unwrap().verification_uri, own);
    for uri in [
        "javascript:alert(1)",
        "http://github.com/login/device",
        "https://github.com.evil.example/login/device",
        "https://evil.example/login/device?github.com",
        "https://user:pw@github.com/login/device",
        "https://github.com:8443/login/device",
        "https://gist.github.com/login/device",
        "\u{1b}]8;;https://evil.example\u{7}https://github.com/login/device",
        "not a url",
    ] {
        let err = hostile(uri, "ABCD-1234").unwrap_err();
        let said = err.to_string();
        assert!(
            matches!(err, ShareError::Unexpected { .. }) && said.contains("sign-in page"),
            "{uri}: {said}"
        );
        assert!(!said.chars().any(|c| c.is_control()), "{said:?}");
    }
    // A URL's own spaces and controls are percent-encoded as it is parsed.
    let code = hostile("https://github.com/login/device?x=\u{1b}[2J", "ABCD-1234").unwrap();
    assert_eq!(
        code.verification_uri,
        "https://github.com/login/device?x=%1B[2J"
    );
}

fn repository(categories: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"data": {"repository": {"id": "R_kgDOexample", "discussionCategories": {"nodes": categories}}}})
}

#[test]
fn a_repository_without_the_category_is_reported_with_the_ones_it_has() {
    let server = StandIn::start();
    server.answer(
        GRAPHQL,
        200,
        repository(serde_json::json!([
            {"id": "DIC_1", "name": "General", "slug": "general"},
            {"id": "DIC_2", "name": "Ideas", "slug": "ideas"}
        ])),
    );
    let err = find_target(&server.github(), "gho_x", "rubys/reprise", "hello-ceiling").unwrap_err();
    assert!(
        matches!(&err, ShareError::NoCategory { available, .. } if available == &["General", "Ideas"]),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "rubys/reprise has no discussion category `hello-ceiling` (it has: General, Ideas)"
    );

    server.answer(
        GRAPHQL,
        200,
        serde_json::json!({"data": {"repository": null}, "errors": [{"type": "NOT_FOUND", "path": ["repository"], "message": "Could not resolve to a Repository with the name 'rubys/nope'."}]}),
    );
    let err = find_target(&server.github(), "gho_x", "rubys/nope", "General").unwrap_err();
    assert!(
        matches!(err, ShareError::NoRepository(ref r) if r == "rubys/nope"),
        "{err:?}"
    );
}

#[test]
fn a_successful_post_creates_the_discussion_with_the_redacted_report() {
    let server = StandIn::start();
    server
        .answer(
            GRAPHQL,
            200,
            repository(serde_json::json!([
                {"id": "DIC_1", "name": "General", "slug": "general"},
                {"id": "DIC_7", "name": "Hello ceiling", "slug": "hello-ceiling"}
            ])),
        )
        .answer(
            GRAPHQL,
            200,
            serde_json::json!({"data": {"createDiscussion": {"discussion": {"url": "https://github.com/rubys/reprise/discussions/42", "number": 42}}}}),
        );
    let report = fixture::report("hello-ceiling-20261130-050000");
    let redactor = Redactor::from_fingerprint(&report.environment.fingerprint);
    let post = reprise_share::prepare(&report, Some(&redactor)).unwrap();
    let github = server.github();
    let target = find_target(&github, "gho_x", "rubys/reprise", "hello-ceiling").unwrap();
    assert_eq!(target.category.id, "DIC_7");
    let created = create_discussion(&github, "gho_x", &target, &post.title, &post.body).unwrap();
    assert_eq!(
        created.url,
        "https://github.com/rubys/reprise/discussions/42"
    );
    assert_eq!(created.number, Some(42));

    let calls = server.requests(GRAPHQL);
    assert_eq!(calls.len(), 2);
    assert!(
        calls
            .iter()
            .all(|c| c.authorization.as_deref() == Some("Bearer gho_x"))
    );
    let sent: serde_json::Value = serde_json::from_str(&calls[1].body).unwrap();
    assert!(sent["query"].as_str().unwrap().contains("createDiscussion"));
    assert_eq!(sent["variables"]["repositoryId"], "R_kgDOexample");
    assert_eq!(sent["variables"]["categoryId"], "DIC_7");
    let body = sent["variables"]["body"].as_str().unwrap();
    assert!(body.starts_with("# Reprise: Campfire under Falcon"));
    assert!(body.contains("<details>\n<summary>The full report as JSON</summary>"));
    assert!(body.contains("\"verdicts\""), "the JSON rides along");
    for secret in ["bench-box-7", "alice", "/home/alice", "10.1.2.3"] {
        assert!(!body.contains(secret), "{secret} leaked");
    }
    assert!(body.contains("[hostname]") && body.contains("[ip]") && body.contains("[user]"));
}

#[test]
fn a_refused_token_is_a_401_with_github_s_message() {
    let server = StandIn::start();
    server.answer(
        GRAPHQL,
        401,
        serde_json::json!({"message": "Bad credentials", "documentation_url": "https://docs.github.com/graphql", "status": "401"}),
    );
    let err = find_target(&server.github(), "gho_revoked", "rubys/reprise", "General").unwrap_err();
    assert!(
        matches!(err, ShareError::Unauthorized(ref m) if m == "Bad credentials"),
        "{err:?}"
    );
    assert!(err.to_string().contains("expired or revoked"), "{err}");
}

#[test]
fn a_token_names_its_account_and_a_refused_or_strange_answer_names_none() {
    let server = StandIn::start();
    server.answer(
        GRAPHQL,
        200,
        serde_json::json!({"data": {"viewer": {"login": "octo-reader"}}}),
    );
    assert_eq!(
        reprise_share::signed_in_as(&server.github(), "gho_good").unwrap(),
        "octo-reader"
    );
    let asked = server.requests(GRAPHQL);
    assert!(asked[0].body.contains("viewer"), "{asked:?}");
    assert_eq!(asked[0].authorization.as_deref(), Some("Bearer gho_good"));
    // A login no GitHub account could have is not taken as one.
    server.answer(
        GRAPHQL,
        200,
        serde_json::json!({"data": {"viewer": {"login": "octo\u{1b}[2Jreader"}}}),
    );
    let err = reprise_share::signed_in_as(&server.github(), "gho_good").unwrap_err();
    assert!(matches!(err, ShareError::Unexpected { .. }), "{err:?}");
    server.answer(
        GRAPHQL,
        401,
        serde_json::json!({"message": "Bad credentials"}),
    );
    let err = reprise_share::signed_in_as(&server.github(), "made-up").unwrap_err();
    assert!(matches!(err, ShareError::Unauthorized(_)), "{err:?}");
    for (login, ok) in [
        ("a", true),
        ("rubys", true),
        ("-x", false),
        ("x-", false),
        ("a--b", false),
        ("", false),
        ("é", false),
    ] {
        assert_eq!(reprise_share::is_login(login), ok, "{login}");
    }
}

#[test]
fn an_answer_that_echoes_the_request_never_prints_the_token() {
    let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
    let server = StandIn::start();
    let echo = format!(
        "upstream error\r\nPOST /graphql HTTP/1.1\r\nAuthorization: Bearer {token}\r\nx-token: {token}\r\n\u{1b}[2K\u{1b}]8;;https://evil.example\u{7}click\u{1b}]8;;\u{7}{}",
        "x".repeat(2_000)
    );
    server.answer_raw(GRAPHQL, 500, &echo);
    server.answer(
        GRAPHQL,
        401,
        serde_json::json!({"message": format!("Bad credentials for {token}")}),
    );
    server.answer(
        GRAPHQL,
        200,
        serde_json::json!({"errors": [{"message": format!("token {token} may not post")}]}),
    );
    server.answer_raw(GRAPHQL, 200, &format!("<html>{token}</html>"));
    for _ in 0..4 {
        let err = find_target(&server.github(), token, "rubys/reprise", "General").unwrap_err();
        let said = err.to_string();
        assert!(!said.contains(token), "the token was printed: {said}");
        assert!(
            !said.contains("16C7e42F"),
            "part of the token was printed: {said}"
        );
        assert!(
            !said.contains('\u{1b}') && !said.contains('\r'),
            "raw escapes: {said:?}"
        );
        assert!(
            said.chars().count() < 600,
            "not capped: {} characters",
            said.chars().count()
        );
    }
}

/// A server (here the stand-in for api.github.com) that echoes the token
/// altered — split by zero-width spaces, upper-cased, a piece of it, in
/// base64 as a Basic header carries it — has none of it printed.
#[test]
fn an_answer_that_echoes_the_token_altered_never_prints_any_of_it() {
    use base64::Engine;
    let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
    let split: String = token.chars().flat_map(|c| [c, '\u{200b}']).collect();
    let b64 = base64::engine::general_purpose::STANDARD;
    let echoes = [
        format!("token {split} is not allowed"),
        format!("TOKEN {} IS NOT ALLOWED", token.to_uppercase()),
        format!("token starting {} is not allowed", &token[..16]),
        format!(
            "Authorization: Basic {}",
            b64.encode(format!("x-access-token:{token}"))
        ),
        format!("seen {}", b64.encode(token)),
        format!(
            "soft{}",
            token
                .chars()
                .flat_map(|c| [c, '\u{ad}'])
                .collect::<String>()
        ),
    ];
    let server = StandIn::start();
    for echo in &echoes {
        server.answer_raw(GRAPHQL, 500, echo);
        server.answer(
            GRAPHQL,
            200,
            serde_json::json!({"errors": [{"message": echo}]}),
        );
    }
    // What a reader could piece the token back from: the text without the
    // escapes of invisible characters, in one case.
    let pieces: Vec<String> = {
        let lower = token.to_lowercase();
        (0..=lower.len() - 8)
            .map(|i| lower[i..i + 8].to_string())
            .collect()
    };
    for echo in echoes.iter().flat_map(|e| [e, e]) {
        let err = find_target(&server.github(), token, "rubys/reprise", "General").unwrap_err();
        let said = err.to_string();
        let read = said
            .replace("\\u{200b}", "")
            .replace("\\u{ad}", "")
            .to_lowercase();
        assert!(
            !pieces.iter().any(|p| read.contains(p.as_str())),
            "a piece of the token was printed for {echo:?}: {said}"
        );
        for encoded in [
            b64.encode(token),
            b64.encode(format!("x-access-token:{token}")),
        ] {
            assert!(
                !said.contains(&encoded[4..20]),
                "its base64 was printed for {echo:?}: {said}"
            );
        }
        assert!(said.contains("[token]"), "{said}");
    }
}

#[test]
fn aws_and_slack_tokens_are_redacted_by_their_shape() {
    let r = Redactor::new();
    let text = "key AKIAIOSFODNN7EXAMPLE, temporary ASIAY34FZKBOKMUTVV7A, slack xoxb-1234567890-abcdefghij and xoxp-0987654321-zyxwvutsrq";
    let said = r.redact(text);
    for secret in [
        "AKIAIOSFODNN7EXAMPLE",
        "ASIAY34FZKBOKMUTVV7A",
        "xoxb-1234567890",
        "xoxp-0987654321",
    ] {
        assert!(!said.contains(secret), "{secret} leaked: {said}");
    }
}

#[test]
fn redaction_takes_out_host_user_home_and_addresses() {
    let fingerprint = serde_json::json!({
        "host": {"hostname": "bench-box-7", "uname": "Linux bench-box-7 6.1.0"},
        "user": "alice",
        "home": "/home/alice",
        "net": ["10.1.2.3", "fe80::1ff:fe23:4567:890a"]
    });
    let r = Redactor::from_fingerprint(&fingerprint);
    let text = "alice ran /home/alice/reprise/bin on bench-box-7 (10.1.2.3, fe80::1ff:fe23:4567:890a) against 127.0.0.1:9292 and ::1 at 04:33:03; std::fmt stays; malice stays";
    let out = r.redact(text);
    assert_eq!(
        out,
        "[user] ran ~/reprise/bin on [hostname] ([ip], [ip]) against 127.0.0.1:9292 and ::1 at 04:33:03; std::fmt stays; malice stays"
    );
    let json = serde_json::to_string_pretty(&fingerprint).unwrap();
    let redacted = r.redact(&json);
    assert!(
        !redacted.contains("alice") && !redacted.contains("bench-box-7"),
        "{redacted}"
    );
}

#[test]
fn without_a_token_a_prefilled_discussion_url_carries_title_and_body() {
    let url = new_discussion_url(
        "https://github.com",
        "rubys/reprise",
        "hello-ceiling",
        "Reprise: hello & more",
        "line one\nline two",
    );
    assert_eq!(
        url,
        "https://github.com/rubys/reprise/discussions/new?category=hello-ceiling&title=Reprise%3A+hello+%26+more&body=line+one%0Aline+two"
    );
    // What the page reads back is exactly what was given.
    let parsed = reqwest::Url::parse(&url).unwrap();
    let pairs: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
    assert_eq!(
        pairs,
        [
            ("category".to_string(), "hello-ceiling".to_string()),
            ("title".into(), "Reprise: hello & more".into()),
            ("body".into(), "line one\nline two".into()),
        ]
    );
}

#[test]
fn a_token_file_is_readable_only_by_its_owner_and_forgotten_on_logout() {
    let dir = tempfile::tempdir().unwrap();
    let store = TokenStore::File(dir.path().join("github-token"));
    assert_eq!(store.load().unwrap(), None);
    store.save("gho_secret").unwrap();
    let mode = std::fs::metadata(dir.path().join("github-token"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(store.load().unwrap().as_deref(), Some("gho_secret"));
    assert!(store.delete().unwrap());
    assert_eq!(store.load().unwrap(), None);
    assert!(!store.delete().unwrap());
}

#[test]
fn a_token_file_others_can_read_is_refused_with_how_to_fix_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("github-token");
    let store = TokenStore::File(path.clone());
    store.save("gho_secret").unwrap();
    for mode in [0o644, 0o640, 0o604, 0o660] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        let err = store.load().unwrap_err();
        let shown = err.to_string();
        assert!(matches!(err, ShareError::TokenFile { .. }), "{err:?}");
        assert!(
            shown.contains(&format!("chmod 600 {}", path.display())),
            "{shown}"
        );
        assert!(shown.contains(&format!("mode {mode:03o}")), "{shown}");
        assert!(!shown.contains("gho_secret"), "{shown}");
    }
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(store.load().unwrap().as_deref(), Some("gho_secret"));
    // Saving again makes a loose file private.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    store.save("gho_new").unwrap();
    assert_eq!(store.load().unwrap().as_deref(), Some("gho_new"));
}

#[test]
fn a_token_file_that_is_a_link_or_another_account_s_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::write(&elsewhere, "gho_planted").unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path().join("github-token");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let store = TokenStore::File(link.clone());
    let err = store.load().unwrap_err();
    assert!(
        matches!(
            err,
            ShareError::TokenFile {
                problem: TokenFileProblem::NotPlainFile,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        store.save("gho_mine").is_err(),
        "never written through a link"
    );
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "gho_planted");

    // Another account's file: only root can make one to try.
    let theirs = dir.path().join("theirs");
    std::fs::write(&theirs, "gho_theirs").unwrap();
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o600)).unwrap();
    if std::os::unix::fs::chown(&theirs, Some(4242), None).is_err() {
        eprintln!("not root: the other-owner case is not exercised here");
        return;
    }
    let err = TokenStore::File(theirs).load().unwrap_err();
    assert!(
        matches!(
            err,
            ShareError::TokenFile {
                problem: TokenFileProblem::OtherAccount { uid: 4242, .. },
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn signing_out_clears_every_store_and_says_what_it_removed() {
    let dir = tempfile::tempdir().unwrap();
    let chosen = TokenStore::File(dir.path().join("github-token"));
    let other = TokenStore::File(dir.path().join("elsewhere").join("github-token"));
    chosen.save("gho_one").unwrap();
    other.save("gho_two").unwrap();
    let stores = [TokenStore::Keyring, chosen.clone(), other.clone()];
    let out = TokenStore::sign_out(&stores);
    assert!(out.complete(), "{out:?}");
    assert_eq!(out.removed, [chosen.describe(), other.describe()]);
    assert_eq!(chosen.load().unwrap(), None);
    assert_eq!(other.load().unwrap(), None);
    // The keyring was asked too: empty, or (no D-Bus session here) said to
    // be unreachable, never silently skipped.
    let keyring = TokenStore::Keyring.describe();
    assert!(
        out.empty.contains(&keyring) || out.unreachable.iter().any(|u| u.starts_with(&keyring)),
        "{out:?}"
    );
    let again = TokenStore::sign_out(&stores);
    assert!(again.removed.is_empty() && again.complete(), "{again:?}");
}

/// The token as a server may echo it encoded: in JSON as Python writes it
/// (`\u200b` between its letters), in hex, reversed, a letter at a time
/// with dots, as HTML entities, percent-encoded, base64 of it upper-cased.
fn encoded_shapes(token: &str) -> Vec<String> {
    use base64::Engine;
    let reversed: String = token.chars().rev().collect();
    let letters: Vec<String> = token.chars().map(String::from).collect();
    vec![
        letters.join("\\u200b"),
        token.bytes().map(|b| format!("{b:02x}")).collect(),
        reversed.clone(),
        letters.join("."),
        token.bytes().map(|b| format!("&#{b};")).collect(),
        token.bytes().map(|b| format!("%{b:02X}")).collect(),
        base64::engine::general_purpose::STANDARD.encode(token.to_uppercase()),
        format!("{} and {}", &reversed[..20], &reversed[20..]),
    ]
}

/// Its letters and digits only, in lower case: what a reader could read
/// an encoding back from, whatever separates its characters.
fn alphanumerics(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The stand-in for api.github.com answers with the token encoded in a
/// JSON `message` (Python's `json.dumps`, so `\u200b` is six characters of
/// the body), in a body that is not JSON, and in GraphQL errors: no run of
/// it that could be read back is printed.
#[test]
fn an_answer_that_echoes_the_token_encoded_never_prints_it() {
    let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
    let server = StandIn::start();
    let shapes = encoded_shapes(token);
    for shape in &shapes {
        // Python's json.dumps: ASCII only, `\uXXXX` escapes kept as written.
        let python = format!(
            "{{\"message\": \"bad: {}\", \"documentation_url\": \"https://docs.github.com/graphql\"}}",
            shape.replace('\\', "\\\\").replace("\\\\u200b", "\\u200b")
        );
        server.answer_raw(GRAPHQL, 500, &python);
        server.answer_raw(GRAPHQL, 502, &format!("<pre>bad: {shape}</pre>"));
        server.answer(
            GRAPHQL,
            200,
            serde_json::json!({"errors": [{"message": format!("bad: {shape}")}]}),
        );
    }
    for shape in shapes.iter().flat_map(|s| [s, s, s]) {
        let err = find_target(&server.github(), token, "rubys/reprise", "General").unwrap_err();
        let said = err.to_string();
        let read = alphanumerics(&said.replace("\\u{200b}", ""));
        let encoded = alphanumerics(shape);
        let windows = encoded.len() - 12;
        assert!(
            !(0..=windows).any(|i| read.contains(&encoded[i..i + 12])),
            "the token's {shape:?} was printed: {said}"
        );
        assert!(
            said.contains("bad: ")
                && (said.contains("[token]")
                    || said.contains("[part of the answer withheld: it could carry the token]")),
            "{said}"
        );
    }
    // GitHub's own messages are said as they are, with where to read more.
    server.answer(
        GRAPHQL,
        500,
        serde_json::json!({"message": "API rate limit exceeded for user ID 123.", "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}),
    );
    let said = find_target(&server.github(), token, "rubys/reprise", "General")
        .unwrap_err()
        .to_string();
    assert!(
        said.ends_with("answered 500: API rate limit exceeded for user ID 123. (see https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting)"),
        "{said}"
    );
}

/// The stand-in for github.com asks to wait between polls far longer than
/// the code lives (`1e15` seconds, as JSON may write it; an interval past
/// `expires_in`; a `slow_down` to 10^15 seconds) or says the code lives
/// for ever: no wait is longer than a minute, none goes past the code's
/// expiry, and the sign-in ends as expired.
#[test]
fn a_server_asking_to_wait_for_ever_is_polled_within_the_code_s_life() {
    let server = StandIn::start();
    let github = server.github();
    for (interval, expires_in, slow_down) in [
        ("1e15", "900", None),
        ("1000", "900", None),
        ("5", "900", Some("1000000000000000")),
        ("5", "1e15", None),
    ] {
        server.answer_raw(
            CODE,
            200,
            &format!(
                r#"{{"device_code": "3584d83530557fdd1f46af8289938c8ef79f9dc5", "user_code": "WDJB-MJHT", "verification_uri": "https://github.com/login/device", "expires_in": {expires_in}, "interval": {interval}}}"#
            ),
        );
        if let Some(slow) = slow_down {
            server.answer_raw(
                TOKEN,
                200,
                &format!(r#"{{"error": "slow_down", "interval": {slow}}}"#),
            );
        }
        for _ in 0..400 {
            server.answer(TOKEN, 200, pending());
        }
        let code = request_code(&github, "Iv1.test", "public_repo").unwrap();
        assert!(code.expires_in <= 30 * 60, "{code:?}");
        assert!((1..=60).contains(&code.interval), "{code:?}");
        let mut waits = Vec::new();
        let err =
            sign_in(&github, "Iv1.test", &code, &mut |d| waits.push(d.as_secs())).unwrap_err();
        assert!(matches!(err, ShareError::Expired), "{err}");
        assert!(waits.iter().all(|w| (1..=60).contains(w)), "{waits:?}");
        assert_eq!(waits.iter().sum::<u64>(), code.expires_in, "{waits:?}");
        server.script.lock().unwrap().answers.clear();
    }
}
