//! The fingerprint as a person reads it: a few labelled lines (CPU, cores,
//! frequency, governor, boost, memory, kernel, OS, virtualisation, …), as
//! `reprise probe` prints them and the app's Machine page shows them.

use super::Fingerprint;

fn or_dash(value: Option<String>) -> String {
    value.unwrap_or_else(|| "—".to_string())
}

fn ghz(khz: u64) -> String {
    format!("{:.2} GHz", khz as f64 / 1e6)
}

fn gib(kib: u64) -> String {
    format!("{:.1} GiB", kib as f64 / (1024.0 * 1024.0))
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

impl Fingerprint {
    /// Each fact that moves benchmark numbers as `(label, value)`, `—`
    /// where the machine does not say.
    pub fn summary(&self) -> Vec<(&'static str, String)> {
        let cpu = &self.cpu;
        let clock = &self.clock;
        let mut facts: Vec<(&str, String)> = Vec::new();
        let mut model = Vec::new();
        model.extend(cpu.vendor.clone());
        if let (Some(f), Some(m)) = (cpu.family, cpu.model) {
            model.push(format!("family {f} model {m}"));
        }
        facts.push((
            "CPU",
            format!(
                "{}{}",
                or_dash(cpu.brand.clone()),
                if model.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", model.join(", "))
                }
            ),
        ));
        let mut shape = Vec::new();
        shape.extend(cpu.physical_cores.map(|c| format!("{c} cores")));
        shape.extend(cpu.logical_threads.map(|t| format!("{t} threads")));
        shape.extend(
            cpu.sockets
                .map(|s| format!("{s} socket{}", if s == 1 { "" } else { "s" })),
        );
        shape.extend(cpu.smt_active.map(|s| format!("SMT {}", on_off(s))));
        facts.push((
            "Cores",
            or_dash((!shape.is_empty()).then(|| shape.join(", "))),
        ));
        if !cpu.caches.is_empty() {
            let caches: Vec<String> = cpu
                .caches
                .iter()
                .map(|c| {
                    let name = match (c.level, c.kind.as_str()) {
                        (1, "Data") => "L1d".to_string(),
                        (1, "Instruction") => "L1i".to_string(),
                        (l, _) => format!("L{l}"),
                    };
                    let size = if c.size_kib >= 1024 {
                        format!("{} MiB", c.size_kib / 1024)
                    } else {
                        format!("{} KiB", c.size_kib)
                    };
                    format!("{name} {size} ×{}", c.instances)
                })
                .collect();
            facts.push(("Caches", caches.join(", ")));
        }
        let mut freq = Vec::new();
        if let (Some(lo), Some(hi)) = (clock.min_khz, clock.max_khz) {
            freq.push(format!("{}–{}", ghz(lo), ghz(hi)));
        }
        freq.extend(clock.base_khz.map(|b| format!("base {}", ghz(b))));
        freq.extend(clock.cur_khz.map(|c| format!("now {}", ghz(c))));
        facts.push((
            "Frequency",
            or_dash((!freq.is_empty()).then(|| freq.join(", "))),
        ));
        let governor = match (clock.governors_agree, &clock.governor) {
            (Some(true), Some(g)) => format!("{g} (all {} policies)", clock.policies.len()),
            (Some(false), _) => {
                let all: Vec<String> = clock
                    .policies
                    .iter()
                    .map(|p| format!("{}={}", p.name, or_dash(p.governor.clone())))
                    .collect();
                format!("mixed: {}", all.join(" "))
            }
            _ => "— (no cpufreq)".to_string(),
        };
        facts.push(("Governor", governor));
        facts.push((
            "Boost",
            match (clock.boost, clock.boost_control) {
                (Some(b), Some(c)) => format!("{} ({})", on_off(b), c.path()),
                _ => "— (no boost switch)".to_string(),
            },
        ));
        if let Some(epp) = &clock.energy_performance_preference {
            facts.push(("Energy pref.", epp.clone()));
        }
        let mem = &self.memory;
        let mut memory = vec![or_dash(mem.total_kib.map(gib))];
        memory.extend(mem.available_kib.map(|a| format!("{} available", gib(a))));
        memory.extend(mem.swap_total_kib.map(|s| format!("swap {}", gib(s))));
        facts.push(("Memory", memory.join(", ")));
        facts.push(("Huge pages", or_dash(mem.transparent_hugepages.clone())));
        let os = &self.os;
        facts.push((
            "Kernel",
            or_dash(os.kernel.as_ref().map(|k| {
                format!("{} {k}", os.kernel_name.as_deref().unwrap_or(""))
                    .trim()
                    .to_string()
            })),
        ));
        facts.push(("OS", or_dash(os.pretty_name.clone())));
        facts.push((
            "Host",
            format!(
                "{} ({})",
                or_dash(os.hostname.clone()),
                or_dash(os.arch.clone())
            ),
        ));
        let v = &self.virtualization;
        facts.push((
            "Virtualisation",
            match (v.virtual_machine, &v.container) {
                (Some(true), container) => format!(
                    "virtual machine ({}){}",
                    [v.dmi_vendor.clone(), v.dmi_product.clone()]
                        .into_iter()
                        .flatten()
                        .chain(
                            v.hypervisor_flag
                                .filter(|f| *f)
                                .map(|_| "hypervisor flag".to_string())
                        )
                        .collect::<Vec<_>>()
                        .join(", "),
                    container
                        .as_ref()
                        .map(|c| format!(", inside a {c} container"))
                        .unwrap_or_default()
                ),
                (_, Some(c)) => format!("{c} container"),
                (Some(false), None) => "none (bare metal)".to_string(),
                (None, None) => "—".to_string(),
            },
        ));
        let a = &self.cpu_access;
        let mut limits = Vec::new();
        limits.extend(a.affinity.as_ref().map(|c| format!("affinity {c}")));
        limits.extend(a.cpuset.as_ref().map(|c| format!("cpuset {c}")));
        limits.extend(a.quota_cpus.map(|q| format!("quota {q} CPUs")));
        facts.push((
            "Usable CPUs",
            format!(
                "{}{}",
                or_dash(a.usable_cpus.map(|u| u.to_string())),
                if limits.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", limits.join(", "))
                }
            ),
        ));
        let load = &self.load;
        let mut conditions =
            vec![or_dash(load.loadavg.map(|l| {
                format!("load {:.2} {:.2} {:.2}", l[0], l[1], l[2])
            }))];
        conditions.extend(load.steal_percent.map(|s| format!("steal {s:.1}%")));
        facts.push(("Conditions", conditions.join(", ")));
        facts.push((
            "Containers",
            match &self.container_engine {
                Some(e) => format!(
                    "{} {} (API {}, {} CPUs) at {}",
                    or_dash(e.name.clone()),
                    or_dash(e.version.clone()),
                    or_dash(e.api_version.clone()),
                    or_dash(e.cpus.map(|c| c.to_string())),
                    e.host
                ),
                None => "no Docker-compatible engine answers".to_string(),
            },
        ));
        facts
    }
}

#[cfg(test)]
mod tests {
    use crate::{Clock, Cpu, Fingerprint};

    #[test]
    fn every_fact_has_a_label_and_unknowns_read_as_a_dash() {
        let fp = Fingerprint {
            cpu: Cpu {
                brand: Some("Test CPU".into()),
                physical_cores: Some(2),
                logical_threads: Some(4),
                smt_active: Some(true),
                ..Cpu::default()
            },
            clock: Clock {
                governor: Some("performance".into()),
                governors_agree: Some(true),
                ..Clock::default()
            },
            ..Fingerprint::default()
        };
        let summary = fp.summary();
        let value = |label: &str| {
            summary
                .iter()
                .find(|(l, _)| *l == label)
                .map(|(_, v)| v.as_str())
                .unwrap_or_else(|| panic!("no {label} in {summary:?}"))
        };
        assert_eq!(value("CPU"), "Test CPU");
        assert_eq!(value("Cores"), "2 cores, 4 threads, SMT on");
        assert!(value("Governor").starts_with("performance"));
        assert_eq!(value("Boost"), "— (no boost switch)");
        assert_eq!(value("OS"), "—");
        assert_eq!(value("Containers"), "no Docker-compatible engine answers");
    }
}
