//! Verdicts of a recipe's claims: reproduced, not reproduced, inconclusive,
//! no data, not measured or not comparable, with the reason and the numbers.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use reprise_recipe::reading::{interval as interval_text, range, value};
use reprise_recipe::{Claim, ClaimKind, ClaimShape, Figure, Metric, Published, Recipe};
use serde::{Deserialize, Serialize};

use crate::cpu_share::{CpuBasis, CpuReading, LaneCpu, per_cpu_second};
use crate::deviation::Deviation;
use crate::gates::{CellReading, CellStatus, Thresholds, read_cells};
use crate::measurements::{CellKey, Measurements, Repetition};
use crate::statistics::median;
use crate::statistics::{Bootstrap, CellStats, Interval, narrowed};
use crate::why::{
    MachineDifference, Measure, Note, OrderFinding, OrderPair, PairFigure, Place, Settle, Why,
};

/// Whether this machine matches the post's, as preflight found; absolute
/// figures are judged only when it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "machine", content = "reasons", rename_all = "snake_case")]
pub enum MachineMatch {
    Matches,
    Differs(Vec<MachineDifference>),
}

/// What a claim came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Reproduced,
    NotReproduced,
    /// Measured, but undecided: the interval straddles the band's edge (see
    /// the verdict's `more_runs`), or an ordering's ratio interval reaches one.
    Inconclusive,
    /// A cell measured the figure but a gate refused its numbers: errors, a
    /// run without a number, or a saturated load generator.
    NoData,
    /// No cell measured the figure: the lane cannot be run, was skipped in
    /// this run, or did not measure this endpoint or metric.
    NotMeasured,
    /// Absolute figures on a machine unlike the post's or without a
    /// published number, or lanes whose responses differ: shown for
    /// information, not judged.
    NotComparable,
}

impl Outcome {
    /// Whether the claim was judged on its numbers (reproduced, not
    /// reproduced or inconclusive), not set aside before that.
    pub fn is_judged(self) -> bool {
        matches!(
            self,
            Outcome::Reproduced | Outcome::NotReproduced | Outcome::Inconclusive
        )
    }

    pub fn label(self) -> &'static str {
        match self {
            Outcome::Reproduced => "reproduced",
            Outcome::NotReproduced => "not reproduced",
            Outcome::Inconclusive => "inconclusive",
            Outcome::NoData => "no data",
            Outcome::NotMeasured => "not measured",
            Outcome::NotComparable => "not comparable",
        }
    }

    /// Every outcome, in the order tallies list them.
    pub const ALL: [Outcome; 6] = [
        Outcome::Reproduced,
        Outcome::NotReproduced,
        Outcome::Inconclusive,
        Outcome::NoData,
        Outcome::NotMeasured,
        Outcome::NotComparable,
    ];

    /// A one-line tally of the outcomes that occur, in [`Outcome::ALL`]'s
    /// order: `2 reproduced · 1 inconclusive · 1 not measured`; `no claims`
    /// where there are none. Reports' headlines and the history's list of
    /// runs both say it so.
    pub fn tally(count: impl Fn(Outcome) -> usize) -> String {
        let counted: Vec<String> = Outcome::ALL
            .iter()
            .filter(|o| count(**o) > 0)
            .map(|o| format!("{} {}", count(*o), o.label()))
            .collect();
        match counted.is_empty() {
            true => "no claims".into(),
            false => counted.join(" · "),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How verdicts are reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Settings {
    pub thresholds: Thresholds,
    pub bootstrap: Bootstrap,
    /// Whether the lanes ran alternating in rounds (run n of every lane,
    /// then run n + 1): ratios then resample rounds, not runs.
    #[serde(default)]
    pub rounds_alternate: bool,
}

/// A published figure and the cell that measured it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct FigureReading {
    pub figure: String,
    pub lane: String,
    pub endpoint: Option<String>,
    pub metric: Metric,
    /// The published value, or a range's midpoint.
    pub published: Option<f64>,
    pub published_range: Option<[f64; 2]>,
    pub cell: Option<CellKey>,
    pub status: Option<CellStatus>,
    pub stats: Option<CellStats>,
    /// A bootstrap interval for the cell's median.
    pub interval: Option<Interval>,
}

/// The verdict on one claim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Verdict {
    pub claim: String,
    pub kind: ClaimKind,
    pub quote: String,
    pub outcome: Outcome,
    /// Why it came to its outcome ([`Verdict::reasoning`] words it); read
    /// from `reason`, a sentence, where an earlier Reprise recorded one.
    #[serde(alias = "reason", deserialize_with = "crate::why::why_or_text")]
    pub why: Why,
    /// What it adds after its why: an unstable figure, one run.
    #[serde(default)]
    pub notes: Vec<Note>,
    /// The published number the claim asserts (value, ratio or spread).
    pub published: Option<f64>,
    /// The unit of `published`, `band` and `measured`: the metric's for an
    /// absolute claim, `×` for a ratio, a fraction shown as % for a spread.
    pub unit: String,
    pub tolerance: Option<f64>,
    /// The published number widened by the tolerance.
    pub band: Option<[f64; 2]>,
    /// The measured number with its interval.
    pub measured: Option<Interval>,
    /// For an inconclusive verdict, how many more runs per cell would
    /// likely settle it.
    pub more_runs: Option<u32>,
    pub figures: Vec<String>,
    /// How the run differs from the post where it bears on this claim's
    /// lanes, as a person reads each (`ruby 3.1.2 instead of 4.0.5`).
    #[serde(default)]
    pub deviations: Vec<String>,
    /// In a run that went on until its claims were decided
    /// (`--until-conclusive`): the runs per cell at the look that decided
    /// this claim.
    #[serde(default)]
    pub decided_after: Option<u32>,
    /// For a throughput claim whose lanes' CPU was measured: what each lane
    /// got from the machine and the basis the claim was judged on.
    #[serde(default)]
    pub cpu: Option<CpuReading>,
}

