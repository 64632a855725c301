//! Checks of a machine's fingerprint: each fact that moves benchmark numbers,
//! read as `ok`, `warn` or `fail`, with why it matters and how to fix it.

use std::path::PathBuf;

use reprise_probe::Fingerprint;
use serde::{Deserialize, Serialize};

/// How a finding bears on benchmarking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Ok,
    Warn,
    Fail,
}

impl Level {
    pub fn word(self) -> &'static str {
        match self {
            Level::Ok => "ok",
            Level::Warn => "warn",
            Level::Fail => "fail",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Check {
    /// A short stable name, e.g. `governor`.
    pub id: String,
    pub level: Level,
    /// What was found, e.g. "governor schedutil on 2 policies".
    pub found: String,
    /// Why it matters for a benchmark (empty for an `ok` with nothing to say).
    pub why: String,
    /// What to do about it, where something can be done.
    pub fix: Option<String>,
}

impl Check {
    pub fn new(id: &str, level: Level, found: impl Into<String>) -> Check {
        Check {
            id: id.to_string(),
            level,
            found: found.into(),
            why: String::new(),
            fix: None,
        }
    }

    pub fn why(mut self, why: impl Into<String>) -> Check {
        self.why = why.into();
        self
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }

    /// Adds why and the fix unless the check is `ok` (a measured figure is
    /// a check whose level is known only once measured).
    pub fn explained(self, why: &str, fix: &str) -> Check {
        if self.level == Level::Ok {
            self
        } else {
            self.why(why).fix(fix)
        }
    }
}

/// What the checks compare the machine with.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// SMT on the recipe's reference machine (`None`: not compared).
    pub smt: Option<bool>,
    /// CPUs a server/client split needs: one for each side.
    pub min_cpus: u32,
}

impl Default for Reference {
    fn default() -> Self {
        Reference {
            smt: None,
            min_cpus: 2,
        }
    }
}

/// Free space of the filesystem holding the data dir.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiskSpace {
    pub path: PathBuf,
    pub free_bytes: u64,
    pub total_bytes: u64,
}

const GIB: u64 = 1024 * 1024 * 1024;
const KIB_PER_GIB: u64 = 1024 * 1024;

/// Every check over a fingerprint (and the data dir's disk, where known).
pub fn check_machine(
    fp: &Fingerprint,
    reference: &Reference,
    disk: Option<&DiskSpace>,
) -> Vec<Check> {
    let mut checks = vec![
        governor(fp),
        boost(fp),
        smt(fp, reference),
        transparent_hugepages(fp),
        cpu_count(fp, reference),
        virtual_machine(fp),
        cpu_quota(fp),
        steal(fp),
        swap(fp),
        memory(fp),
    ];
    if let Some(disk) = disk {
        checks.push(disk_space(disk));
    }
    checks.push(load_average(fp));
    checks.push(container_engine(fp));
    checks
}

fn governor(fp: &Fingerprint) -> Check {
    let clock = &fp.clock;
    if clock.policies.is_empty() {
        return Check::new(
            "governor",
            Level::Ok,
            "no cpufreq policies: the clock is not scaled by this kernel",
        );
    }
    let fix = "sudo cpupower frequency-set -g performance (or write `performance` to /sys/devices/system/cpu/cpufreq/policy*/scaling_governor)";
    match (&clock.governor, clock.governors_agree) {
        (Some(g), _) if g == "performance" => {
            Check::new("governor", Level::Ok, "governor performance")
        }
        (Some(g), _) => Check::new("governor", Level::Warn, format!("governor {g}"))
            .why("a scaling governor moves the clock with the load, so a short run and a long one, or a light server and a heavy one, run at different speeds")
            .fix(fix),
        (None, _) => {
            let mut names: Vec<&str> = clock
                .policies
                .iter()
                .filter_map(|p| p.governor.as_deref())
                .collect();
            names.sort_unstable();
            names.dedup();
            if names.is_empty() {
                return Check::new("governor", Level::Ok, "governor not reported");
            }
            Check::new("governor", Level::Warn, format!("governors differ: {}", names.join(", ")))
                .why("CPUs under different governors run at different speeds, so the server's and the client's cores are not alike")
                .fix(fix)
        }
    }
}

fn boost(fp: &Fingerprint) -> Check {
    match (fp.clock.boost, fp.clock.boost_control) {
        (Some(true), control) => {
            let fix = control.map_or_else(
                || "turn boost/turbo off in the firmware setup".to_string(),
                |c| format!("echo {} | sudo tee {}", c.off_value(), c.path()),
            );
            Check::new("boost", Level::Warn, "boost on")
                .why("boost clocks depend on temperature and on how many cores are busy, so runs drift and absolute numbers exceed the posts' (measured with boost off)")
                .fix(fix)
        }
        (Some(false), _) => Check::new("boost", Level::Ok, "boost off"),
        (None, _) => Check::new("boost", Level::Ok, "boost not reported by this kernel"),
    }
}

