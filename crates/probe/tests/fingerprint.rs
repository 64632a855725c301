//! The fingerprint read over fixture `/proc` + `/sys` trees the tests write,
//! asserting every field, and over this real machine.

mod fixture;

use std::path::Path;

use fixture::{CpuSpec, Tree, write_cache, write_cpus, write_meminfo, write_os, write_policy};
use reprise_probe::{
    BoostControl, Cache, Clock, Cpu, CpuAccess, Fingerprint, FreqPolicy, Load, Memory, Os,
    Virtualization,
};

fn os(pretty: &str, id: &str, version_id: &str, kernel: &str, host: &str) -> Os {
    Os {
        kernel_name: Some("Linux".into()),
        kernel: Some(kernel.into()),
        kernel_build: Some("#1 SMP PREEMPT_DYNAMIC".into()),
        hostname: Some(host.into()),
        arch: Some(std::env::consts::ARCH.into()),
        pretty_name: Some(pretty.into()),
        id: Some(id.into()),
        version_id: Some(version_id.into()),
    }
}

fn cache(level: u32, kind: &str, size_kib: u64, instances: u32) -> Cache {
    Cache {
        level,
        kind: kind.into(),
        size_kib,
        instances,
    }
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

#[test]
fn ryzen_5_3600_with_boost_off_and_performance_governor() {
    let tree = fixture::ryzen_5_3600();
    let fp = Fingerprint::read(tree.root());
    let policies = (0..12)
        .map(|n| FreqPolicy {
            name: format!("policy{n}"),
            cpus: Some(n.to_string()),
            governor: s("performance"),
            scaling_min_khz: Some(2_200_000),
            scaling_max_khz: Some(3_600_000),
            cpuinfo_min_khz: Some(2_200_000),
            cpuinfo_max_khz: Some(3_600_000),
            base_khz: None,
            cur_khz: Some(3_600_000),
            energy_performance_preference: None,
        })
        .collect();
    let expected = Fingerprint {
        os: os(
            "Ubuntu 24.04.5 LTS",
            "ubuntu",
            "24.04",
            "6.8.0-45-generic",
            "ryzen",
        ),
        cpu: Cpu {
            brand: s(fixture::RYZEN_BRAND),
            vendor: s("AuthenticAMD"),
            family: Some(23),
            model: Some(113),
            stepping: Some(0),
            sockets: Some(1),
            physical_cores: Some(6),
            logical_threads: Some(12),
            online: s("0-11"),
            smt_control: s("on"),
            smt_active: Some(true),
            caches: vec![
                cache(1, "Data", 32, 6),
                cache(1, "Instruction", 32, 6),
                cache(2, "Unified", 512, 6),
                cache(3, "Unified", 16384, 2),
            ],
            cpuinfo_khz: Some(3_600_000),
            hypervisor_flag: Some(false),
        },
        clock: Clock {
            driver: s("acpi-cpufreq"),
            policies,
            governor: s("performance"),
            governors_agree: Some(true),
            boost: Some(false),
            boost_control: Some(BoostControl::CpufreqBoost),
            min_khz: Some(2_200_000),
            base_khz: None,
            max_khz: Some(3_600_000),
            cur_khz: Some(3_600_000),
            energy_performance_preference: None,
        },
        memory: Memory {
            total_kib: Some(65_778_920),
            available_kib: Some(60_000_000),
            swap_total_kib: Some(8_388_604),
            swap_free_kib: Some(8_388_604),
            transparent_hugepages: s("madvise"),
        },
        virtualization: Virtualization {
            hypervisor_flag: Some(false),
            dmi_vendor: s("Micro-Star International Co., Ltd."),
            dmi_product: s("MS-7C37"),
            virtual_machine: Some(false),
            container: None,
        },
        cpu_access: CpuAccess {
            affinity: s("0-11"),
            cgroup: s("/user.slice/user-1000.slice/session-2.scope"),
            cgroup_version: Some(2),
            cpuset: s("0-11"),
            cpu_max: None,
            quota_cpus: None,
            usable_cpus: Some(12.0),
        },
        load: Load {
            loadavg: Some([0.15, 0.10, 0.05]),
            uptime_secs: Some(86400.5),
            steal_percent: Some(0.0),
        },
        container_engine: None,
    };
    assert_eq!(fp, expected);
    assert_eq!(fp.memory.total_mib(), Some(64_237));
}

fn intel_i7_8700(tree: &Tree, governors: &[&str]) {
    write_cpus(
        tree,
        &CpuSpec {
            brand: "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz",
            vendor: "GenuineIntel",
            family: 6,
            model: 158,
            stepping: 10,
            mhz: "800.021",
            flags: "fpu vme de pse tsc msr ht pni ssse3 avx2",
            core_ids: (0..12).map(|n| n % 6).collect(),
            cores_per_socket: 6,
        },
    );
    for (cpu, governor) in governors.iter().enumerate() {
        write_policy(
            tree,
            cpu as u32,
            &[
                ("affected_cpus", &cpu.to_string()),
                ("scaling_driver", "intel_pstate"),
                ("scaling_governor", governor),
                ("scaling_min_freq", "800000"),
                ("scaling_max_freq", "4600000"),
                ("cpuinfo_min_freq", "800000"),
                ("cpuinfo_max_freq", "4600000"),
                ("base_frequency", "3200000"),
                ("scaling_cur_freq", "800000"),
                ("energy_performance_preference", "balance_performance"),
            ],
        );
    }
}

#[test]
fn intel_with_no_turbo_and_powersave() {
    let tree = Tree::new();
    intel_i7_8700(&tree, &["powersave"; 12]);
    tree.file("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")
        .file("sys/devices/system/cpu/smt/control", "on\n")
        .file("sys/devices/system/cpu/smt/active", "1\n")
        .file(
            "sys/kernel/mm/transparent_hugepage/enabled",
            "[always] madvise never\n",
        )
        .file("sys/class/dmi/id/sys_vendor", "Dell Inc.\n")
        .file("sys/class/dmi/id/product_name", "OptiPlex 7060\n")
        .file("proc/loadavg", "1.00 0.50 0.25 2/300 999\n")
        .file("proc/stat", "cpu  300 0 100 600 0 0 0 0 0 0\n");
    write_os(
        &tree,
        "Debian GNU/Linux 12 (bookworm)",
        "debian",
        "12",
        "6.1.0-26-amd64",
        "optiplex",
    );
    write_meminfo(&tree, 32_000_000, 30_000_000, 0, 0);
    let fp = Fingerprint::read(tree.root());

    assert_eq!(
        fp.os,
        os(
            "Debian GNU/Linux 12 (bookworm)",
            "debian",
            "12",
            "6.1.0-26-amd64",
            "optiplex"
        )
    );
    assert_eq!(
        fp.cpu,
        Cpu {
            brand: s("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz"),
            vendor: s("GenuineIntel"),
            family: Some(6),
            model: Some(158),
            stepping: Some(10),
            sockets: Some(1),
            physical_cores: Some(6),
            logical_threads: Some(12),
            online: s("0-11"),
            smt_control: s("on"),
            smt_active: Some(true),
            caches: vec![],
            cpuinfo_khz: Some(800_021),
            hypervisor_flag: Some(false),
        }
    );
    assert_eq!(fp.clock.driver.as_deref(), Some("intel_pstate"));
    assert_eq!(fp.clock.policies.len(), 12);
    assert!(
        fp.clock
            .policies
            .iter()
            .all(|p| p.base_khz == Some(3_200_000)
                && p.energy_performance_preference.as_deref() == Some("balance_performance"))
    );
    assert_eq!(fp.clock.governor.as_deref(), Some("powersave"));
    assert_eq!(fp.clock.governors_agree, Some(true));
    assert_eq!(fp.clock.boost, Some(false), "no_turbo=1 means boost off");
    assert_eq!(
        fp.clock.boost_control,
        Some(BoostControl::IntelPstateNoTurbo)
    );
    assert_eq!(fp.clock.min_khz, Some(800_000));
    assert_eq!(fp.clock.base_khz, Some(3_200_000));
    assert_eq!(fp.clock.max_khz, Some(4_600_000));
    assert_eq!(fp.clock.cur_khz, Some(800_000));
    assert_eq!(
        fp.clock.energy_performance_preference.as_deref(),
        Some("balance_performance")
    );
    assert_eq!(
        fp.memory,
        Memory {
            total_kib: Some(32_000_000),
            available_kib: Some(30_000_000),
            swap_total_kib: Some(0),
            swap_free_kib: Some(0),
            transparent_hugepages: s("always"),
        }
    );
    assert_eq!(fp.virtualization.virtual_machine, Some(false));
    assert_eq!(fp.virtualization.dmi_vendor.as_deref(), Some("Dell Inc."));
    // No cgroup or status files in this tree: nothing is known about limits.
    assert_eq!(fp.cpu_access, CpuAccess::default());
    assert_eq!(
        fp.load,
        Load {
            loadavg: Some([1.0, 0.5, 0.25]),
            uptime_secs: None,
            steal_percent: Some(0.0),
        }
    );
}

#[test]
fn governors_that_differ_name_no_single_governor() {
    let tree = Tree::new();
    let mut governors = ["powersave"; 12];
    governors[11] = "performance";
    intel_i7_8700(&tree, &governors);
    let fp = Fingerprint::read(tree.root());
    assert_eq!(fp.clock.governors_agree, Some(false));
    assert_eq!(fp.clock.governor, None);
    assert_eq!(
        fp.clock.policies[11].governor.as_deref(),
        Some("performance")
    );
    assert_eq!(fp.clock.boost, None, "no boost file, no claim about boost");
}

#[test]
fn vm_with_hypervisor_flag_and_no_cpufreq() {
    let tree = Tree::new();
    write_cpus(
        &tree,
        &CpuSpec {
            brand: "Intel Xeon Processor (Cascadelake)",
            vendor: "GenuineIntel",
            family: 6,
            model: 85,
            stepping: 7,
            mhz: "2992.968",
            flags: "fpu vme de pse tsc msr hypervisor lahf_lm avx512f",
            core_ids: vec![0, 1, 2, 3],
            cores_per_socket: 4,
        },
    );
    for cpu in 0..4 {
        write_cache(&tree, cpu, 0, 1, "Data", "32K", &cpu.to_string());
        write_cache(&tree, cpu, 1, 2, "Unified", "4096K", &cpu.to_string());
        write_cache(&tree, cpu, 2, 3, "Unified", "16384K", "0-3");
    }
    tree.file("sys/devices/system/cpu/smt/control", "notsupported\n")
        .file("sys/class/dmi/id/sys_vendor", "QEMU\n")
        .file(
            "sys/class/dmi/id/product_name",
            "Standard PC (Q35 + ICH9, 2009)\n",
        )
        .file(
            "sys/kernel/mm/transparent_hugepage/enabled",
            "always madvise [never]\n",
        )
        .file("proc/loadavg", "3.50 2.00 1.00 5/200 77\n")
        .file("proc/uptime", "120.00 400.00\n")
        .file("proc/stat", "cpu  700 0 100 150 0 0 0 50 0 0\n")
        .file("proc/self/status", "Cpus_allowed_list:\t0-3\n");
    write_os(
        &tree,
        "Debian GNU/Linux 12 (bookworm)",
        "debian",
        "12",
        "6.1.0-26-cloud-amd64",
        "vm1",
    );
    write_meminfo(&tree, 8_000_000, 7_000_000, 1_000_000, 900_000);
    let fp = Fingerprint::read(tree.root());

    assert_eq!(
        fp.cpu,
        Cpu {
            brand: s("Intel Xeon Processor (Cascadelake)"),
            vendor: s("GenuineIntel"),
            family: Some(6),
            model: Some(85),
            stepping: Some(7),
            sockets: Some(1),
            physical_cores: Some(4),
            logical_threads: Some(4),
            online: s("0-3"),
            smt_control: s("notsupported"),
            smt_active: Some(false),
            caches: vec![
                cache(1, "Data", 32, 4),
                cache(2, "Unified", 4096, 4),
                cache(3, "Unified", 16384, 1)
            ],
            cpuinfo_khz: Some(2_992_968),
            hypervisor_flag: Some(true),
        }
    );
    // No cpufreq: no policies, no governor, no boost; the clock is cpuinfo's.
    assert_eq!(
        fp.clock,
        Clock {
            cur_khz: Some(2_992_968),
            ..Clock::default()
        }
    );
    assert_eq!(
        fp.virtualization,
        Virtualization {
            hypervisor_flag: Some(true),
            dmi_vendor: s("QEMU"),
            dmi_product: s("Standard PC (Q35 + ICH9, 2009)"),
            virtual_machine: Some(true),
            container: None,
        }
    );
    assert_eq!(
        fp.memory,
        Memory {
            total_kib: Some(8_000_000),
            available_kib: Some(7_000_000),
            swap_total_kib: Some(1_000_000),
            swap_free_kib: Some(900_000),
            transparent_hugepages: s("never"),
        }
    );
    assert_eq!(
        fp.load,
        Load {
            loadavg: Some([3.5, 2.0, 1.0]),
            uptime_secs: Some(120.0),
            steal_percent: Some(5.0),
        }
    );
    assert_eq!(
        fp.cpu_access,
        CpuAccess {
            affinity: s("0-3"),
            usable_cpus: Some(4.0),
            ..CpuAccess::default()
        }
    );
    assert_eq!(
        fp.os,
        os(
            "Debian GNU/Linux 12 (bookworm)",
            "debian",
            "12",
            "6.1.0-26-cloud-amd64",
            "vm1"
        )
    );
}

#[test]
fn cgroup_limited_container_can_use_one_and_a_half_cpus() {
    let tree = Tree::new();
    write_cpus(
        &tree,
        &CpuSpec {
            brand: "AMD EPYC 7B13 64-Core Processor",
            vendor: "AuthenticAMD",
            family: 25,
            model: 1,
            stepping: 0,
            mhz: "2450.000",
            flags: "fpu vme ht",
            core_ids: vec![0, 1, 2, 3, 0, 1, 2, 3],
            cores_per_socket: 4,
        },
    );
    let scope = "system.slice/docker-4f1c.scope";
    tree.file(".dockerenv", "")
        .file("proc/self/cgroup", &format!("0::/{scope}\n"))
        .file("proc/self/status", "Cpus_allowed_list:\t0-7\n")
        .file("sys/fs/cgroup/cgroup.controllers", "cpuset cpu memory\n")
        .file("sys/fs/cgroup/cpuset.cpus.effective", "0-7\n")
        .file("sys/fs/cgroup/system.slice/cpu.max", "max 100000\n")
        .file(
            &format!("sys/fs/cgroup/{scope}/cpuset.cpus.effective"),
            "0-1\n",
        )
        .file(&format!("sys/fs/cgroup/{scope}/cpu.max"), "150000 100000\n");
    write_os(
        &tree,
        "Debian GNU/Linux 12 (bookworm)",
        "debian",
        "12",
        "6.8.0-45-generic",
        "4f1c",
    );
    write_meminfo(&tree, 16_000_000, 12_000_000, 0, 0);
    let fp = Fingerprint::read(tree.root());

    assert_eq!(
        fp.cpu_access,
        CpuAccess {
            affinity: s("0-7"),
            cgroup: s(&format!("/{scope}")),
            cgroup_version: Some(2),
            cpuset: s("0-1"),
            cpu_max: s("150000 100000"),
            quota_cpus: Some(1.5),
            usable_cpus: Some(1.5),
        }
    );
    assert_eq!(
        fp.virtualization,
        Virtualization {
            hypervisor_flag: Some(false),
            dmi_vendor: None,
            dmi_product: None,
            virtual_machine: Some(false),
            container: s("docker"),
        }
    );
    assert_eq!(fp.cpu.physical_cores, Some(4));
    assert_eq!(fp.cpu.logical_threads, Some(8));
    assert_eq!(fp.cpu.smt_active, Some(true), "8 threads on 4 cores");
    assert_eq!(fp.cpu.smt_control, None);
    assert_eq!(
        fp.clock,
        Clock {
            cur_khz: Some(2_450_000),
            ..Clock::default()
        }
    );
    assert_eq!(fp.memory.total_kib, Some(16_000_000));
    assert_eq!(fp.memory.transparent_hugepages, None);
    assert_eq!(fp.load, Load::default());
    assert_eq!(fp.os.hostname.as_deref(), Some("4f1c"));
}

#[test]
fn an_empty_root_gives_an_empty_fingerprint_not_an_error() {
    let tree = Tree::new();
    let fp = Fingerprint::read(tree.root());
    assert_eq!(fp.cpu, Cpu::default());
    assert_eq!(fp.memory, Memory::default());
    assert_eq!(fp.os.kernel, None);
}

#[test]
fn this_machine_has_a_cpu_memory_and_kernel() {
    let fp = Fingerprint::read(Path::new("/"));
    assert!(
        fp.cpu.brand.as_deref().is_some_and(|b| !b.is_empty()),
        "{:?}",
        fp.cpu
    );
    assert!(fp.cpu.logical_threads.unwrap_or(0) >= 1);
    assert!(fp.cpu.physical_cores.unwrap_or(0) >= 1);
    assert!(fp.memory.total_kib.unwrap_or(0) > 0);
    assert!(
        fp.os
            .kernel
            .as_deref()
            .is_some_and(|k| k.chars().next().unwrap().is_ascii_digit())
    );
    assert!(fp.load.loadavg.is_some());
    // The live affinity mask names at least one CPU and no more than are online.
    let usable = fp
        .cpu_access
        .usable_cpus
        .expect("affinity is always readable");
    assert!(usable > 0.0 && usable <= fp.cpu.logical_threads.unwrap() as f64);
    // And the whole thing serialises for reports.
    let json = serde_json::to_string(&fp).expect("serialises");
    let back: Fingerprint = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, fp);
}
