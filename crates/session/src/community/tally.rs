//! Counting everyone's results claim by claim: one post per author and
//! machine (the newest), each machine's answer (reproduced, not reproduced,
//! could not say) and interval, the counts by CPU model, and where this
//! machine's run falls among the others.

use reprise_recipe::reading::{interval as interval_text, range};
use reprise_recipe::{Claim, ClaimKind, ClaimShape, Recipe};
use reprise_report::ResultBlock;
use reprise_share::community::Discussion;
use reprise_verdict::{Interval, Outcome};
use serde::Serialize;
use ts_rs::TS;

use super::{Answer, answer, interval_of};

/// One claim among everyone's results. Numbers are in `unit` (a spread's
/// fractions read as percentages).
#[derive(Clone, Debug, Serialize, TS)]
pub struct ClaimAmong {
    pub claim: String,
    pub kind: ClaimKind,
    /// The post's own words.
    pub quote: String,
    pub unit: String,
    /// The published number, where the claim has one.
    pub published: Option<f64>,
    /// What the claim accepts: the published number widened by its
    /// tolerance (a range's ends for an absolute figure given as a range).
    pub band: Option<[f64; 2]>,
    /// The band as a person reads it: `1.67–2.25×`.
    pub band_reading: Option<String>,
    pub reproduced: usize,
    pub not_reproduced: usize,
    pub could_not_say: usize,
    /// The same counts by CPU model, most machines first.
    pub by_cpu: Vec<CpuTally>,
    /// Every counted machine that judged the claim, with its interval.
    pub points: Vec<Point>,
    pub this_machine: Option<AmongOthers>,
}

/// The counts of one CPU model.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct CpuTally {
    /// The CPU's model name as the posts give it (escaped), or `unknown CPU`.
    pub cpu: String,
    pub reproduced: usize,
    pub not_reproduced: usize,
    pub could_not_say: usize,
}

/// One machine's verdict on a claim: a dot (and its interval) in the app's
/// strip plot.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Point {
    /// The discussion, and its page (made from its number).
    pub number: u64,
    pub url: String,
    pub author: Option<String>,
    pub cpu: String,
    pub vendor: Option<String>,
    pub virtual_machine: Option<bool>,
    pub hypervisor: Option<String>,
    pub outcome: Outcome,
    pub answer: Answer,
    pub measured: Option<Interval>,
    /// `1.98× (1.95–2.01)`, or `—`.
    pub reading: String,
    /// This machine's run, shared as this post.
    pub this_machine: bool,
}

/// This machine's run on a claim, among the others that measured it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct AmongOthers {
    pub outcome: Outcome,
    pub answer: Answer,
    pub measured: Option<Interval>,
    /// `1.98× (1.95–2.01)`, or `—`.
    pub reading: String,
    /// Other machines whose estimate is below this one's, and above it.
    pub higher_than: usize,
    pub lower_than: usize,
    /// Other machines with an estimate.
    pub of: usize,
    /// All of it as a person reads it ([`AmongOthers::words`]).
    pub words: String,
}

impl AmongOthers {
    /// `reproduced, 1.98× (1.95–2.01): higher than 5 and lower than 2 of 7
    /// other machines`; only the outcome where the claim has no interval.
    pub fn words(&self) -> String {
        let among = match (self.measured, self.of) {
            (None, _) => return self.outcome.to_string(),
            (Some(_), 0) => ": no other machine measured it".into(),
            (Some(_), of) => {
                let level = of - self.higher_than - self.lower_than;
                format!(
                    ": higher than {}{} lower than {}{} of {of} other machine{}",
                    self.higher_than,
                    if level > 0 { "," } else { " and" },
                    self.lower_than,
                    if level > 0 {
                        format!(" and level with {level}")
                    } else {
                        String::new()
                    },
                    if of == 1 { "" } else { "s" }
                )
            }
        };
        format!("{}, {}{among}", self.outcome, self.reading)
    }
}

/// A machine, as far as posts can tell one: who posted and what it is.
fn machine_key(discussion: &Discussion, block: &ResultBlock) -> Option<String> {
    let m = &block.machine;
    let author = discussion.author.as_ref()?;
    Some(format!(
        "{author}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}",
        m.cpu, m.threads, m.memory_mib, m.virtual_machine
    ))
}

/// The newest post per author and machine (newest first, as the cache
/// keeps them); posts without an author each count.
pub(super) fn newest_per_machine(
    posts: Vec<(&Discussion, ResultBlock)>,
) -> Vec<(&Discussion, ResultBlock)> {
    let mut seen = std::collections::HashSet::new();
    posts
        .into_iter()
        .filter(|(d, block)| machine_key(d, block).is_none_or(|key| seen.insert(key)))
        .collect()
}

/// The unit a claim's numbers are read in, and the scale from a verdict's
/// numbers to it (a spread's fractions are percentages).
fn unit_and_scale(claim: &Claim, recipe: &Recipe) -> (String, f64) {
    match &claim.shape {
        ClaimShape::Ratio { .. } => ("×".into(), 1.0),
        ClaimShape::Spread { .. } => ("%".into(), 100.0),
        ClaimShape::Absolute { figure } => (
            recipe
                .figure(figure)
                .map_or("", |f| f.metric.unit())
                .to_string(),
            1.0,
        ),
        ClaimShape::Ordering { order } => (
            order
                .first()
                .and_then(|f| recipe.figure(f))
                .map_or("", |f| f.metric.unit())
                .to_string(),
            1.0,
        ),
    }
}

