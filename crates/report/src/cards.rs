//! A card per claim, worded here once for both reports and, through the
//! session's views, the app's Results page: its one sentence of why, its
//! reasoning, its numbers on one axis, the claims not measured here grouped
//! by their why, and the machine's differences as a table the cards point
//! to. What kind of why a verdict has is read from its
//! [`reprise_verdict::Why`], never its words.

use reprise_recipe::ClaimKind;
use reprise_recipe::reading::number;
use reprise_verdict::{CpuBasis, Deviation, DeviationKind, Judgement, MachineDifference};
use reprise_verdict::{Outcome, Verdict};
use serde::Serialize;

/// A claim's card: what every front end shows of a verdict beside its
/// numbers — the reports here, the app's Results page through the session's
/// views.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct ClaimCard {
    /// Its one sentence of why, its numbers in it ([`why`]).
    pub why: String,
    /// Its whole reasoning, where that says more than `why` (none for a
    /// claim set aside for the machine: its table says the rest).
    pub reasoning: Option<String>,
    /// What differs from the post for it, each named short (`ruby`): the
    /// run's list says each in full.
    pub differs_in: Vec<String>,
}

impl ClaimCard {
    pub fn of(v: &Verdict) -> ClaimCard {
        let why = why(v);
        let reasoning = (!v.not_comparable_here())
            .then(|| {
                let mut text = v.reasoning();
                // What the lanes' CPU was the reasoning says only where it
                // changed the basis; as measured, it is said here.
                if let Some(cpu) = v.cpu.as_ref().filter(|c| c.basis == CpuBasis::AsMeasured) {
                    text.push_str(&format!("; {}", cpu.why));
                }
                sentence(&text)
            })
            .filter(|reasoning| *reasoning != why);
        ClaimCard {
            why,
            reasoning,
            differs_in: v.deviations.iter().map(|d| deviation_label(d)).collect(),
        }
    }
}

/// Claims this machine did not measure for one why, worded once.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct NotMeasuredClaims {
    /// Why, as a sentence.
    pub why: String,
    /// The lane that why is about, where it is one not measured or not
    /// runnable ([`Verdict::lane_not_measured`]).
    pub lane: Option<String>,
    pub claims: Vec<String>,
}

/// One of the machine's differences as a table's row: item, this
/// machine's value and the post's; a note has its words as `item` alone.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct MachineRow {
    pub item: String,
    pub here: Option<String>,
    pub post: Option<String>,
}

/// The machine's differences as the table's rows ([`machine_row`]).
pub fn machine_rows(differences: &[MachineDifference]) -> Vec<MachineRow> {
    differences
        .iter()
        .map(|d| {
            let (item, pair) = machine_row(d);
            MachineRow {
                item: item.to_string(),
                here: pair.map(|(here, _)| here.to_string()),
                post: pair.map(|(_, post)| post.to_string()),
            }
        })
        .collect()
}

/// Text as a sentence: ending in a full stop (its first word left as it
/// is: it may be an id).
pub(crate) fn sentence(text: &str) -> String {
    match text.ends_with(['.', '!', '?']) {
        true => text.to_string(),
        false => format!("{text}."),
    }
}

/// A claim's one sentence of why, its numbers in it: where the measured
/// interval lies against the range the claim accepts; a claim measured on
/// a machine unlike the post's says so in a few words and points to the
/// machine's table; the verdict's own reasoning otherwise.
pub(crate) fn why(v: &Verdict) -> String {
    if v.not_comparable_here() {
        return format!(
            "Not judged: {} was measured on the post's machine, and this one differs (see the table above); measured here {}, for information.",
            v.show_published(),
            v.show_measured()
        );
    }
    let as_measured = v
        .cpu
        .as_ref()
        .is_none_or(|c| matches!(c.basis, CpuBasis::AsMeasured));
    let banded = matches!(
        v.outcome,
        Outcome::Reproduced | Outcome::NotReproduced | Outcome::Inconclusive
    );
    match (v.band, v.measured, v.show_band()) {
        (Some(band), Some(m), Some(shown_band)) if as_measured && banded => {
            let place = if m.low >= band[0] && m.high <= band[1] {
                "inside"
            } else if m.high < band[0] || m.low > band[1] {
                "outside"
            } else {
                "across an edge of"
            };
            let more = match (v.outcome, v.more_runs) {
                (Outcome::Inconclusive, Some(n)) => format!(
                    "; about {n} more run{} would settle it",
                    if n == 1 { "" } else { "s" }
                ),
                _ => String::new(),
            };
            format!(
                "Measured {}: {place} the {shown_band} the claim accepts (published {}){more}.",
                v.show_measured(),
                v.show_published()
            )
        }
        _ => sentence(&v.reasoning()),
    }
}

