//! Whether the machine that measured matches a recipe's reference
//! machine, by the preflight's rule: absolute figures are judged only where
//! it does. The run's stopping rule and the session's judging both ask here.

use reprise_probe::Fingerprint;
use reprise_recipe::Recipe;
use reprise_verdict::{MachineDifference, MachineMatch};

/// Whether this machine matches the recipe's reference machine, by the
/// preflight's rule: absolute figures are judged only where it does.
pub fn machine_match(recipe: &Recipe, fingerprint: &Fingerprint) -> MachineMatch {
    let Some(machine) = &recipe.machine else {
        return MachineMatch::Differs(vec![MachineDifference::not_compared(
            "the recipe names no reference machine",
        )]);
    };
    let differences: Vec<MachineDifference> =
        reprise_probe::preflight::machine_items(machine, fingerprint)
            .into_iter()
            .filter(|item| item.verdict != reprise_probe::preflight::Verdict::Matches)
            .map(|item| MachineDifference::Item {
                item: item.name.to_string(),
                here: item.here,
                post: item.reference,
            })
            .collect();
    match differences.is_empty() {
        true => MachineMatch::Matches,
        false => MachineMatch::Differs(differences),
    }
}