impl Verdict {
    /// The outcome with when it was decided and what the run did
    /// differently where it bears on this claim: `reproduced (decided after
    /// 5 runs), on ruby 3.1.2 instead of 4.0.5`.
    pub fn outcome_text(&self) -> String {
        let mut text = self.outcome.label().to_string();
        if let Some(runs) = self.decided_after {
            text.push_str(&format!(" (decided after {runs} runs)"));
        }
        if !self.deviations.is_empty() {
            text.push_str(&format!(", on {}", self.deviations.join("; ")));
        }
        text
    }

    /// The measured number with its interval, as both front ends and the
    /// reports read it: `1.99× (1.98–2)`, `11.7% (11.7–11.7)` for a spread.
    pub fn show_measured(&self) -> String {
        self.measured.map_or("—".into(), |i| self.show_interval(&i))
    }

    /// An interval of this verdict's numbers, with its unit.
    pub fn show_interval(&self, i: &Interval) -> String {
        let scale = self.scale();
        interval_text(
            i.estimate * scale,
            i.low * scale,
            i.high * scale,
            &self.unit,
        )
    }

    /// The published number with its unit: `54,000 req/s`, `1.96×`, `11.7%`.
    pub fn show_published(&self) -> String {
        self.published.map_or("—".into(), |p| self.show(p))
    }

    /// The range the claim accepts: `45,900–62,100 req/s`.
    pub fn show_band(&self) -> Option<String> {
        let scale = self.scale();
        self.band
            .map(|[low, high]| range(low * scale, high * scale, &self.unit))
    }

    /// One of this verdict's numbers, with its unit, for reading.
    pub fn show(&self, v: f64) -> String {
        value(v * self.scale(), &self.unit)
    }

    /// A spread's numbers are fractions, read as percentages.
    fn scale(&self) -> f64 {
        match self.kind {
            ClaimKind::Spread => 100.0,
            _ => 1.0,
        }
    }
}

/// Every cell read, every figure matched and every claim judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Judgement {
    pub recipe: String,
    pub machine: MachineMatch,
    pub settings: Settings,
    pub cells: Vec<CellReading>,
    pub figures: Vec<FigureReading>,
    pub verdicts: Vec<Verdict>,
    /// Every way the run differs from the post.
    #[serde(default)]
    pub deviations: Vec<Deviation>,
    /// For a run that went on until its claims were decided: its rule (the
    /// looks and their confidence, [`crate::sequential::Looks::rule`]).
    #[serde(default)]
    pub sequential: Option<String>,
}

impl Judgement {
    /// For a run that went on until its claims were decided: how far it
    /// got, in a sentence, never claiming more were decided than were.
    pub fn sequential_sentence(&self) -> Option<String> {
        let rule = self.sequential.as_ref()?;
        let undecided = self.count(Outcome::Inconclusive);
        Some(match undecided {
            0 => format!(
                "The runs went on until each claim measured here was decided (--until-conclusive): {rule}."
            ),
            1 => format!(
                "The runs went on while claims were open (--until-conclusive) and stopped with one undecided: {rule}."
            ),
            n => format!(
                "The runs went on while claims were open (--until-conclusive) and stopped with {n} undecided: {rule}."
            ),
        })
    }

    /// Records how the run differs from the post, and hands each verdict the
    /// deviations that bear on its figures' lanes.
    pub fn with_deviations(mut self, deviations: Vec<Deviation>) -> Judgement {
        for v in &mut self.verdicts {
            let lanes: Vec<&str> = v
                .figures
                .iter()
                .filter_map(|id| self.figures.iter().find(|f| &f.figure == id))
                .map(|f| f.lane.as_str())
                .collect();
            v.deviations = deviations
                .iter()
                .filter(|d| d.bears_on(&lanes))
                .map(|d| d.what.clone())
                .collect();
        }
        self.deviations = deviations;
        self
    }