/// The claims this machine did not measure, grouped by their why, each
/// worded once, in the order the verdicts list them.
pub fn not_measured_claims(verdicts: &[Verdict]) -> Vec<NotMeasuredClaims> {
    let mut groups: Vec<(&Verdict, Vec<String>)> = Vec::new();
    for v in verdicts
        .iter()
        .filter(|v| v.outcome == Outcome::NotMeasured)
    {
        match groups.iter_mut().find(|(first, _)| first.why == v.why) {
            Some((_, claims)) => claims.push(v.claim.clone()),
            None => groups.push((v, vec![v.claim.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(v, claims)| NotMeasuredClaims {
            why: sentence(&v.reasoning()),
            lane: v.lane_not_measured().map(str::to_string),
            claims,
        })
        .collect()
}

/// How the run differs from the post, as a report lists it: each
/// deviation but a lane's not being measured where the claims it stopped
/// say it (under "Not measured here", [`not_measured_claims`]).
pub(crate) fn listed_deviations(j: &Judgement) -> Vec<&Deviation> {
    let said = |lane: &String| {
        j.verdicts.iter().any(|v| {
            v.outcome == Outcome::NotMeasured && v.lane_not_measured() == Some(lane.as_str())
        })
    };
    j.deviations
        .iter()
        .filter(|d| {
            !(d.kind == DeviationKind::Lane && !d.lanes.is_empty() && d.lanes.iter().all(said))
        })
        .collect()
}

/// One of the machine's differences as a table's row: item, here and the
/// post's (`CPU`, `Intel Xeon`, `AMD Ryzen 5 3600`); a note is a row of its
/// own words (`None`).
pub(crate) fn machine_row(difference: &MachineDifference) -> (&str, Option<(&str, &str)>) {
    match difference {
        MachineDifference::Item { item, here, post } => (
            item,
            Some((
                here.as_deref().unwrap_or("not recorded"),
                post.as_deref().unwrap_or("unknown"),
            )),
        ),
        MachineDifference::NotCompared { why } => (why, None),
    }
}

/// A deviation as a claim names it, pointing to the page's list: what
/// differs (`ruby`), not the whole sentence.
pub(crate) fn deviation_label(what: &str) -> String {
    let head = what.split(": ").next().unwrap_or(what);
    match head.chars().count() <= 40 {
        true => head.to_string(),
        false => format!("{}…", head.chars().take(39).collect::<String>()),
    }
}

/// A claim's numbers on its picture's scale (a spread's fractions as
/// percentages, as the verdict words them).
pub(crate) struct Numbers {
    pub published: Option<f64>,
    pub band: Option<[f64; 2]>,
    /// Estimate, low, high.
    pub measured: Option<[f64; 3]>,
    pub unit: String,
}

impl Numbers {
    pub fn of(v: &Verdict) -> Numbers {
        let (scale, unit) = match v.kind {
            ClaimKind::Spread => (100.0, "%".to_string()),
            _ => (1.0, v.unit.clone()),
        };
        Numbers {
            published: v.published.map(|p| p * scale),
            band: v.band.map(|[lo, hi]| [lo * scale, hi * scale]),
            measured: v
                .measured
                .map(|m| [m.estimate * scale, m.low * scale, m.high * scale]),
            unit,
        }
    }

    /// Every value the picture must show.
    fn values(&self) -> Vec<f64> {
        let mut values: Vec<f64> = self.measured.map(|m| m.to_vec()).unwrap_or_default();
        values.extend(self.band.iter().flatten());
        values.extend(self.published);
        values
    }

    /// The axis the picture is drawn on; none where nothing was measured.
    pub fn axis(&self) -> Option<Axis> {
        self.measured?;
        Axis::around(&self.values())
    }
}

/// An axis: its ends and its ticks, round numbers around every value it
/// must show, starting no lower than zero when none is negative.
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
}

impl Axis {
    pub fn around(values: &[f64]) -> Option<Axis> {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let lo = finite.iter().copied().reduce(f64::min)?;
        let hi = finite.iter().copied().reduce(f64::max)?;
        let mut span = hi - lo;
        if span == 0.0 {
            span = if hi != 0.0 { hi.abs() * 0.1 } else { 1.0 };
        }
        let pad = span * 0.15;
        let step = nice_step((span + 2.0 * pad) / 4.0);
        let mut start = ((lo - pad) / step).floor() * step;
        if lo >= 0.0 && start < 0.0 {
            start = 0.0;
        }
        let end = ((hi + pad) / step).ceil() * step;
        let decimals = (-step.log10().floor()).max(0.0) as i32;
        let round = |v: f64| {
            let f = 10f64.powi(decimals);
            (v * f).round() / f
        };
        let mut ticks = Vec::new();
        let mut i = 0.0;
        while start + i * step <= end + step / 1e6 {
            ticks.push(round(start + i * step));
            i += 1.0;
        }
        Some(Axis {
            lo: ticks[0],
            hi: *ticks.last()?,
            ticks,
        })
    }

    /// Where a value lies along the axis, 0 to 1.
    pub fn at(&self, v: f64) -> f64 {
        let span = self.hi - self.lo;
        if span == 0.0 {
            0.5
        } else {
            (v - self.lo) / span
        }
    }
}

/// A step of 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    let f = raw / power;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * power
}

/// A tick's label: the number, the unit on the last.
pub(crate) fn tick_label(v: f64, unit: &str, last: bool) -> String {
    match last {
        true => reprise_recipe::reading::value(v, unit),
        false => number(v),
    }
}

/// A claim on one line of text, for the Markdown report: the axis's ends,
/// the accepted band as `=`, the measured interval in brackets and its
/// estimate as `●` (`1.4 ·······====[●]=====····· 2.4×`); none where
/// nothing was measured.
pub(crate) fn text_bar(v: &Verdict) -> Option<String> {
    const WIDTH: usize = 40;
    let n = Numbers::of(v);
    let axis = n.axis()?;
    let [estimate, low, high] = n.measured?;
    let at = |v: f64| ((axis.at(v) * (WIDTH - 1) as f64).round().max(0.0) as usize).min(WIDTH - 1);
    let mut line = vec!['·'; WIDTH];
    if let Some([lo, hi]) = n.band {
        for c in &mut line[at(lo)..=at(hi)] {
            *c = '=';
        }
    }
    // Room for the brackets and the dot between them.
    let (mut l, mut h) = (at(low), at(high));
    if h - l < 2 {
        l = at(estimate).saturating_sub(1).min(WIDTH - 3);
        h = l + 2;
    }
    line[l] = '[';
    line[h] = ']';
    line[at(estimate).clamp(l + 1, h - 1)] = '●';
    Some(format!(
        "{} {} {}",
        number(axis.lo),
        line.into_iter().collect::<String>(),
        tick_label(axis.hi, &n.unit, true)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_axis_spans_every_value_in_round_ticks() {
        let a = Axis::around(&[1.67, 2.25, 1.98, 2.0, 1.96]).unwrap();
        assert_eq!(a.ticks, vec![1.4, 1.6, 1.8, 2.0, 2.2, 2.4]);
        let a = Axis::around(&[45_900.0, 62_100.0, 30_100.0, 30_300.0, 54_000.0]).unwrap();
        assert_eq!(a.ticks, vec![20_000.0, 40_000.0, 60_000.0, 80_000.0]);
        assert_eq!(Axis::around(&[0.01, 1.0]).unwrap().lo, 0.0);
        let one = Axis::around(&[6.0, 6.0]).unwrap();
        assert!(one.lo < 6.0 && one.hi > 6.0);
        assert!(Axis::around(&[]).is_none());
    }

    #[test]
    fn a_text_bar_draws_the_band_and_the_interval_with_room_for_its_dot() {
        let mut v: Verdict = serde_json::from_value(serde_json::json!({
            "claim": "c", "kind": "ratio", "quote": "q", "outcome": "reproduced", "reason": "r",
            "published": 1.96, "unit": "×", "tolerance": 0.15, "band": [1.67, 2.25],
            "measured": {"estimate": 1.99, "low": 1.98, "high": 2.0},
            "more_runs": null, "figures": [], "deviations": [], "decided_after": null, "cpu": null
        }))
        .unwrap();
        let bar = text_bar(&v).unwrap();
        assert!(bar.starts_with("1.4 ") && bar.ends_with(" 2.4×"), "{bar}");
        assert!(bar.contains("=[●]="), "{bar}");
        v.measured = None;
        assert_eq!(text_bar(&v), None);
    }

    #[test]
    fn a_difference_reads_as_item_here_and_the_posts() {
        let item: MachineDifference = serde_json::from_value(serde_json::json!(
            {"difference": "item", "item": "CPU", "here": "Intel Xeon", "post": null}
        ))
        .unwrap();
        assert_eq!(machine_row(&item), ("CPU", Some(("Intel Xeon", "unknown"))));
        // As a Reprise before these rows recorded a difference: a sentence.
        let said: MachineDifference =
            serde_json::from_value(serde_json::json!("the recipe names no reference machine"))
                .unwrap();
        assert_eq!(
            machine_row(&said),
            ("the recipe names no reference machine", None)
        );
        // As the app's view carries them.
        assert_eq!(
            machine_rows(&[item, said]),
            [
                MachineRow {
                    item: "CPU".into(),
                    here: Some("Intel Xeon".into()),
                    post: Some("unknown".into())
                },
                MachineRow {
                    item: "the recipe names no reference machine".into(),
                    here: None,
                    post: None
                }
            ]
        );
    }
}
