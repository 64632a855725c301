//! `reprise community` as readers run it. A local HTTP server (hyper, on
//! 127.0.0.1) stands in for api.github.com: it speaks GitHub's GraphQL
//! wire format — the repository and its categories, `createDiscussion`,
//! and a repository's discussions with `totalCount`, `pageInfo { hasNextPage
//! endCursor }` (two to a page, as a server may give fewer than asked) and
//! the `x-ratelimit-*` headers — and keeps every discussion `reprise share`
//! creates, so the posts read back are the ones Reprise's share flow wrote
//! on other machines; a test adds malformed and hostile ones beside them.
//! No test talks to the internet.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};

fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Clone)]
struct Posted {
    number: u64,
    title: String,
    body: String,
    /// Empty for a deleted account's post (GitHub's `author: null`).
    author: String,
    updated_at: String,
}

#[derive(Default)]
struct State {
    discussions: Vec<Posted>,
    /// Every request: its path, Authorization and GraphQL query.
    requests: Vec<(Option<String>, String)>,
    /// Answers a test forces: status and body (`{headers}` echoes the
    /// request's headers).
    forced: VecDeque<(u16, String)>,
    remaining: u64,
    /// How long each answer takes: a slow server.
    delay: Duration,
}

type Shared = Arc<Mutex<State>>;

