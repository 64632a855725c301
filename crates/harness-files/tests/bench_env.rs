//! bench-env `env.json`: exported from a fixture machine with the harness's
//! field names, read back, and a published-style file imported as a
//! reference machine.

// The probe's fixture machines: a Ryzen 5 3600 as a /proc + /sys tree.
#[path = "../../probe/tests/fixture/mod.rs"]
mod fixture;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use reprise_harness_files::bench_env::BenchEnv;
use reprise_probe::Fingerprint;
use reprise_probe::toolchain::{self, SearchPath, ToolQuery};
use serde_json::{Value, json};

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=Reprise Test",
            "-c",
            "user.email=test@example.com",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(status.status.success(), "git {args:?}: {status:?}");
}

fn scripted_toolchains(dir: &Path) -> reprise_probe::toolchain::Toolchains {
    std::fs::create_dir_all(dir).unwrap();
    for (name, banner) in [
        (
            "ruby",
            "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +PRISM [x86_64-linux]",
        ),
        (
            "jruby",
            "jruby 10.1.1.0 (3.4.2) 2026-01-13 8f1a2b3c4d OpenJDK 64-Bit Server VM 25.0.1+8-LTS on 25.0.1+8-LTS +jit [x86_64-linux]",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\necho '{banner}'\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let search = SearchPath {
        dirs: vec![dir.to_path_buf()],
        mise_installs: None,
    };
    let queries = [
        ToolQuery::new("ruby", &["--version"]),
        ToolQuery::new("jruby", &["--version"]),
    ];
    toolchain::probe(&queries, &search, Duration::from_secs(10))
}

#[test]
fn a_captured_env_json_carries_reprise_s_machine_and_reads_back_as_it() {
    let machine = fixture::ryzen_5_3600();
    let fp = Fingerprint::read(machine.root());
    let tmp = tempfile::tempdir().unwrap();
    let tools = scripted_toolchains(&tmp.path().join("bin"));
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("README"), "x\n").unwrap();
    git(&repo, &["add", "README"]);
    git(&repo, &["commit", "-q", "-m", "First commit"]);
    std::fs::write(repo.join("README"), "changed\n").unwrap();

    let now = UNIX_EPOCH + Duration::from_secs(1_790_050_000);
    let harness = json!({"workers": [1, 8], "concurrency": 16, "duration_sec": 20});
    let mut notes = serde_json::Map::new();
    notes.insert("quick".into(), json!(false));
    let env =
        BenchEnv::capture(Some(&repo), Some(harness.clone()), now).with_reprise(&fp, &tools, notes);
    let text = env.to_json();
    let v: Value = serde_json::from_str(&text).unwrap();

    assert_eq!(v["captured_at"], "2026-09-22T04:06:40Z");
    assert_eq!(v["conditions"]["date_utc"], "2026-09-22T04:06:40Z");
    assert_eq!(v["harness"], harness, "the invocation as given");
    assert_eq!(v["git"]["branch"], "main");
    assert_eq!(v["git"]["subject"], "First commit");
    assert_eq!(v["git"]["dirty"], true);
    assert_eq!(v["git"]["sha"].as_str().unwrap().len(), 40);
    assert_eq!(v["reprise"]["quick"], false);
    for key in v.as_object().unwrap().keys() {
        assert!(
            [
                "captured_at",
                "host",
                "os",
                "cpu",
                "memory_mb",
                "clock",
                "toolchains",
                "toolchain_paths",
                "mise_current",
                "git",
                "conditions",
                "harness",
                "reprise"
            ]
            .contains(&key.as_str()),
            "{key} is not one of bench-env's keys: Reprise's extras go under `reprise`"
        );
    }

    // Read back, it is the fixture's machine (Reprise's record, not this
    // machine's lscpu) and the toolchains Reprise asked.
    let back = BenchEnv::parse(&text).unwrap();
    assert_eq!(back, env);
    assert_eq!(back.to_fingerprint(), fp);
    let tools_back = back.to_toolchains();
    assert!(tools_back.recorded);
    assert_eq!(tools_back.get("ruby").unwrap().version(), Some("4.0.5"));
    assert_eq!(
        tools_back
            .get("jruby")
            .unwrap()
            .banner
            .as_ref()
            .unwrap()
            .java_major(),
        Some(25)
    );
}

/// Shaped as `scripts/bench-env` writes it on Ubuntu 24.04 (lscpu nests its rows).
const PUBLISHED: &str = r#"{
  "captured_at": "2026-09-22T03:00:12Z",
  "host": {"uname": "Linux bench 6.8.0-45-generic #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux",
           "platform": "linux", "arch": "x86_64", "hostname": "bench"},
  "os": {"pretty_name": "Ubuntu 24.04.5 LTS", "name": "Ubuntu", "version_id": "24.04", "id": "ubuntu"},
  "cpu": {"lscpu": {"lscpu": [
      {"field": "Architecture:", "data": "x86_64"},
      {"field": "CPU(s):", "data": "12"},
      {"field": "Vendor ID:", "data": "AuthenticAMD", "children": [
        {"field": "Model name:", "data": "AMD Ryzen 5 3600 6-Core Processor", "children": [
          {"field": "CPU family:", "data": "23"},
          {"field": "Model:", "data": "113"},
          {"field": "Thread(s) per core:", "data": "2"},
          {"field": "Core(s) per socket:", "data": "6"},
          {"field": "Socket(s):", "data": "1"},
          {"field": "CPU max MHz:", "data": "3600.0000"}]}]}]},
          "board_name": "B450 TOMAHAWK MAX", "board_vendor": "Micro-Star International Co., Ltd.", "product_name": "MS-7C02"},
  "memory_mb": 64237,
  "clock": {"governor": "performance", "boost": "0", "cur_khz": 3600000, "min_khz": 2200000, "max_khz": 3600000},
  "toolchains": {"ruby": "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +PRISM [x86_64-linux]",
                 "jruby": "jruby 10.1.1.0 (3.4.2) 2026-01-13 8f1a2b3c4d OpenJDK 64-Bit Server VM 25.0.1+8-LTS on 25.0.1+8-LTS +jit [x86_64-linux]",
                 "wrk": "wrk 4.2.0 [epoll] Copyright (C) 2012 Will Glozer"},
  "toolchain_paths": {"ruby": "/home/rubys/.local/share/mise/installs/ruby/4.0.5/bin/ruby"},
  "mise_current": [{"name": "ruby", "version": "4.0.5"}],
  "git": {"sha": "4f0c2d5e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d", "branch": "main", "subject": "bench: nightly", "dirty": false},
  "conditions": {"loadavg_1_5_15": [0.02, 0.05, 0.01], "uptime": " 03:00:12 up 12 days,  4:01,  1 user,  load average: 0.02, 0.05, 0.01", "date_utc": "2026-09-22T03:00:12Z"},
  "harness": {"workers": [1], "concurrency": 16, "runs": 3, "duration_sec": 20, "warmup_sec": 20, "targets": ["rails", "ruby"], "command": "scripts/bench-campfire"}
}"#;

