//! `reprise share` and `reprise logout` as a reader runs them. A local
//! HTTP server (hyper, on 127.0.0.1) stands in for github.com and
//! api.github.com, speaking the device-flow and GraphQL wire formats; no
//! test talks to the internet.

use std::convert::Infallible;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every request the stand-in received: path and body.
type Log = Arc<Mutex<Vec<(String, String)>>>;

/// The stand-in for github.com: answers by path, records every request body.
fn stand_in() -> (String, Log) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let shared = log.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            while let Ok((stream, _)) = listener.accept().await {
                let log = shared.clone();
                let service = hyper::service::service_fn(move |req| answer(req, log.clone()));
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
    (format!("http://{addr}"), log)
}

async fn answer(req: Request<Incoming>, log: Log) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_string();
    let authorization = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let body = req
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let body = String::from_utf8_lossy(&body).into_owned();
    log.lock().unwrap().push((path.clone(), body.clone()));
    let text = match path.as_str() {
        // The OAuth app `Iv1.hostile` gets what a hostile server would send.
        "/login/device/code" if body.contains("client_id=Iv1.hostile") => {
            serde_json::json!({"device_code": "dc-1", "user_code": "AB\u{1b}[2J\u{1b}]8;;https://evil.example\u{7}CD\u{202e}", "verification_uri": "https://github.com/login/device\u{1b}]8;;https://evil.example\u{7}", "expires_in": 900, "interval": 1})
        }
        "/login/device/code" if body.contains("client_id=Iv1.elsewhere") => {
            serde_json::json!({"device_code": "dc-1", "user_code": "ABCD-1234", "verification_uri": "https://evil.example/login/device", "expires_in": 900, "interval": 1})
        }
        "/login/device/code" => {
            serde_json::json!({"device_code": "dc-1", "user_code": "ABCD-1234", "verification_uri": "https://github.com/login/device", "expires_in": 900, "interval": 1})
        }
        "/login/oauth/access_token" => {
            serde_json::json!({"access_token": "gho_cli", "token_type": "bearer", "scope": "public_repo"})
        }
        // As GitHub answers a token it does not know: 401, Bad credentials.
        "/graphql" if authorization.contains("revoked") => {
            return Ok(Response::builder()
                .status(401)
                .header("content-type", "application/json")
                .body(Full::new(Bytes::from(
                    r#"{"message": "Bad credentials", "documentation_url": "https://docs.github.com/graphql"}"#,
                )))
                .unwrap());
        }
        "/graphql" if body.contains("viewer { login }") && !body.contains("repository") => {
            serde_json::json!({"data": {"viewer": {"login": "octo-reader"}}})
        }
        "/graphql" if body.contains("createDiscussion") => {
            serde_json::json!({"data": {"createDiscussion": {"discussion": {"url": "https://github.com/rubys/reprise/discussions/7", "number": 7}}}})
        }
        "/graphql" => {
            serde_json::json!({"data": {"repository": {"id": "R_1", "discussionCategories": {"nodes": [{"id": "DIC_9", "name": "Reproductions", "slug": "reproductions"}]}}}})
        }
        _ => serde_json::json!({"message": "Not Found"}),
    };
    Ok(Response::builder()
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(text.to_string())))
        .unwrap())
}

fn reprise(data: &Path, base: &str, args: &[&str]) -> Output {
    reprise_with_repo(data, base, args, None)
}

/// `reprise ARGS` with its data in `data`, GitHub at the stand-in `base`,
/// the token kept in a file, and signed in only as each test says.
fn reprise_command(data: &Path, base: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reprise"));
    command
        .args(args)
        .env("REPRISE_ROOT", repo())
        .env("REPRISE_DATA_DIR", data)
        .env("REPRISE_TOKEN_STORE", "file")
        .env("REPRISE_GITHUB_URL", base)
        .env("REPRISE_GITHUB_API_URL", base)
        .env_remove("REPRISE_GITHUB_CLIENT_ID")
        .env_remove("REPRISE_DISCUSSIONS_REPO")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::null());
    command
}

