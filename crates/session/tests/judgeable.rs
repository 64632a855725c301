//! What Reprise says a run here can judge, before the run, agrees with what
//! the run then judges: for every recipe in recipes/, a run in which every
//! lane the recipe can run measured every cell its figures read judges
//! exactly the claims the preflight's grouping said it would, on a machine
//! like the post's and on one unlike it.

use std::path::Path;

use reprise_probe::preflight::{Preflight, PublishedOnly, claims_here};
use reprise_verdict::{Cell, CellKey, MachineMatch, Measurements, Repetition, Settings, judge};

fn recipes() -> Vec<reprise_recipe::Recipe> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 8, "{paths:?}");
    paths
        .iter()
        .map(|p| reprise_recipe::load(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

/// A preflight in which every lane the recipe can run runs here.
fn every_lane_runs(recipe: &reprise_recipe::Recipe, like_the_posts: bool) -> Preflight {
    let (published_only, runnable): (Vec<_>, Vec<_>) =
        recipe.lanes.iter().partition(|l| l.not_runnable.is_some());
    Preflight {
        recipe: recipe.id().to_string(),
        items: Vec::new(),
        absolute_comparable: like_the_posts,
        runnable_lanes: runnable.iter().map(|l| l.name.to_string()).collect(),
        blocked_lanes: Vec::new(),
        published_only_lanes: published_only
            .iter()
            .map(|l| PublishedOnly {
                lane: l.name.to_string(),
                why: l.not_runnable.clone().unwrap_or_default(),
            })
            .collect(),
        version_commands: Vec::new(),
        versions_asked: true,
        claims: Default::default(),
    }
}

/// Every cell the recipe's figures read, on its runnable lanes, measured
/// five times without an error; each lane's numbers its own.
fn every_cell_measured(recipe: &reprise_recipe::Recipe) -> Measurements {
    let mut m = Measurements::default();
    for (i, figure) in recipe.figures.iter().enumerate() {
        let lane = recipe
            .lanes
            .iter()
            .find(|l| l.name == figure.lane)
            .unwrap_or_else(|| panic!("{}: figure {} names no lane", recipe.id(), figure.id));
        if lane.not_runnable.is_some() {
            continue;
        }
        let key = CellKey::new(&figure.lane, figure.endpoint.as_deref(), figure.metric);
        if m.cells.iter().any(|c| c.key == key) {
            continue;
        }
        let base = 100.0 * (1.0 + i as f64);
        m.cells.push(Cell {
            key,
            runs: (1..=5)
                .map(|run| Repetition {
                    run,
                    value: Some(base + f64::from(run)),
                    errors: 0,
                    client_cpu: None,
                    server_cpu: None,
                    first_attempt_taken: None,
                })
                .collect(),
        });
    }
    m
}

#[test]
fn the_claims_said_judgeable_before_a_run_are_the_claims_it_judges() {
    let mut disagree = Vec::new();
    let mut judgeable = 0;
    for recipe in recipes() {
        let measured = every_cell_measured(&recipe);
        for like_the_posts in [true, false] {
            let said: Vec<(String, bool, Option<String>)> =
                claims_here(&recipe, &every_lane_runs(&recipe, like_the_posts))
                    .into_iter()
                    .map(|c| (c.claim, c.judged, c.why.map(|w| w.to_string())))
                    .collect();
            judgeable += said.iter().filter(|(_, j, _)| *j).count();
            let machine = if like_the_posts {
                MachineMatch::Matches
            } else {
                MachineMatch::Differs(vec![reprise_verdict::MachineDifference::Item {
                    item: "cpu".into(),
                    here: Some("another".into()),
                    post: Some("a Ryzen 5 3600".into()),
                }])
            };
            let judged = judge(&recipe, &measured, &machine, &Settings::default());
            for (claim, judgeable, why) in &said {
                let verdict = judged.verdicts.iter().find(|v| &v.claim == claim).unwrap();
                if verdict.outcome.is_judged() != *judgeable {
                    disagree.push(format!(
                        "{} {claim} on a machine {}: said {}, judged {:?} ({})",
                        recipe.id(),
                        if like_the_posts {
                            "like the post's"
                        } else {
                            "unlike it"
                        },
                        why.as_deref().unwrap_or("judgeable"),
                        verdict.outcome,
                        verdict.reasoning()
                    ));
                }
            }
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    // The recipes make claims a run here can judge: the test compares something.
    assert!(judgeable > 50, "{judgeable}");
}
