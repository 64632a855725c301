//! A signed-in guided run end to end: a Campfire-like Rack app under
//! Debian's puma (sign-in form, session cookie, a room page with the CSRF
//! token and ids, a POST that needs both), then sign_in → check → load. The
//! password and the cookie appear in no event, log or results file.

mod support;

use reprise_engine::PlanOptions;
use support::{execute, execute_planned, free_port, log_lines, read_json, setup};

const PASSWORD: &str = "pw-do-not-leak-77";
const COOKIE_VALUE: &str = "SECRET-cookie-4242";

fn recipe(port: u16) -> String {
    format!(
        r#"
[post]
id = "signed"
title = "Signed"
author = "Test"
date = "2026"
summary = "Signed-in pages."

[[file]]
path = "app/config.ru"
why = "A Campfire-shaped app: sign-in, a room page, a POST guarded by the CSRF token."
content = '''
PAGE = '<html><head><meta name="csrf-token" content="csrf-9"></head><body><a href="/rooms/7">a</a><a href="/rooms/9">b</a></body></html>'
run lambda {{ |env|
  req = Rack::Request.new(env)
  signed = req.cookies["session_token"] == "{COOKIE_VALUE}"
  case [req.request_method, req.path_info]
  when ["GET", "/up"] then [200, {{}}, ["up"]]
  when ["GET", "/session/new"]
    [200, {{"content-type" => "text/html"}}, ['<form><input type="hidden" name="authenticity_token" value="form-token-1"></form>']]
  when ["POST", "/session"]
    p = req.POST
    if p["authenticity_token"] == "form-token-1" && p["email_address"] == "user1@example.com" && p["password"] == "{PASSWORD}"
      [302, {{"location" => "/", "set-cookie" => "session_token={COOKIE_VALUE}; path=/; HttpOnly"}}, []]
    else
      [302, {{"location" => "/session/new"}}, []]
    end
  when ["GET", "/"] then [302, {{"location" => signed ? "/rooms/7" : "/session/new"}}, []]
  when ["GET", "/rooms/7"] then signed ? [200, {{"content-type" => "text/html"}}, [PAGE]] : [302, {{"location" => "/session/new"}}, []]
  when ["POST", "/rooms/9/messages"]
    signed && env["HTTP_X_CSRF_TOKEN"] == "csrf-9" ? [201, {{}}, ["<turbo-stream></turbo-stream>"]] : [422, {{}}, ["refused"]]
  else [404, {{}}, ["not found"]]
  end
}}
'''

[[toolchain]]
name = "ruby"
version = "4.0.5"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'
why = "Runs the app; Debian's is older, which the run records as a deviation."

[[lane]]
name = "app"
runtime = "ruby"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "2:2", "config.ru"]
dir = "files/app"
port = {port}
health = "/up"
boot_budget = "30s"
why = "The app."

[[workload]]
name = "rooms"
connections = 2
duration = "1s"
runs = 1

[[workload.endpoint]]
name = "/rooms/:id"
path = "/rooms/{{first}}"
expect = {{ status = 200, tags = 6 }}

[[workload.endpoint]]
name = "POST /rooms/:id/messages"
method = "POST"
path = "/rooms/{{second}}/messages"
body = "message[body]=hello"
headers = {{ Accept = "text/vnd.turbo-stream.html" }}
expect = {{ status = 201 }}

[[step]]
id = "serve"
kind = "serve"
why = "Boot."

[[step]]
id = "sign-in"
kind = "sign_in"
email = "user1@example.com"
password = "{PASSWORD}"
after = ["serve"]
why = "Sign in."

[[step]]
id = "check"
kind = "check"
workload = "rooms"
after = ["sign-in"]
why = "Parity."

[[step]]
id = "load"
kind = "load"
workload = "rooms"
after = ["check"]
why = "Measure."
"#
    )
}

fn files_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn the_session_reaches_check_and_load_and_no_secret_is_written() {
    let s = setup("signed", &recipe(free_port()));
    let a = execute(&s, None, true, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(
        a.report.finished,
        ["serve", "sign-in", "check", "load"],
        "{lines:#?}"
    );

    let check = read_json(&a.run.results().join("check.json"));
    let statuses: Vec<u64> = check
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 201], "{check}");
    let per_run = std::fs::read_to_string(a.run.results().join("per-run.json")).unwrap();
    assert_eq!(per_run.matches("\"req_sec\":").count(), 2);
    let rich = read_json(&a.run.results().join("results.json"));
    // A cell with no number says why in the record (its `no_data`, its
    // errors): shown whole where one has none.
    assert!(
        !per_run.contains("\"req_sec\":null"),
        "{per_run}\n{:#}\n{lines:#?}",
        rich["cells"]
    );
    assert_eq!(rich["quick"], true);
    // The lane's cgroup counted the CPU its server used during each cell.
    for cell in rich["cells"].as_array().unwrap() {
        let cpu = cell["server_cpu"]["cpu_s"].as_f64();
        assert!(cpu.is_some_and(|s| s > 0.0), "{cell}");
    }

    // The toolchain that differs from the post's is a deviation of the run.
    let deviations =
        || std::fs::read_to_string(a.run.results().join(reprise_engine::DEVIATIONS_FILE)).unwrap();
    assert!(
        deviations().contains("instead of 4.0.5"),
        "{}",
        deviations()
    );

    // A second attempt keeps every step: nothing after the sign-in runs,
    // so no session is needed; what the kept steps stood on still holds.
    let again = execute(&s, Some(a.run.clone()), true, &|_| {});
    assert!(
        again.report.finished.is_empty(),
        "{:#?}",
        log_lines(&again.events)
    );
    assert_eq!(again.report.reused, ["serve", "sign-in", "check", "load"]);
    assert!(
        deviations().contains("instead of 4.0.5"),
        "{}",
        deviations()
    );

    // Measuring again needs a session, which was never written anywhere to
    // be kept: the sign-in runs again, the check stays kept.
    let from_load = PlanOptions {
        from: Some("load".into()),
        ..PlanOptions::default()
    };
    let third = execute_planned(&s, &from_load, Some(a.run.clone()), true, &|_| {});
    assert_eq!(
        third.report.finished,
        ["sign-in", "load"],
        "{:#?}",
        log_lines(&third.events)
    );
    assert_eq!(third.report.reused, ["serve", "check"]);
    let said = serde_json::to_string(&third.events).unwrap();
    assert!(
        said.contains("runs again: `load` runs and needs a session"),
        "{said}"
    );

    let events = serde_json::to_string(&a.events).unwrap();
    let mut files = Vec::new();
    files_under(&a.run.logs(), &mut files);
    files_under(&a.run.results(), &mut files);
    files.push(a.run.state_file());
    assert!(files.len() > 5);
    for (what, text) in
        std::iter::once(("events".to_string(), events)).chain(files.iter().map(|f| {
            (
                f.display().to_string(),
                String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned(),
            )
        }))
    {
        assert!(!text.contains(PASSWORD), "the password is in {what}");
        assert!(!text.contains(COOKIE_VALUE), "the cookie is in {what}");
    }
}