/// `reprise ARGS` with `REPRISE_DISCUSSIONS_REPO` set to `env_repo` (else unset).
fn reprise_with_repo(data: &Path, base: &str, args: &[&str], env_repo: Option<&str>) -> Output {
    let mut command = reprise_command(data, base, args);
    if let Some(env_repo) = env_repo {
        command.env("REPRISE_DISCUSSIONS_REPO", env_repo);
    }
    command.output().unwrap()
}

/// `command` run with `token` pasted on its standard input.
fn pasted(command: &mut Command, token: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{token}\n").as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Judges a results directory from a machine called bench-box-7 and
/// returns the stored run's id.
fn stored_run(tmp: &Path, data: &Path, base: &str) -> String {
    let res = tmp.join("results");
    std::fs::create_dir_all(&res).unwrap();
    let mut lines = String::new();
    for (target, v) in [("puma", 21_000), ("falcon", 41_000)] {
        for run in 1..=3 {
            lines.push_str(&format!("{{\"target\":\"{target}\",\"workers\":2,\"endpoint\":\"/\",\"run\":{run},\"req_sec\":{},\"socket_errors\":0}}\n", v + run * 100));
        }
    }
    std::fs::write(res.join("per-run.json"), lines).unwrap();
    std::fs::write(
        res.join("env.json"),
        r#"{"host":{"hostname":"bench-box-7","uname":"Linux bench-box-7"},"cpu":{"brand":"Intel Xeon"},"toolchains":{"ruby":"ruby 3.1.2"}}"#,
    )
    .unwrap();
    let out = reprise(
        data,
        base,
        &["verdict", "hello-ceiling", res.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Stored as run "))
        .and_then(|l| l.split(':').next())
        .unwrap()
        .to_string()
}

#[test]
fn without_a_token_share_prints_a_prefilled_link_and_writes_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (base, log) = stand_in();
    let id = stored_run(tmp.path(), &data, &base);
    let out = reprise(&data, &base, &["share", &id, "--repo", "rubys/reprise"]);
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(shown.contains(
        "This is exactly what will be posted to rubys/reprise, category `hello-ceiling`"
    ));
    assert!(
        shown.contains(&format!(
            "{base}/rubys/reprise/discussions/new?category=hello-ceiling&title=Reprise%3A+Campfire"
        )),
        "{shown}"
    );
    assert!(!shown.contains("bench-box-7"), "the preview is redacted");
    let file = data.join("shares").join(format!("{id}.md"));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("[hostname]") && !written.contains("bench-box-7"));
    assert!(written.contains("<summary>The full report as JSON</summary>"));
    assert!(
        log.lock().unwrap().is_empty(),
        "nothing was sent without a token"
    );

    let out = reprise(&data, &base, &["share", &id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--repo OWNER/NAME"));

    let out = reprise(&data, &base, &["share", &id, "--repo", "rubys reprise"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("`rubys reprise` is not a repository: write it as OWNER/NAME"),
        "{}",
        text(&out)
    );
}

/// `--repo` over `REPRISE_DISCUSSIONS_REPO` over the repository chosen in
/// the app: a person who sets the variable for one post posts there, and
/// `reprise share` says where it posts and what chose it.
#[test]
fn share_posts_to_the_flag_then_the_environment_then_the_app_s_choice_and_says_which() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (base, _) = stand_in();
    let id = stored_run(tmp.path(), &data, &base);
    // Chosen in the app: kept in the data dir.
    std::fs::write(data.join("discussions-repo"), "chosen/in-app\n").unwrap();
    let posts_to = |args: &[&str], env_repo: Option<&str>| {
        let out = reprise_with_repo(&data, &base, args, env_repo);
        assert!(out.status.success(), "{}", text(&out));
        let shown = text(&out);
        let link = shown
            .lines()
            .find(|l| l.starts_with(&base))
            .unwrap_or_else(|| panic!("no prefilled link:\n{shown}"))
            .to_string();
        (shown, link)
    };

    let (shown, link) = posts_to(&["share", &id], None);
    assert!(
        shown.contains("Posting to chosen/in-app (chosen in the app)."),
        "{shown}"
    );
    assert!(
        link.starts_with(&format!("{base}/chosen/in-app/discussions/new?")),
        "{link}"
    );

    let (shown, link) = posts_to(&["share", &id], Some("env/for-one-post"));
    assert!(
        shown.contains("Posting to env/for-one-post (from REPRISE_DISCUSSIONS_REPO)."),
        "{shown}"
    );
    assert!(
        link.starts_with(&format!("{base}/env/for-one-post/discussions/new?")),
        "{link}"
    );
    assert!(!shown.contains("chosen/in-app"), "{shown}");

    let (shown, link) = posts_to(
        &["share", &id, "--repo", "flag/wins"],
        Some("env/for-one-post"),
    );
    assert!(
        shown.contains("Posting to flag/wins (from --repo)."),
        "{shown}"
    );
    assert!(
        link.starts_with(&format!("{base}/flag/wins/discussions/new?")),
        "{link}"
    );
}

#[test]
fn share_signs_in_keeps_the_token_in_a_private_file_posts_and_logout_forgets_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (base, log) = stand_in();
    let id = stored_run(tmp.path(), &data, &base);
    let out = reprise(
        &data,
        &base,
        &[
            "share",
            &id,
            "--repo",
            "rubys/reprise",
            "--category",
            "Reproductions",
            "--client-id",
            "Iv1.cli",
            "--yes",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.contains("open https://github.com/login/device and enter the code ABCD-1234"),
        "{shown}"
    );
    assert!(
        shown.contains("Signed in as octo-reader; the token is kept in"),
        "the device flow's token names its account: {shown}"
    );
    assert!(
        shown.contains("Posted: https://github.com/rubys/reprise/discussions/7"),
        "{shown}"
    );
    let token = data.join("github-token");
    assert_eq!(std::fs::read_to_string(&token).unwrap(), "gho_cli");
    assert_eq!(
        std::fs::read_to_string(data.join("github-login")).unwrap(),
        "octo-reader\n"
    );
    assert_eq!(
        std::fs::metadata(&token).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let posted = log
        .lock()
        .unwrap()
        .iter()
        .find(|(p, b)| p == "/graphql" && b.contains("createDiscussion"))
        .map(|(_, b)| b.clone())
        .expect("a discussion was created");
    let sent: serde_json::Value = serde_json::from_str(&posted).unwrap();
    assert_eq!(sent["variables"]["categoryId"], "DIC_9");
    assert!(!posted.contains("bench-box-7"));

    let out = reprise(&data, &base, &["logout"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(&format!(
            "Signed out: the token is gone from {}.",
            token.display()
        )),
        "{}",
        text(&out)
    );
    assert!(!token.exists());
    // The account it named is forgotten with it.
    assert!(!data.join("github-login").exists());
    // The keyring is cleared (or said to be out of reach) too, though the
    // file was the store chosen.
    let out = reprise(&data, &base, &["logout"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("the OS keyring"), "{}", text(&out));
}

#[test]
fn a_token_file_others_can_read_is_refused_and_nothing_is_posted() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (base, log) = stand_in();
    let id = stored_run(tmp.path(), &data, &base);
    let token = data.join("github-token");
    std::fs::write(&token, "gho_loose").unwrap();
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = reprise(
        &data,
        &base,
        &["share", &id, "--repo", "rubys/reprise", "--yes"],
    );
    assert!(!out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.contains(&format!("chmod 600 {}", token.display())),
        "{shown}"
    );
    assert!(!shown.contains("gho_loose"), "{shown}");
    assert!(log.lock().unwrap().is_empty(), "nothing was sent");
}

/// Shared by root (`sudo reprise share`): the name, host and paths to hide
/// are the ones the run recorded, not the sharing process's.
#[test]
fn sharing_as_another_user_still_redacts_the_run_s_user_host_and_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (base, _) = stand_in();
    let res = tmp.path().join("results");
    std::fs::create_dir_all(&res).unwrap();
    let mut lines = String::new();
    for (target, v) in [("puma", 21_000), ("falcon", 41_000)] {
        for run in 1..=3 {
            lines.push_str(&format!("{{\"target\":\"{target}\",\"workers\":2,\"endpoint\":\"/\",\"run\":{run},\"req_sec\":{},\"socket_errors\":0}}\n", v + run * 100));
        }
    }
    std::fs::write(res.join("per-run.json"), lines).unwrap();
    std::fs::write(
        res.join("env.json"),
        r#"{"host":{"hostname":"Bench-Box-7.corp.example.com","uname":"Linux bench-box-7 6.1.0","user":"alice"},
            "toolchain_paths":{"ruby":"/home/alice/.rbenv/versions/3.1.2/bin/ruby"},
            "git":{"remote":"https://alice:ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/alice/roundhouse.git"},
            "cpu":{"brand":"Intel Xeon"},"toolchains":{"ruby":"ruby 3.1.2"}}"#,
    )
    .unwrap();
    let out = reprise(
        &data,
        &base,
        &["verdict", "hello-ceiling", res.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out));
    let id = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Stored as run "))
        .and_then(|l| l.split(':').next())
        .unwrap()
        .to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["share", &id, "--repo", "rubys/reprise"])
        .env("REPRISE_ROOT", repo())
        .env("REPRISE_DATA_DIR", &data)
        .env("REPRISE_TOKEN_STORE", "file")
        .env("REPRISE_GITHUB_URL", &base)
        .env("REPRISE_GITHUB_API_URL", &base)
        .env_remove("REPRISE_GITHUB_CLIENT_ID")
        .env_remove("REPRISE_DISCUSSIONS_REPO")
        .env_remove("SUDO_USER")
        .env("USER", "root")
        .env("LOGNAME", "root")
        .env("HOME", "/root")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    for leak in [
        "alice",
        "bench-box-7",
        "Bench-Box-7",
        "corp.example.com",
        "ghp_",
        "/home/",
    ] {
        assert!(!shown.contains(leak), "{leak} leaked:\n{shown}");
    }
}

/// The stand-in for github.com answers the device-code request as a hostile
/// server would: what reaches the terminal is escaped, and a sign-in page
/// that is not GitHub's is refused, not shown.
#[test]
fn a_hostile_device_code_answer_reaches_the_terminal_escaped_or_not_at_all() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (base, _) = stand_in();
    let id = stored_run(tmp.path(), &data, &base);
    let share = |client_id: &str| {
        reprise(
            &data,
            &base,
            &[
                "share",
                &id,
                "--repo",
                "rubys/reprise",
                "--client-id",
                client_id,
            ],
        )
    };
    let shown = text(&share("Iv1.hostile"));
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}') && !shown.contains('\u{202e}'),
        "{shown:?}"
    );
    assert!(
        shown.contains(
            "enter the code AB\\u{1b}[2J\\u{1b}]8;;https://evil.example\\u{7}CD\\u{202e}"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("open https://github.com/login/device%1B]8;;https://evil.example and"),
        "{shown}"
    );

    std::fs::remove_file(data.join("github-token")).unwrap();
    let shown = text(&share("Iv1.elsewhere"));
    assert!(!shown.contains("To sign in, open"), "{shown}");
    assert!(
        shown.contains("the sign-in page it gave is not a page of https://github.com"),
        "{shown}"
    );
}

