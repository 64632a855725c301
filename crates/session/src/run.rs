//! A run from start to stored: the checksum gate, the plan, the run folder
//! (the recipe's latest resumed, or a new one), containers an earlier
//! attempt left behind, executing with cancel, then judging and storing in
//! the history. The CLI asks for consent between [`Session::prepare`] and
//! [`Session::execute`]; the app shows the plan and waits for a click.

use std::collections::BTreeMap;

use reprise_engine::{
    CancelToken, Decision, Event, EventSink, LaneHost, Plan, PlanOptions, RunContext, RunDir,
    RunReport,
};
use reprise_recipe::reading::count;
use reprise_report::RunEnding;
use reprise_verdict::{Deviation, DeviationKind};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::run_folder::LaneSkipped;
use crate::{LoadedRecipe, Session, SessionError};

/// What a person asked of a run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Lanes to run (default: every lane the plan can run).
    pub lanes: Vec<String>,
    /// Steps to run, with the steps they need (default: all).
    pub steps: Vec<String>,
    /// Redo this step and the steps that depend on it.
    pub from: Option<String>,
    /// Start a new run instead of resuming the recipe's latest.
    pub fresh: bool,
    /// Start a new run when the latest one ended with every step done, and
    /// resume it only when it stopped part-way (a page's Start). Without
    /// it (`reprise run`) the latest run is continued, its steps kept, so
    /// `--from` and `--step` redo steps of it.
    pub new_after_finished: bool,
    /// A smoke run: capped durations, warm-ups, runs (results say so).
    pub quick: bool,
    /// Run a recipe that is not the reviewed one.
    pub allow_modified: bool,
    /// Sources to fetch from elsewhere (a mirror, a fork, an offline copy),
    /// by source id; the pinned revision is still required and checked.
    pub sources: BTreeMap<String, String>,
    /// Stop, rather than redo, when something a finished step made has
    /// changed since (a tree edited after it was emitted).
    pub strict: bool,
    /// The load generator for every workload instead of each one's own
    /// (`wrk` measures as the posts did).
    pub generator: Option<reprise_recipe::Generator>,
    /// `--until-conclusive`: after each load step's own runs, more runs for
    /// the cells of the claims still open, within this budget.
    pub until_conclusive: Option<std::time::Duration>,
    /// Where the run was started, for the history (`reprise run`, `the desktop app`).
    pub origin: String,
    /// The lanes `--placement` moved (`Recipe::place_lanes`), and where:
    /// recorded as a deviation from the post.
    pub placed: Option<(reprise_recipe::Placement, Vec<String>)>,
    /// `--image LANE=IMAGE`: the images given to lanes (`Recipe::give_image`),
    /// each recorded as a deviation from the post.
    pub images: BTreeMap<String, String>,
    /// Where the lanes are served: this machine, or (`--server-host`)
    /// another machine's engine, the load generators here.
    pub lane_host: LaneHost,
    /// What the substitutions files (`--substitutions`) changed in the
    /// recipe (`Session::substitute`): each recorded as a deviation from
    /// the post.
    pub substituted: Vec<reprise_recipe::Substitution>,
}

/// Where the lanes run, as both front ends take it (`--server-host`,
/// `--server-certs`, `--image`; the app's run options): gives the images to
/// the recipe's lanes and reads the server host with its client
/// certificates (a folder of ca.pem, cert.pem, key.pem; by default
/// `DOCKER_CERT_PATH`, else `~/.docker`). Bad input is an error that says
/// which option and why.
pub fn place_lanes(
    recipe: &mut reprise_recipe::Recipe,
    server_host: Option<&str>,
    certs: Option<&std::path::Path>,
    images: &BTreeMap<String, String>,
) -> Result<LaneHost, SessionError> {
    for (lane, image) in images {
        recipe
            .give_image(lane, image)
            .map_err(|source| SessionError::Image {
                lane: lane.clone(),
                image: image.clone(),
                source,
            })?;
    }
    let Some(url) = server_host else {
        return Ok(LaneHost::ThisMachine);
    };
    let certs = certs
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(reprise_probe::container_engine::cert_folder);
    LaneHost::server_host(url, &certs).map_err(|source| SessionError::ServerHostAddress {
        url: url.to_string(),
        source,
    })
}

