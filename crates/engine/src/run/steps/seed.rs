//! `seed`: the command that fills the seed database, then its row counts
//! checked against the recipe's (`verify = { users = 50 }`) through
//! rusqlite; the counts go to `results/<step>.json`.

use std::collections::BTreeMap;

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{Recipe, SeedStep};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, command_words, run_process, within};
use crate::inputs::database;
use crate::run::resume::{OutputsGone, Resume};

impl Kind for SeedStep {
    fn describe(&self, _: &Recipe) -> String {
        let counts: Vec<String> = self
            .verify
            .iter()
            .map(|(table, rows)| format!("{} = {rows}", show(table)))
            .collect();
        format!(
            "{}, then count the rows of {}{}",
            command_words(&self.command, self.dir.as_deref()),
            show(&self.database),
            match counts.is_empty() {
                true => String::new(),
                false => format!(" (expecting {})", counts.join(", ")),
            }
        )
    }

    /// A seeded database is used (written to) by the steps after it: kept
    /// while it is there, whatever they wrote.
    fn outputs_now(&self, resume: &Resume) -> Option<Result<String, OutputsGone>> {
        let file = within(&resume.run.path, &self.database).ok()?;
        Some(if file.is_file() {
            Ok(format!("{} is there", self.database))
        } else {
            Err(OutputsGone::Gone(self.database.clone()))
        })
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(
            s,
            &self.command,
            self.dir.as_deref(),
            &self.env,
            &self.database,
            &self.verify,
        )
    }
}

fn run(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
    database: &str,
    verify: &BTreeMap<String, u64>,
) -> Result<Produced, StepFailure> {
    run_process(s, command, dir, env, &[])?;
    let path = within(&s.ctx.run.path, database)?;
    let counts = database::verify_counts(&path, verify)?;
    let shown: Vec<String> = counts.iter().map(|(t, n)| format!("{t} {n}")).collect();
    s.note(format!("seed verified: {}", shown.join(", ")));
    s.ctx
        .results()
        .write(&format!("{}.json", s.id()), &counts)?;
    Ok(Produced::default())
}
