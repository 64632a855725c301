//! `stage`: the seed database copied into a tree through SQLite's backup
//! API (a consistent snapshot even in WAL mode); the copy's SHA-256 is the
//! step's output.

use super::{Produced, StepFailure, StepInput, within};
use crate::inputs::database;

pub(crate) fn run(s: &StepInput, db: &str, tree: &str, to: &str) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let source = within(&ctx.run.path, db)?;
    let dest = within(&within(&ctx.run.trees(), tree)?, to)?;
    let digest = database::stage(&source, &dest)?;
    s.note(format!(
        "staged {db} into trees/{tree}/{to}, sha256 {digest}"
    ));
    Ok(Produced {
        commit: None,
        outputs: Some(digest),
    })
}