    pub fn verdict(&self, claim: &str) -> Option<&Verdict> {
        self.verdicts.iter().find(|v| v.claim == claim)
    }

    pub fn figure(&self, id: &str) -> Option<&FigureReading> {
        self.figures.iter().find(|f| f.figure == id)
    }

    pub fn count(&self, outcome: Outcome) -> usize {
        self.verdicts
            .iter()
            .filter(|v| v.outcome == outcome)
            .count()
    }
}

/// Judges every claim of the recipe against the measurements.
pub fn judge(
    recipe: &Recipe,
    measurements: &Measurements,
    machine: &MachineMatch,
    settings: &Settings,
) -> Judgement {
    let cells = read_cells(
        &whole_lane_memory(recipe, measurements),
        &settings.thresholds,
    );
    let figures: Vec<FigureReading> = recipe
        .figures
        .iter()
        .map(|f| read_figure(f, &cells, &settings.bootstrap))
        .collect();
    let unmeasured: BTreeMap<String, Why> = figures
        .iter()
        .filter(|f| f.status.is_none())
        .map(|f| (f.figure.clone(), not_measured(recipe, measurements, f)))
        .collect();
    let verdicts = recipe
        .claims
        .iter()
        .map(|claim| {
            let find = |id: &str| figures.iter().find(|f| f.figure == id);
            let mut verdict = judge_claim(claim, &figures, &cells, &unmeasured, machine, settings);
            let readings: Vec<&FigureReading> = claim
                .shape
                .figures()
                .iter()
                .filter_map(|id| find(id))
                .collect();
            crate::single_run::no_spread(&mut verdict, &readings, &cells);
            crate::cap::both_at_cap(&mut verdict, &readings, &cells, &measurements.caps);
            crate::shape::unmatched(&mut verdict, &readings, recipe, &measurements.workers_seen);
            verdict
        })
        .collect();
    Judgement {
        recipe: recipe.id().to_string(),
        machine: machine.clone(),
        settings: *settings,
        cells,
        figures,
        verdicts,
        deviations: Vec::new(),
        sequential: None,
    }
}

/// The metrics whose cells can measure a figure of `metric`: its own, and
/// for `memory_mb` (a post that does not say RSS or PSS) the harness's RSS.
fn measured_as(metric: Metric) -> Vec<Metric> {
    match metric {
        Metric::MemoryMb => vec![Metric::MemoryMb, Metric::RssMb],
        other => vec![other],
    }
}

/// The cell a figure names: same lane, a metric that measures it, and the
/// same endpoint; for a figure without one, the lane's cell without an
/// endpoint (see [`whole_lane_memory`]), else its only cell of that metric.
fn find_cell<'a>(figure: &Figure, cells: &'a [CellReading]) -> Option<&'a CellReading> {
    measured_as(figure.metric).into_iter().find_map(|metric| {
        let mut candidates = cells
            .iter()
            .filter(|c| c.cell.key.lane == *figure.lane && c.cell.key.metric() == metric);
        match &figure.endpoint {
            Some(e) => candidates.find(|c| c.cell.key.endpoint.as_deref() == Some(e.as_str())),
            None => {
                let all: Vec<&CellReading> = candidates.collect();
                match all.as_slice() {
                    [one] => Some(*one),
                    many => many.iter().copied().find(|c| c.cell.key.endpoint.is_none()),
                }
            }
        }
    })
}

/// A lane's memory without an endpoint, for the figures that give one
/// number per lane ("1.6 GB against ~1 GB"): the harness samples the whole
/// server's memory during every timed run of every endpoint, so run N of
/// the lane is the median of its run-N samples over the endpoints. Added
/// where a figure without an endpoint asks for the lane's memory and the
/// lane measured it per endpoint only.
fn whole_lane_memory(recipe: &Recipe, measurements: &Measurements) -> Measurements {
    let mut m = measurements.clone();
    // Only where a figure asks for it: a lane's memory without an endpoint.
    let wanted = |lane: &str, metric: Metric| {
        recipe.figures.iter().any(|f| {
            f.endpoint.is_none() && *f.lane == *lane && measured_as(f.metric).contains(&metric)
        })
    };
    for metric in [Metric::RssMb, Metric::PssMb] {
        let mut by_lane: BTreeMap<&str, BTreeMap<u32, Vec<f64>>> = BTreeMap::new();
        let mut has_whole = BTreeSet::new();
        for cell in measurements
            .cells
            .iter()
            .filter(|c| c.key.metric() == metric)
        {
            if cell.key.endpoint.is_none() {
                has_whole.insert(cell.key.lane.as_str());
                continue;
            }
            let runs = by_lane.entry(&cell.key.lane).or_default();
            for run in &cell.runs {
                let samples = runs.entry(run.run).or_default();
                samples.extend(run.value);
            }
        }
        for (lane, runs) in by_lane {
            if has_whole.contains(lane) || !wanted(lane, metric) {
                continue;
            }
            for (run, samples) in runs {
                m.push_run(
                    CellKey::new(lane, None, metric),
                    Repetition {
                        run,
                        value: (!samples.is_empty()).then(|| median(&samples)),
                        errors: 0,
                        client_cpu: None,
                        server_cpu: None,
                    },
                );
            }
        }
    }
    m
}

