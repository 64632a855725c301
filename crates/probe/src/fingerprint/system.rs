//! Memory, OS, virtualisation and load: the facts outside the processor.

use serde::{Deserialize, Serialize};

use crate::sysroot::SysRoot;

/// Memory and swap from `/proc/meminfo`, in KiB.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    pub total_kib: Option<u64>,
    pub available_kib: Option<u64>,
    pub swap_total_kib: Option<u64>,
    pub swap_free_kib: Option<u64>,
    /// `always`, `madvise` or `never`: the bracketed choice of
    /// `/sys/kernel/mm/transparent_hugepage/enabled`.
    pub transparent_hugepages: Option<String>,
}

impl Memory {
    pub fn total_mib(&self) -> Option<u64> {
        self.total_kib.map(|k| k / 1024)
    }
}

/// The operating system.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Os {
    /// `Linux`, `Darwin`.
    pub kernel_name: Option<String>,
    /// The kernel release, e.g. `6.8.0-45-generic`.
    pub kernel: Option<String>,
    /// The kernel build string, e.g. `#1 SMP PREEMPT_DYNAMIC …`.
    pub kernel_build: Option<String>,
    pub hostname: Option<String>,
    /// The machine architecture, e.g. `x86_64`.
    pub arch: Option<String>,
    /// `PRETTY_NAME` of os-release, e.g. `Ubuntu 24.04.5 LTS`.
    pub pretty_name: Option<String>,
    pub id: Option<String>,
    pub version_id: Option<String>,
}

/// Whether this is bare metal, a VM or a container.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Virtualization {
    /// The cpuinfo `hypervisor` flag.
    pub hypervisor_flag: Option<bool>,
    /// `/sys/class/dmi/id/sys_vendor`, e.g. `QEMU`.
    pub dmi_vendor: Option<String>,
    /// `/sys/class/dmi/id/product_name`, e.g. `Standard PC (Q35 + ICH9, 2009)`.
    pub dmi_product: Option<String>,
    /// True when either the flag or a hypervisor's DMI vendor says VM.
    pub virtual_machine: Option<bool>,
    /// `docker` or `podman` when a container marker file is present.
    pub container: Option<String>,
}

/// How busy the machine is at probe time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// 1-, 5- and 15-minute load averages.
    pub loadavg: Option<[f64; 3]>,
    pub uptime_secs: Option<f64>,
    /// Share of CPU time stolen by the hypervisor since boot, in percent.
    pub steal_percent: Option<f64>,
}

pub(crate) fn read_memory(root: &SysRoot) -> Memory {
    let meminfo = root.read("proc/meminfo").unwrap_or_default();
    let kib = |key: &str| {
        meminfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == key).then(|| v.split_whitespace().next()?.parse().ok())?
        })
    };
    Memory {
        total_kib: kib("MemTotal"),
        available_kib: kib("MemAvailable"),
        swap_total_kib: kib("SwapTotal"),
        swap_free_kib: kib("SwapFree"),
        transparent_hugepages: root
            .read_trimmed("sys/kernel/mm/transparent_hugepage/enabled")
            .and_then(|t| bracketed(&t)),
    }
}

fn bracketed(text: &str) -> Option<String> {
    let start = text.find('[')? + 1;
    let end = start + text[start..].find(']')?;
    Some(text[start..end].to_string())
}

pub(crate) fn read_os(root: &SysRoot) -> Os {
    let release = root
        .read("etc/os-release")
        .or_else(|| root.read("usr/lib/os-release"))
        .unwrap_or_default();
    let field = |key: &str| {
        release.lines().find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').trim_matches('\'').to_string())
        })
    };
    Os {
        kernel_name: root.read_trimmed("proc/sys/kernel/ostype"),
        kernel: root.read_trimmed("proc/sys/kernel/osrelease"),
        kernel_build: root.read_trimmed("proc/sys/kernel/version"),
        hostname: root.read_trimmed("proc/sys/kernel/hostname"),
        // The kernel's (as `uname -m`, since Linux 5.x), else this
        // program's own: a tree read from elsewhere says its own.
        arch: root
            .read_trimmed("proc/sys/kernel/arch")
            .or_else(|| Some(std::env::consts::ARCH.to_string())),
        pretty_name: field("PRETTY_NAME"),
        id: field("ID"),
        version_id: field("VERSION_ID"),
    }
}

/// DMI vendors that are hypervisors rather than hardware makers.
const VM_VENDORS: &[&str] = &[
    "QEMU",
    "KVM",
    "VMware",
    "innotek",
    "Xen",
    "Microsoft Corporation",
    "Amazon EC2",
    "Google",
    "Parallels",
    "BHYVE",
    "OpenStack",
    "DigitalOcean",
    "Hetzner",
];

pub(crate) fn read_virtualization(root: &SysRoot, hypervisor_flag: Option<bool>) -> Virtualization {
    let dmi_vendor = root.read_trimmed("sys/class/dmi/id/sys_vendor");
    let dmi_product = root.read_trimmed("sys/class/dmi/id/product_name");
    let vm_by_dmi = dmi_vendor.as_ref().map(|v| {
        let product = dmi_product.as_deref().unwrap_or("");
        VM_VENDORS.iter().any(|known| v.contains(known))
            && (v != "Microsoft Corporation" || product.contains("Virtual"))
            || product.contains("KVM")
            || product.contains("Virtual Machine")
    });
    let virtual_machine = match (hypervisor_flag, vm_by_dmi) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(false) || b.unwrap_or(false)),
    };
    let container = if root.exists("run/.containerenv") {
        Some("podman".to_string())
    } else if root.exists(".dockerenv") {
        Some("docker".to_string())
    } else {
        None
    };
    Virtualization {
        hypervisor_flag,
        dmi_vendor,
        dmi_product,
        virtual_machine,
        container,
    }
}

pub(crate) fn read_load(root: &SysRoot) -> Load {
    let loadavg = root.read("proc/loadavg").and_then(|t| {
        let v: Vec<f64> = t
            .split_whitespace()
            .take(3)
            .filter_map(|x| x.parse().ok())
            .collect();
        (v.len() == 3).then(|| [v[0], v[1], v[2]])
    });
    let uptime_secs = root
        .read("proc/uptime")
        .and_then(|t| t.split_whitespace().next()?.parse().ok());
    Load {
        loadavg,
        uptime_secs,
        steal_percent: root.read("proc/stat").and_then(|t| steal_percent(&t)),
    }
}

/// Steal over total from the aggregate `cpu` line of `/proc/stat`
/// (user nice system idle iowait irq softirq steal …).
fn steal_percent(stat: &str) -> Option<f64> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let fields: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .filter_map(|x| x.parse().ok())
        .collect();
    if fields.len() < 8 {
        return None;
    }
    let total: u64 = fields.iter().sum();
    (total > 0).then(|| (fields[7] as f64 * 10_000.0 / total as f64).round() / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thp_choice_is_the_bracketed_word() {
        assert_eq!(
            bracketed("always [madvise] never").as_deref(),
            Some("madvise")
        );
        assert_eq!(bracketed("always madvise never"), None);
    }

    #[test]
    fn steal_is_a_share_of_all_cpu_time() {
        assert_eq!(steal_percent("cpu  80 0 10 0 0 0 0 10 0 0\n"), Some(10.0));
        assert_eq!(steal_percent("cpu 1 2\n"), None);
    }
}
