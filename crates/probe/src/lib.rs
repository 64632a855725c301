//! `reprise-probe`: what this machine and its toolchains are, and whether a
//! recipe's published numbers can be compared with what it will measure.
//!
//! - [`Fingerprint`]: CPU, clock (governor, boost), memory, OS,
//!   virtualisation, usable CPUs, load, container engine — read from `/proc`
//!   and `/sys` under a root path so tests can use fixture trees.
//! - [`toolchain`]: finds ruby, jruby, java, … on a search path and asks each
//!   for its version, concurrently, each with a timeout.
//! - [`preflight`]: a recipe's reference machine and toolchains against
//!   these: each item matches, differs or blocks, with why and a fix; and
//!   [`preflight::lanes_here`], the one rule for which lanes can run here.
//!
//! Reading only: the probe runs a recipe's version commands and nothing
//! else, and writes no file (the harness's `env.json` is `reprise-harness-files`'s).
//!
//! ```no_run
//! use std::time::Duration;
//! use reprise_probe::{Fingerprint, toolchain::{self, SearchPath}};
//!
//! let machine = Fingerprint::probe();
//! println!("{:?} with boost {:?}", machine.cpu.brand, machine.clock.boost);
//! let tools = toolchain::probe(&toolchain::standard_queries(), &SearchPath::from_env(), Duration::from_secs(10));
//! if let Some(ruby) = tools.get("ruby") {
//!     println!("ruby: {:?}", ruby.version());
//! }
//!
//! let recipe = reprise_recipe::load("recipes/campfire-runtimes.toml".as_ref()).unwrap();
//! let tools = reprise_probe::preflight::probe_recipe_toolchains(&recipe, &SearchPath::from_env(), Duration::from_secs(10));
//! let report = reprise_probe::preflight::preflight(&recipe, &machine, &tools);
//! for item in &report.items {
//!     println!("{} {}: {}", item.verdict.word(), item.name, item.why);
//! }
//! ```

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

use serde::{Deserialize, Serialize};

/// A machine and its toolchains at one moment: what `reprise probe --json`
/// prints and `reprise preflight --machine` reads back (through
/// `reprise-harness-files`, which also reads a bench-env `env.json` into one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub fingerprint: Fingerprint,
    pub toolchains: toolchain::Toolchains,
}
