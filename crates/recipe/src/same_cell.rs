//! No claim compares a cell with itself: a ratio or an ordering whose
//! figures read the same lane, endpoint and metric would be judged on one
//! set of runs against itself (a ratio of exactly 1×), whatever the figures'
//! conditions say.

use crate::claim::ClaimShape;
use crate::diagnostic::Problem;
use crate::model::{Figure, Recipe};
use crate::name::Name;

/// Refuses every ratio or ordering two of whose figures read one cell,
/// pointing at the later of the two in the claim. Figures of a lane the
/// recipe cannot run read no cell (their claims are "not measured"), so
/// they may share one.
pub(crate) fn check(recipe: &Recipe, p: &mut Vec<Problem>) {
    let figure = |id: &Name| recipe.figures.iter().find(|f| f.id == *id);
    for claim in &recipe.claims {
        let compared: Vec<&Name> = match &claim.shape {
            ClaimShape::Ratio {
                numerator,
                denominator,
                ..
            } => vec![numerator, denominator],
            ClaimShape::Ordering { order } => order.iter().collect(),
            ClaimShape::Absolute { .. } | ClaimShape::Spread { .. } => continue,
        };
        for (i, later) in compared.iter().enumerate() {
            let Some(b) = figure(later) else { continue };
            let same = compared[..i]
                .iter()
                .filter_map(|earlier| figure(earlier))
                .find(|a| reads_a_cell(recipe, a) && same_cell(a, b));
            if let Some(a) = same {
                p.push(Problem::new(
                    later.span(),
                    format!(
                        "claim `{}` compares `{}` with `{}`, but both read one cell ({}): the claim would compare a cell with itself",
                        claim.id,
                        a.id,
                        b.id,
                        cell(a)
                    ),
                    Some(
                        "figures of different cells: another lane, endpoint or metric; or, where this recipe does not measure them, figures of a lane with `not_runnable` (published only)"
                            .into(),
                    ),
                ));
            }
        }
    }
}

/// Whether a run of this recipe can measure the figure at all.
fn reads_a_cell(recipe: &Recipe, figure: &Figure) -> bool {
    recipe
        .lane(&figure.lane)
        .is_none_or(|lane| lane.not_runnable.is_none())
}

fn same_cell(a: &Figure, b: &Figure) -> bool {
    a.lane == b.lane && a.endpoint == b.endpoint && a.metric == b.metric
}

/// The cell as a reader finds it: `lane nginx-loopback, endpoint /, req_per_s`.
fn cell(f: &Figure) -> String {
    match &f.endpoint {
        Some(e) => format!("lane {}, endpoint {e}, {}", f.lane, f.metric.name()),
        None => format!("lane {}, {}", f.lane, f.metric.name()),
    }
}
