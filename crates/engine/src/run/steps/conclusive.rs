//! `reprise run --until-conclusive`: after a load step's own rounds, more
//! rounds for the cells of the claims still open, until each is decided,
//! shown to be beyond what this machine's noise lets the budget settle, or
//! the budget is spent. The looks, their confidence and what a claim's
//! standing means are [`reprise_verdict::sequential`]'s; this module runs
//! the rounds, still alternating the lanes, and records every look in
//! `results.json` (`until_conclusive`), which the run's verdicts are then
//! drawn by.

use std::time::{Duration, Instant};

use reprise_probe::Fingerprint;
use reprise_recipe::{Lane, Workload};
use reprise_verdict::sequential::{
    ClaimAtLook, Look, Looks, Standing, UntilConclusive, open_cells, standings,
};
use reprise_verdict::{CellKey, Settings, judge};

use super::lanes::Lanes;
use super::rounds::Rounds;
use super::{StepFailure, StepInput};
use crate::lanes::remote_engine::ServerHostEnv;
use reprise_recipe::reading::{count, duration_words};

/// The rounds' measurements as the run's verdicts will read them: with the
/// checked responses' parity and, with the lanes on another machine, the
/// link's ceiling, so that a look neither decides nor asks runs for a claim
/// whose cells the final judgement sets aside (not comparable, network-bound).
fn as_judged(rounds: &Rounds) -> Result<reprise_verdict::Measurements, StepFailure> {
    let dir = rounds.input.ctx.run.results();
    let mut m = rounds.measurements.clone();
    m.parity = reprise_harness_files::read_parity(&dir)?;
    m.link_ceiling = std::fs::read(dir.join(crate::lanes::remote_engine::SERVER_ENV_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<ServerHostEnv>(&bytes).ok())
        .and_then(|server| server.link?.ceiling_req_per_s);
    Ok(m)
}

/// More rounds after the recipe's, within what is left of the run's
/// `budget` (shared by every load step of the run): planned, then a look at
/// each of the plan's numbers of runs, and the next round to the next look
/// for the cells the claims still open read.
pub(super) fn extend(
    rounds: &mut Rounds,
    lanes: &mut Lanes,
    to_measure: &[&Lane],
    budget: Duration,
) -> Result<(), StepFailure> {
    let plan = Extension::plan(rounds, to_measure, budget);
    let s = plan.input;
    let mut record = UntilConclusive::planned(budget.as_secs(), &plan.looks);
    if plan.looks.at.is_empty() {
        s.note(format!(
            "--until-conclusive: the budget left ({}) holds fewer than three runs per cell at about {} a cell: no run added",
            duration_words(plan.left),
            duration_words(plan.per_cell)
        ));
        record.stopped = Some("the budget holds fewer than three runs per cell".into());
        rounds.conclusive = Some(record);
        return Ok(());
    }
    s.note(format!(
        "--until-conclusive: {}; the budget left ({}) holds up to {} per cell",
        plan.looks.rule(),
        duration_words(plan.left),
        count(plan.looks.last(), "run")
    ));
    let mut runs = plan.recipe_runs;
    // Until the first look, every cell of this step's claims gets runs;
    // after each look, only those of the claims it left open. The run
    // stops only at a look, so its verdicts are drawn from a look's runs.
    let mut wanted: Option<Vec<CellKey>> = None;
    let stopped = loop {
        if plan.looks.is_look(runs) {
            match plan.look(rounds, lanes, runs, &mut record)? {
                AfterLook::Open(cells) => wanted = Some(cells),
                AfterLook::Stop(why) => break why,
            }
        }
        if let Some(stopped) = plan.next_round(rounds, lanes, &mut runs, wanted.as_deref())? {
            break stopped;
        }
    };
    s.note(format!(
        "--until-conclusive stopped after {} per cell ({} added): {stopped}",
        count(runs, "run"),
        runs - plan.recipe_runs
    ));
    record.stopped = Some(stopped);
    record.runs = Some(runs);
    rounds.conclusive = Some(record);
    rounds.write(lanes)
}

/// What a look leaves: the cells of the claims still open, or why the run
/// stops here.
enum AfterLook {
    Open(Vec<CellKey>),
    Stop(String),
}

/// The runs `--until-conclusive` may add to one load step, fixed before the
/// first look.
struct Extension<'a> {
    input: &'a StepInput<'a>,
    workload: &'a Workload,
    to_measure: &'a [&'a Lane],
    /// The run's, shared by every load step.
    deadline: Instant,
    /// What a cell has taken, all told, so far.
    per_cell: f64,
    /// Seconds of the budget left when the looks were planned.
    left: f64,
    recipe_runs: u32,
    looks: Looks,
    machine: reprise_verdict::MachineMatch,
    settings: Settings,
}

