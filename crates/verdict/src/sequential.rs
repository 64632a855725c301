//! Runs that go on until each claim is decided (`reprise run
//! --until-conclusive`): when to look at the claims, at what confidence,
//! and what each look says of each claim.
//!
//! **The rule.** The claims are looked at only at planned numbers of runs
//! per cell — the recipe's runs (at least three), then half as many again
//! each time (3, 5, 8, 12, 18, 27, …) up to the most the budget allows —
//! and, with K such looks planned, each look's intervals are drawn at
//! confidence 1 − α/K instead of 1 − α (α = 5%). By the union bound, the
//! chance that any look's interval misses the true value is at most α, so
//! stopping at whichever look first decides a claim keeps the verdict's
//! error rate at α: the extra looks are paid for in the width of every
//! interval (a Bonferroni-corrected group-sequential design). The final
//! verdicts of such a run are drawn at that same confidence.
//!
//! **Per claim.** At each look every claim is: decided (its interval inside
//! or outside its band, an ordering's ratios clear of one), still open (it
//! straddles the band's edge, and the runs left could settle it), beyond
//! this machine (the noise of its cells is such that even the most runs the
//! budget allows would not settle it: said with the noise and the
//! tolerance), or not judged by runs at all (not measured, no data, not
//! comparable). Only the cells of open claims get more runs.

use serde::{Deserialize, Serialize};

use crate::band::more_runs_to_settle;
use crate::measurements::CellKey;
use crate::statistics::{Interval, narrowed};
use crate::verdict::{Judgement, Outcome, Verdict};
use crate::why::{Note, Why, more_runs};

/// The error rate every verdict is held to, whatever the number of looks.
pub const ALPHA: f64 = 0.05;

/// How the claims of a run that goes on are looked at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Looks {
    /// The runs per cell at which the claims are looked at.
    pub at: Vec<u32>,
    /// Each look's two-sided confidence: 1 − α / looks.
    pub confidence: f64,
}

impl Looks {
    /// The looks from the recipe's `runs` (at least three: fewer say
    /// nothing of a spread) up to `most` runs per cell, each half again the
    /// one before; none where `most` is fewer than the first.
    pub fn plan(runs: u32, most: u32) -> Looks {
        let first = runs.max(3);
        if first > most {
            return Looks {
                at: Vec::new(),
                confidence: 1.0 - ALPHA,
            };
        }
        let mut at = vec![first];
        let mut next = first;
        while next < most {
            let half_again = (u64::from(next) * 3).div_ceil(2);
            next = u32::try_from(half_again).unwrap_or(u32::MAX).max(next + 1);
            if next > most {
                break;
            }
            at.push(next);
        }
        Looks {
            confidence: 1.0 - ALPHA / at.len() as f64,
            at,
        }
    }

    /// Whether the claims are looked at after `runs` runs per cell.
    pub fn is_look(&self, runs: u32) -> bool {
        self.at.contains(&runs)
    }

    /// The first look after `runs` runs per cell (the last one past all).
    pub fn next_after(&self, runs: u32) -> u32 {
        self.at
            .iter()
            .copied()
            .find(|&n| n > runs)
            .unwrap_or_else(|| self.last())
    }

    /// The last look: after it the run stops, decided or not.
    pub fn last(&self) -> u32 {
        self.at.last().copied().unwrap_or(0)
    }

    /// The rule in a sentence, for the plan, the log and the report.
    pub fn rule(&self) -> String {
        format!(
            "claims looked at after {} runs per cell, each look's intervals at {:.2}% confidence so that all {} looks together keep a 5% error rate (Bonferroni)",
            join_runs(&self.at),
            self.confidence * 100.0,
            self.at.len()
        )
    }
}

fn join_runs(at: &[u32]) -> String {
    let shown: Vec<String> = at.iter().map(u32::to_string).collect();
    match shown.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Where a claim stands at a look.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "standing", rename_all = "snake_case")]
pub enum Standing {
    /// Reproduced or not reproduced: the outcome, with the interval and the
    /// reason of the look that decided it (a verdict that says when it was
    /// decided shows what was known then).
    Decided {
        outcome: Outcome,
        #[serde(default)]
        measured: Option<Interval>,
        #[serde(
            default,
            alias = "reason",
            deserialize_with = "crate::why::why_or_text"
        )]
        why: Why,
        #[serde(default)]
        notes: Vec<Note>,
    },
    /// More runs may decide it; its cells get them.
    Open { why: String, cells: Vec<CellKey> },
    /// The noise of its cells is beyond what the runs left could settle.
    Beyond { why: String },
    /// Not decided by runs: not measured, no data, not comparable.
    NotJudged { outcome: Outcome },
}

