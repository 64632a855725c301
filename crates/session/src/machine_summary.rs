//! The machine a run measured on, in the summary a shared result carries
//! (CPU model, cores and threads, SMT, clock, governor, boost, memory, OS,
//! virtualisation): read from the run's `env.json` as the harness reads it,
//! or from a validation's fingerprint. No names and no addresses.

use reprise_harness_files::bench_env::BenchEnv;
use reprise_probe::Fingerprint;
use reprise_report::{MachineSummary, Report};

/// The summary of the machine `report` was measured on, where its records
/// say anything of it.
pub fn of_report(report: &Report) -> Option<MachineSummary> {
    let env = &report.environment;
    let fingerprint = serde_json::from_value::<BenchEnv>(env.bench_env.clone())
        .ok()
        .filter(|_| !env.bench_env.is_null())
        .map(|bench_env| bench_env.to_fingerprint())
        .or_else(|| serde_json::from_value::<Fingerprint>(env.fingerprint.clone()).ok())?;
    let summary = of_fingerprint(&fingerprint);
    (summary != MachineSummary::default()).then_some(summary)
}

/// A fingerprint's facts that move benchmark numbers.
pub fn of_fingerprint(fp: &Fingerprint) -> MachineSummary {
    let virt = &fp.virtualization;
    let virtual_machine = virt.virtual_machine.or(virt.hypervisor_flag);
    MachineSummary {
        cpu: fp.cpu.brand.clone(),
        vendor: fp.cpu.vendor.clone(),
        cores: fp.cpu.physical_cores,
        threads: fp.cpu.logical_threads,
        smt: fp.cpu.smt_active,
        min_mhz: fp.clock.min_khz.map(|khz| khz / 1000),
        max_mhz: fp.clock.max_khz.map(|khz| khz / 1000),
        governor: match fp.clock.governors_agree {
            Some(false) => Some("mixed".into()),
            _ => fp.clock.governor.clone(),
        },
        boost: fp.clock.boost,
        memory_mib: fp.memory.total_kib.map(|kib| kib / 1024),
        os: fp.os.pretty_name.clone(),
        kernel: fp.os.kernel.clone(),
        arch: fp.os.arch.clone(),
        virtual_machine,
        hypervisor: match virtual_machine {
            Some(true) => virt.dmi_vendor.clone().or_else(|| virt.dmi_product.clone()),
            _ => None,
        },
    }
}
