//! Reading everyone's results back, against a local HTTP server (hyper, on
//! 127.0.0.1) that stands in for api.github.com: it speaks GitHub's GraphQL
//! wire format for a repository's discussions — pages with `totalCount`
//! and `pageInfo { hasNextPage endCursor }`, newest-updated first, the
//! `x-ratelimit-*` headers, an ETag where a test turns it on, errors — and
//! answers from discussions each test writes: posts made by Reprise's own
//! share flow, and malformed and hostile ones. No test talks to the internet.

#[path = "../../report/tests/fixture/mod.rs"]
mod fixture;

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use reprise_report::{MachineSummary, ResultBlock};
use reprise_share::ShareError;
use reprise_share::community::{
    Cache, Found, Standing, Unreadable, find_block, read, refresh, refresh_with, standing,
};
use reprise_share::{GitHub, Redactor, prepare};

const TOKEN: &str = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
const REPO: &str = "rubys/reprise";

#[derive(Clone, Debug)]
struct Post {
    id: String,
    number: u64,
    title: String,
    body: String,
    updated_at: String,
    author: Option<String>,
}

/// An answer a test forces: status, extra headers, body.
type Forced = (u16, Vec<(String, String)>, String);

/// What the stand-in holds and what it was asked.
#[derive(Default)]
struct State {
    /// Newest-updated first, as GitHub orders them for `UPDATED_AT DESC`.
    posts: Vec<Post>,
    /// Answers a test forces, taken before the listing is answered.
    forced: VecDeque<Forced>,
    /// Requests left in the rate-limit window.
    remaining: u64,
    /// Whether the first page carries an ETag and honours If-None-Match.
    etags: bool,
    /// Every request: its Authorization, If-None-Match and `after`.
    requests: Vec<(Option<String>, Option<String>, Option<String>)>,
    /// A server that always says there is another page, with one cursor.
    endless: bool,
    /// How long each answer takes: a slow server.
    delay: Duration,
}

struct StandIn {
    base: String,
    state: Arc<Mutex<State>>,
}

impl StandIn {
    fn start() -> StandIn {
        let state = Arc::new(Mutex::new(State {
            remaining: 5_000,
            ..State::default()
        }));
        let shared = state.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                while let Ok((stream, _)) = listener.accept().await {
                    let state = shared.clone();
                    let service = hyper::service::service_fn(move |req| answer(req, state.clone()));
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
            state,
        }
    }

