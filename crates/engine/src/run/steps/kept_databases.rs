//! Every lane reads the seed: where a load step's workload writes (a POST),
//! the databases the run seeded and staged are kept as they were when the
//! step began, and written back before any round that would otherwise read
//! another round's writes.
//!
//! The harness (rubys/roundhouse `scripts/bench-campfire`) measures one lane
//! at a time and, after a lane that POSTed, stops it and copies the clean
//! seed over the oracle's database and every tree's. Reprise rotates rounds
//! between lanes that stay up, so it restores with SQLite's backup API into
//! the live files (servers read the restored rows from their next query)
//! and does it per round: each round of each lane starts from the same
//! rows, the sessions the sign-in made among them. Within a round the
//! workload's order holds, the POST last as in the harness's suite.

use std::path::PathBuf;

use reprise_recipe::{Action, Workload};

use super::{StepFailure, StepInput, within};
use crate::inputs::database;

/// The databases of the run kept at the start of a load step, and which
/// round wrote since they were last written back.
pub(super) struct KeptDatabases {
    /// Each live database, with its copy as the step began.
    kept: Vec<(PathBuf, PathBuf)>,
    /// Where the copies are: a folder of the run's made with a name no step
    /// could have known (so none left a link there), removed with them.
    folder: Option<tempfile::TempDir>,
    /// The round (lane, run) whose writes the databases hold now.
    written_by: Option<(String, u32)>,
    /// How many times the databases were written back.
    restored: u32,
}

impl KeptDatabases {
    /// Keeps a copy of every database the recipe's `seed` and `stage`
    /// steps name that exists now, where `workload` writes; none otherwise.
    pub fn keep(s: &StepInput, workload: &Workload) -> Result<KeptDatabases, StepFailure> {
        let mut kept = KeptDatabases {
            kept: Vec::new(),
            folder: None,
            written_by: None,
            restored: 0,
        };
        if !workload.endpoints.iter().any(|e| writes(&e.method)) {
            return Ok(kept);
        }
        let run = &s.ctx.run;
        let mut live: Vec<(String, PathBuf)> = Vec::new();
        for step in &s.recipe.steps {
            match &step.action {
                Action::Seed(seed) => {
                    let database = &seed.database;
                    live.push((database.clone(), within(&run.path, database)?));
                }
                Action::Stage(stage) => {
                    let (database, tree, to) = (&stage.database, &stage.tree, &stage.to);
                    live.push((database.clone(), within(&run.path, database)?));
                    live.push((
                        format!("trees/{tree}/{to}"),
                        within(&within(&run.trees(), tree)?, to)?,
                    ));
                }
                _ => {}
            }
        }
        let folder = tempfile::Builder::new()
            .prefix("kept-databases-")
            .tempdir_in(&run.path)
            .map_err(|source| database::DatabaseError::Io {
                path: run.path.display().to_string(),
                source,
            })?;
        let mut named = Vec::new();
        for (shown, path) in live {
            if !path.is_file() || kept.kept.iter().any(|(p, _)| p == &path) {
                continue;
            }
            let copy = folder.path().join(format!("{}.sqlite3", kept.kept.len()));
            database::copy(&path, &copy)?;
            kept.kept.push((path, copy));
            named.push(shown);
        }
        kept.folder = Some(folder);
        if !named.is_empty() {
            s.note(format!(
                "every round starts from the rows the lanes read now: after a round that writes, {} {} written back as {} before the next round",
                named.join(", "),
                if named.len() == 1 { "is" } else { "are" },
                if named.len() == 1 { "it was" } else { "they were" },
            ));
        }
        Ok(kept)
    }

    /// Before run `run` of `lane`: the databases written back where another
    /// round wrote to them.
    pub fn before(&mut self, s: &StepInput, lane: &str, run: u32) {
        let Some((by, in_run)) = &self.written_by else {
            return;
        };
        if by == lane && *in_run == run {
            return;
        }
        self.write_back(s);
    }

    /// After a cell of run `run` of `lane`: where its endpoint writes, the
    /// databases hold that round's writes.
    pub fn after(&mut self, lane: &str, run: u32, method: &str) {
        if writes(method) && !self.kept.is_empty() {
            self.written_by = Some((lane.to_string(), run));
        }
    }

    /// When the step ends, however it ends: the databases as the step found
    /// them, and the copies removed.
    pub fn finish(&mut self, s: &StepInput) {
        if self.kept.is_empty() {
            return;
        }
        if self.written_by.is_some() {
            self.write_back(s);
        }
        if self.restored > 0 {
            s.note(format!(
                "the databases were written back {} after rounds that wrote",
                reprise_recipe::reading::count(self.restored, "time")
            ));
        }
        self.kept.clear();
        self.folder = None;
    }

    fn write_back(&mut self, s: &StepInput) {
        let mut failed = Vec::new();
        for (live, copy) in &self.kept {
            if let Err(e) = database::restore(copy, live) {
                failed.push(e.to_string());
            }
        }
        if failed.is_empty() {
            self.written_by = None;
            self.restored += 1;
        } else {
            // Tried again before the next cell; the note says what the
            // cells until then read.
            s.note(format!(
                "could not write the databases back ({}): the next cells read what the last round wrote",
                failed.join("; ")
            ));
        }
    }
}

/// Whether a request with `method` writes (anything but GET and HEAD).
fn writes(method: &str) -> bool {
    !method.eq_ignore_ascii_case("GET") && !method.eq_ignore_ascii_case("HEAD")
}