/// What a person chose for a run where a page offers the choices (the
/// app's Run page): the CLI's flags say the same in [`RunOptions`].
#[derive(Clone, Debug, Default, Deserialize, TS)]
pub struct RunChoices {
    /// Start a new run instead of resuming the latest.
    pub fresh: bool,
    /// A smoke run: short loads and warm-ups (the results say so).
    pub quick: bool,
    /// Sources to fetch from elsewhere, by id: a mirror, a fork, an offline
    /// copy; an empty one is no choice.
    pub sources: BTreeMap<String, String>,
    /// Run a recipe that is not the reviewed one: the reader saw what it
    /// runs (and the diff from the reviewed version) and accepted it.
    pub allow_modified: bool,
    /// Serve the lanes on another machine: the plan the reader saw was made
    /// with this same choice.
    pub server: Option<ServerChoice>,
    /// Go on measuring the claims still undecided after each load step's
    /// runs, for at most [`CONCLUSIVE_BUDGET`] (`--until-conclusive`).
    #[serde(default)]
    pub until_conclusive: bool,
}

/// What `--until-conclusive` may add to a run unless told otherwise.
pub const CONCLUSIVE_BUDGET: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Lanes served by another machine's Docker Engine API, as `reprise run
/// --server-host URL --server-certs DIR --image LANE=IMAGE` takes them.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, TS)]
pub struct ServerChoice {
    /// `tcp://HOST:PORT` (TLS with client certificates).
    pub host: String,
    /// The folder of ca.pem, cert.pem and key.pem; `None` for
    /// DOCKER_CERT_PATH, else ~/.docker.
    pub certs: Option<String>,
    /// Images given to lanes, by lane: every lane there runs in one.
    pub images: BTreeMap<String, String>,
}

impl RunChoices {
    /// The run options these choices make, `recipe`'s lanes placed as
    /// chosen ([`place_lanes`], as the CLI's flags place them); blank
    /// fields are no choice.
    pub fn options(
        self,
        recipe: &mut reprise_recipe::Recipe,
        origin: &str,
    ) -> Result<RunOptions, SessionError> {
        let filled = |map: BTreeMap<String, String>| -> BTreeMap<String, String> {
            map.into_iter()
                .map(|(k, v)| (k, v.trim().to_string()))
                .filter(|(_, v)| !v.is_empty())
                .collect()
        };
        let server = self.server.unwrap_or_default();
        let images = filled(server.images);
        let certs = server
            .certs
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(std::path::Path::new);
        let host = Some(server.host.trim()).filter(|h| !h.is_empty());
        let lane_host = place_lanes(recipe, host, certs, &images)?;
        Ok(RunOptions {
            fresh: self.fresh,
            new_after_finished: true,
            quick: self.quick,
            sources: filled(self.sources),
            allow_modified: self.allow_modified,
            until_conclusive: self.until_conclusive.then_some(CONCLUSIVE_BUDGET),
            origin: origin.into(),
            images,
            lane_host,
            ..RunOptions::default()
        })
    }
}

/// A run ready to go: its plan, the folder it will use, what each step
/// will do there, and how the run will differ from the post.
pub struct PreparedRun<'r> {
    pub plan: Plan<'r>,
    /// The run folder resumed, or `None` for a new one.
    pub resumes: Option<RunDir>,
    /// Per planned step: kept, run or redone, and why.
    pub decisions: Vec<Decision>,
    /// Known before the run starts: sources from elsewhere, a smoke run, a
    /// recipe not the reviewed one.
    pub deviations: Vec<Deviation>,
    /// Everything the run executes, writes and requests, escaped: what the
    /// reader accepts.
    pub consent: reprise_engine::Consent,
    pub quick: bool,
    strict: bool,
    generator: Option<reprise_recipe::Generator>,
    /// `--until-conclusive`'s budget.
    pub until_conclusive: Option<std::time::Duration>,
    sources: BTreeMap<String, String>,
    origin: String,
    pub(crate) lane_host: LaneHost,
}

/// How a run ended, and whether what it measured reached the history.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RunOutcome {
    pub run: String,
    /// How it ended: the rule the CLI's exit code and the app both read.
    pub ending: RunEnding,
    /// The run, how it ended and its summary, as both front ends say it:
    /// `Run hello-ceiling-1 cancelled: 1 step finished`.
    pub headline: String,
    pub steps: RunReport,
    /// Every lane not measured (or stopped), with why, as
    /// `results/skipped.json` has them; every lane in `steps.lanes_failed`
    /// is here, with or without a record there.
    pub skipped_lanes: Vec<LaneSkipped>,
    /// The steps and lanes in one line, as both front ends say it: `3 steps
    /// finished; 1 lane not measured (falcon)`. Counts of none are left out.
    pub summary: String,
    pub history: HistoryOutcome,
}