    fn github(&self) -> GitHub {
        GitHub::new(&self.base, &self.base)
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    /// Adds a post, updated at minute `minute` of a day (newer is larger).
    fn post(&self, number: u64, minute: u32, title: &str, body: &str) {
        let mut state = self.state();
        state.posts.push(Post {
            id: format!("D_kwDO{number:06}"),
            number,
            title: title.to_string(),
            body: body.to_string(),
            updated_at: at(minute),
            author: Some(format!("reader-{number}")),
        });
        state.posts.sort_by(|a, b| b.updated_at.cmp(&a.updated_at));
    }

    fn force(&self, status: u16, headers: &[(&str, &str)], body: &str) {
        self.state().forced.push_back((
            status,
            headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body.to_string(),
        ));
    }

    fn requests(&self) -> usize {
        self.state().requests.len()
    }
}

fn at(minute: u32) -> String {
    format!("2026-12-01T{:02}:{:02}:00Z", minute / 60, minute % 60)
}

async fn answer(
    req: Request<Incoming>,
    state: Arc<Mutex<State>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let (authorization, if_none_match) = (header("authorization"), header("if-none-match"));
    let all_headers: Vec<String> = req
        .headers()
        .iter()
        .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("")))
        .collect();
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let asked: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let after = asked["variables"]["after"].as_str().map(str::to_string);
    let first = asked["variables"]["first"].as_u64().unwrap_or(50) as usize;
    let delay = state.lock().unwrap().delay;
    tokio::time::sleep(delay).await;
    let mut s = state.lock().unwrap();
    s.requests
        .push((authorization.clone(), if_none_match.clone(), after.clone()));
    let reset = "1900000000".to_string();
    s.remaining = s.remaining.saturating_sub(1);
    let mut headers = vec![
        ("x-ratelimit-remaining".to_string(), s.remaining.to_string()),
        ("x-ratelimit-reset".to_string(), reset),
    ];
    let (status, text) = if let Some((status, extra, text)) = s.forced.pop_front() {
        headers.extend(extra);
        // `{headers}` in a forced answer echoes the request's headers, as a
        // misconfigured proxy's error page does.
        (status, text.replace("{headers}", &all_headers.join("\r\n")))
    } else if authorization.as_deref() != Some(&format!("Bearer {TOKEN}")) {
        (401, r#"{"message":"Bad credentials"}"#.to_string())
    } else {
        let etag = format!(
            "\"{}\"",
            s.posts
                .iter()
                .map(|p| format!("{}@{}", p.id, p.updated_at))
                .collect::<Vec<_>>()
                .join(",")
                .len()
                + s.posts.len()
        );
        if s.etags && after.is_none() && if_none_match.as_deref() == Some(etag.as_str()) {
            (304, String::new())
        } else {
            if s.etags && after.is_none() {
                headers.push(("etag".into(), etag));
            }
            let start = after
                .as_deref()
                .and_then(|c| c.strip_prefix("cursor:"))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            let page: Vec<serde_json::Value> = s
                .posts
                .iter()
                .skip(start)
                .take(first)
                .map(|p| {
                    serde_json::json!({
                        "id": p.id, "number": p.number, "title": p.title, "updatedAt": p.updated_at,
                        "body": p.body, "author": p.author.as_ref().map(|l| serde_json::json!({"login": l}))
                    })
                })
                .collect();
            let end = start + page.len();
            let (next, cursor) = if s.endless {
                (true, "cursor:0".to_string())
            } else {
                (end < s.posts.len(), format!("cursor:{end}"))
            };
            let listing = serde_json::json!({"data": {"repository": {"discussions": {
                "totalCount": s.posts.len(),
                "pageInfo": {"hasNextPage": next, "endCursor": cursor},
                "nodes": page
            }}}});
            (200, listing.to_string())
        }
    };
    let mut response = Response::builder()
        .status(status)
        .header("content-type", "application/json; charset=utf-8");
    for (k, v) in headers {
        response = response.header(k, v);
    }
    Ok(response.body(Full::new(Bytes::from(text))).unwrap())
}

/// A post as Reprise's share flow writes it, redacted, for a run on `cpu`.
fn shared_post(id: &str, cpu: &str, sha: &str) -> (String, ResultBlock) {
    let mut report = fixture::report(id);
    report.run.recipe_sha256 = Some(sha.to_string());
    report.run.machine = Some(MachineSummary {
        cpu: Some(cpu.to_string()),
        cores: Some(8),
        threads: Some(16),
        smt: Some(true),
        ..MachineSummary::default()
    });
    let redactor = Redactor::from_fingerprint(&report.environment.fingerprint);
    let post = prepare(&report, Some(&redactor)).unwrap();
    (post.body, ResultBlock::of(&report))
}

fn sha() -> String {
    "5e".repeat(32)
}

#[test]
fn a_second_fetch_reads_only_the_discussions_that_changed() {
    let server = StandIn::start();
    for n in 1..=120 {
        let (body, _) = shared_post(
            &format!("hello-ceiling-2026120{}-0000{n:02}", n % 9),
            "Intel Xeon",
            &sha(),
        );
        server.post(n, n as u32, &format!("Reprise: run {n}"), &body);
    }
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    let first = refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert_eq!((first.read, first.pages), (120, 3));
    assert_eq!(cache.discussions.len(), 120);
    assert_eq!(cache.total, Some(120));
    assert_eq!(cache.synced_to.as_deref(), Some(at(120).as_str()));
    assert_eq!(first.rate.map(|r| r.remaining), Some(4_997));
    cache.save(data.path()).unwrap();

    // Two discussions edited since: one page, and only they are read.
    {
        let mut s = server.state();
        for post in s
            .posts
            .iter_mut()
            .filter(|p| p.number == 7 || p.number == 80)
        {
            post.updated_at = at(200 + post.number as u32);
            post.title = format!("edited {}", post.number);
        }
        s.posts.sort_by(|a, b| b.updated_at.cmp(&a.updated_at));
    }
    let before = server.requests();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    assert_eq!(cache.discussions.len(), 120, "the cache reads back");
    let second = refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert_eq!(server.requests() - before, 1, "one page for two changes");
    assert_eq!(second.read, 2);
    assert_eq!(cache.discussions.len(), 120);
    assert_eq!(cache.discussions[0].title, "edited 80");
    assert_eq!(cache.discussions[1].title, "edited 7");
    assert!(
        server
            .state()
            .requests
            .iter()
            .all(|(auth, _, _)| auth.as_deref() == Some(&format!("Bearer {TOKEN}")))
    );
}