fn read_figure(figure: &Figure, cells: &[CellReading], bootstrap: &Bootstrap) -> FigureReading {
    let cell = find_cell(figure, cells);
    let values = cell.map(CellReading::values).unwrap_or_default();
    FigureReading {
        figure: figure.id.to_string(),
        lane: figure.lane.to_string(),
        endpoint: figure.endpoint.as_ref().map(|e| e.to_string()),
        metric: figure.metric,
        published: figure.point(),
        published_range: match figure.published() {
            Published::Range(lo, hi) => Some([lo, hi]),
            _ => None,
        },
        cell: cell.map(|c| c.cell.key.clone()),
        status: cell.map(|c| c.status.clone()),
        stats: cell.and_then(|c| c.stats.clone()),
        // One value is no spread: no interval around it (`0.092 (0.092–0.092)`).
        interval: (values.len() >= 2).then(|| bootstrap.median(&values)),
    }
}

/// Why no cell measured a figure, for a person, in this order: the
/// recipe's own reason where it cannot run the lane; why this run skipped
/// the lane (`Measurements::not_measured`); that the lane measured nothing
/// at all; else that it ran but not this endpoint or metric.
fn not_measured(recipe: &Recipe, measurements: &Measurements, figure: &FigureReading) -> Why {
    let lane = figure.lane.clone();
    if let Some(why) = recipe.lane(&lane).and_then(|l| l.not_runnable.as_deref()) {
        return Why::LaneNotRunnable {
            lane,
            because: why.trim().to_string(),
        };
    }
    if let Some(why) = measurements.not_measured.get(&lane) {
        // Recorded as `STAGE: why` (skipped.json's stage and reason).
        let (stage, because) = match why.split_once(": ") {
            Some((stage, because)) if !stage.is_empty() && !stage.contains(char::is_whitespace) => {
                (Some(stage.to_string()), because.to_string())
            }
            _ => (None, why.clone()),
        };
        return Why::LaneNotMeasured {
            lane,
            stage,
            because,
        };
    }
    if !measurements.cells.iter().any(|c| c.key.lane == lane) {
        return Why::LaneMeasuredNothing { lane };
    }
    no_cell(figure)
}

fn no_cell(figure: &FigureReading) -> Why {
    Why::NoCell {
        figure: figure.figure.clone(),
        lane: figure.lane.clone(),
        metric: figure.metric,
    }
}

/// Why a figure cannot be used, as an outcome and a reason: not measured
/// (no cell; `unmeasured` says why), no data (a gate refused the cell) or
/// not comparable (its responses differ from the reference lane's).
fn unusable(figure: &FigureReading, unmeasured: &BTreeMap<String, Why>) -> Option<(Outcome, Why)> {
    let refused = |status: &CellStatus| Why::CellUnusable {
        figure: figure.figure.clone(),
        status: status.clone(),
    };
    match &figure.status {
        None => Some((
            Outcome::NotMeasured,
            unmeasured
                .get(&figure.figure)
                .cloned()
                .unwrap_or_else(|| no_cell(figure)),
        )),
        Some(CellStatus::Valid) => None,
        Some(status @ CellStatus::NotComparable { .. }) => {
            Some((Outcome::NotComparable, refused(status)))
        }
        Some(
            status @ (CellStatus::NoData { .. }
            | CellStatus::ClientBound { .. }
            | CellStatus::NetworkBound { .. }),
        ) => Some((Outcome::NoData, refused(status))),
    }
}

/// Where an interval lies against a band.
#[derive(Debug, PartialEq)]
enum Lies {
    Inside,
    Outside,
    Straddling,
}

/// What an interval comes to against a band: wholly inside it reproduced,
/// wholly outside it not reproduced, across an edge inconclusive. The rule
/// every verdict on a band is reached by, and by which a stranger's post is
/// checked (its stated outcome against its own interval and this recipe's
/// band).
pub fn placed(interval: &Interval, band: [f64; 2]) -> Outcome {
    match lies(interval, band) {
        Lies::Inside => Outcome::Reproduced,
        Lies::Outside => Outcome::NotReproduced,
        Lies::Straddling => Outcome::Inconclusive,
    }
}

