//! Runners: where a step's process runs. Only the host runner exists so far.

pub mod host;