#[test]
fn an_unchanged_first_page_by_its_etag_ends_the_fetch_at_one_request() {
    let server = StandIn::start();
    server.state().etags = true;
    for n in 1..=60 {
        server.post(n, n as u32, "a question", "No result here.");
    }
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert!(cache.etag.is_some());
    let before = server.requests();
    let again = refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert!(again.not_modified);
    assert_eq!(server.requests() - before, 1);
    let sent = server.state().requests.last().unwrap().1.clone();
    assert_eq!(sent, cache.etag, "If-None-Match carries the ETag");
    assert_eq!(cache.discussions.len(), 60);
}

#[test]
fn a_deleted_discussion_leaves_the_cache_when_the_count_drops() {
    let server = StandIn::start();
    for n in 1..=70 {
        server.post(n, n as u32, "post", "text");
    }
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    server.state().posts.retain(|p| p.number != 3);
    let again = refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert!(again.read_again, "{again:?}");
    assert_eq!(cache.discussions.len(), 69);
    assert!(!cache.discussions.iter().any(|d| d.number == 3));
}

#[test]
fn a_post_made_by_the_share_flow_reads_back_as_its_run_redacted() {
    let (body, block) = shared_post("hello-ceiling-20261201-000001", "AMD EPYC 7763", &sha());
    assert!(!body.contains("bench-box-7") && !body.contains("alice"));
    let read_back = read(&find_block(&body)).unwrap().unwrap();
    assert_eq!(read_back.claims, block.claims);
    assert_eq!(read_back.cells, block.cells);
    assert_eq!(read_back.machine.cpu.as_deref(), Some("AMD EPYC 7763"));
    let claims: Vec<&str> = block.claims.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        standing(&read_back, "hello-ceiling", Some(&sha()), &claims),
        Standing::Counted
    );
    assert_eq!(
        standing(&read_back, "campfire-runtimes", Some(&sha()), &claims),
        Standing::OtherRecipe
    );
    assert_eq!(
        standing(&read_back, "hello-ceiling", Some(&"00".repeat(32)), &claims),
        Standing::OtherVersion {
            sha256: Some(sha()),
            reviewed_there: true
        }
    );
}

/// A block with one field of a real post's JSON replaced.
fn tampered(change: impl Fn(&mut serde_json::Value)) -> String {
    let (_, block) = shared_post("hello-ceiling-20261201-000001", "Intel Xeon", &sha());
    let mut value = serde_json::to_value(&block).unwrap();
    change(&mut value);
    format!("```reprise-result v1\n{value}\n```\n")
}