fn stand_in() -> (String, Shared) {
    let state: Shared = Arc::new(Mutex::new(State {
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
    (format!("http://{addr}"), state)
}

/// The account a token signs in as: `gho_cli_ana` is ana.
fn login_of(authorization: Option<&str>) -> Option<String> {
    authorization?
        .strip_prefix("Bearer gho_cli_")
        .map(str::to_string)
}

async fn answer(
    req: Request<Incoming>,
    state: Shared,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let authorization = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let echoed: Vec<String> = req
        .headers()
        .iter()
        .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("")))
        .collect();
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let asked: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let query = asked["query"].as_str().unwrap_or("").to_string();
    let variables = &asked["variables"];
    let delay = state.lock().unwrap().delay;
    tokio::time::sleep(delay).await;
    let mut s = state.lock().unwrap();
    s.requests.push((authorization.clone(), query.clone()));
    s.remaining = s.remaining.saturating_sub(1);
    let (status, text) = if let Some((status, text)) = s.forced.pop_front() {
        (status, text.replace("{headers}", &echoed.join("\r\n")))
    } else if let Some(login) = login_of(authorization.as_deref()) {
        if query.contains("createDiscussion") {
            let number = s.discussions.len() as u64 + 1;
            s.discussions.push(Posted {
                number,
                title: variables["title"].as_str().unwrap_or("").into(),
                body: variables["body"].as_str().unwrap_or("").into(),
                author: login,
                updated_at: format!("2026-12-01T06:{number:02}:00Z"),
            });
            let url = format!("https://github.com/rubys/reprise/discussions/{number}");
            (200, serde_json::json!({"data": {"createDiscussion": {"discussion": {"url": url, "number": number}}}}).to_string())
        } else if query.contains("discussionCategories") {
            (200, serde_json::json!({"data": {"repository": {"id": "R_1", "discussionCategories": {"nodes": [{"id": "DIC_1", "name": "hello-ceiling", "slug": "hello-ceiling"}]}}}}).to_string())
        } else if query.contains("discussions(") {
            // Newest-updated first; two to a page whatever was asked.
            let mut all = s.discussions.clone();
            all.sort_by(|a, b| b.updated_at.cmp(&a.updated_at));
            let start = variables["after"]
                .as_str()
                .and_then(|c| c.strip_prefix("c"))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            let page: Vec<serde_json::Value> = all
                .iter()
                .skip(start)
                .take(2)
                .map(|d| serde_json::json!({"id": format!("D_{}", d.number), "number": d.number, "title": d.title, "updatedAt": d.updated_at, "body": d.body, "author": (!d.author.is_empty()).then(|| serde_json::json!({"login": d.author}))}))
                .collect();
            let end = start + page.len();
            (
                200,
                serde_json::json!({"data": {"viewer": {"login": login}, "repository": {"discussions": {
                    "totalCount": all.len(),
                    "pageInfo": {"hasNextPage": end < all.len(), "endCursor": format!("c{end}")},
                    "nodes": page
                }}}})
                .to_string(),
            )
        } else {
            (400, r#"{"message":"Problems parsing JSON"}"#.into())
        }
    } else {
        (401, r#"{"message":"Bad credentials"}"#.into())
    };
    Ok(Response::builder()
        .status(status)
        .header("content-type", "application/json; charset=utf-8")
        .header("x-ratelimit-remaining", s.remaining.to_string())
        .header("x-ratelimit-reset", "1900000000")
        .body(Full::new(Bytes::from(text)))
        .unwrap())
}

fn reprise(data: &Path, base: &str, args: &[&str]) -> Output {
    reprise_with_env(data, base, args, &[])
}

/// [`reprise`] with `env` set besides (`GH_TOKEN`).
fn reprise_with_env(data: &Path, base: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", checkout())
        .env("REPRISE_DATA_DIR", data)
        .env("REPRISE_TOKEN_STORE", "file")
        // The stand-in is both: a token goes only to its web host's own API.
        .env("REPRISE_GITHUB_URL", base)
        .env("REPRISE_GITHUB_API_URL", base)
        .env("REPRISE_DISCUSSIONS_REPO", "rubys/reprise")
        .env_remove("REPRISE_GITHUB_CLIENT_ID")
        // Signed in only as each test says: not by the environment's token
        // or a GitHub CLI on this machine.
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .env("PATH", "/usr/bin:/bin")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn sign_in_as(data: &Path, login: &str) {
    std::fs::create_dir_all(data).unwrap();
    let token = data.join("github-token");
    std::fs::write(&token, format!("gho_cli_{login}")).unwrap();
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// A machine with `cpu` that judged hello-ceiling from these rates (three
/// runs each) with `reprise verdict`: its stored run's id.
fn judged(data: &Path, host: &str, cpu: &str, puma: u32, falcon: u32) -> String {
    let results = data.join("results");
    std::fs::create_dir_all(&results).unwrap();
    let mut lines = String::new();
    for (target, v) in [("puma", puma), ("falcon", falcon)] {
        for run in 1..=3 {
            lines.push_str(&format!("{{\"target\":\"{target}\",\"workers\":2,\"endpoint\":\"/\",\"run\":{run},\"req_sec\":{},\"socket_errors\":0}}\n", v + run * 100));
        }
    }
    std::fs::write(results.join("per-run.json"), lines).unwrap();
    std::fs::write(
        results.join("env.json"),
        format!(r#"{{"host":{{"hostname":"{host}","uname":"Linux {host} 6.1.0"}},"cpu":{{"brand":"{cpu}","physical":8,"logical":16}},"memory_mb":65536}}"#),
    )
    .unwrap();
    let out = reprise(
        data,
        "http://127.0.0.1:9",
        &["verdict", "hello-ceiling", results.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Stored as run "))
        .and_then(|l| l.split(':').next())
        .unwrap()
        .to_string()
}

/// Another machine's run, shared with `reprise share` as `login`.
fn shared_by(tmp: &Path, base: &str, login: &str, cpu: &str, puma: u32, falcon: u32) {
    let data = tmp.join(login);
    sign_in_as(&data, login);
    let run = judged(&data, &format!("box-of-{login}"), cpu, puma, falcon);
    let out = reprise(&data, base, &["share", &run, "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("Posted: https://github.com/rubys/reprise/discussions/"));
}

fn add(state: &Shared, title: &str, body: &str) {
    add_by(state, "mallory", title, body);
}

/// A discussion by `author` ("" for a deleted account), the newest; its number.
fn add_by(state: &Shared, author: &str, title: &str, body: &str) -> u64 {
    let mut s = state.lock().unwrap();
    let number = s.discussions.len() as u64 + 1;
    s.discussions.push(Posted {
        number,
        title: title.into(),
        body: body.into(),
        author: author.into(),
        updated_at: format!("2026-12-01T{:02}:{:02}:00Z", 6 + number / 60, number % 60),
    });
    number
}

/// Three machines shared their runs; three more posts are not results
/// that count; this machine judged its own.
fn everyone(tmp: &Path, base: &str, state: &Shared) -> PathBuf {
    let xeon = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
    let epyc = "AMD EPYC 7763 64-Core Processor";
    shared_by(tmp, base, "ana", xeon, 21_000, 41_000);
    shared_by(tmp, base, "ben", xeon, 30_000, 45_000);
    shared_by(tmp, base, "chen", epyc, 50_000, 100_000);
    let ana = state.lock().unwrap().discussions[0].body.clone();
    assert!(
        ana.contains("```reprise-result v1\n"),
        "the share flow writes the block"
    );
    assert!(!ana.contains("box-of-ana"), "and redacts it with the rest");
    // A stranger's copy of ana's post with a CPU name that would redraw the
    // terminal and a title of HTML; a block of another schema; a broken one.
    add(
        state,
        "<script>alert(1)</script>",
        // JSON's escapes, which a parser turns into the characters.
        &ana.replace(
            "Gold 6338",
            "Gold\\u001b[2J\\u001b]8;;https://evil.example\\u00076338",
        ),
    );
    add(
        state,
        "From the future",
        "```reprise-result v7\n{\"run\": \"soon\"}\n```\n",
    );
    add(
        state,
        "Broken",
        "```reprise-result v1\n{\"recipe\": \"hello-ceiling\", \"claims\": [\n```\n",
    );
    let mine = tmp.join("me");
    sign_in_as(&mine, "me");
    judged(&mine, "bench-box-7", epyc, 50_000, 104_000);
    mine
}

#[test]
fn community_counts_everyone_s_shared_runs_by_cpu_and_places_this_machine() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, state) = stand_in();
    let mine = everyone(tmp.path(), &base, &state);
    let before = state.lock().unwrap().requests.len();
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.starts_with("Everyone's results for hello-ceiling, from the Discussions of rubys/reprise\nFetched 6 new or changed discussions (3 pages); 6 in the cache, as of "),
        "{shown}"
    );
    assert_eq!(
        state.lock().unwrap().requests.len() - before,
        3,
        "two to a page"
    );
    assert!(
        state.lock().unwrap().requests[before..]
            .iter()
            .all(|(auth, _)| auth.as_deref() == Some("Bearer gho_cli_me"))
    );
    // mallory's copy of ana's post is another author's machine: counted.
    assert!(shown.contains("4 results counted (the newest post per author of this recipe version); 2 posts kept apart, below."), "{shown}");
    assert!(shown.contains("falcon-twice-puma (ratio): published 1.96×, accepted 1.67–2.25×\n  3 reproduced, 1 not reproduced, 0 could not say\n"), "{shown}");
    assert!(
        shown.contains("  AMD EPYC 7763 64-Core Processor"),
        "{shown}"
    );
    assert!(
        shown.contains("  This machine: reproduced, 2.08× (")
            && shown.contains("higher than 4 of 4 other machines"),
        "{shown}"
    );
    // chen's Puma and this machine's both read 50,200 req/s.
    assert!(
        shown.contains("This machine: not comparable, 50,200 req/s (49,952–50,449): higher than 3 and level with 1 of 4\n  other machines"),
        "{shown}"
    );
    assert!(
        shown.contains("Kept apart (not counted):\n  #6 Broken by mallory: malformed: "),
        "{shown}"
    );
    // The link is made from its number on the web host (the stand-in here).
    assert!(shown.contains(&format!("\n  #5 From the future by mallory: another schema (reprise-result v7; this Reprise reads v1)\n    {base}/rubys/reprise/discussions/5\n")), "{shown}");
    // Text from a post is shown escaped, never as it came.
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
        "{shown:?}"
    );
    assert!(
        shown.contains("Gold\\u{1b}[2J\\u{1b}]8;;https://evil.example\\u{7}6338"),
        "{shown}"
    );
    assert!(
        shown.contains("This machine: run hello-ceiling-"),
        "{shown}"
    );

    // A second call is cheap: one page, which reaches what the cache has.
    let before = state.lock().unwrap().requests.len();
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(state.lock().unwrap().requests.len() - before, 1);
    assert!(
        text(&out).contains("Fetched 0 new or changed discussions (1 page); 6 in the cache"),
        "{}",
        text(&out)
    );

    // For scripts: the same, as JSON.
    let out = reprise(
        &mine,
        &base,
        &["community", "hello-ceiling", "--json", "--offline"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["fetch"]["fetch"], "offline");
    assert_eq!(json["counted"], 4);
    let ratio = json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim"] == "falcon-twice-puma")
        .unwrap();
    assert_eq!(ratio["reproduced"], 3);
    assert_eq!(ratio["points"].as_array().unwrap().len(), 4);
    assert_eq!(ratio["this_machine"]["higher_than"], 4);
    assert_eq!(json["apart"][0]["why"], "malformed");
    assert_eq!(json["apart"][1]["why"], "other_schema");
}

#[test]
fn without_a_token_it_says_why_and_shows_the_cache_and_never_prints_a_token() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, state) = stand_in();
    let mine = everyone(tmp.path(), &base, &state);
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));

    // Signed out: nothing is asked, the cache is shown, and why is said.
    std::fs::remove_file(mine.join("github-token")).unwrap();
    let before = state.lock().unwrap().requests.len();
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert_eq!(state.lock().unwrap().requests.len(), before, "nothing sent");
    assert!(shown.contains("Not fetched: GitHub's GraphQL API answers only signed-in requests, even for public discussions. Showing the cache (as of "), "{shown}");
    assert!(
        shown.contains(&format!(
            "The discussions are public in a browser: {base}/rubys/reprise/discussions\n"
        )),
        "{shown}"
    );
    assert!(
        shown.contains("claim by claim: set GH_TOKEN, sign in the GitHub CLI (`gh auth login`)"),
        "{shown}"
    );

    // GH_TOKEN signs in, no OAuth app or stored token needed: the fetch
    // carries it (never printed).
    let env_token = "gho_cli_envreader_0123456789";
    let out = reprise_with_env(
        &mine,
        &base,
        &["community", "hello-ceiling"],
        &[("GH_TOKEN", env_token)],
    );
    let shown = text(&out);
    assert!(out.status.success(), "{shown}");
    assert!(!shown.contains("Not fetched"), "{shown}");
    assert!(!shown.contains(env_token), "{shown}");
    let sent = state.lock().unwrap().requests.last().cloned();
    assert_eq!(
        sent.and_then(|(authorization, _)| authorization),
        Some(format!("Bearer {env_token}")),
        "the fetch carried GH_TOKEN"
    );
    assert!(
        !mine.join("github-token").exists(),
        "an environment's token is not kept"
    );
    assert!(shown.contains("3 reproduced, 1 not reproduced"), "{shown}");

    // Nothing cached and no token: nothing to show, exit 1.
    let empty = tmp.path().join("empty");
    let out = reprise(&empty, &base, &["community", "hello-ceiling"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("nothing cached yet"), "{}", text(&out));

    // A server error that echoes the request's headers: the token is not
    // printed, the cache is shown.
    sign_in_as(&mine, "me");
    state
        .lock()
        .unwrap()
        .forced
        .push_back((500, "upstream failed\r\n{headers}\r\n\u{1b}[2K".into()));
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(shown.contains("Not fetched: "), "{shown}");
    assert!(shown.contains("answered 500"), "{shown}");
    assert!(
        !shown.contains("gho_cli_me") && !shown.contains('\u{1b}'),
        "{shown}"
    );
    assert!(shown.contains("3 reproduced, 1 not reproduced"), "{shown}");
}

#[test]
fn a_report_and_a_share_carry_the_run_s_machine_readable_result() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let run = judged(
        &data,
        "bench-box-7",
        "AMD EPYC 7763 64-Core Processor",
        50_000,
        104_000,
    );
    let out = reprise(&data, "http://127.0.0.1:9", &["report", &run]);
    assert!(out.status.success(), "{}", text(&out));
    let markdown = String::from_utf8_lossy(&out.stdout).into_owned();
    let block = markdown
        .split("```reprise-result v1\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```\n").next())
        .expect("a block");
    let json: serde_json::Value = serde_json::from_str(block).unwrap();
    assert_eq!(json["recipe"], "hello-ceiling");
    assert_eq!(json["run"], run.as_str());
    assert_eq!(json["machine"]["cpu"], "AMD EPYC 7763 64-Core Processor");
    assert_eq!(json["machine"]["threads"], 16);
    assert_eq!(json["machine"]["memory_mib"], 65_536);
    assert_eq!(json["claims"].as_array().unwrap().len(), 4);
}

/// A cache file whose `fetched_at` is past any time a fetch could have
/// been made (2^63 and more seconds) is not a cache: `--offline` says so
/// and goes on without it, and a fetch from the stand-in for GitHub then
/// starts it again.
#[test]
fn a_cache_that_says_it_was_fetched_past_the_year_9999_is_said_and_started_again() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, state) = stand_in();
    let mine = everyone(tmp.path(), &base, &state);
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    let file = mine.join("community/rubys/reprise.json");
    let mut cache: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    for at in [1u64 << 63, u64::MAX, 253_402_300_800] {
        cache["fetched_at"] = at.into();
        cache["dropped"] = u64::MAX.into();
        std::fs::write(&file, cache.to_string()).unwrap();
        for args in [
            &["community", "hello-ceiling", "--offline"][..],
            &["community", "hello-ceiling", "--offline", "--json"],
        ] {
            let out = reprise(&mine, &base, args);
            let shown = text(&out);
            assert_ne!(out.status.code(), Some(101), "{shown}");
            assert!(!shown.contains("panicked"), "{shown}");
            assert!(
                shown.contains("reprise.json says it was fetched at second")
                    && shown.contains("after the year 9999"),
                "{shown}"
            );
        }
        let out = reprise(&mine, &base, &["community", "hello-ceiling", "--offline"]);
        assert!(
            text(&out).contains("it was not read, and is started again"),
            "{}",
            text(&out)
        );
    }
    // Fetched again, it is a cache again.
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("3 reproduced, 1 not reproduced"),
        "{}",
        text(&out)
    );
    let out = reprise(&mine, &base, &["community", "hello-ceiling", "--offline"]);
    assert!(!text(&out).contains("not read"), "{}", text(&out));
}

