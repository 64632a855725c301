//! What every step of a run is given: where the run happens (its folder in
//! the data dir, the checkout whose `checksums/` it checks trees against),
//! where its lanes are served ([`LaneHost`]), who hears about it (events),
//! how it may be stopped, and what the person asked of it (a smoke run,
//! strict, sources from elsewhere, a generator).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use reprise_probe::toolchain::SearchPath;
use reprise_verdict::Deviation;

use crate::event::{CancelToken, Event, EventSink, Stream};
use crate::lanes::placement::LaneHost;
use crate::os::processes::RunProcesses;
use crate::os::workdir::{DataDir, RunDir};

/// Where a run happens and who hears about it.
pub struct RunContext<'a> {
    pub data: DataDir,
    pub run: RunDir,
    /// The checkout whose `checksums/` holds the tree manifests.
    pub checksums_root: PathBuf,
    pub cancel: CancelToken,
    pub events: &'a dyn EventSink,
    /// How long a process has after SIGTERM before SIGKILL.
    pub grace: Duration,
    /// `--quick`: cap load durations, warm-ups, runs and cold starts, for
    /// tests and smoke runs (the results say so).
    pub quick: bool,
    /// `--strict`: a step whose outputs changed since it finished stops the
    /// run instead of being redone.
    pub strict: bool,
    /// Sources fetched from elsewhere than the recipe says (a mirror, a
    /// fork, an offline copy), by source id; the pinned revision still holds.
    pub source_overrides: BTreeMap<String, String>,
    /// `--generator`: the load generator for every workload, instead of
    /// each workload's own.
    pub generator: Option<reprise_recipe::Generator>,
    /// How this run differs from the post, as known before it starts
    /// (sources from elsewhere, a smoke run, a recipe not the reviewed one);
    /// the steps add what they find (toolchains at other versions).
    pub deviations: Vec<Deviation>,
    /// The environment the recipe's toolchains need, under every step's and
    /// lane's own: what mise resolves for the recipe's setup (`reprise
    /// setup`), or nothing where it has none.
    pub toolchain_env: BTreeMap<String, String>,
    /// Where the lanes are served: this machine, or a server host.
    pub lane_host: LaneHost,
    /// `--until-conclusive`: after each load step's own runs, more runs for
    /// the cells of the claims still open, within this budget (for the
    /// whole run, counted from the first load step that adds runs).
    pub until_conclusive: Option<Duration>,
    /// A limit on the memory the lanes hold together, in kB, under the
    /// machine's available memory (which always applies on this machine):
    /// lanes idle longest are stopped to make room for the next.
    pub lane_memory_limit_kb: Option<u64>,
    /// When that budget ends, once a load step started spending it.
    pub(crate) conclusive_deadline: std::sync::OnceLock<std::time::Instant>,
}

impl<'a> RunContext<'a> {
    /// With `--until-conclusive`, when its budget ends: counted from the
    /// first time a load step spends it (a run measured again, or runs added).
    pub(crate) fn conclusive_deadline(&self) -> Option<std::time::Instant> {
        // The budget is bounded where it is read (a year at most, whatever
        // its unit); held to that bound here too, so that no budget given
        // another way can overflow the deadline and lose the run.
        self.until_conclusive.map(|budget| {
            *self.conclusive_deadline.get_or_init(|| {
                std::time::Instant::now() + budget.min(reprise_recipe::Span::LONGEST)
            })
        })
    }

    /// A context with the defaults: 5 s of grace after SIGTERM, a full (not
    /// quick) run, redoing what changed, sources from the recipe's URLs, no
    /// deviation known before the run starts, and the lanes on this machine.
    pub fn new(
        data: DataDir,
        run: RunDir,
        checksums_root: PathBuf,
        cancel: CancelToken,
        events: &'a dyn EventSink,
    ) -> RunContext<'a> {
        RunContext {
            data,
            run,
            checksums_root,
            cancel,
            events,
            grace: Duration::from_secs(5),
            quick: false,
            strict: false,
            source_overrides: BTreeMap::new(),
            generator: None,
            deviations: Vec::new(),
            toolchain_env: BTreeMap::new(),
            lane_host: LaneHost::ThisMachine,
            until_conclusive: None,
            lane_memory_limit_kb: None,
            conclusive_deadline: std::sync::OnceLock::new(),
        }
    }

    /// Where the toolchains of this run are looked for: the PATH of its
    /// toolchain environment, then mise's installs.
    pub(crate) fn search_path(&self) -> SearchPath {
        crate::inputs::mise::search_path(&self.toolchain_env)
    }

    /// A note of the engine's in the step's log.
    pub(crate) fn note(&self, step: &str, line: String) {
        self.events.emit(Event::Log {
            step: step.to_string(),
            stream: Stream::Note,
            line,
        });
    }

    /// A process of the run's that moved itself out of its cgroup, found
    /// and ended: said in `step`'s log and recorded as an `escape`
    /// deviation (`what` says whose and which).
    pub(crate) fn escaped(
        &self,
        step: &str,
        what: String,
        lanes: Vec<String>,
    ) -> Result<(), crate::run::failure::StepFailure> {
        self.note(step, what.clone());
        let deviation = reprise_verdict::Deviation {
            kind: reprise_verdict::DeviationKind::Escape,
            what,
            lanes,
        };
        self.results().record_deviations(None, &[deviation])
    }

    /// What the run writes into its `results/`.
    pub(crate) fn results(&self) -> crate::run::results::Results<'_> {
        crate::run::results::Results::of(&self.run, &self.deviations)
    }

    /// Where the run records the process groups it starts.
    pub(crate) fn processes(&self) -> RunProcesses {
        RunProcesses::of(&self.run)
    }

    /// The log file of a lane's server.
    pub(crate) fn lane_log(&self, lane: &str) -> PathBuf {
        self.run.logs().join(format!("lane-{lane}.log"))
    }
}