fn lies(interval: &Interval, band: [f64; 2]) -> Lies {
    if interval.low >= band[0] && interval.high <= band[1] {
        Lies::Inside
    } else if interval.high < band[0] || interval.low > band[1] {
        Lies::Outside
    } else {
        Lies::Straddling
    }
}

/// How many more runs per cell would likely put the whole interval on one
/// side of the band's nearest edge, its width narrowing as
/// [`crate::statistics::narrowed`] says for an interval at `confidence`.
/// `None` when the estimate sits on the edge itself, or more than 10,000
/// runs would be needed.
pub fn more_runs_to_settle(
    interval: &Interval,
    band: [f64; 2],
    runs: usize,
    confidence: f64,
) -> Option<u32> {
    const MOST: usize = 10_000;
    let est = interval.estimate;
    let distance = (est - band[0]).abs().min((est - band[1]).abs());
    let half = (est - interval.low).max(interval.high - est);
    if distance <= f64::EPSILON * est.abs().max(1.0) || runs == 0 || !half.is_finite() {
        return None;
    }
    let settles = |n: usize| narrowed(half, runs, n, confidence) < distance;
    // The half-width only narrows with more runs: double, then bisect.
    let (mut short, mut enough) = (runs, runs + 1);
    while !settles(enough) {
        if enough >= MOST {
            return None;
        }
        short = enough;
        enough = (enough * 2).min(MOST);
    }
    while enough - short > 1 {
        let mid = (short + enough) / 2;
        if settles(mid) {
            enough = mid;
        } else {
            short = mid;
        }
    }
    Some((enough - runs) as u32)
}

/// Places `measured`, widened by `widening`, against `band`.
fn banded(
    verdict: &mut Verdict,
    measured: Interval,
    widening: Widening,
    band: [f64; 2],
    runs: usize,
    what: Measure,
    confidence: f64,
) {
    let interval = widening.apply(measured);
    verdict.band = Some(band);
    verdict.measured = Some(interval);
    let place = match lies(&interval, band) {
        Lies::Inside => {
            verdict.outcome = Outcome::Reproduced;
            Place::Inside
        }
        Lies::Outside => {
            verdict.outcome = Outcome::NotReproduced;
            Place::Outside
        }
        Lies::Straddling => {
            verdict.outcome = Outcome::Inconclusive;
            let settling = widening.settling_band(measured.estimate, band);
            verdict.more_runs =
                settling.and_then(|band| more_runs_to_settle(&measured, band, runs, confidence));
            let settle = match verdict.more_runs {
                Some(runs) => Settle::MoreRuns { runs },
                None if widening.is_some() && settling.is_none() => Settle::QuieterMachine,
                None => Settle::OnTheEdge,
            };
            Place::Straddles { settle }
        }
    };
    verdict.why = Why::Banded {
        what,
        measured: interval,
        band,
        confidence,
        place,
    };
}

/// Judges a claim; a throughput claim whose lanes' CPU was measured is
/// judged on the basis what they got from the machine calls for (see
/// [`crate::cpu_share`]): as measured, per CPU-second, or not as a ceiling.
fn judge_claim(
    claim: &Claim,
    figures: &[FigureReading],
    cells: &[CellReading],
    unmeasured: &BTreeMap<String, Why>,
    machine: &MachineMatch,
    settings: &Settings,
) -> Verdict {
    let find = |id: &str| figures.iter().find(|f| f.figure == id);
    let mut verdict = judge_figures(
        claim,
        &find,
        cells,
        unmeasured,
        machine,
        settings,
        &ReadsLow::default(),
    );
    let Some(mut cpu) = cpu_reading(claim, &find, cells).filter(|_| verdict.outcome.is_judged())
    else {
        return verdict;
    };
    match cpu.basis {
        CpuBasis::AsMeasured => {}
        CpuBasis::Unknown => {
            verdict.notes.push(Note::CpuUnread);
        }
        CpuBasis::BelowCeiling => {
            verdict.outcome = Outcome::Inconclusive;
            verdict.more_runs = None;
            verdict.why = Why::BelowCeiling {
                as_measured: Box::new(verdict.why),
            };
        }
        CpuBasis::PerCpuSecond { .. } => {
            let keys: BTreeSet<&CellKey> = cpu
                .lanes
                .iter()
                .filter_map(|l| find(&l.figure)?.cell.as_ref())
                .collect();
            let adjusted: Vec<CellReading> = cells
                .iter()
                .map(|c| {
                    if keys.contains(&c.cell.key) {
                        per_cpu_second_cell(c, &settings.thresholds)
                    } else {
                        c.clone()
                    }
                })
                .collect();
            let refigured: Vec<FigureReading> = figures
                .iter()
                .map(|f| {
                    let Some(cell) = f
                        .cell
                        .as_ref()
                        .filter(|key| keys.contains(key))
                        .and_then(|key| adjusted.iter().find(|c| &c.cell.key == key))
                    else {
                        return f.clone();
                    };
                    let values = cell.values();
                    FigureReading {
                        stats: cell.stats.clone(),
                        interval: (values.len() >= 2).then(|| settings.bootstrap.median(&values)),
                        ..f.clone()
                    }
                })
                .collect();
            let find_adjusted = |id: &str| refigured.iter().find(|f| f.figure == id);
            let as_measured = verdict.measured;
            let reads_low = ReadsLow::of(&cpu.lanes);
            let mut adjusted_verdict = judge_figures(
                claim,
                &find_adjusted,
                &adjusted,
                unmeasured,
                machine,
                settings,
                &reads_low,
            );
            cpu.basis = CpuBasis::PerCpuSecond { as_measured };
            adjusted_verdict.why = Why::PerCpuSecond {
                as_measured: Box::new(verdict.why),
                judged: Box::new(adjusted_verdict.why),
            };
            verdict = adjusted_verdict;
        }
    }
    verdict.cpu = Some(cpu);
    verdict
}

