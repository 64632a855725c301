//! The UI's page tests (ui/tests/ui/pages.test.mjs) run the pages on a
//! scripted backend. Its views are not written by hand: this test makes
//! them with the session, as the app's commands make them, for one reader's
//! scenario, and writes them to ui/src/testing/views.generated.ts. The file
//! must be what the session makes today: a change of wording in Rust that
//! the pages' tests rely on shows up here, and `REPRISE_UPDATE_FIXTURES=1`
//! writes it anew (then run the page tests).
//!
//! The scenario: a reader's bare-metal desktop (a fixture tree of /proc,
//! /sys and /etc, read by the real probe) that is not the posts' Ryzen,
//! with ruby, puma, nginx and mise installed and falcon not (executables that
//! answer their version, on a PATH of their own); the checkout's own
//! recipes; two stored runs of hello-ceiling (one full, one a smoke run
//! with falcon skipped) in the harness's files, judged and stored as a run
//! is; the project's Discussions as a fetch leaves them, holding other
//! machines' posts made by the share flow; validations of the desktop (one
//! with a single ceiling run) and of a cloud VM. The desktop's fingerprint
//! records a Docker engine (the Machine page and its validations show it),
//! but the engine the session asks does not answer, as on a reader's
//! machine whose Docker is stopped: preflights and plans see none.
//!
//! The session reads its environment (PATH, HOME, TMPDIR, the container
//! engine), so the views are made in a child process of this test with an
//! environment of its own; what this machine adds (its host and account
//! names, the last digits of its maths library) is kept out, so the file is
//! the same on every machine.

#[path = "../../validate/tests/machine/mod.rs"]
mod machine;

use std::path::{Path, PathBuf};
use std::process::Command;

use machine::fixture::{self, CpuSpec, Tree};
use reprise_engine::RunDir;
use reprise_history::History;
use reprise_probe::Fingerprint;
use reprise_recipe::Catalog;
use reprise_report::RunEnding;
use reprise_session::run::RunChoices;
use reprise_session::views::{ThisMachine, Validation};
use reprise_session::{DataDir, HistoryOutcome, Session, ShareSettings};
use reprise_share::community::{Cache, Discussion, find_block};
use reprise_share::{GitHub, Redactor, TokenStore, prepare};
use serde::Serialize;
use serde_json::json;

const FIXTURES: &str = "ui/src/testing/views.generated.ts";
const CHILD: &str = "REPRISE_UI_FIXTURES_CHILD";
const UPDATE: &str = "REPRISE_UPDATE_FIXTURES";

/// Where the generated file says the reader's folders are.
const READER_CHECKOUT: &str = "/home/reader/reprise";
const READER_DATA: &str = "/home/reader/.local/share/reprise";
const READER_BIN: &str = "/usr/bin";

fn checkout() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .canonicalize()
        .unwrap()
}

#[test]
fn the_ui_fixtures_are_the_session_s_views() {
    let Some(scenario) = std::env::var_os(CHILD) else {
        return in_a_child();
    };
    let made = views(&PathBuf::from(scenario));
    let file = checkout().join(FIXTURES);
    if std::env::var_os(UPDATE).is_some() {
        std::fs::write(&file, &made).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&file).unwrap_or_default();
    if kept != made {
        let line = kept
            .lines()
            .zip(made.lines())
            .position(|(a, b)| a != b)
            .map_or(kept.lines().count().min(made.lines().count()), |n| n);
        panic!(
            "{FIXTURES} is not what the session makes now (first difference at line {}):\n  kept: {}\n  made: {}\n\
             Write it anew with `{UPDATE}=1 cargo test -p reprise-session --test ui_fixtures`, then run the UI's page tests.",
            line + 1,
            kept.lines().nth(line).unwrap_or("(end)"),
            made.lines().nth(line).unwrap_or("(end)"),
        );
    }
}

