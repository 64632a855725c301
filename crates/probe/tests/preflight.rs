//! Preflight of a Campfire-runtimes-shaped recipe against fixture machines
//! (the post's own, and ones that differ) and toolchains made by the test.

mod fixture;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use reprise_probe::preflight::{self, Preflight, PublishedOnly, Verdict};
use reprise_probe::toolchain::SearchPath;
use reprise_probe::{ContainerEngine, Fingerprint};

pub const RECIPE: &str = r#"
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
os = "Ubuntu 24.04.5 LTS"
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

[[toolchain]]
name = "java"
version = "25"
command = ["java", "-version"]
pattern = 'version "(\d+(?:\.\d+)*)'
why = "JRuby 10.1.1.0 ran on JDK 25."

[[lane]]
name = "ruby"
runtime = "ruby"
command = ["ruby", "-S", "puma", "config.ru"]
why = "The emit on CRuby+YJIT, one process."

[[lane]]
name = "jruby"
runtime = "jruby"
needs = ["java"]
command = ["jruby", "-S", "puma", "config.ru"]
why = "The emit on JRuby, one process of twelve threads."

[[lane]]
name = "truffleruby"
runtime = "truffleruby"
command = ["truffleruby", "-S", "puma", "config.ru"]
env = { TRUFFLERUBYOPT = "--vm.Xmx1g" }
why = "The emit on TruffleRuby as shipped, C-extension lock on."

[[lane]]
name = "truffleruby-unlocked"
runtime = "truffleruby"
command = ["truffleruby", "-S", "puma", "config.ru"]
env = { TRUFFLERUBYOPT = "--vm.Xmx1g --experimental-options --cexts-lock=false" }
why = "The same with the lock off."

[[lane]]
name = "ruby-container"
placement = "container"
image = "reprise/campfire-ruby:4.0.5"
command = ["puma", "config.ru"]
why = "The CRuby lane in an image that carries Ruby 4.0.5."

[[lane]]
name = "spinel"
not_runnable = "The Spinel compiler is not published."
why = "The binary."
"#;

pub fn recipe(dir: &Path) -> reprise_recipe::Recipe {
    let file = dir.join("campfire-runtimes.toml");
    std::fs::write(&file, RECIPE).unwrap();
    reprise_recipe::load(&file).unwrap()
}

const RUBY_405: &str = "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +YJIT +PRISM [x86_64-linux]";