/// What the lanes of a throughput claim got from the machine, where every
/// one of its cells says so.
fn cpu_reading<'a>(
    claim: &Claim,
    find: &dyn Fn(&str) -> Option<&'a FigureReading>,
    cells: &[CellReading],
) -> Option<CpuReading> {
    let mut lanes = Vec::new();
    for id in claim.shape.figures() {
        let reading = find(id)?;
        if reading.metric != Metric::ReqPerS {
            return None;
        }
        let key = reading.cell.as_ref()?;
        let cell = cells.iter().find(|c| &c.cell.key == key)?;
        lanes.push(LaneCpu::of(id, &cell.cell)?);
    }
    (!lanes.is_empty()).then(|| CpuReading::of(lanes, claim.ceiling))
}

/// How far below a quiet run's rate each figure's rates per CPU-second may
/// read: the share of its CPUs other work took. The estimate puts back the
/// time taken from a lane, not the caches and memory bandwidth the other
/// work spoiled (bench/contention: a hog taking ~10% of a Puma's CPU left
/// its rate per CPU-second 4.5% low), so an interval judged per CPU-second
/// reaches as far as if every taken CPU-second had been spoiled as well.
#[derive(Debug, Default)]
struct ReadsLow(Vec<(String, f64)>);

impl ReadsLow {
    fn of(lanes: &[LaneCpu]) -> ReadsLow {
        ReadsLow(
            lanes
                .iter()
                .filter_map(|l| Some((l.figure.clone(), l.taken()?)))
                .filter(|(_, taken)| *taken > 0.0)
                .collect(),
        )
    }

    fn taken(&self, figure: &str) -> f64 {
        self.0
            .iter()
            .find(|(f, _)| f == figure)
            .map_or(0.0, |(_, t)| t.min(0.9))
    }

    /// How far the interval of `figure`, or of `figure` over `over`,
    /// reaches: a figure that may read low raises the high end, a divisor
    /// that may read low lowers the low end.
    fn widening(&self, figure: &str, over: Option<&str>) -> Widening {
        Widening {
            down: over.map_or(1.0, |d| 1.0 - self.taken(d)),
            up: 1.0 / (1.0 - self.taken(figure)),
        }
    }
}

/// An interval's ends moved out by factors that more runs do not shrink.
#[derive(Clone, Copy, Debug)]
struct Widening {
    down: f64,
    up: f64,
}

impl Widening {
    fn apply(self, interval: Interval) -> Interval {
        Interval {
            estimate: interval.estimate,
            low: interval.low * self.down,
            high: interval.high * self.up,
        }
    }

    fn is_some(self) -> bool {
        self.down < 1.0 || self.up > 1.0
    }

    /// The band the unwidened interval must settle against so that the
    /// widened one settles against `band`; `None` where the widening alone,
    /// at the estimate, already reaches across the band's nearest edge.
    fn settling_band(self, estimate: f64, band: [f64; 2]) -> Option<[f64; 2]> {
        let (inner, outer) = (
            [band[0] / self.down, band[1] / self.up],
            [band[0] / self.up, band[1] / self.down],
        );
        let settles = if estimate < band[0] {
            estimate < outer[0]
        } else if estimate > band[1] {
            estimate > outer[1]
        } else {
            inner[0] < estimate && estimate < inner[1]
        };
        settles.then_some(if (band[0]..=band[1]).contains(&estimate) {
            inner
        } else {
            outer
        })
    }
}

/// A cell with each run's rate per CPU-second.
fn per_cpu_second_cell(reading: &CellReading, thresholds: &Thresholds) -> CellReading {
    let mut cell = reading.cell.clone();
    for run in &mut cell.runs {
        run.value = per_cpu_second(run);
    }
    let values: Vec<f64> = cell.runs.iter().filter_map(|r| r.value).collect();
    CellReading {
        stats: crate::statistics::CellStats::of(&values, thresholds.unstable_cv),
        cell,
        status: reading.status.clone(),
    }
}

