//! `command`: a plain command. One that prints a JSON object as its last
//! line of output leaves it in `results/<step>.json`, for the report (a
//! command step named like a lane measures that lane). A step that repeats
//! runs the command `repeat` times, one after the other, and leaves every
//! run's object there, in order, as an array: each one run of the lane's
//! cells.

use std::collections::BTreeMap;

use reprise_recipe::{CommandStep, Recipe};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, command_words};

impl Kind for CommandStep {
    fn describe(&self, _: &Recipe) -> String {
        command_words(&self.command, self.dir.as_deref())
    }

    fn run(&self, s: &StepInput, _: &mut Lanes) -> Result<Produced, StepFailure> {
        run(
            s,
            &self.command,
            self.dir.as_deref(),
            &self.env,
            self.repeat,
        )
    }
}

fn run(
    s: &StepInput,
    command: &[String],
    dir: Option<&str>,
    env: &BTreeMap<String, String>,
    repeat: u32,
) -> Result<Produced, StepFailure> {
    let mut printed = Vec::new();
    for _ in 0..repeat.max(1) {
        super::build::run(s, command, dir, env)?;
        printed.extend(last_object(s));
    }
    let figures = match printed.len() {
        0 => return Ok(Produced::default()),
        1 if repeat <= 1 => printed.remove(0),
        _ => serde_json::Value::Array(printed),
    };
    s.ctx
        .results()
        .write(&format!("{}.json", s.id()), &figures)?;
    Ok(Produced::default())
}

/// The JSON object the command printed last, from its log (each run of the
/// command writes the log afresh).
fn last_object(s: &StepInput) -> Option<serde_json::Value> {
    let log = s.ctx.run.logs().join(format!("{}.log", s.id()));
    let text = std::fs::read_to_string(&log).ok()?;
    text.lines().rev().find_map(|l| {
        serde_json::from_str::<serde_json::Value>(l.trim())
            .ok()
            .filter(|v| v.is_object())
    })
}
