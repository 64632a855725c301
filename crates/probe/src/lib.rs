//! `reprise-probe`: what this machine and its toolchains are, and whether a
//! recipe's published numbers can be compared with what it will measure.
//!
//! - [`Fingerprint`]: CPU, clock (governor, boost), memory, OS,
//!   virtualisation, usable CPUs, load, container engine — read from `/proc`
//!   and `/sys` under a root path so tests can use fixture trees.
//! - [`toolchain`]: finds ruby, jruby, java, … on a search path and asks each
//!   for its version, concurrently, each with a timeout.
//! - [`preflight`]: a recipe's reference machine and toolchains against
//!   these: each item matches, differs or blocks, with why and a fix.
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
//!
//! let recipe = reprise_recipe::load("recipes/campfire-runtimes.toml".as_ref()).unwrap();
//! let tools = reprise_probe::preflight::probe_recipe_toolchains(&recipe, &SearchPath::from_env(), Duration::from_secs(10));
//! let report = reprise_probe::preflight::preflight(&recipe, &machine, &tools);
//! for item in &report.items {
//!     println!("{} {}: {}", item.verdict.word(), item.name, item.why);
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

use serde::{Deserialize, Serialize};

/// A machine and its toolchains at one moment: what `reprise probe --json`
/// prints and `reprise preflight --machine` reads back.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub fingerprint: Fingerprint,
    pub toolchains: toolchain::Toolchains,
}

impl Snapshot {
    /// Reads a snapshot, or a bench-env `env.json` (told apart by its
    /// `captured_at`/`host` keys).
    pub fn parse(text: &str) -> Result<Snapshot, Error> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(Error::Snapshot)?;
        if value.get("fingerprint").is_some() {
            return serde_json::from_value(value).map_err(Error::Snapshot);
        }
        if value.get("captured_at").is_some() || value.get("host").is_some() {
            let env: bench_env::BenchEnv =
                serde_json::from_value(value).map_err(Error::BenchEnv)?;
            return Ok(Snapshot {
                fingerprint: env.to_fingerprint(),
                toolchains: env.to_toolchains(),
            });
        }
        Err(Error::UnknownMachineFile)
    }
}

/// What can go wrong reading what others wrote.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("not a bench-env env.json: {0}")]
    BenchEnv(#[source] serde_json::Error),
    #[error("not a `reprise probe --json` snapshot: {0}")]
    Snapshot(#[source] serde_json::Error),
    #[error(
        "neither a `reprise probe --json` snapshot nor a bench-env env.json (no `fingerprint`, `captured_at` or `host` key)"
    )]
    UnknownMachineFile,
}