#[test]
fn hostile_posts_are_refused_with_why_and_their_text_is_escaped() {
    let refused = |body: &str| match read(&find_block(body)) {
        Some(Err(why)) => why,
        other => panic!("accepted: {other:?}\n{body}"),
    };
    let malformed = |body: &str| match refused(body) {
        Unreadable::Malformed(why) => why,
        other => panic!("{other:?}"),
    };
    assert!(
        malformed(&tampered(
            |v| v["claims"][0]["measured"]["low"] = (-5.0).into()
        ))
        .contains("out of range")
    );
    assert!(
        malformed(&tampered(|v| v["cells"][0]["median"] = 1e300.into())).contains("out of range")
    );
    assert!(
        malformed(&tampered(
            |v| v["claims"][0]["band"] = serde_json::json!([3.0, 1.0])
        ))
        .contains("low is above its high")
    );
    // JSON has no NaN, and a number past f64 is no number.
    let nan = tampered(|_| {}).replacen("\"runs\":", "\"runs\":NaN,\"x\":", 1);
    assert!(matches!(refused(&nan), Unreadable::Malformed(_)));
    let huge = tampered(|_| {}).replacen("\"estimate\":", "\"estimate\":1e999,\"y\":", 1);
    assert!(matches!(refused(&huge), Unreadable::Malformed(_)));
    assert!(
        malformed(&tampered(|v| v["recipe"] = "hello ceiling; rm -rf /".into()))
            .contains("not an id")
    );
    assert!(malformed(&tampered(|v| v["recipe_sha256"] = "abc".into())).contains("SHA-256"));
    assert!(
        malformed(&tampered(|v| v["claims"][0]["outcome"] = "proved".into()))
            .contains("unknown variant")
    );
    assert!(
        malformed(&tampered(|v| v["machine"]["cpu"] = "x".repeat(600).into()))
            .contains("longer than 500")
    );
    assert!(
        malformed(&tampered(|v| v["machine"]["threads"] = 4_000_000.into()))
            .contains("out of range")
    );
    let many = tampered(|v| {
        let cell = v["cells"][0].clone();
        v["cells"] = serde_json::Value::Array(vec![cell; 2_001]);
    });
    assert!(matches!(
        refused(&many),
        Unreadable::TooLarge | Unreadable::Malformed(_)
    ));
    assert_eq!(
        refused(&format!(
            "```reprise-result v1\n{}\n```",
            " ".repeat(70 * 1024)
        )),
        Unreadable::TooLarge
    );
    assert_eq!(refused(&"x".repeat(300 * 1024)), Unreadable::TooLarge);
    assert_eq!(
        refused(&format!("{}{}", tampered(|_| {}), tampered(|_| {}))),
        Unreadable::Several
    );
    assert_eq!(
        refused("```reprise-result v2\n{\"anything\": 1}\n```\n"),
        Unreadable::OtherSchema("v2".into())
    );
    assert!(matches!(
        find_block("```reprise-result v1\n{}"),
        Found::Unclosed
    ));
    // A claim judged twice, a cell measured twice: which one is the post's
    // cannot be said.
    assert!(
        malformed(&tampered(|v| {
            let claim = v["claims"][0].clone();
            v["claims"].as_array_mut().unwrap().push(claim);
        }))
        .contains("judged twice")
    );
    assert!(
        malformed(&tampered(|v| {
            let cell = v["cells"][0].clone();
            v["cells"].as_array_mut().unwrap().push(cell);
        }))
        .contains("measured twice")
    );

    // Text that would redraw a terminal or reorder a line reads escaped; a
    // post's HTML stays text (nothing of a post is rendered).
    let escapes = tampered(|v| {
        v["machine"]["cpu"] =
            "Intel\u{1b}[2K\u{1b}]8;;https://evil.example\u{7}Xeon\u{202e}".into();
        v["deviations"] = serde_json::json!([{"kind": "toolchain", "what": "<img src=x onerror=alert(1)>\r\nruby"}]);
    });
    let block = read(&find_block(&escapes)).unwrap().unwrap();
    let cpu = block.machine.cpu.unwrap();
    assert!(
        !cpu.contains('\u{1b}') && !cpu.contains('\u{7}') && !cpu.contains('\u{202e}'),
        "{cpu:?}"
    );
    assert!(cpu.contains("\\u{1b}[2K"), "{cpu}");
    assert_eq!(
        block.deviations[0].what,
        "<img src=x onerror=alert(1)>\\u{d}\\u{a}ruby"
    );
}

