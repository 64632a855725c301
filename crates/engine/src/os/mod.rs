//! The boundary with the operating system: the data dir and each run's
//! folder and state ([`workdir`]), the run's files ([`run_files`]), the
//! process groups a run has running ([`processes`]) and where a step's
//! process runs ([`runner`]).

pub mod processes;
pub mod run_files;
pub mod runner;
pub mod workdir;