impl RunOutcome {
    /// [`RunOutcome::summary`]'s line for these steps and lanes.
    pub fn summarise(steps: &RunReport, lanes: &[LaneSkipped]) -> String {
        let mut parts = Vec::new();
        let counts = [
            (steps.finished.len(), "finished"),
            (steps.reused.len(), "kept from before"),
            (steps.skipped.len(), "skipped"),
            (steps.failed.len(), "failed"),
            (steps.cancelled_steps.len(), "cancelled"),
        ];
        for (n, what) in counts {
            if n > 0 {
                // The first count says what is counted.
                parts.push(match parts.is_empty() {
                    true => format!("{} {what}", count(n as u32, "step")),
                    false => format!("{n} {what}"),
                });
            }
        }
        let mut line = match parts.is_empty() {
            true => "no step ran".to_string(),
            false => parts.join(", "),
        };
        if !lanes.is_empty() {
            let names: Vec<&str> = lanes.iter().map(|l| l.lane.as_str()).collect();
            line.push_str(&format!(
                "; {} not measured ({})",
                count(lanes.len() as u32, "lane"),
                names.join(", ")
            ));
        }
        line
    }
}

/// What became of a run's results.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum HistoryOutcome {
    /// Judged and stored: `reprise report RUN` renders it.
    Stored { id: String },
    /// The run measured nothing to judge.
    NothingToStore,
    /// Judging or storing failed, and why.
    Failed { reason: String },
}

