//! `command`: a plain command. One that prints a JSON object as its last
//! line of output leaves it in `results/<step>.json`, for the report (a
//! command step named like a lane measures that lane).

use std::collections::BTreeMap;

use super::{Done, StepFailure, StepInput};

pub(crate) fn run(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
) -> Result<Done, StepFailure> {
    super::build::run(s, command, dir, env)?;
    let log = s.ctx.run.logs().join(format!("{}.log", s.id()));
    let Ok(text) = std::fs::read_to_string(&log) else {
        return Ok(Done::default());
    };
    let figures = text.lines().rev().find_map(|l| {
        serde_json::from_str::<serde_json::Value>(l.trim())
            .ok()
            .filter(|v| v.is_object())
    });
    if let Some(figures) = figures {
        s.ctx
            .results()
            .write(&format!("{}.json", s.id()), &figures)?;
    }
    Ok(Done::default())
}
