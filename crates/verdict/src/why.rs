//! Why a claim came to its verdict, as data, and the one place it is worded.
//!
//! The judge records a [`Why`] (and any [`Note`]s) on each verdict; every
//! front end that needs to know *what kind* of why it is (a machine unlike
//! the post's, a lane not measured, a band and where the interval lies)
//! matches on the variant, and every one that says it to a person calls
//! [`Verdict::reasoning`]. No code outside this module reads a verdict's
//! words back.

use reprise_recipe::Metric;
use reprise_recipe::reading::{confidence as confidence_text, interval as interval_text, number};
use reprise_recipe::reading::{percent, value};
use serde::{Deserialize, Deserializer, Serialize};

use crate::gates::CellStatus;
use crate::statistics::Interval;
use crate::verdict::{Outcome, Verdict};

/// One way the measuring machine differs from the post's, or why it was
/// not compared item by item.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "difference", rename_all = "snake_case")]
pub enum MachineDifference {
    /// An item of the fingerprint (`CPU`, `cores/threads`) that differs:
    /// this machine's value (`None` where it was not recorded) and the
    /// post's (`None` where the post does not say).
    Item {
        item: String,
        here: Option<String>,
        post: Option<String>,
    },
    /// Why the machine was not compared item by item: `the recipe names no
    /// reference machine`.
    NotCompared { why: String },
}

impl MachineDifference {
    pub fn not_compared(why: impl Into<String>) -> MachineDifference {
        MachineDifference::NotCompared { why: why.into() }
    }

    /// What differs, in a word or two (`CPU`), or the whole note.
    pub fn item(&self) -> &str {
        match self {
            MachineDifference::Item { item, .. } => item,
            MachineDifference::NotCompared { why } => why,
        }
    }
}

impl std::fmt::Display for MachineDifference {
    /// `CPU: Intel Xeon, the post's AMD Ryzen 5 3600`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MachineDifference::Item { item, here, post } => write!(
                f,
                "{item}: {}, the post's {}",
                here.as_deref().unwrap_or("not recorded"),
                post.as_deref().unwrap_or("unknown")
            ),
            MachineDifference::NotCompared { why } => f.write_str(why),
        }
    }
}

impl<'de> Deserialize<'de> for MachineDifference {
    /// Also a plain sentence, as a Reprise before these rows recorded each
    /// difference: read as a note.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(tag = "difference", rename_all = "snake_case")]
        enum Typed {
            Item {
                item: String,
                here: Option<String>,
                post: Option<String>,
            },
            NotCompared {
                why: String,
            },
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Sentence(String),
            Typed(Typed),
        }
        Ok(match Either::deserialize(d)? {
            Either::Sentence(why) => MachineDifference::NotCompared { why },
            Either::Typed(Typed::Item { item, here, post }) => {
                MachineDifference::Item { item, here, post }
            }
            Either::Typed(Typed::NotCompared { why }) => MachineDifference::NotCompared { why },
        })
    }
}

