//! HTTP load generation for Reprise: wrk-style closed loop and wrk2-style open
//! loop over plain HTTP/1.1 keep-alive connections (one write and one
//! read a request, no allocation), latency in HDR histograms
//! (corrected for coordinated omission in open loop), response checks, and
//! honest error accounting: a run with any failed request has no throughput
//! figure ("no data").
//!
//! Every load takes a [`StopHandle`] and ends within ~0.1 s of it being
//! stopped, and goes only where its [`Targets`] allow: by default this
//! machine's loopback; for a run, only the server the run started.
//!
//! ```no_run
//! use std::time::Duration;
//! use reprise_loadgen::{LoadSpec, StopHandle, run_until};
//!
//! let mut spec = LoadSpec::new("http://127.0.0.1:8080/up");
//! spec.connections = 16;
//! spec.duration = Duration::from_secs(10);
//! spec.checks.tags = Some(3);
//! let stop = StopHandle::default(); // stop.stop() from another thread ends it
//! let report = run_until(&spec, &stop, |p| eprintln!("{:.0} req/s", p.req_per_s))?;
//! match report.req_per_s {
//!     Some(rps) => println!("{rps:.0} req/s, p99 {:?} ms", report.latency.map(|l| l.p99)),
//!     None => println!("no data: {:?}", report.errors),
//! }
//! # Ok::<(), reprise_loadgen::LoadError>(())
//! ```
//!
//! It also holds an Action Cable client ([`cable`]: `actioncable-v1-json`,
//! re-sending unconfirmed subscribes as `@rails/actioncable` does) and post
//! 004's many-people load ([`people`]): simulated people with sessions,
//! cables, a navigation mix and posts, added in steps, every page and every
//! delivery checked, each step judged by a served criterion.
//!
//! The hot path lives here and nothing else does: no recipe is run, no
//! server started and no file written but the HDR logs asked for; single
//! checked requests outside a load go through the engine's client.
//!
//! ```no_run
//! use std::time::Duration;
//! use reprise_loadgen::people::PeopleProgress;
//! use reprise_loadgen::{PeopleSpec, StopHandle, run_people_until};
//!
//! let mut spec = PeopleSpec::new("http://127.0.0.1:3000");
//! spec.steps = vec![250, 500];
//! spec.step_duration = Duration::from_secs(60);
//! spec.verify_writes_path = Some("/writes".into());
//! let report = run_people_until(&spec, &StopHandle::default(), |p| {
//!     if let PeopleProgress::Step(step) = p {
//!         println!("{} people: served {}, {} failures", step.people, step.served, step.failures)
//!     }
//! })?;
//! println!("every step served: {}", report.served);
//! # Ok::<(), reprise_loadgen::PeopleError>(())
//! ```

pub mod cable;
mod check;
mod connection;
mod hdr_log;
mod http1;
pub mod people;
mod report;
mod run;
mod secret;
mod spec;
pub mod target;
pub mod websocket;
mod worker;
pub mod wrk;

pub use cable::{Cable, CableConfig, CableError, CableEvent, SubscriptionState};
pub use check::{
    CheckFailure, CheckSample, ResponseChecks, ResponseFingerprint, check_response, count_tags,
    sha256_hex,
};
pub use hdr_log::{HdrLogError, read_hdr_log, write_hdr_log};
pub use people::{
    Mix, PeopleError, PeopleReport, PeopleSpec, ServedCriterion, StepReport, run_people_until,
};
pub use report::{ErrorCounts, LatencyInterval, LatencySummary, LoadReport, Phase, Progress};
pub use run::run_until;
pub use secret::is_secret_header;
pub use spec::{BadUrl, LoadError, LoadSpec, StopHandle};
pub use target::{NotAPath, TargetError, Targets};