fn smt(fp: &Fingerprint, reference: &Reference) -> Check {
    let word = |on: bool| if on { "on" } else { "off" };
    match (fp.cpu.smt_active, reference.smt) {
        (Some(here), Some(there)) if here != there => {
            let check = Check::new("smt", Level::Warn, format!("SMT {} (reference machine: {})", word(here), word(there)))
                .why("with SMT a pinned server can share a physical core with the client; per-CPU throughput differs from the reference machine's");
            // A guest's vCPUs are what its hypervisor made them: its own
            // SMT switch changes nothing underneath.
            match fp.virtualization.virtual_machine {
                Some(true) => check.fix(
                    "a virtual machine's SMT is its host's: ask for vCPUs that are whole cores (or bare metal), or read per-CPU figures with this in mind",
                ),
                _ => check.fix(format!(
                    "echo {} | sudo tee /sys/devices/system/cpu/smt/control, or read per-CPU figures with this in mind",
                    word(there)
                )),
            }
        }
        (Some(here), _) => Check::new("smt", Level::Ok, format!("SMT {}", word(here))),
        (None, _) => Check::new("smt", Level::Ok, "SMT state not reported"),
    }
}

fn transparent_hugepages(fp: &Fingerprint) -> Check {
    match fp.memory.transparent_hugepages.as_deref() {
        Some("always") => Check::new("transparent_hugepages", Level::Warn, "transparent huge pages: always")
            .why("khugepaged compacts and collapses pages in the background, which shows up as latency spikes and run-to-run drift in allocation-heavy servers")
            .fix("echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled"),
        Some(mode) => Check::new("transparent_hugepages", Level::Ok, format!("transparent huge pages: {mode}")),
        None => Check::new("transparent_hugepages", Level::Ok, "transparent huge pages not reported"),
    }
}

/// The CPUs this process can use, rounded down to whole CPUs.
pub fn usable_cpus(fp: &Fingerprint) -> Option<u32> {
    fp.cpu_access
        .usable_cpus
        .map(|n| n.floor() as u32)
        .or(fp.cpu.logical_threads)
}

fn cpu_count(fp: &Fingerprint, reference: &Reference) -> Check {
    match usable_cpus(fp) {
        Some(n) if n < reference.min_cpus => Check::new(
            "cpus",
            Level::Fail,
            format!("{n} usable CPU{}", if n == 1 { "" } else { "s" }),
        )
        .why(format!(
            "a load test needs at least {} CPUs so the server and the load generator run on their own; on fewer they share, and every figure measures both",
            reference.min_cpus
        ))
        .fix("run on a machine (or a VM/container) with at least 2 dedicated CPUs"),
        Some(n) => Check::new("cpus", Level::Ok, format!("{n} usable CPUs")),
        None => Check::new("cpus", Level::Warn, "the number of usable CPUs is unknown")
            .why("the server/client split cannot be planned without it"),
    }
}

fn virtual_machine(fp: &Fingerprint) -> Check {
    match fp.virtualization.virtual_machine {
        Some(true) => {
            let vendor = fp
                .virtualization
                .dmi_vendor
                .as_deref()
                .unwrap_or("a hypervisor");
            Check::new("virtualization", Level::Warn, format!("virtual machine ({vendor})"))
                .why("vCPUs share physical cores with other guests, so numbers move with the neighbours and absolute figures are not the posts' bare-metal ones")
                .fix("use bare metal or dedicated (pinned) vCPUs; compare ratios rather than absolute figures")
        }
        Some(false) => Check::new("virtualization", Level::Ok, "bare metal"),
        None => Check::new("virtualization", Level::Ok, "virtualisation not detected"),
    }
}

fn cpu_quota(fp: &Fingerprint) -> Check {
    let access = &fp.cpu_access;
    let cpus = [access.affinity.as_deref(), access.cpuset.as_deref()]
        .into_iter()
        .flatten()
        .filter_map(|list| reprise_probe::parse_cpu_list(list).map(|c| c.len()))
        .min()
        .or(fp.cpu.logical_threads.map(|n| n as usize));
    match (access.quota_cpus, cpus) {
        (Some(quota), Some(cpus)) if quota < cpus as f64 => {
            let max = access.cpu_max.as_deref().unwrap_or("");
            Check::new("cpu_quota", Level::Warn, format!("CPU quota of {quota:.2} CPUs on {cpus} ({max})"))
                .why("a cgroup quota throttles the whole group once its budget for the period is spent: throughput caps at the quota and the p99 shows the period")
                .fix("run outside the limited cgroup or raise cpu.max (docker run --cpus, systemd CPUQuota=)")
        }
        (Some(quota), _) => Check::new(
            "cpu_quota",
            Level::Ok,
            format!("CPU quota of {quota:.2} CPUs, above the CPUs it covers"),
        ),
        (None, _) => Check::new("cpu_quota", Level::Ok, "no CPU quota"),
    }
}

