//! The results history: runs stored in a real SQLite file in a temp data
//! dir, listed, loaded back and compared.

#[path = "../../report/tests/fixture/mod.rs"]
mod fixture;

use reprise_history::{History, HistoryError, compare};
use reprise_recipe::Metric;
use reprise_report::RunInfo;
use reprise_verdict::{CellKey, MachineMatch, Settings, judge};

fn faster_run(id: &str) -> reprise_report::Report {
    let recipe = fixture::recipe();
    let mut m = fixture::measurements();
    for cell in &mut m.cells {
        if cell.key.metric() == Metric::ReqPerS {
            for run in &mut cell.runs {
                run.value = run.value.map(|v| v * 1.5);
            }
        }
    }
    let judgement = judge(&recipe, &m, &MachineMatch::Matches, &Settings::default());
    reprise_report::Report {
        run: RunInfo::for_recipe(&recipe, id, "2026-11-30T06:00:00Z"),
        judgement,
        measurements: m,
        environment: fixture::environment(),
        people: Vec::new(),
    }
}

#[test]
fn runs_are_stored_listed_newest_first_and_loaded_back() {
    let dir = tempfile::tempdir().unwrap();
    let first = fixture::report("hello-ceiling-20261130-050000");
    let second = faster_run("hello-ceiling-20261130-060000");
    {
        let mut h = History::open(dir.path()).unwrap();
        h.store(&first).unwrap();
        h.store(&second).unwrap();
    }
    // A second open reads the same file.
    let h = History::open(dir.path()).unwrap();
    assert!(dir.path().join("history.sqlite").is_file());
    let runs = h.list().unwrap();
    assert_eq!(
        runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        [
            "hello-ceiling-20261130-060000",
            "hello-ceiling-20261130-050000"
        ]
    );
    assert_eq!(runs[1].cells, 6);
    assert_eq!((runs[1].reproduced, runs[1].not_comparable), (2, 2));
    assert_eq!(h.load(&first.run.id).unwrap(), first);
    assert!(matches!(
        h.load("nope"),
        Err(HistoryError::UnknownRun(id)) if id == "nope"
    ));
}

#[test]
fn storing_a_run_again_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path()).unwrap();
    let mut report = fixture::report("r");
    h.store(&report).unwrap();
    report.run.title = "Renamed".into();
    h.store(&report).unwrap();
    let runs = h.list().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].title, "Renamed");
    assert_eq!(runs[0].cells, 6);
}

#[test]
fn new_ids_are_stamped_and_never_reused() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path()).unwrap();
    let id = h.new_id("hello-ceiling", "2026-11-30T05:00:00Z").unwrap();
    assert_eq!(id, "hello-ceiling-20261130-050000");
    h.store(&fixture::report(&id)).unwrap();
    assert_eq!(
        h.new_id("hello-ceiling", "2026-11-30T05:00:00Z").unwrap(),
        "hello-ceiling-20261130-050000-2"
    );
}

#[test]
fn compare_puts_cells_side_by_side_with_ratios() {
    let a = fixture::report("a");
    let b = faster_run("b");
    let rows = compare(&a, &b);
    assert_eq!(rows.len(), 6);
    let puma = rows
        .iter()
        .find(|r| r.key == CellKey::new("puma", Some("/"), Metric::ReqPerS))
        .unwrap();
    assert_eq!((puma.a, puma.b), (Some(21_000.0), Some(31_500.0)));
    assert!((puma.ratio.unwrap() - 1.5).abs() < 1e-12);
    // A no-data cell has no median and so no ratio.
    let nginx = rows
        .iter()
        .find(|r| r.key == CellKey::new("nginx", Some("/"), Metric::ReqPerS))
        .unwrap();
    assert_eq!((nginx.a, nginx.ratio), (None, None));
}

/// The fixture's run with Falcon skipped and a Puma run with errors: one
/// claim no data, three not measured.
fn falcon_skipped_puma_erring(id: &str) -> reprise_report::Report {
    let recipe = fixture::recipe();
    let mut m = fixture::measurements();
    m.cells.retain(|c| c.key.lane != "falcon");
    m.not_measured.insert(
        "falcon".into(),
        vec![reprise_verdict::LaneSkip {
            stage: Some("preflight".into()),
            because: "it needs falcon, which this machine lacks".into(),
        }],
    );
    m.cells
        .iter_mut()
        .find(|c| c.key == CellKey::new("puma", Some("/"), Metric::ReqPerS))
        .unwrap()
        .runs[1]
        .errors = 3;
    let judgement = judge(&recipe, &m, &MachineMatch::Matches, &Settings::default());
    reprise_report::Report {
        run: RunInfo::for_recipe(&recipe, id, "2026-11-30T07:00:00Z"),
        judgement,
        measurements: m,
        environment: fixture::environment(),
        people: Vec::new(),
    }
}

