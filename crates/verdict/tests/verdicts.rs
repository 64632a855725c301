//! Every verdict rule, on constructed samples whose answers are known.

use reprise_recipe::{Metric, Recipe};
use reprise_verdict::{
    CellKey, CellStatus, Interval, LaneInfo, MachineMatch, Measurements, OrderFinding, Outcome,
    Parity, Repetition, Settings, Thresholds, Why, align_lanes, judge, more_runs_to_settle,
};

/// Lanes a and b answer `/`; the post says a does 2,000 req/s, b 1,000,
/// a is twice b (±10%), a ranks above b, and a's runs spread 5% (±50%).
fn recipe() -> Recipe {
    parse(PAIR)
}

fn parse(text: &str) -> Recipe {
    reprise_recipe::parse("recipes/pair.toml".as_ref(), text).expect("fixture recipe is valid")
}

const PAIR: &str = r#"
[post]
id = "pair"
title = "Two servers"
author = "A. Writer"
date = "2026"
summary = "Two servers, one endpoint."

[[lane]]
name = "a"
command = ["a"]
why = "The fast one."

[[lane]]
name = "b"
command = ["b"]
why = "The slow one."

[[workload]]
name = "hello"
connections = 16
duration = "20s"
runs = 3

[[workload.endpoint]]
name = "/"
path = "/"

[[figure]]
id = "a-hello"
lane = "a"
endpoint = "/"
metric = "req_per_s"
value = 2000
quote = "A serves 2,000."

[[figure]]
id = "b-hello"
lane = "b"
endpoint = "/"
metric = "req_per_s"
value = 1000
quote = "B serves 1,000."

[[claim]]
id = "a-absolute"
kind = "absolute"
figure = "a-hello"
tolerance = 0.15
quote = "A serves 2,000."

[[claim]]
id = "a-twice-b"
kind = "ratio"
numerator = "a-hello"
denominator = "b-hello"
value = 2.0
tolerance = 0.10
quote = "A is twice B."

[[claim]]
id = "a-above-b"
kind = "ordering"
order = ["a-hello", "b-hello"]
quote = "A is ahead of B."

[[claim]]
id = "a-spread"
kind = "spread"
figure = "a-hello"
value = 0.05
tolerance = 0.5
quote = "A's runs spread 5%."
"#;

fn key(lane: &str) -> CellKey {
    CellKey::new(lane, Some("/"), Metric::ReqPerS)
}

/// Measurements with the given req/s runs for lanes a and b.
fn measured(a: &[f64], b: &[f64]) -> Measurements {
    let mut m = Measurements::default();
    for (lane, values) in [("a", a), ("b", b)] {
        for (i, v) in values.iter().enumerate() {
            m.push_run(
                key(lane),
                Repetition {
                    run: i as u32 + 1,
                    value: Some(*v),
                    errors: 0,
                    client_cpu: Some(0.5),
                    server_cpu: None,
                    first_attempt_taken: None,
                },
            );
        }
    }
    m
}

fn outcome(m: &Measurements, machine: &MachineMatch, claim: &str) -> (Outcome, String) {
    let j = judge(&recipe(), m, machine, &Settings::default());
    let v = j.verdict(claim).expect("claim judged");
    (v.outcome, v.reasoning())
}

/// The kind of why an ordering came to, where it was read pair by pair.
fn finding(m: &Measurements, claim: &str) -> Option<OrderFinding> {
    let j = judge(&recipe(), m, &differs(), &Settings::default());
    match &j.verdict(claim).expect("claim judged").why {
        Why::Ordering { finding, .. } => Some(*finding),
        _ => None,
    }
}

fn differs() -> MachineMatch {
    MachineMatch::Differs(vec![reprise_verdict::MachineDifference::not_compared(
        "2 cores, the post had 6",
    )])
}

#[test]
fn ratio_clearly_inside_the_band_is_reproduced_on_any_machine() {
    // 2.0× give or take 1%, on a machine four times slower.
    let m = measured(
        &[500.0, 505.0, 498.0, 502.0, 499.0],
        &[250.0, 251.0, 249.0, 250.5, 249.5],
    );
    let j = judge(&recipe(), &m, &differs(), &Settings::default());
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    let i = v.measured.unwrap();
    assert!((i.estimate - 2.0).abs() < 0.01);
    assert!(i.low >= 1.8 && i.high <= 2.2);
    assert_eq!(v.band, Some([1.8, 2.2]));
}

