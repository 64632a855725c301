//! `reprise run --placement container`: a lane the recipe runs on the host
//! runs instead in a container of the image it names (busybox's httpd,
//! imported by the test into Podman's Docker-compatible API service), and
//! the run says so as a deviation from the post.

#[path = "../../engine/tests/support/mod.rs"]
mod support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use support::{busybox_image, container_engine, free_port};

fn recipe(image: &str, port: u16) -> String {
    format!(
        r#"
[post]
id = "placed"
title = "Placed"
author = "Test"
date = "2026"
summary = "A lane that may run on the host or in its image."

[[file]]
path = "www/index.html"
content = "Hello, world!"
why = "13 bytes."

[[lane]]
name = "httpd"
image = "{image}"
command = ["/bin/httpd", "-f", "-p", "127.0.0.1:{port}", "-h", "."]
dir = "files/www"
port = {port}
health = "/"
boot_budget = "30s"
why = "busybox httpd: its image carries it, this machine's /bin does not."

[[workload]]
name = "hello"
connections = 1
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
id = "check"
kind = "check"
workload = "hello"
after = ["serve"]
why = "One checked request."
"#
    )
}

fn run(root: &std::path::Path, data: &std::path::Path, host: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", root)
        .env("REPRISE_DATA_DIR", data)
        .env("DOCKER_HOST", host)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn placement_container_runs_a_host_lane_in_its_image_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _service) = container_engine(dir.path());
    let image = busybox_image(
        &host,
        dir.path(),
        "localhost/reprise-busybox:placement-test",
    );
    let root = dir.path().join("root");
    let data = dir.path().join("data");
    std::fs::create_dir_all(root.join("recipes")).unwrap();
    std::fs::create_dir_all(root.join("checksums")).unwrap();
    std::fs::write(
        root.join("recipes/placed.toml"),
        recipe(&image, free_port()),
    )
    .unwrap();
    std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
    assert!(
        run(&root, &data, &host, &["checksums", "update"])
            .status
            .success()
    );

    // On the host, as the recipe places it: this machine has no /bin/httpd.
    let out = run(&root, &data, &host, &["run", "placed", "--yes", "--new"]);
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let out = run(
        &root,
        &data,
        &host,
        &[
            "run",
            "placed",
            "--yes",
            "--new",
            "--placement",
            "container",
        ],
    );
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut runs: Vec<PathBuf> = std::fs::read_dir(data.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    runs.sort();
    let latest = runs.last().unwrap();
    let check = std::fs::read_to_string(latest.join("results/check.json")).unwrap();
    assert!(check.contains("200"), "{check}");
    let deviations = std::fs::read_to_string(latest.join("results/deviations.json")).unwrap();
    assert!(
        deviations.contains(
            "httpd run in containers of their images (--placement), not as the recipe places them"
        ),
        "{deviations}"
    );

    let bad = run(&root, &data, &host, &["run", "placed", "--placement", "vm"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected \"host\" or \"container\""));
}
