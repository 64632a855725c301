//! The engine: turns a recipe into a run on this machine. It plans the
//! steps ([`plan`]), checks out sources with git2 ([`source`]), runs
//! processes on the host in their own process groups ([`runner::host`]) or in
//! containers through a Docker-compatible engine ([`runner::container`]),
//! digests trees ([`tree_digest`]), keeps a resumable work dir per run
//! ([`workdir`], [`execute`]), and reports everything as [`Event`]s to a sink
//! the caller provides.
//!
//! The benchmark steps of a guided run: `bundle` per runtime with its own
//! lockfile ([`bundle`]), `seed` with its row counts checked and `stage`
//! through SQLite's backup API ([`database`]), `sign_in` ([`sign_in`]),
//! `serve` (each lane's server in its own process group, pinned, boot times,
//! memory of its whole process tree: [`lane_server`]), `check` (one request
//! per endpoint per lane, a parity table) and `load` (lanes × endpoints ×
//! runs with `reprise-loadgen`, alternating lane order), writing the original
//! harness's `per-run.json`, `summary.json`, `coldstart.json`,
//! `skipped.json` and `env.json` plus `results.json` and HDR logs into the
//! run's `results/`. [`RunContext::quick`] caps durations for smoke runs.
//!
//! ```
//! use reprise_engine::event::{CancelToken, Event};
//! use reprise_engine::runner::host::{self, HostCommand};
//!
//! let dir = std::env::temp_dir();
//! let cmd = HostCommand::new("greet", vec!["echo".into(), "hello".into()], &dir);
//! let lines = std::sync::Mutex::new(Vec::new());
//! let outcome = host::run(&cmd, &CancelToken::new(), &|e: Event| {
//!     if let Event::Log { line, .. } = e {
//!         lines.lock().unwrap().push(line);
//!     }
//! })
//! .unwrap();
//! assert!(outcome.success());
//! assert_eq!(lines.into_inner().unwrap(), ["hello"]);
//! ```

mod bench;
pub mod bundle;
pub mod database;
pub mod event;
pub mod figures;
pub mod http_probe;
pub mod judge;
pub mod lane_server;
mod measure;
mod people_step;
pub mod plan;
pub mod run;
pub mod runner;
pub mod sign_in;
pub mod source;
mod steps;
pub mod tree_digest;
pub mod workdir;

pub use bench::{CheckRow, ColdStart, SkippedLane};
pub use event::{CancelToken, Event, EventSink, Stream};
pub use measure::{QUICK_DURATION, QUICK_RUNS, QUICK_WARMUP};
pub use plan::{Plan, PlanError, PlanOptions, plan};
pub use run::{RunContext, RunError, RunReport, execute};
pub use workdir::{DataDir, RunDir, State, StepStatus};
