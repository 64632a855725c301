//! `stage`: the seed database copied into a tree through SQLite's backup
//! API (a consistent snapshot even in WAL mode); the copy's SHA-256 is the
//! step's output.

use reprise_recipe::shown::escaped as show;
use reprise_recipe::{Recipe, StageStep};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, within};
use crate::inputs::database;
use crate::run::resume::{OutputsGone, Resume};

impl Kind for StageStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "copy {} into trees/{}/{} (SQLite backup)",
            show(&self.database),
            show(&self.tree),
            show(&self.to)
        )
    }

    /// The staged database is the lanes' to write to, as a seeded one is:
    /// kept while it is there, whatever they wrote.
    fn outputs_now(&self, resume: &Resume) -> Option<Result<String, OutputsGone>> {
        let (tree, to) = (&self.tree, &self.to);
        let file = within(&within(&resume.run.trees(), tree).ok()?, to).ok()?;
        Some(if file.is_file() {
            Ok(format!("trees/{tree}/{to} is there"))
        } else {
            Err(OutputsGone::Gone(format!("trees/{tree}/{to}")))
        })
    }

    fn what_changed(&self, _: &Resume) -> String {
        format!("trees/{}/{} changed", self.tree, self.to)
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, &self.database, &self.tree, &self.to)
    }
}

fn run(s: &StepInput, db: &str, tree: &str, to: &str) -> Result<Produced, StepFailure> {
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
