//! The results history: every run judged on this machine, in one SQLite
//! database in the data dir — the run, its cells (for listing and comparing
//! without parsing), and the whole report as JSON (to render it again).
//!
//! Storing and loading only: what a report holds is `reprise-report`'s, how
//! a run is judged `reprise-verdict`'s.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let history = reprise_history::History::open(dir.path()).unwrap();
//! assert!(history.list().unwrap().is_empty());
//! ```

use std::path::{Path, PathBuf};

use reprise_recipe::shown::escaped_text;
use reprise_report::Report;
use reprise_verdict::{CellKey, Outcome};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

/// The database file's name inside the data dir.
pub const HISTORY_FILE: &str = "history.sqlite";

/// Why the history could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", file.display())]
    Sql {
        file: PathBuf,
        source: rusqlite::Error,
    },
    #[error("a stored report: {0}")]
    Json(#[from] serde_json::Error),
    #[error("no run `{0}` in the history (`reprise history` lists them)")]
    UnknownRun(String),
    /// A report that would not read back as written (JSON writes a figure
    /// that is not finite as null): it is not stored, so every stored run
    /// loads as it was judged.
    #[error(
        "run `{id}` was not stored: its report does not read back as written ({})",
        source.as_ref().map_or("a figure that is not finite reads back as none".to_string(), ToString::to_string)
    )]
    DoesNotReadBack {
        id: String,
        source: Option<serde_json::Error>,
    },
}

/// A run as `reprise history` lists it (and the app's Results page: its
/// TypeScript type is generated from this one).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct RunSummary {
    pub id: String,
    pub created_at: String,
    pub recipe: String,
    pub title: String,
    pub origin: Option<String>,
    pub cells: u32,
    pub reproduced: u32,
    pub not_reproduced: u32,
    pub inconclusive: u32,
    /// Claims whose cells a gate refused (errors, a saturated client). Runs
    /// stored before this was counted read 0 here (their report's verdicts
    /// say "inconclusive").
    pub no_data: u32,
    /// Claims no cell measured (the lane cannot be run or was skipped). Runs
    /// stored before this was counted read 0 here.
    pub not_measured: u32,
    pub not_comparable: u32,
    /// A smoke run (`--quick`): capped durations, warm-ups and runs, so its
    /// numbers are not a measurement (read from the stored report, so runs
    /// stored before this was listed say so too; a report that is not
    /// valid JSON lists as not one).
    pub smoke_run: bool,
    /// How the run ended, where Reprise ran it (read from the stored report).
    pub ending: Option<reprise_report::RunEnding>,
    /// A validation's verdict on the machine (`ready`, `usable_with_caveats`,
    /// `not_suitable`), where `reprise validate` stored the run: it judges
    /// the machine, not the claims.
    pub fitness: Option<String>,
    /// The counts worded as the report's headline words them
    /// ([`Outcome::tally`]).
    pub tally: String,
}

impl RunSummary {
    /// How many of the run's verdicts came to `outcome`.
    pub fn count(&self, outcome: Outcome) -> u32 {
        match outcome {
            Outcome::Reproduced => self.reproduced,
            Outcome::NotReproduced => self.not_reproduced,
            Outcome::Inconclusive => self.inconclusive,
            Outcome::NoData => self.no_data,
            Outcome::NotMeasured => self.not_measured,
            Outcome::NotComparable => self.not_comparable,
        }
    }
}

/// One cell of two runs, side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellComparison {
    pub key: CellKey,
    pub a: Option<f64>,
    pub b: Option<f64>,
    /// b ÷ a, where both have a median.
    pub ratio: Option<f64>,
}

/// The results history.
pub struct History {
    conn: Connection,
}

fn sql(file: &Path) -> impl Fn(rusqlite::Error) -> HistoryError + '_ {
    move |source| HistoryError::Sql {
        file: file.to_path_buf(),
        source,
    }
}