/// Posts served by the stand-in for api.github.com that quote another's
/// result — in a four-backtick fence, in a `>` quote — are not results:
/// GitHub shows the quoted block as text, and it is not the poster's run.
#[test]
fn a_result_quoted_in_a_post_is_not_read_as_the_post_s_own() {
    let server = StandIn::start();
    let (body, _) = shared_post("hello-ceiling-20261201-000001", "AMD EPYC 7763", &sha());
    let quoted = body
        .lines()
        .map(|l| format!("> {l}"))
        .collect::<Vec<_>>()
        .join("\n");
    server.post(1, 1, "Ana's run", &body);
    server.post(
        2,
        2,
        "Look at ana's",
        &format!("This is ana's:\n\n````markdown\n{body}````\n"),
    );
    server.post(
        3,
        3,
        "Quoting ana",
        &format!("Ana wrote:\n\n{quoted}\n\nNice."),
    );
    server.post(
        4,
        4,
        "Mine, and ana's",
        &format!("{quoted}\n\nMine:\n\n{body}"),
    );
    // Quoted in HTML, as GitHub renders it: a quotation, or raw text.
    server.post(
        5,
        5,
        "Quoting ana in HTML",
        &format!("Quoting ana:\n\n<blockquote>\n\n{body}\n</blockquote>"),
    );
    server.post(
        6,
        6,
        "Quoting ana in HTML, tightly",
        &format!("Quoting ana:\n<BLOCKQUOTE>\n{body}</BLOCKQUOTE>"),
    );
    server.post(
        7,
        7,
        "Ana's, preformatted",
        &format!("<pre>\n\n{body}\n</pre>"),
    );
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    let found = |number| {
        &cache
            .discussions
            .iter()
            .find(|d| d.number == number)
            .unwrap()
            .found
    };
    assert!(matches!(found(1), Found::Block { .. }));
    assert_eq!(found(2), &Found::Nothing, "in a four-backtick fence");
    assert_eq!(found(3), &Found::Nothing, "in a quote");
    for number in [5, 6, 7] {
        assert_eq!(found(number), &Found::Nothing, "in HTML: post {number}");
    }
    assert!(
        matches!(found(4), Found::Block { .. }),
        "its own, beside a quoted one: {:?}",
        found(4)
    );
}