impl Session {
    /// The checksum gate and the plan: refuses a recipe that is not the
    /// reviewed one (modified, not listed, or unreadable checksums) unless
    /// `allow_modified`; plans the steps; finds the run to resume.
    pub fn prepare<'r>(
        &self,
        loaded: &'r LoadedRecipe,
        options: &RunOptions,
    ) -> Result<PreparedRun<'r>, SessionError> {
        if !loaded.checksum.is_reviewed() && !options.allow_modified {
            return Err(SessionError::Unreviewed {
                file: loaded.recipe.file.clone(),
                status: loaded.checksum.clone(),
            });
        }
        let mut plan = reprise_engine::plan(
            &loaded.recipe,
            &PlanOptions {
                lanes: options.lanes.clone(),
                steps: options.steps.clone(),
                from: options.from.clone(),
            },
        )?;
        // What the measuring steps expect to measure: the lanes that run
        // where they are served.
        let standings = self.lane_standings(&loaded.recipe, &options.lane_host)?;
        let here = crate::recipes::running(&standings);
        plan.lanes_here = Some(
            plan.lanes
                .iter()
                .filter(|l| here.contains(&l.as_str()))
                .cloned()
                .collect(),
        );
        for id in options.sources.keys() {
            if !loaded.recipe.sources.iter().any(|s| s.id.as_str() == id) {
                return Err(SessionError::UnknownSource {
                    id: id.clone(),
                    known: loaded
                        .recipe
                        .sources
                        .iter()
                        .map(|s| s.id.to_string())
                        .collect(),
                });
            }
        }
        let resumes = if options.fresh {
            None
        } else {
            let steps: Vec<&str> = plan.steps.iter().map(|s| s.id()).collect();
            self.data
                .latest_run(loaded.recipe.id())?
                .filter(|(_, state)| !(options.new_after_finished && state.ended(&steps)))
                .map(|(run, _)| run)
        };
        if let Some(run) = &resumes {
            options.lane_host.may_resume(run)?;
        }
        let decisions = match &resumes {
            Some(run) => reprise_engine::preview(&plan, run, &self.catalog.root)?,
            None => plan
                .steps
                .iter()
                .map(|_| Decision::Run("a new run".into()))
                .collect(),
        };
        Ok(PreparedRun {
            decisions,
            deviations: deviations(loaded, options),
            consent: reprise_engine::Consent::of(&plan, &loaded.recipe, &options.lane_host),
            plan,
            resumes,
            quick: options.quick,
            strict: options.strict,
            generator: options.generator,
            until_conclusive: options.until_conclusive,
            sources: options.sources.clone(),
            lane_host: options.lane_host.clone(),
            origin: if options.origin.is_empty() {
                "reprise".into()
            } else {
                options.origin.clone()
            },
        })
    }

    /// Runs a prepared plan to its end (or a cancel: [`Session::cancel`]),
    /// then judges what it measured and stores it in the history. Events go
    /// to `events` as they happen; run-level notes (containers removed, the
    /// history) are [`Event::Note`]s.
    pub fn execute(
        &self,
        prepared: PreparedRun,
        events: &dyn EventSink,
    ) -> Result<RunOutcome, SessionError> {
        let recipe = prepared.plan.recipe;
        let id = recipe.id().to_string();
        let cancel = CancelToken::new();
        {
            let mut running = self.running();
            if running.contains_key(crate::validate::VALIDATION) {
                return Err(SessionError::MachineBusy(
                    "this machine is being validated".into(),
                ));
            }
            if running.contains_key(&id) {
                return Err(SessionError::Busy(id));
            }
            running.insert(id.clone(), cancel.clone());
        }
        let result = self.execute_registered(prepared, events, cancel);
        self.running().remove(&id);
        result
    }

    fn execute_registered(
        &self,
        prepared: PreparedRun,
        events: &dyn EventSink,
        cancel: CancelToken,
    ) -> Result<RunOutcome, SessionError> {
        let recipe = prepared.plan.recipe;
        let run = match prepared.resumes {
            Some(run) => run,
            None => self.data.create_run(recipe.id())?,
        };
        // Containers an earlier attempt left behind are looked for on this
        // machine, where the run's folder says its lanes were served, and
        // where they are served now.
        let mut hosts = vec![LaneHost::ThisMachine];
        for host in [LaneHost::recorded(&run.path), prepared.lane_host.clone()] {
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
        for host in &hosts {
            remove_left_over_containers(&run, host, events);
        }
        prepared.lane_host.record(&run).map_err(|e| {
            SessionError::ServerHost(format!(
                "cannot record the server host in the run's folder: {e}"
            ))
        })?;
        let mut ctx = RunContext::new(
            self.data.clone(),
            run,
            self.catalog.root.clone(),
            cancel,
            events,
        );
        ctx.quick = prepared.quick;
        ctx.strict = prepared.strict;
        ctx.generator = prepared.generator;
        ctx.until_conclusive = prepared.until_conclusive;
        ctx.source_overrides = prepared.sources;
        ctx.deviations = prepared.deviations;
        ctx.toolchain_env = self.toolchain_env(recipe.id())?;
        ctx.lane_host = prepared.lane_host;
        let steps = reprise_engine::execute(&prepared.plan, &ctx)?;
        let skipped_lanes = lanes_not_measured(&ctx.run, &steps, events);
        let ending = RunEnding::of(
            steps.cancelled,
            !steps.failed.is_empty() || !steps.lanes_failed.is_empty(),
            !skipped_lanes.is_empty(),
        );
        let history = self.judge_and_store(recipe, &ctx.run, &prepared.origin, Some(ending));
        let note = match &history {
            HistoryOutcome::Stored { id } => format!(
                "stored run {id} in the history: `reprise report {id}` renders it with its verdicts"
            ),
            HistoryOutcome::NothingToStore => "the run measured nothing to judge".into(),
            HistoryOutcome::Failed { reason } => {
                format!("the run could not be stored in the history: {reason}")
            }
        };
        events.emit(Event::Note { message: note });
        // Results that could not be stored: the run failed, whatever its steps did.
        let ending = match history {
            HistoryOutcome::Failed { .. } => RunEnding::Failed,
            _ => ending,
        };
        let summary = RunOutcome::summarise(&steps, &skipped_lanes);
        Ok(RunOutcome {
            run: ctx.run.id.clone(),
            ending,
            headline: format!("Run {} {}: {summary}", ctx.run.id, ending.words()),
            summary,
            skipped_lanes,
            steps,
            history,
        })
    }

    /// Judges what a run measured and stores it, so `reprise report RUN`
    /// and the app's Results page have it.
    pub fn judge_and_store(
        &self,
        recipe: &reprise_recipe::Recipe,
        run: &RunDir,
        origin: &str,
        ending: Option<RunEnding>,
    ) -> HistoryOutcome {
        let stored = crate::judge::judge_run(recipe, run, origin).and_then(|report| match report {
            None => Ok(None),
            Some(mut report) => {
                // What a shared result says it reproduced, kept with the
                // report so it outlives the run's folder.
                report.run.recipe_sha256 = crate::recorded_recipe_digest(run);
                report.run.ending = ending;
                self.history()?.store(&report)?;
                Ok(Some(report.run.id))
            }
        });
        match stored {
            Ok(Some(id)) => HistoryOutcome::Stored { id },
            Ok(None) => HistoryOutcome::NothingToStore,
            Err(e) => HistoryOutcome::Failed {
                reason: e.to_string(),
            },
        }
    }
}