#[test]
fn a_published_env_json_imports_as_the_reference_machine_and_keeps_every_field() {
    let env = BenchEnv::parse(PUBLISHED).unwrap();
    let reference = env.to_fingerprint();
    assert_eq!(
        reference.cpu.brand.as_deref(),
        Some("AMD Ryzen 5 3600 6-Core Processor")
    );
    assert_eq!(reference.cpu.vendor.as_deref(), Some("AuthenticAMD"));
    assert_eq!(
        (reference.cpu.family, reference.cpu.model),
        (Some(23), Some(113))
    );
    assert_eq!(
        reference.cpu.physical_cores,
        Some(6),
        "cores per socket × sockets"
    );
    assert_eq!(reference.cpu.logical_threads, Some(12));
    assert_eq!(reference.cpu.smt_active, Some(true));
    assert_eq!(reference.clock.governor.as_deref(), Some("performance"));
    assert_eq!(reference.clock.boost, Some(false));
    assert_eq!(reference.memory.total_kib, Some(64_237 * 1024));
    assert_eq!(reference.os.kernel.as_deref(), Some("6.8.0-45-generic"));
    assert_eq!(
        reference.os.pretty_name.as_deref(),
        Some("Ubuntu 24.04.5 LTS")
    );
    assert_eq!(reference.virtualization.virtual_machine, Some(false));
    assert_eq!(
        reference.virtualization.dmi_product.as_deref(),
        Some("MS-7C02")
    );
    let tools = env.to_toolchains();
    assert_eq!(tools.get("wrk").unwrap().version(), Some("4.2.0"));
    assert_eq!(
        tools.get("ruby").unwrap().path.as_deref(),
        Some(Path::new(
            "/home/rubys/.local/share/mise/installs/ruby/4.0.5/bin/ruby"
        ))
    );

    // Written back, it is the same document: nothing Reprise does not model is lost.
    let original: Value = serde_json::from_str(PUBLISHED).unwrap();
    let rewritten: Value = serde_json::from_str(&env.to_json()).unwrap();
    assert_eq!(rewritten, original);
}

