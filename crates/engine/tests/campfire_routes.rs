//! A lane is measured as the posts' harness measures Campfire's routes
//! (rubys/roundhouse `scripts/bench-campfire` at 004fe64f), against a
//! Campfire-shaped Rack app under Debian's Puma that behaves as the emitted
//! Campfire and Campfire's main do:
//!
//! - its `/up` answers 500 (the emitted tree at Roundhouse fda6906d): the
//!   harness waits for any answer but 502/503, so the lane is up;
//! - a bare `/users/1/avatar` is 404 (avatar URLs are signed): that route's
//!   cells are no data, saying why, and the lane's other routes are measured;
//! - a POST is accepted on its origin headers alone (`Sec-Fetch-Site:
//!   same-origin`, `Origin`), as Campfire's main checks CSRF: a POST with
//!   only `X-CSRF-Token` is a 422;
//!
//! and its server is started with jemalloc preloaded, as the harness starts
//! the emitted CRuby lanes, where this machine has it (scripts/test
//! installs Debian's libjemalloc2): what the server mapped is recorded.

mod support;

use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(port: u16) -> String {
    format!(
        r#"
[post]
id = "routes"
title = "Routes"
author = "Test"
date = "2026"
summary = "Campfire's routes, as the harness measures them."

[[file]]
path = "app/config.ru"
why = "A Campfire-shaped app."
content = '''
PAGE = '<html><head><meta name="csrf-token" content="csrf-9"></head><body><a href="/rooms/7">a</a><a href="/rooms/9">b</a><img src="/users/3-sig/avatar"></body></html>'
run lambda {{ |env|
  req = Rack::Request.new(env)
  signed = req.cookies["session_token"] == "ok"
  case [req.request_method, req.path_info]
  when ["GET", "/up"] then [500, {{}}, ["the health controller is not emitted"]]
  when ["GET", "/session/new"] then [200, {{"content-type" => "text/html"}}, ["<form></form>"]]
  when ["POST", "/session"] then [302, {{"location" => "/", "set-cookie" => "session_token=ok; path=/"}}, []]
  when ["GET", "/"] then [302, {{"location" => signed ? "/rooms/7" : "/session/new"}}, []]
  when ["GET", "/rooms/7"] then signed ? [200, {{"content-type" => "text/html"}}, [PAGE]] : [302, {{"location" => "/session/new"}}, []]
  when ["GET", "/users/3-sig/avatar"] then [200, {{"content-type" => "image/svg+xml"}}, ["<svg></svg>"]]
  when ["POST", "/rooms/9/messages"]
    same = env["HTTP_SEC_FETCH_SITE"] == "same-origin" && env["HTTP_ORIGIN"] == "http://127.0.0.1:{port}"
    signed && same ? [200, {{}}, ["<turbo-stream></turbo-stream>"]] : [422, {{}}, ["refused: not same origin"]]
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
allocator = "jemalloc"
why = "The app."

[[workload]]
name = "suite"
connections = 2
duration = "1s"
runs = 1

[[workload.endpoint]]
name = "/rooms/:id"
path = "/rooms/{{first}}"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "bare avatar"
path = "/users/1/avatar"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "avatar"
path = "{{avatar}}"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "POST /rooms/:id/messages"
method = "POST"
path = "/rooms/{{second}}/messages"
body = "message[body]=hello"
headers = {{ Accept = "text/vnd.turbo-stream.html" }}
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
workload = "suite"
after = ["sign-in"]
why = "Parity."

[[step]]
id = "load"
kind = "load"
workload = "suite"
after = ["check"]
why = "Measure."
"#
    )
}

#[test]
fn a_failing_route_is_no_data_and_the_lanes_other_routes_are_measured() {
    let s = setup("routes", &recipe(free_port()));
    let a = execute(&s, None, true, &|_| {});
    let lines = log_lines(&a.events);
    // Up although /up answers 500: the harness's rule, any answer but 502/503.
    assert_eq!(
        a.report.finished,
        ["serve", "sign-in", "check", "load"],
        "{lines:#?}"
    );

    let check = read_json(&a.run.results().join("check.json"));
    let status = |endpoint: &str| {
        check
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["endpoint"] == endpoint)
            .map(|r| r["status"].as_u64().unwrap())
    };
    assert_eq!(status("/rooms/:id"), Some(200), "{check}");
    assert_eq!(status("bare avatar"), Some(404), "{check}");
    assert_eq!(status("avatar"), Some(200), "the signed avatar: {check}");
    assert_eq!(
        status("POST /rooms/:id/messages"),
        Some(200),
        "a POST carries its origin: {check}"
    );

    let results = read_json(&a.run.results().join("results.json"));
    let cells = results["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4, "{results}");
    for cell in cells {
        let endpoint = cell["endpoint"].as_str().unwrap();
        if endpoint == "bare avatar" {
            assert!(cell["req_per_s"].is_null(), "{cell}");
            assert_eq!(
                cell["no_data"], "answered an error when checked: status 404 is not 2xx",
                "{cell}"
            );
        } else {
            // Measured: load was sent (on a busy machine a cell may still
            // end with errors, which is the load's to say, not the check's).
            assert!(cell["no_data"].is_null(), "{endpoint} is measured: {cell}");
            assert!(
                cell["requests"].as_u64().is_some_and(|n| n > 0),
                "{endpoint} is measured: {cell}"
            );
        }
    }
    // The server mapped the jemalloc this machine has, and says so.
    let allocators = read_json(&a.run.results().join("allocators.json"));
    assert_eq!(
        allocators,
        serde_json::json!([{
            "lane": "app",
            "asked": "jemalloc",
            "loaded": {"allocator": "preloaded", "library": "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"}
        }]),
        "{allocators}"
    );
    assert!(
        lines.iter().any(|l| l
            .contains("lane app: jemalloc loaded (/usr/lib/x86_64-linux-gnu/libjemalloc.so.2)")),
        "{lines:#?}"
    );
    // Nothing was skipped: the lane is not dropped for one route.
    let skipped = a.run.results().join("skipped.json");
    assert!(
        !skipped.exists() || read_json(&skipped).as_array().is_some_and(Vec::is_empty),
        "{}",
        std::fs::read_to_string(&skipped).unwrap_or_default()
    );
}