/// Why a claim came to its verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Why {
    /// A claim names a figure the recipe does not have.
    NoSuchFigure { figure: String },
    /// The recipe itself cannot run the lane (`not_runnable`).
    LaneNotRunnable { lane: String, because: String },
    /// This run skipped the lane, at `stage` where it says.
    LaneNotMeasured {
        lane: String,
        stage: Option<String>,
        because: String,
    },
    /// The lane measured nothing at all in this run.
    LaneMeasuredNothing { lane: String },
    /// The lane ran, but no cell measured this endpoint or metric.
    NoCell {
        figure: String,
        lane: String,
        metric: Metric,
    },
    /// A gate refused the figure's cell (no data), or its responses differ
    /// from the reference lane's (not comparable).
    CellUnusable { figure: String, status: CellStatus },
    /// An absolute figure the post gives no number for: shown, not judged.
    NoPublishedNumber { figure: String },
    /// An absolute figure measured on a machine unlike the post's: shown
    /// for information.
    MachineDiffers {
        differences: Vec<MachineDifference>,
        measured: f64,
        published: f64,
    },
    /// A median or a ratio placed against the band the claim accepts.
    Banded {
        what: Measure,
        measured: Interval,
        band: [f64; 2],
        confidence: f64,
        place: Place,
    },
    /// A spread placed against its band.
    Spread {
        cv: f64,
        runs: u32,
        band: [f64; 2],
        inside: bool,
    },
    /// A spread claim whose cell has fewer than two runs.
    TooFewRuns { figure: String },
    /// An ordering with a cell that has no runs.
    OrderingCellEmpty,
    /// An ordering read pair by pair; `pairs` are the ones that decided it
    /// (every pair where it holds).
    Ordering {
        finding: OrderFinding,
        pairs: Vec<OrderPair>,
    },
    /// An ordering of counts where every lane made exactly the recipe's cap.
    AtCap { cap: f64, lanes: u32 },
    /// A claim resting on a cell of one run: the values at face value.
    OneRun {
        readings: Vec<OneRunReading>,
        face: Outcome,
    },
    /// Lanes the post compared at one shape whose servers ran different
    /// numbers of workers here.
    ShapeUnmatched {
        declared: String,
        ran: Vec<LaneWorkers>,
    },
    /// A throughput claim whose load left a lane idle: not judged as a
    /// ceiling (the verdict's `cpu` says what each lane had).
    BelowCeiling { as_measured: Box<Why> },
    /// A throughput claim judged on rates per CPU-second, other work having
    /// taken CPU from its lanes (the verdict's `cpu` says how much).
    PerCpuSecond {
        as_measured: Box<Why>,
        judged: Box<Why>,
    },
    /// The words of a Reprise that recorded its verdicts as text.
    Worded { text: String },
}

/// What a band judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    Median,
    Ratio,
}

/// Where an interval lies against a band.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "place", rename_all = "snake_case")]
pub enum Place {
    Inside,
    Outside,
    /// Across an edge: undecided, with what would settle it.
    Straddles {
        settle: Settle,
    },
}

/// What would settle an interval across a band's edge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "settle", rename_all = "snake_case")]
pub enum Settle {
    /// About this many more runs per cell.
    MoreRuns { runs: u32 },
    /// Nothing but a quieter machine: the CPU other work took widens the
    /// interval across the edge whatever the runs.
    QuieterMachine,
    /// Nothing likely: the estimate sits on the edge.
    OnTheEdge,
}

/// How an ordering's pairs came out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "finding", rename_all = "snake_case")]
pub enum OrderFinding {
    /// Each ratio's interval clear of one, on the published side.
    InOrder,
    /// A pair measured the other way round.
    Reversed,
    /// A pair's ratio within ±`level` of one.
    Level { level: f64 },
    /// A pair's ratio interval reaches one.
    Undecided,
}

/// One pair of an ordering: each figure's reading and their ratio.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct OrderPair {
    pub first: PairFigure,
    pub second: PairFigure,
    pub ratio: Interval,
    pub unit: String,
}

/// A figure of an ordering's pair: its median, and its interval where it
/// has more than one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct PairFigure {
    pub figure: String,
    pub median: f64,
    pub interval: Option<Interval>,
}

/// A figure of a claim resting on one run: its value and how many runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct OneRunReading {
    pub figure: String,
    pub value: f64,
    pub runs: u32,
    pub unit: String,
}

/// The workers a lane's server ran here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct LaneWorkers {
    pub lane: String,
    pub workers: u32,
}

/// What the verdict adds after its why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum Note {
    /// A figure whose runs vary more than the recipe's threshold.
    Unstable { figure: String, cv: f64 },
    /// A figure shown for information, from one run.
    OneRun,
    /// The lanes had less than their CPUs and whether the rest was taken
    /// or idle was not read (the verdict's `cpu` says so).
    CpuUnread,
}

impl Default for Why {
    fn default() -> Why {
        Why::Worded {
            text: String::new(),
        }
    }
}