fn script(dir: &Path, name: &str, banner: &str, to_stderr: bool) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    let redirect = if to_stderr { " >&2" } else { "" };
    std::fs::write(&path, format!("#!/bin/sh\necho '{banner}'{redirect}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A bin dir with the post's exact toolchains.
fn published_bin(dir: &Path) -> SearchPath {
    script(dir, "ruby", RUBY_405, false);
    script(
        dir,
        "jruby",
        "jruby 10.1.1.0 (3.4.2) 2026-01-13 8f1a2b3c4d OpenJDK 64-Bit Server VM 25.0.1+8-LTS on 25.0.1+8-LTS +jit [x86_64-linux]",
        false,
    );
    script(
        dir,
        "truffleruby",
        "truffleruby 40.0.0, like ruby 3.4.7, GraalVM CE Native [x86_64-linux]",
        false,
    );
    script(
        dir,
        "java",
        "openjdk version \"25.0.1\" 2025-10-21 LTS",
        true,
    );
    SearchPath {
        dirs: vec![dir.to_path_buf()],
        mise_installs: None,
    }
}

fn run(recipe: &reprise_recipe::Recipe, fp: &Fingerprint, search: &SearchPath) -> Preflight {
    let tools = preflight::probe_recipe_toolchains(recipe, search, Duration::from_secs(10));
    preflight::preflight(recipe, fp, &tools)
}

#[test]
fn the_posts_own_machine_and_toolchains_match_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe(tmp.path());
    let machine = fixture::ryzen_5_3600();
    let mut fp = Fingerprint::read(machine.root());
    fp.container_engine = Some(ContainerEngine {
        host: "unix:///run/podman.sock".into(),
        name: Some("Podman Engine".into()),
        version: Some("4.3.1".into()),
        ..ContainerEngine::default()
    });
    let report = run(&recipe, &fp, &published_bin(&tmp.path().join("bin")));

    let not_matching: Vec<_> = report
        .items
        .iter()
        .filter(|i| i.verdict != Verdict::Matches)
        .collect();
    assert!(not_matching.is_empty(), "{not_matching:#?}");
    let names: Vec<&str> = report.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "CPU",
            "cores/threads",
            "SMT",
            "frequency",
            "governor",
            "boost",
            "memory",
            "virtualisation",
            "toolchain ruby",
            "toolchain jruby",
            "toolchain truffleruby",
            "toolchain java",
            "lane ruby",
            "lane jruby",
            "lane truffleruby",
            "lane truffleruby-unlocked",
            "lane ruby-container",
        ]
    );
    assert!(report.absolute_comparable);
    assert!(!report.blocks());
    assert_eq!(
        report.runnable_lanes,
        [
            "ruby",
            "jruby",
            "truffleruby",
            "truffleruby-unlocked",
            "ruby-container"
        ]
    );
    assert_eq!(
        report.published_only_lanes,
        [PublishedOnly {
            lane: "spinel".into(),
            why: "The Spinel compiler is not published.".into()
        }]
    );
    assert_eq!(
        report.item("frequency").unwrap().here.as_deref(),
        Some("3.6 GHz")
    );
    assert_eq!(
        report.item("memory").unwrap().here.as_deref(),
        Some("63 GB")
    );
    // The lock and the second lockfile are said where they apply, and only there.
    let why = |lane: &str| report.item(&format!("lane {lane}")).unwrap().why.clone();
    assert!(why("truffleruby").contains("--cexts-lock=false"));
    assert!(!why("truffleruby-unlocked").contains("--cexts-lock=false"));
    assert!(why("truffleruby").contains("precompiled gem in the lockfile"));
    assert!(why("jruby").contains("precompiled gem in the lockfile"));
    assert!(!why("ruby").contains("lockfile"));
    assert_eq!(
        report.item("toolchain java").unwrap().why,
        "JRuby 10.1.1.0 ran on JDK 25."
    );
}

#[test]
fn boost_on_and_another_governor_differ_with_the_commands_that_fix_them() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe(tmp.path());
    let machine = fixture::ryzen_5_3600();
    machine.file("sys/devices/system/cpu/cpufreq/boost", "1\n");
    for n in 0..12 {
        machine.file(
            &format!("sys/devices/system/cpu/cpufreq/policy{n}/scaling_governor"),
            "schedutil\n",
        );
    }
    let fp = Fingerprint::read(machine.root());
    let report = run(&recipe, &fp, &published_bin(&tmp.path().join("bin")));

    let governor = report.item("governor").unwrap();
    assert_eq!(governor.verdict, Verdict::Differs);
    assert_eq!(governor.here.as_deref(), Some("schedutil"));
    assert_eq!(
        governor.fix.as_deref(),
        Some("sudo cpupower frequency-set -g performance")
    );
    assert!(governor.why.contains("changes absolute numbers"));
    let boost = report.item("boost").unwrap();
    assert_eq!(
        (boost.verdict, boost.here.as_deref()),
        (Verdict::Differs, Some("on"))
    );
    assert_eq!(
        boost.fix.as_deref(),
        Some("echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost")
    );
    assert!(!report.absolute_comparable);
    assert_eq!(report.item("CPU").unwrap().verdict, Verdict::Matches);
    // The machine differing blocks nothing: every host lane still runs (only the
    // container lane waits for an engine).
    assert_eq!(report.blocked_lanes, ["ruby-container"]);
}

