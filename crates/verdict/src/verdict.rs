//! A verdict and what it rests on: what a claim came to (its outcome, its
//! why, its numbers), the figures read from the cells, and the judgement of
//! a whole run. How each kind of claim is judged is in judge.rs (the
//! dispatch, absolute, ratio and spread claims), band.rs (an interval
//! against a band) and ordering.rs; how a verdict is worded, in why.rs.

use std::fmt;

use reprise_recipe::reading::{interval as interval_text, range, value};
use reprise_recipe::{ClaimKind, Metric};
use serde::{Deserialize, Serialize};

use crate::cpu_share::CpuReading;
use crate::deviation::Deviation;
use crate::gates::{CellReading, CellStatus, Thresholds};
use crate::measurements::CellKey;
use crate::statistics::{Bootstrap, CellStats, Interval};
use crate::why::{MachineDifference, Note, Why};

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
    /// The cell was measured at another N than the post's figure: the
    /// numbers are not the same quantity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_size: Option<OtherSize>,
}

/// A figure's N (what the program was asked for) against the run's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct OtherSize {
    /// The post's (the figure's `requested`).
    pub post: f64,
    /// This run's (the lane's printed `requested`).
    pub here: f64,
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

/// The runs' values of the cell a figure reads (none where it reads none).
pub(crate) fn values_of(r: &FigureReading, cells: &[CellReading]) -> Vec<f64> {
    r.cell
        .as_ref()
        .and_then(|k| cells.iter().find(|c| &c.cell.key == k))
        .map(CellReading::values)
        .unwrap_or_default()
}