#[test]
fn ratio_clearly_outside_the_band_is_not_reproduced() {
    let m = measured(&[300.0, 303.0, 298.0], &[250.0, 251.0, 249.0]);
    let (o, reason) = outcome(&m, &differs(), "a-twice-b");
    assert_eq!(o, Outcome::NotReproduced, "{reason}");
    assert!(reason.contains("outside the published band"), "{reason}");
    assert!(reason.contains("1.2×"), "{reason}");
}

#[test]
fn ratio_straddling_the_band_is_inconclusive_with_runs_to_settle_it() {
    // Median ratio 2.1: inside the band, but runs of ±10% put the interval
    // across the 2.2 edge.
    let m = measured(&[210.0, 190.0, 230.0], &[100.0, 100.0, 100.0]);
    let j = judge(&recipe(), &m, &differs(), &Settings::default());
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::Inconclusive, "{}", v.reasoning());
    let i = v.measured.unwrap();
    assert!(i.low < 2.2 && i.high > 2.2, "{i:?}");
    let more = v.more_runs.expect("an estimate of the runs needed");
    assert!(more >= 1, "{more}");
    assert!(
        v.reasoning().contains(&format!("about {more} more runs")),
        "{}",
        v.reasoning()
    );
}

#[test]
fn runs_to_settle_follow_the_width_the_t_quantile_and_the_distance() {
    // Half-width 0.2 at 3 runs, 0.08 from the edge, at 95%: the width
    // narrows as 1/√n and as t's quantile falls (4.30 over three runs,
    // 2.45 over seven): 0.2 × √(3/7) × 2.45 / 4.30 = 0.074, under 0.08;
    // over six runs 0.085 is not. 1/√n alone would have said 16 more.
    let i = Interval {
        estimate: 2.1,
        low: 1.9,
        high: 2.3,
    };
    assert_eq!(more_runs_to_settle(&i, [1.8, 2.18], 3, 0.95), Some(4));
    let on_edge = Interval {
        estimate: 2.2,
        low: 2.0,
        high: 2.4,
    };
    assert_eq!(more_runs_to_settle(&on_edge, [1.8, 2.2], 3, 0.95), None);
    // Beyond 10,000 runs: none.
    let hopeless = Interval {
        estimate: 2.1,
        low: 0.1,
        high: 4.1,
    };
    assert_eq!(more_runs_to_settle(&hopeless, [1.8, 2.1001], 3, 0.95), None);
}

#[test]
fn an_unstable_cell_is_flagged_but_still_read() {
    let m = measured(&[91.0, 118.0, 119.0], &[100.0, 101.0, 99.0]);
    let j = judge(&recipe(), &m, &differs(), &Settings::default());
    let a = j.cells.iter().find(|c| c.cell.key == key("a")).unwrap();
    assert!(a.stats.as_ref().unwrap().unstable);
    assert_eq!(a.status, CellStatus::Valid);
    let b = j.cells.iter().find(|c| c.cell.key == key("b")).unwrap();
    assert!(!b.stats.as_ref().unwrap().unstable);
    let v = j.verdict("a-twice-b").unwrap();
    assert!(
        v.reasoning()
            .contains("note: a-hello is unstable (its runs vary 11.9%)"),
        "{}",
        v.reasoning()
    );
}

#[test]
fn a_client_bound_run_makes_the_cell_unable_to_judge_the_server() {
    let mut m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    m.cells[0].runs[1].client_cpu = Some(0.97);
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    assert_eq!(
        j.figure("a-hello").unwrap().status,
        Some(CellStatus::ClientBound {
            run: 2,
            client_cpu: 0.97
        })
    );
    for claim in ["a-twice-b", "a-above-b", "a-absolute"] {
        let v = j.verdict(claim).unwrap();
        assert_eq!(v.outcome, Outcome::NoData, "{claim}");
        assert_eq!(v.outcome.label(), "no data");
        assert!(
            matches!(
                &v.why,
                Why::CellUnusable {
                    status: CellStatus::ClientBound { run: 2, .. },
                    ..
                }
            ),
            "{claim}: {:?}",
            v.why
        );
        assert!(v.reasoning().contains("97%"), "{}", v.reasoning());
    }
}

