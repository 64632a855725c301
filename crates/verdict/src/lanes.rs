//! Naming the harness's lanes as the recipe does. The original harness
//! names a lane by its `target` (ruby, jruby, …) and tells shapes apart by
//! `workers`; a recipe names each shape (`ruby`, `ruby-1p`). A published
//! run's cells are renamed to the recipe's lanes where the match is unique.

use std::collections::BTreeMap;

use reprise_recipe::Recipe;

use crate::measurements::Measurements;

/// The recipe lane a harness lane is, if exactly one fits: named as the
/// target (or the target and a suffix, `ruby-1p`) with the same workers.
fn recipe_lane<'a>(recipe: &'a Recipe, target: &str, workers: Option<u32>) -> Option<&'a str> {
    let fits: Vec<&str> = recipe
        .lanes
        .iter()
        .filter(|l| l.name.as_str() == target || l.name.starts_with(&format!("{target}-")))
        .filter(|l| workers.is_none() || l.workers.is_none() || l.workers == workers)
        .map(|l| l.name.as_str())
        .collect();
    match fits.as_slice() {
        [one] => Some(one),
        many => many.iter().copied().find(|n| *n == target),
    }
}

/// Renames the measurements' lanes to the recipe's where one fits; a lane
/// already named as in the recipe, or with no unique fit, keeps its name.
/// Returns the renames made, harness name → recipe name.
pub fn align_lanes(measurements: &mut Measurements, recipe: &Recipe) -> BTreeMap<String, String> {
    let mut renames = BTreeMap::new();
    for (name, info) in &measurements.lanes {
        if recipe.lane(name).is_some() {
            continue;
        }
        if let Some(to) = recipe_lane(recipe, &info.target, info.workers)
            && !measurements.lanes.contains_key(to)
        {
            renames.insert(name.clone(), to.to_string());
        }
    }
    // Two harness lanes must not land on one recipe lane.
    let mut taken: BTreeMap<&str, usize> = BTreeMap::new();
    for to in renames.values() {
        *taken.entry(to).or_default() += 1;
    }
    let doubled: Vec<String> = taken
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(to, _)| to.to_string())
        .collect();
    renames.retain(|_, to| !doubled.contains(to));
    for (from, to) in &renames {
        if let Some(info) = measurements.lanes.remove(from) {
            measurements.lanes.insert(to.clone(), info);
        }
        for cell in measurements
            .cells
            .iter_mut()
            .filter(|c| &c.key.lane == from)
        {
            cell.key.lane = to.clone();
        }
        for p in measurements.parity.iter_mut().filter(|p| &p.lane == from) {
            p.lane = to.clone();
        }
        if measurements.reference_lane.as_ref() == Some(from) {
            measurements.reference_lane = Some(to.clone());
        }
    }
    renames
}