/// The published number and the band it accepts, in the claim's unit.
fn published_band(claim: &Claim, recipe: &Recipe, scale: f64) -> (Option<f64>, Option<[f64; 2]>) {
    let tolerance = claim.tolerance.unwrap_or(0.0);
    let widen = |low: f64, high: f64| {
        [
            low * (1.0 - tolerance) * scale,
            high * (1.0 + tolerance) * scale,
        ]
    };
    match &claim.shape {
        ClaimShape::Ratio { value, .. } | ClaimShape::Spread { value, .. } => {
            (Some(value * scale), Some(widen(*value, *value)))
        }
        ClaimShape::Absolute { figure } => match recipe.figure(figure) {
            Some(f) => match (f.value, f.range) {
                (Some(v), _) => (Some(v), Some(widen(v, v))),
                (None, Some([low, high])) => (Some((low + high) / 2.0), Some(widen(low, high))),
                _ => (None, None),
            },
            None => (None, None),
        },
        ClaimShape::Ordering { .. } => (None, None),
    }
}

/// An interval as both front ends read it: `1.98× (1.95–2.01)`, or `—`.
fn reading(measured: Option<Interval>, unit: &str) -> String {
    measured.map_or("—".into(), |m| {
        interval_text(m.estimate, m.low, m.high, unit)
    })
}

/// `claim` among the counted posts, with this machine's run placed.
pub(super) fn claim_among(
    claim: &Claim,
    recipe: &Recipe,
    counted: &[(&Discussion, ResultBlock)],
    this_run: Option<&ResultBlock>,
    shared_as: Option<u64>,
    url: impl Fn(u64) -> String,
) -> ClaimAmong {
    let (unit, scale) = unit_and_scale(claim, recipe);
    let (published, band) = published_band(claim, recipe, scale);
    let mut points = Vec::new();
    for (discussion, block) in counted {
        let Some(said) = block.claims.iter().find(|c| c.id == claim.id.as_str()) else {
            continue;
        };
        let m = &block.machine;
        points.push(Point {
            number: discussion.number,
            url: url(discussion.number),
            author: discussion.author.clone(),
            cpu: m.cpu.clone().unwrap_or_else(|| "unknown CPU".into()),
            vendor: m.vendor.clone(),
            virtual_machine: m.virtual_machine,
            hypervisor: m.hypervisor.clone(),
            outcome: said.outcome,
            answer: answer(said.outcome),
            measured: said.measured.as_ref().map(|e| interval_of(e, scale)),
            reading: reading(said.measured.as_ref().map(|e| interval_of(e, scale)), &unit),
            this_machine: Some(discussion.number) == shared_as,
        });
    }
    let count = |points: &[&Point], a: Answer| points.iter().filter(|p| p.answer == a).count();
    let all: Vec<&Point> = points.iter().collect();
    let mut cpus: Vec<String> = points.iter().map(|p| p.cpu.clone()).collect();
    cpus.sort();
    cpus.dedup();
    let mut by_cpu: Vec<CpuTally> = cpus
        .into_iter()
        .map(|cpu| {
            let of: Vec<&Point> = points.iter().filter(|p| p.cpu == cpu).collect();
            CpuTally {
                reproduced: count(&of, Answer::Reproduced),
                not_reproduced: count(&of, Answer::NotReproduced),
                could_not_say: count(&of, Answer::CouldNotSay),
                cpu,
            }
        })
        .collect();
    by_cpu.sort_by_key(|t| std::cmp::Reverse(t.reproduced + t.not_reproduced + t.could_not_say));
    let this_machine = this_run
        .and_then(|block| block.claims.iter().find(|c| c.id == claim.id.as_str()))
        .map(|mine| {
            let measured = mine.measured.as_ref().map(|e| interval_of(e, scale));
            let others: Vec<f64> = points
                .iter()
                .filter(|p| !p.this_machine)
                .filter_map(|p| p.measured.map(|m| m.estimate))
                .collect();
            let estimate = measured.map(|m| m.estimate);
            let mut placed = AmongOthers {
                outcome: mine.outcome,
                answer: answer(mine.outcome),
                reading: reading(measured, &unit),
                higher_than: estimate.map_or(0, |e| others.iter().filter(|o| **o < e).count()),
                lower_than: estimate.map_or(0, |e| others.iter().filter(|o| **o > e).count()),
                of: others.len(),
                measured,
                words: String::new(),
            };
            placed.words = placed.words();
            placed
        });
    ClaimAmong {
        claim: claim.id.to_string(),
        kind: claim.shape.kind(),
        quote: claim.quote.clone(),
        band_reading: band.map(|[low, high]| range(low, high, &unit)),
        reproduced: count(&all, Answer::Reproduced),
        not_reproduced: count(&all, Answer::NotReproduced),
        could_not_say: count(&all, Answer::CouldNotSay),
        unit,
        published,
        band,
        by_cpu,
        points,
        this_machine,
    }
}