/// The stand-in for GitHub answers each page slowly: the fetch stops at its
/// overall limit (shortened here), says how far it got, and what it read is
/// kept and shown.
#[test]
fn a_slow_fetch_stops_at_its_limit_says_so_and_keeps_what_it_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, state) = stand_in();
    let mine = everyone(tmp.path(), &base, &state);
    state.lock().unwrap().delay = Duration::from_millis(1_200);
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["community", "hello-ceiling"])
        .env("REPRISE_ROOT", checkout())
        .env("REPRISE_DATA_DIR", &mine)
        .env("REPRISE_TOKEN_STORE", "file")
        .env("REPRISE_GITHUB_URL", &base)
        .env("REPRISE_GITHUB_API_URL", &base)
        .env("REPRISE_DISCUSSIONS_REPO", "rubys/reprise")
        .env("REPRISE_FETCH_WITHIN_SECONDS", "2")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let shown = text(&out);
    assert!(
        started.elapsed() < Duration::from_millis(3_500),
        "{:?}: {shown}",
        started.elapsed()
    );
    assert!(
        shown.contains("Not fetched in full: the fetch stopped at its limit of 2 seconds after "),
        "{shown}"
    );
    assert!(shown.contains("read next time"), "{shown}");
    // What it read is in the cache.
    let out = reprise(
        &mine,
        &base,
        &["community", "hello-ceiling", "--offline", "--json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["discussions"].as_u64().unwrap() >= 2, "{json}");
}

/// The result block of a post the share flow wrote, as JSON.
fn block_of(body: &str) -> serde_json::Value {
    let block = body
        .split("```reprise-result v1\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```\n").next())
        .expect("a block");
    serde_json::from_str(block).unwrap()
}

