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

/// Pins the calling thread to `cpu`.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> Result<(), ValidateError> {
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(ValidateError::Pinning {
            cpu,
            reason: "beyond CPU_SETSIZE".into(),
        });
    }
    // SAFETY: cpu_set_t is plain data, `cpu` is below CPU_SETSIZE, and pid 0
    // is the calling thread.
    let rc = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(ValidateError::Pinning {
            cpu,
            reason: std::io::Error::last_os_error().to_string(),
        })
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(cpu: usize) -> Result<(), ValidateError> {
    Err(ValidateError::Pinning {
        cpu,
        reason: "pinning is only implemented on Linux".into(),
    })
}
