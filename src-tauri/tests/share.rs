//! Sharing from the app against a stand-in for github.com: a real HTTP
//! server on 127.0.0.1 made by the test, speaking GitHub's device-flow and
//! GraphQL wire formats. The one fake is time: waits between polls are
//! recorded instead of slept.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};

use reprise_desktop::share::{PendingSignIn, begin_sign_in, finish_sign_in, status, submit};
use reprise_history::History;
use reprise_recipe::Catalog;
use reprise_report::RunInfo;
use reprise_session::{DataDir, Session, ShareSettings};
use reprise_share::{GitHub, TokenStore};
use serde_json::json;

type Requests = Arc<Mutex<Vec<(String, String, String)>>>;

/// Answers each request by its path; records path, authorization and body.
fn stand_in() -> (String, Requests) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let requests: Requests = Arc::default();
    let seen = requests.clone();
    let device_page = format!("{base}/login/device");
    std::thread::spawn(move || {
        for stream in listener.incoming().take(50) {
            let Ok(mut stream) = stream else { break };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            let (mut length, mut authorization) = (0, String::new());
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if header.trim().is_empty() {
                    break;
                }
                let (name, value) = header.split_once(':').unwrap_or(("", ""));
                match name.to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse().unwrap_or(0),
                    "authorization" => authorization = value.trim().to_string(),
                    _ => {}
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let body = String::from_utf8_lossy(&body).into_owned();
            let polls = {
                let mut seen = seen.lock().unwrap();
                seen.push((path.clone(), authorization, body.clone()));
                seen.iter().filter(|r| r.0 == path).count()
            };
            let answer = match path.as_str() {
                "/login/device/code" => json!({"device_code": "dc-1", "user_code": "WDJB-MJHT",
                    "verification_uri": device_page, "expires_in": 900, "interval": 5}),
                "/login/oauth/access_token" if polls == 1 => json!({"error": "authorization_pending"}),
                "/login/oauth/access_token" => json!({"access_token": "gho_test", "token_type": "bearer", "scope": "public_repo"}),
                "/graphql" if body.contains("createDiscussion") => json!({"data": {"createDiscussion":
                    {"discussion": {"url": "https://github.com/rubys/reprise/discussions/7", "number": 7}}}}),
                "/graphql" => json!({"data": {"repository": {"id": "R_1", "discussionCategories":
                    {"nodes": [{"id": "C_1", "name": "hello-ceiling", "slug": "hello-ceiling"}]}}}}),
                _ => json!({"message": "Not Found"}),
            }
            .to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    (base, requests)
}

/// A stored hello-ceiling run whose fingerprint names the host `desk-seven`.
fn seed(data: &Path) -> String {
    let checkout = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let results = tempfile::tempdir().unwrap();
    let lines: Vec<String> = [("puma", 30_000.0), ("falcon", 60_000.0)]
        .iter()
        .flat_map(|(lane, base)| {
            (1..=3).map(move |run| {
                json!({"target": lane, "workers": 2, "endpoint": "/", "run": run, "req_sec": base + f64::from(run)})
                    .to_string()
            })
        })
        .collect();
    std::fs::write(results.path().join("per-run.json"), lines.join("\n")).unwrap();
    std::fs::write(
        results.path().join("env.json"),
        json!({"host": {"hostname": "desk-seven"}}).to_string(),
    )
    .unwrap();
    let recipe = reprise_recipe::load(&checkout.join("recipes/hello-ceiling.toml")).unwrap();
    let mut history = History::open(data).unwrap();
    let id = history
        .new_id("hello-ceiling", "2026-11-30T05:00:00Z")
        .unwrap();
    let run = RunInfo::for_recipe(&recipe, &id, "2026-11-30T05:00:00Z");
    let report = reprise_session::judge::judge_results_dir(
        &recipe,
        results.path(),
        None,
        run,
        &Default::default(),
    )
    .unwrap();
    history.store(&report).unwrap();
    id
}

#[test]
fn sign_in_with_the_device_code_then_post_the_redacted_report() {
    let (base, requests) = stand_in();
    let data = tempfile::tempdir().unwrap();
    let run = seed(data.path());
    let token_file = data.path().join("github-token");
    let session = Session::new(
        Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        DataDir::new(data.path()),
        ShareSettings {
            github: GitHub::new(&base, &base),
            client_id: Some("Iv1.test".into()),
            repo: Some("rubys/reprise".into()),
            token_store: Some(TokenStore::File(token_file.clone())),
        },
    );
    let before = status(&session).unwrap();
    assert!(!before.signed_in && before.can_sign_in);
    assert_eq!(
        submit(&session, &run).unwrap_err().hint,
        "Sign in to GitHub first."
    );

    let pending = PendingSignIn::default();
    let code = begin_sign_in(&session, &pending).unwrap();
    assert_eq!(code.user_code, "WDJB-MJHT");
    assert_eq!(code.verification_uri, format!("{base}/login/device"));
    let mut waits = Vec::new();
    let kept = finish_sign_in(&session, &pending, &mut |d| waits.push(d.as_secs())).unwrap();
    assert_eq!(kept, token_file.display().to_string());
    assert_eq!(
        waits,
        [5, 5],
        "one wait before each poll, at GitHub's interval"
    );
    assert_eq!(
        std::fs::read_to_string(&token_file).unwrap().trim(),
        "gho_test"
    );
    assert!(status(&session).unwrap().signed_in);

    let posted = submit(&session, &run).unwrap();
    assert_eq!(posted.url, "https://github.com/rubys/reprise/discussions/7");
    let requests = requests.lock().unwrap();
    let (_, authorization, body) = requests
        .iter()
        .find(|r| r.0 == "/graphql" && r.2.contains("createDiscussion"))
        .unwrap();
    assert!(
        authorization.eq_ignore_ascii_case("bearer gho_test"),
        "{authorization}"
    );
    assert!(body.contains("hello-world ceilings"));
    assert!(!body.contains("desk-seven"), "the host name is redacted");
}

#[test]
fn without_an_oauth_app_sign_in_says_how_to_set_one() {
    let data = tempfile::tempdir().unwrap();
    let session = Session::new(
        Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        DataDir::new(data.path()),
        ShareSettings {
            github: GitHub::new("http://127.0.0.1:9", "http://127.0.0.1:9"),
            client_id: None,
            repo: None,
            token_store: Some(TokenStore::File(data.path().join("github-token"))),
        },
    );
    let err = begin_sign_in(&session, &PendingSignIn::default()).unwrap_err();
    assert!(err.hint.contains("REPRISE_GITHUB_CLIENT_ID"));
}
