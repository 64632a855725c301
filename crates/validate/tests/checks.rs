//! The check rules over fixture fingerprints: a clean bare-metal machine is
//! ready, and every warning and failure is reached by the fact that causes it.

mod machine;

use machine::fixture::{self, Tree, write_meminfo, write_policy};
use machine::{GIB, read, roomy_disk};
use reprise_validate::checks::{Check, DiskSpace, Level, Reference, check_machine};
use reprise_validate::fitness::{Fitness, decide};

/// The recipe's reference: SMT on, a 2-CPU split.
fn reference() -> Reference {
    Reference {
        smt: Some(true),
        min_cpus: 2,
    }
}

fn checks_of(tree: &Tree) -> Vec<Check> {
    check_machine(&read(tree), &reference(), Some(&roomy_disk()))
}

fn find<'a>(checks: &'a [Check], id: &str) -> &'a Check {
    checks
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no check {id} in {checks:?}"))
}

/// Asserts `id` is at `level` with a reason and a fix, and that it is the
/// only finding that is not ok.
fn assert_only(checks: &[Check], id: &str, level: Level, fix_mentions: &str) {
    let c = find(checks, id);
    assert_eq!(c.level, level, "{c:?}");
    assert!(!c.why.is_empty(), "{id} says why: {c:?}");
    let fix = c.fix.as_deref().unwrap_or_default();
    assert!(
        fix.contains(fix_mentions),
        "{id} fix {fix:?} mentions {fix_mentions:?}"
    );
    let others: Vec<&Check> = checks
        .iter()
        .filter(|c| c.id != id && c.level != Level::Ok)
        .collect();
    assert!(others.is_empty(), "only {id} is flagged, not {others:?}");
    let expected = if level == Level::Fail {
        Fitness::NotSuitable
    } else {
        Fitness::UsableWithCaveats
    };
    assert_eq!(decide(checks), expected);
}

#[test]
fn a_clean_bare_metal_machine_is_ready() {
    let checks = checks_of(&fixture::ryzen_5_3600());
    let flagged: Vec<&Check> = checks.iter().filter(|c| c.level != Level::Ok).collect();
    assert!(flagged.is_empty(), "{flagged:?}");
    assert_eq!(decide(&checks), Fitness::Ready);
    assert_eq!(find(&checks, "governor").found, "governor performance");
    assert_eq!(find(&checks, "cpus").found, "12 usable CPUs");
    assert_eq!(find(&checks, "virtualization").found, "bare metal");
    let ids: Vec<&str> = checks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "governor",
            "boost",
            "smt",
            "transparent_hugepages",
            "cpus",
            "virtualization",
            "cpu_quota",
            "steal",
            "swap",
            "memory",
            "disk",
            "load_average",
            "container_engine"
        ]
    );
}

#[test]
fn a_scaling_governor_is_a_caveat_with_the_command_to_fix_it() {
    let tree = fixture::ryzen_5_3600();
    for n in 0..12 {
        write_policy(&tree, n, &[("scaling_governor", "schedutil")]);
    }
    let checks = checks_of(&tree);
    assert_only(
        &checks,
        "governor",
        Level::Warn,
        "cpupower frequency-set -g performance",
    );
    assert_eq!(find(&checks, "governor").found, "governor schedutil");
}

#[test]
fn governors_that_differ_between_cpus_are_a_caveat() {
    let tree = fixture::ryzen_5_3600();
    write_policy(&tree, 3, &[("scaling_governor", "powersave")]);
    let checks = checks_of(&tree);
    assert_only(&checks, "governor", Level::Warn, "performance");
    assert_eq!(
        find(&checks, "governor").found,
        "governors differ: performance, powersave"
    );
}

#[test]
fn boost_on_is_a_caveat_fixed_through_its_own_control_file() {
    let tree = fixture::ryzen_5_3600();
    tree.file("sys/devices/system/cpu/cpufreq/boost", "1\n");
    assert_only(
        &checks_of(&tree),
        "boost",
        Level::Warn,
        "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost",
    );
}

