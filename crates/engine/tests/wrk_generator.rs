//! `generator = "wrk"`: the load step measures with the real wrk (Debian's),
//! pinned like Reprise's own generator, against Debian's Puma. The method,
//! body and headers reach the server (an endpoint answers 200 only when they
//! do); a cell with non-2xx responses is no data; results say wrk measured.

mod support;

use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(port: u16) -> String {
    format!(
        r#"
[post]
id = "wrk"
title = "wrk"
author = "Test"
date = "2026"
summary = "Measured with the posts' generator."

[[file]]
path = "app/app.ru"
content = '''
run lambda {{ |env|
  req = Rack::Request.new(env)
  case [req.request_method, req.path_info]
  when ["GET", "/"] then [200, {{"content-type" => "text/plain"}}, ["Hello, world!"]]
  when ["POST", "/echo"]
    ok = req.body.read == "a=1&b=]]" && env["HTTP_X_REPRISE"] == "yes" && env["HTTP_COOKIE"] == "s=1"
    [ok ? 200 : 400, {{"content-type" => "text/plain"}}, [ok ? "ok" : "wrong request"]]
  else [404, {{"content-type" => "text/plain"}}, ["not found"]]
  end
}}
'''
why = "Answers /, a POST that must carry its body and headers, and 404 elsewhere."

[[lane]]
name = "app"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "2:2", "app.ru"]
dir = "files/app"
port = {port}
health = "/"
boot_budget = "30s"
why = "Debian's Puma."

[[workload]]
name = "hello"
connections = 4
duration = "1s"
runs = 1
generator = "wrk"

[[workload.endpoint]]
name = "/"
path = "/"

[[workload.endpoint]]
name = "POST /echo"
method = "POST"
path = "/echo"
body = "a=1&b=]]"
headers = {{ "X-Reprise" = "yes", Cookie = "s=1" }}

[[workload.endpoint]]
name = "/missing"
path = "/missing"

[[step]]
id = "serve"
kind = "serve"
why = "Boot."

[[step]]
id = "load"
kind = "load"
workload = "hello"
after = ["serve"]
why = "Measure with wrk."
"#
    )
}

#[test]
fn wrk_measures_as_the_posts_did_and_its_errors_are_no_data() {
    let s = setup("wrk", &recipe(free_port()));
    let a = execute(&s, None, false, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "load"], "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.starts_with("measured with wrk")),
        "{lines:#?}"
    );
    let results = read_json(&a.run.results().join("results.json"));
    assert_eq!(results["harness"]["load_generator"], "wrk", "{results}");
    let cell = |name: &str| {
        results["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["endpoint"] == name)
            .unwrap_or_else(|| panic!("no cell {name}: {results}"))
            .clone()
    };
    for name in ["/", "POST /echo"] {
        let c = cell(name);
        assert!(c["req_per_s"].as_f64().unwrap() > 0.0, "{c}");
        assert!(c["requests"].as_u64().unwrap() > 0, "{c}");
        let latency = &c["latency_ms"];
        assert!(latency["p50"].as_f64().unwrap() > 0.0, "{c}");
        assert!(latency["p99"].as_f64().unwrap() >= latency["p50"].as_f64().unwrap());
        assert!(latency["p999"].is_null(), "wrk prints no p99.9: {c}");
        assert!(c["hdr_log"].is_null(), "wrk keeps no histogram: {c}");
    }
    let missing = cell("/missing");
    assert!(missing["req_per_s"].is_null(), "{missing}");
    assert!(
        missing["errors"]["status"].as_u64().unwrap() > 0,
        "{missing}"
    );
    assert!(
        missing["error_samples"][0]
            .as_str()
            .unwrap()
            .starts_with("wrk: Non-2xx or 3xx responses:"),
        "{missing}"
    );
}