impl History {
    /// Opens (creating where needed) the history in `dir`.
    pub fn open(dir: &Path) -> Result<History, HistoryError> {
        std::fs::create_dir_all(dir).map_err(|source| HistoryError::Io {
            file: dir.to_path_buf(),
            source,
        })?;
        let file = dir.join(HISTORY_FILE);
        let conn = Connection::open(&file).map_err(sql(&file))?;
        conn.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE IF NOT EXISTS runs (
                 id TEXT PRIMARY KEY,
                 created_at TEXT NOT NULL,
                 recipe TEXT NOT NULL,
                 title TEXT NOT NULL,
                 origin TEXT,
                 reproduced INTEGER NOT NULL,
                 not_reproduced INTEGER NOT NULL,
                 inconclusive INTEGER NOT NULL,
                 not_comparable INTEGER NOT NULL,
                 report TEXT NOT NULL,
                 no_data INTEGER NOT NULL DEFAULT 0,
                 not_measured INTEGER NOT NULL DEFAULT 0
             );
             CREATE TABLE IF NOT EXISTS cells (
                 run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                 lane TEXT NOT NULL,
                 endpoint TEXT,
                 metric TEXT NOT NULL,
                 runs INTEGER NOT NULL,
                 median REAL,
                 min REAL,
                 max REAL,
                 cv REAL,
                 status TEXT NOT NULL
             );",
        )
        .map_err(sql(&file))?;
        // A history made before no data and not measured were outcomes of
        // their own: add their counts, 0 for the runs already stored.
        for column in ["no_data", "not_measured"] {
            let present: bool = conn
                .query_row(
                    "SELECT COUNT(*) FROM pragma_table_info('runs') WHERE name = ?1",
                    [column],
                    |r| r.get::<_, i64>(0),
                )
                .map_err(sql(&file))?
                > 0;
            if !present {
                conn.execute_batch(&format!(
                    "ALTER TABLE runs ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"
                ))
                .map_err(sql(&file))?;
            }
        }
        Ok(History { conn })
    }

    fn file(&self) -> PathBuf {
        self.conn
            .path()
            .map_or_else(|| PathBuf::from(HISTORY_FILE), PathBuf::from)
    }

    /// A fresh id for a run of `recipe` made at `created_at` (RFC 3339):
    /// `recipe-YYYYMMDD-HHMMSS`, with a suffix when taken.
    pub fn new_id(&self, recipe: &str, created_at: &str) -> Result<String, HistoryError> {
        let stamp: String = created_at
            .chars()
            .filter(|c| c.is_ascii_digit())
            .take(14)
            .collect();
        let base = if stamp.len() == 14 {
            format!("{recipe}-{}-{}", &stamp[..8], &stamp[8..])
        } else {
            recipe.to_string()
        };
        let mut id = base.clone();
        let mut n = 2;
        while self.exists(&id)? {
            id = format!("{base}-{n}");
            n += 1;
        }
        Ok(id)
    }

    fn exists(&self, id: &str) -> Result<bool, HistoryError> {
        let file = self.file();
        self.conn
            .query_row("SELECT 1 FROM runs WHERE id = ?1", [id], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
            .map_err(sql(&file))
    }

    /// Stores a run (replacing one with the same id): written, read back,
    /// and only then committed, so that a stored run always loads.
    pub fn store(&mut self, report: &Report) -> Result<(), HistoryError> {
        let file = self.file();
        let json = serde_json::to_string(report)?;
        let does_not_read_back = |source| HistoryError::DoesNotReadBack {
            id: report.run.id.clone(),
            source,
        };
        let back: Report = serde_json::from_str(&json).map_err(|e| does_not_read_back(Some(e)))?;
        if back != *report {
            return Err(does_not_read_back(None));
        }
        let j = &report.judgement;
        let tx = self.conn.transaction().map_err(sql(&file))?;
        tx.execute("DELETE FROM runs WHERE id = ?1", [&report.run.id])
            .map_err(sql(&file))?;
        tx.execute(
            "INSERT INTO runs (id, created_at, recipe, title, origin, reproduced, not_reproduced, inconclusive, not_comparable, report, no_data, not_measured)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                report.run.id,
                report.run.created_at,
                report.run.recipe,
                report.run.title,
                report.run.origin,
                j.count(Outcome::Reproduced) as i64,
                j.count(Outcome::NotReproduced) as i64,
                j.count(Outcome::Inconclusive) as i64,
                j.count(Outcome::NotComparable) as i64,
                json,
                j.count(Outcome::NoData) as i64,
                j.count(Outcome::NotMeasured) as i64,
            ],
        )
        .map_err(sql(&file))?;
        for c in &j.cells {
            let s = c.stats.as_ref();
            tx.execute(
                "INSERT INTO cells (run_id, lane, endpoint, metric, runs, median, min, max, cv, status)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    report.run.id,
                    c.cell.key.lane,
                    c.cell.key.endpoint,
                    c.cell.key.metric().name(),
                    c.cell.runs.len() as i64,
                    s.map(|s| s.median),
                    s.map(|s| s.min),
                    s.map(|s| s.max),
                    s.map(|s| s.cv),
                    c.status.describe()
                ],
            )
            .map_err(sql(&file))?;
        }
        tx.commit().map_err(sql(&file))
    }

    /// Every run, newest first.
    pub fn list(&self) -> Result<Vec<RunSummary>, HistoryError> {
        let file = self.file();
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, created_at, recipe, title, origin, reproduced, not_reproduced, inconclusive, not_comparable,
                        (SELECT COUNT(*) FROM cells WHERE run_id = runs.id), no_data, not_measured,
                        -- A malformed report lists (not as a smoke run); only loading it fails.
                        CASE WHEN json_valid(runs.report) THEN
                            EXISTS (SELECT 1 FROM json_each(runs.report, '$.judgement.deviations')
                                    WHERE json_extract(value, '$.kind') = 'quick')
                        ELSE 0 END,
                        CASE WHEN json_valid(runs.report) THEN json_extract(runs.report, '$.run.ending') END,
                        CASE WHEN json_valid(runs.report) THEN json_extract(runs.report, '$.environment.harness.fitness') END
                 FROM runs ORDER BY created_at DESC, id DESC",
            )
            .map_err(sql(&file))?;
        let rows = stmt
            .query_map([], |row| {
                let text = |i: usize| {
                    row.get::<_, String>(i)
                        .map(|t| escaped_text(&t).into_owned())
                };
                let mut run = RunSummary {
                    id: text(0)?,
                    created_at: text(1)?,
                    recipe: text(2)?,
                    title: text(3)?,
                    origin: row
                        .get::<_, Option<String>>(4)?
                        .map(|o| escaped_text(&o).into_owned()),
                    reproduced: row.get(5)?,
                    not_reproduced: row.get(6)?,
                    inconclusive: row.get(7)?,
                    not_comparable: row.get(8)?,
                    cells: row.get(9)?,
                    no_data: row.get(10)?,
                    not_measured: row.get(11)?,
                    smoke_run: row.get(12)?,
                    ending: row
                        .get::<_, Option<String>>(13)?
                        .and_then(|e| serde_json::from_value(serde_json::Value::String(e)).ok()),
                    fitness: row
                        .get::<_, Option<String>>(14)?
                        .filter(|f| f.chars().all(|c| c.is_ascii_lowercase() || c == '_')),
                    tally: String::new(),
                };
                run.tally = Outcome::tally(|o| run.count(o) as usize);
                Ok(run)
            })
            .map_err(sql(&file))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(sql(&file))
    }

    /// A stored run's report.
    pub fn load(&self, id: &str) -> Result<Report, HistoryError> {
        let file = self.file();
        let json: Option<String> = self
            .conn
            .query_row("SELECT report FROM runs WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .map_err(sql(&file))?;
        match json {
            Some(json) => {
                let mut report: serde_json::Value = serde_json::from_str(&json)?;
                escape_text(&mut report);
                Ok(serde_json::from_value(report)?)
            }
            None => Err(HistoryError::UnknownRun(id.to_string())),
        }
    }
}

