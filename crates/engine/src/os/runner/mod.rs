//! Runners: where a step's process runs, on the host or in a container.

pub mod container;
pub mod host;
pub mod tar;