#[test]
fn intel_turbo_is_switched_off_through_no_turbo() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe(tmp.path());
    let machine = fixture::ryzen_5_3600();
    std::fs::remove_file(machine.root().join("sys/devices/system/cpu/cpufreq/boost")).unwrap();
    machine.file("sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
    let fp = Fingerprint::read(machine.root());
    let report = run(&recipe, &fp, &published_bin(&tmp.path().join("bin")));
    assert_eq!(
        report.item("boost").unwrap().fix.as_deref(),
        Some("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo")
    );
}

#[test]
fn debian_toolchains_on_a_vm_differ_or_block_with_reasons_and_fixes() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe(tmp.path());
    let bin = tmp.path().join("bin");
    script(
        &bin,
        "ruby",
        "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]",
        false,
    );
    script(&bin, "java", "openjdk version \"17.0.15\" 2025-04-15", true);
    let search = SearchPath {
        dirs: vec![bin.clone()],
        mise_installs: None,
    };
    let vm = fixture::Tree::new();
    vm.file(
        "proc/cpuinfo",
        "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\nflags\t\t: fpu hypervisor\n\n",
    )
    .file("sys/class/dmi/id/sys_vendor", "QEMU\n");
    fixture::write_meminfo(&vm, 24 * 1024 * 1024, 20 * 1024 * 1024, 0, 0);
    let fp = Fingerprint::read(vm.root());
    let report = run(&recipe, &fp, &search);

    let verdict = |name: &str| report.item(name).unwrap().verdict;
    for machine_item in [
        "CPU",
        "cores/threads",
        "governor",
        "boost",
        "memory",
        "virtualisation",
    ] {
        assert_eq!(verdict(machine_item), Verdict::Differs, "{machine_item}");
    }
    let governor = report.item("governor").unwrap();
    assert!(
        governor.why.contains("exposes no cpufreq governor"),
        "{}",
        governor.why
    );
    assert_eq!(governor.fix, None, "no governor to set in a VM");
    assert_eq!(
        report.item("virtualisation").unwrap().here.as_deref(),
        Some("virtual machine (QEMU)")
    );

    let ruby = report.item("toolchain ruby").unwrap();
    assert_eq!(ruby.verdict, Verdict::Differs);
    assert!(
        ruby.here.as_deref().unwrap().starts_with("Ruby 3.1.2 ("),
        "{:?}",
        ruby.here
    );
    assert_eq!(
        ruby.fix.as_deref(),
        Some("mise install ruby@4.0.5 && mise use ruby@4.0.5")
    );
    let jruby = report.item("toolchain jruby").unwrap();
    assert_eq!(
        (jruby.verdict, jruby.here.as_deref()),
        (Verdict::Blocks, Some("not found"))
    );
    assert_eq!(
        jruby.fix.as_deref(),
        Some("mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0")
    );
    assert_eq!(verdict("toolchain truffleruby"), Verdict::Blocks);
    assert_eq!(verdict("toolchain java"), Verdict::Differs);

    assert_eq!(verdict("lane ruby"), Verdict::Differs);
    let lane = report.item("lane jruby").unwrap();
    assert_eq!(lane.verdict, Verdict::Blocks);
    assert!(
        lane.why
            .starts_with("Cannot run: it needs jruby, which this machine lacks."),
        "{}",
        lane.why
    );
    // The fix is one shell line of commands, never a sentence run into it.
    let fix = lane.fix.as_deref().unwrap();
    assert!(
        fix.starts_with("mise install ") || fix.starts_with("sudo "),
        "{fix}"
    );
    assert!(!fix.contains("; or") && !fix.contains(" or run"), "{fix}");
    let container = report.item("lane ruby-container").unwrap();
    assert_eq!(container.verdict, Verdict::Blocks);
    assert!(
        container
            .fix
            .as_deref()
            .unwrap()
            .contains("podman system service")
    );
    assert!(report.blocks());
    assert_eq!(report.runnable_lanes, ["ruby"]);
    assert_eq!(
        report.blocked_lanes,
        [
            "jruby",
            "truffleruby",
            "truffleruby-unlocked",
            "ruby-container"
        ]
    );
    assert!(!report.absolute_comparable);
}

