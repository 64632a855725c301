//! What both front ends show, as the session computes it: the Library's
//! cards, a post's figures as they read, a stored run's verdicts, figures
//! and measured lanes with their flags, the machine, a validation's
//! ceiling, and a quick real run of hello-ceiling (Debian's puma and nginx
//! on loopback) from its plan rows to its results.

#[path = "../../validate/tests/machine/mod.rs"]
mod machine;
mod support;

use std::path::Path;

use reprise_recipe::Catalog;
use reprise_session::run::RunChoices;
use reprise_session::views::{MetricUnit, ThisMachine, Validation};
use reprise_session::{DataDir, Event, HistoryOutcome, Session, SessionError, ShareSettings};
use serde_json::json;

fn checkout() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn session(data: &Path) -> Session {
    Session::new(
        Catalog::new(checkout()),
        DataDir::new(data),
        ShareSettings::from_env(),
    )
}

/// A hello-ceiling results directory of these files, stored in `data`.
fn store_results_dir(data: &Path, files: &[(&str, String)]) -> String {
    support::store_results_dir(checkout(), data, files)
}

/// `per-run.json` lines: `runs` runs of each lane from `base` req/s up.
fn per_run(lanes: &[(&str, u32, f64)], runs: u32) -> String {
    let mut lines = String::new();
    for (lane, workers, base) in lanes {
        for run in 1..=runs {
            lines.push_str(
                &json!({"target": lane, "workers": workers, "endpoint": "/", "run": run,
                        "req_sec": base + f64::from(run) * 100.0,
                        "p50_ms": 0.4, "p99_ms": 1.0 + f64::from(run) / 10.0})
                .to_string(),
            );
            lines.push('\n');
        }
    }
    lines
}

fn env_json() -> String {
    json!({"host": {"hostname": "desk-seven"},
           "cpu": {"brand": "Test CPU", "logical": 2}, "memory_mb": 8192})
    .to_string()
}

#[test]
fn the_library_has_a_card_per_recipe_with_its_lanes_counted() {
    let data = tempfile::tempdir().unwrap();
    let library = session(data.path()).library_view().unwrap();
    let hello = library
        .recipes
        .iter()
        .find(|c| c.post.id.as_str() == "hello-ceiling")
        .expect("hello-ceiling is in the library");
    assert_eq!(hello.post.author, "Sam Ruby");
    assert_eq!(hello.lanes.len(), 3);
    assert!(hello.checksum.is_reviewed());
    // What it measures, named for a reader, with the unit.
    assert!(
        hello
            .units
            .iter()
            .any(|u| u.name == "throughput" && u.unit == "req/s"),
        "{:?}",
        hello.units
    );
    // Every lane of hello-ceiling can run somewhere; here, as installed.
    assert_eq!(hello.runnable, 3);
    let here = hello
        .lanes
        .iter()
        .filter(|l| l.here == reprise_probe::preflight::LaneAvailability::Runs)
        .count();
    assert_eq!(hello.runs_here as usize, here);
    assert!(library.problems.is_empty(), "{:?}", library.problems);
    assert_eq!(
        std::fs::canonicalize(&library.dir).unwrap(),
        std::fs::canonicalize(checkout().join("recipes")).unwrap()
    );
}

#[test]
fn a_post_reads_its_figures_claims_and_units_as_both_front_ends_show_them() {
    let data = tempfile::tempdir().unwrap();
    let post = session(data.path()).post_view("hello-ceiling").unwrap();
    let puma = post
        .figures
        .iter()
        .find(|f| f.figure.id.as_str() == "puma-hello")
        .unwrap();
    assert_eq!(puma.figure.value, Some(54000.0));
    assert_eq!(puma.published, "≈ 54,000 req/s");
    assert!(puma.figure.quote.contains("54,000"));
    assert!(post.units.contains(&MetricUnit {
        metric: reprise_recipe::Metric::ReqPerS,
        unit: "req/s".into(),
        name: "throughput".into(),
    }));
    assert_eq!(post.machine.as_ref().and_then(|m| m.cores), Some(6));
    assert!(post.steps.iter().all(|s| !s.why.is_empty()));
    assert_eq!(post.claims.len(), 4);
    let ratio = post
        .claims
        .iter()
        .find(|c| c.claim.id.as_str() == "falcon-twice-puma")
        .unwrap();
    assert_eq!(ratio.figures, ["falcon-hello", "puma-hello"]);
    assert_eq!(ratio.tolerance.as_deref(), Some("±15%"));
}

