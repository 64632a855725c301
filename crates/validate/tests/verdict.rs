//! Stability and ceiling figures read as checks, the verdict over all of
//! them, the pasteable summary, the comparison of two machines' profiles,
//! and the validation stored in (and read back from) a real history.

mod machine;

use machine::{ceiling, fixture, quiet_stability, read, roomy_disk, stability, steady_ceiling};
use reprise_history::History;
use reprise_validate::checks::{Check, Level, Reference, check_machine};
use reprise_validate::fitness::{Fitness, ceiling_checks, decide, stability_checks};
use reprise_validate::profile::compare;
use reprise_validate::{Ceiling, Profile, Stability, record};

const BASELINE: Option<[f64; 2]> = Some([70_000.0, 76_000.0]);

fn level_of(checks: &[Check], id: &str) -> Level {
    checks
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no {id} in {checks:?}"))
        .level
}

fn profile(stability: Stability, ceiling: Ceiling) -> Profile {
    let fp = read(&fixture::ryzen_5_3600());
    let reference = Reference {
        smt: Some(true),
        min_cpus: 2,
    };
    let mut checks = check_machine(&fp, &reference, Some(&roomy_disk()));
    checks.extend(stability_checks(&stability));
    checks.extend(ceiling_checks(&ceiling, BASELINE));
    Profile::new("quick", fp, checks, stability, ceiling)
}

#[test]
fn a_quiet_machine_with_a_steady_ceiling_is_ready() {
    let p = profile(quiet_stability(), steady_ceiling());
    assert_eq!(p.fitness, Fitness::Ready, "{:?}", p.caveats);
    assert!(p.caveats.is_empty());
    assert!(
        p.summary.starts_with(
            "reprise validate: ready — AMD Ryzen 5 3600 6-Core Processor (12 CPUs); ceiling 72,000 req/s ±0.4% (3 runs, split)"
        ),
        "{}",
        p.summary
    );
    assert!(!p.summary.contains('\n'));
    let ceiling = p.checks.iter().find(|c| c.id == "ceiling").unwrap();
    assert!(
        ceiling
            .found
            .contains("1.03× the 2-core baseline (70,000–76,000 req/s)"),
        "{}",
        ceiling.found
    );
}

#[test]
fn kernel_runs_that_vary_are_a_caveat_then_a_failure() {
    assert_eq!(
        level_of(&stability_checks(&quiet_stability()), "kernel_runs"),
        Level::Ok
    );
    // ±0.7 ms on 14 ms: 5% between runs.
    let s = stability(14.0, 0.7, 0.5, 0.09);
    assert_eq!(level_of(&stability_checks(&s), "kernel_runs"), Level::Warn);
    let s = stability(14.0, 3.0, 0.5, 0.09);
    let checks = stability_checks(&s);
    assert_eq!(level_of(&checks, "kernel_runs"), Level::Fail);
    let p = profile(s, steady_ceiling());
    assert_eq!(p.fitness, Fitness::NotSuitable);
    assert!(p.summary.contains("— fails: kernel_runs"), "{}", p.summary);
}

#[test]
fn cpus_of_different_speeds_are_a_caveat() {
    let mut s = quiet_stability();
    s.cores[1].median_ms = 20.0;
    s.core_cv = reprise_verdict::coefficient_of_variation(&[14.0, 20.0]);
    let checks = stability_checks(&s);
    assert_eq!(level_of(&checks, "kernel_cores"), Level::Warn);
    assert_eq!(decide(&checks), Fitness::UsableWithCaveats);
}

#[test]
fn background_work_during_the_runs_is_a_caveat_then_a_failure() {
    let at = |busy| {
        level_of(
            &stability_checks(&stability(14.0, 0.1, busy, 0.09)),
            "background_load",
        )
    };
    assert_eq!(at(2.0), Level::Ok);
    assert_eq!(at(12.0), Level::Warn);
    assert_eq!(at(60.0), Level::Fail);
}

#[test]
fn a_late_timer_is_a_caveat_then_a_failure() {
    let at = |p99| {
        level_of(
            &stability_checks(&stability(14.0, 0.1, 0.5, p99)),
            "timer_lag",
        )
    };
    assert_eq!(at(0.2), Level::Ok);
    assert_eq!(at(4.0), Level::Warn);
    assert_eq!(at(25.0), Level::Fail);
    let checks = stability_checks(&stability(14.0, 0.1, 0.5, 4.0));
    let timer = checks.iter().find(|c| c.id == "timer_lag").unwrap();
    assert_eq!(
        timer.found,
        "a 1 ms sleep wakes 0.060 ms late (p50), 4.000 ms (p99), over 200 sleeps"
    );
}

