//! Sharing from the app against a stand-in for github.com: a real HTTP
//! server on 127.0.0.1 made by the test, speaking GitHub's device-flow and
//! GraphQL wire formats. The one fake is time: waits between polls are
//! recorded instead of slept.

#[path = "../../crates/session/tests/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};

use reprise_desktop::app_state::AppState;
use reprise_desktop::commands::{
    finish_sign_in, share_choose_repo, share_preview, share_save, share_sign_in, share_status,
    share_submit,
};
use reprise_recipe::Catalog;
use reprise_session::share::RepoFrom;
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
    seed_with(data, json!({"host": {"hostname": "desk-seven"}}))
}

/// A stored hello-ceiling run whose `env.json` is `env`.
fn seed_with(data: &Path, env: serde_json::Value) -> String {
    let lines: Vec<String> = [("puma", 30_000.0), ("falcon", 60_000.0)]
        .iter()
        .flat_map(|(lane, base)| {
            (1..=3).map(move |run| {
                json!({"target": lane, "workers": 2, "endpoint": "/", "run": run, "req_sec": base + f64::from(run)})
                    .to_string()
            })
        })
        .collect();
    support::store_results_dir(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        data,
        &[
            ("per-run.json", lines.join("\n")),
            ("env.json", env.to_string()),
        ],
    )
}

#[test]
fn sign_in_with_the_device_code_then_post_the_redacted_report() {
    let (base, requests) = stand_in();
    let data = tempfile::tempdir().unwrap();
    let run = seed(data.path());
    let token_file = data.path().join("github-token");
    let app = AppState::new(Session::new(
        Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        DataDir::new(data.path()),
        ShareSettings {
            github: GitHub::new(&base, &base),
            client_id: Some("Iv1.test".into()),
            repo: Some("rubys/reprise".into()),
            token_store: Some(TokenStore::File(token_file.clone())),
            env_token: None,
            ask_gh: false,
        },
    ));
    let before = share_status(&app).unwrap();
    assert!(!before.signed_in && before.can_sign_in);
    assert_eq!(
        share_submit(&app, run.clone()).unwrap_err().hint,
        "Paste a GitHub token, sign in the GitHub CLI (gh auth login), or set GH_TOKEN and restart the app."
    );

    let code = share_sign_in(&app).unwrap();
    assert_eq!(code.user_code, "WDJB-MJHT");
    assert_eq!(code.verification_uri, format!("{base}/login/device"));
    let mut waits = Vec::new();
    let kept = finish_sign_in(&app, &mut |d| waits.push(d.as_secs())).unwrap();
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
    assert!(share_status(&app).unwrap().signed_in);

    let posted = share_submit(&app, run.clone()).unwrap();
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
    let app = AppState::new(Session::new(
        Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        DataDir::new(data.path()),
        ShareSettings {
            github: GitHub::new("http://127.0.0.1:9", "http://127.0.0.1:9"),
            client_id: None,
            repo: None,
            token_store: Some(TokenStore::File(data.path().join("github-token"))),
            env_token: None,
            ask_gh: false,
        },
    ));
    let err = share_sign_in(&app).unwrap_err();
    assert!(err.hint.contains("REPRISE_GITHUB_CLIENT_ID"));
}

fn app_at(data: &Path, base: &str, client_id: Option<&str>, repo: Option<&str>) -> AppState {
    AppState::new(Session::new(
        Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        DataDir::new(data),
        ShareSettings {
            github: GitHub::new(base, base),
            client_id: client_id.map(str::to_string),
            repo: repo.map(str::to_string),
            token_store: Some(TokenStore::File(data.join("github-token"))),
            env_token: None,
            ask_gh: false,
        },
    ))
}

