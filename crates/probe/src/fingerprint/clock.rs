//! The clock: cpufreq policies, their governors, frequency range, boost and
//! energy-performance preference. Boost and governor change absolute numbers.

use serde::{Deserialize, Serialize};

use crate::sysroot::SysRoot;

/// How the processor is clocked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// `acpi-cpufreq`, `intel_pstate`, `amd-pstate`, … (from the first policy).
    pub driver: Option<String>,
    /// Every cpufreq policy, in order; empty where the kernel exposes none (most VMs).
    pub policies: Vec<FreqPolicy>,
    /// The governor when every policy has the same one.
    pub governor: Option<String>,
    /// Whether all policies share one governor (`None` without policies).
    pub governors_agree: Option<bool>,
    /// Whether boost/turbo is enabled.
    pub boost: Option<bool>,
    /// Which file says so.
    pub boost_control: Option<BoostControl>,
    /// Lowest hardware frequency over all policies.
    pub min_khz: Option<u64>,
    /// The base (nominal) frequency, where the driver reports it.
    pub base_khz: Option<u64>,
    /// Highest hardware frequency over all policies.
    pub max_khz: Option<u64>,
    /// The current frequency: mean of the policies' `scaling_cur_freq`, else cpuinfo's `cpu MHz`.
    pub cur_khz: Option<u64>,
    /// The energy-performance preference when every policy has the same one.
    pub energy_performance_preference: Option<String>,
}

/// Where boost is switched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoostControl {
    /// `/sys/devices/system/cpu/cpufreq/boost` (acpi-cpufreq, AMD): 1 = on.
    CpufreqBoost,
    /// `/sys/devices/system/cpu/intel_pstate/no_turbo`: 1 = off.
    IntelPstateNoTurbo,
}

impl BoostControl {
    /// The file that switches boost, as an absolute path on the machine.
    pub fn path(self) -> &'static str {
        match self {
            BoostControl::CpufreqBoost => "/sys/devices/system/cpu/cpufreq/boost",
            BoostControl::IntelPstateNoTurbo => "/sys/devices/system/cpu/intel_pstate/no_turbo",
        }
    }

    /// The value that turns boost off when written to [`BoostControl::path`].
    pub fn off_value(self) -> &'static str {
        match self {
            BoostControl::CpufreqBoost => "0",
            BoostControl::IntelPstateNoTurbo => "1",
        }
    }
}

/// One `cpufreq/policyN` directory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FreqPolicy {
    /// `policy0`, …
    pub name: String,
    /// The CPUs it governs (`affected_cpus`).
    pub cpus: Option<String>,
    pub governor: Option<String>,
    pub scaling_min_khz: Option<u64>,
    pub scaling_max_khz: Option<u64>,
    pub cpuinfo_min_khz: Option<u64>,
    pub cpuinfo_max_khz: Option<u64>,
    pub base_khz: Option<u64>,
    pub cur_khz: Option<u64>,
    pub energy_performance_preference: Option<String>,
}

const CPUFREQ: &str = "sys/devices/system/cpu/cpufreq";

pub(crate) fn read_clock(root: &SysRoot, cpuinfo_khz: Option<u64>) -> Clock {
    let policies: Vec<FreqPolicy> = root
        .entries(CPUFREQ, "policy")
        .into_iter()
        .map(|name| {
            let at = |f: &str| format!("{CPUFREQ}/{name}/{f}");
            FreqPolicy {
                cpus: root.read_trimmed(&at("affected_cpus")),
                governor: root.read_trimmed(&at("scaling_governor")),
                scaling_min_khz: root.read_u64(&at("scaling_min_freq")),
                scaling_max_khz: root.read_u64(&at("scaling_max_freq")),
                cpuinfo_min_khz: root.read_u64(&at("cpuinfo_min_freq")),
                cpuinfo_max_khz: root.read_u64(&at("cpuinfo_max_freq")),
                base_khz: root.read_u64(&at("base_frequency")),
                cur_khz: root.read_u64(&at("scaling_cur_freq")),
                energy_performance_preference: root
                    .read_trimmed(&at("energy_performance_preference")),
                name,
            }
        })
        .collect();
    let driver = root
        .entries(CPUFREQ, "policy")
        .first()
        .and_then(|p| root.read_trimmed(&format!("{CPUFREQ}/{p}/scaling_driver")));

    let (boost, boost_control) = if let Some(v) = root.read_trimmed(&format!("{CPUFREQ}/boost")) {
        (Some(v == "1"), Some(BoostControl::CpufreqBoost))
    } else if let Some(v) = root.read_trimmed("sys/devices/system/cpu/intel_pstate/no_turbo") {
        (Some(v == "0"), Some(BoostControl::IntelPstateNoTurbo))
    } else {
        (None, None)
    };

    let governors: Vec<&String> = policies
        .iter()
        .filter_map(|p| p.governor.as_ref())
        .collect();
    let governors_agree = (!governors.is_empty())
        .then(|| governors.len() == policies.len() && governors.iter().all(|g| *g == governors[0]));
    let governor = governors_agree.filter(|a| *a).map(|_| governors[0].clone());
    let epps: Vec<&String> = policies
        .iter()
        .filter_map(|p| p.energy_performance_preference.as_ref())
        .collect();
    let energy_performance_preference =
        (!epps.is_empty() && epps.len() == policies.len() && epps.iter().all(|e| *e == epps[0]))
            .then(|| epps[0].clone());

    let curs: Vec<u64> = policies.iter().filter_map(|p| p.cur_khz).collect();
    let cur_khz = if curs.is_empty() {
        cpuinfo_khz
    } else {
        Some(curs.iter().sum::<u64>() / curs.len() as u64)
    };

    Clock {
        driver,
        governor,
        governors_agree,
        boost,
        boost_control,
        min_khz: policies.iter().filter_map(|p| p.cpuinfo_min_khz).min(),
        base_khz: policies.iter().filter_map(|p| p.base_khz).max(),
        max_khz: policies.iter().filter_map(|p| p.cpuinfo_max_khz).max(),
        cur_khz,
        energy_performance_preference,
        policies,
    }
}