/// Every lane the run did not measure, or stopped measuring, with why: as
/// `results/skipped.json` has them, and each lane the engine says did not
/// boot or stopped that the file does not list. The run is judged and
/// stored by now, so a file that cannot be read is said, not an error.
fn lanes_not_measured(run: &RunDir, steps: &RunReport, events: &dyn EventSink) -> Vec<LaneSkipped> {
    let mut lanes = crate::run_folder::skipped_lanes(&run.results()).unwrap_or_else(|e| {
        events.emit(Event::Note {
            message: format!(
                "results/skipped.json could not be read, so why lanes were not measured is not known: {e}"
            ),
        });
        Vec::new()
    });
    for lane in &steps.lanes_failed {
        if !lanes.iter().any(|l| &l.lane == lane) {
            // Both front ends say it did not boot or stopped, from `lanes_failed`.
            lanes.push(LaneSkipped {
                lane: lane.clone(),
                why: "results/skipped.json has no record of why".into(),
            });
        }
    }
    lanes
}

/// How a run will differ from the post before it starts.
fn deviations(loaded: &LoadedRecipe, options: &RunOptions) -> Vec<Deviation> {
    let mut found = Vec::new();
    for (id, url) in &options.sources {
        let from = loaded
            .recipe
            .sources
            .iter()
            .find(|s| s.id.as_str() == id)
            .map(|s| s.url.clone())
            .unwrap_or_default();
        found.push(Deviation::new(
            DeviationKind::Source,
            format!("{id} fetched from {url} instead of {from} (the same revision)"),
        ));
    }
    if !loaded.checksum.is_reviewed() {
        found.push(Deviation::new(
            DeviationKind::Recipe,
            format!(
                "a recipe that is {} against checksums/recipes.sha256, not the reviewed one",
                loaded.checksum.word()
            ),
        ));
    }
    if let Some((placement, lanes)) = options.placed.as_ref().filter(|(_, l)| !l.is_empty()) {
        let place = match placement {
            reprise_recipe::Placement::Container => "in containers of their images",
            reprise_recipe::Placement::Host => "on the host",
        };
        found.push(Deviation {
            kind: DeviationKind::Placement,
            what: format!(
                "{} run {place} (--placement), not as the recipe places them",
                lanes.join(", ")
            ),
            lanes: lanes.clone(),
        });
    }
    for (lane, image) in &options.images {
        found.push(Deviation {
            kind: DeviationKind::Placement,
            what: format!(
                "{lane} ran in the image {image}, given with --image rather than taken from the recipe"
            ),
            lanes: vec![lane.clone()],
        });
    }
    for substitution in &options.substituted {
        // The file's name alone: a path can name its owner's home.
        let file = substitution.file.file_name().unwrap_or_default();
        found.push(Deviation {
            kind: DeviationKind::Substituted,
            what: format!(
                "{substitution} ({}): {}",
                file.to_string_lossy(),
                substitution.because
            ),
            lanes: substitution
                .lane()
                .map(str::to_string)
                .into_iter()
                .collect(),
        });
    }
    found.extend(options.lane_host.deviation());
    if options.quick {
        found.push(Deviation::new(
            DeviationKind::Quick,
            "a smoke run (--quick): durations, warm-ups and runs capped",
        ));
    }
    found
}

/// Containers an earlier attempt of this run left behind (it crashed or was
/// killed) go before anything starts, on `host`'s engine; an engine that
/// does not answer has none to remove now.
fn remove_left_over_containers(run: &RunDir, host: &LaneHost, events: &dyn EventSink) {
    let on = host.on_where();
    let message = match host.remove_left_over_containers(Some(&run.id)) {
        Ok(removed) if removed.is_empty() => return,
        Ok(removed) => format!(
            "removed {} left by an earlier attempt of this run{on}: {}",
            count(removed.len() as u32, "container"),
            removed.join(", ")
        ),
        // An engine that does not answer now: the run starts none there.
        Err(reprise_engine::os::runner::container::ContainerError::Unreachable { .. }) => return,
        Err(e) => format!("cannot remove this run's old containers: {e}"),
    };
    events.emit(Event::Note { message });
}
