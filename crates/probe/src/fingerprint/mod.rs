//! The machine's fingerprint: every fact that changes what a benchmark
//! measures, each `None` where this machine does not say.

mod clock;
mod cpu;
mod cpu_access;
#[cfg(target_os = "macos")]
mod macos;
mod summary;
mod system;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use clock::{BoostControl, Clock, FreqPolicy};
pub use cpu::{Cache, Cpu};
pub use cpu_access::CpuAccess;
pub use system::{Load, Memory, Os, Virtualization};

use crate::container_engine::ContainerEngine;
use crate::sysroot::SysRoot;

/// Hardware, OS and conditions of one machine. Serialisable into reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub os: Os,
    pub cpu: Cpu,
    pub clock: Clock,
    pub memory: Memory,
    pub virtualization: Virtualization,
    pub cpu_access: CpuAccess,
    pub load: Load,
    /// The Docker-compatible engine that answered, if any.
    pub container_engine: Option<ContainerEngine>,
}

impl Fingerprint {
    /// Reads the Linux facts under `root` (`/` for this machine, or a fixture
    /// tree holding `proc/`, `sys/` and `etc/`). Never fails: a missing file
    /// is a missing fact. Does not ask a container engine.
    pub fn read(root: &Path) -> Fingerprint {
        let root = SysRoot::new(root);
        let cpu = cpu::read_cpu(&root);
        Fingerprint {
            os: system::read_os(&root),
            clock: clock::read_clock(&root, cpu.cpuinfo_khz),
            memory: system::read_memory(&root),
            virtualization: system::read_virtualization(&root, cpu.hypervisor_flag),
            cpu_access: cpu_access::read_cpu_access(&root),
            load: system::read_load(&root),
            container_engine: None,
            cpu,
        }
    }

    /// Fingerprints this machine, including the container engine when one
    /// answers (see [`crate::container_engine::ENGINE_TIMEOUT`]).
    pub fn probe() -> Fingerprint {
        #[cfg(target_os = "macos")]
        let mut fp = macos::read();
        #[cfg(not(target_os = "macos"))]
        let mut fp = Fingerprint::read(Path::new("/"));
        fp.container_engine = crate::container_engine::ask_from_env();
        fp
    }
}