#[test]
fn no_data_and_not_measured_are_counted_apart_from_inconclusive() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path()).unwrap();
    let report = falcon_skipped_puma_erring("r");
    h.store(&report).unwrap();
    let runs = h.list().unwrap();
    let r = &runs[0];
    assert_eq!(
        (
            r.reproduced,
            r.not_reproduced,
            r.inconclusive,
            r.no_data,
            r.not_measured,
            r.not_comparable
        ),
        (0, 0, 0, 1, 3, 0)
    );
    assert_eq!(h.load("r").unwrap(), report);
}

#[test]
fn a_history_made_before_no_data_and_not_measured_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let report = fixture::report("old-run");
    {
        // The runs table as it was, with a row stored then.
        let conn = rusqlite::Connection::open(dir.path().join("history.sqlite")).unwrap();
        conn.execute_batch(
            "CREATE TABLE runs (
                 id TEXT PRIMARY KEY, created_at TEXT NOT NULL, recipe TEXT NOT NULL,
                 title TEXT NOT NULL, origin TEXT, reproduced INTEGER NOT NULL,
                 not_reproduced INTEGER NOT NULL, inconclusive INTEGER NOT NULL,
                 not_comparable INTEGER NOT NULL, report TEXT NOT NULL
             );",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO runs VALUES ('old-run', '2026-11-30T05:00:00Z', 'hello-ceiling', 'Old', NULL, 2, 0, 1, 2, ?1)",
            [serde_json::to_string(&report).unwrap()],
        )
        .unwrap();
    }
    let mut h = History::open(dir.path()).unwrap();
    let runs = h.list().unwrap();
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(
        (
            r.reproduced,
            r.inconclusive,
            r.no_data,
            r.not_measured,
            r.not_comparable
        ),
        (2, 1, 0, 0, 2)
    );
    assert_eq!(h.load("old-run").unwrap(), report);
    // New runs go into the same table with their counts.
    h.store(&falcon_skipped_puma_erring("new-run")).unwrap();
    let runs = h.list().unwrap();
    let new = runs.iter().find(|r| r.id == "new-run").unwrap();
    assert_eq!((new.no_data, new.not_measured), (1, 3));
    // And a second open does not add the columns again.
    drop(h);
    assert_eq!(History::open(dir.path()).unwrap().list().unwrap().len(), 2);
}

#[test]
fn the_list_says_which_runs_were_smoke_runs_and_words_the_counts_as_the_headline() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path()).unwrap();
    let measured = fixture::report("measured");
    let mut smoke = falcon_skipped_puma_erring("smoke");
    smoke.judgement = smoke
        .judgement
        .with_deviations(vec![reprise_verdict::Deviation::new(
            reprise_verdict::DeviationKind::Quick,
            "a smoke run (--quick): durations, warm-ups and runs capped",
        )]);
    h.store(&measured).unwrap();
    h.store(&smoke).unwrap();
    let runs = h.list().unwrap();
    let run = |id: &str| runs.iter().find(|r| r.id == id).unwrap();
    assert!(run("smoke").smoke_run);
    assert!(!run("measured").smoke_run);
    // The list's words are the report's headline tally, every outcome counted.
    assert_eq!(run("smoke").tally, smoke.tally());
    assert_eq!(run("measured").tally, measured.tally());
    assert_eq!(run("smoke").tally, "1 no data · 3 not measured");
}

#[test]
fn a_run_whose_stored_report_is_malformed_still_lists_and_is_not_a_smoke_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path()).unwrap();
    h.store(&fixture::report("good")).unwrap();
    h.store(&falcon_skipped_puma_erring("broken")).unwrap();
    drop(h);
    {
        let conn = rusqlite::Connection::open(dir.path().join("history.sqlite")).unwrap();
        let changed = conn
            .execute(
                "UPDATE runs SET report = '{\"judgement\": ' WHERE id = 'broken'",
                [],
            )
            .unwrap();
        assert_eq!(changed, 1);
    }
    let h = History::open(dir.path()).unwrap();
    let runs = h.list().unwrap();
    let mut ids: Vec<&str> = runs.iter().map(|r| r.id.as_str()).collect();
    ids.sort();
    assert_eq!(ids, ["broken", "good"]);
    let broken = runs.iter().find(|r| r.id == "broken").unwrap();
    assert!(!broken.smoke_run);
    assert_eq!((broken.no_data, broken.not_measured), (1, 3));
    // Only loading the malformed report itself fails.
    assert!(h.load("broken").is_err());
}

/// A report that would not read back as written (a figure of 1e308 whose
/// statistics overflow, or a NaN, is written as null) is refused, and the
/// run stored before under its id is kept: every stored run loads.
#[test]
fn a_report_that_would_not_read_back_is_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path()).unwrap();
    let kept = fixture::report("r");
    h.store(&kept).unwrap();
    for poison in [f64::NAN, f64::INFINITY] {
        let mut report = fixture::report("r");
        report.measurements.cells[0].runs[0].value = Some(poison);
        let err = h.store(&report).unwrap_err();
        assert!(
            matches!(&err, HistoryError::DoesNotReadBack { id, .. } if id == "r"),
            "{err:?}"
        );
        assert_eq!(h.load("r").unwrap(), kept, "the run stored before is kept");
        assert_eq!(h.list().unwrap().len(), 1);
    }
}