/// Judges a claim on its figures' readings as they are.
fn judge_figures<'a>(
    claim: &Claim,
    find: &dyn Fn(&str) -> Option<&'a FigureReading>,
    cells: &[CellReading],
    unmeasured: &BTreeMap<String, Why>,
    machine: &MachineMatch,
    settings: &Settings,
    reads_low: &ReadsLow,
) -> Verdict {
    let tolerance = claim.tolerance.unwrap_or(0.0);
    let mut verdict = Verdict {
        claim: claim.id.to_string(),
        kind: claim.shape.kind(),
        quote: claim.quote.clone(),
        outcome: Outcome::Inconclusive,
        why: Why::default(),
        notes: Vec::new(),
        published: None,
        unit: String::new(),
        tolerance: claim.tolerance,
        band: None,
        measured: None,
        more_runs: None,
        decided_after: None,
        figures: claim
            .shape
            .figures()
            .iter()
            .map(|f| f.to_string())
            .collect(),
        deviations: Vec::new(),
        cpu: None,
    };
    let mut readings = Vec::new();
    for id in claim.shape.figures() {
        match find(id) {
            Some(r) => readings.push(r),
            None => {
                verdict.why = Why::NoSuchFigure {
                    figure: id.to_string(),
                };
                return verdict;
            }
        }
    }
    // Every claim needs usable cells; the first that is not decides.
    let blocked = readings.iter().find_map(|r| unusable(r, unmeasured));
    let values = |r: &FigureReading| values_of(r, cells);
    match &claim.shape {
        ClaimShape::Absolute { .. } => {
            let r = readings[0];
            verdict.published = r.published;
            let unit = r.metric.unit();
            verdict.unit = unit.to_string();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            // Nothing to judge against: shown for information, as a preflight
            // said it would be.
            let Some(published) = r.published else {
                verdict.outcome = Outcome::NotComparable;
                verdict.why = Why::NoPublishedNumber {
                    figure: r.figure.clone(),
                };
                return verdict;
            };
            let (lo, hi) = match r.published_range {
                Some([lo, hi]) => (lo, hi),
                None => (published, published),
            };
            let band = [lo * (1.0 - tolerance), hi * (1.0 + tolerance)];
            let interval = settings.bootstrap.median(&values(r));
            let widening = reads_low.widening(&r.figure, None);
            // A page's shape is the app's, whatever the machine.
            if let MachineMatch::Differs(differences) = machine
                && !r.metric.is_shape()
            {
                verdict.outcome = Outcome::NotComparable;
                verdict.band = Some(band);
                let interval = widening.apply(interval);
                verdict.measured = Some(interval);
                verdict.why = Why::MachineDiffers {
                    differences: differences.clone(),
                    measured: interval.estimate,
                    published,
                };
                return verdict;
            }
            let runs = values(r).len();
            banded(
                &mut verdict,
                interval,
                widening,
                band,
                runs,
                Measure::Median,
                settings.bootstrap.confidence,
            );
        }
        ClaimShape::Ratio { value, .. } => {
            verdict.published = Some(*value);
            verdict.unit = "×".into();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            let (num, den) = (values(readings[0]), values(readings[1]));
            let interval = match rounds(readings[0], readings[1], cells) {
                Some(pairs) if settings.rounds_alternate => settings.bootstrap.paired_ratio(&pairs),
                _ => settings.bootstrap.ratio(&num, &den),
            };
            let widening = reads_low.widening(&readings[0].figure, Some(&readings[1].figure));
            let band = [value * (1.0 - tolerance), value * (1.0 + tolerance)];
            let runs = num.len().min(den.len());
            banded(
                &mut verdict,
                interval,
                widening,
                band,
                runs,
                Measure::Ratio,
                settings.bootstrap.confidence,
            );
        }
        ClaimShape::Ordering { .. } => {
            verdict.unit = readings[0].metric.unit().to_string();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            let level = claim.tolerance.unwrap_or(LEVEL_BAND);
            verdict.tolerance = Some(level);
            judge_ordering(&mut verdict, &readings, cells, settings, level, reads_low);
        }
        ClaimShape::Spread { value, .. } => {
            let r = readings[0];
            verdict.published = Some(*value);
            verdict.unit = "%".into();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            let stats = r.stats.as_ref().filter(|s| s.runs >= 2);
            let Some(stats) = stats else {
                verdict.why = Why::TooFewRuns {
                    figure: r.figure.clone(),
                };
                return verdict;
            };
            let band = [value * (1.0 - tolerance), value * (1.0 + tolerance)];
            let measured = Interval {
                estimate: stats.cv,
                low: stats.cv,
                high: stats.cv,
            };
            verdict.band = Some(band);
            verdict.measured = Some(measured);
            let inside = lies(&measured, band) == Lies::Inside;
            verdict.outcome = match inside {
                true => Outcome::Reproduced,
                false => Outcome::NotReproduced,
            };
            verdict.why = Why::Spread {
                cv: stats.cv,
                runs: stats.runs as u32,
                band,
                inside,
            };
        }
    }
    if verdict.kind != ClaimKind::Spread {
        for r in &readings {
            if let Some(stats) = r.stats.as_ref().filter(|s| s.unstable) {
                verdict.notes.push(Note::Unstable {
                    figure: r.figure.clone(),
                    cv: stats.cv,
                });
            }
        }
    }
    verdict
}