fn steal(fp: &Fingerprint) -> Check {
    match fp.load.steal_percent {
        Some(s) if s >= 10.0 => Check::new(
            "steal",
            Level::Fail,
            format!("{s:.1}% of CPU time stolen by the hypervisor since boot"),
        )
        .why(
            "the hypervisor takes the CPU away for other guests so often that no run is repeatable",
        )
        .fix("use a host with dedicated CPUs"),
        Some(s) if s >= 1.0 => Check::new(
            "steal",
            Level::Warn,
            format!("{s:.1}% of CPU time stolen by the hypervisor since boot"),
        )
        .why("stolen time is time the server did not run; it comes and goes with other guests")
        .fix("use dedicated vCPUs or bare metal"),
        Some(s) => Check::new("steal", Level::Ok, format!("steal {s:.1}%")),
        None => Check::new("steal", Level::Ok, "steal not reported"),
    }
}

fn swap(fp: &Fingerprint) -> Check {
    let m = &fp.memory;
    match (m.swap_total_kib, m.swap_free_kib) {
        (Some(total), Some(free)) if total > free && total - free > 64 * 1024 => {
            let used_mib = (total - free) / 1024;
            Check::new("swap", Level::Warn, format!("{used_mib} MiB of swap in use"))
                .why("a machine that has swapped is short of memory; a server whose pages are swapped out stalls on its first requests")
                .fix("free memory (stop other work), then `sudo swapoff -a && sudo swapon -a`")
        }
        (Some(_), Some(_)) => Check::new("swap", Level::Ok, "no swap in use"),
        _ => Check::new("swap", Level::Ok, "swap not reported"),
    }
}

fn memory(fp: &Fingerprint) -> Check {
    let m = &fp.memory;
    let Some(available) = m.available_kib else {
        return Check::new("memory", Level::Warn, "available memory unknown").why(
            "the runtimes of the posts need a few GB; without the figure this cannot be checked",
        );
    };
    let gib = available as f64 / KIB_PER_GIB as f64;
    let found = format!("{gib:.1} GiB available");
    if available < KIB_PER_GIB {
        Check::new("memory", Level::Fail, found)
            .why("under 1 GiB free, a JVM or a multi-worker Ruby server swaps or is killed")
            .fix("stop other work or use a machine with more memory")
    } else if available < 2 * KIB_PER_GIB || m.total_kib.is_some_and(|t| available * 10 < t) {
        Check::new("memory", Level::Warn, found)
            .why("little free memory: a server's heap growth competes with the page cache and other processes")
            .fix("stop other work before running a recipe")
    } else {
        Check::new("memory", Level::Ok, found)
    }
}

fn disk_space(disk: &DiskSpace) -> Check {
    let gib = disk.free_bytes as f64 / GIB as f64;
    let found = format!("{gib:.1} GiB free at {}", disk.path.display());
    if disk.free_bytes < GIB {
        Check::new("disk", Level::Fail, found)
            .why("recipes clone sources, build runtimes and write results into the data dir; under 1 GiB they will not fit")
            .fix("free space or point REPRISE_DATA_DIR at a larger filesystem")
    } else if disk.free_bytes < 5 * GIB {
        Check::new("disk", Level::Warn, found)
            .why("a recipe that builds runtimes and containers needs several GiB")
            .fix("free space or point REPRISE_DATA_DIR at a larger filesystem")
    } else {
        Check::new("disk", Level::Ok, found)
    }
}

fn load_average(fp: &Fingerprint) -> Check {
    let (Some([one, ..]), Some(cpus)) = (fp.load.loadavg, usable_cpus(fp)) else {
        return Check::new("load_average", Level::Ok, "load average not reported");
    };
    let found = format!(
        "load average {one:.2} on {cpus} CPU{}",
        if cpus == 1 { "" } else { "s" }
    );
    if one > 0.5 * cpus as f64 {
        Check::new("load_average", Level::Warn, found)
            .why("other work was running in the last minute; it competes with the server and the load generator")
            .fix("stop other work (builds, other benchmarks, desktop sessions) and run again")
    } else {
        Check::new("load_average", Level::Ok, found)
    }
}

fn container_engine(fp: &Fingerprint) -> Check {
    match &fp.container_engine {
        Some(engine) => Check::new(
            "container_engine",
            Level::Ok,
            format!("container engine: {}", engine_name(engine)),
        ),
        // Only a lane placed in a container needs one (no published
        // recipe's lane is): its recipe's preflight says so, with the fix.
        None => Check::new(
            "container_engine",
            Level::Ok,
            "no container engine answered: only lanes placed in containers need one",
        ),
    }
}

fn engine_name(engine: &reprise_probe::ContainerEngine) -> String {
    let name = engine.name.as_deref().unwrap_or("engine");
    match &engine.version {
        Some(v) => format!("{name} {v} at {}", engine.host),
        None => format!("{name} at {}", engine.host),
    }
}