#[test]
fn an_unknown_post_names_the_nearest_recipe() {
    let data = tempfile::tempdir().unwrap();
    let err = session(data.path()).post_view("hello-ceilin").unwrap_err();
    assert!(matches!(err, SessionError::Catalog(_)), "{err:?}");
    assert!(
        err.to_string().contains("did you mean `hello-ceiling`?"),
        "{err}"
    );
}

#[test]
fn a_stored_run_reads_its_verdicts_figures_and_share_preview() {
    let data = tempfile::tempdir().unwrap();
    let env =
        json!({"host": {"hostname": "desk-seven"}, "cpu": {"brand": "Test CPU", "logical": 2}});
    let id = store_results_dir(
        data.path(),
        &[
            (
                "per-run.json",
                per_run(&[("puma", 2, 30_000.0), ("falcon", 2, 60_000.0)], 3),
            ),
            ("env.json", env.to_string()),
        ],
    );
    let session = session(data.path());
    let results = session.results_view(&id).unwrap();
    let falcon = results
        .figures
        .iter()
        .find(|f| f.reading.figure == "falcon-hello")
        .unwrap();
    assert_eq!(falcon.reading.published, Some(106_000.0));
    assert_eq!(falcon.reading.stats.as_ref().unwrap().median, 60_200.0);
    assert_eq!(falcon.published, "106,000 req/s");
    assert!(
        falcon.measured.starts_with("60,200 req/s ("),
        "{}",
        falcon.measured
    );
    assert_eq!(falcon.status, "valid");
    let ratio = results
        .verdicts
        .iter()
        .find(|v| v.verdict.claim == "falcon-twice-puma")
        .unwrap();
    assert_eq!(
        ratio.verdict.outcome,
        reprise_verdict::Outcome::Reproduced,
        "{}",
        ratio.verdict.reasoning()
    );
    assert!(ratio.verdict.measured.unwrap().low <= 2.0);
    assert_eq!(ratio.published, "1.96×");
    assert_eq!(ratio.band.as_deref(), Some("1.67–2.25×"));
    assert_eq!(ratio.measured, ratio.verdict.show_measured());
    // The test CPU is not the post's Ryzen: absolute figures are not judged.
    assert!(matches!(
        results.machine,
        reprise_verdict::MachineMatch::Differs(_)
    ));

    let share = session.share_preview(&id, None, None, true).unwrap();
    assert!(!share.body.contains("desk-seven"));
    assert!(share.redacted);
    assert!(share.redacted_names.iter().any(|n| n == "desk-seven"));
    assert_eq!(share.run, id);
    // Copy's Markdown comes with the preview, made as Save writes it.
    assert_eq!(share.markdown, format!("{}\n\n{}", share.title, share.body));
}