/// "1 more run", "12 more runs".
pub(crate) fn more_runs(n: u32) -> String {
    format!("{n} more run{}", if n == 1 { "" } else { "s" })
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl Verdict {
    /// Why the claim came to its verdict, in words: its [`Why`] and then
    /// its [`Note`]s.
    pub fn reasoning(&self) -> String {
        let mut text = self.word(&self.why);
        for note in &self.notes {
            match note {
                Note::Unstable { figure, cv } => text.push_str(&format!(
                    "; note: {figure} is unstable (its runs vary {})",
                    percent(*cv)
                )),
                Note::OneRun => text.push_str("; one run: no spread measured"),
                Note::CpuUnread => {
                    if let Some(cpu) = &self.cpu {
                        text.push_str(&format!("; {}", cpu.why));
                    }
                }
            }
        }
        text
    }

    /// The CPU reading's sentence, first letter raised.
    fn cpu_why(&self) -> String {
        upper_first(self.cpu.as_ref().map_or("", |c| c.why.as_str()))
    }

    fn word(&self, why: &Why) -> String {
        let shown = |v: f64| value(v, &self.unit);
        match why {
            Why::NoSuchFigure { figure } => format!("the recipe has no figure {figure}"),
            Why::LaneNotRunnable { lane, because } => {
                format!("lane {lane} is not runnable: {}", because.trim())
            }
            Why::LaneNotMeasured {
                lane,
                stage: Some(stage),
                because,
            } => format!("lane {lane} was not measured ({stage}): {because}"),
            Why::LaneNotMeasured {
                lane,
                stage: None,
                because,
            } => format!("lane {lane} was not measured: {because}"),
            Why::LaneMeasuredNothing { lane } => {
                format!("lane {lane} was not measured in this run")
            }
            Why::NoCell {
                figure,
                lane,
                metric,
            } => format!("no cell measured {figure} ({lane} {})", metric.name()),
            Why::CellUnusable { figure, status } => format!("{figure}: {}", status.describe()),
            Why::NoPublishedNumber { figure } => {
                format!("the post gives no number for {figure}")
            }
            Why::MachineDiffers {
                differences,
                measured,
                published,
            } => format!(
                "not comparable on this machine ({}); measured {} against the published {}, for information",
                differences
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
                shown(*measured),
                shown(*published)
            ),
            Why::Banded {
                what,
                measured,
                band,
                confidence,
                place,
            } => {
                let numbers = format!(
                    "measured {} {} ({} interval {} to {}) against {} to {}",
                    match what {
                        Measure::Median => "median",
                        Measure::Ratio => "ratio",
                    },
                    shown(measured.estimate),
                    confidence_text(*confidence),
                    shown(measured.low),
                    shown(measured.high),
                    shown(band[0]),
                    shown(band[1])
                );
                match place {
                    Place::Inside => format!("{numbers}: inside the published band"),
                    Place::Outside => format!("{numbers}: outside the published band"),
                    Place::Straddles {
                        settle: Settle::MoreRuns { runs },
                    } => format!(
                        "{numbers}: the interval straddles the band's edge; about {} per cell would likely settle it",
                        more_runs(*runs)
                    ),
                    Place::Straddles {
                        settle: Settle::QuieterMachine,
                    } => format!(
                        "{numbers}: the CPU other work took widens the interval across the band's edge whatever the runs; a quieter machine would settle it"
                    ),
                    Place::Straddles {
                        settle: Settle::OnTheEdge,
                    } => format!(
                        "{numbers}: the estimate sits on the band's edge; more runs are unlikely to settle it"
                    ),
                }
            }
            Why::Spread {
                cv,
                runs,
                band,
                inside,
            } => {
                let pct = |v: f64| value(v * 100.0, "%");
                format!(
                    "measured spread {} over {runs} runs against {} to {}: {} the published band",
                    pct(*cv),
                    pct(band[0]),
                    pct(band[1]),
                    if *inside { "inside" } else { "outside" }
                )
            }
            Why::TooFewRuns { figure } => {
                format!("{figure} has fewer than two runs: no spread to read")
            }
            Why::OrderingCellEmpty => "a cell of the ordering has no runs".into(),
            Why::Ordering { finding, pairs } => {
                let pairs = pairs
                    .iter()
                    .map(|p| {
                        let shown = |f: &PairFigure| match f.interval {
                            Some(i) => interval_text(i.estimate, i.low, i.high, &p.unit),
                            None => value(f.median, &p.unit),
                        };
                        format!(
                            "{} {} vs {} {}, a ratio of {}",
                            p.first.figure,
                            shown(&p.first),
                            p.second.figure,
                            shown(&p.second),
                            interval_text(p.ratio.estimate, p.ratio.low, p.ratio.high, "×"),
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                match finding {
                    OrderFinding::Reversed => format!("measured in the other order: {pairs}"),
                    OrderFinding::Level { level } => format!(
                        "level: {pairs}, the ratio's interval within ±{}% of one",
                        number(level * 100.0)
                    ),
                    OrderFinding::Undecided => format!("a ratio's interval reaches one: {pairs}"),
                    OrderFinding::InOrder => format!(
                        "in the published order, each ratio's interval clear of one: {pairs}"
                    ),
                }
            }
            Why::AtCap { cap, lanes } => {
                let cap = value(*cap, "");
                let (every, none) = match lanes {
                    2 => ("both", "neither"),
                    _ => ("every lane", "none"),
                };
                format!(
                    "{every} reached the cap of {cap}: the recipe asked each lane for {cap} and each made them all, so {none} met a limit; a higher cap would tell them apart"
                )
            }
            Why::OneRun { readings, face } => {
                let read: Vec<String> = readings
                    .iter()
                    .map(|r| match r.runs {
                        1 => format!("{} {} (one run)", r.figure, value(r.value, &r.unit)),
                        n => format!(
                            "{} {} (median of {n} runs)",
                            r.figure,
                            value(r.value, &r.unit)
                        ),
                    })
                    .collect();
                let face = match face {
                    Outcome::Inconclusive => "undecided",
                    other => other.label(),
                };
                format!(
                    "one run: no spread measured ({}; at face value {face}); a verdict needs two runs or more of each cell",
                    read.join(", ")
                )
            }
            Why::ShapeUnmatched { declared, ran } => format!(
                "the post compared these lanes at one shape (workers: {declared}), but their servers ran different numbers of workers here ({}): the gap would be partly the worker count",
                ran.iter()
                    .map(|l| format!("{} {}", l.lane, l.workers))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Why::BelowCeiling { as_measured } => format!(
                "{}: not judged as a ceiling (more runs would not raise the load). As measured: {}",
                self.cpu_why(),
                self.word(as_measured)
            ),
            Why::PerCpuSecond {
                as_measured,
                judged,
            } => {
                let widened = format!(
                    "its interval widened either way by {} of that share (the most a rate per CPU-second was seen to move, with a margin)",
                    crate::cpu_share::pct(crate::cpu_share::MISS_PER_SHARE_TAKEN)
                );
                match (&**as_measured, &**judged) {
                    (Why::Banded { measured, .. }, Why::Banded { .. }) => format!(
                        "{}: judged per CPU-second, {widened}; as measured, {}. Per CPU-second, {}",
                        self.cpu_why(),
                        self.show_interval(measured),
                        self.word(judged)
                    ),
                    // An ordering says its ratios in its why.
                    _ => format!(
                        "{}: judged per CPU-second, {widened}. {} (As measured: {}.)",
                        self.cpu_why(),
                        upper_first(&self.word(judged)),
                        self.word(as_measured)
                    ),
                }
            }
            Why::Worded { text } => text.clone(),
        }
    }

    /// Whether the claim was set aside only because this machine is not
    /// the post's (an absolute figure measured elsewhere).
    pub fn not_comparable_here(&self) -> bool {
        self.outcome == Outcome::NotComparable && matches!(self.why, Why::MachineDiffers { .. })
    }

    /// The lane this verdict says was not measured or cannot run, if that
    /// is its why.
    pub fn lane_not_measured(&self) -> Option<&str> {
        match &self.why {
            Why::LaneNotRunnable { lane, .. }
            | Why::LaneNotMeasured { lane, .. }
            | Why::LaneMeasuredNothing { lane } => Some(lane),
            _ => None,
        }
    }
}

/// A verdict's why as recorded: the typed value, or the sentence a Reprise
/// that recorded its verdicts as text wrote (`reason`).
pub(crate) fn why_or_text<'de, D: Deserializer<'de>>(d: D) -> Result<Why, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Text(String),
        Why(Why),
    }
    Ok(match Either::deserialize(d)? {
        Either::Text(text) => Why::Worded { text },
        Either::Why(why) => why,
    })
}

impl std::fmt::Display for crate::measurements::LaneSkip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.stage {
            Some(stage) => write!(f, "{stage}: {}", self.because),
            None => f.write_str(&self.because),
        }
    }
}

impl std::fmt::Display for crate::verdict::OtherSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "measured at {}, the post's at {}: not the same quantity",
            number(self.here),
            number(self.post)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(json: serde_json::Value) -> Verdict {
        let mut v = serde_json::json!({
            "claim": "c", "kind": "ratio", "quote": "q", "outcome": "reproduced",
            "published": 1.96, "unit": "×", "tolerance": 0.15, "band": [1.67, 2.25],
            "measured": {"estimate": 1.99, "low": 1.98, "high": 2.0},
            "more_runs": null, "figures": [], "deviations": [], "decided_after": null, "cpu": null
        });
        v.as_object_mut()
            .unwrap()
            .extend(json.as_object().unwrap().clone());
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_verdict_an_earlier_reprise_recorded_in_words_reads_back_with_them() {
        let v = verdict(serde_json::json!({"reason": "inside the published band"}));
        assert_eq!(
            v.why,
            Why::Worded {
                text: "inside the published band".into()
            }
        );
        assert_eq!(v.reasoning(), "inside the published band");
        assert!(!v.not_comparable_here());
    }

    #[test]
    fn a_why_is_written_as_data_and_reads_back_the_same() {
        let why = Why::Banded {
            what: Measure::Ratio,
            measured: Interval {
                estimate: 1.99,
                low: 1.98,
                high: 2.0,
            },
            band: [1.67, 2.25],
            confidence: 0.95,
            place: Place::Straddles {
                settle: Settle::MoreRuns { runs: 3 },
            },
        };
        let written = serde_json::to_value(&why).unwrap();
        assert_eq!(written["why"], "banded");
        assert_eq!(written["place"]["settle"]["runs"], 3);
        let v = verdict(serde_json::json!({
            "why": written,
            "notes": [{"note": "unstable", "figure": "a", "cv": 0.12}]
        }));
        assert_eq!(v.why, why);
        assert_eq!(
            v.reasoning(),
            "measured ratio 1.99× (95% interval 1.98× to 2×) against 1.67× to 2.25×: the interval \
             straddles the band's edge; about 3 more runs per cell would likely settle it; \
             note: a is unstable (its runs vary 12.0%)"
        );
    }

    #[test]
    fn a_machine_difference_is_a_row_or_a_note() {
        let row = MachineDifference::Item {
            item: "CPU".into(),
            here: None,
            post: Some("AMD Ryzen 5 3600".into()),
        };
        assert_eq!(
            row.to_string(),
            "CPU: not recorded, the post's AMD Ryzen 5 3600"
        );
        assert_eq!(row.item(), "CPU");
        let note = MachineDifference::not_compared("the recipe names no reference machine");
        assert_eq!(note.to_string(), "the recipe names no reference machine");
        let written = serde_json::to_value([&row, &note]).unwrap();
        let read: Vec<MachineDifference> = serde_json::from_value(written).unwrap();
        assert_eq!(read, vec![row, note]);
    }
}