#[test]
fn a_matching_version_in_mise_installs_is_one_command_away() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe(tmp.path());
    let bin = tmp.path().join("bin");
    script(
        &bin,
        "ruby",
        "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]",
        false,
    );
    let installs = tmp.path().join("installs");
    script(&installs.join("ruby/4.0.5/bin"), "ruby", RUBY_405, false);
    let search = SearchPath {
        dirs: vec![bin],
        mise_installs: Some(installs),
    };
    let fp = Fingerprint::read(fixture::ryzen_5_3600().root());
    let report = run(&recipe, &fp, &search);
    let ruby = report.item("toolchain ruby").unwrap();
    assert_eq!(ruby.verdict, Verdict::Differs);
    assert_eq!(ruby.fix.as_deref(), Some("mise use ruby@4.0.5"));
    assert_eq!(report.item("lane ruby").unwrap().verdict, Verdict::Differs);
}

#[test]
fn this_machine_runs_no_published_ruby() {
    let tmp = tempfile::tempdir().unwrap();
    let recipe = recipe(tmp.path());
    let fp = Fingerprint::read(Path::new("/"));
    let report = run(&recipe, &fp, &SearchPath::from_env());
    // Ruby 4.0.5, JRuby 10.1.1.0 and TruffleRuby 40.0.0 are not in Debian 12.
    for tool in ["ruby", "jruby", "truffleruby"] {
        let item = report.item(&format!("toolchain {tool}")).unwrap();
        assert_ne!(item.verdict, Verdict::Matches, "{item:?}");
        assert!(item.fix.is_some(), "{item:?}");
    }
    assert!(report.blocks());
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["items"][0]["verdict"],
        serde_json::json!(report.items[0].verdict.word())
    );
}

#[test]
fn a_recipe_pattern_that_refuses_the_banner_is_not_overruled() {
    // The post ran TruffleRuby's native build; the recipe's pattern says so.
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("campfire-runtimes.toml");
    let native_only = RECIPE.replace(
        r"pattern = 'truffleruby (\d+(?:\.\d+)+)'",
        r"pattern = 'truffleruby (\d+\.\d+\.\d+)[^\n]*Native'",
    );
    assert_ne!(native_only, RECIPE);
    std::fs::write(&file, native_only).unwrap();
    let recipe = reprise_recipe::load(&file).unwrap();
    let bin = tmp.path().join("bin");
    let search = published_bin(&bin);
    script(
        &bin,
        "truffleruby",
        "truffleruby 40.0.0, like ruby 3.4.7, GraalVM CE JVM [x86_64-linux]",
        false,
    );
    let fp = Fingerprint::read(fixture::ryzen_5_3600().root());
    let report = run(&recipe, &fp, &search);
    let truffle = report.item("toolchain truffleruby").unwrap();
    assert_eq!(truffle.verdict, Verdict::Differs);
    assert!(
        truffle
            .here
            .as_deref()
            .unwrap()
            .starts_with("TruffleRuby 40.0.0 (Ruby 3.4.7), JVM")
    );
    assert_eq!(
        report.item("lane truffleruby").unwrap().verdict,
        Verdict::Differs
    );
}

/// Figures and claims over the recipe's lanes: one a blocked lane stops,
/// one absolute, one on a lane the post alone measured.
const CLAIMS: &str = r#"
[[figure]]
id = "ruby-rps"
lane = "ruby"
metric = "req_per_s"
value = 2000
quote = "CRuby serves 2,000."

[[figure]]
id = "jruby-rps"
lane = "jruby"
metric = "req_per_s"
value = 1000
quote = "JRuby serves 1,000."

[[figure]]
id = "spinel-rps"
lane = "spinel"
metric = "req_per_s"
value = 8000
quote = "Spinel serves 8,000."

