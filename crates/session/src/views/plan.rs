//! A run's plan as both front ends show it before it starts: each step with
//! what the run will do with it (keep, run, redo) and why, what it measures
//! and about how long, and where the latest run got to with it; the
//! sources, deviations and everything the run executes. `reprise run`
//! prints these rows.

use reprise_engine::{Consent, Decision, Estimate, State, StepStatus};
use reprise_engine::{LaneHost, ServerHostReading};
use reprise_probe::preflight::{self, ClaimsHere};
use reprise_probe::toolchain;
use reprise_recipe::{ChecksumStatus, StepKind};
use reprise_report::{Environment, SourceRevision};
use reprise_verdict::Deviation;
use serde::Serialize;
use ts_rs::TS;

use crate::preflight::{Preflighted, Versions, preflight_on};
use crate::run::{PreparedRun, RunChoices};
use crate::{LoadedRecipe, Session, SessionError};

/// The Run page: the plan and where the latest run got to.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RunPlan {
    pub recipe: String,
    pub checksum: ChecksumStatus,
    pub lanes: Vec<String>,
    /// The run a start resumes: the latest, when it stopped part-way
    /// (cancelled, killed, or a step failed); after a finished run a page
    /// starts a new one.
    pub resumes: Option<String>,
    pub steps: Vec<PlanRow>,
    /// The recipe's sources, each of which a run may fetch from elsewhere.
    pub sources: Vec<SourceRevision>,
    /// How the run would differ from the post, known before it starts.
    pub deviations: Vec<Deviation>,
    /// Everything the run executes, writes and requests, escaped: what
    /// starting it accepts.
    pub consent: Consent,
    /// For a modified recipe: the diff from its reviewed version, where the
    /// checkout's git history has it.
    pub reviewed_diff: Option<String>,
    /// What this run can judge, with the one reason and the fix for the
    /// claims it cannot: known before it starts.
    pub claims: ClaimsHere,
    /// Where this run judges no claim: the other recipes a run here can
    /// judge claims of (their programs only looked for).
    pub judged_elsewhere: Vec<String>,
}

/// A step of the plan, and where the latest run got to with it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PlanRow {
    pub id: String,
    pub kind: StepKind,
    /// The post's reason for the step.
    pub why: String,
    /// What the step will do: the command, the source, the tree.
    pub describe: String,
    /// `keep`, `run` or `redo`.
    pub decision: String,
    /// Why, where it tells something: for every step of a resumed run and
    /// for one not simply run; a new run's steps have none.
    pub reason: Option<String>,
    pub last_status: Option<StepStatus>,
    pub last_reason: Option<String>,
    /// A measuring step's cells and about how long they take, as a full
    /// run applies the workload, and as a quick one does.
    pub expected: Option<Estimate>,
    pub expected_quick: Option<Estimate>,
}

impl Session {
    /// The plan a run of recipe `id` with a page's `choices` would follow,
    /// as the page shows it before the reader starts it. A recipe that is
    /// not the reviewed one is planned too, its deviation and its diff from
    /// the reviewed version said: starting it needs the reader's yes.
    pub fn plan_for(&self, id: &str, choices: RunChoices) -> Result<RunPlan, SessionError> {
        let mut loaded = self.load_recipe(id)?;
        let options = RunChoices {
            allow_modified: true,
            ..choices
        }
        .options(&mut loaded.recipe, "")?;
        let prepared = self.prepare(&loaded, &options)?;
        Ok(self.plan_view(&loaded, &prepared))
    }

