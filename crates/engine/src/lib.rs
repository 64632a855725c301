//! The engine: turns a recipe into a run on this machine. Its rooms, each
//! using only the ones below it:
//!
//! - [`run`]: a run from its plan to its record. The plan a reader confirms
//!   ([`run::plan`], with each measuring step's [`run::estimate`] and the
//!   [`run::consent`] it needs), what an earlier attempt keeps (`resume`), the
//!   context every step reads ([`run::context`]) and the files it writes
//!   ([`run::results`]), and the steps themselves, one module per kind
//!   (clone, build, emit, digest, bundle, seed, stage, sign_in, serve,
//!   check, load, cable, command), taken in order by [`execute`].
//! - [`lanes`]: where and how a lane is served. Where its lanes run
//!   ([`lanes::placement`]: this machine or another machine's engine,
//!   [`lanes::remote_engine`]), the server process a lane runs
//!   ([`lanes::server_process`]), the CPUs load and servers get
//!   ([`lanes::cpu_split`]), single requests ([`lanes::http`]) and a web
//!   app's signed-in session ([`lanes::signed_in`]).
//! - [`inputs`]: what a run is made from. Git sources ([`inputs::source`]),
//!   tree digests ([`inputs::tree_digest`]), per-runtime lockfiles
//!   ([`inputs::lockfile`]), the seed database ([`inputs::database`]) and
//!   the toolchains mise installs ([`inputs::mise`]).
//! - [`os`]: the boundary with the operating system. The data dir, each
//!   run's folder and its state ([`os::workdir`]), the run's files, never
//!   written through a link ([`os::run_files`]), the process groups a
//!   run has running, recorded so a killed attempt's leftovers are ended at
//!   the next start ([`os::processes`]), and where a step's process runs
//!   ([`os::runner::host`], [`os::runner::container`]).
//! - [`event`]: the one stream of [`Event`]s every room reports to, to a
//!   sink the caller provides.
//!
//! The measuring steps write the original harness's files through
//! `reprise-harness-files`.
//!
//! What must not live here: judging a run (`reprise-verdict`, called by
//! `reprise-session`), reports, the results history, and anything that
//! talks to GitHub or keeps a secret on disk.
//!
//! ```
//! use reprise_engine::event::{CancelToken, Event};
//! use reprise_engine::os::runner::host::{self, HostCommand};
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
pub mod inputs;
pub mod lanes;
pub mod os;
pub mod run;

pub use event::{CancelToken, Event, EventSink, LiveCell, StepProgress, Stream};
pub use lanes::placement::LaneHost;
pub use lanes::remote_engine::ServerHostReading;
pub use os::workdir::{DataDir, RunDir, State, StepStatus};
pub use run::consent::Consent;
pub use run::context::RunContext;
pub use run::estimate::Estimate;
pub use run::estimate::{QUICK_DURATION, QUICK_RUNS, QUICK_STEPS, QUICK_WARMUP};
pub use run::failure::StepFailure;
pub use run::plan::{Plan, PlanError, PlanOptions, plan};
pub use run::results::DEVIATIONS_FILE;
pub use run::resume::Decision;
pub use run::steps::check::CheckRow;
pub use run::{RunError, RunReport, execute, preview};