/// A signed-in page whose stylesheet and avatar links carry terminal
/// escapes (erase the line, a carriage return, an OSC 8 hyperlink).
fn hostile_recipe(port: u16) -> String {
    format!(
        r#"
[post]
id = "hostile-page"
title = "Hostile page"
author = "Test"
date = "2026"
summary = "A served page that tries to redraw the reader's terminal."

[[file]]
path = "app/config.ru"
why = "Signs in, then serves a page whose links hold escape sequences."
content = '''
PAGE = "<html><head><link rel=\"stylesheet\" href=\"/assets/app\e[2K\rFAKE.css\"></head><body><a href=\"/rooms/7\">a</a><img src=\"/users/1/avatar\e]8;;https://evil.example\a\"></body></html>"
run lambda {{ |env|
  req = Rack::Request.new(env)
  signed = req.cookies["session_token"] == "ok"
  case [req.request_method, req.path_info]
  when ["GET", "/up"] then [200, {{}}, ["up"]]
  when ["GET", "/session/new"] then [200, {{"content-type" => "text/html"}}, ["<form></form>"]]
  when ["POST", "/session"] then [302, {{"location" => "/", "set-cookie" => "session_token=ok; path=/"}}, []]
  when ["GET", "/"] then [302, {{"location" => signed ? "/rooms/7" : "/session/new"}}, []]
  when ["GET", "/rooms/7"] then [200, {{"content-type" => "text/html"}}, [PAGE]]
  else [404, {{}}, ["not found"]]
  end
}}
'''

[[lane]]
name = "app"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "2:2", "config.ru"]
dir = "files/app"
port = {port}
health = "/up"
boot_budget = "30s"
why = "The app."

[[workload]]
name = "pages"
connections = 1
duration = "1s"
runs = 1

[[workload.endpoint]]
name = "stylesheet"
path = "{{stylesheet}}"
expect = {{ status = 200 }}

[[step]]
id = "serve"
kind = "serve"
why = "Boot."

[[step]]
id = "sign-in"
kind = "sign_in"
email = "user1@example.com"
password = "pw"
flow = "header"
after = ["serve"]
why = "Sign in."

[[step]]
id = "check"
kind = "check"
workload = "pages"
after = ["sign-in"]
why = "Parity."
"#
    )
}

#[test]
fn what_a_served_page_holds_is_shown_escaped_never_raw() {
    let s = setup("hostile-page", &hostile_recipe(free_port()));
    let a = execute(&s, None, true, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "sign-in"], "{lines:#?}");
    assert_eq!(a.report.failed, ["check"], "{lines:#?}");
    let mut said: Vec<String> = lines;
    for e in &a.events {
        if let reprise_engine::Event::Failed { reason, .. } = e {
            said.push(reason.clone());
        }
    }
    let check = std::fs::read_to_string(a.run.results().join("check.json")).unwrap();
    let check: serde_json::Value = serde_json::from_str(&check).unwrap();
    said.extend(
        check
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["error"].as_str().map(str::to_string)),
    );
    let skipped = read_json(&a.run.results().join("skipped.json"));
    said.extend(
        skipped
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["reason"].as_str().map(str::to_string)),
    );
    for line in &said {
        assert!(
            !line.contains(['\u{1b}', '\r', '\u{7}']),
            "a raw escape reached the reader: {line:?}"
        );
    }
    let offered = said
        .iter()
        .find(|l| l.contains("signed in as"))
        .expect("the sign-in line");
    assert!(
        offered.contains(r"{stylesheet} = /assets/app\u{1b}[2K\u{d}FAKE.css"),
        "{offered}"
    );
    assert!(
        said.iter().any(
            |l| l.contains(r"/assets/app\u{1b}[2K\u{d}FAKE.css") && l.contains("is not a path")
        ),
        "the check's error names the path, escaped: {said:#?}"
    );
}