/// One claim at one look.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ClaimAtLook {
    pub claim: String,
    #[serde(flatten)]
    pub standing: Standing,
}

/// What a run that went on until its claims were decided did:
/// `results.json`'s `until_conclusive`, written at each look and at the
/// stop, read back when the run is judged (its confidence, and the look
/// that decided each verdict).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct UntilConclusive {
    /// The run's budget, in whole seconds.
    pub budget_s: u64,
    /// [`Looks::rule`].
    pub rule: String,
    /// Each look's confidence ([`Looks::confidence`]), at which the run's
    /// verdicts are drawn too.
    pub confidence: f64,
    /// The runs per cell at which the claims were to be looked at ([`Looks::at`]).
    pub looks_planned: Vec<u32>,
    /// The looks taken so far, in order.
    pub looks: Vec<Look>,
    /// Why the run stopped adding runs; none while it goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The runs per cell when it stopped; none while it goes on, or where
    /// the budget held no look.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<u32>,
}

impl UntilConclusive {
    /// The record of a run about to go on under `looks`, with no look taken.
    pub fn planned(budget_s: u64, looks: &Looks) -> UntilConclusive {
        UntilConclusive {
            budget_s,
            rule: looks.rule(),
            confidence: looks.confidence,
            looks_planned: looks.at.clone(),
            looks: Vec::new(),
            stopped: None,
            runs: None,
        }
    }
}

/// One look: after how many runs per cell, and where each claim stood.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Look {
    pub runs: u32,
    pub claims: Vec<ClaimAtLook>,
}

/// Where every claim stands after `runs` runs per cell, with `most` the
/// runs per cell the budget allows in all.
pub fn standings(judgement: &Judgement, runs: u32, most: u32) -> Vec<ClaimAtLook> {
    judgement
        .verdicts
        .iter()
        .map(|v| ClaimAtLook {
            claim: v.claim.clone(),
            standing: standing(judgement, v, runs, most),
        })
        .collect()
}

fn standing(judgement: &Judgement, v: &Verdict, runs: u32, most: u32) -> Standing {
    match v.outcome {
        Outcome::Reproduced | Outcome::NotReproduced => {
            return Standing::Decided {
                outcome: v.outcome,
                measured: v.measured,
                why: v.why.clone(),
                notes: v.notes.clone(),
            };
        }
        Outcome::NoData | Outcome::NotMeasured | Outcome::NotComparable => {
            return Standing::NotJudged { outcome: v.outcome };
        }
        Outcome::Inconclusive => {}
    }
    // A lane the load did not keep busy stays so, however many runs follow.
    if let Some(cpu) = v
        .cpu
        .as_ref()
        .filter(|c| c.basis == crate::cpu_share::CpuBasis::BelowCeiling)
    {
        return Standing::Beyond {
            why: format!("{}: more runs do not raise the load", cpu.why),
        };
    }
    let cells: Vec<CellKey> = v
        .figures
        .iter()
        .filter_map(|id| judgement.figure(id)?.cell.clone())
        .collect();
    if cells.len() < v.figures.len() {
        return Standing::NotJudged { outcome: v.outcome };
    }
    let left = most.saturating_sub(runs);
    if left == 0 {
        let noise = match v.measured.filter(|_| v.band.is_some()) {
            Some(measured) => format!(
                ": noise ±{} against the claim's tolerance ±{}",
                percent(half_width(&measured)),
                percent(v.tolerance.unwrap_or(0.0))
            ),
            None => String::new(),
        };
        return Standing::Beyond {
            why: format!(
                "still undecided after {runs} runs per cell, the most the budget allows{noise}"
            ),
        };
    }
    let (Some(measured), Some(band)) = (v.measured, v.band) else {
        // An ordering whose ratio reaches one, or a spread of one run:
        // more runs narrow the intervals or give a spread.
        return Standing::Open {
            why: v.reasoning(),
            cells,
        };
    };
    let noise = half_width(&measured);
    let tolerance = v.tolerance.unwrap_or(0.0);
    let confidence = judgement.settings.bootstrap.confidence;
    // At the most runs the budget allows.
    let at_most = narrowed(noise, runs as usize, most as usize, confidence);
    match more_runs_to_settle(&measured, band, runs as usize, confidence) {
        Some(needed) if needed <= left => Standing::Open {
            why: format!(
                "its interval straddles the band's edge; about {} per cell would likely settle it",
                more_runs(needed)
            ),
            cells,
        },
        _ if at_most > tolerance => Standing::Beyond {
            why: format!(
                "noise ±{} exceeds the claim's tolerance ±{}: even after {most} runs per cell its interval would be wider than the band",
                percent(noise),
                percent(tolerance)
            ),
        },
        Some(needed) => Standing::Beyond {
            why: format!(
                "noise ±{} at {runs} runs per cell: about {} per cell would settle it, and the budget allows {left}",
                percent(noise),
                more_runs(needed)
            ),
        },
        None => Standing::Beyond {
            why: "its estimate sits on the band's edge: more runs are unlikely to settle it".into(),
        },
    }
}

