//! `reprise probe` and `reprise preflight` as a reader runs them: over this
//! machine, over fixture `/proc`+`/sys` trees and a saved env.json, with
//! toolchain executables the tests write and a PATH given to the child only.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const RECIPE: &str = r#"
[post]
id = "campfire-runtimes"
title = "Campfire on CRuby, JRuby and TruffleRuby"
author = "Sam Ruby"
date = "2026-09-25"
summary = "Campfire emitted by Roundhouse on three Ruby runtimes."

[machine]
cpu = "AMD Ryzen 5 3600 6-Core Processor"
cores = 6
threads = 12
smt = true
base_mhz = 3600
boost = false
governor = "performance"
memory_gb = 63
virtualization = "none"
quote = "a bare-metal Ryzen 5 3600 with the governor pinned and boost off"

[[toolchain]]
name = "ruby"
version = "4.0.5"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'

[[toolchain]]
name = "jruby"
version = "10.1.1.0"
command = ["jruby", "--version"]
pattern = 'jruby (\d+(?:\.\d+)+)'

[[toolchain]]
name = "truffleruby"
version = "40.0.0"
command = ["truffleruby", "--version"]
pattern = 'truffleruby (\d+(?:\.\d+)+)'

[[lane]]
name = "ruby"
runtime = "ruby"
command = ["ruby", "-S", "puma", "config.ru"]
why = "The emit on CRuby+YJIT."

[[lane]]
name = "jruby"
runtime = "jruby"
command = ["jruby", "-S", "puma", "config.ru"]
why = "The emit on JRuby."

[[lane]]
name = "truffleruby"
runtime = "truffleruby"
command = ["truffleruby", "-S", "puma", "config.ru"]
why = "The emit on TruffleRuby, C-extension lock on."
"#;

/// The post's machine as scripts/bench-env records it.
const POSTS_ENV_JSON: &str = r#"{
  "captured_at": "2026-09-22T03:00:12Z",
  "host": {"uname": "Linux bench 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux", "platform": "linux", "arch": "x86_64", "hostname": "bench"},
  "os": {"pretty_name": "Ubuntu 24.04.5 LTS", "id": "ubuntu", "version_id": "24.04"},
  "cpu": {"lscpu": {"lscpu": [
    {"field": "CPU(s):", "data": "12"},
    {"field": "Vendor ID:", "data": "AuthenticAMD", "children": [
      {"field": "Model name:", "data": "AMD Ryzen 5 3600 6-Core Processor", "children": [
        {"field": "Thread(s) per core:", "data": "2"},
        {"field": "Core(s) per socket:", "data": "6"},
        {"field": "Socket(s):", "data": "1"}]}]}]}},
  "memory_mb": 64237,
  "clock": {"governor": "performance", "boost": "0", "cur_khz": 3600000, "min_khz": 2200000, "max_khz": 3600000},
  "toolchains": {
    "ruby": "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +YJIT +PRISM [x86_64-linux]",
    "jruby": "jruby 10.1.1.0 (3.4.2) 2026-01-13 8f1a2b3c4d OpenJDK 64-Bit Server VM 25.0.1+8-LTS on 25.0.1+8-LTS +jit [x86_64-linux]",
    "truffleruby": "truffleruby 40.0.0, like ruby 3.4.7, GraalVM CE Native [x86_64-linux]"},
  "conditions": {"loadavg_1_5_15": [0.02, 0.05, 0.01], "date_utc": "2026-09-22T03:00:12Z"}
}"#;