/// Runs this test again in a child with the scenario's environment: its
/// own PATH of version-answering executables, HOME, data dir, and no
/// container engine or GitHub token.
fn in_a_child() {
    // Under /tmp, whatever TMPDIR says: a folder under a person's home
    // would be redacted as theirs in the shared report.
    let scenario = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    let bin = scenario.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, says) in [
        (
            "ruby",
            "echo 'ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]'",
        ),
        ("puma", "echo 'puma version 6.6.0 (\"Return to Forever\")'"),
        ("nginx", "echo 'nginx version: nginx/1.26.3' >&2"),
        ("mise", "echo '2026.9.15 linux-x64 (2026-09-15)'"),
    ] {
        executable(&bin.join(name), says);
    }
    let home = scenario.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "the_ui_fixtures_are_the_session_s_views",
            "--nocapture",
        ])
        .env_clear()
        .env(CHILD, scenario.path())
        .env("PATH", &bin)
        .env("HOME", &home)
        .env("TMPDIR", "/tmp")
        .env("LANG", "C.UTF-8")
        .env("TZ", "UTC")
        .env("DOCKER_HOST", "unix:///nonexistent/docker.sock");
    if let Some(update) = std::env::var_os(UPDATE) {
        child.env(UPDATE, update);
    }
    let status = child.status().unwrap();
    assert!(status.success(), "the views' child: {status}");
}

