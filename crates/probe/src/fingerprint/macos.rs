//! macOS basics through `sysctl`: brand, cores, threads, memory, kernel.

use std::process::Command;

use super::Fingerprint;

fn sysctl(name: &str) -> Option<String> {
    let out = Command::new("sysctl").args(["-n", name]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

pub(super) fn read() -> Fingerprint {
    let mut fp = Fingerprint::default();
    fp.cpu.brand = sysctl("machdep.cpu.brand_string");
    fp.cpu.vendor = sysctl("machdep.cpu.vendor");
    fp.cpu.physical_cores = sysctl("hw.physicalcpu").and_then(|v| v.parse().ok());
    fp.cpu.logical_threads = sysctl("hw.logicalcpu").and_then(|v| v.parse().ok());
    fp.cpu.smt_active = Some(fp.cpu.logical_threads > fp.cpu.physical_cores);
    fp.clock.max_khz = sysctl("hw.cpufrequency_max")
        .and_then(|v| v.parse::<u64>().ok())
        .map(|hz| hz / 1000);
    fp.memory.total_kib = sysctl("hw.memsize")
        .and_then(|v| v.parse::<u64>().ok())
        .map(|b| b / 1024);
    fp.os.kernel_name = sysctl("kern.ostype");
    fp.os.kernel = sysctl("kern.osrelease");
    fp.os.kernel_build = sysctl("kern.version");
    fp.os.hostname = sysctl("kern.hostname");
    fp.os.arch = Some(std::env::consts::ARCH.to_string());
    fp.os.pretty_name = sysctl("kern.osproductversion").map(|v| format!("macOS {v}"));
    fp.virtualization.hypervisor_flag = sysctl("kern.hv_vmm_present").map(|v| v == "1");
    fp.virtualization.virtual_machine = fp.virtualization.hypervisor_flag;
    fp
}