[[claim]]
id = "ruby-twice-jruby"
kind = "ratio"
numerator = "ruby-rps"
denominator = "jruby-rps"
value = 2.0
tolerance = 0.15
quote = "CRuby is twice JRuby."

[[claim]]
id = "ruby-ceiling"
kind = "absolute"
figure = "ruby-rps"
tolerance = 0.15
quote = "CRuby serves 2,000."

[[claim]]
id = "spinel-over-ruby"
kind = "ratio"
numerator = "spinel-rps"
denominator = "ruby-rps"
value = 4.0
tolerance = 0.15
quote = "Spinel is four times CRuby."
"#;

#[test]
fn a_preflight_says_which_claims_a_run_here_can_judge_and_why_not() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("campfire-runtimes.toml");
    std::fs::write(&file, format!("{RECIPE}{CLAIMS}")).unwrap();
    let recipe = reprise_recipe::load(&file).unwrap();
    let judged = |report: &Preflight| -> Vec<(String, bool, Option<String>, Option<String>)> {
        reprise_probe::preflight::claims_here(&recipe, report)
            .iter()
            .map(|c| {
                let why = c.why.as_ref().map(|w| w.to_string());
                (c.claim.clone(), c.judged, why, c.fix.clone())
            })
            .collect()
    };

    // The post's machine and toolchains: all but the post's own lane's.
    let machine = fixture::ryzen_5_3600();
    let fp = Fingerprint::read(machine.root());
    let report = run(&recipe, &fp, &published_bin(&tmp.path().join("bin")));
    let on_the_posts = judged(&report);
    assert!(on_the_posts[0].1 && on_the_posts[1].1, "{on_the_posts:#?}");
    assert_eq!(
        on_the_posts[2].2.as_deref(),
        // The page ends the sentence: the lane's own reason loses its full stop.
        Some("lane spinel is the post's only: The Spinel compiler is not published")
    );
    // Grouped as every front end says it.
    assert_eq!(
        report.claims.summary,
        "2 of 3 claims: ruby-twice-jruby, ruby-ceiling"
    );
    assert_eq!(report.claims.not_judged.len(), 1, "{:#?}", report.claims);
    assert!(!report.claims.judges_nothing());

    // A VM with Debian's Ruby and no JRuby.
    let bin = tmp.path().join("vm-bin");
    script(
        &bin,
        "ruby",
        "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]",
        false,
    );
    script(&bin, "java", "openjdk version \"17.0.15\" 2025-04-15", true);
    let vm = fixture::Tree::new();
    vm.file(
        "proc/cpuinfo",
        "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\nflags\t\t: fpu hypervisor\n\n",
    )
    .file("sys/class/dmi/id/sys_vendor", "QEMU\n");
    fixture::write_meminfo(&vm, 24 * 1024 * 1024, 20 * 1024 * 1024, 0, 0);
    let search = SearchPath {
        dirs: vec![bin],
        mise_installs: None,
    };
    let report = run(&recipe, &Fingerprint::read(vm.root()), &search);
    let on_a_vm = judged(&report);
    let (claim, judged_here, why, fix) = &on_a_vm[0];
    assert_eq!((claim.as_str(), *judged_here), ("ruby-twice-jruby", false));
    assert_eq!(
        why.as_deref(),
        Some("lane jruby cannot run here: it needs jruby, which this machine lacks")
    );
    assert!(
        fix.as_deref().is_some_and(|f| !f.contains("; or")),
        "{fix:?}"
    );
    assert_eq!(
        on_a_vm[1].2.as_deref(),
        Some(
            "an absolute figure is judged only on a machine like the post's, and this one differs"
        )
    );
    assert!(!on_a_vm.iter().any(|c| c.1), "{on_a_vm:#?}");
    assert_eq!(report.claims.summary, "none of its 3 claims");
    assert!(report.claims.judges_nothing());
    // One entry per reason: jruby's, the machine's, spinel's.
    assert_eq!(report.claims.not_judged.len(), 3, "{:#?}", report.claims);
}
