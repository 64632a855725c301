//! Counting everyone's results claim by claim: one post per author and
//! recipe version (the newest), each machine's answer (reproduced, not reproduced,
//! could not say) and interval, the counts by CPU model, and where this
//! machine's run falls among the others.

use reprise_recipe::reading::{interval as interval_text, range};
use std::collections::HashSet;

use reprise_recipe::{Claim, ClaimKind, Recipe};
use reprise_report::ResultBlock;
use reprise_share::community::{Discussion, published_band, unit_and_scale};
use reprise_verdict::{Interval, Outcome};
use serde::Serialize;
use ts_rs::TS;

use super::{Reproduction, interval_of, reproduction_of};

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
    pub answer: Reproduction,
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
    pub answer: Reproduction,
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
    /// other machines` (the counts that are not zero); only the outcome
    /// where the claim has no interval.
    pub fn words(&self) -> String {
        let among = match (self.measured, self.of) {
            (None, _) => return self.outcome.to_string(),
            (Some(_), 0) => ": no other machine measured it".into(),
            (Some(_), of) => {
                let level = of - self.higher_than - self.lower_than;
                let parts: Vec<String> = [
                    ("higher than", self.higher_than),
                    ("lower than", self.lower_than),
                    ("level with", level),
                ]
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(said, n)| format!("{said} {n}"))
                .collect();
                let parts = match parts.as_slice() {
                    [.., last] if parts.len() > 1 => {
                        format!("{} and {last}", parts[..parts.len() - 1].join(", "))
                    }
                    _ => parts.join(""),
                };
                format!(
                    ": {parts} of {of} other machine{}",
                    if of == 1 { "" } else { "s" }
                )
            }
        };
        format!("{}, {}{among}", self.outcome, self.reading)
    }
}

/// One counted result per author and recipe version: the newest (posts
/// come newest first, as the cache keeps them) — fifty posts by one login
/// with fifty `machine` values are one result. A post without an author (a
/// deleted account) cannot be told from another by who made it: it counts
/// only where both its machine and its numbers differ from every
/// author-less post counted before it ([`same_numbers`]: within 1% each), so
/// copies of one are one, whatever one field of the machine or the last
/// digits of the numbers say.
pub(super) fn one_per_author(
    posts: Vec<(&Discussion, ResultBlock)>,
) -> Vec<(&Discussion, ResultBlock)> {
    let mut authors = HashSet::new();
    let mut machines = HashSet::new();
    let mut numbers: Vec<Vec<f64>> = Vec::new();
    posts
        .into_iter()
        .filter(|(d, block)| match &d.author {
            Some(author) => {
                authors.insert((author.to_ascii_lowercase(), block.recipe_sha256.clone()))
            }
            None => {
                let (machine, said) = (machine_of(block), numbers_of(block));
                let new = !machines.contains(&machine)
                    && !numbers.iter().any(|counted| same_numbers(counted, &said));
                if new {
                    machines.insert(machine);
                    numbers.push(said);
                }
                new
            }
        })
        .collect()
}

/// Whether two posts' numbers are one result's: as many, each within 1% of
/// the other's. Two machines' own runs differ by more than that in some
/// figure (run-to-run noise alone is more); a copy nudged is within it.
fn same_numbers(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 0.01 * x.abs().max(y.abs()))
}

/// A machine as a post describes it, its texts as a reader sees them (no
/// escapes of what prints as nothing, no spaces, one case).
fn machine_of(block: &ResultBlock) -> String {
    let mut machine = block.machine.clone();
    for text in [
        &mut machine.cpu,
        &mut machine.vendor,
        &mut machine.governor,
        &mut machine.os,
        &mut machine.kernel,
        &mut machine.arch,
        &mut machine.hypervisor,
    ]
    .into_iter()
    .flatten()
    {
        *text = seen(text);
    }
    serde_json::to_string(&machine).unwrap_or_default()
}

/// Text as it reads: without the `\u{…}` escapes a post's texts carry for
/// what would act on a terminal or print as nothing, without white space,
/// in lower case.
fn seen(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        match rest[at..].find('}') {
            Some(end) => rest = &rest[at + end + 1..],
            None => {
                rest = &rest[at..];
                break;
            }
        }
    }
    out.push_str(rest);
    out.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A post's numbers: every claim's interval and every cell's median and
/// interval.
fn numbers_of(block: &ResultBlock) -> Vec<f64> {
    let claims = block
        .claims
        .iter()
        .flat_map(|c| c.measured.iter().flat_map(|m| [m.estimate, m.low, m.high]));
    let cells = block
        .cells
        .iter()
        .flat_map(|c| c.median.into_iter().chain(c.interval.into_iter().flatten()));
    claims.chain(cells).collect()
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
    let (published, band) = published_band(claim, recipe);
    let (published, band) = (
        published.map(|p| p * scale),
        band.map(|[low, high]| [low * scale, high * scale]),
    );
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
            answer: reproduction_of(said.outcome),
            measured: said.measured.as_ref().map(|e| interval_of(e, scale)),
            reading: reading(said.measured.as_ref().map(|e| interval_of(e, scale)), &unit),
            this_machine: Some(discussion.number) == shared_as,
        });
    }
    let count =
        |points: &[&Point], a: Reproduction| points.iter().filter(|p| p.answer == a).count();
    let all: Vec<&Point> = points.iter().collect();
    let mut cpus: Vec<String> = points.iter().map(|p| p.cpu.clone()).collect();
    cpus.sort();
    cpus.dedup();
    let mut by_cpu: Vec<CpuTally> = cpus
        .into_iter()
        .map(|cpu| {
            let of: Vec<&Point> = points.iter().filter(|p| p.cpu == cpu).collect();
            CpuTally {
                reproduced: count(&of, Reproduction::Reproduced),
                not_reproduced: count(&of, Reproduction::NotReproduced),
                could_not_say: count(&of, Reproduction::CouldNotSay),
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
                answer: reproduction_of(mine.outcome),
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
        reproduced: count(&all, Reproduction::Reproduced),
        not_reproduced: count(&all, Reproduction::NotReproduced),
        could_not_say: count(&all, Reproduction::CouldNotSay),
        unit,
        published,
        band,
        by_cpu,
        points,
        this_machine,
    }
}
