//! `reprise-probe`: what this machine and its toolchains are, and whether a
//! recipe's published numbers can be compared with what it will measure.
//!
//! - [`Fingerprint`]: CPU, clock (governor, boost), memory, OS,
//!   virtualisation, usable CPUs, load, container engine — read from `/proc`
//!   and `/sys` under a root path so tests can use fixture trees.
//! - [`toolchain`]: finds ruby, jruby, java, … on a search path and asks each
//!   for its version, concurrently, each with a timeout.
//! - [`bench_env`]: the original harness's `env.json`, written and read.
//!
//! ```no_run
//! use std::time::Duration;
//! use reprise_probe::{Fingerprint, toolchain::{self, SearchPath}};
//!
//! let machine = Fingerprint::probe(Duration::from_secs(2));
//! println!("{:?} with boost {:?}", machine.cpu.brand, machine.clock.boost);
//! let tools = toolchain::probe(&toolchain::standard_queries(), &SearchPath::from_env(), Duration::from_secs(10));
//! if let Some(ruby) = tools.get("ruby") {
//!     println!("ruby: {:?}", ruby.version());
//! }
//! ```

pub mod bench_env;
pub mod container_engine;
mod fingerprint;
pub mod preflight;
mod sysroot;
pub mod toolchain;

pub use container_engine::ContainerEngine;
pub use fingerprint::{
    BoostControl, Cache, Clock, Cpu, CpuAccess, Fingerprint, FreqPolicy, Load, Memory, Os,
    Virtualization,
};
pub use sysroot::{format_cpu_list, parse_cpu_list};

/// What can go wrong reading what others wrote.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("not a bench-env env.json: {0}")]
    BenchEnv(#[source] serde_json::Error),
}
