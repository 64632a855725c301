//! A container lane whose image is pinned by digest and pulled through the
//! Docker Engine API from a registry: Debian's `docker-registry` on
//! 127.0.0.1 (the registry the test runs), Podman's API service (started
//! by the test, with that registry allowed over plain HTTP), images pushed
//! there by the test: busybox's, and one built from Debian's packages by
//! mmdebstrap (ruby and puma; built once under target/real-things/). The
//! lane is pulled with its progress shown, its toolchains asked inside the
//! image, served and measured; a digest the registry does not have is
//! refused before any container starts.

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::{busybox_image, execute, free_port, log_lines, read_json, setup};

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for(what: &str, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !ready() {
        assert!(Instant::now() < deadline, "{what} did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The registry, on a loopback port of its own.
fn registry(dir: &Path) -> (u16, Killed) {
    let port = free_port();
    let config = dir.join("registry.yml");
    std::fs::write(
        &config,
        format!(
            "version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: 127.0.0.1:{port}\n",
            dir.join("registry").display()
        ),
    )
    .unwrap();
    let child = Command::new("docker-registry")
        .arg("serve")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("docker-registry is needed (scripts/test installs it)");
    let up = || std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
    wait_for("docker-registry", up);
    (port, Killed(child))
}

/// Podman's API service, allowed to pull from `registry` over plain HTTP.
fn engine(dir: &Path, registry: u16) -> (String, support::PodmanService) {
    let registries = dir.join("registries.conf");
    std::fs::write(
        &registries,
        format!("[[registry]]\nlocation = \"127.0.0.1:{registry}\"\ninsecure = true\n"),
    )
    .unwrap();
    support::podman_service(dir, Some(&registries))
}

fn podman(host: &str, registries: &Path, args: &[&str]) -> String {
    let out = Command::new("podman")
        .args(["--remote", "--url", host])
        .args(args)
        .env("CONTAINERS_REGISTRIES_CONF", registries)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "podman {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The digest the registry gives `name:tag`'s manifest.
fn manifest_digest(port: u16, name: &str, tag: &str) -> String {
    let manifest = Command::new("curl")
        .args([
            "-sfI",
            "-H",
            "Accept: application/vnd.oci.image.manifest.v1+json",
        ])
        .arg(format!("http://127.0.0.1:{port}/v2/{name}/manifests/{tag}"))
        .output()
        .unwrap();
    let headers = String::from_utf8_lossy(&manifest.stdout).to_string();
    headers
        .lines()
        .find_map(|l| l.strip_prefix("Docker-Content-Digest: "))
        .unwrap_or_else(|| panic!("no digest in {headers}"))
        .trim()
        .to_string()
}

fn ruby_recipe(image: &str, port: u16) -> String {
    format!(
        r#"
[post]
id = "pulled"
title = "Pulled"
author = "Test"
date = "2026"
summary = "Puma in an image of Debian's packages, pinned by digest."

[[toolchain]]
name = "ruby"
version = "*"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'

[[toolchain]]
name = "puma"
version = "*"
command = ["puma", "--version"]
pattern = 'puma version (\d+\.\d+\.\d+)'

[[file]]
path = "hello/config.ru"
content = """
run ->(env) {{ [200, {{ "content-type" => "text/plain" }}, ["Hello, world!"]] }}
"""
why = "13 bytes."

[[lane]]
name = "puma"
runtime = "ruby"
needs = ["puma"]
placement = "container"
image = "{image}"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "config.ru"]
dir = "files/hello"
port = {port}
health = "/"
boot_budget = "60s"
why = "Debian's Puma in its image."

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
    )
}

fn recipe(image: &str, port: u16, busybox: &str) -> String {
    format!(
        r#"
[post]
id = "pulled"
title = "Pulled"
author = "Test"
date = "2026"
summary = "A server in a container whose image is pinned by digest."

[[toolchain]]
name = "busybox"
version = "{busybox}"
command = ["/bin/busybox"]
pattern = 'BusyBox v(\d+\.\d+\.\d+)'
why = "The server's own toolchain, asked inside the image."

[[file]]
path = "www/index.html"
content = "Hello, world!"
why = "13 bytes."

[[lane]]
name = "httpd"
runtime = "busybox"
placement = "container"
image = "{image}"
command = ["/bin/httpd", "-f", "-p", "127.0.0.1:{port}", "-h", "."]
dir = "files/www"
port = {port}
health = "/"
boot_budget = "30s"
why = "busybox httpd, its image pulled by digest."

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
    )
}

#[test]
fn an_image_pinned_by_digest_is_pulled_served_and_a_wrong_digest_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (registry_port, _registry) = registry(dir.path());
    let (host, _engine) = engine(dir.path(), registry_port);
    // SAFETY: set before any thread of this test binary reads the
    // environment; this file holds a single test.
    unsafe { std::env::set_var("DOCKER_HOST", &host) };
    let registries = dir.path().join("registries.conf");

    // The image in the registry, and not on the engine.
    let local = busybox_image(&host, dir.path(), "localhost/reprise-busybox:pull-test");
    let remote = format!("127.0.0.1:{registry_port}/reprise/busybox:1");
    podman(&host, &registries, &["push", &local, &remote]);
    let manifest = Command::new("curl")
        .args([
            "-sfI",
            "-H",
            "Accept: application/vnd.oci.image.manifest.v1+json",
        ])
        .arg(format!(
            "http://127.0.0.1:{registry_port}/v2/reprise/busybox/manifests/1"
        ))
        .output()
        .unwrap();
    let headers = String::from_utf8_lossy(&manifest.stdout).to_string();
    let digest = headers
        .lines()
        .find_map(|l| l.strip_prefix("Docker-Content-Digest: "))
        .unwrap_or_else(|| panic!("no digest in {headers}"))
        .trim()
        .to_string();
    podman(&host, &registries, &["rmi", "--force", &local]);
    let _ = Command::new("podman")
        .args(["--remote", "--url", &host, "rmi", "--force", &remote])
        .output();
    let pinned = format!("127.0.0.1:{registry_port}/reprise/busybox@{digest}");

    let port = free_port();
    // The post's busybox is 0.1.0: the image's is another, asked inside it.
    let s = setup("pulled", &recipe(&pinned, port, "0.1.0"));
    let a = execute(&s, None, true, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "load"], "{lines:#?}");
    let asked = lines
        .iter()
        .find(|l| l.starts_with("lane httpd: busybox "))
        .unwrap_or_else(|| panic!("the image's toolchain is asked: {lines:#?}"));
    assert!(
        asked.ends_with("in its image, the post's was 0.1.0"),
        "{asked}"
    );
    let deviations = read_json(&a.run.results().join("deviations.json"));
    let image = deviations
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "image")
        .unwrap_or_else(|| panic!("{deviations}"));
    assert_eq!(image["lanes"], serde_json::json!(["httpd"]));
    assert!(
        image["what"]
            .as_str()
            .unwrap()
            .contains(&format!("in {pinned} instead of 0.1.0")),
        "{image}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == &format!("lane httpd: pulling {pinned}")),
        "the pull is shown: {lines:#?}"
    );
    let rich = read_json(&a.run.results().join("results.json"));
    assert!(
        rich["cells"][0]["req_per_s"].as_f64().unwrap() > 0.0,
        "{rich}"
    );

    // A digest the registry does not have: refused, nothing served.
    let wrong = format!(
        "127.0.0.1:{registry_port}/reprise/busybox@sha256:{}",
        "0".repeat(64)
    );
    let s = setup("pulled", &recipe(&wrong, free_port(), "*"));
    let a = execute(&s, None, true, &|_| {});
    let skipped = read_json(&a.run.results().join("skipped.json"));
    let reason = skipped[0]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(skipped[0]["target"], "httpd", "{skipped}");
    assert!(
        reason.contains("cannot pull") && reason.contains("manifest unknown"),
        "{reason}"
    );

    // Debian's Ruby and Puma in an image made from Debian's packages,
    // pulled by digest and served as a lane.
    let rootfs = reprise_test_support::bookworm_ruby_puma();
    podman(
        &host,
        &registries,
        &[
            "import",
            rootfs.to_str().unwrap(),
            "localhost/reprise-ruby-puma:test",
        ],
    );
    let remote = format!("127.0.0.1:{registry_port}/reprise/ruby-puma:1");
    podman(
        &host,
        &registries,
        &["push", "localhost/reprise-ruby-puma:test", &remote],
    );
    let digest = manifest_digest(registry_port, "reprise/ruby-puma", "1");
    podman(
        &host,
        &registries,
        &["rmi", "--force", "localhost/reprise-ruby-puma:test"],
    );
    let _ = Command::new("podman")
        .args(["--remote", "--url", &host, "rmi", "--force", &remote])
        .output();
    let ruby_image = format!("127.0.0.1:{registry_port}/reprise/ruby-puma@{digest}");
    let port = free_port();
    let s = setup("pulled", &ruby_recipe(&ruby_image, port));
    let a = execute(&s, None, true, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "load"], "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("lane puma: ruby 3.") && l.ends_with(" in its image")),
        "Debian's Ruby, asked inside the image: {lines:#?}"
    );
    let rich = read_json(&a.run.results().join("results.json"));
    assert!(
        rich["cells"][0]["req_per_s"].as_f64().unwrap() > 0.0,
        "{rich}"
    );

    // A toolchain the image lacks keeps the lane from running.
    let text = recipe(&pinned, free_port(), "*").replace(
        "command = [\"/bin/busybox\"]",
        "command = [\"/bin/ruby\", \"--version\"]",
    );
    let s = setup("pulled", &text);
    let a = execute(&s, None, true, &|_| {});
    let skipped = read_json(&a.run.results().join("skipped.json"));
    let reason = skipped[0]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        reason.contains(&format!("the image {pinned}")) && reason.contains("/bin/ruby --version"),
        "{reason}"
    );
    // The container that could not start is not left behind.
    let runner = reprise_engine::os::runner::container::ContainerRunner::connect_to(&host).unwrap();
    assert_eq!(
        runner.containers(Some(&a.run.id)).unwrap(),
        Vec::<String>::new()
    );
}