#[test]
fn every_measured_lane_is_shown_with_its_flags_the_skipped_ones_and_the_machine() {
    let data = tempfile::tempdir().unwrap();
    // nginx is the recipe's own reference lane: no figure reads it.
    let skipped = json!([{"target": "falcon", "stage": "preflight",
                          "reason": "it needs falcon, which this machine lacks", "log_tail": ""}]);
    let id = store_results_dir(
        data.path(),
        &[
            (
                "per-run.json",
                per_run(&[("puma", 2, 30_000.0), ("nginx", 1, 90_000.0)], 3),
            ),
            ("skipped.json", skipped.to_string()),
            ("env.json", env_json()),
        ],
    );
    let results = session(data.path()).results_view(&id).unwrap();
    let lane = |name: &str| {
        results
            .lanes
            .iter()
            .find(|l| l.lane == name)
            .unwrap_or_else(|| panic!("no lane {name} in {:?}", results.lanes))
    };
    let cell = |lane: &str, metric: &str| {
        self::lane_cell(lane, metric, &results.lanes)
            .unwrap_or_else(|| panic!("no {lane} {metric} cell"))
    };
    let nginx = lane("nginx");
    assert!(nginx.no_figure);
    assert_eq!((nginx.runs, nginx.endpoint.as_deref()), (3, Some("/")));
    assert!(nginx.flags.is_empty(), "{:?}", nginx.flags);
    let throughput = cell("nginx", "req_per_s");
    assert_eq!(throughput.stats.as_ref().unwrap().median, 90_200.0);
    assert_eq!(throughput.median, "90,200 req/s");
    assert!(matches!(
        throughput.status,
        reprise_verdict::CellStatus::Valid
    ));
    let interval = throughput.interval.unwrap();
    assert!(interval.low <= 90_200.0 && interval.high >= 90_200.0);
    assert_eq!(
        throughput.measured,
        reprise_recipe::reading::interval(interval.estimate, interval.low, interval.high, "req/s")
    );
    assert_eq!(cell("puma", "req_per_s").figures, ["puma-hello"]);
    assert!(!lane("puma").no_figure);
    assert_eq!(cell("puma", "p99_ms").stats.as_ref().unwrap().median, 1.2);
    assert!(
        results
            .units
            .iter()
            .any(|u| u.unit == "ms" && u.name == "tail latency")
    );

    let falcon = results
        .not_measured
        .iter()
        .find(|l| l.lane == "falcon")
        .unwrap_or_else(|| panic!("falcon is not listed: {:?}", results.not_measured));
    assert!(
        falcon.why.contains("which this machine lacks"),
        "{falcon:?}"
    );

    let fact = |name: &str| {
        results
            .measured_on
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.value.clone())
    };
    assert_eq!(fact("CPU").as_deref(), Some("Test CPU"));
    assert_eq!(fact("Memory").as_deref(), Some("8.0 GiB"));
    assert_eq!(fact("Host"), None, "the summary does not name the host");

    // The run list words its counts as the headline does.
    let runs = session(data.path()).history().unwrap().list().unwrap();
    assert_eq!(runs[0].tally, results.tally);
    assert!(!runs[0].smoke_run);
}

/// One run of each cell has no spread: the lane says so once; the reports'
/// spread column says the same of each cell.
#[test]
fn a_lane_of_one_run_says_it_has_no_spread_to_read() {
    let data = tempfile::tempdir().unwrap();
    let id = store_results_dir(
        data.path(),
        &[("per-run.json", per_run(&[("puma", 2, 30_000.0)], 1))],
    );
    let session = session(data.path());
    let results = session.results_view(&id).unwrap();
    let puma = results.lanes.iter().find(|l| l.lane == "puma").unwrap();
    assert_eq!(puma.flags, ["one run: no spread to read"]);
    let report = session.report(&id).unwrap();
    let md = String::from_utf8(
        reprise_report::Exporter::render(&reprise_report::MarkdownExporter, &report).unwrap(),
    )
    .unwrap();
    assert!(
        md.contains("| puma | / | req_per_s | 1 | 30,100 req/s | 30,100–30,100 req/s | one run |"),
        "{md}"
    );
}

fn lane_cell<'a>(
    lane: &str,
    metric: &str,
    lanes: &'a [reprise_session::views::MeasuredLane],
) -> Option<&'a reprise_session::views::MeasuredCell> {
    lanes
        .iter()
        .filter(|l| l.lane == lane)
        .flat_map(|l| &l.cells)
        .find(|c| c.key.metric().name() == metric)
}

