//! One run is one run: a claim resting on a cell measured once has no
//! interval and says so; counts stopped at the recipe's own cap say that,
//! not which lane could make more.

use reprise_recipe::{Metric, Recipe};
use reprise_verdict::{
    CellKey, MachineMatch, Measurements, Outcome, Repetition, Settings, Why, judge,
};

const RECIPE: &str = r#"
[post]
id = "made"
title = "Made"
author = "Test"
date = "2026"
summary = "Two lanes make things; how fast, and how many."

[[lane]]
name = "a"
command = ["true"]
why = "Lane a."

[[lane]]
name = "b"
command = ["true"]
why = "Lane b."

[[figure]]
id = "a-seconds"
lane = "a"
metric = "seconds"
value = 1
quote = "a is quick"

[[figure]]
id = "b-seconds"
lane = "b"
metric = "seconds"
value = 5
quote = "b is slow"

[[figure]]
id = "a-count"
lane = "a"
metric = "count"
value = 100000
quote = "a makes many"

[[figure]]
id = "b-count"
lane = "b"
metric = "count"
value = 3070
quote = "b makes few"

[[claim]]
id = "a-quicker"
kind = "ordering"
order = ["a-seconds", "b-seconds"]
quote = "a is quicker"

[[claim]]
id = "a-makes-more"
kind = "ordering"
order = ["a-count", "b-count"]
quote = "a makes more"

[[claim]]
id = "b-five-times-a"
kind = "ratio"
numerator = "b-seconds"
denominator = "a-seconds"
value = 5
tolerance = 0.2
quote = "b takes five times as long"
"#;

fn recipe() -> Recipe {
    reprise_recipe::parse("recipes/made.toml".as_ref(), RECIPE).expect("fixture recipe is valid")
}

fn runs(m: &mut Measurements, lane: &str, metric: Metric, values: &[f64]) {
    for (n, v) in values.iter().enumerate() {
        m.push_run(
            CellKey::new(lane, None, metric),
            Repetition {
                run: n as u32 + 1,
                value: Some(*v),
                errors: 0,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
}

#[test]
fn a_claim_on_a_cell_of_one_run_has_no_interval_and_says_one_run() {
    let mut m = Measurements::default();
    runs(&mut m, "a", Metric::Seconds, &[0.092]);
    runs(&mut m, "b", Metric::Seconds, &[0.51]);
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    for claim in ["a-quicker", "b-five-times-a"] {
        let v = j.verdict(claim).unwrap();
        assert_eq!(v.outcome, Outcome::Inconclusive, "{}", v.reasoning());
        assert_eq!(v.measured, None, "{claim}");
        assert_eq!(v.more_runs, None, "{claim}");
        assert!(matches!(v.why, Why::OneRun { .. }), "{:?}", v.why);
        assert!(!v.reasoning().contains("0.092–0.092"), "{}", v.reasoning());
        assert_eq!(v.show_measured(), "—");
    }
    let v = j.verdict("a-quicker").unwrap();
    let Why::OneRun { readings, face } = &v.why else {
        panic!("{:?}", v.why);
    };
    assert_eq!(*face, Outcome::Reproduced, "at face value");
    assert_eq!(
        (
            readings[0].figure.as_str(),
            readings[0].value,
            readings[0].runs
        ),
        ("a-seconds", 0.092, 1)
    );
    // As the verdict words it.
    assert!(
        v.reasoning().contains("a-seconds 0.092 s (one run)")
            && v.reasoning().contains("at face value reproduced"),
        "{}",
        v.reasoning()
    );
    // The figures show their value and no interval.
    assert_eq!(j.figure("a-seconds").unwrap().interval, None);
}

#[test]
fn a_claim_on_cells_of_several_runs_is_judged_on_their_intervals() {
    let mut m = Measurements::default();
    runs(
        &mut m,
        "a",
        Metric::Seconds,
        &[0.092, 0.094, 0.091, 0.093, 0.092],
    );
    runs(
        &mut m,
        "b",
        Metric::Seconds,
        &[0.51, 0.52, 0.50, 0.53, 0.51],
    );
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    let v = j.verdict("a-quicker").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    assert!(j.figure("a-seconds").unwrap().interval.is_some());
}

#[test]
fn counts_that_both_reached_the_recipes_cap_say_so() {
    let mut m = Measurements::default();
    runs(&mut m, "a", Metric::Count, &[10_000.0; 5]);
    runs(&mut m, "b", Metric::Count, &[10_000.0; 5]);
    m.caps.insert("a".into(), 10_000.0);
    m.caps.insert("b".into(), 10_000.0);
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    let v = j.verdict("a-makes-more").unwrap();
    assert_eq!(v.outcome, Outcome::Inconclusive, "{}", v.reasoning());
    assert_eq!(
        v.why,
        Why::AtCap {
            cap: 10_000.0,
            lanes: 2
        }
    );
    assert!(
        v.reasoning().starts_with("both reached the cap of 10,000"),
        "{}",
        v.reasoning()
    );
}

#[test]
fn a_count_below_the_cap_met_a_limit_and_orders_as_measured() {
    let mut m = Measurements::default();
    runs(&mut m, "a", Metric::Count, &[100_000.0; 5]);
    runs(
        &mut m,
        "b",
        Metric::Count,
        &[32_441.0, 32_440.0, 32_441.0, 32_442.0, 32_441.0],
    );
    m.caps.insert("a".into(), 100_000.0);
    m.caps.insert("b".into(), 100_000.0);
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    let v = j.verdict("a-makes-more").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    assert!(!v.reasoning().contains("cap"), "{}", v.reasoning());
}