#[test]
fn a_pasted_token_is_checked_kept_in_a_private_file_and_never_printed() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, _log) = stand_in();
    let data = tmp.path().join("data");
    let id = stored_run(tmp.path(), &data, &base);
    let paste = |token: &str| {
        let share = ["share", &id, "--repo", "rubys/reprise", "--token-stdin"];
        pasted(&mut reprise_command(&data, &base, &share), token)
    };
    // Not a token: refused with what to do, nothing kept.
    let out = paste("my password");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("not a GitHub token"), "{}", text(&out));
    assert!(!data.join("github-token").exists());
    // A token GitHub refuses (mistyped, expired, revoked, made up): refused
    // with what GitHub said, nothing kept.
    let out = paste("ghp_revokedToken0123456789abcdefghijklmn");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("GitHub refused the token (401: Bad credentials)"),
        "{}",
        text(&out)
    );
    assert!(!text(&out).contains("revokedToken"), "{}", text(&out));
    assert!(!data.join("github-token").exists());
    // A token: kept (only its owner may read it), its account named, said
    // where, never printed.
    let token = "ghp_pastedToken0123456789abcdefghijklmn";
    let out = paste(token);
    let said = text(&out);
    assert!(
        said.contains("The token signs in as octo-reader; it is kept in"),
        "{said}"
    );
    assert!(
        said.contains("Signed in to GitHub with the token kept at sign-in."),
        "{said}"
    );
    assert!(!said.contains(token), "{said}");
    let kept = data.join("github-token");
    assert_eq!(std::fs::read_to_string(&kept).unwrap().trim(), token);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&kept).unwrap().permissions().mode() & 0o077,
        0
    );
}