/// The runs' values of the cell a figure reads (none where it reads none).
pub(crate) fn values_of(r: &FigureReading, cells: &[CellReading]) -> Vec<f64> {
    r.cell
        .as_ref()
        .and_then(|k| cells.iter().find(|c| &c.cell.key == k))
        .map(CellReading::values)
        .unwrap_or_default()
}

/// The two cells' runs paired by run number, when both ran the same rounds.
fn rounds(a: &FigureReading, b: &FigureReading, cells: &[CellReading]) -> Option<Vec<(f64, f64)>> {
    let runs = |r: &FigureReading| {
        let key = r.cell.as_ref()?;
        let cell = cells.iter().find(|c| &c.cell.key == key)?;
        let mut runs: Vec<(u32, f64)> = cell
            .cell
            .runs
            .iter()
            .filter_map(|x| Some((x.run, x.value?)))
            .collect();
        runs.sort_by_key(|(n, _)| *n);
        Some(runs)
    };
    let (x, y) = (runs(a)?, runs(b)?);
    let same = x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| p.0 == q.0);
    same.then(|| x.iter().zip(&y).map(|(p, q)| (p.1, q.1)).collect())
}

/// The band around one inside which an ordering's figures are level, where
/// the claim gives no `tolerance`: ±5%.
pub const LEVEL_BAND: f64 = 0.05;

/// An ordering holds pair by pair: each pair's ratio interval (drawn as a
/// ratio claim's is, paired by rounds where the lanes alternated) wholly on
/// the published side of one. A ratio's interval, not whether the two
/// figures' own intervals overlap: two intervals can overlap while their
/// ratio's stays clear of one, so overlap would ask for more runs than the
/// question needs.
fn judge_ordering(
    verdict: &mut Verdict,
    readings: &[&FigureReading],
    cells: &[CellReading],
    settings: &Settings,
    level: f64,
    reads_low: &ReadsLow,
) {
    let higher_first = readings[0].metric.higher_is_better().unwrap_or(true);
    let values = |r: &FigureReading| values_of(r, cells);
    let mut reversed = Vec::new();
    let mut undecided = Vec::new();
    let mut level_pairs = Vec::new();
    let mut pairs = Vec::new();
    for pair in readings.windows(2) {
        if values(pair[0]).is_empty() || values(pair[1]).is_empty() {
            verdict.why = Why::OrderingCellEmpty;
            return;
        }
        let ratio = match rounds(pair[0], pair[1], cells) {
            Some(rounds) if settings.rounds_alternate => settings.bootstrap.paired_ratio(&rounds),
            _ => settings.bootstrap.ratio(&values(pair[0]), &values(pair[1])),
        };
        let ratio = reads_low
            .widening(&pair[0].figure, Some(&pair[1].figure))
            .apply(ratio);
        // A figure of one run has no interval: its value alone.
        let read = |r: &FigureReading| PairFigure {
            figure: r.figure.clone(),
            median: median(&values(r)),
            interval: r.interval,
        };
        let text = OrderPair {
            first: read(pair[0]),
            second: read(pair[1]),
            ratio,
            unit: pair[0].metric.unit().to_string(),
        };
        let (in_order, out_of_order) = if higher_first {
            (ratio.low > 1.0, ratio.high < 1.0)
        } else {
            (ratio.high < 1.0, ratio.low > 1.0)
        };
        let band = [1.0 / (1.0 + level), 1.0 + level];
        if ratio.low >= band[0] && ratio.high <= band[1] {
            level_pairs.push(text.clone());
        } else if out_of_order {
            reversed.push(text.clone());
        } else if !in_order {
            undecided.push(text.clone());
        }
        pairs.push(text);
    }
    let (outcome, finding, pairs) = if !reversed.is_empty() {
        (Outcome::NotReproduced, OrderFinding::Reversed, reversed)
    } else if !level_pairs.is_empty() {
        (
            Outcome::NotReproduced,
            OrderFinding::Level { level },
            level_pairs,
        )
    } else if !undecided.is_empty() {
        (Outcome::Inconclusive, OrderFinding::Undecided, undecided)
    } else {
        (Outcome::Reproduced, OrderFinding::InOrder, pairs)
    };
    verdict.outcome = outcome;
    verdict.why = Why::Ordering { finding, pairs };
}
