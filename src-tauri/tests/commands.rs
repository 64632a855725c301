//! The commands as the webview calls them, through Tauri's IPC on the mock
//! runtime (no window, no display): the real recipes of this checkout, and a
//! results history made by the test from a harness results directory.

use std::path::Path;

use reprise_history::History;
use reprise_recipe::Catalog;
use reprise_report::RunInfo;
use reprise_session::{DataDir, Session, ShareSettings};
use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow, WebviewWindowBuilder};

fn checkout() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn start(data_dir: &Path) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let session = Session::new(
        Catalog::new(checkout()),
        DataDir::new(data_dir),
        ShareSettings::from_env(),
    );
    let app = reprise_desktop::app(mock_builder(), session)
        .build(mock_context(noop_assets()))
        .expect("the mock app builds");
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("the mock window opens");
    (app, webview)
}

fn invoke(webview: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    get_ipc_response(
        webview,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|body| body.deserialize::<Value>().expect("the answer is JSON"))
}

/// A harness results directory for hello-ceiling, judged and stored the way
/// `reprise verdict` stores it. Returns the run id.
fn seed_history(data_dir: &Path) -> String {
    let mut lines = String::new();
    for (lane, base) in [("puma", 30_000.0), ("falcon", 60_000.0)] {
        for run in 1..=3 {
            lines.push_str(
                &json!({"target": lane, "workers": 2, "endpoint": "/", "run": run,
                        "req_sec": base + f64::from(run) * 100.0})
                .to_string(),
            );
            lines.push('\n');
        }
    }
    let env =
        json!({"host": {"hostname": "desk-seven"}, "cpu": {"brand": "Test CPU", "logical": 2}});
    store_results_dir(
        data_dir,
        &[("per-run.json", lines), ("env.json", env.to_string())],
    )
}

/// A hello-ceiling results directory of these files, judged and stored the
/// way `reprise verdict` stores it. Returns the run id.
fn store_results_dir(data_dir: &Path, files: &[(&str, String)]) -> String {
    let results = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(results.path().join(name), text).unwrap();
    }
    let recipe = reprise_recipe::load(&checkout().join("recipes/hello-ceiling.toml")).unwrap();
    let mut history = History::open(data_dir).unwrap();
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
fn the_library_lists_every_recipe_with_its_post() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let library = invoke(&webview, "library", json!({})).unwrap();
    let cards = library["recipes"].as_array().unwrap();
    let hello = cards
        .iter()
        .find(|c| c["post"]["id"] == "hello-ceiling")
        .expect("hello-ceiling is in the library");
    assert_eq!(hello["post"]["author"], "Sam Ruby");
    assert_eq!(hello["lanes"].as_array().unwrap().len(), 3);
    assert!(
        hello["lanes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| ["runs", "blocked"].contains(&l["here"]["state"].as_str().unwrap())),
        "{hello}"
    );
    assert_eq!(hello["checksum"], json!({"status": "matches"}));
    assert!(hello["units"].as_array().unwrap().contains(&json!("req/s")));
    assert_eq!(library["problems"], json!([]));
    let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../recipes");
    assert_eq!(
        std::fs::canonicalize(library["dir"].as_str().unwrap()).unwrap(),
        std::fs::canonicalize(checkout).unwrap()
    );
}

#[test]
fn a_post_has_its_figures_with_their_sentences_and_its_machine() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let post = invoke(&webview, "post", json!({"id": "hello-ceiling"})).unwrap();
    let puma = post["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "puma-hello")
        .unwrap();
    assert_eq!(puma["value"], 54000.0);
    assert_eq!(puma["metric"], "req_per_s");
    assert!(
        post["units"]
            .as_array()
            .unwrap()
            .contains(&json!({"metric": "req_per_s", "unit": "req/s"}))
    );
    assert!(puma["quote"].as_str().unwrap().contains("54,000"));
    assert_eq!(post["machine"]["cores"], 6);
    assert!(
        post["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| !s["why"].as_str().unwrap().is_empty())
    );
    assert_eq!(post["claims"].as_array().unwrap().len(), 4);
}

#[test]
fn an_unknown_post_says_what_to_do() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let err = invoke(&webview, "post", json!({"id": "hello-ceilin"})).unwrap_err();
    assert_eq!(err["kind"], "not_found");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `hello-ceiling`?")
    );
    assert!(err["hint"].as_str().unwrap().contains("Library"));
}