fn fenced(block: &serde_json::Value) -> String {
    format!("```reprise-result v1\n{block}\n```\n")
}

/// Hostile posts served by the stand-in for GitHub cannot tip the tally:
/// one login's twenty posts naming twenty machines are one result, a deleted
/// account's ten copies of one post are one, a post saying `reproduced`
/// with an interval of 0.4–0.6× against the band 1.67–2.25× is kept apart
/// with why, and a stranger's copy of this machine's shared run is the
/// stranger's, not "this machine's".
#[test]
fn a_stranger_s_posts_cannot_tip_the_tally() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, state) = stand_in();
    let mine = everyone(tmp.path(), &base, &state);
    // This machine shares its run, signed in as `me`.
    let run = String::from_utf8_lossy(&reprise(&mine, &base, &["history"]).stdout)
        .split_whitespace()
        .find(|w| w.starts_with("hello-ceiling-"))
        .unwrap()
        .to_string();
    let out = reprise(&mine, &base, &["share", &run, "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    let (ana, ben, me) = {
        let s = state.lock().unwrap();
        let by = |login: &str| {
            s.discussions
                .iter()
                .find(|d| d.author == login)
                .unwrap()
                .clone()
        };
        (by("ana").body, by("ben").body, by("me"))
    };
    // lee copies this machine's post whole.
    let lee = add_by(&state, "lee", "My run", &me.body);
    for n in 0..20 {
        let mut block = block_of(&ana);
        block["machine"]["cpu"] = format!("Sybil Machine {n}").into();
        block["machine"]["memory_mib"] = (1024 * (n + 1)).into();
        add_by(&state, "sybil", &format!("Run {n}"), &fenced(&block));
    }
    for _ in 0..10 {
        add_by(&state, "", "A run", &ben);
    }
    let mut liar = block_of(&ana);
    for claim in liar["claims"].as_array_mut().unwrap() {
        if claim["id"] == "falcon-twice-puma" {
            claim["outcome"] = "reproduced".into();
            claim["measured"] = serde_json::json!({"estimate": 0.5, "low": 0.4, "high": 0.6});
        }
    }
    let liar = add_by(&state, "liar", "Reproduced!", &fenced(&liar));

    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    // ana, ben, chen, mallory, me, lee, sybil once, the deleted account once.
    assert!(
        shown.contains("8 results counted (the newest post per author of this recipe version; 28 older or repeated posts left out); 3 posts kept apart, below."),
        "{shown}"
    );
    // ben's 1.5× and its author-less copy did not hold; the rest did.
    assert!(
        shown.contains("falcon-twice-puma (ratio): published 1.96×, accepted 1.67–2.25×\n  6 reproduced, 2 not reproduced, 0 could not say\n"),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("  #{liar} Reproduced! by liar: states outcomes its own numbers do not come to: falcon-twice-puma: says reproduced, yet its interval 0.4–0.6× against this recipe's band 1.67–2.25× is not reproduced\n")),
        "{shown}"
    );
    assert!(
        shown.contains(&format!(
            "This machine: run {run} (AMD EPYC 7763 64-Core Processor), shared as #{}.",
            me.number
        )),
        "{shown}"
    );
    assert!(!shown.contains(&format!("shared as #{lee}")), "{shown}");
    let out = reprise(
        &mine,
        &base,
        &["community", "hello-ceiling", "--json", "--offline"],
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ratio = json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim"] == "falcon-twice-puma")
        .unwrap();
    let marked: Vec<u64> = ratio["points"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["this_machine"] == true)
        .map(|p| p["number"].as_u64().unwrap())
        .collect();
    assert_eq!(marked, [me.number]);
    assert_eq!(json["apart"][0]["why"], "disagrees");

    // Signed out, no post is this machine's: the login is not known.
    std::fs::remove_file(mine.join("github-token")).unwrap();
    let out = reprise(&mine, &base, &["community", "hello-ceiling"]);
    assert!(
        text(&out).contains(", not shared yet (`reprise share RUN`)"),
        "{}",
        text(&out)
    );
}