/// Every string of a stored report as [`escaped_text`] shows it: what a
/// run judged now holds no character a printer could not show (its harness
/// files and recipe are refused at read when they do), but a run stored by
/// an older Reprise or written into the history by another program may, and
/// every printer of it (the reports, the share preview, compare, the app)
/// reads it from here.
fn escape_text(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) => {
            if let std::borrow::Cow::Owned(shown) = escaped_text(text) {
                *text = shown;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(escape_text),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(escape_text),
        _ => {}
    }
}

/// The cells of two runs side by side, with b ÷ a.
pub fn compare(a: &Report, b: &Report) -> Vec<CellComparison> {
    let median = |r: &Report, key: &CellKey| {
        r.judgement
            .cells
            .iter()
            .find(|c| &c.cell.key == key)
            .filter(|c| c.status.is_valid())
            .and_then(|c| c.stats.as_ref().map(|s| s.median))
    };
    let mut keys: Vec<CellKey> = Vec::new();
    for r in [a, b] {
        for c in &r.judgement.cells {
            if !keys.contains(&c.cell.key) {
                keys.push(c.cell.key.clone());
            }
        }
    }
    keys.into_iter()
        .map(|key| {
            let (x, y) = (median(a, &key), median(b, &key));
            CellComparison {
                ratio: x.zip(y).filter(|(x, _)| *x != 0.0).map(|(x, y)| y / x),
                a: x,
                b: y,
                key,
            }
        })
        .collect()
}
