//! The CPUs this process may actually use: its affinity, its cgroup's cpuset
//! and its CPU quota. A container limited to 1.5 CPUs measures 1.5 CPUs,
//! however many the machine has.

use serde::{Deserialize, Serialize};

use crate::sysroot::{SysRoot, format_cpu_list, parse_cpu_list};

/// Limits on the CPUs this process can run on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuAccess {
    /// CPUs in this process's affinity mask, as a kernel CPU list.
    pub affinity: Option<String>,
    /// The cgroup this process is in (from `/proc/self/cgroup`).
    pub cgroup: Option<String>,
    /// 1 or 2.
    pub cgroup_version: Option<u8>,
    /// The cgroup's effective cpuset, as a kernel CPU list.
    pub cpuset: Option<String>,
    /// The CPU quota as `quota period` in microseconds, e.g. `150000 100000`
    /// (`None` when unlimited).
    pub cpu_max: Option<String>,
    /// The quota in CPUs, e.g. 1.5.
    pub quota_cpus: Option<f64>,
    /// The CPUs this process can use: the smallest of affinity, cpuset and quota.
    pub usable_cpus: Option<f64>,
}

pub(crate) fn read_cpu_access(root: &SysRoot) -> CpuAccess {
    let affinity_cpus = if root.is_real() {
        let cpus: Vec<u32> = reprise_cpus::allowed_cpus()
            .into_iter()
            .map(|c| c as u32)
            .collect();
        (!cpus.is_empty()).then_some(cpus)
    } else {
        None
    }
    .or_else(|| {
        let status = root.read("proc/self/status")?;
        let line = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
        parse_cpu_list(line)
    });

    let groups = root.read("proc/self/cgroup").unwrap_or_default();
    let v2_path = groups
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .map(str::to_string);
    let v2_base = ["sys/fs/cgroup", "sys/fs/cgroup/unified"]
        .into_iter()
        .find(|b| root.exists(&format!("{b}/cgroup.controllers")));

    let mut access = CpuAccess::default();
    let mut cpuset: Option<Vec<u32>> = None;
    if let (Some(path), Some(base)) = (&v2_path, v2_base) {
        access.cgroup = Some(path.clone());
        access.cgroup_version = Some(2);
        for dir in ancestors(base, path) {
            if cpuset.is_none() {
                cpuset = root
                    .read_trimmed(&format!("{dir}/cpuset.cpus.effective"))
                    .and_then(|t| parse_cpu_list(&t));
            }
            if let Some(max) = root.read_trimmed(&format!("{dir}/cpu.max")) {
                let mut parts = max.split_whitespace();
                if let (Some(Ok(quota)), Some(Ok(period))) = (
                    parts.next().map(str::parse::<f64>),
                    parts.next().map(str::parse::<f64>),
                ) && period > 0.0
                {
                    let cpus = quota / period;
                    if access.quota_cpus.is_none_or(|q| cpus < q) {
                        access.quota_cpus = Some(cpus);
                        access.cpu_max = Some(max);
                    }
                }
            }
        }
    }
    if cpuset.is_none() && access.quota_cpus.is_none() {
        read_v1(root, &groups, &mut access, &mut cpuset);
    }

    access.cpuset = cpuset.as_deref().map(format_cpu_list);
    access.affinity = affinity_cpus.as_deref().map(format_cpu_list);
    access.usable_cpus = [
        affinity_cpus.as_ref().map(|c| c.len() as f64),
        cpuset.as_ref().map(|c| c.len() as f64),
        access.quota_cpus,
    ]
    .into_iter()
    .flatten()
    .filter(|n| *n > 0.0)
    .reduce(f64::min);
    access
}

/// `base/a/b`, `base/a`, `base`: the cgroup and every ancestor.
fn ancestors(base: &str, path: &str) -> Vec<String> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    (0..=parts.len())
        .rev()
        .map(|n| {
            let mut dir = base.to_string();
            for p in &parts[..n] {
                dir.push('/');
                dir.push_str(p);
            }
            dir
        })
        .collect()
}

/// cgroup v1: the `cpuset` and `cpu` hierarchies.
fn read_v1(root: &SysRoot, groups: &str, access: &mut CpuAccess, cpuset: &mut Option<Vec<u32>>) {
    for line in groups.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let list: Vec<&str> = controllers.split(',').collect();
        if list.contains(&"cpuset") {
            *cpuset = ancestors(&format!("sys/fs/cgroup/{controllers}"), path)
                .iter()
                .find_map(|d| root.read_trimmed(&format!("{d}/cpuset.effective_cpus")))
                .and_then(|t| parse_cpu_list(&t));
            access.cgroup_version = Some(1);
            access.cgroup = Some(path.to_string());
        }
        if list.contains(&"cpu") {
            let dir = format!("sys/fs/cgroup/{controllers}{path}");
            let dir = dir.trim_end_matches('/');
            let quota = root.read_trimmed(&format!("{dir}/cpu.cfs_quota_us"));
            let period = root.read_u64(&format!("{dir}/cpu.cfs_period_us"));
            if let (Some(Ok(q)), Some(p)) = (quota.map(|q| q.parse::<i64>()), period)
                && q > 0
                && p > 0
            {
                access.quota_cpus = Some(q as f64 / p as f64);
                access.cpu_max = Some(format!("{q} {p}"));
                access.cgroup_version = Some(1);
            }
        }
    }
}
