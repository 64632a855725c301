//! The engine: turns a recipe into a run on this machine. It plans the
//! steps ([`plan`]), runs them in a resumable work dir per run ([`execute`],
//! [`workdir`], what is kept decided in `resume`), and reports everything
//! as [`Event`]s to a sink the caller provides.
//!
//! Each step kind has its own module under `steps` (clone, build, emit,
//! digest, bundle, seed, stage, sign_in, serve, check, load, cable, command)
//! over a shared context; the primitives they use live beside them: git
//! sources ([`source`]), processes in their own groups ([`runner::host`]) or
//! containers ([`runner::container`]), the process groups a run has
//! running, recorded in its folder so a killed attempt's leftovers are
//! ended at the next start ([`run_processes`]), tree digests ([`tree_digest`]), a
//! lane's server ([`lane_server`]), per-runtime lockfiles ([`lockfile`]),
//! the seed database ([`database`]), a web app's signed-in session
//! ([`web_session`]) and single requests on loopback ([`http`]). The
//! measuring steps write the original harness's files through
//! `reprise-harness`.
//!
//! What must not live here: judging a run (`reprise-verdict`, called by
//! `reprise-session`), reports, the results history, and anything that
//! talks to GitHub or keeps a secret on disk.
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

pub mod confine;
pub mod consent;
pub mod cpu_split;
pub mod database;
pub mod event;
pub mod expected;
pub mod http;
pub mod lane_host;
pub mod lane_server;
pub mod lockfile;
pub mod machine_match;
pub mod mise;
pub mod plan;
pub mod results;
mod resume;
pub mod run;
pub mod run_context;
pub mod run_processes;
pub mod runner;
pub mod server_host;
pub mod source;
mod steps;
pub mod tree_digest;
pub mod web_session;
pub mod workdir;

pub use consent::Consent;
pub use event::{CancelToken, Event, EventSink, LiveCell, StepProgress, Stream};
pub use expected::Expected;
pub use lane_host::LaneHost;
pub use plan::{Plan, PlanError, PlanOptions, plan};
pub use results::DEVIATIONS_FILE;
pub use resume::Decision;
pub use run::{RunError, RunReport, execute, preview};
pub use run_context::RunContext;
pub use steps::StepFailure;
pub use steps::check::CheckRow;
pub use steps::load::{QUICK_DURATION, QUICK_RUNS, QUICK_WARMUP};
pub use workdir::{DataDir, RunDir, State, StepStatus};