/// A shell script at `path` that runs `says`: a toolchain answering its
/// version.
fn executable(path: &Path, says: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{says}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The reader's desktop: an 8-core Ryzen 7, bare metal, governor
/// performance, boost off (`boost` says otherwise), 32 GB, Debian 12.
fn desktop_tree(boost: bool) -> Tree {
    let tree = Tree::new();
    let threads = 16u32;
    fixture::write_cpus(
        &tree,
        &CpuSpec {
            brand: "AMD Ryzen 7 5800X 8-Core Processor",
            vendor: "AuthenticAMD",
            family: 25,
            model: 33,
            stepping: 0,
            mhz: "3800.000",
            flags: "fpu vme de pse tsc msr pae mce cx8 apic sep ht syscall nx lm constant_tsc rep_good",
            core_ids: (0..threads).map(|n| n % 8).collect(),
            cores_per_socket: 8,
        },
    );
    for cpu in 0..threads {
        fixture::write_pinned_policy(&tree, cpu, 2_200_000, 3_800_000);
    }
    tree.file(
        "sys/devices/system/cpu/cpufreq/boost",
        if boost { "1\n" } else { "0\n" },
    )
    .file("sys/devices/system/cpu/smt/control", "on\n")
    .file("sys/devices/system/cpu/smt/active", "1\n")
    .file(
        "sys/kernel/mm/transparent_hugepage/enabled",
        "always [madvise] never\n",
    )
    .file("sys/class/dmi/id/sys_vendor", "ASUS\n")
    .file("sys/class/dmi/id/product_name", "System Product Name\n")
    .file("proc/loadavg", "0.08 0.05 0.01 1/512 4021\n")
    .file("proc/uptime", "86400.50 1000000.00\n")
    .file(
        "proc/stat",
        "cpu  1000 0 500 98500 0 0 0 0 0 0\ncpu0 1 0 0 0 0 0 0 0 0 0\n",
    )
    .file(
        "proc/self/status",
        "Name:\tprobe\nCpus_allowed:\tffff\nCpus_allowed_list:\t0-15\n",
    );
    fixture::write_os(
        &tree,
        "Debian GNU/Linux 12 (bookworm)",
        "debian",
        "12",
        "6.1.0-27-amd64",
        "desk-seven",
    );
    fixture::write_meminfo(&tree, 32_768_000, 28_000_000, 0, 0);
    tree
}

/// A cloud VM: two vCPUs of a Xeon, no cpufreq, 8 GB.
fn cloud_vm() -> Tree {
    let tree = Tree::new();
    fixture::write_cpus(
        &tree,
        &CpuSpec {
            brand: "Intel(R) Xeon(R) CPU @ 2.20GHz",
            vendor: "GenuineIntel",
            family: 6,
            model: 79,
            stepping: 0,
            mhz: "2200.000",
            flags: "fpu vme de pse tsc msr pae mce cx8 apic sep ht syscall nx lm constant_tsc rep_good hypervisor",
            core_ids: vec![0, 0],
            cores_per_socket: 1,
        },
    );
    tree.file("sys/class/dmi/id/sys_vendor", "Google\n")
        .file("sys/class/dmi/id/product_name", "Google Compute Engine\n")
        .file(
            "proc/self/status",
            "Name:\tprobe\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n",
        );
    fixture::write_os(
        &tree,
        "Debian GNU/Linux 12 (bookworm)",
        "debian",
        "12",
        "6.1.0-27-cloud-amd64",
        "vm-one",
    );
    fixture::write_meminfo(&tree, 8_130_560, 6_400_000, 0, 0);
    tree
}

/// Another reader's machine: `threads` CPUs of `brand`, in a VM of
/// `hypervisor` where one is named.
fn other_machine(brand: &str, vendor: &str, threads: u32, hypervisor: Option<&str>) -> Tree {
    let tree = Tree::new();
    let flags = match hypervisor {
        Some(_) => "fpu vme de pse tsc msr pae mce cx8 apic sep ht syscall nx lm hypervisor",
        None => "fpu vme de pse tsc msr pae mce cx8 apic sep ht syscall nx lm",
    };
    fixture::write_cpus(
        &tree,
        &CpuSpec {
            brand,
            vendor,
            // Ice Lake-SP, or Zen 3 (EPYC 7763).
            family: if vendor == "AuthenticAMD" { 25 } else { 6 },
            model: if vendor == "AuthenticAMD" { 1 } else { 106 },
            stepping: 6,
            mhz: "2000.000",
            flags,
            core_ids: (0..threads).map(|n| n % (threads / 2)).collect(),
            cores_per_socket: threads / 2,
        },
    );
    if let Some(vendor) = hypervisor {
        tree.file("sys/class/dmi/id/sys_vendor", &format!("{vendor}\n"));
    }
    fixture::write_os(
        &tree,
        "Ubuntu 24.04.1 LTS",
        "ubuntu",
        "24.04",
        "6.8.0-49-generic",
        "their-box",
    );
    fixture::write_meminfo(&tree, 65_000_000, 60_000_000, 0, 0);
    tree
}

/// A post in the project's Discussions as `reprise share` writes it on
/// `machine` for a run of hello-ceiling at these rates (three runs each),
/// made from the reviewed recipe.
fn shared_post(
    session: &Session,
    number: u64,
    author: &str,
    machine: &Fingerprint,
    puma: f64,
    falcon: f64,
) -> Discussion {
    let results = tempfile::tempdir().unwrap();
    std::fs::write(
        results.path().join("per-run.json"),
        per_run(&[("puma", 2, puma, 0.05), ("falcon", 2, falcon, 0.05)], 3),
    )
    .unwrap();
    let env = reprise_harness_files::bench_env::BenchEnv::default()
        .with_reprise(machine, &Default::default(), Default::default())
        .to_json();
    std::fs::write(results.path().join("env.json"), env).unwrap();
    let loaded = session.load_recipe("hello-ceiling").unwrap();
    let id = format!("hello-ceiling-20261201-06{number:02}00");
    let at = format!("2026-12-01T06:{number:02}:00Z");
    let run = reprise_report::RunInfo::for_recipe(&loaded.recipe, &id, &at);
    let mut report = reprise_session::judge::judge_results_dir(
        &loaded.recipe,
        results.path(),
        None,
        run,
        &Default::default(),
    )
    .unwrap();
    report.run.recipe_sha256 = Some(loaded.sha256.clone());
    report.run.machine = reprise_session::machine_summary::of_report(&report);
    // Redacted as the poster's own share flow redacts it: what their run
    // recorded (this process's names are not theirs).
    let mut redactor = Redactor::new();
    redactor.learn_recorded(&report.environment.fingerprint);
    redactor.learn_recorded(&report.environment.bench_env);
    let post = prepare(&report, Some(&redactor)).unwrap();
    discussion(number, author, &post.title, &post.body)
}

fn discussion(number: u64, author: &str, title: &str, body: &str) -> Discussion {
    Discussion {
        id: format!("D_{number}"),
        number,
        title: title.into(),
        author: Some(author.into()),
        updated_at: format!("2026-12-01T06:{number:02}:00Z"),
        found: find_block(body),
    }
}

/// `per-run.json` lines: `runs` runs of each lane, from `base` req/s up,
/// its tail latency `tail` ms further each run.
fn per_run(lanes: &[(&str, u32, f64, f64)], runs: u32) -> String {
    let mut lines = String::new();
    for (lane, workers, base, tail) in lanes {
        for run in 1..=runs {
            let up = f64::from(run);
            // nginx's second run: the load generator used 97% of its CPU.
            let client_cpu = if *lane == "nginx" && run == 2 {
                0.97
            } else {
                0.55
            };
            lines.push_str(
                &json!({"target": lane, "workers": workers, "endpoint": "/", "run": run,
                        "req_sec": base + up * 100.0, "client_cpu": client_cpu,
                        "p50_ms": 0.4 + up / 100.0, "p99_ms": 1.0 + up * tail})
                .to_string(),
            );
            lines.push('\n');
        }
    }
    lines
}

/// A run of hello-ceiling as the engine leaves its folder (the harness's
/// files, the skipped lanes, the deviations), judged and stored as a
/// finished run is.
fn store_run(
    session: &Session,
    id: &str,
    created_at: &str,
    env: &str,
    files: &[(&str, String)],
    ending: RunEnding,
) {
    let run = RunDir {
        id: id.into(),
        path: session.data.runs().join(id),
    };
    let results = run.results();
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("env.json"), env).unwrap();
    for (name, text) in files {
        std::fs::write(results.join(name), text).unwrap();
    }
    // What each server got from the machine, which Reprise keeps beside
    // the harness's files: every lane's server had nearly all of its 1 CPU
    // for 20 s, and wanted it all (CPU-bound, on a quiet machine).
    let mut measurements = reprise_harness_files::read_measurements(&results).unwrap();
    for cell in &mut measurements.cells {
        for run in &mut cell.runs {
            run.server_cpu = Some(reprise_verdict::ServerCpu {
                wall_s: 20.0,
                cpu_s: 19.6,
                wait_s: Some(0.3),
                cpus: 1.0,
                steal_s: None,
                generator_s: None,
            });
        }
    }
    std::fs::write(
        results.join("measurements.json"),
        serde_json::to_string(&measurements).unwrap(),
    )
    .unwrap();
    let loaded = session.load_recipe("hello-ceiling").unwrap();
    let mut report = reprise_session::judge::judge_run(&loaded.recipe, &run, "reprise run")
        .unwrap()
        .expect("the run measured something");
    report.run.created_at = created_at.into();
    report.run.ending = Some(ending);
    // Made from the reviewed recipe, as the run's folder records it.
    report.run.recipe_sha256 = Some(loaded.sha256);
    History::open(&session.data.root)
        .unwrap()
        .store(&report)
        .unwrap();
}