#[test]
fn a_spent_rate_limit_stops_the_fetch_and_keeps_what_was_read_for_next_time() {
    let server = StandIn::start();
    for n in 1..=120 {
        server.post(n, n as u32, "post", "text");
    }
    server.state().remaining = 1;
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
    assert!(
        matches!(
            err,
            ShareError::RateLimited {
                reset: Some(1_900_000_000)
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("rate limit is spent"), "{err}");
    assert_eq!(cache.discussions.len(), 50, "the first page is kept");
    assert_eq!(cache.synced_to, None, "but the fetch did not finish");

    // Once the window resets, the next fetch reads everything.
    server.state().remaining = 5_000;
    let done = refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert_eq!(done.read, 70, "the 50 kept are listed, not new");
    assert_eq!(cache.discussions.len(), 120);

    // GitHub's own word for it: a 403 with none left.
    server.force(
        403,
        &[("retry-after", "60")],
        r#"{"message":"API rate limit exceeded"}"#,
    );
    let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
    assert!(matches!(err, ShareError::RateLimited { .. }), "{err:?}");
    server.force(
        200,
        &[],
        r#"{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for user ID 1."}]}"#,
    );
    let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
    assert!(matches!(err, ShareError::RateLimited { .. }), "{err:?}");
}

#[test]
fn errors_never_print_the_token_and_are_capped_and_escaped() {
    let server = StandIn::start();
    server.post(1, 1, "post", "text");
    server.force(
        500,
        &[],
        &format!(
            "upstream error\r\n{{headers}}\r\n\u{1b}[2K{}",
            "x".repeat(2_000)
        ),
    );
    server.force(
        200,
        &[],
        &serde_json::json!({"data": {"repository": null}, "errors": [{"message": format!("token {TOKEN} may not read")}]})
            .to_string(),
    );
    server.force(200, &[], &format!("<html>{TOKEN}</html>"));
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    for _ in 0..3 {
        let said = refresh(&server.github(), TOKEN, &mut cache)
            .unwrap_err()
            .to_string();
        assert!(
            !said.contains(TOKEN) && !said.contains("16C7e42F"),
            "{said}"
        );
        assert!(!said.contains('\u{1b}') && !said.contains('\r'), "{said:?}");
        assert!(said.chars().count() < 600, "{}", said.chars().count());
    }
    // The token echoed encoded (in JSON as Python writes it, `\u200b`
    // between its letters, kept as six characters; reversed; in hex): none
    // of it is printed.
    let letters: Vec<String> = TOKEN.chars().map(String::from).collect();
    let hex: String = TOKEN.bytes().map(|b| format!("{b:02x}")).collect();
    let reversed: String = TOKEN.chars().rev().collect();
    for (body, shown) in [
        (
            format!("{{\"message\": \"bad: {}\"}}", letters.join("\\u200b")),
            "answered 500: bad: [token]",
        ),
        (
            format!(
                "<pre>{{\"message\": \"bad: {}\"}}</pre>",
                letters.join("\\u200b")
            ),
            "it could carry the token]",
        ),
        (
            format!("bad: {hex}"),
            "answered 500: bad: [part of the answer withheld: it could carry the token]",
        ),
        (
            format!("bad: {reversed}"),
            "answered 500: bad: [part of the answer withheld: it could carry the token]",
        ),
    ] {
        server.force(500, &[], &body);
        let said = refresh(&server.github(), TOKEN, &mut cache)
            .unwrap_err()
            .to_string();
        assert!(said.contains(shown), "{body} → {said}");
        for piece in ["16c7e42f", "8b4a", "e7710c83", "3034326", "a4b871e"] {
            assert!(
                !said.replace("\\u200b", "").to_lowercase().contains(piece),
                "{body} → {said}"
            );
        }
    }
    let unknown = serde_json::json!({"data": {"repository": null}, "errors": [{"type": "NOT_FOUND", "message": "Could not resolve to a Repository with the name 'rubys/reprise'."}]});
    server.force(200, &[], &unknown.to_string());
    let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
    assert!(
        matches!(err, ShareError::NoRepository(ref r) if r == REPO),
        "{err:?}"
    );
    let err = refresh(
        &server.github(),
        "gho_revoked_0000000000000000000000",
        &mut cache,
    )
    .unwrap_err();
    assert!(matches!(err, ShareError::Unauthorized(_)), "{err:?}");
}

/// The stand-in for api.github.com answers each page slowly: the whole
/// fetch stops at its limit, however many pages are left, keeps what it
/// read (its watermark not moved), and says how far it got.
#[test]
fn a_slow_fetch_stops_at_its_overall_limit_and_keeps_what_it_read() {
    let server = StandIn::start();
    for n in 1..=500 {
        server.post(n, n as u32, "post", "text");
    }
    server.state().delay = Duration::from_millis(400);
    let mut github = server.github();
    github.fetch_within = Duration::from_millis(1_500);
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    let mut seen = Vec::new();
    let started = std::time::Instant::now();
    let err = refresh_with(&github, TOKEN, &mut cache, &mut |p| seen.push(p)).unwrap_err();
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2_500), "{took:?}");
    let ShareError::Stopped {
        pages,
        read,
        within,
    } = err
    else {
        panic!("{err:?}");
    };
    assert_eq!(within, Duration::from_millis(1_500));
    assert!((2..=4).contains(&pages), "{pages}");
    assert_eq!(read, pages * 50);
    assert_eq!(cache.discussions.len(), read, "what was read is kept");
    assert_eq!(cache.synced_to, None, "but the fetch did not finish");
    assert_eq!(seen.len(), pages, "progress after every page");
    assert_eq!(
        (seen[0].pages, seen[0].read, seen[0].within),
        (1, 50, Duration::from_millis(1_500))
    );
    assert!(
        err_words(pages, read).starts_with("the fetch stopped at its limit of 1500 ms after "),
        "{}",
        err_words(pages, read)
    );

    // The server is quick again: the next fetch reads the rest.
    server.state().delay = Duration::ZERO;
    let done = refresh(&github, TOKEN, &mut cache).unwrap();
    assert_eq!(done.read, 500 - read);
    assert_eq!(cache.discussions.len(), 500);
}

fn err_words(pages: usize, read: usize) -> String {
    ShareError::Stopped {
        within: Duration::from_millis(1_500),
        pages,
        read,
    }
    .to_string()
}

#[test]
fn a_server_that_always_has_another_page_is_stopped() {
    let server = StandIn::start();
    for n in 1..=3 {
        server.post(n, n as u32, "post", "text");
    }
    server.state().endless = true;
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
    assert!(matches!(err, ShareError::NoNewCursor { .. }), "{err}");
    assert!(server.requests() <= 3, "{}", server.requests());
}