#[test]
fn a_repository_chosen_in_the_app_is_checked_kept_and_names_the_prefilled_link() {
    let (base, requests) = stand_in();
    let data = tempfile::tempdir().unwrap();
    let run = seed(data.path());
    let app = app_at(data.path(), &base, None, None);
    assert_eq!(share_status(&app).unwrap().repo, None);
    assert_eq!(
        share_preview(&app, run.clone()).unwrap().prefilled_url,
        None
    );

    for bad in [
        "not a repository",
        "rubys",
        "-rubys/reprise",
        "rubys/..",
        "rubys/re prise",
        "a/b/c",
    ] {
        let err = share_choose_repo(&app, bad.into()).unwrap_err();
        assert!(
            err.message
                .contains("is not a repository: write it as OWNER/NAME"),
            "{bad}: {}",
            err.message
        );
        assert!(err.hint.contains("owner/name"), "{}", err.hint);
    }
    assert_eq!(
        share_status(&app).unwrap().repo,
        None,
        "nothing bad is kept"
    );

    let chosen = share_choose_repo(&app, " rubys/reprise ".into()).unwrap();
    assert_eq!(chosen.repo.as_deref(), Some("rubys/reprise"));
    let link = share_preview(&app, run.clone())
        .unwrap()
        .prefilled_url
        .unwrap();
    assert!(
        link.starts_with(&format!(
            "{base}/rubys/reprise/discussions/new?category=hello-ceiling&title=Reprise"
        )),
        "{link}"
    );
    // Kept in the data dir: the next start of the app has it; a repository
    // REPRISE_DISCUSSIONS_REPO names (for one post) goes first.
    let again = share_status(&app_at(data.path(), &base, None, None)).unwrap();
    assert_eq!(again.repo.as_deref(), Some("rubys/reprise"));
    assert_eq!(again.repo_from, Some(RepoFrom::Chosen));
    // ... and the page says it, and offers no choice that would not count.
    let named = share_status(&app_at(data.path(), &base, None, Some("someone/else"))).unwrap();
    assert_eq!(named.repo.as_deref(), Some("someone/else"));
    assert_eq!(named.repo_from, Some(RepoFrom::Environment));
    assert!(requests.lock().unwrap().is_empty(), "nothing was sent");
}

#[test]
fn nothing_shown_copied_saved_or_posted_names_the_host_or_the_user() {
    let (base, requests) = stand_in();
    let data = tempfile::tempdir().unwrap();
    let run = seed_with(
        data.path(),
        json!({"host": {"hostname": "desk-seven", "user": "reader-ann", "home": "/home/reader-ann"}}),
    );
    let token = data.path().join("github-token");
    std::fs::write(&token, "gho_test\n").unwrap();
    std::fs::set_permissions(&token, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let app = app_at(data.path(), &base, None, Some("rubys/reprise"));
    let leaks = |what: &str, text: &str| {
        for name in ["desk-seven", "reader-ann"] {
            assert!(!text.contains(name), "{what} names {name}: {text}");
        }
    };

    let shown = share_preview(&app, run.clone()).unwrap();
    let p = &shown;
    assert!(
        p.redacted_names.iter().any(|n| n == "desk-seven")
            && p.redacted_names.iter().any(|n| n == "reader-ann"),
        "{:?}",
        p.redacted_names
    );
    leaks("the title", &p.title);
    leaks("the Markdown", &p.body);
    leaks("the link", p.prefilled_url.as_deref().unwrap());
    // The rendered preview is the report crate's HTML page: no scripts.
    assert!(p.html.contains("<h1>Reprise: "), "{}", p.html);
    assert!(!p.html.to_ascii_lowercase().contains("<script"));
    leaks("the rendered preview", &p.html);

    let saved = share_save(&app, run.clone()).unwrap();
    assert_eq!(
        Path::new(&saved),
        data.path().join("shares").join(format!("{run}.md"))
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    // Copy gives the preview's Markdown: the title, a blank line, the body;
    // the file holds the same text.
    assert_eq!(shown.markdown, format!("{}\n\n{}", p.title, p.body));
    assert_eq!(text, shown.markdown, "the file holds what Copy gives");
    leaks("the Markdown Copy gives", &shown.markdown);
    leaks("the saved report", &text);

    share_submit(&app, run.clone()).unwrap();
    let requests = requests.lock().unwrap();
    let (_, _, body) = requests
        .iter()
        .find(|r| r.0 == "/graphql" && r.2.contains("createDiscussion"))
        .unwrap();
    assert!(body.contains("hello-world ceilings"));
    leaks("the post", body);
}