/// A new run of recipe `id`, as the Run page plans it.
fn new_plan(session: &Session, id: &str) -> reprise_session::views::RunPlan {
    let fresh = RunChoices {
        fresh: true,
        ..RunChoices::default()
    };
    session.plan_for(id, fresh).unwrap()
}

/// The generated file: each view an `export const NAME: TYPE = JSON;`.
struct Views {
    types: Vec<&'static str>,
    body: String,
}

impl Views {
    fn add(&mut self, name: &str, ty: &'static str, doc: &str, value: &impl Serialize) {
        let import = ty.trim_end_matches("[]");
        if !self.types.contains(&import) {
            self.types.push(import);
        }
        let mut value = serde_json::to_value(value).unwrap();
        round_floats(&mut value);
        let json = serde_json::to_string_pretty(&value).unwrap();
        self.body.push_str(&format!(
            "\n/** {doc} */\nexport const {name}: {ty} = {json};\n"
        ));
    }

    /// The file, each of `folders` said as the reader's (`/home/reader/…`).
    fn text(mut self, folders: &[(&Path, &str)]) -> String {
        self.types.sort();
        let mut head = String::from(
            "// Made by crates/session/tests/ui_fixtures.rs from the session's views of\n\
             // one reader's scenario: do not edit. `REPRISE_UPDATE_FIXTURES=1 cargo\n\
             // test -p reprise-session --test ui_fixtures` writes it anew.\n",
        );
        for ty in &self.types {
            head.push_str(&format!(
                "import type {{ {ty} }} from '../bindings/{ty}';\n"
            ));
        }
        let mut text = head + &self.body;
        for (folder, said) in folders {
            text = replace_folder(&text, &folder.display().to_string(), said);
        }
        text
    }
}

/// `text` with the folder `path` said as `said` wherever it is a whole
/// folder (followed by a `/`, a quote or the end of a word), not where it
/// is only the start of a longer name.
fn replace_folder(text: &str, path: &str, said: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(path) {
        let after = &rest[at + path.len()..];
        let whole = after
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '.'));
        out.push_str(&rest[..at]);
        out.push_str(if whole { said } else { path });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Every number of `value` to 10 significant digits: the last digits of a