#[test]
fn a_ceiling_without_data_is_a_failure_and_a_spread_one_a_caveat() {
    let none = ceiling(&[None, None, None], true);
    let checks = ceiling_checks(&none, BASELINE);
    assert_eq!(level_of(&checks, "ceiling"), Level::Fail);
    assert!(
        checks[0].found.contains("36 failed requests"),
        "{}",
        checks[0].found
    );

    let spread = ceiling(&[Some(60_000.0), Some(72_000.0), Some(66_000.0)], true);
    assert_eq!(
        level_of(&ceiling_checks(&spread, BASELINE), "ceiling"),
        Level::Warn
    );

    let one_failed = ceiling(&[Some(72_000.0), None, Some(72_100.0)], true);
    let checks = ceiling_checks(&one_failed, BASELINE);
    assert_eq!(level_of(&checks, "ceiling"), Level::Warn);
    assert!(
        checks[0].found.contains("over 2 of 3 runs"),
        "{}",
        checks[0].found
    );
}

/// One run with data has no spread: every reading of the ceiling says so
/// (the app's line, the CLI's, the check, the summary), even from a profile
/// saved when a lone run's spread was written as 0.
#[test]
fn a_ceiling_of_one_run_has_no_spread_to_read_in_any_reading() {
    let one = ceiling(&[Some(74_000.0), None, None], true);
    assert_eq!(one.cv, Some(0.0), "as an older profile saved it");
    assert_eq!((one.runs_with_data(), one.spread()), (1, None));
    assert_eq!(
        one.reading(),
        "74,000 req/s median over 1 run, no spread to read"
    );
    let checks = ceiling_checks(&one, BASELINE);
    assert!(
        checks[0]
            .found
            .contains("(min 74,000, max 74,000, no spread to read)"),
        "{}",
        checks[0].found
    );
    let p = profile(quiet_stability(), one);
    assert!(
        p.summary.contains("; ceiling 74,000 req/s (1 run, split);"),
        "{}",
        p.summary
    );

    let two = ceiling(&[Some(74_000.0), Some(75_000.0), None], true);
    assert_eq!(two.runs_with_data(), 2);
    let cv = two.spread().expect("two runs have a spread");
    assert!((cv - 0.0067).abs() < 0.0001, "{cv}");
    assert_eq!(
        two.reading(),
        "74,500 req/s median over 2 runs, spread 0.7%"
    );

    let none = ceiling(&[None, None], true);
    assert_eq!((none.runs_with_data(), none.spread()), (0, None));
    assert_eq!(none.reading(), "no data (no run answered every request)");
}

#[test]
fn an_unpinned_or_slow_ceiling_is_a_caveat() {
    let unpinned = ceiling(&[Some(40_000.0), Some(40_100.0), Some(39_900.0)], false);
    let checks = ceiling_checks(&unpinned, BASELINE);
    assert_eq!(level_of(&checks, "ceiling_split"), Level::Warn);
    let slow = ceiling(&[Some(20_000.0), Some(20_100.0), Some(19_900.0)], true);
    let checks = ceiling_checks(&slow, BASELINE);
    assert_eq!(level_of(&checks, "ceiling_baseline"), Level::Warn);
    assert_eq!(decide(&checks), Fitness::UsableWithCaveats);
}

#[test]
fn two_profiles_compare_figure_by_figure() {
    let this = profile(quiet_stability(), ceiling(&[Some(57_600.0); 3], true));
    let other = profile(
        stability(12.0, 0.1, 0.5, 0.09),
        ceiling(&[Some(72_000.0); 3], true),
    );
    let cmp = compare(&this, &other);
    assert_eq!(cmp.headline(), "ceiling 0.80× the other machine");
    let speed = cmp
        .rows
        .iter()
        .find(|r| r.figure == "kernel speed")
        .unwrap();
    // 16 MiB in 14 ms against 16 MiB in 12 ms.
    assert!(
        (speed.ratio.unwrap() - 12.0 / 14.0).abs() < 1e-9,
        "{speed:?}"
    );
    assert!(speed.higher_is_better);

    let json = serde_json::to_string(&this).unwrap();
    assert_eq!(Profile::parse(&json).unwrap(), this);
    assert!(Profile::parse("{\"schema\": 1}").is_err());
    let mut future = serde_json::to_value(&this).unwrap();
    future["schema"] = 2.into();
    let refused = Profile::parse(&future.to_string()).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "a profile of format 2; this reprise reads format 1"
    );
}

#[test]
fn a_validation_is_stored_in_the_history_like_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = profile(quiet_stability(), steady_ceiling());
    let id = record::save(&p, dir.path()).unwrap();
    assert!(id.starts_with("machine-"), "{id}");

    let history = History::open(dir.path()).unwrap();
    let runs = history.list().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].id, id);
    assert_eq!(runs[0].title, "Is this box fit to benchmark on?: ready");
    // Listed with its verdict on the machine: the Library's card says it.
    assert_eq!(runs[0].fitness.as_deref(), Some("ready"));
    let report = history.load(&id).unwrap();
    let rps = report
        .judgement
        .cells
        .iter()
        .find(|c| c.cell.key.lane == "reference" && c.cell.key.metric().name() == "req_per_s")
        .expect("the ceiling cell");
    assert_eq!(rps.cell.runs.len(), 3);
    assert_eq!(rps.stats.as_ref().unwrap().median, 72_000.0);
    assert_eq!(report.environment.harness["fitness"], "ready");
    assert_eq!(report.environment.harness["summary"], p.summary.as_str());
}