impl<'a> Extension<'a> {
    fn plan(rounds: &Rounds<'a>, to_measure: &'a [&'a Lane], budget: Duration) -> Extension<'a> {
        let (s, ctx) = (rounds.input, rounds.input.ctx);
        let deadline = ctx
            .conclusive_deadline()
            .unwrap_or_else(|| Instant::now() + budget.min(reprise_recipe::Span::LONGEST));
        let recipe_runs = rounds.shape.runs;
        let measured = rounds.cells.len().max(1) as f64;
        let per_cell = rounds.started.elapsed().as_secs_f64() / measured;
        let cells_per_round = (to_measure.len() * rounds.workload.endpoints.len()).max(1) as f64;
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        // From the budget alone: the most runs per cell it holds were every
        // cell to need them (never past 1,000: a cell measured in no time
        // says nothing of the next).
        let held = (left / (per_cell * cells_per_round)).floor();
        let most = recipe_runs.saturating_add(if held.is_finite() {
            held.min(1000.0) as u32
        } else {
            1000
        });
        let looks = Looks::plan(recipe_runs, most);
        let settings = Settings {
            rounds_alternate: true,
            bootstrap: reprise_verdict::Bootstrap {
                confidence: looks.confidence,
                ..Default::default()
            },
            ..Settings::default()
        };
        Extension {
            input: s,
            workload: rounds.workload,
            to_measure,
            deadline,
            per_cell,
            left,
            recipe_runs,
            looks,
            machine: crate::run::machine_match::machine_match(s.recipe, &Fingerprint::probe()),
            settings,
        }
    }

    /// Whether `key` is a cell this step measures: one of its lanes at one
    /// of its endpoints.
    fn ours(&self, key: &CellKey) -> bool {
        self.to_measure.iter().any(|l| l.name.as_str() == key.lane)
            && self
                .workload
                .endpoints
                .iter()
                .any(|e| key.endpoint.as_deref() == Some(e.name.as_str()))
    }

    /// A look after `runs` per cell: each claim this step's cells judge,
    /// said, recorded and written; what comes after it.
    fn look(
        &self,
        rounds: &mut Rounds,
        lanes: &Lanes,
        runs: u32,
        record: &mut UntilConclusive,
    ) -> Result<AfterLook, StepFailure> {
        let s = self.input;
        let judgement = judge(s.recipe, &as_judged(rounds)?, &self.machine, &self.settings);
        let at_look: Vec<ClaimAtLook> = standings(&judgement, runs, self.looks.last())
            .into_iter()
            .filter(|c| reads_only(&judgement, &c.claim, &|k| self.ours(k)))
            .collect();
        say_look(s, runs, &at_look);
        record.looks.push(Look {
            runs,
            claims: at_look.clone(),
        });
        rounds.conclusive = Some(record.clone());
        rounds.write(lanes)?;
        let open = open_cells(&at_look);
        let beyond = |c: &ClaimAtLook| matches!(c.standing, Standing::Beyond { .. });
        let last = runs >= self.looks.last();
        Ok(if last && at_look.iter().any(beyond) {
            AfterLook::Stop(format!(
                "the budget: its last planned look ({runs} runs per cell) left a claim undecided"
            ))
        } else if open.is_empty() {
            AfterLook::Stop(match at_look.is_empty() {
                true => "no claim is judged by this step's cells".to_string(),
                false => {
                    "every claim judged here is decided, or beyond what more runs could settle"
                        .into()
                }
            })
        } else if last {
            AfterLook::Stop(format!("the last planned look ({runs} runs per cell)"))
        } else {
            AfterLook::Open(open)
        })
    }

    /// The runs from `runs` to the next look, of the `wanted` cells (all of
    /// this step's before the first look), lanes alternating; why the run
    /// stops instead when the budget cannot hold them.
    fn next_round(
        &self,
        rounds: &mut Rounds,
        lanes: &mut Lanes,
        runs: &mut u32,
        wanted: Option<&[CellKey]>,
    ) -> Result<Option<String>, StepFailure> {
        let next = self.looks.next_after(*runs);
        let round: Vec<(&Lane, &reprise_recipe::Endpoint)> = self
            .to_measure
            .iter()
            .flat_map(|lane| self.workload.endpoints.iter().map(move |e| (*lane, e)))
            .filter(|(lane, e)| {
                wanted.is_none_or(|cells| {
                    cells.iter().any(|k| {
                        k.lane == lane.name.as_str()
                            && k.endpoint.as_deref() == Some(e.name.as_str())
                    })
                })
            })
            .collect();
        let to_next = self.per_cell * (round.len() as u32 * (next - *runs)) as f64;
        if Instant::now() + Duration::from_secs_f64(to_next) > self.deadline {
            return Ok(Some(format!(
                "the budget: the next look ({} per cell) would take about {} more",
                count(next, "run"),
                duration_words(to_next)
            )));
        }
        rounds.total += u64::from(next - *runs) * round.len() as u64;
        while *runs < next {
            *runs += 1;
            // The lanes alternate, as in the recipe's own rounds.
            let mut ordered = round.clone();
            if runs.is_multiple_of(2) {
                ordered.reverse();
            }
            for (lane, endpoint) in ordered {
                rounds.cell(lanes, lane, endpoint, *runs)?;
            }
        }
        Ok(None)
    }
}

/// Whether every figure of `claim` reads a cell `ours` accepts.
fn reads_only(
    judgement: &reprise_verdict::Judgement,
    claim: &str,
    ours: &dyn Fn(&CellKey) -> bool,
) -> bool {
    judgement.verdict(claim).is_some_and(|v| {
        v.figures.iter().all(|id| {
            judgement
                .figure(id)
                .and_then(|f| f.cell.as_ref())
                .is_some_and(ours)
        })
    })
}

/// Each claim's standing at a look, in the step's log.
fn say_look(s: &StepInput, runs: u32, at_look: &[ClaimAtLook]) {
    for c in at_look {
        let said = match &c.standing {
            Standing::Decided { outcome, .. } => format!("decided: {outcome}"),
            Standing::Open { why, .. } => format!("open: {why}"),
            Standing::Beyond { why } => format!("beyond this machine: {why}"),
            Standing::NotJudged { outcome } => format!("not judged by runs: {outcome}"),
        };
        s.note(format!(
            "after {} per cell, claim {}: {said}",
            count(runs, "run"),
            c.claim
        ));
    }
}
