//! The processor: brand, family/model, topology, SMT and caches, from
//! `/proc/cpuinfo` and `/sys/devices/system/cpu`.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::sysroot::{SysRoot, parse_cpu_list};

/// What the processor is and how many of it there are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cpu {
    /// The marketing name, e.g. `AMD Ryzen 5 3600 6-Core Processor`.
    pub brand: Option<String>,
    /// `AuthenticAMD`, `GenuineIntel`, …
    pub vendor: Option<String>,
    pub family: Option<u32>,
    pub model: Option<u32>,
    pub stepping: Option<u32>,
    pub sockets: Option<u32>,
    pub physical_cores: Option<u32>,
    pub logical_threads: Option<u32>,
    /// The kernel's list of online CPUs, e.g. `0-11`.
    pub online: Option<String>,
    /// `/sys/devices/system/cpu/smt/control`: `on`, `off`, `forceoff`, `notsupported`, …
    pub smt_control: Option<String>,
    /// Whether sibling hardware threads are in use.
    pub smt_active: Option<bool>,
    /// One entry per cache level and type, e.g. L3 Unified 16384 KiB × 2.
    pub caches: Vec<Cache>,
    /// `cpu MHz` averaged over processors, in kHz (the clock at probe time).
    pub cpuinfo_khz: Option<u64>,
    /// Whether the `hypervisor` flag is set (`None` when cpuinfo has no flags line).
    pub hypervisor_flag: Option<bool>,
}

/// One cache level and type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cache {
    pub level: u32,
    /// `Data`, `Instruction` or `Unified`.
    pub kind: String,
    pub size_kib: u64,
    /// How many separate caches of this kind the machine has.
    pub instances: u32,
}

/// The first processor's fields plus per-processor pairs of `cpuinfo`.
#[derive(Default)]
struct CpuInfo {
    first: BTreeMap<String, String>,
    processors: u32,
    package_core: BTreeSet<(String, String)>,
    packages: BTreeSet<String>,
    mhz: Vec<f64>,
}

fn parse_cpuinfo(text: &str) -> CpuInfo {
    let mut info = CpuInfo::default();
    for block in text.split("\n\n") {
        let fields: BTreeMap<String, String> = block
            .lines()
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        if !fields.contains_key("processor") {
            continue;
        }
        info.processors += 1;
        if let (Some(p), Some(c)) = (fields.get("physical id"), fields.get("core id")) {
            info.package_core.insert((p.clone(), c.clone()));
        }
        if let Some(p) = fields.get("physical id") {
            info.packages.insert(p.clone());
        }
        if let Some(mhz) = fields.get("cpu MHz").and_then(|m| m.parse().ok()) {
            info.mhz.push(mhz);
        }
        if info.first.is_empty() {
            info.first = fields;
        }
    }
    info
}

pub(crate) fn read_cpu(root: &SysRoot) -> Cpu {
    let info = root
        .read("proc/cpuinfo")
        .map(|t| parse_cpuinfo(&t))
        .unwrap_or_default();
    let field = |k: &str| info.first.get(k).filter(|v| !v.is_empty()).cloned();
    let number = |k: &str| field(k).and_then(|v| v.parse().ok());

    let online_text = root.read_trimmed("sys/devices/system/cpu/online");
    let online = online_text.as_deref().and_then(parse_cpu_list);

    let topology = online.as_ref().and_then(|cpus| read_topology(root, cpus));
    let logical_threads = online
        .as_ref()
        .map(|c| c.len() as u32)
        .or((info.processors > 0).then_some(info.processors));
    let sockets = topology
        .as_ref()
        .map(|t| t.packages)
        .or((!info.packages.is_empty()).then_some(info.packages.len() as u32));
    let physical_cores = topology
        .as_ref()
        .map(|t| t.cores)
        .or((!info.package_core.is_empty()).then_some(info.package_core.len() as u32))
        .or_else(|| {
            let per_socket: u32 = number("cpu cores")?;
            Some(per_socket * sockets.unwrap_or(1))
        });

    let smt_control = root.read_trimmed("sys/devices/system/cpu/smt/control");
    let smt_active = root
        .read_trimmed("sys/devices/system/cpu/smt/active")
        .map(|a| a == "1")
        .or_else(|| Some(logical_threads? > physical_cores?));

    let flags = field("flags");
    let hypervisor_flag = flags
        .as_ref()
        .map(|f| f.split_whitespace().any(|x| x == "hypervisor"));
    let cpuinfo_khz = (!info.mhz.is_empty())
        .then(|| (info.mhz.iter().sum::<f64>() / info.mhz.len() as f64 * 1000.0).round() as u64);

    Cpu {
        brand: field("model name"),
        vendor: field("vendor_id"),
        family: number("cpu family"),
        model: number("model"),
        stepping: number("stepping"),
        sockets,
        physical_cores,
        logical_threads,
        online: online_text,
        smt_control,
        smt_active,
        caches: online
            .as_ref()
            .map(|c| read_caches(root, c))
            .unwrap_or_default(),
        cpuinfo_khz,
        hypervisor_flag,
    }
}

struct Topology {
    packages: u32,
    cores: u32,
}

/// Counts packages and distinct (package, core) pairs over the online CPUs;
/// `None` unless every online CPU reports both.
fn read_topology(root: &SysRoot, cpus: &[u32]) -> Option<Topology> {
    let mut packages = BTreeSet::new();
    let mut cores = BTreeSet::new();
    for cpu in cpus {
        let dir = format!("sys/devices/system/cpu/cpu{cpu}/topology");
        let package = root.read_trimmed(&format!("{dir}/physical_package_id"))?;
        let core = root.read_trimmed(&format!("{dir}/core_id"))?;
        packages.insert(package.clone());
        cores.insert((package, core));
    }
    (!cpus.is_empty()).then_some(Topology {
        packages: packages.len() as u32,
        cores: cores.len() as u32,
    })
}

fn read_caches(root: &SysRoot, cpus: &[u32]) -> Vec<Cache> {
    // (level, kind) -> (size, set of shared_cpu_list values)
    let mut seen: BTreeMap<(u32, String), (u64, BTreeSet<String>)> = BTreeMap::new();
    for cpu in cpus {
        let dir = format!("sys/devices/system/cpu/cpu{cpu}/cache");
        for index in root.entries(&dir, "index") {
            let at = |f: &str| root.read_trimmed(&format!("{dir}/{index}/{f}"));
            let (Some(level), Some(kind), Some(size)) = (
                at("level").and_then(|l| l.parse().ok()),
                at("type"),
                at("size").and_then(|s| parse_size_kib(&s)),
            ) else {
                continue;
            };
            let shared = at("shared_cpu_list").unwrap_or_else(|| cpu.to_string());
            let entry = seen
                .entry((level, kind))
                .or_insert_with(|| (size, BTreeSet::new()));
            entry.1.insert(shared);
        }
    }
    seen.into_iter()
        .map(|((level, kind), (size_kib, shared))| Cache {
            level,
            kind,
            size_kib,
            instances: shared.len() as u32,
        })
        .collect()
}

/// `32K` → 32, `16M` → 16384.
fn parse_size_kib(text: &str) -> Option<u64> {
    let text = text.trim();
    let (num, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = num.parse().ok()?;
    match unit {
        "" => Some(n / 1024),
        "K" => Some(n),
        "M" => Some(n * 1024),
        "G" => Some(n * 1024 * 1024),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_sizes_read_in_kib() {
        assert_eq!(parse_size_kib("32K"), Some(32));
        assert_eq!(parse_size_kib("16M"), Some(16384));
        assert_eq!(parse_size_kib("big"), None);
    }
}
