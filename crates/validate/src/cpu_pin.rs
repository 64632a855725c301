//! Pinning the calling thread to one CPU, with the validation's error;
//! which CPUs may be used is the load generator's `allowed_cpus`.

use crate::ValidateError;

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