fn reprise(args: &[&str], path_env: Option<&Path>, cwd: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reprise"));
    cmd.args(args).current_dir(cwd).env_remove("DOCKER_HOST");
    if let Some(dir) = path_env {
        cmd.env("PATH", dir);
    }
    cmd.output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn script(dir: &Path, name: &str, banner: &str) {
    let path = dir.join(name);
    write(&path, &format!("#!/bin/sh\necho '{banner}'\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A two-thread machine with cpufreq: governor performance, boost off.
fn small_machine(root: &Path) {
    let mut cpuinfo = String::new();
    for n in 0..2 {
        cpuinfo.push_str(&format!(
            "processor\t: {n}\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 5 3600 6-Core Processor\n\
             physical id\t: 0\ncore id\t\t: {n}\nflags\t\t: fpu ht\n\n"
        ));
        let policy = root.join(format!("sys/devices/system/cpu/cpufreq/policy{n}"));
        write(&policy.join("scaling_governor"), "performance\n");
        write(&policy.join("cpuinfo_max_freq"), "3600000\n");
    }
    write(&root.join("proc/cpuinfo"), &cpuinfo);
    write(&root.join("sys/devices/system/cpu/cpufreq/boost"), "0\n");
    write(&root.join("proc/meminfo"), "MemTotal:       65778920 kB\n");
    write(
        &root.join("proc/sys/kernel/osrelease"),
        "6.8.0-45-generic\n",
    );
}

fn recipe_file(dir: &Path) -> PathBuf {
    let file = dir.join("recipes/campfire-runtimes.toml");
    write(&file, RECIPE);
    file
}

#[test]
fn probe_json_describes_this_machine_and_every_standard_toolchain() {
    let tmp = tempfile::tempdir().unwrap();
    let out = reprise(&["probe", "--json"], None, tmp.path());
    assert!(out.status.success());
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(v["fingerprint"]["cpu"]["logical_threads"].as_u64().unwrap() >= 1);
    assert!(v["fingerprint"]["memory"]["total_kib"].as_u64().unwrap() > 0);
    assert!(v["fingerprint"]["os"]["kernel"].is_string());
    let tools: Vec<&str> = v["toolchains"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["origin"] != "mise")
        .map(|t| t["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "ruby",
            "jruby",
            "truffleruby",
            "bundle",
            "gem",
            "rustc",
            "cargo",
            "node",
            "git",
            "sqlite3",
            "mise",
            "podman",
            "docker",
            "java",
            "wrk"
        ]
    );
}

#[test]
fn probe_lists_a_fixture_machine_and_the_toolchains_on_its_path() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    small_machine(&root);
    let bin = tmp.path().join("bin");
    script(
        &bin,
        "ruby",
        "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +YJIT +PRISM [x86_64-linux]",
    );
    let out = reprise(
        &["probe", "--root", root.to_str().unwrap()],
        Some(&bin),
        tmp.path(),
    );
    assert!(out.status.success());
    let text = stdout(&out);
    let line = |key: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no {key} line in\n{text}"))
            .to_string()
    };
    assert!(line("CPU").ends_with("AMD Ryzen 5 3600 6-Core Processor (AuthenticAMD)"));
    assert!(
        line("Governor").ends_with("performance (all 2 policies)"),
        "{text}"
    );
    assert!(
        line("Boost").ends_with("off (/sys/devices/system/cpu/cpufreq/boost)"),
        "{text}"
    );
    assert!(line("Memory").ends_with("62.7 GiB"), "{text}");
    assert!(line("ruby ").contains("Ruby 4.0.5 +YJIT"), "{text}");
    assert!(line("jruby").contains("not found"), "{text}");
    // Values line up in one column.
    let column = |l: String| l.find("AMD").or(l.find("performance")).unwrap();
    assert_eq!(column(line("CPU")), column(line("Governor")));
}

#[test]
fn probe_writes_a_bench_env_json_with_the_checkouts_git_state() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    small_machine(&root);
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    for args in [
        vec!["init", "-q", "-b", "bench"],
        vec![
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "nightly",
        ],
    ] {
        assert!(
            Command::new("git")
                .args(&args)
                .current_dir(&repo)
                .status()
                .unwrap()
                .success()
        );
    }
    let out = reprise(
        &[
            "probe",
            "--format",
            "bench-env",
            "--root",
            root.to_str().unwrap(),
        ],
        None,
        &repo,
    );
    assert!(out.status.success());
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    for key in [
        "captured_at",
        "host",
        "cpu",
        "memory_mb",
        "clock",
        "toolchains",
        "git",
        "conditions",
    ] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
    assert_eq!(v["clock"]["governor"], "performance");
    assert_eq!(v["clock"]["boost"], "0");
    assert_eq!(v["memory_mb"], 64_237);
    assert_eq!(v["git"]["branch"], "bench");
    assert_eq!(v["git"]["subject"], "nightly");
    assert_eq!(v["git"]["dirty"], false);
}

#[test]
fn preflight_of_the_posts_own_machine_matches_everything_and_exits_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe_file(tmp.path());
    let env = tmp.path().join("env.json");
    write(&env, POSTS_ENV_JSON);
    let args = [
        "preflight",
        recipe.to_str().unwrap(),
        "--machine",
        env.to_str().unwrap(),
    ];
    let out = reprise(&args, None, tmp.path());
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("item"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 14, "{text}");
    assert!(
        rows.iter().all(|r| r.trim_start().starts_with("matches")),
        "{text}"
    );
    assert!(
        text.contains("absolute figures can be compared with the post's"),
        "{text}"
    );
    assert!(
        text.contains("Lanes that can run: ruby, jruby, truffleruby"),
        "{text}"
    );
    assert!(
        text.contains("--cexts-lock=false"),
        "the locked TruffleRuby lane says so:\n{text}"
    );

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v: Value = serde_json::from_str(&stdout(&reprise(&json_args, None, tmp.path()))).unwrap();
    assert_eq!(v["absolute_comparable"], true);
    assert_eq!(v["blocked_lanes"], serde_json::json!([]));
}

