//! `seed`: the command that fills the seed database, then its row counts
//! checked against the recipe's (`verify = { users = 50 }`) through
//! rusqlite; the counts go to `results/<step>.json`.

use std::collections::BTreeMap;

use super::{Produced, StepFailure, StepInput, run_process, within};
use crate::inputs::database;

pub(crate) fn run(
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
