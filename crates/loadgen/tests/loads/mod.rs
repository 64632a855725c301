//! Running a load in a test: one at a time ([`take_turn`]), nobody stopping
//! it ([`run`]), from a spec of so many connections for so long ([`spec`]).
#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use reprise_loadgen::{LoadError, LoadReport, LoadSpec, Progress, StopHandle, run_until};

/// Load tests take turns: run side by side on two cores they would measure each other.
static ONE_LOAD_AT_A_TIME: Mutex<()> = Mutex::new(());

pub fn take_turn() -> MutexGuard<'static, ()> {
    ONE_LOAD_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A load nobody stops.
pub fn run(spec: &LoadSpec, progress: impl FnMut(&Progress)) -> Result<LoadReport, LoadError> {
    run_until(spec, &StopHandle::default(), progress)
}

pub fn spec(url: String, connections: usize, duration_ms: u64) -> LoadSpec {
    let mut spec = LoadSpec::new(url);
    spec.connections = connections;
    spec.duration = Duration::from_millis(duration_ms);
    spec
}
