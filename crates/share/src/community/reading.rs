//! The one place a stranger's result is read: [`read_result`] takes what a
//! discussion's body held and the recipe a reader asks about, and answers
//! whether the post is counted or kept apart, and why. Every consumer (the
//! session's view, so both front ends) reads posts through it.
//!
//! In order: the block is parsed and checked ([`super::read`]: sizes,
//! counts, every number finite and in range, every id an id, texts
//! escaped); it must be of this recipe, of its reviewed bytes, judge only
//! claims the recipe makes, and be a measurement ([`super::standing`]);
//! and every outcome it states must be one its own numbers come to
//! against this recipe's band ([`disagreements`]) — a post is never
//! counted as what it says, only as what its numbers say.

use reprise_recipe::reading::{range, value};
use reprise_recipe::{Claim, ClaimShape, Recipe};
use reprise_report::{BlockCell, BlockClaim, ResultBlock};
use reprise_verdict::{Interval, LEVEL_BAND, Outcome, placed};

use super::posts::{Found, Unreadable, read};
use super::{Standing, standing};

/// What a post of a recipe comes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading {
    /// Counted: a measurement of this recipe's reviewed version whose every
    /// stated outcome its own numbers bear out (texts escaped).
    Counted(Box<ResultBlock>),
    /// Kept apart: why, as a kind and in words.
    Apart { why: Why, words: String },
}

/// Why a post is kept apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Malformed,
    OtherSchema,
    SeveralBlocks,
    TooLarge,
    /// Of other bytes of the recipe than the reviewed ones here.
    OtherVersion,
    SmokeRun,
    /// Judges claims the reviewed recipe does not make.
    UnknownClaims,
    /// States an outcome its own numbers do not come to.
    Disagrees,
}

/// A post's result read against `recipe` (whose reviewed digest here is
/// `reviewed_sha256`); `None` for a discussion without a result block or
/// with another recipe's.
pub fn read_result(
    found: &Found,
    recipe: &Recipe,
    reviewed_sha256: Option<&str>,
) -> Option<Reading> {
    let apart = |why, words: String| Some(Reading::Apart { why, words });
    let block = match read(found)? {
        Ok(block) => block,
        // Another recipe's malformed post is still a malformed post: it
        // cannot say whose it is.
        Err(unreadable) => {
            let why = match unreadable {
                Unreadable::Malformed(_) => Why::Malformed,
                Unreadable::OtherSchema(_) => Why::OtherSchema,
                Unreadable::Several => Why::SeveralBlocks,
                Unreadable::TooLarge => Why::TooLarge,
            };
            return apart(why, unreadable.describe());
        }
    };
    let claims: Vec<&str> = recipe.claims.iter().map(|c| c.id.as_str()).collect();
    match standing(&block, recipe.id(), reviewed_sha256, &claims) {
        Standing::Counted => {}
        Standing::OtherRecipe => return None,
        Standing::OtherVersion {
            sha256,
            reviewed_there,
        } => {
            return apart(
                Why::OtherVersion,
                other_version_words(sha256.as_deref(), reviewed_there),
            );
        }
        Standing::SmokeRun => {
            return apart(
                Why::SmokeRun,
                "a smoke run (--quick): not a measurement".into(),
            );
        }
        Standing::UnknownClaims { claims } => {
            return apart(
                Why::UnknownClaims,
                format!(
                    "says it ran the reviewed recipe, yet judges claims it does not make ({})",
                    claims.join(", ")
                ),
            );
        }
    }
    let disagree = disagreements(&block, recipe);
    if !disagree.is_empty() {
        return apart(
            Why::Disagrees,
            format!(
                "states outcomes its own numbers do not come to: {}",
                disagree.join("; ")
            ),
        );
    }
    Some(Reading::Counted(Box::new(block)))
}

fn other_version_words(sha256: Option<&str>, reviewed_there: bool) -> String {
    match sha256 {
        None => "a version of the recipe it did not record".into(),
        Some(sha) => format!(
            "another version of the recipe (SHA-256 {}…, {} where it ran)",
            &sha[..12.min(sha.len())],
            if reviewed_there {
                "the reviewed one"
            } else {
                "not the reviewed one"
            }
        ),
    }
}