#[test]
fn a_cache_that_is_not_one_is_started_again_and_one_past_its_bounds_keeps_the_newest() {
    let data = tempfile::tempdir().unwrap();
    let file = Cache::file(data.path(), REPO).unwrap();
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "{not json").unwrap();
    let cache = Cache::load(data.path(), REPO).unwrap();
    assert!(cache.discussions.is_empty() && cache.repo == REPO);
    assert!(Cache::file(data.path(), "../etc").is_err());
    assert!(Cache::file(data.path(), "owner/..").is_err());

    let mut cache = Cache::load(data.path(), REPO).unwrap();
    let block = "x".repeat(60 * 1024);
    let read: Vec<_> = (0..600u64)
        .map(|n| reprise_share::community::Discussion {
            id: format!("D_{n}"),
            number: n,
            title: String::new(),
            author: None,
            updated_at: format!("2026-12-01T00:{:02}:{:02}Z", n / 60, n % 60),
            found: Found::Block {
                version: "v1".into(),
                text: block.clone(),
            },
        })
        .collect();
    cache.merge(read);
    let kept = cache.discussions.len();
    assert!(kept < 600 && kept * block.len() <= reprise_share::community::MAX_BLOCKS);
    assert_eq!(cache.dropped, 600 - kept);
    assert_eq!(cache.discussions[0].number, 599, "the newest are kept");
}

/// A machine whose user is called `median` and whose host is called
/// `cells`: redacting them must not rename the block's fields.
#[test]
fn redacting_a_name_that_is_also_a_field_leaves_the_block_readable() {
    let mut report = fixture::report("hello-ceiling-20261201-000001");
    report.run.recipe_sha256 = Some(sha());
    report.run.machine = Some(MachineSummary {
        cpu: Some("cells median Xeon".into()),
        ..MachineSummary::default()
    });
    let mut redactor = Redactor::new();
    redactor.add_user("median");
    redactor.add_hostname("cells");
    let post = prepare(&report, Some(&redactor)).unwrap();
    let block = read(&find_block(&post.body)).unwrap().unwrap();
    assert_eq!(block.machine.cpu.as_deref(), Some("[hostname] [user] Xeon"));
    assert_eq!(block.cells.len(), report.judgement.cells.len());
    assert!(block.cells.iter().any(|c| c.median.is_some()));
}

/// A server that was sent the token may put it back in what a stranger's
/// post says: in its title, in a text of its result block, plainly or split
/// by an invisible character. Nothing of it reaches the cache.
#[test]
fn a_discussion_that_carries_the_token_is_kept_without_it() {
    let server = StandIn::start();
    let split: String = TOKEN.chars().flat_map(|c| [c, '\u{200b}']).collect();
    let (body, _) = shared_post("hello-ceiling-20261201-000001", TOKEN, &sha());
    server.post(1, 1, &format!("token {TOKEN} and {split}"), &body);
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    cache.save(data.path()).unwrap();
    let kept = serde_json::to_string(&cache).unwrap();
    let plain: String = kept.chars().filter(|c| *c != '\u{200b}').collect();
    let piece = &TOKEN[4..16];
    assert!(
        !plain.contains(piece) && !plain.to_lowercase().contains(&piece.to_lowercase()),
        "{kept}"
    );
    assert!(cache.discussions[0].title.contains("[token]"), "{kept}");
    // The block is still read: only the token in it is gone.
    match read(&cache.discussions[0].found) {
        Some(Ok(block)) => assert!(
            block
                .machine
                .cpu
                .as_deref()
                .is_some_and(|cpu| cpu.contains("[token]")),
            "{:?}",
            block.machine
        ),
        other => panic!("the block was not read: {other:?}"),
    }
}

