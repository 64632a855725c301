//! The engine: turns a recipe into a run on this machine. It plans the
//! steps ([`plan`]), checks out sources with git2 ([`source`]), runs
//! processes on the host in their own process groups ([`runner::host`]) or in
//! containers through a Docker-compatible engine ([`runner::container`]),
//! digests trees ([`tree_digest`]), keeps a resumable work dir per run
//! ([`workdir`], [`execute`]), and reports everything as [`Event`]s to a sink
//! the caller provides.
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

pub mod event;
mod people_step;
pub mod plan;
pub mod run;
pub mod runner;
pub mod source;
pub mod tree_digest;
pub mod workdir;

pub use event::{CancelToken, Event, EventSink, Stream};
pub use plan::{Plan, PlanError, PlanOptions, plan};
pub use run::{RunContext, RunError, RunReport, execute};
pub use workdir::{DataDir, RunDir, State, StepStatus};