#[test]
fn smt_off_against_a_reference_with_smt_is_a_caveat() {
    let tree = fixture::ryzen_5_3600();
    tree.file("sys/devices/system/cpu/smt/control", "off\n")
        .file("sys/devices/system/cpu/smt/active", "0\n");
    let checks = checks_of(&tree);
    assert_only(&checks, "smt", Level::Warn, "smt/control");
    assert_eq!(
        find(&checks, "smt").found,
        "SMT off (reference machine: on)"
    );
    // Without a reference to compare with, SMT off is just a fact.
    let free = check_machine(&read(&tree), &Reference::default(), Some(&roomy_disk()));
    assert_eq!(find(&free, "smt").level, Level::Ok);
}

#[test]
fn transparent_huge_pages_always_is_a_caveat() {
    let tree = fixture::ryzen_5_3600();
    tree.file(
        "sys/kernel/mm/transparent_hugepage/enabled",
        "[always] madvise never\n",
    );
    assert_only(
        &checks_of(&tree),
        "transparent_hugepages",
        Level::Warn,
        "madvise",
    );
}

#[test]
fn one_usable_cpu_cannot_split_server_and_client() {
    let tree = fixture::ryzen_5_3600();
    tree.file(
        "proc/self/status",
        "Name:\tprobe\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n",
    )
    .file("sys/fs/cgroup/cpuset.cpus.effective", "0\n")
    .file("proc/loadavg", "0.05 0.05 0.05 1/100 1\n");
    let checks = checks_of(&tree);
    assert_only(&checks, "cpus", Level::Fail, "at least 2");
    assert_eq!(find(&checks, "cpus").found, "1 usable CPU");
}

#[test]
fn a_virtual_machine_is_a_caveat_naming_its_hypervisor() {
    let tree = fixture::ryzen_5_3600();
    tree.file("sys/class/dmi/id/sys_vendor", "QEMU\n").file(
        "sys/class/dmi/id/product_name",
        "Standard PC (Q35 + ICH9, 2009)\n",
    );
    let checks = checks_of(&tree);
    assert_only(&checks, "virtualization", Level::Warn, "dedicated");
    assert_eq!(
        find(&checks, "virtualization").found,
        "virtual machine (QEMU)"
    );
}

#[test]
fn a_cpu_quota_below_the_cpus_is_a_caveat() {
    let tree = fixture::ryzen_5_3600();
    tree.file("sys/fs/cgroup/user.slice/cpu.max", "800000 100000\n");
    let checks = checks_of(&tree);
    assert_only(&checks, "cpu_quota", Level::Warn, "cpu.max");
    assert_eq!(
        find(&checks, "cpu_quota").found,
        "CPU quota of 8.00 CPUs on 12 (800000 100000)"
    );
    // A quota the CPUs cannot use up never throttles.
    tree.file("sys/fs/cgroup/user.slice/cpu.max", "1600000 100000\n");
    assert_eq!(find(&checks_of(&tree), "cpu_quota").level, Level::Ok);
}

#[test]
fn some_steal_is_a_caveat_and_much_steal_a_failure() {
    let tree = fixture::ryzen_5_3600();
    // user nice system idle iowait irq softirq steal: 3% then 20% stolen.
    tree.file("proc/stat", "cpu  1000 0 500 95500 0 0 0 3000 0 0\n");
    assert_only(&checks_of(&tree), "steal", Level::Warn, "dedicated");
    tree.file("proc/stat", "cpu  1000 0 500 78500 0 0 0 20000 0 0\n");
    assert_only(&checks_of(&tree), "steal", Level::Fail, "dedicated CPUs");
}

#[test]
fn swap_in_use_is_a_caveat() {
    let tree = fixture::ryzen_5_3600();
    write_meminfo(&tree, 65_778_920, 60_000_000, 8_388_604, 7_340_028);
    let checks = checks_of(&tree);
    assert_only(&checks, "swap", Level::Warn, "swapoff");
    assert_eq!(find(&checks, "swap").found, "1024 MiB of swap in use");
}