#[test]
fn a_rate_near_the_link_s_ceiling_measured_the_network_not_the_server() {
    // The lanes on a server host: its link carries at most 520 req/s of
    // the reference server's answers; lane a's 500 is 96% of that.
    let mut m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    m.link_ceiling = Some(520.0);
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    assert_eq!(
        j.figure("a-hello").unwrap().status,
        Some(CellStatus::NetworkBound {
            run: 1,
            req_per_s: 500.0,
            ceiling: 520.0
        })
    );
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::NoData);
    assert!(
        v.reasoning()
            .contains("network-bound: run 1 reached 96% of the link's ceiling"),
        "{}",
        v.reasoning()
    );
    // Lane b is far below it: its cell reads as any other.
    assert_eq!(j.figure("b-hello").unwrap().status, Some(CellStatus::Valid));
    // A latency of lane a's network-bound run is the link's too; lane b's
    // is the server's.
    for lane in ["a", "b"] {
        m.push_run(
            CellKey::new(lane, Some("/"), Metric::P99Ms),
            Repetition {
                run: 1,
                value: Some(2.5),
                errors: 0,
                client_cpu: Some(0.5),
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
    let p99 = |lane: &str| {
        let cell = m
            .cell(&CellKey::new(lane, Some("/"), Metric::P99Ms))
            .unwrap();
        reprise_verdict::gate(cell, &m, &Thresholds::default())
    };
    assert!(
        matches!(p99("a"), CellStatus::NetworkBound { run: 1, .. }),
        "{:?}",
        p99("a")
    );
    assert_eq!(p99("b"), CellStatus::Valid);
    // Without a server host there is no ceiling, and the same rates are valid.
    m.link_ceiling = None;
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    assert_eq!(j.figure("a-hello").unwrap().status, Some(CellStatus::Valid));
}

#[test]
fn a_cell_with_errors_or_a_null_run_is_no_data() {
    // The harness writes req_sec null for a run with non-2xx responses.
    let mut m = Measurements::default();
    let run = |run, value, errors| Repetition {
        run,
        value,
        errors,
        client_cpu: None,
        server_cpu: None,
        first_attempt_taken: None,
    };
    m.push_run(key("a"), run(1, Some(500.0), 0));
    m.push_run(key("a"), run(2, None, 0));
    m.push_run(key("b"), run(1, Some(250.0), 3));
    for lane in ["a", "b"] {
        let rss = CellKey::new(lane, Some("/"), Metric::RssMb);
        m.push_run(rss, run(1, Some(1.0), 0));
    }
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    let a = j.figure("a-hello").unwrap();
    assert!(
        matches!(&a.status, Some(CellStatus::NoData { reason }) if reason.contains("run 2")),
        "{:?}",
        a.status
    );
    let b = j.figure("b-hello").unwrap();
    assert!(
        matches!(&b.status, Some(CellStatus::NoData { reason }) if reason.contains("3 errors")),
        "{:?}",
        b.status
    );
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::NoData);
    assert!(v.reasoning().contains("no data"), "{}", v.reasoning());
    // Memory is sampled on the server: errors do not void it.
    let rss = j
        .cells
        .iter()
        .find(|c| c.cell.key == CellKey::new("b", Some("/"), Metric::RssMb))
        .unwrap();
    assert_eq!(rss.status, CellStatus::Valid);
    assert_eq!(rss.stats.as_ref().unwrap().median, 1.0);
}

#[test]
fn a_lane_answering_unlike_the_reference_is_not_comparable() {
    let mut m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    m.reference_lane = Some("b".into());
    m.parity = vec![
        Parity {
            lane: "b".into(),
            endpoint: "/".into(),
            fingerprint: "200 0 13 2b7e".into(),
            tags: None,
        },
        Parity {
            lane: "a".into(),
            endpoint: "/".into(),
            fingerprint: "500 12 901 9f00".into(),
            tags: None,
        },
    ];
    let (o, reason) = outcome(&m, &MachineMatch::Matches, "a-twice-b");
    assert_eq!(o, Outcome::NotComparable, "{reason}");
    assert!(reason.contains("500 12 901 9f00"), "{reason}");
}

#[test]
fn absolute_figures_are_judged_only_on_a_matching_machine() {
    let inside = measured(&[1990.0, 2010.0, 2005.0], &[1000.0, 1001.0, 999.0]);
    let (o, reason) = outcome(&inside, &MachineMatch::Matches, "a-absolute");
    assert_eq!(o, Outcome::Reproduced, "{reason}");

    let low = measured(&[1200.0, 1210.0, 1190.0], &[1000.0, 1001.0, 999.0]);
    let (o, reason) = outcome(&low, &MachineMatch::Matches, "a-absolute");
    assert_eq!(o, Outcome::NotReproduced, "{reason}");

    let j = judge(&recipe(), &low, &differs(), &Settings::default());
    let v = j.verdict("a-absolute").unwrap();
    assert_eq!(v.outcome, Outcome::NotComparable);
    let Why::MachineDiffers {
        differences,
        measured: shown,
        ..
    } = &v.why
    else {
        panic!("{:?}", v.why);
    };
    let MachineMatch::Differs(rows) = differs() else {
        unreachable!()
    };
    assert_eq!(*differences, rows);
    assert!(
        (shown - 1200.0).abs() < 15.0,
        "shown for information: {shown}"
    );
    assert!(v.reasoning().contains("1,200 req/s"), "{}", v.reasoning());

    let edge = measured(&[1500.0, 1800.0, 2100.0], &[1000.0, 1001.0, 999.0]);
    let (o, reason) = outcome(&edge, &MachineMatch::Matches, "a-absolute");
    assert_eq!(o, Outcome::Inconclusive, "{reason}");
}

#[test]
fn an_ordering_needs_the_order_and_a_ratio_clear_of_one() {
    let apart = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    assert_eq!(
        outcome(&apart, &differs(), "a-above-b").0,
        Outcome::Reproduced
    );

    let reversed = measured(&[200.0, 205.0, 198.0], &[250.0, 251.0, 249.0]);
    let (o, reason) = outcome(&reversed, &differs(), "a-above-b");
    assert_eq!(o, Outcome::NotReproduced, "{reason}");
    assert_eq!(
        finding(&reversed, "a-above-b"),
        Some(OrderFinding::Reversed)
    );

    let overlapping = measured(&[240.0, 262.0, 255.0], &[250.0, 251.0, 245.0]);
    let (o, reason) = outcome(&overlapping, &differs(), "a-above-b");
    assert_eq!(o, Outcome::Inconclusive, "{reason}");
    assert_eq!(
        finding(&overlapping, "a-above-b"),
        Some(OrderFinding::Undecided)
    );

    // a's own interval reaches down into b's (a noisy a over three runs),
    // but their ratio's is clear of one: the order is settled.
    let noisy = measured(&[300.0, 330.0, 360.0], &[250.0, 255.0, 260.0]);
    let j = judge(&recipe(), &noisy, &differs(), &Settings::default());
    let (a, b) = (
        j.figure("a-hello").unwrap().interval.unwrap(),
        j.figure("b-hello").unwrap().interval.unwrap(),
    );
    assert!(a.overlaps(&b), "{a:?} {b:?}");
    let (o, reason) = outcome(&noisy, &differs(), "a-above-b");
    assert_eq!(o, Outcome::Reproduced, "{reason}");
    assert_eq!(finding(&noisy, "a-above-b"), Some(OrderFinding::InOrder));
}

#[test]
fn latency_orderings_put_the_lower_value_first() {
    let mut r = recipe();
    for f in &mut r.figures {
        f.metric = Metric::P99Ms;
    }
    let mut m = Measurements::default();
    for (lane, values) in [("a", [2.0, 2.1, 2.05]), ("b", [9.0, 9.5, 9.2])] {
        for (i, v) in values.iter().enumerate() {
            m.push_run(
                CellKey::new(lane, Some("/"), Metric::P99Ms),
                Repetition {
                    run: i as u32 + 1,
                    value: Some(*v),
                    errors: 0,
                    client_cpu: None,
                    server_cpu: None,
                    first_attempt_taken: None,
                },
            );
        }
    }
    let j = judge(&r, &m, &differs(), &Settings::default());
    assert_eq!(j.verdict("a-above-b").unwrap().outcome, Outcome::Reproduced);
}

#[test]
fn a_spread_claim_compares_the_runs_variation_with_the_posts() {
    // cv of 100, 106, 94 is 4.9%: inside 5% ± 50%.
    let near = measured(&[100.0, 106.0, 94.0], &[50.0, 50.0, 50.0]);
    let (o, reason) = outcome(&near, &differs(), "a-spread");
    assert_eq!(o, Outcome::Reproduced, "{reason}");
    let steady = measured(&[100.0, 100.5, 99.5], &[50.0, 50.0, 50.0]);
    let (o, reason) = outcome(&steady, &differs(), "a-spread");
    assert_eq!(o, Outcome::NotReproduced, "{reason}");
    assert!(reason.contains("0.41%"), "{reason}");
}

/// A spread claim's numbers are fractions of the runs' mean; every reading
/// of them (the reports, the CLI, the app) gives them as percentages.
#[test]
fn a_spread_claims_numbers_read_as_percentages() {
    let steady = measured(&[100.0, 100.5, 99.5], &[50.0, 50.0, 50.0]);
    let j = judge(&recipe(), &steady, &differs(), &Settings::default());
    let v = j.verdict("a-spread").unwrap();
    assert_eq!(v.published, Some(0.05));
    assert_eq!(v.show_published(), "5%");
    assert_eq!(v.show_band().as_deref(), Some("2.5–7.5%"));
    assert_eq!(v.show_measured(), "0.41% (0.41–0.41)");
    // A ratio's are plain: published 2, accepted 1.8 to 2.2.
    let ratio = j.verdict("a-twice-b").unwrap();
    assert_eq!(ratio.show_published(), "2×");
    assert_eq!(ratio.show_band().as_deref(), Some("1.8–2.2×"));
}

/// A cell's validity in one line, as the reports, the CLI and the app say it.
#[test]
fn a_cells_status_reads_in_one_line() {
    use reprise_verdict::CellStatus;
    let bound = CellStatus::ClientBound {
        run: 2,
        client_cpu: 0.97,
    };
    assert_eq!(
        bound.describe(),
        "client-bound: the load generator used 97% of its CPU in run 2"
    );
    let network = CellStatus::NetworkBound {
        run: 1,
        req_per_s: 46_000.0,
        ceiling: 50_000.0,
    };
    assert_eq!(
        network.describe(),
        "network-bound: run 1 reached 92% of the link's ceiling (46000 of 50000 req/s)"
    );
}

#[test]
fn alternating_rounds_cancel_shared_drift_out_of_a_ratio() {
    // The machine slows down round by round; both lanes feel it, and a is
    // always exactly twice b within a round.
    let m = measured(&[600.0, 500.0, 420.0], &[300.0, 250.0, 210.0]);
    let independent = judge(&recipe(), &m, &differs(), &Settings::default());
    let v = independent.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::Inconclusive, "{}", v.reasoning());
    let paired = Settings {
        rounds_alternate: true,
        ..Settings::default()
    };
    let j = judge(&recipe(), &m, &differs(), &paired);
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::Reproduced, "{}", v.reasoning());
    let i = v.measured.unwrap();
    assert!(
        (i.low - 2.0).abs() < 1e-9 && (i.high - 2.0).abs() < 1e-9,
        "{i:?}"
    );
}

