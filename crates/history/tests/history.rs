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