/// A session bus and GNOME's keyring daemon of this test's own (HOME and
/// the bus in its folder), the login keyring unlocked: the Secret Service
/// a reader's desktop session has. Both end with it.
struct SecretService {
    bus: std::process::Child,
    keyring: std::process::Child,
    address: String,
    home: PathBuf,
}

impl SecretService {
    fn start(dir: &Path) -> SecretService {
        let home = dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let mut bus = Command::new("dbus-daemon")
            .args([
                "--config-file=/usr/share/dbus-1/session.conf",
                "--nofork",
                "--print-address=1",
            ])
            .arg(format!("--address=unix:path={}", dir.join("bus").display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon (the test command installs dbus)");
        let mut address = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(bus.stdout.take().unwrap()),
            &mut address,
        )
        .unwrap();
        let address = address.trim().to_string();
        let mut keyring = Command::new("gnome-keyring-daemon")
            .args(["--foreground", "--unlock", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("HOME", &home)
            .env("XDG_RUNTIME_DIR", dir)
            .env("XDG_DATA_HOME", home.join("data"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("gnome-keyring-daemon (the test command installs gnome-keyring)");
        // The login keyring's password, then end of input: it is unlocked.
        {
            use std::io::Write;
            let mut stdin = keyring.stdin.take().unwrap();
            stdin.write_all(b"reprise-test").unwrap();
        }
        let service = SecretService {
            bus,
            keyring,
            address,
            home,
        };
        // Answering once its name is on the bus.
        for _ in 0..100 {
            if service.answers() {
                return service;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the Secret Service did not answer on {}", service.address);
    }

    fn env(&self, command: &mut Command) {
        command
            .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .env("HOME", &self.home)
            .env("XDG_DATA_HOME", self.home.join("data"));
    }

    /// secret-tool's lookup of Reprise's entry.
    fn lookup(&self) -> Output {
        let mut command = Command::new("secret-tool");
        command.args(["lookup", "service", "reprise", "username", "github"]);
        self.env(&mut command);
        command
            .output()
            .expect("secret-tool (the test command installs libsecret-tools)")
    }

    /// What the Secret Service keeps for Reprise ("" for nothing).
    fn stored(&self) -> String {
        String::from_utf8_lossy(&self.lookup().stdout)
            .trim()
            .to_string()
    }

    /// Whether the keyring daemon owns its name on the bus.
    fn answers(&self) -> bool {
        let mut command = Command::new("dbus-send");
        command.args([
            "--session",
            "--print-reply",
            "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner",
            "string:org.freedesktop.secrets",
        ]);
        self.env(&mut command);
        command
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("boolean true"))
    }
}

impl Drop for SecretService {
    fn drop(&mut self) {
        for child in [&mut self.keyring, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn a_pasted_token_is_kept_in_the_secret_service_and_logout_removes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, _log) = stand_in();
    let data = tmp.path().join("data");
    let id = stored_run(tmp.path(), &data, &base);
    let secrets = SecretService::start(tmp.path());
    assert_eq!(secrets.stored(), "", "nothing is kept before sign-in");
    // No token store asked for: the Secret Service, where there is one.
    let reprise_here = |args: &[&str]| {
        let mut command = reprise_command(&data, &base, args);
        command.env_remove("REPRISE_TOKEN_STORE");
        secrets.env(&mut command);
        command
    };
    let token = "ghp_keyringToken0123456789abcdefghijklm";
    let share = ["share", &id, "--repo", "rubys/reprise", "--token-stdin"];
    let out = pasted(&mut reprise_here(&share), token);
    let said = text(&out);
    assert!(
        said.contains("The token signs in as octo-reader; it is kept in the OS keyring"),
        "{said}"
    );
    assert!(!said.contains(token), "{said}");
    // In the Secret Service, as another program reads it, and in no file.
    assert_eq!(secrets.stored(), token);
    assert!(!data.join("github-token").exists());

    let out = reprise_here(&["logout"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("the token is gone from the OS keyring"),
        "{}",
        text(&out)
    );
    assert_eq!(secrets.stored(), "");
}