/// The pair, plus a lane c the recipe cannot run (the post measured it with
/// a server nobody can get), a Falcon lane the harness calls `falcon`, and a
/// ratio claim on each.
fn with_more_lanes() -> Recipe {
    parse(&format!(
        "{PAIR}{}",
        r#"
[[lane]]
name = "c"
why = "The unobtainable one."
not_runnable = "The post's server c was never published."

[[lane]]
name = "falcon-1p"
command = ["falcon"]
workers = 1
harness = { target = "falcon", workers = 1 }
why = "Falcon, one process."

[[figure]]
id = "c-hello"
lane = "c"
endpoint = "/"
metric = "req_per_s"
value = 4000
quote = "C serves 4,000."

[[figure]]
id = "falcon-hello"
lane = "falcon-1p"
endpoint = "/"
metric = "req_per_s"
value = 3000
quote = "Falcon serves 3,000."

[[claim]]
id = "c-twice-a"
kind = "ratio"
numerator = "c-hello"
denominator = "a-hello"
value = 2.0
tolerance = 0.10
quote = "C is twice A."

[[claim]]
id = "falcon-above-a"
kind = "ordering"
order = ["falcon-hello", "a-hello"]
quote = "Falcon is ahead of A."
"#
    ))
}

#[test]
fn a_figure_whose_lane_cannot_run_is_not_measured_with_the_recipes_reason() {
    let m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    let j = judge(&with_more_lanes(), &m, &differs(), &Settings::default());
    let v = j.verdict("c-twice-a").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
    assert_eq!(v.outcome.label(), "not measured");
    assert_eq!(
        v.reasoning(),
        "lane c is not runnable: The post's server c was never published."
    );
    assert_eq!(v.more_runs, None);
    // The claims on measured lanes are judged as before.
    assert_eq!(j.verdict("a-twice-b").unwrap().outcome, Outcome::Reproduced);
}

