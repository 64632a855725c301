//! Which CPUs this process may run on, and pinning the calling thread to one.

use crate::ValidateError;

/// The CPUs in this process's affinity mask, in order (empty where the
/// platform does not say).
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity fills it for this process.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        set
    };
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: the index is below CPU_SETSIZE.
        .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
        .collect()
}

#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

/// Pins the calling thread to `cpu`, as the load generator pins its workers.
pub fn pin_current_thread(cpu: usize) -> Result<(), ValidateError> {
    reprise_loadgen::pin_current_thread(cpu).map_err(|e| match e {
        reprise_loadgen::LoadError::Pinning { cpu, reason } => {
            ValidateError::Pinning { cpu, reason }
        }
        other => ValidateError::Pinning {
            cpu,
            reason: other.to_string(),
        },
    })
}
