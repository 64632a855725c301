//! A lane with `placement = "container"`: busybox's httpd in a container
//! (Podman's Docker-compatible API, an image imported by the test), served,
//! checked and measured like a host lane, its memory from the engine's
//! stats, and no container left afterwards.

mod support;

use reprise_engine::os::runner::container::ContainerRunner;
use support::{busybox_image, container_engine, execute, free_port, log_lines, read_json, setup};

#[test]
fn a_container_lane_is_served_measured_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _service) = container_engine(dir.path());
    // SAFETY: set before any thread of this test binary reads the environment;
    // this file holds a single test.
    unsafe { std::env::set_var("DOCKER_HOST", &host) };
    let image = busybox_image(&host, dir.path(), "localhost/reprise-busybox:lane-test");
    let port = free_port();
    let s = setup(
        "boxed",
        &format!(
            r#"
[post]
id = "boxed"
title = "Boxed"
author = "Test"
date = "2026"
summary = "A server in a container."

[[file]]
path = "www/index.html"
content = "Hello, world!"
why = "13 bytes."

[[lane]]
name = "httpd"
placement = "container"
image = "{image}"
command = ["/bin/httpd", "-f", "-p", "127.0.0.1:{port}", "-h", "."]
dir = "files/www"
port = {port}
health = "/"
boot_budget = "30s"
why = "busybox httpd in a container."

[[workload]]
name = "hello"
connections = 2
duration = "1s"
runs = 1

[[workload.endpoint]]
name = "/"
path = "/"
expect = {{ status = 200, bytes = 13 }}

[[step]]
id = "serve"
kind = "serve"
why = "Boot."

[[step]]
id = "load"
kind = "load"
workload = "hello"
after = ["serve"]
why = "Measure."
"#
        ),
    );
    let a = execute(&s, None, true, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "load"], "{lines:#?}");
    let cold = read_json(&a.run.results().join("coldstart.json"));
    assert_eq!(cold[0]["target"], "httpd");
    assert!(cold[0]["page_ms"].as_f64().unwrap() > 0.0);
    let rich = read_json(&a.run.results().join("results.json"));
    let cell = &rich["cells"][0];
    assert!(cell["req_per_s"].as_f64().unwrap() > 0.0, "{cell}");
    assert!(
        cell["rss_kb"].as_u64().unwrap() > 0,
        "the engine's memory figure: {cell}"
    );
    let runner = ContainerRunner::connect_to(&host).unwrap();
    assert_eq!(
        runner.containers(Some(&a.run.id)).unwrap(),
        Vec::<String>::new()
    );
}
