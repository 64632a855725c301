//! `reprise run RECIPE --substitutions FILE` on the published hello-ceiling:
//! what this machine forces (here the post's nginx port, 9293, which this
//! test holds as another program on a reader's machine would) is written
//! in a file of its own, shown in the plan before anything runs, run, and
//! recorded with the result as a deviation from the post, while the run
//! still reproduces the reviewed recipe (its digest is the published file's).

mod support;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use support::{free_port, repo};

fn reprise(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", repo())
        .env("REPRISE_DATA_DIR", data)
        .env_remove("DOCKER_HOST")
        .current_dir(repo())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The entry of the published recipe's text that `opens` starts (its
/// `[[table]]` line and its first key), up to the next table.
fn entry<'t>(published: &'t str, opens: &str) -> &'t str {
    let start = published
        .find(opens)
        .unwrap_or_else(|| panic!("no {opens:?}"));
    let end = published[start + 1..]
        .find("\n[[")
        .map_or(published.len(), |e| start + 1 + e);
    &published[start..end]
}

/// nginx on `port` instead of the post's 9293: its configuration file and
/// its lane, each the published recipe's entry with its port changed.
fn substitutions(port: u16) -> String {
    let published = std::fs::read_to_string(repo().join("recipes/hello-ceiling.toml")).unwrap();
    let moved = |opens: &str, because: &str| {
        let entry = entry(&published, opens);
        let moved = entry
            .replace("127.0.0.1:9293", &format!("127.0.0.1:{port}"))
            .replace("port = 9293", &format!("port = {port}"));
        assert_ne!(moved, entry, "the post's {opens:?} names port 9293");
        let (header, rest) = moved.split_once('\n').unwrap();
        format!("{header}\nbecause = \"{because}\"\n{rest}\n")
    };
    format!(
        "# hello-ceiling on a machine where something else holds port 9293.\n\n{}\n{}",
        moved(
            "[[file]]\npath = \"hello/nginx.conf\"",
            &format!("Port 9293 is taken on this machine: nginx listens on {port}."),
        ),
        moved(
            "[[lane]]\nname = \"nginx\"",
            &format!("Port 9293 is taken on this machine: the lane is measured on {port}."),
        ),
    )
}

#[test]
fn a_substituted_lane_is_shown_run_on_its_port_and_recorded_with_its_reason() {
    // The post's port, held as another program would hold it. When
    // something on this machine holds it already, it is taken all the same.
    let _held = TcpListener::bind("127.0.0.1:9293");
    let port = free_port();
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("here.substitutions.toml");
    std::fs::write(&file, substitutions(port)).unwrap();
    let file = file.to_str().unwrap();

    // Shown before anything runs: the lane as it will run, the file it
    // writes, and each substitution with why.
    let plan = reprise(
        data.path(),
        &["run", "hello-ceiling", "--substitutions", file],
    );
    assert!(!plan.status.success());
    let shown = text(&plan.stderr);
    for line in [
        format!(
            "lane nginx runs: in files/hello: nginx -p . -c nginx.conf -g 'daemon off;' (port {port})"
        ),
        "writes files/hello/nginx.conf".to_string(),
        format!(
            "differs from the post: file `hello/nginx.conf` replaced (here.substitutions.toml): Port 9293 is taken on this machine: nginx listens on {port}."
        ),
        format!(
            "differs from the post: lane `nginx` replaced (here.substitutions.toml): Port 9293 is taken on this machine: the lane is measured on {port}."
        ),
        "Not asking without a terminal".to_string(),
    ] {
        assert!(shown.contains(&line), "no {line:?} in\n{shown}");
    }
    assert!(!data.path().join("runs").exists(), "nothing ran");

    // Run: nginx measured on the substituted port, the result stored with
    // the published recipe's digest and each substitution as a deviation.
    let run = reprise(
        data.path(),
        &[
            "run",
            "hello-ceiling",
            "--substitutions",
            file,
            "--lane",
            "nginx",
            "--quick",
            "--yes",
            "--json",
        ],
    );
    let events = text(&run.stdout);
    assert!(run.status.success(), "{events}\n{}", text(&run.stderr));
    let runs = data.path().join("runs");
    let dir = std::fs::read_dir(&runs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let id = dir.file_name().unwrap().to_str().unwrap().to_string();
    let nginx_conf = std::fs::read_to_string(dir.join("files/hello/nginx.conf")).unwrap();
    assert!(
        nginx_conf.contains(&format!("listen 127.0.0.1:{port};")),
        "{nginx_conf}"
    );
    let per_run = std::fs::read_to_string(dir.join("results/per-run.json")).unwrap();
    assert!(
        per_run
            .lines()
            .any(|l| l.contains("\"nginx\"") && l.contains("\"req_sec\":")),
        "{per_run}"
    );
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("state.json")).unwrap()).unwrap();
    let published = std::fs::read(repo().join("recipes/hello-ceiling.toml")).unwrap();
    assert_eq!(
        state["recipe_sha256"].as_str(),
        Some(reprise_recipe::sha256_hex(&published).as_str()),
        "the run reproduces the published recipe, substituted"
    );
    let report = reprise(data.path(), &["report", &id, "--format", "json"]);
    assert!(report.status.success(), "{}", text(&report.stderr));
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    let substituted: Vec<(&str, Vec<&str>)> = report["judgement"]["deviations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "substituted")
        .map(|d| {
            let lanes = d["lanes"].as_array().unwrap().iter();
            (
                d["what"].as_str().unwrap(),
                lanes.map(|l| l.as_str().unwrap()).collect(),
            )
        })
        .collect();
    assert_eq!(substituted.len(), 2, "{substituted:?}");
    assert!(
        substituted[0]
            .0
            .starts_with("file `hello/nginx.conf` replaced")
    );
    assert_eq!(
        substituted[0].1,
        Vec::<&str>::new(),
        "a file bears on every lane"
    );
    assert!(substituted[1].0.starts_with("lane `nginx` replaced"));
    assert_eq!(substituted[1].1, ["nginx"]);
}

#[test]
fn a_mistake_in_the_substitutions_is_located_in_their_file_and_nothing_runs() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("here.toml");
    let wrong = substitutions(free_port()).replace("boot_budget", "boot_budgte");
    let line = wrong
        .lines()
        .position(|l| l.starts_with("boot_budgte"))
        .unwrap()
        + 1;
    std::fs::write(&file, wrong).unwrap();
    let out = reprise(
        data.path(),
        &[
            "run",
            "hello-ceiling",
            "--substitutions",
            file.to_str().unwrap(),
            "--yes",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("{}:{line}:1:", file.display())),
        "not located at line {line}:\n{said}"
    );
    assert!(said.contains("did you mean `boot_budget`?"), "{said}");
    assert!(!data.path().join("runs").exists(), "nothing ran");
}