#[test]
fn the_machine_is_the_probes_fingerprint_worded_as_reprise_probe_words_it() {
    let machine = ThisMachine::probe();
    let logical = machine
        .facts
        .iter()
        .find(|f| f.name == "cpu.logical_threads")
        .expect("the probe reports the logical CPUs");
    let n: usize = logical.value.parse().unwrap();
    assert!(n >= 1);
    let labels: Vec<&str> = machine.summary.iter().map(|f| f.name.as_str()).collect();
    for label in [
        "CPU",
        "Cores",
        "Frequency",
        "Governor",
        "Boost",
        "Memory",
        "Kernel",
        "OS",
        "Virtualisation",
        "Containers",
    ] {
        assert!(labels.contains(&label), "no {label} in {labels:?}");
    }
    let cores = machine.summary.iter().find(|f| f.name == "Cores").unwrap();
    assert!(cores.value.contains(&format!("{n} threads")), "{cores:?}");
}

/// A validation's ceiling reads as `reprise validate` prints it; a ceiling
/// of one run says it has no spread to read.
#[test]
fn a_validations_ceiling_reads_as_the_cli_prints_it() {
    let validation = |runs: &[Option<f64>]| {
        let profile = reprise_validate::Profile::new(
            "quick",
            reprise_probe::Fingerprint::default(),
            Vec::new(),
            machine::quiet_stability(),
            machine::ceiling(runs, true),
        );
        Validation::of(profile, None)
    };
    let one = validation(&[Some(74_210.0), None, None]);
    assert_eq!(
        one.ceiling,
        "74,210 req/s median over 1 run, no spread to read"
    );
    assert_eq!(
        one.ceiling_split,
        "server on CPU 0, load generator on CPU 1"
    );
    assert_eq!(one.history, HistoryOutcome::NothingToStore);
    let three = validation(&[Some(74_210.0), Some(73_900.0), Some(74_800.0)]);
    assert_eq!(
        three.ceiling,
        "74,210 req/s median over 3 runs, spread 0.5%"
    );
}

