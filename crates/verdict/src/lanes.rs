//! Naming the harness's lanes as the recipe does. The original harness
//! names a cell by its `target` (ruby, jruby, …) and `workers`; a recipe
//! names each shape (`ruby`, `ruby-1p`) and says which harness cells are
//! whose: a lane's `harness = { target, workers }`, or else its own name
//! and workers. Nothing is inferred from names that merely look alike.

use std::collections::BTreeMap;

use reprise_recipe::Recipe;

use crate::measurements::{LaneSkip, Measurements};

/// The recipe lane whose harness name fits `target` and `workers`, if
/// exactly one does.
fn recipe_lane<'a>(recipe: &'a Recipe, target: &str, workers: Option<u32>) -> Option<&'a str> {
    let fits: Vec<&str> = recipe
        .lanes
        .iter()
        .filter(|l| l.harness_name().fits(target, workers))
        .map(|l| l.name.as_str())
        .collect();
    match fits.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// The recipe lane a harness file's `target` names, where it has no
/// `workers` beside it (`coldstart.json`): the lane of that name, else the
/// one lane whose harness name has that target.
pub fn lane_of_target<'a>(recipe: &'a Recipe, target: &str) -> Option<&'a str> {
    recipe
        .lane(target)
        .map(|l| l.name.as_str())
        .or_else(|| recipe_lane(recipe, target, None))
}

/// Names the lanes in [`Measurements::not_measured`] as the recipe does: a
/// key that is a recipe lane's name stays; else it is a harness target and
/// stands for every recipe lane whose harness name has that target (a
/// skipped `falcon` is every Falcon lane); else it keeps its name. A lane
/// keeps each reason once.
pub fn align_not_measured(measurements: &mut Measurements, recipe: &Recipe) {
    let mut aligned: BTreeMap<String, Vec<LaneSkip>> = BTreeMap::new();
    for (name, skips) in std::mem::take(&mut measurements.not_measured) {
        let mut lanes: Vec<String> = if recipe.lane(&name).is_some() {
            vec![name.clone()]
        } else {
            recipe
                .lanes
                .iter()
                .filter(|l| l.harness_name().target == name)
                .map(|l| l.name.to_string())
                .collect()
        };
        if lanes.is_empty() {
            lanes.push(name);
        }
        for lane in lanes {
            let known = aligned.entry(lane).or_default();
            for skip in &skips {
                if !known.contains(skip) {
                    known.push(skip.clone());
                }
            }
        }
    }
    measurements.not_measured = aligned;
}

/// Renames the measurements' lanes to the recipe's: each measured lane
/// (a harness target and its workers) becomes the one recipe lane whose
/// harness name it is. A lane that fits none, or several, keeps its name.
/// The lanes the run did not measure are named the same way (see
/// [`align_not_measured`]).
/// Returns the renames made, harness name → recipe name.
pub fn align_lanes(measurements: &mut Measurements, recipe: &Recipe) -> BTreeMap<String, String> {
    align_not_measured(measurements, recipe);
    let mut renames = BTreeMap::new();
    for (name, info) in &measurements.lanes {
        if let Some(to) = recipe_lane(recipe, &info.target, info.workers)
            && to != name
        {
            renames.insert(name.clone(), to.to_string());
        }
    }
    // Two measured lanes must not land on one name: not two renamed onto
    // one recipe lane, nor one renamed onto a lane that keeps its name.
    loop {
        let mut landing: BTreeMap<&str, usize> = BTreeMap::new();
        for name in measurements.lanes.keys() {
            *landing
                .entry(renames.get(name).unwrap_or(name).as_str())
                .or_default() += 1;
        }
        let doubled: Vec<String> = landing
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(to, _)| to.to_string())
            .collect();
        let before = renames.len();
        renames.retain(|_, to| !doubled.contains(to));
        if renames.len() == before {
            break;
        }
    }
    let new_name = |lane: &str| {
        renames
            .get(lane)
            .cloned()
            .unwrap_or_else(|| lane.to_string())
    };
    measurements.lanes = std::mem::take(&mut measurements.lanes)
        .into_iter()
        .map(|(name, info)| (new_name(&name), info))
        .collect();
    for cell in &mut measurements.cells {
        cell.key.lane = new_name(&cell.key.lane);
    }
    for p in &mut measurements.parity {
        p.lane = new_name(&p.lane);
    }
    if let Some(reference) = &mut measurements.reference_lane {
        *reference = new_name(reference);
    }
    renames
}