/// An answer without the shape of GitHub's (no `discussions`, a null
/// `totalCount`, no `nodes`) is an error, and the cache keeps every
/// discussion it had: such an answer says nothing of what was deleted.
#[test]
fn an_answer_without_github_s_shape_is_an_error_and_the_cache_is_kept() {
    let server = StandIn::start();
    for n in 1..=29 {
        server.post(n, n as u32, "post", "text");
    }
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert_eq!(cache.discussions.len(), 29);
    let synced = cache.synced_to.clone();
    for body in [
        r#"{"data":{"viewer":{"login":"someone"},"repository":{}}}"#,
        r#"{"data":{"repository":{"discussions":{"totalCount":null,"pageInfo":{"hasNextPage":false},"nodes":[]}}}}"#,
        r#"{"data":{"repository":{"discussions":{"totalCount":0,"pageInfo":{"hasNextPage":false}}}}}"#,
        r#"{"data":{"repository":{"discussions":{"totalCount":0,"nodes":[]}}}}"#,
    ] {
        server.force(200, &[], body);
        let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
        assert!(
            matches!(err, ShareError::Unexpected { .. }),
            "{body}: {err:?}"
        );
        assert_eq!(cache.discussions.len(), 29, "{body}");
        assert_eq!(cache.synced_to, synced, "{body}");
    }
    // GitHub's own answer, that the repository has none left, still empties it.
    server.state().posts.clear();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert!(cache.discussions.is_empty());
}

/// `304 Not Modified` answers an `If-None-Match`: to a first fetch, which
/// sends none, it is an error, not "nothing changed".
#[test]
fn a_304_to_a_fetch_that_sent_no_etag_is_an_error() {
    let server = StandIn::start();
    server.post(1, 1, "post", "text");
    let data = tempfile::tempdir().unwrap();
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    assert!(cache.etag.is_none());
    server.force(304, &[], "");
    let err = refresh(&server.github(), TOKEN, &mut cache).unwrap_err();
    assert!(matches!(err, ShareError::Unexpected { .. }), "{err:?}");
    assert_eq!(
        server.state().requests[0].1,
        None,
        "no If-None-Match was sent"
    );
    assert!(
        cache.fetched_at.is_none(),
        "the fetch is not recorded as done"
    );
    let done = refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert!(!done.not_modified);
    assert_eq!(cache.discussions.len(), 1);
}

/// A token goes only over https (plain http only to this machine's
/// loopback), and only to the API of the web host it was signed in at: an
/// API host configured apart from its web host, or plain http to another
/// machine, is refused before anything is sent.
#[test]
fn a_token_goes_only_to_the_web_host_s_own_api_and_over_https() {
    use reprise_share::Withheld;
    let server = StandIn::start();
    server.post(1, 1, "post", "text");
    let data = tempfile::tempdir().unwrap();
    let refused = |web: &str, api: &str| {
        let mut cache = Cache::load(data.path(), REPO).unwrap();
        match refresh(&GitHub::new(web, api), TOKEN, &mut cache) {
            Err(ShareError::TokenWithheld { why, .. }) => why,
            other => panic!("{web} with {api}: {other:?}"),
        }
    };
    // The stand-in's API, with github.com as the web host: github.com's
    // token (or the GitHub CLI's for it) never reaches it.
    assert_eq!(
        refused("https://github.com", &server.base),
        Withheld::NotTheWebHostsApi
    );
    assert_eq!(
        refused("https://github.com", "https://api.example.com"),
        Withheld::NotTheWebHostsApi
    );
    assert_eq!(
        refused("https://github.com", "https://api.github.com.example.com"),
        Withheld::NotTheWebHostsApi
    );
    assert_eq!(
        refused("http://ghe.example.com", "http://ghe.example.com/api"),
        Withheld::NotHttps
    );
    assert_eq!(server.requests(), 0, "nothing was sent");
    // The web host's own API over https, and a loopback stand-in over
    // plain http, are where tokens go.
    for (web, api) in [
        ("https://github.com", "https://api.github.com"),
        ("https://GitHub.com/", "https://api.github.com/"),
        ("https://ghe.example.com", "https://ghe.example.com/api"),
        ("http://[::1]:8080", "http://[::1]:9090"),
    ] {
        assert_eq!(
            GitHub::new(web, api).token_destination().ok(),
            Some(()),
            "{web} {api}"
        );
    }
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    refresh(&server.github(), TOKEN, &mut cache).unwrap();
    assert_eq!(cache.discussions.len(), 1);
}
