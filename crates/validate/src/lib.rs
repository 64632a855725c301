//! `reprise-validate`: is this machine fit to benchmark on, and what would it
//! take? What `reprise validate` runs on a fresh machine, with nothing but
//! Reprise itself (no toolchains, no network).
//!
//! - [`checks`]: the fingerprint read as `ok` / `warn` / `fail` findings
//!   (governor, boost, SMT, huge pages, CPUs, VM, quota, steal, swap,
//!   memory, disk, load, container engine), each with why and a fix.
//! - [`stability`]: a fixed SHA-256 kernel run repeatedly on each CPU (or a
//!   sample), the background load seen meanwhile, and the timer's lag.
//! - [`ceiling`]: the built-in [`reference_server`] on half the allowed CPUs,
//!   Reprise's load generator on the other half: the machine's loopback
//!   "hello-world ceiling", several runs with median and spread.
//! - [`fitness`]: everything folded into `ready` / `usable with caveats` /
//!   `not suitable`; [`profile`]: the JSON another machine's is compared
//!   with; [`record`]: the validation as a run in the history.
//!
//! It needs no recipe but its built-in machine recipe and runs no
//! toolchain; comparing with a post is the probe's preflight.
//!
//! ```no_run
//! use std::time::Duration;
//! use reprise_validate::{Plan, validate};
//!
//! let fingerprint = reprise_probe::Fingerprint::probe();
//! let data_dir = std::env::temp_dir().join("reprise-validate-example");
//! let profile = validate(&Plan::quick(), fingerprint, &data_dir, |stage| eprintln!("{stage}"))?;
//! println!("{}", profile.summary);
//! for check in profile.checks.iter().filter(|c| c.level != reprise_validate::checks::Level::Ok) {
//!     println!("{} {}: {}", check.level.word(), check.id, check.found);
//! }
//! # Ok::<(), reprise_validate::ValidateError>(())
//! ```

pub mod ceiling;
pub mod checks;
pub mod disk;
pub mod fitness;
pub mod profile;
pub mod record;
pub mod reference_server;
pub mod stability;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use reprise_probe::Fingerprint;
use reprise_recipe::Recipe;

pub use ceiling::{Ceiling, CeilingPlan, Split};
pub use checks::{Check, Level, Reference};
pub use fitness::Fitness;
pub use profile::{Comparison, Profile};
pub use reprise_cpus::allowed_cpus;
pub use stability::{Stability, StabilityPlan};

/// The machine-validation recipe, built in so a fresh machine needs no checkout.
pub const MACHINE_RECIPE: &str = include_str!("../../../recipes/machine.toml");

/// Why a validation could not run.
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error(transparent)]
    Pinning(#[from] reprise_cpus::PinError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("thread: {0}")]
    Thread(String),
    #[error("load generator: {0}")]
    Load(#[from] reprise_loadgen::LoadError),
    #[error("the built-in machine recipe: {0}")]
    Recipe(#[from] reprise_recipe::RecipeError),
    #[error(transparent)]
    Report(#[from] reprise_report::ReportError),
    #[error(transparent)]
    History(#[from] reprise_history::HistoryError),
    #[error("not a `reprise validate --json` profile: {0}")]
    Profile(#[from] serde_json::Error),
    #[error("a profile of format {found}; this reprise reads format {expected}")]
    Schema { found: u32, expected: u32 },
}

/// The built-in machine recipe, parsed.
pub fn machine_recipe() -> Result<Recipe, ValidateError> {
    Ok(reprise_recipe::parse(
        Path::new("recipes/machine.toml"),
        MACHINE_RECIPE,
    )?)
}

/// The 2-core loopback baseline of the machine recipe (`wrk-pinned`), req/s.
pub fn baseline(recipe: &Recipe) -> Option<[f64; 2]> {
    let figure = recipe.figure("wrk-pinned")?;
    figure.range.or(figure.value.map(|v| [v, v]))
}

/// How long and how much to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// `quick` or `full`, as recorded in the profile.
    pub mode: String,
    pub stability: StabilityPlan,
    pub ceiling: CeilingPlan,
}

impl Plan {
    /// About a minute: 5 ceiling runs of 8 s.
    pub fn full() -> Plan {
        Plan {
            mode: "full".into(),
            stability: StabilityPlan {
                runs_per_cpu: 20,
                work_mib: 32,
                max_cpus: 8,
                timer_sleeps: 500,
            },
            ceiling: CeilingPlan {
                runs: 5,
                connections: 16,
                duration: Duration::from_secs(8),
                warmup: Duration::from_secs(1),
            },
        }
    }

    /// About 15 s: 3 ceiling runs of 3 s, fewer kernel runs and sleeps.
    pub fn quick() -> Plan {
        Plan {
            mode: "quick".into(),
            stability: StabilityPlan {
                runs_per_cpu: 8,
                work_mib: 16,
                max_cpus: 4,
                timer_sleeps: 200,
            },
            ceiling: CeilingPlan {
                runs: 3,
                connections: 16,
                duration: Duration::from_secs(3),
                warmup: Duration::from_millis(500),
            },
        }
    }
}

/// Validates this machine: the checks over `fingerprint` (and the disk of
/// `data_dir`), the stability runs, the loopback ceiling, the verdict.
/// `progress` hears a line at each stage and after each ceiling run.
pub fn validate(
    plan: &Plan,
    fingerprint: Fingerprint,
    data_dir: &Path,
    mut progress: impl FnMut(&str),
) -> Result<Profile, ValidateError> {
    let recipe = machine_recipe()?;
    let reference = Reference {
        smt: recipe.machine.as_ref().and_then(|m| m.smt),
        ..Reference::default()
    };
    let disk = disk::disk_space(data_dir);
    let mut checks = checks::check_machine(&fingerprint, &reference, disk.as_ref());

    let cpus = allowed_cpus();
    progress(&format!(
        "stability: {} on {}, {} runs each; timer lag over {} sleeps",
        format_args!("SHA-256 over {} MiB", plan.stability.work_mib),
        match stability::sample_cpus(&cpus, plan.stability.max_cpus)
            .len()
            .max(1)
        {
            1 => "1 CPU".to_string(),
            n => format!("{n} CPUs"),
        },
        plan.stability.runs_per_cpu,
        plan.stability.timer_sleeps
    ));
    let stability = stability::measure(&plan.stability, &cpus)?;
    checks.extend(fitness::stability_checks(&stability));

    let split = Split::for_machine(&cpus);
    progress(&format!(
        "ceiling: built-in reference server, {} connections, {} runs of {:.0?} ({})",
        plan.ceiling.connections,
        plan.ceiling.runs,
        plan.ceiling.duration,
        split.describe()
    ));
    let runs = plan.ceiling.runs;
    let ceiling = ceiling::measure(&plan.ceiling, &split, |n, run| {
        progress(&match run.req_per_s {
            Some(rps) => format!(
                "  run {n}/{runs}: {} req/s",
                reprise_recipe::reading::number(rps)
            ),
            None => format!("  run {n}/{runs}: no data ({} errors)", run.errors),
        });
    })?;
    checks.extend(fitness::ceiling_checks(&ceiling, baseline(&recipe)));

    Ok(Profile::new(
        &plan.mode,
        fingerprint,
        checks,
        stability,
        ceiling,
    ))
}
