//! Figures a plain command step printed: a command step named like a lane
//! whose last output line is a JSON object leaves it in
//! `results/<step>.json`; its keys named like a metric (`seconds`, `count`,
//! `memory_mb`, …) become that lane's cells, one run each.

use std::path::Path;

use reprise_recipe::{Action, Metric, Recipe};
use reprise_verdict::{CellKey, LaneInfo, Measurements, Run};

/// The cells the recipe's command steps left in `results`.
pub fn command_measurements(recipe: &Recipe, results: &Path) -> Measurements {
    let mut m = Measurements::default();
    for step in &recipe.steps {
        if !matches!(step.action, Action::Command { .. }) || recipe.lane(&step.id).is_none() {
            continue;
        }
        let Some(figures) = std::fs::read(results.join(format!("{}.json", step.id)))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        else {
            continue;
        };
        for metric in Metric::ALL {
            if let Some(value) = figures.get(metric.name()).and_then(|v| v.as_f64()) {
                m.lanes
                    .entry(step.id.to_string())
                    .or_insert_with(|| LaneInfo {
                        target: step.id.to_string(),
                        ..LaneInfo::default()
                    });
                m.push_run(
                    CellKey::new(&step.id, None, metric),
                    Run {
                        run: 1,
                        value: Some(value),
                        errors: 0,
                        client_cpu: None,
                    },
                );
            }
        }
    }
    m
}
