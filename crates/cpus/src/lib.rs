//! This process's CPUs: which ones its affinity mask allows
//! ([`allowed_cpus`]), pinning the calling thread to one of them
//! ([`pin_current_thread`]) and a child process to some
//! ([`pin_command`]). The load generator pins its workers, the validation
//! its stability kernel and reference server, the engine splits the allowed
//! CPUs between servers and load generator (servers and wrk run pinned as
//! child processes), and the probe records the mask in the fingerprint: all
//! through these functions.
//!
//! Nothing else lives here: no topology (the probe reads `/sys`), no policy
//! about which CPUs go where (the engine and the validation decide).
//!
//! ```
//! let cpus = reprise_cpus::allowed_cpus();
//! if let Some(&first) = cpus.first() {
//!     reprise_cpus::pin_current_thread(first).unwrap();
//! }
//! ```

/// Why a thread could not be pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinError {
    pub cpu: usize,
    pub reason: String,
}

impl std::fmt::Display for PinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot pin to CPU {}: {}", self.cpu, self.reason)
    }
}

impl std::error::Error for PinError {}

/// The CPUs in this process's affinity mask, in order (empty where the
/// platform does not say): what [`pin_current_thread`] may pin to.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    let Ok(set) = rustix::thread::sched_getaffinity(None) else {
        return Vec::new();
    };
    (0..rustix::thread::CpuSet::MAX_CPU)
        .filter(|&i| set.is_set(i))
        .collect()
}

#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

/// Pins the calling thread to `cpu`.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> Result<(), PinError> {
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(PinError {
            cpu,
            reason: "beyond the largest CPU number".into(),
        });
    }
    let mut set = rustix::thread::CpuSet::new();
    set.set(cpu);
    // The calling thread only (`None`).
    match rustix::thread::sched_setaffinity(None, &set) {
        Ok(()) => Ok(()),
        Err(e) => Err(PinError {
            cpu,
            reason: std::io::Error::from(e).to_string(),
        }),
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(cpu: usize) -> Result<(), PinError> {
    Err(PinError {
        cpu,
        reason: "pinning is only supported on Linux".into(),
    })
}

/// Makes the process `command` starts run only on `cpus` (nothing when
/// `cpus` is empty), set in the child before it runs its program.
#[cfg(target_os = "linux")]
pub fn pin_command(command: &mut std::process::Command, cpus: &[usize]) {
    use std::os::unix::process::CommandExt;
    let cpus: Vec<usize> = cpus
        .iter()
        .copied()
        .filter(|&c| c < libc::CPU_SETSIZE as usize)
        .collect();
    if cpus.is_empty() {
        return;
    }
    // SAFETY: sched_setaffinity is async-signal-safe; the set is built on
    // the child's stack from a Vec allocated before the fork, and every CPU
    // in it is below CPU_SETSIZE (filtered above).
    unsafe {
        command.pre_exec(move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &cpu in &cpus {
                libc::CPU_SET(cpu, &mut set);
            }
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin_command(_command: &mut std::process::Command, _cpus: &[usize]) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_runs_only_on_its_cpu() {
        let cpus = allowed_cpus();
        assert!(!cpus.is_empty(), "Linux always reports an affinity mask");
        let last = *cpus.last().unwrap();
        let seen = std::thread::spawn(move || {
            pin_current_thread(last).unwrap();
            allowed_cpus()
        })
        .join()
        .unwrap();
        assert_eq!(seen, [last]);
    }

    #[test]
    fn a_pinned_child_process_runs_only_on_its_cpu() {
        let last = *allowed_cpus().last().unwrap();
        let mut command = std::process::Command::new("grep");
        command.args(["^Cpus_allowed_list:", "/proc/self/status"]);
        pin_command(&mut command, &[last]);
        let out = command.output().unwrap();
        let line = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            line.split_whitespace().nth(1),
            Some(last.to_string().as_str()),
            "{line}"
        );
    }

    #[test]
    fn a_cpu_beyond_the_set_size_is_refused() {
        let e = pin_current_thread(1 << 20).unwrap_err();
        assert_eq!(e.cpu, 1 << 20);
        assert!(e.to_string().contains("beyond the largest CPU number"));
    }
}