/// statistic can differ between machines' maths libraries, and no page
/// shows them.
fn round_floats(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(n) if n.is_f64() => {
            let x = n.as_f64().unwrap_or_default();
            if x != 0.0 && x.is_finite() {
                let scale = 10f64.powi(9 - x.abs().log10().floor() as i32);
                let rounded = (x * scale).round() / scale;
                *value = serde_json::json!(rounded);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(round_floats),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(round_floats),
        _ => {}
    }
}

fn views(scenario: &Path) -> String {
    let data = scenario.join("data");
    let desktop = desktop_tree(false);
    let mut session = Session::new(
        Catalog::new(checkout()),
        DataDir::new(&data),
        ShareSettings {
            // Never asked: nobody is signed in, and the Discussions are read
            // from the cache a fetch leaves.
            github: GitHub::new("https://github.com", "https://api.github.com"),
            client_id: None,
            repo: Some("rubys/reprise".into()),
            token_store: Some(TokenStore::File(data.join("github-token"))),
            env_token: None,
            ask_gh: false,
        },
    );
    session.machine_root = Some(desktop.root().to_path_buf());
    // With the Docker engine the desktop has (a value: the engine is not
    // asked here).
    let fingerprint = machine::read(&desktop);
    let mut views = Views {
        types: Vec::new(),
        body: String::new(),
    };

    // The reader's machine, and what it says of the posts'.
    views.add(
        "machine",
        "ThisMachine",
        "The reader's desktop, as the Machine page shows it.",
        &ThisMachine::of(&fingerprint),
    );
    let hello = session.load_recipe("hello-ceiling").unwrap();
    let preflight = session
        .preflight(
            &hello,
            reprise_session::preflight::Versions::Locate,
            false,
            &reprise_engine::LaneHost::ThisMachine,
            reprise_engine::ServerHostReading::Hardware,
        )
        .unwrap();
    views.add(
        "preflight",
        "Preflight",
        "hello-ceiling's preflight on the desktop, its versions not asked yet.",
        &preflight.report,
    );
    // The same desktop with its boost on: a hardware fix beside falcon's.
    let boost_on = desktop_tree(true);
    session.machine_root = Some(boost_on.root().to_path_buf());
    views.add(
        "preflightBoostOn",
        "Preflight",
        "hello-ceiling's preflight on the desktop with its boost on.",
        &session
            .preflight(
                &hello,
                reprise_session::preflight::Versions::Locate,
                false,
                &reprise_engine::LaneHost::ThisMachine,
                reprise_engine::ServerHostReading::Hardware,
            )
            .unwrap()
            .report,
    );
    session.machine_root = Some(desktop.root().to_path_buf());
    views.add(
        "post",
        "PostView",
        "hello-ceiling's post.",
        &session.post_view("hello-ceiling").unwrap(),
    );
    views.add(
        "runtimesPost",
        "PostView",
        "campfire-runtimes' post: figures with long notes, and a link to the post.",
        &session.post_view("campfire-runtimes").unwrap(),
    );
    views.add(
        "machinePost",
        "PostView",
        "The machine recipe's post: a figure's sentence with inline code.",
        &session.post_view("machine").unwrap(),
    );
    views.add(
        "plan",
        "RunPlan",
        "A new run of hello-ceiling, planned without falcon: it judges no claim here.",
        &new_plan(&session, "hello-ceiling"),
    );
    views.add(
        "campfirePlan",
        "RunPlan",
        "A new run of campfire-falcon: its lanes start with an environment of their own.",
        &new_plan(&session, "campfire-falcon"),
    );
    views.add(
        "machinePlan",
        "RunPlan",
        "A new run of the machine recipe: long command lines in its plan.",
        &new_plan(&session, "machine"),
    );
    views.add(
        "fibersPlan",
        "RunPlan",
        "A new run of fibers-vs-threads: a command recipe, every lane of it runnable here.",
        &new_plan(&session, "fibers-vs-threads"),
    );
    views.add(
        "setupPlan",
        "SetupPlan",
        "What `reprise setup` would install for hello-ceiling.",
        &session.setup_plan(&hello, &[]),
    );

    // Everyone's results before the reader ran anything or read anything
    // (not signed in).
    views.add(
        "nobodyYet",
        "Community",
        "Everyone's results for hello-ceiling before anything was read, not signed in.",
        &session.community("hello-ceiling", None, true).unwrap(),
    );
    // Two stored runs: a full one, then a smoke run with falcon skipped.
    let mut tools = reprise_probe::preflight::probe_recipe_toolchains(
        &hello.recipe,
        &reprise_probe::toolchain::SearchPath::from_env(),
        std::time::Duration::from_secs(10),
    );
    // How long each took to answer is this machine's, not the scenario's.
    for tool in &mut tools.tools {
        tool.elapsed_ms = 0;
    }
    let env = reprise_harness_files::bench_env::BenchEnv {
        captured_at: Some("2026-11-30T05:00:00Z".into()),
        harness: Some(json!({"runs": 3, "connections": 16, "duration_sec": 20, "warmup_sec": 5})),
        ..Default::default()
    }
    .with_reprise(&fingerprint, &tools, Default::default())
    .to_json();
    let full = "hello-ceiling-20261130-050000";
    store_run(
        &session,
        full,
        "2026-11-30T05:00:00Z",
        &env,
        &[(
            "per-run.json",
            per_run(
                &[
                    ("puma", 2, 30_000.0, 0.3),
                    ("falcon", 2, 60_000.0, 0.05),
                    ("nginx", 1, 91_000.0, 0.05),
                ],
                3,
            ),
        )],
        RunEnding::Finished,
    );
    let smoke = "hello-ceiling-20261201-090000";
    let quick = session
        .load_recipe("hello-ceiling")
        .map(|mut loaded| {
            let options = RunChoices {
                quick: true,
                fresh: true,
                ..RunChoices::default()
            }
            .options(&mut loaded.recipe, "")
            .unwrap();
            session.prepare(&loaded, &options).unwrap().deviations
        })
        .unwrap();
    store_run(
        &session,
        smoke,
        "2026-12-01T09:00:00Z",
        &env,
        &[
            ("per-run.json", per_run(&[("puma", 2, 29_800.0, 0.05)], 1)),
            (
                "skipped.json",
                json!([{"target": "falcon", "stage": "preflight",
                        "reason": "it needs falcon, which this machine lacks", "log_tail": ""},
                       {"target": "nginx", "stage": "load",
                        "reason": "cancelled", "log_tail": ""}])
                .to_string(),
            ),
            ("deviations.json", serde_json::to_string(&quick).unwrap()),
        ],
        RunEnding::Cancelled,
    );
    views.add(
        "results",
        "ResultsView",
        "The full run's results.",
        &session.results_view(full).unwrap(),
    );
    views.add(
        "smokeResults",
        "ResultsView",
        "The smoke run's results: falcon skipped, nginx cancelled.",
        &session.results_view(smoke).unwrap(),
    );
    let mut share = session.share_preview(full, None, None, true).unwrap();
    // The redaction also learns the names of the machine and the account
    // this test runs on, which are not the scenario's: the preview says only
    // those the run recorded, and its text must be what redacting those
    // alone makes (else this machine's names are in the scenario's report).
    let report = session.report(full).unwrap();
    let mut recorded = Redactor::new();
    recorded.learn_recorded(&report.environment.fingerprint);
    recorded.learn_recorded(&report.environment.bench_env);
    let names = [recorded.hostnames(), recorded.domains(), recorded.users()].concat();
    share.redacted_names.retain(|name| names.contains(name));
    assert_eq!(
        share.body,
        prepare(&report, Some(&recorded)).unwrap().body,
        "the shared report carries a name of this machine or account"
    );
    views.add(
        "share",
        "SharePreview",
        "The full run's share preview, redacted.",
        &share,
    );
    views.add(
        "library",
        "Library",
        "The checkout's recipes, as the Library shows them.",
        &session.library_view().unwrap(),
    );

    // Everyone's results from the cache a fetch of the Discussions leaves:
    // four machines' posts made by the share flow (one a stranger's whose
    // CPU name is HTML), an older post of one of them, and two posts that
    // cannot be counted (one titled with a script).
    let xeon = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
    let epyc = "AMD EPYC 7763 64-Core Processor";
    let fingerprint_of = |tree: Tree| Fingerprint::read(tree.root());
    let ana = fingerprint_of(other_machine(xeon, "GenuineIntel", 32, None));
    let ben = fingerprint_of(other_machine(xeon, "GenuineIntel", 8, Some("QEMU")));
    let chen = fingerprint_of(other_machine(epyc, "AuthenticAMD", 64, None));
    let mut stranger = Fingerprint::default();
    stranger.cpu.brand = Some("<img src=x onerror=\"document.title='pwned'\">Xeon".into());
    stranger.cpu.vendor = Some("GenuineIntel".into());
    let posts = vec![
        // Newest first, as a fetch leaves them.
        discussion(
            7,
            "mallory",
            "<script>document.title=\"pwned\"</script>",
            "```reprise-result v1\n{\"recipe\": \"hello-ceiling\", \"claims\": [\n```\n",
        ),
        discussion(
            6,
            "mallory",
            "From the future",
            "```reprise-result v7\n{}\n```\n",
        ),
        shared_post(&session, 5, "mallory", &stranger, 30_000.0, 58_500.0),
        shared_post(&session, 4, "chen", &chen, 50_000.0, 100_000.0),
        shared_post(&session, 3, "ben", &ben, 30_000.0, 45_000.0),
        shared_post(&session, 2, "ana", &ana, 21_000.0, 41_000.0),
        shared_post(&session, 1, "ana", &ana, 20_000.0, 30_000.0),
    ];
    let mut cache = Cache::load(&data, "rubys/reprise").unwrap();
    cache.merge(posts);
    cache.fetched_at = Some(1_796_101_200);
    cache.save(&data).unwrap();
    views.add(
        "community",
        "Community",
        "Everyone's results for hello-ceiling, from the cache (not fetched now).",
        &session.community("hello-ceiling", None, false).unwrap(),
    );

    // The reader sets falcon up: nothing blocks now.
    executable(&scenario.join("bin/falcon"), "echo 'falcon v0.51.1'");
    let set_up = session
        .preflight(
            &hello,
            reprise_session::preflight::Versions::Ask {
                timeout: std::time::Duration::from_secs(10),
            },
            false,
            &reprise_engine::LaneHost::ThisMachine,
            reprise_engine::ServerHostReading::Hardware,
        )
        .unwrap();
    views.add(
        "preflightSetUp",
        "Preflight",
        "hello-ceiling's preflight once falcon is set up, the versions asked.",
        &set_up.report,
    );
    views.add(
        "planWithFalcon",
        "RunPlan",
        "A new run of hello-ceiling with falcon set up.",
        &new_plan(&session, "hello-ceiling"),
    );

    // Validations: the desktop (ready) and a cloud VM (caveats).
    let validation = |fingerprint: Fingerprint, runs: &[Option<f64>], history: HistoryOutcome| {
        let recipe = reprise_validate::machine_recipe().unwrap();
        let reference = reprise_validate::checks::Reference {
            smt: recipe.machine.as_ref().and_then(|m| m.smt),
            ..Default::default()
        };
        let stability = machine::quiet_stability();
        let ceiling = machine::ceiling(runs, true);
        let mut checks = reprise_validate::checks::check_machine(
            &fingerprint,
            &reference,
            Some(&machine::roomy_disk()),
        );
        checks.extend(reprise_validate::fitness::stability_checks(&stability));
        checks.extend(reprise_validate::fitness::ceiling_checks(
            &ceiling,
            reprise_validate::baseline(&recipe),
        ));
        let mut profile =
            reprise_validate::Profile::new("quick", fingerprint, checks, stability, ceiling);
        profile.created_at = "2026-12-01T09:00:00Z".into();
        Validation::of(profile, Some(history))
    };
    let steady = [Some(74_210.0), Some(73_900.0), Some(74_800.0)];
    views.add(
        "readyValidation",
        "Validation",
        "A quick validation of the desktop.",
        &validation(
            fingerprint.clone(),
            &steady,
            HistoryOutcome::Stored {
                id: "machine-20261201-090000".into(),
            },
        ),
    );
    views.add(
        "oneRunValidation",
        "Validation",
        "A quick validation of the desktop whose ceiling had one run with data.",
        &validation(
            fingerprint.clone(),
            &[Some(74_210.0), None, None],
            HistoryOutcome::NothingToStore,
        ),
    );
    views.add(
        "caveatsValidation",
        "Validation",
        "A quick validation of a cloud VM, whose history could not be written.",
        &validation(
            Fingerprint::read(cloud_vm().root()),
            &steady,
            HistoryOutcome::Failed {
                reason: "history.sqlite: attempt to write a readonly database".into(),
            },
        ),
    );

    views.text(&[
        (&data, READER_DATA),
        (&scenario.join("bin"), READER_BIN),
        (&checkout(), READER_CHECKOUT),
    ])
}