#[test]
fn a_lane_the_run_skipped_is_not_measured_with_the_skip_reason() {
    let mut m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    m.not_measured.insert(
        "falcon-1p".into(),
        vec![reprise_verdict::LaneSkip {
            stage: Some("preflight".into()),
            because: "it needs falcon, which this machine lacks".into(),
        }],
    );
    let j = judge(&with_more_lanes(), &m, &differs(), &Settings::default());
    let v = j.verdict("falcon-above-a").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
    assert_eq!(
        v.reasoning(),
        "lane falcon-1p was not measured (preflight): it needs falcon, which this machine lacks"
    );
}

fn skipped(stage: &str, because: &str) -> Vec<reprise_verdict::LaneSkip> {
    vec![reprise_verdict::LaneSkip {
        stage: Some(stage.into()),
        because: because.into(),
    }]
}

#[test]
fn a_lane_skipped_at_two_stages_says_both_and_a_run_stored_before_reads_back_typed() {
    let mut m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    let mut skips = skipped("boot", "it did not answer /health");
    skips.extend(skipped("load", "it stopped during a measurement"));
    m.not_measured.insert("falcon-1p".into(), skips.clone());
    let recipe = with_more_lanes();
    let j = judge(&recipe, &m, &differs(), &Settings::default());
    let v = j.verdict("falcon-above-a").unwrap();
    assert_eq!(
        v.why,
        reprise_verdict::Why::LaneNotMeasured {
            lane: "falcon-1p".into(),
            stage: Some("boot".into()),
            because: "it did not answer /health; load: it stopped during a measurement".into(),
        }
    );
    // Runs stored before the skips were typed hold `STAGE: why` in one
    // string; they read back as the same skip.
    let mut stored = serde_json::to_value(&m).unwrap();
    stored["not_measured"]["falcon-1p"] = "boot: it did not answer /health".into();
    stored["not_measured"]["b"] = "the lane was removed".into();
    let read: Measurements = serde_json::from_value(stored).unwrap();
    assert_eq!(read.not_measured["falcon-1p"], skips[..1]);
    assert_eq!(
        read.not_measured["b"],
        [reprise_verdict::LaneSkip {
            stage: None,
            because: "the lane was removed".into()
        }]
    );
    // And what is stored now reads back as it was.
    let again: Measurements = serde_json::from_value(serde_json::to_value(&m).unwrap()).unwrap();
    assert_eq!(again.not_measured, m.not_measured);
}