/// A quick run of hello-ceiling as a page starts it: the plan's rows say
/// what a full run and a quick one measure, the events name each cell, every
/// lane not measured is said with why, and the results are stored.
#[test]
fn a_quick_run_goes_from_its_plan_rows_to_its_results() {
    let data = tempfile::tempdir().unwrap();
    let session = session(data.path());
    let plan = |choices| session.plan_for("hello-ceiling", choices).unwrap();
    let before = plan(RunChoices::default());
    assert_eq!(before.resumes, None);
    // Falcon is not installed (scripts/test leaves it out) and this machine
    // is not the post's: a run here judges no claim of hello-ceiling, and
    // the plan names recipes a run here can judge instead.
    assert!(before.claims.judges_nothing(), "{:?}", before.claims);
    assert!(
        before
            .judged_elsewhere
            .iter()
            .any(|r| r == "fibers-vs-threads"),
        "{:?}",
        before.judged_elsewhere
    );
    assert!(!before.judged_elsewhere.iter().any(|r| r == "hello-ceiling"));
    assert!(before.steps.iter().all(|s| !s.why.is_empty()));
    // A new run's steps are all run, with no reason to give.
    assert!(
        before
            .steps
            .iter()
            .all(|s| s.decision == "run" && s.reason.is_none())
    );
    // The measuring step says what a full run and a quick one measure.
    let measure = before.steps.iter().find(|s| s.id == "measure").unwrap();
    let (full, fast) = (
        measure.expected.as_ref().unwrap(),
        measure.expected_quick.as_ref().unwrap(),
    );
    assert_eq!((full.runs, fast.runs), (3, 2));
    assert!(
        fast.summary.contains("× 2 runs of 2 s (quick: "),
        "{}",
        fast.summary
    );
    assert!(
        before
            .steps
            .iter()
            .filter(|s| s.id != "measure")
            .all(|s| s.expected.is_none() && s.expected_quick.is_none())
    );

    let events = std::sync::Mutex::new(Vec::new());
    let mut loaded = session.load_recipe("hello-ceiling").unwrap();
    let quick = RunChoices {
        quick: true,
        ..RunChoices::default()
    };
    let options = quick.options(&mut loaded.recipe, "a page").unwrap();
    let prepared = session.prepare(&loaded, &options).unwrap();
    let outcome = session
        .execute(prepared, &|e: Event| events.lock().unwrap().push(e))
        .unwrap();
    let seen = events.into_inner().unwrap();
    assert_eq!(
        seen[0],
        Event::Run {
            id: outcome.run.clone(),
            dir: data
                .path()
                .join("runs")
                .join(&outcome.run)
                .display()
                .to_string()
        }
    );
    // Every planned step ends in exactly one of the outcome's lists, and the
    // events said so for each.
    let steps = &outcome.steps;
    let ended =
        steps.finished.len() + steps.reused.len() + steps.skipped.len() + steps.failed.len();
    assert_eq!(ended, before.steps.len(), "{outcome:?}");
    for step in &steps.skipped {
        assert!(
            seen.iter()
                .any(|e| matches!(e, Event::Skipped { step: s, .. } if s == step)),
            "{seen:?}"
        );
    }
    assert!(
        !session.cancel("hello-ceiling"),
        "nothing is running any more"
    );
    // The events name the cell being measured.
    let cells: Vec<reprise_engine::LiveCell> =
        seen.iter().filter_map(|e| e.progress()?.cell).collect();
    assert!(
        cells
            .iter()
            .any(|c| c.lane == "puma" && c.endpoint == "/" && (1..=2).contains(&c.run)),
        "{cells:?}"
    );
    // Every lane not measured is in the outcome with why, and its line says
    // so: falcon, which scripts/test does not install (puma and nginx it does).
    let skipped: Vec<&str> = outcome
        .skipped_lanes
        .iter()
        .map(|l| l.lane.as_str())
        .collect();
    assert_eq!(skipped, ["falcon"], "{outcome:?}");
    assert!(
        outcome.skipped_lanes[0]
            .why
            .contains("it needs falcon, which this machine lacks"),
        "{:?}",
        outcome.skipped_lanes
    );
    for lane in &outcome.skipped_lanes {
        assert!(lane.why.contains(": "), "{lane:?}");
        assert!(outcome.summary.contains(&lane.lane), "{}", outcome.summary);
    }
    assert!(!outcome.summary.contains(" 0 "), "{}", outcome.summary);

    // Every step ended: the next start is a new run, not a resume of this one.
    let after = plan(RunChoices::default());
    assert_eq!(after.resumes, None, "{:?}", after.steps);
    // Killed while measuring, it is resumed, and each row says why it is
    // kept or run.
    let state_file = data
        .path()
        .join("runs")
        .join(&outcome.run)
        .join("state.json");
    let mut state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&state_file).unwrap()).unwrap();
    state["steps"]["measure"]["status"] = "running".into();
    std::fs::write(&state_file, serde_json::to_vec(&state).unwrap()).unwrap();
    let killed = plan(RunChoices::default());
    assert_eq!(killed.resumes.as_deref(), Some(outcome.run.as_str()));
    assert!(
        killed.steps.iter().all(|s| s.reason.is_some()),
        "{:?}",
        killed.steps
    );
    let measure = killed.steps.iter().find(|s| s.id == "measure").unwrap();
    assert_eq!(measure.decision, "run", "{measure:?}");

    // With Debian's puma and nginx (scripts/test installs them) the quick run
    // measures, and the measurements are judged into the results history.
    assert_eq!(
        outcome.history,
        HistoryOutcome::Stored {
            id: outcome.run.clone()
        },
        "{outcome:?}"
    );
    assert!(
        seen.iter()
            .any(|e| matches!(e, Event::Note { message } if message.contains("stored run"))),
        "{seen:?}"
    );
    let stored = session.results_view(&outcome.run).unwrap();
    assert!(!stored.verdicts.is_empty());
    assert!(
        stored.figures.iter().any(|f| f.reading.stats.is_some()),
        "{:?}",
        stored.figures
    );
}
