//! The machine items: CPU, cores, SMT, frequency, governor, boost, memory,
//! virtualisation. Each one that differs makes absolute figures
//! incomparable; none of them blocks a lane.

use reprise_recipe::Machine;

use super::{Item, Subject, Verdict};
use crate::fingerprint::{BoostControl, Fingerprint};

fn item(
    subject: Subject,
    name: &str,
    reference: String,
    here: Option<String>,
    matches: bool,
    why: String,
    fix: Option<String>,
) -> Item {
    Item {
        subject,
        name: name.to_string(),
        reference: Some(reference),
        here,
        verdict: if matches {
            Verdict::Matches
        } else {
            Verdict::Differs
        },
        why,
        fix: if matches { None } else { fix },
    }
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

pub(super) fn items(m: &Machine, fp: &Fingerprint) -> Vec<Item> {
    let mut items = Vec::new();
    let brand = fp.cpu.brand.clone();
    items.push(item(
        Subject::Cpu,
        "CPU",
        m.cpu.clone(),
        brand.clone(),
        brand.as_deref().is_some_and(|b| m.is_cpu(b)),
        format!(
            "The post's figures were measured on the {}; on another CPU absolute numbers move, \
             while ratios between lanes measured here still compare.",
            m.cpu
        ),
        None,
    ));

    if m.cores.is_some() || m.threads.is_some() {
        let show = |c: Option<u32>, t: Option<u32>| {
            let part = |n: Option<u32>, what: &str| n.map(|n| format!("{n} {what}"));
            [part(c, "cores"), part(t, "threads")]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let (cores, threads) = (fp.cpu.physical_cores, fp.cpu.logical_threads);
        let mut here = show(cores, threads);
        let limited = match (fp.cpu_access.usable_cpus, threads) {
            (Some(usable), Some(t)) if usable < f64::from(t) => {
                here.push_str(&format!(" (this process may use {usable})"));
                true
            }
            _ => false,
        };
        let matches = !limited
            && m.cores.is_none_or(|c| cores == Some(c))
            && m.threads.is_none_or(|t| threads == Some(t));
        items.push(item(
            Subject::Cores,
            "cores/threads",
            show(m.cores, m.threads),
            (!here.is_empty()).then_some(here),
            matches,
            "Worker and thread counts were sized to the post's CPUs; with fewer, every \
             multi-process or multi-threaded lane is capped, with more the same counts leave cores idle."
                .into(),
            limited.then(|| "run outside the CPU-limited cgroup or container".to_string()),
        ));
    }

    if let Some(smt) = m.smt {
        let here = fp.cpu.smt_active;
        let control = fp.cpu.smt_control.as_deref();
        let switchable = matches!(control, Some("on" | "off"));
        items.push(item(
            Subject::Smt,
            "SMT",
            on_off(smt),
            here.map(on_off),
            here == Some(smt),
            "Two hardware threads share one core's execution units; with SMT in another state the \
             same thread counts run on different hardware."
                .into(),
            switchable.then(|| {
                format!(
                    "echo {} | sudo tee /sys/devices/system/cpu/smt/control",
                    on_off(smt)
                )
            }),
        ));
    }

    if let Some(mhz) = m.base_mhz {
        let here_khz = fp
            .clock
            .base_khz
            .or(if fp.clock.boost == Some(false) {
                fp.clock.max_khz
            } else {
                None
            })
            .or(fp.clock.max_khz)
            .or(fp.cpu.cpuinfo_khz);
        let here_mhz = here_khz.map(|k| k as f64 / 1000.0);
        let matches = here_mhz.is_some_and(|h| (h - f64::from(mhz)).abs() <= f64::from(mhz) * 0.02);
        items.push(item(
            Subject::Frequency,
            "frequency",
            format!("{:.1} GHz", f64::from(mhz) / 1000.0),
            here_mhz.map(|h| format!("{:.1} GHz", h / 1000.0)),
            matches,
            "Throughput of a CPU-bound server scales with its clock; the post's numbers are at its clock."
                .into(),
            None,
        ));
    }

    if let Some(governor) = &m.governor {
        let here = match (fp.clock.governors_agree, &fp.clock.governor) {
            (Some(true), Some(g)) => Some(g.clone()),
            (Some(false), _) => {
                let mut all: Vec<String> = fp
                    .clock
                    .policies
                    .iter()
                    .filter_map(|p| p.governor.clone())
                    .collect();
                all.sort();
                all.dedup();
                Some(format!("mixed: {}", all.join(", ")))
            }
            _ => None,
        };
        let why = if fp.clock.policies.is_empty() {
            format!(
                "The post pinned the governor to {governor}; this machine exposes no cpufreq \
                 governor (a VM or container hides it), so its clock policy is unknown and absolute \
                 numbers are not comparable."
            )
        } else {
            format!(
                "The post pinned the governor to {governor}; another governor lets the clock drop \
                 between requests and changes absolute numbers."
            )
        };
        items.push(item(
            Subject::Governor,
            "governor",
            governor.clone(),
            here.clone(),
            here.as_deref() == Some(governor.as_str()),
            why,
            (!fp.clock.policies.is_empty())
                .then(|| format!("sudo cpupower frequency-set -g {governor}")),
        ));
    }

    if let Some(boost) = m.boost {
        let here = fp.clock.boost;
        let why = if here.is_none() {
            format!(
                "The post ran with boost {}; this machine exposes no boost switch (a VM hides it), \
                 so its clock may rise above base with temperature and load, and absolute numbers \
                 are not comparable.",
                on_off(boost)
            )
        } else {
            format!(
                "The post ran with boost {}; boost raises the clock above base for as long as the \
                 chip stays cool, so absolute numbers change with it.",
                on_off(boost)
            )
        };
        let fix = fp.clock.boost_control.map(|control| {
            let value = match (control, boost) {
                (c, false) => c.off_value(),
                (BoostControl::CpufreqBoost, true) => "1",
                (BoostControl::IntelPstateNoTurbo, true) => "0",
            };
            format!("echo {value} | sudo tee {}", control.path())
        });
        items.push(item(
            Subject::Boost,
            "boost",
            on_off(boost),
            here.map(on_off),
            here == Some(boost),
            why,
            fix,
        ));
    }

    if let Some(gb) = m.memory_gb {
        let here_gb = fp.memory.total_kib.map(|k| k as f64 / (1024.0 * 1024.0));
        items.push(item(
            Subject::Memory,
            "memory",
            format!("{gb} GB"),
            here_gb.map(|g| format!("{g:.0} GB")),
            here_gb.is_some_and(|g| g.round() >= f64::from(gb) - 1.0),
            "Heaps and worker counts were sized for the post's memory; with less, a lane may swap \
             or be killed, and its memory figures are not the post's."
                .into(),
            None,
        ));
    }

    if let Some(virt) = &m.virtualization {
        let reference_bare = matches!(virt.as_str(), "none" | "bare metal" | "bare-metal");
        let v = &fp.virtualization;
        let vm = match v.virtual_machine {
            Some(true) => Some(format!(
                "virtual machine{}",
                v.dmi_vendor
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            )),
            _ => None,
        };
        let container = v.container.as_ref().map(|c| format!("{c} container"));
        let here = match (vm, container) {
            (Some(vm), Some(c)) => Some(format!("{c} in a {vm}")),
            (Some(x), None) | (None, Some(x)) => Some(x),
            (None, None) => v.virtual_machine.map(|_| "none".to_string()),
        };
        let here_bare = here.as_deref() == Some("none");
        items.push(item(
            Subject::Virtualization,
            "virtualisation",
            virt.clone(),
            here,
            here_bare == reference_bare && (reference_bare || v.virtual_machine == Some(true)),
            "The post measured bare metal; under a hypervisor the host takes CPU time (steal) and \
             neighbours share caches, so absolute numbers move from run to run."
                .into(),
            None,
        ));
    }
    items
}