#[test]
fn an_empty_history_is_an_empty_list() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    assert_eq!(invoke(&webview, "history", json!({})).unwrap(), json!([]));
}

#[test]
fn a_stored_run_has_results_with_verdicts_and_a_redacted_share_preview() {
    let data = tempfile::tempdir().unwrap();
    let id = seed_history(data.path());
    let (_app, webview) = start(data.path());

    let runs = invoke(&webview, "history", json!({})).unwrap();
    assert_eq!(runs[0]["id"], id.as_str());

    let results = invoke(&webview, "results", json!({"run": id})).unwrap();
    let falcon = results["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["figure"] == "falcon-hello")
        .unwrap();
    assert_eq!(falcon["published"], 106000.0);
    assert_eq!(falcon["stats"]["median"], 60200.0);
    let ratio = results["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["claim"] == "falcon-twice-puma")
        .unwrap();
    assert_eq!(ratio["outcome"], "reproduced", "{ratio}");
    assert!(ratio["measured"]["low"].as_f64().unwrap() <= 2.0);
    // The test CPU is not the post's Ryzen: absolute figures are not judged.
    assert_eq!(
        results["machine"]["machine"], "differs",
        "{}",
        results["machine"]
    );

    let share = invoke(&webview, "share_preview", json!({"run": id})).unwrap();
    assert!(!share["body"].as_str().unwrap().contains("desk-seven"));
    assert_eq!(share["redacted"], true);
    assert!(
        share["redacted_names"]
            .as_array()
            .unwrap()
            .contains(&json!("desk-seven"))
    );
    assert_eq!(share["run"], id.as_str());
    // Copy's Markdown comes with the preview, made as Save writes it.
    assert_eq!(
        share["markdown"].as_str().unwrap(),
        format!(
            "{}\n\n{}",
            share["title"].as_str().unwrap(),
            share["body"].as_str().unwrap()
        )
    );
}

#[test]
fn results_show_every_measured_lane_the_skipped_ones_and_the_machine_they_ran_on() {
    let data = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    // nginx is the recipe's own reference lane: no figure reads it.
    for (lane, workers, base) in [("puma", 2, 30_000.0), ("nginx", 1, 90_000.0)] {
        for run in 1..=3 {
            lines.push_str(
                &json!({"target": lane, "workers": workers, "endpoint": "/", "run": run,
                        "req_sec": base + f64::from(run) * 100.0,
                        "p50_ms": 0.4, "p99_ms": 1.0 + f64::from(run) / 10.0})
                .to_string(),
            );
            lines.push('\n');
        }
    }
    let skipped = json!([{"target": "falcon", "stage": "preflight",
                          "reason": "it needs falcon, which this machine lacks", "log_tail": ""}]);
    let env = json!({"host": {"hostname": "desk-seven"},
                     "cpu": {"brand": "Test CPU", "logical": 2}, "memory_mb": 8192});
    let id = store_results_dir(
        data.path(),
        &[
            ("per-run.json", lines),
            ("skipped.json", skipped.to_string()),
            ("env.json", env.to_string()),
        ],
    );
    let (_app, webview) = start(data.path());
    let results = invoke(&webview, "results", json!({"run": id})).unwrap();

    let cell = |lane: &str, metric: &str| {
        results["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["key"]["lane"] == lane && c["key"]["metric"] == metric)
            .unwrap_or_else(|| panic!("no {lane} {metric} cell in {}", results["cells"]))
            .clone()
    };
    let nginx = cell("nginx", "req_per_s");
    assert_eq!(nginx["figures"], json!([]));
    assert_eq!(nginx["runs"], 3);
    assert_eq!(nginx["stats"]["median"], 90_200.0);
    assert_eq!(nginx["status"]["status"], "valid");
    let interval = &nginx["interval"];
    assert!(interval["low"].as_f64().unwrap() <= 90_200.0, "{interval}");
    assert!(interval["high"].as_f64().unwrap() >= 90_200.0, "{interval}");
    assert_eq!(cell("puma", "req_per_s")["figures"], json!(["puma-hello"]));
    assert_eq!(cell("puma", "p99_ms")["stats"]["median"], 1.2);
    assert!(
        results["units"]
            .as_array()
            .unwrap()
            .contains(&json!({"metric": "p99_ms", "unit": "ms"}))
    );

    let falcon = results["not_measured"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["lane"] == "falcon")
        .unwrap_or_else(|| panic!("falcon is not listed: {}", results["not_measured"]));
    assert!(
        falcon["why"]
            .as_str()
            .unwrap()
            .contains("which this machine lacks"),
        "{falcon}"
    );

    let fact = |name: &str| {
        results["measured_on"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .map(|f| f["value"].as_str().unwrap().to_string())
    };
    assert_eq!(fact("CPU").as_deref(), Some("Test CPU"));
    assert_eq!(fact("Memory").as_deref(), Some("8.0 GiB"));
    assert_eq!(fact("Host"), None, "the summary does not name the host");

    // The run list words its counts as the headline does.
    let runs = invoke(&webview, "history", json!({})).unwrap();
    assert_eq!(runs[0]["tally"], results["tally"]);
    assert_eq!(runs[0]["smoke_run"], false);
}

#[test]
fn only_http_links_open_in_the_browser() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    for url in ["file:///etc/passwd", "javascript:alert(1)", "not a link"] {
        let err = invoke(&webview, "open_link", json!({"url": url})).unwrap_err();
        assert_eq!(err["kind"], "invalid", "{url}: {err}");
        assert!(err["hint"].as_str().unwrap().contains("http"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_is_handed_to_the_opener_as_one_argument() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let opener = dir.path().join("opener");
    let got = dir.path().join("got");
    std::fs::write(
        &opener,
        format!("#!/bin/sh\nprintf '%s|' \"$@\" > {}\n", got.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let url = "https://example.com/a post?x=1&y=$(id)";
    reprise_desktop::commands::open_link_with(&opener, url).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !got.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(
        std::fs::read_to_string(&got).unwrap(),
        "https://example.com/a%20post?x=1&y=$(id)|"
    );
    let missing =
        reprise_desktop::commands::open_link_with(&dir.path().join("nope"), url).unwrap_err();
    assert_eq!(missing.kind, reprise_desktop::views::ErrorKind::Io);
    assert!(
        missing.hint.contains("https://example.com/a%20post"),
        "{}",
        missing.hint
    );
}

#[test]
fn results_of_an_unknown_run_say_where_to_find_runs() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let err = invoke(&webview, "results", json!({"run": "nope"})).unwrap_err();
    assert_eq!(err["kind"], "not_found");
    assert!(err["hint"].as_str().unwrap().contains("reprise history"));
}

#[test]
fn the_machine_page_shows_the_probes_fingerprint() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let machine = invoke(&webview, "machine", json!({})).unwrap();
    let facts = machine["facts"].as_array().unwrap();
    let logical = facts
        .iter()
        .find(|f| f["name"] == "cpu.logical_threads")
        .expect("the probe reports the logical CPUs");
    let n: usize = logical["value"].as_str().unwrap().parse().unwrap();
    assert!(n >= 1);
    let summary = machine["summary"].as_array().unwrap();
    let labels: Vec<&str> = summary
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    for label in [
        "CPU",
        "Cores",
        "Frequency",
        "Governor",
        "Boost",
        "Memory",
        "Kernel",
        "OS",
        "Virtualisation",
        "Containers",
    ] {
        assert!(labels.contains(&label), "no {label} in {labels:?}");
    }
    let cores = summary.iter().find(|f| f["name"] == "Cores").unwrap();
    assert!(
        cores["value"]
            .as_str()
            .unwrap()
            .contains(&format!("{n} threads")),
        "{cores}"
    );
    let caps = invoke(&webview, "capabilities", json!({})).unwrap();
    assert_eq!(caps["probe"], true);
    assert_eq!(caps["engine"], true);
}

/// "Validate this machine": a real quick validation (about 15 s), its
/// verdict with every check, the ceiling, saved in the history as
/// `reprise validate` saves it.
#[test]
fn validating_the_machine_gives_the_verdict_with_its_checks_and_saves_it() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let started = std::time::Instant::now();
    let v = invoke(
        &webview,
        "validate_machine",
        json!({"quick": true, "onProgress": "__CHANNEL__:1"}),
    )
    .unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(120));
    assert_eq!(v["mode"], "quick");
    assert!(
        ["ready", "usable_with_caveats", "not_suitable"].contains(&v["fitness"].as_str().unwrap()),
        "{v}"
    );
    let words = ["ready", "usable with caveats", "not suitable"];
    let summary = v["summary"].as_str().unwrap();
    assert!(summary.starts_with("reprise validate: "), "{summary}");
    assert!(words.iter().any(|w| summary.contains(w)), "{summary}");
    let checks = v["checks"].as_array().unwrap();
    let ids: Vec<&str> = checks.iter().map(|c| c["id"].as_str().unwrap()).collect();
    for id in ["governor", "cpus", "kernel_runs", "ceiling"] {
        assert!(ids.contains(&id), "no {id} check in {ids:?}");
    }
    for c in checks.iter().filter(|c| c["level"] != "ok") {
        assert!(!c["why"].as_str().unwrap().is_empty(), "{c}");
        assert!(c["fix"].is_string(), "{c}");
    }
    assert_eq!(v["ceiling_runs"], 3);
    assert!(v["ceiling_split"].is_string());
    let id = v["history"]["id"].as_str().expect("saved in the history");
    let history = invoke(&webview, "history", json!({})).unwrap();
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == id && r["recipe"] == "machine"),
        "{history}"
    );
}

#[test]
fn preflight_compares_this_machine_with_the_posts_item_by_item() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    // Until the reader asks, nothing the recipe names runs: the programs
    // are looked for, and the commands that would ask are listed.
    let p = invoke(
        &webview,
        "preflight",
        json!({"id": "hello-ceiling", "askVersions": false}),
    )
    .unwrap();
    assert_eq!(p["versions_asked"], false);
    assert_eq!(
        p["version_commands"],
        json!([
            "ruby --version",
            "puma --version",
            "falcon --version",
            "nginx -v"
        ])
    );
    let p = invoke(
        &webview,
        "preflight",
        json!({"id": "hello-ceiling", "askVersions": true}),
    )
    .unwrap();
    assert_eq!(p["versions_asked"], true);
    assert_eq!(p["recipe"], "hello-ceiling");
    let items = p["items"].as_array().unwrap();
    let cpu = items
        .iter()
        .find(|i| i["subject"] == "cpu")
        .expect("a CPU item");
    assert_eq!(cpu["reference"], "AMD Ryzen 5 3600 6-Core Processor");
    assert!(["matches", "differs", "blocks"].contains(&cpu["verdict"].as_str().unwrap()));
    assert!(items.iter().any(|i| i["subject"] == "toolchain"));
    // Every runnable lane of the recipe is either runnable here or blocked, with items saying why.
    let lanes = p["runnable_lanes"].as_array().unwrap().len()
        + p["blocked_lanes"].as_array().unwrap().len();
    assert_eq!(lanes, 3);
}

#[test]
fn the_setup_plan_names_what_mise_installs_and_the_config_it_writes() {
    let data = tempfile::tempdir().unwrap();
    let (_app, webview) = start(data.path());
    let plan = invoke(
        &webview,
        "setup_plan",
        json!({"id": "hello-ceiling", "lanes": ["falcon"]}),
    )
    .unwrap();
    assert_eq!(plan["installs"], json!(["gem:falcon latest (for falcon)"]));
    assert!(
        plan["config"]
            .as_str()
            .unwrap()
            .ends_with("setup/hello-ceiling/mise.toml"),
        "{plan}"
    );
    assert!(
        plan["config_text"]
            .as_str()
            .unwrap()
            .contains("\"gem:falcon\" = \"latest\""),
        "{plan}"
    );
    assert_eq!(plan["by_hand"], json!(["ruby *"]));
    // Nothing was installed or written by planning.
    assert!(!data.path().join("setup").exists());
    let err = invoke(
        &webview,
        "setup_plan",
        json!({"id": "hello-ceilin", "lanes": []}),
    )
    .unwrap_err();
    assert_eq!(err["kind"], "not_found", "{err}");
}