#[test]
fn preflight_on_a_machine_without_the_published_rubies_blocks_with_exit_3() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe_file(tmp.path());
    let root = tmp.path().join("root");
    write(
        &root.join("proc/cpuinfo"),
        "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\nflags\t\t: hypervisor\n\n",
    );
    let bin = tmp.path().join("bin");
    script(
        &bin,
        "ruby",
        "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]",
    );
    // The recipe is a test's, not a reviewed one: its version commands run
    // only with both the reader's yes and --allow-modified.
    let args = [
        "preflight",
        recipe.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
        "--yes",
        "--allow-modified",
    ];
    let out = reprise(&args, Some(&bin), tmp.path());
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}");
    let row = |item: &str| {
        text.lines()
            .find(|l| {
                l.split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .starts_with(item)
            })
            .unwrap_or_else(|| panic!("no row {item} in\n{text}"))
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(row("CPU"), "differs");
    assert_eq!(row("governor"), "differs");
    assert_eq!(row("boost"), "differs");
    assert_eq!(row("toolchain ruby"), "differs");
    assert_eq!(row("toolchain jruby"), "blocks");
    assert_eq!(row("toolchain truffleruby"), "blocks");
    assert_eq!(row("lane ruby"), "differs");
    assert_eq!(row("lane jruby"), "blocks");
    assert!(
        text.contains("fix: mise install ruby@4.0.5 && mise use ruby@4.0.5"),
        "{text}"
    );
    assert!(
        text.contains("fix: mise install ruby@jruby-10.1.1.0"),
        "{text}"
    );
    assert!(
        text.contains("absolute figures are not comparable"),
        "{text}"
    );
    assert!(text.contains("Blocked lanes: jruby, truffleruby"), "{text}");
}

#[test]
fn preflight_refuses_bad_input_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = reprise(&["preflight", "no-such-recipe"], None, tmp.path());
    assert_eq!(out.status.code(), Some(2));
    let recipe = recipe_file(tmp.path());
    let bad = tmp.path().join("machine.json");
    write(&bad, "{\"cpu\": 1}");
    let out = reprise(
        &[
            "preflight",
            recipe.to_str().unwrap(),
            "--machine",
            bad.to_str().unwrap(),
        ],
        None,
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("neither a `reprise probe --json` snapshot")
    );
    write(&recipe, &RECIPE.replace("pattern", "patern"));
    let out = reprise(&["preflight", recipe.to_str().unwrap()], None, tmp.path());
    assert_eq!(out.status.code(), Some(2));
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's own campfire-runtimes recipe, previewed on this machine.
#[test]
fn preflight_campfire_runtimes_here_says_what_differs_and_how_to_fix_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["preflight", "campfire-runtimes", "--json", "--yes"])
        .env("REPRISE_ROOT", repo())
        .env_remove("DOCKER_HOST")
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let item = |name: &str| {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .unwrap_or_else(|| panic!("no item {name}"))
            .clone()
    };
    // Debian 12 has none of the post's Rubies (4.0.5, JRuby 10.1.1.0, TruffleRuby 40.0.0).
    for ruby in ["toolchain ruby", "toolchain jruby", "toolchain truffleruby"] {
        let i = item(ruby);
        assert_ne!(i["verdict"], "matches", "{i}");
        assert!(
            i["fix"].as_str().unwrap().starts_with("mise install ruby@"),
            "{i}"
        );
        assert!(!i["why"].as_str().unwrap().is_empty());
    }
    assert_eq!(
        out.status.code(),
        Some(3),
        "jruby and truffleruby lanes cannot run"
    );
    let brand = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if !brand.contains("Ryzen 5 3600") {
        assert_eq!(item("CPU")["verdict"], "differs");
        assert_eq!(item("cores/threads")["verdict"], "differs");
    }
    for clock in ["governor", "boost"] {
        let i = item(clock);
        if i["verdict"] != "matches" {
            assert!(
                i["why"].as_str().unwrap().contains("absolute numbers"),
                "{i}"
            );
        }
    }
    assert_eq!(v["absolute_comparable"], false);
}