#[test]
fn lscpu_naming_a_hypervisor_imports_as_a_vm() {
    let env = BenchEnv::parse(
        r#"{"cpu": {"lscpu": {"lscpu": [
            {"field": "Model name:", "data": "Intel Xeon Processor"},
            {"field": "Hypervisor vendor:", "data": "KVM"}]}}}"#,
    )
    .unwrap();
    let machine = env.to_fingerprint();
    assert_eq!(machine.virtualization.virtual_machine, Some(true));
    assert_eq!(machine.virtualization.dmi_vendor.as_deref(), Some("KVM"));
    assert_eq!(machine.cpu.brand.as_deref(), Some("Intel Xeon Processor"));
}

#[test]
fn a_file_that_is_not_env_json_is_a_typed_error() {
    let err = BenchEnv::parse("{\"memory_mb\": \"lots\"}").unwrap_err();
    assert!(
        err.to_string().starts_with("not a bench-env env.json"),
        "{err}"
    );
}

#[test]
fn outside_a_checkout_the_git_block_says_only_not_dirty_as_bench_env_s_does() {
    let tmp = tempfile::tempdir().unwrap();
    let env = BenchEnv::capture(Some(tmp.path()), None, UNIX_EPOCH);
    let v: Value = serde_json::from_str(&env.to_json()).unwrap();
    assert_eq!(v["git"], json!({"dirty": false}));
    assert!(
        v.get("harness").is_none(),
        "no invocation, no harness block"
    );
}

#[test]
fn a_machine_file_is_a_snapshot_or_an_env_json_and_nothing_else() {
    let from_env = reprise_harness_files::parse_machine_file(PUBLISHED).unwrap();
    assert_eq!(from_env.fingerprint.cpu.logical_threads, Some(12));
    assert_eq!(
        from_env.toolchains.get("ruby").unwrap().version(),
        Some("4.0.5")
    );
    let text = serde_json::to_string(&from_env).unwrap();
    let back = reprise_harness_files::parse_machine_file(&text).unwrap();
    assert_eq!(back.fingerprint, from_env.fingerprint);
    let lines = |s: &reprise_probe::Snapshot| {
        s.toolchains
            .tools
            .iter()
            .map(|t| t.first_line.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&back), lines(&from_env));
    let err = reprise_harness_files::parse_machine_file("{\"cpu\": 1}").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("neither a `reprise probe --json` snapshot"),
        "{err}"
    );
    assert!(reprise_harness_files::parse_machine_file("not json").is_err());
}

#[test]
fn a_tool_a_published_env_json_does_not_list_is_not_recorded_and_blocks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.toml");
    std::fs::write(
        &file,
        r#"
[post]
id = "r"
title = "Runtimes"
author = "Sam Ruby"
date = "2026-09-25"
summary = "Two runtimes."

[[toolchain]]
name = "ruby"
version = "4.0.5"
command = ["ruby", "--version"]
pattern = 'ruby (\d+\.\d+\.\d+)'

[[toolchain]]
name = "java"
version = "25"
command = ["java", "-version"]
pattern = 'version "(\d+(?:\.\d+)*)'

[[toolchain]]
name = "jruby"
version = "10.1.1.0"
command = ["jruby", "--version"]
pattern = 'jruby (\d+(?:\.\d+)+)'

[[lane]]
name = "ruby"
runtime = "ruby"
command = ["ruby", "-S", "puma"]
why = "CRuby."

[[lane]]
name = "jruby"
runtime = "jruby"
needs = ["java"]
command = ["jruby", "-S", "puma"]
why = "JRuby on JDK 25."
"#,
    )
    .unwrap();
    let recipe = reprise_recipe::load(&file).unwrap();
    let machine = reprise_harness_files::parse_machine_file(PUBLISHED).unwrap();
    let p = reprise_probe::preflight::preflight(&recipe, &machine.fingerprint, &machine.toolchains);
    let item = |name: &str| {
        p.items
            .iter()
            .find(|i| i.name == name)
            .unwrap_or_else(|| panic!("no {name}: {p:#?}"))
    };
    use reprise_probe::preflight::Verdict;
    assert_eq!(item("toolchain ruby").verdict, Verdict::Matches);
    let java = item("toolchain java");
    assert_eq!(java.verdict, Verdict::NotRecorded, "{java:#?}");
    assert_eq!(java.here.as_deref(), Some("not recorded"));
    assert!(
        p.blocked_lanes.is_empty(),
        "nothing blocks: {:?}",
        p.blocked_lanes
    );
}