#[test]
fn little_free_memory_is_a_caveat_and_under_a_gib_a_failure() {
    let tree = fixture::ryzen_5_3600();
    write_meminfo(&tree, 65_778_920, 1_800_000, 8_388_604, 8_388_604);
    assert_only(&checks_of(&tree), "memory", Level::Warn, "stop other work");
    write_meminfo(&tree, 65_778_920, 500_000, 8_388_604, 8_388_604);
    let checks = checks_of(&tree);
    assert_only(&checks, "memory", Level::Fail, "more memory");
    assert_eq!(find(&checks, "memory").found, "0.5 GiB available");
}

#[test]
fn a_nearly_full_data_disk_is_a_caveat_and_a_full_one_a_failure() {
    let tree = fixture::ryzen_5_3600();
    let fp = read(&tree);
    let disk = |free: u64| DiskSpace {
        path: "/data/reprise".into(),
        free_bytes: free,
        total_bytes: 100 * GIB,
    };
    let warn = check_machine(&fp, &reference(), Some(&disk(3 * GIB)));
    assert_only(&warn, "disk", Level::Warn, "REPRISE_DATA_DIR");
    assert_eq!(find(&warn, "disk").found, "3.0 GiB free at /data/reprise");
    let fail = check_machine(&fp, &reference(), Some(&disk(GIB / 2)));
    assert_only(&fail, "disk", Level::Fail, "REPRISE_DATA_DIR");
}

#[test]
fn a_busy_machine_is_a_caveat() {
    let tree = fixture::ryzen_5_3600();
    tree.file("proc/loadavg", "9.50 8.00 6.00 3/612 40211\n");
    let checks = checks_of(&tree);
    assert_only(&checks, "load_average", Level::Warn, "stop other work");
    assert_eq!(
        find(&checks, "load_average").found,
        "load average 9.50 on 12 CPUs"
    );
}

#[test]
fn no_container_engine_is_no_caveat_since_only_container_lanes_need_one() {
    let tree = fixture::ryzen_5_3600();
    let mut fp = read(&tree);
    fp.container_engine = None;
    let checks = check_machine(&fp, &reference(), Some(&roomy_disk()));
    let engine = find(&checks, "container_engine");
    assert_eq!(engine.level, Level::Ok, "{engine:?}");
    assert!(engine.fix.is_none(), "nothing to install: {engine:?}");
    assert!(
        engine
            .found
            .contains("only lanes placed in containers need one"),
        "{engine:?}"
    );
    // No recipe in recipes/ places a lane in a container: a machine
    // without an engine runs every one of them.
    let recipes = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes");
    for entry in std::fs::read_dir(recipes).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "toml") {
            let recipe = reprise_recipe::load(&path).unwrap();
            assert!(
                recipe
                    .lanes
                    .iter()
                    .all(|l| l.placement != reprise_recipe::Placement::Container),
                "{} places a lane in a container: the check should then say what to install",
                path.display()
            );
        }
    }
}

#[test]
fn smt_that_differs_in_a_virtual_machine_is_not_switched_inside_it() {
    let tree = fixture::ryzen_5_3600();
    tree.file("sys/devices/system/cpu/smt/control", "off\n")
        .file("sys/devices/system/cpu/smt/active", "0\n");
    let mut fp = read(&tree);
    fp.virtualization.virtual_machine = Some(true);
    let checks = check_machine(&fp, &reference(), Some(&roomy_disk()));
    let smt = find(&checks, "smt");
    assert_eq!(smt.level, Level::Warn, "{smt:?}");
    let fix = smt.fix.as_deref().unwrap_or_default();
    assert!(!fix.contains("smt/control"), "{fix}");
    assert!(fix.contains("SMT is its host's"), "{fix}");
}