    /// The plan `prepared` will follow, as both front ends show it.
    pub fn plan_view(&self, loaded: &LoadedRecipe, prepared: &PreparedRun) -> RunPlan {
        let state = prepared
            .resumes
            .as_ref()
            .and_then(|run| State::load(&run.state_file()).ok().flatten());
        let plan = &prepared.plan;
        let (claims, judged_elsewhere) = self.claims_this_run_judges(loaded, prepared);
        RunPlan {
            recipe: loaded.recipe.id().to_string(),
            checksum: loaded.checksum.clone(),
            lanes: plan.lanes.clone(),
            resumes: prepared.resumes.as_ref().map(|r| r.id.clone()),
            steps: plan
                .steps
                .iter()
                .zip(&prepared.decisions)
                .map(|(p, decision)| {
                    let before = state.as_ref().and_then(|s| s.steps.get(p.id()));
                    let said = prepared.resumes.is_some() || !matches!(decision, Decision::Run(_));
                    PlanRow {
                        id: p.id().to_string(),
                        kind: p.kind(),
                        why: p.step.why.clone(),
                        describe: p.describe(&loaded.recipe),
                        decision: decision.word().into(),
                        reason: said.then(|| decision.reason().to_string()),
                        last_status: before.map(|b| b.status),
                        last_reason: before.and_then(|b| b.reason.clone()),
                        expected: plan.expected(p, false),
                        expected_quick: plan.expected(p, true),
                    }
                })
                .collect(),
            sources: Environment::sources_of(&loaded.recipe),
            deviations: prepared.deviations.clone(),
            consent: prepared.consent.clone(),
            reviewed_diff: self.reviewed_diff(loaded),
            claims,
            judged_elsewhere,
        }
    }

    /// The recipes other than `loaded` of which a run here can judge at
    /// least one claim, on the machine `found` read (read once, not per
    /// recipe: on a server host that is a container started there).
    fn judged_elsewhere(
        &self,
        loaded: &LoadedRecipe,
        found: &Preflighted,
        host: &LaneHost,
    ) -> Vec<String> {
        let Ok(library) = self.library() else {
            return Vec::new();
        };
        library
            .recipes
            .iter()
            .filter(|other| other.recipe.id() != loaded.recipe.id())
            .filter(|other| {
                let recipe = &other.recipe;
                let env = self.toolchain_env(recipe.id()).unwrap_or_default();
                let tools = toolchain::locate(
                    &preflight::recipe_queries(recipe),
                    &reprise_engine::inputs::mise::search_path(&env),
                );
                !preflight_on(recipe, &found.fingerprint, &tools, host)
                    .claims
                    .judged
                    .is_empty()
            })
            .map(|other| other.recipe.id().to_string())
            .collect()
    }

    /// The preflight's claims (its programs only looked for: nothing of the
    /// recipe runs), and those whose lanes the plan leaves out.
    /// Where this run judges none, also the recipes a run here can judge
    /// ([`Session::judged_elsewhere`]).
    fn claims_this_run_judges(
        &self,
        loaded: &LoadedRecipe,
        prepared: &PreparedRun,
    ) -> (ClaimsHere, Vec<String>) {
        let host = &prepared.lane_host;
        let found = self.preflight(
            loaded,
            Versions::Locate,
            true,
            host,
            ServerHostReading::Hardware,
        );
        let Ok(found) = found else {
            return (ClaimsHere::default(), Vec::new());
        };
        let recipe = &loaded.recipe;
        let mut claims = preflight::claims_here(recipe, &found.report);
        for c in claims.iter_mut().filter(|c| c.judged) {
            let left_out = recipe
                .claims
                .iter()
                .find(|k| k.id == c.claim.as_str())
                .and_then(|claim| {
                    claim.shape.figures().into_iter().find_map(|id| {
                        let lane = recipe.figure(id.as_str())?.lane.to_string();
                        (!prepared.plan.lanes.contains(&lane)).then_some(lane)
                    })
                });
            if let Some(lane) = left_out {
                c.judged = false;
                c.why = Some(preflight::NotJudgedBecause::LeftOut { lane });
            }
        }
        let claims = ClaimsHere::of(claims);
        let elsewhere = match claims.judges_nothing() {
            true => self.judged_elsewhere(loaded, &found, host),
            false => Vec::new(),
        };
        (claims, elsewhere)
    }
}