/// The same recipe against the post's own machine and toolchains, as
/// scripts/bench-env would have recorded them: nothing differs.
#[test]
fn preflight_campfire_runtimes_on_the_posts_machine_matches_everything() {
    let tmp = tempfile::tempdir().unwrap();
    let mut env: Value = serde_json::from_str(POSTS_ENV_JSON).unwrap();
    env["toolchains"] = serde_json::json!({
        "ruby": "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +YJIT +PRISM [x86_64-linux]",
        "yjit": "yjit 4.0.5",
        "jruby": "jruby 10.1.1.0 (3.4.2) 2026-01-13 8f1a2b3c4d OpenJDK 64-Bit Server VM 25.0.1+8-LTS on 25.0.1+8-LTS +jit [x86_64-linux]",
        "java": "openjdk version \"25.0.1\" 2025-10-21 LTS",
        "truffleruby": "truffleruby 40.0.0, like ruby 3.4.7, GraalVM CE Native [x86_64-linux]",
        "bundler": "Bundler version 2.7.2",
        "cargo": "cargo 1.90.0 (840b83a10 2025-07-30)",
        "rustc": "rustc 1.90.0 (1159e78c4 2025-09-14)",
        "wrk": "wrk 4.2.0 [epoll] Copyright (C) 2012 Will Glozer",
        "sqlite3": "3.45.1 2024-01-30 16:01:20 e876e51a0ed5c5b3126f52e532044363a014bc594cfefa87ffb5b82257ccalt1",
        "redis-server": "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=62c7a5d52c72f4cd",
        // What building the Spinel lane asks for (Ubuntu 24.04's).
        "make": "GNU Make 4.3",
        "cc": "cc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0",
        "curl": "curl 8.5.0 (x86_64-pc-linux-gnu) libcurl/8.5.0 OpenSSL/3.0.13",
        "npm": "10.9.2",
        // What building Roundhouse and the bundles ask for (Ubuntu 24.04's).
        "libclang": "libclang-18.so",
        "ruby-headers": "ruby.h 4.0.5",
        "libjemalloc": "libjemalloc.so.2",
        "openssl-headers": "3.0.13",
        "libyaml-headers": "0.2.5",
        "zlib-headers": "1.3"
    });
    let file = tmp.path().join("env.json");
    write(&file, &env.to_string());
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args([
            "preflight",
            "campfire-runtimes",
            "--json",
            "--machine",
            file.to_str().unwrap(),
        ])
        .env("REPRISE_ROOT", repo())
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let differing: Vec<&Value> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["verdict"] != "matches")
        .collect();
    assert!(differing.is_empty(), "{differing:#?}");
    assert_eq!(v["absolute_comparable"], true);
    assert_eq!(out.status.code(), Some(0));
}

/// Preflight runs none of a recipe's version commands until the reader says
/// yes, and none of an unreviewed recipe's without --allow-modified; it
/// lists them first either way.
#[test]
fn preflight_runs_the_version_commands_only_when_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe_file(tmp.path());
    let root = tmp.path().join("root");
    small_machine(&root);
    let bin = tmp.path().join("bin");
    let mark = tmp.path().join("ruby-ran");
    write(
        &bin.join("ruby"),
        &format!(
            "#!/bin/sh\n: > '{}'\necho 'ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +YJIT +PRISM [x86_64-linux]'\n",
            mark.display()
        ),
    );
    std::fs::set_permissions(bin.join("ruby"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let preflight = |extra: &[&str]| {
        let mut args = vec![
            "preflight",
            recipe.to_str().unwrap(),
            "--root",
            root.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        reprise(&args, Some(&bin), tmp.path())
    };

    let out = preflight(&[]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!mark.exists(), "ran without a yes");
    assert!(err.contains("not the reviewed recipe"), "{err}");
    assert!(
        stdout(&out).contains("Versions not asked"),
        "{}",
        stdout(&out)
    );

    let out = preflight(&["--yes"]);
    assert!(!mark.exists(), "ran an unreviewed recipe's command");
    assert!(stdout(&out).contains("Versions not asked"));

    let out = preflight(&["--allow-modified"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!mark.exists(), "ran without a yes (no terminal to ask on)");
    assert!(
        err.contains("  ruby --version"),
        "the commands are listed: {err}"
    );
    assert!(err.contains("add --yes to run them"), "{err}");

    let out = preflight(&["--allow-modified", "--yes"]);
    assert!(mark.exists(), "the accepted command did not run");
    assert!(!stdout(&out).contains("Versions not asked"));
    assert!(stdout(&out).contains("Ruby 4.0.5"), "{}", stdout(&out));
}

#[test]
fn a_timeout_that_is_not_a_duration_is_refused_with_exit_2_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe_file(tmp.path());
    let recipe = recipe.to_str().unwrap();
    // An empty PATH: nothing is probed even if a value got through.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for value in ["nan", "inf", "-1", "-2s", "1e300"] {
        let flag = format!("--timeout={value}");
        for args in [vec!["probe", &flag], vec!["preflight", recipe, &flag]] {
            let out = reprise(&args, Some(&empty), tmp.path());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert!(err.contains("--timeout"), "{args:?}: {err}");
        }
    }
    let out = reprise(
        &["probe", "--timeout", "500ms", "--json"],
        Some(&empty),
        tmp.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