#[test]
fn a_skipped_harness_target_names_the_recipe_lanes_it_stands_for() {
    // skipped.json names the harness's target; the recipe's lane is falcon-1p.
    let mut m = measured(&[500.0, 505.0, 498.0], &[250.0, 251.0, 249.0]);
    m.not_measured.insert(
        "falcon".into(),
        skipped("boot", "it did not answer /health"),
    );
    // A skipped lane named as the recipe names it stays as it is.
    m.not_measured
        .insert("b".into(), skipped("check", "/ answered 500"));
    let recipe = with_more_lanes();
    align_lanes(&mut m, &recipe);
    assert_eq!(
        m.not_measured.keys().collect::<Vec<_>>(),
        ["b", "falcon-1p"]
    );
    let j = judge(&recipe, &m, &differs(), &Settings::default());
    let v = j.verdict("falcon-above-a").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
    assert_eq!(
        v.reasoning(),
        "lane falcon-1p was not measured (boot): it did not answer /health"
    );
    // b has cells: what they say decides, not the skip.
    assert_eq!(j.verdict("a-twice-b").unwrap().outcome, Outcome::Reproduced);
}

#[test]
fn a_lane_without_any_cell_or_without_this_endpoint_is_not_measured() {
    let mut m = Measurements::default();
    for (i, v) in [500.0, 505.0, 498.0].iter().enumerate() {
        m.push_run(
            key("a"),
            Repetition {
                run: i as u32 + 1,
                value: Some(*v),
                errors: 0,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
        m.push_run(
            CellKey::new("b", Some("/other"), Metric::ReqPerS),
            Repetition {
                run: i as u32 + 1,
                value: Some(*v),
                errors: 0,
                client_cpu: None,
                server_cpu: None,
                first_attempt_taken: None,
            },
        );
    }
    m.lanes.insert("a".into(), LaneInfo::default());
    let j = judge(&with_more_lanes(), &m, &differs(), &Settings::default());
    let v = j.verdict("falcon-above-a").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
    assert_eq!(v.reasoning(), "lane falcon-1p was not measured in this run");
    // b ran, but not `/`.
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::NotMeasured, "{}", v.reasoning());
    assert_eq!(v.reasoning(), "no cell measured b-hello (b req_per_s)");
}

#[test]
fn a_cell_with_errors_is_no_data_naming_the_run_and_its_errors() {
    let mut m = measured(&[1990.0, 2010.0, 2005.0], &[1000.0, 1001.0, 999.0]);
    m.cells[0].runs[1].errors = 3;
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    for claim in ["a-absolute", "a-twice-b", "a-above-b", "a-spread"] {
        let v = j.verdict(claim).unwrap();
        assert_eq!(v.outcome, Outcome::NoData, "{claim}: {}", v.reasoning());
        assert_eq!(
            v.reasoning(),
            "a-hello: no data: run 2 had 3 errors",
            "{claim}"
        );
        assert_eq!(v.measured, None, "no number from a cell with errors");
    }
}

#[test]
fn a_client_bound_cell_is_no_data() {
    let mut m = measured(&[1990.0, 2010.0, 2005.0], &[1000.0, 1001.0, 999.0]);
    m.cells[1].runs[0].client_cpu = Some(0.99);
    let j = judge(&recipe(), &m, &MachineMatch::Matches, &Settings::default());
    let v = j.verdict("a-twice-b").unwrap();
    assert_eq!(v.outcome, Outcome::NoData, "{}", v.reasoning());
    assert_eq!(
        v.reasoning(),
        "b-hello: client-bound: the load generator used 99% of its CPU in run 1"
    );
    // a's own cell is fine.
    assert_eq!(
        j.verdict("a-absolute").unwrap().outcome,
        Outcome::Reproduced
    );
}

#[test]
fn a_straddling_interval_stays_inconclusive_with_the_runs_to_settle_it() {
    let edge = measured(&[1500.0, 1800.0, 2100.0], &[1000.0, 1001.0, 999.0]);
    let j = judge(
        &recipe(),
        &edge,
        &MachineMatch::Matches,
        &Settings::default(),
    );
    let v = j.verdict("a-absolute").unwrap();
    assert_eq!(v.outcome, Outcome::Inconclusive, "{}", v.reasoning());
    assert_eq!(v.outcome.label(), "inconclusive");
    let more = v.more_runs.expect("the runs that would settle it");
    assert!(
        v.reasoning().contains("straddles the band's edge"),
        "{}",
        v.reasoning()
    );
    assert!(
        v.reasoning().contains(&format!("about {more} more runs")),
        "{}",
        v.reasoning()
    );
}

#[test]
fn a_figure_of_another_n_than_the_run_s_says_so_and_is_not_read_as_the_same_quantity() {
    // The published recipe: the post's 100,000 fibers, a run of 10,000.
    let recipe = reprise_recipe::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../recipes/fibers-vs-threads.toml"),
    )
    .unwrap();
    let mut m = Measurements::default();
    for (metric, value) in [(Metric::Count, 10_000.0), (Metric::Seconds, 0.35)] {
        for run in 1..=3 {
            m.push_run(
                CellKey::new("fibers", None, metric),
                Repetition {
                    run,
                    value: Some(value),
                    errors: 0,
                    client_cpu: None,
                    server_cpu: None,
                    first_attempt_taken: None,
                },
            );
        }
    }
    m.caps.insert("fibers".into(), 10_000.0);
    let j = judge(&recipe, &m, &MachineMatch::Matches, &Settings::default());
    let figure = |id: &str| j.figures.iter().find(|f| f.figure == id).unwrap();
    let other = figure("fibers-100k-seconds")
        .other_size
        .expect("measured at another N");
    assert_eq!(
        other,
        reprise_verdict::OtherSize {
            post: 100_000.0,
            here: 10_000.0
        }
    );
    assert_eq!(
        other.to_string(),
        "measured at 10,000, the post's at 100,000: not the same quantity"
    );
    assert!(figure("fibers-created").other_size.is_some());
    // A figure that names no N, measured at the run's: as measured.
    assert_eq!(figure("fibers-create-seconds").other_size, None);
}