/// The published number a claim of `recipe` asserts and the band it
/// accepts (the number widened by the claim's tolerance; a range's ends
/// for a figure published as a range), in the verdict's units (a spread's
/// as a fraction), as the verdict draws them. Orderings have neither.
pub fn published_band(claim: &Claim, recipe: &Recipe) -> (Option<f64>, Option<[f64; 2]>) {
    let tolerance = claim.tolerance.unwrap_or(0.0);
    let widen = |low: f64, high: f64| [low * (1.0 - tolerance), high * (1.0 + tolerance)];
    match &claim.shape {
        ClaimShape::Ratio { value, .. } | ClaimShape::Spread { value, .. } => {
            (Some(*value), Some(widen(*value, *value)))
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

/// Each claim of `block` whose stated outcome its own numbers do not come
/// to against `recipe`, in words. Only a decision is checked: a post that
/// says reproduced or not reproduced must carry the numbers that decide it
/// so; one that says it could not say (inconclusive, no data, not measured,
/// not comparable) claims nothing a reader counts either way, and a gate
/// may withhold a decision an interval alone would make (a run at its
/// load generator's cap, a lane below its ceiling).
///
/// A claim with a band (ratio, spread, absolute figure) is placed by its
/// stated interval against this recipe's band — never the post's own band,
/// kind or unit. An ordering has no band: its cells' medians, in the
/// recipe's order, must put each pair the published way round for
/// `reproduced`, and must not put every pair clearly apart (past the level
/// band) for `not reproduced`.
pub fn disagreements(block: &ResultBlock, recipe: &Recipe) -> Vec<String> {
    let mut out = Vec::new();
    if block.machine_matches_post
        && let Some(unlike) = unlike_the_posts(block, recipe)
    {
        out.push(format!("says its machine is the post's, yet {unlike}"));
    }
    for said in &block.claims {
        if !matches!(said.outcome, Outcome::Reproduced | Outcome::NotReproduced) {
            continue;
        }
        let Some(claim) = recipe.claims.iter().find(|c| c.id.as_str() == said.id) else {
            continue;
        };
        if let Some(why) = disagreement(said, claim, recipe, &block.cells) {
            out.push(format!("{}: says {}, {why}", said.id, said.outcome));
        } else if matches!(claim.shape, ClaimShape::Absolute { .. }) && !block.machine_matches_post
        {
            out.push(format!(
                "{}: says {}, yet its machine is not the post's, the only one an absolute figure is judged on",
                said.id, said.outcome
            ));
        }
    }
    out
}

/// How the block's machine is unlike the recipe's, by what the block says
/// of it: its CPU and its count of hardware threads.
fn unlike_the_posts(block: &ResultBlock, recipe: &Recipe) -> Option<String> {
    let post = recipe.machine.as_ref()?;
    let here = &block.machine;
    if let Some(cpu) = here.cpu.as_deref().filter(|cpu| !post.is_cpu(cpu)) {
        return Some(format!("its CPU is the {cpu}, the post's the {}", post.cpu));
    }
    match (post.threads, here.threads) {
        (Some(theirs), Some(ours)) if theirs != ours => Some(format!(
            "it has {ours} hardware threads, the post's {theirs}"
        )),
        _ => None,
    }
}

fn disagreement(
    said: &BlockClaim,
    claim: &Claim,
    recipe: &Recipe,
    cells: &[BlockCell],
) -> Option<String> {
    if let ClaimShape::Ordering { order } = &claim.shape {
        return ordering_disagreement(said.outcome, claim, order, recipe, cells);
    }
    let (_, band) = published_band(claim, recipe);
    let Some(band) = band else {
        return Some("yet the recipe publishes no number to judge it against".into());
    };
    let Some(m) = said.measured else {
        return Some("yet gives no measured interval".into());
    };
    let interval = Interval {
        estimate: m.estimate,
        low: m.low,
        high: m.high,
    };
    let (unit, scale) = unit_and_scale(claim, recipe);
    if !(m.low <= m.estimate && m.estimate <= m.high) {
        return Some(format!(
            "yet its estimate {} lies outside its own interval {}",
            range(m.estimate * scale, m.estimate * scale, &unit),
            range(m.low * scale, m.high * scale, &unit)
        ));
    }
    let comes_to = placed(&interval, band);
    if comes_to != said.outcome {
        return Some(format!(
            "yet its interval {} against this recipe's band {} is {}",
            range(m.low * scale, m.high * scale, &unit),
            range(band[0] * scale, band[1] * scale, &unit),
            comes_to
        ));
    }
    medians_disagree(claim, recipe, cells, &m)
}

/// Where a ratio's own cells' medians give a ratio its interval cannot hold.
/// The interval is the verdict's: of the rounds' ratios, or per CPU-second
/// on a busy machine, which puts back at most the half of a lane's CPU that
/// other work may take before no claim is decided. So the medians' ratio may
/// lie off the interval by up to twice, not more.
fn medians_disagree(
    claim: &Claim,
    recipe: &Recipe,
    cells: &[BlockCell],
    m: &reprise_report::Estimate,
) -> Option<String> {
    let ClaimShape::Ratio {
        numerator,
        denominator,
        ..
    } = &claim.shape
    else {
        return None;
    };
    let median = |id| cell_of(recipe.figure(id)?, cells)?.median;
    let (top, bottom) = (median(numerator)?, median(denominator)?);
    if bottom <= 0.0 {
        return None;
    }
    let ratio = top / bottom;
    (ratio < m.low / 2.0 || ratio > m.high * 2.0).then(|| {
        format!(
            "yet its own cells' medians give {}, far outside its interval {}",
            value(ratio, "×"),
            range(m.low, m.high, "×")
        )
    })
}

/// The unit a claim's numbers are read in, and the scale from a verdict's
/// numbers to it (a spread's fractions are percentages).
pub fn unit_and_scale(claim: &Claim, recipe: &Recipe) -> (String, f64) {
    let unit_of = |figure: Option<&reprise_recipe::Name>| {
        figure
            .and_then(|f| recipe.figure(f))
            .map_or("", |f| f.metric.unit())
            .to_string()
    };
    match &claim.shape {
        ClaimShape::Ratio { .. } => ("×".into(), 1.0),
        ClaimShape::Spread { .. } => ("%".into(), 100.0),
        ClaimShape::Absolute { figure } => (unit_of(Some(figure)), 1.0),
        ClaimShape::Ordering { order } => (unit_of(order.first()), 1.0),
    }
}

fn ordering_disagreement(
    outcome: Outcome,
    claim: &Claim,
    order: &[reprise_recipe::Name],
    recipe: &Recipe,
    cells: &[BlockCell],
) -> Option<String> {
    let mut medians = Vec::new();
    let mut intervals = Vec::new();
    for id in order {
        let cell = recipe.figure(id).and_then(|figure| cell_of(figure, cells));
        match cell.and_then(|cell| cell.median) {
            Some(m) => medians.push(m),
            None => return Some(format!("yet gives no median for {id}")),
        }
        intervals.push(cell.and_then(|cell| cell.interval));
    }
    // Two medians each inside the other's interval are not told apart: the
    // verdict's interval of their ratio, which holds both cells' spread,
    // then holds one, and it calls a pair apart only where it does not.
    let within = |i: usize| match (intervals[i], intervals[i + 1]) {
        (Some([a_low, a_high]), Some([b_low, b_high])) => {
            (b_low..=b_high).contains(&medians[i]) && (a_low..=a_high).contains(&medians[i + 1])
        }
        _ => false,
    };
    if outcome == Outcome::Reproduced && (0..medians.len().saturating_sub(1)).any(within) {
        return Some("yet its medians lie inside each other's intervals: not told apart".into());
    }
    let higher_first = recipe
        .figure(&order[0])
        .and_then(|f| f.metric.higher_is_better())
        .unwrap_or(true);
    // Each pair's ratio, above one where it is in the published order.
    let ratios: Vec<f64> = medians
        .windows(2)
        .map(|pair| {
            let (a, b) = if higher_first {
                (pair[0], pair[1])
            } else {
                (pair[1], pair[0])
            };
            if b > 0.0 {
                a / b
            } else if a > 0.0 {
                f64::INFINITY
            } else {
                1.0
            }
        })
        .collect();
    let level = 1.0 + claim.tolerance.unwrap_or(LEVEL_BAND);
    match outcome {
        Outcome::Reproduced if ratios.iter().any(|r| *r <= 1.0) => {
            Some("yet its medians put them the other way round (or level)".into())
        }
        Outcome::NotReproduced if ratios.iter().all(|r| *r > level) => Some(format!(
            "yet its medians put each pair in the published order, more than {}% apart",
            reprise_recipe::reading::number((level - 1.0) * 100.0)
        )),
        _ => None,
    }
}

/// The cell of a post's that measured `figure`: its lane and metric (a
/// memory figure's by RSS too), its endpoint; for a figure without one,
/// the lane's cell without an endpoint, else its only cell of that metric.
fn cell_of<'a>(figure: &reprise_recipe::Figure, cells: &'a [BlockCell]) -> Option<&'a BlockCell> {
    let metrics: &[&str] = match figure.metric {
        reprise_recipe::Metric::MemoryMb => &["memory_mb", "rss_mb"],
        other => &[other.name()],
    };
    metrics.iter().find_map(|metric| {
        let mut candidates = cells
            .iter()
            .filter(|c| c.lane == figure.lane.as_str() && c.metric == *metric);
        match &figure.endpoint {
            Some(e) => candidates.find(|c| c.endpoint.as_deref() == Some(e.as_str())),
            None => {
                let all: Vec<&BlockCell> = candidates.collect();
                match all.as_slice() {
                    [one] => Some(*one),
                    many => many.iter().copied().find(|c| c.endpoint.is_none()),
                }
            }
        }
    })
}