/// The interval's half-width relative to its estimate.
fn half_width(i: &Interval) -> f64 {
    if i.estimate == 0.0 {
        return f64::INFINITY;
    }
    ((i.high - i.low) / 2.0 / i.estimate.abs()).abs()
}

fn percent(fraction: f64) -> String {
    reprise_recipe::reading::percent(fraction)
}

/// The claims still open and the cells they read, of a look's standings.
pub fn open_cells(standings: &[ClaimAtLook]) -> Vec<CellKey> {
    let mut cells: Vec<CellKey> = Vec::new();
    for s in standings {
        if let Standing::Open { cells: c, .. } = &s.standing {
            for cell in c {
                if !cells.contains(cell) {
                    cells.push(cell.clone());
                }
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_grow_by_half_and_pay_for_themselves_in_confidence() {
        let looks = Looks::plan(3, 30);
        assert_eq!(looks.at, [3, 5, 8, 12, 18, 27]);
        assert!((looks.confidence - (1.0 - 0.05 / 6.0)).abs() < 1e-12);
        assert!(
            looks.rule().contains("3, 5, 8, 12, 18 or 27 runs per cell"),
            "{}",
            looks.rule()
        );
        // One look is an ordinary 95% interval.
        let once = Looks::plan(5, 5);
        assert_eq!(once.at, [5]);
        assert!((once.confidence - 0.95).abs() < 1e-12);
        // Fewer than three runs say nothing of a spread: the first look waits.
        assert_eq!(Looks::plan(1, 4).at, [3]);
        assert!(
            Looks::plan(1, 2).at.is_empty(),
            "a budget for fewer runs than the first look"
        );
        assert!(Looks::plan(2, 10).is_look(5) && !Looks::plan(2, 10).is_look(4));
        assert_eq!(Looks::plan(2, 10).next_after(2), 3);
        assert_eq!(Looks::plan(2, 10).next_after(5), 8);
        // However large the budget, the plan ends, half again each look.
        let vast = Looks::plan(3, u32::MAX);
        assert!(vast.at.len() < 60 && vast.last() > u32::MAX / 2, "{vast:?}");
    }

    use crate::judge::judge;
    use crate::measurements::{Measurements, Repetition};
    use crate::verdict::{MachineMatch, Settings};
    use reprise_recipe::Metric;

    /// fast/slow, published twice as fast within `tolerance`.
    fn twice(tolerance: f64) -> reprise_recipe::Recipe {
        reprise_recipe::parse(
            "recipes/twice.toml".as_ref(),
            &format!(
                r#"
[post]
id = "twice"
title = "Twice"
author = "A. Writer"
date = "2026"
summary = "Two servers."
[[lane]]
name = "fast"
command = ["fast"]
why = "One."
[[lane]]
name = "slow"
command = ["slow"]
why = "Two."
[[figure]]
id = "fast-hello"
lane = "fast"
metric = "req_per_s"
value = 2000
quote = "Fast does 2,000."
[[figure]]
id = "slow-hello"
lane = "slow"
metric = "req_per_s"
value = 1000
quote = "Slow does 1,000."
[[claim]]
id = "twice"
kind = "ratio"
numerator = "fast-hello"
denominator = "slow-hello"
value = 2.0
tolerance = {tolerance}
quote = "Fast is twice slow."
"#
            ),
        )
        .unwrap()
    }

    fn at_look(tolerance: f64, fast: &[f64], slow: &[f64], most: u32) -> Standing {
        standings(
            &judged(tolerance, fast, slow, most),
            fast.len() as u32,
            most,
        )
        .remove(0)
        .standing
    }

    fn judged(tolerance: f64, fast: &[f64], slow: &[f64], most: u32) -> crate::Judgement {
        let recipe = twice(tolerance);
        let mut m = Measurements::default();
        for (lane, values) in [("fast", fast), ("slow", slow)] {
            for (i, v) in values.iter().enumerate() {
                let run = Repetition {
                    run: i as u32 + 1,
                    value: Some(*v),
                    errors: 0,
                    client_cpu: None,
                    server_cpu: None,
                    first_attempt_taken: None,
                };
                m.push_run(CellKey::new(lane, None, Metric::ReqPerS), run);
            }
        }
        let looks = Looks::plan(fast.len() as u32, most);
        let settings = Settings {
            rounds_alternate: true,
            bootstrap: crate::Bootstrap {
                confidence: looks.confidence,
                ..Default::default()
            },
            ..Settings::default()
        };
        let machine =
            MachineMatch::Differs(vec![crate::MachineDifference::not_compared("another CPU")]);
        judge(&recipe, &m, &machine, &settings)
    }

    #[test]
    fn the_header_says_a_claim_was_left_undecided_when_one_was() {
        let mut judgement = judged(
            0.15,
            &[2000.0, 2010.0, 1995.0],
            &[1000.0, 1003.0, 998.0],
            27,
        );
        assert_eq!(judgement.sequential_sentence(), None, "not such a run");
        judgement.sequential = Some("the rule".into());
        let decided = judgement.sequential_sentence().unwrap();
        assert!(
            decided.contains("until each claim measured here was decided"),
            "{decided}"
        );
        judgement.verdicts[0].outcome = Outcome::Inconclusive;
        let open = judgement.sequential_sentence().unwrap();
        assert!(open.contains("stopped with one undecided"), "{open}");
        assert!(!open.contains("each claim"), "{open}");
    }

    #[test]
    fn a_claim_inside_its_band_is_decided_at_the_first_look() {
        let standing = at_look(
            0.15,
            &[2000.0, 2010.0, 1995.0],
            &[1000.0, 1003.0, 998.0],
            27,
        );
        let Standing::Decided {
            outcome,
            measured: Some(measured),
            why,
            ..
        } = standing
        else {
            panic!("{standing:?}");
        };
        assert_eq!(outcome, Outcome::Reproduced);
        assert!((measured.estimate - 2.0).abs() < 0.05, "{measured:?}");
        assert!(
            matches!(
                why,
                Why::Banded {
                    place: crate::why::Place::Inside,
                    ..
                }
            ),
            "{why:?}"
        );
    }

    #[test]
    fn a_claim_on_the_edge_with_runs_to_spare_is_open_and_names_its_cells() {
        // A ratio of about 2.36 against 2 ± 15% (up to 2.3), a few percent
        // of noise: the interval reaches back over the edge, and more runs
        // can tell.
        let fast = [2360.0, 2290.0, 2420.0, 2340.0, 2380.0];
        let slow = [1000.0, 1000.0, 1000.0, 1000.0, 1000.0];
        match at_look(0.15, &fast, &slow, 40) {
            Standing::Open { cells, why } => {
                assert_eq!(cells.len(), 2, "{cells:?}");
                assert!(
                    why.contains("more run") && why.contains("per cell"),
                    "{why}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn noise_beyond_the_tolerance_stops_the_claim_saying_so() {
        let fast = [2000.0, 3000.0, 1400.0];
        let slow = [1000.0, 700.0, 1400.0];
        match at_look(0.01, &fast, &slow, 8) {
            Standing::Beyond { why } => {
                assert!(why.contains("exceeds the claim's tolerance ±1"), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_claim_with_no_runs_left_in_the_budget_is_beyond_it() {
        let fast = [2300.0, 2250.0, 2330.0];
        let slow = [1000.0, 990.0, 1010.0];
        match at_look(0.15, &fast, &slow, 3) {
            Standing::Beyond { why } => {
                assert!(why.contains("the most the budget allows"), "{why}");
                assert!(
                    why.contains("noise ±") && why.contains("tolerance ±15"),
                    "{why}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
