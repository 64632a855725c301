//! What a measuring step of the repository's hello-ceiling recipe will do
//! and about how long it takes, as the plan says it, for a full run and for
//! a quick one.

use std::path::Path;

use reprise_engine::{PlanOptions, plan};

fn hello() -> reprise_recipe::Recipe {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes/hello-ceiling.toml");
    reprise_recipe::load(&root).unwrap()
}

#[test]
fn the_load_step_says_its_cells_runs_and_time_as_the_recipe_has_them() {
    let recipe = hello();
    let plan = plan(&recipe, &PlanOptions::default()).unwrap();
    let measure = plan.steps.iter().find(|s| s.id() == "measure").unwrap();
    let full = plan.expected(measure, false).unwrap();
    // puma, falcon, nginx × / × 3 runs of 20 s, each run after its lane's
    // warm-up of the route: (5 + 5 + 2 s) × 3.
    assert_eq!((full.lanes, full.cells, full.runs), (3, 9, 3));
    assert_eq!(full.cell_seconds, 20.0);
    assert_eq!(full.warmup_seconds, 36.0);
    assert_eq!(full.seconds, 216.0);
    assert_eq!(
        full.summary,
        "3 lanes × 1 endpoint × 3 runs of 20 s, each after its lane's warm-up (36 s in all): \
         about 3 min 36 s"
    );
    assert!(!full.quick);
}

#[test]
fn a_quick_run_says_the_runs_it_actually_does() {
    let recipe = hello();
    let plan = plan(&recipe, &PlanOptions::default()).unwrap();
    let measure = plan.steps.iter().find(|s| s.id() == "measure").unwrap();
    let quick = plan.expected(measure, true).unwrap();
    assert_eq!((quick.cells, quick.runs), (6, 2));
    assert_eq!(quick.cell_seconds, 2.0);
    assert_eq!(quick.warmup_seconds, 6.0);
    assert_eq!(quick.seconds, 18.0);
    assert_eq!(
        quick.summary,
        "3 lanes × 1 endpoint × 2 runs of 2 s (quick: the recipe's 3 runs of 20 s), \
         each after a warm-up of 1 s (6 s in all): about 18 s"
    );
    assert!(!quick.summary.contains("(s)"));
}

#[test]
fn only_the_lanes_chosen_count_and_other_steps_expect_nothing() {
    let recipe = hello();
    let options = PlanOptions {
        lanes: vec!["puma".into()],
        ..PlanOptions::default()
    };
    let plan = plan(&recipe, &options).unwrap();
    let measure = plan.steps.iter().find(|s| s.id() == "measure").unwrap();
    let one = plan.expected(measure, false).unwrap();
    assert_eq!((one.lanes, one.cells), (1, 3));
    assert!(
        one.summary
            .starts_with("1 lane × 1 endpoint × 3 runs of 20 s")
    );
    let serve = plan.steps.iter().find(|s| s.id() == "serve").unwrap();
    assert_eq!(plan.expected(serve, false), None);
    assert_eq!(
        serve.describe(&recipe),
        "boot each lane once until it answers"
    );
}

#[test]
fn only_the_lanes_that_run_here_are_expected_and_the_others_are_named() {
    let recipe = hello();
    let mut plan = plan(&recipe, &PlanOptions::default()).unwrap();
    plan.lanes_here = Some(vec!["puma".into()]);
    let measure = plan.steps.iter().find(|s| s.id() == "measure").unwrap();
    let here = plan.expected(measure, false).unwrap();
    // puma only: 1 lane × 1 endpoint × 3 runs of 20 s, each after 5 s of warm-up.
    assert_eq!((here.lanes, here.cells), (1, 3));
    assert_eq!(here.seconds, 75.0);
    assert_eq!(
        here.summary,
        "1 lane × 1 endpoint × 3 runs of 20 s, each after a warm-up of 5 s (15 s in all): about 1 min 15 s \
         (falcon, nginx cannot run here)"
    );
}
