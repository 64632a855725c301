//! `command`: a plain command. One that prints a JSON object as its last
//! line of output leaves it in `results/<step>.json`, for the report (a
//! command step named like a lane measures that lane). A step that repeats
//! runs the command `repeat` times, one after the other, and leaves every
//! run's object there, in order, as an array: each one run of the lane's
//! cells. A reader sees each run's figures as a sentence (`run 3 of 5:
//! count 10,000, seconds 0.15 s, memory_mb 6,541.3 MB`); the JSON lines
//! stay in the step's log, not on the terminal or the Run page.

use std::collections::BTreeMap;

use reprise_recipe::reading::value;
use reprise_recipe::{CommandStep, Metric, Recipe};

use super::{Kind, Lanes, Produced, StepFailure, StepInput, command_words, run_process_to};
use crate::event::{Event, EventSink, Stream};

impl Kind for CommandStep {
    fn describe(&self, _: &Recipe) -> String {
        command_words(&self.command, self.dir.as_deref())
    }

    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
        let produced = run(
            s,
            &self.command,
            self.dir.as_deref(),
            &self.env,
            self.repeat,
        )?;
        // A step that measured (its figures written) records the machine it
        // measured on, as a load step does.
        if s.ctx
            .run
            .results()
            .join(format!("{}.json", s.id()))
            .exists()
        {
            let tools = lanes.toolchains_asked(s).clone();
            super::rounds::record_machine(s, &tools, None, &serde_json::Value::Null)?;
        }
        Ok(produced)
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
    let runs = repeat.max(1);
    let quiet = ObjectsInTheLog {
        step: s.id(),
        events: s.ctx.events,
    };
    for run in 1..=runs {
        run_process_to(s, command, dir, env, &[], &quiet)?;
        let object = last_object(s);
        if let Some(object) = &object {
            s.note(figures_sentence(s, object, run, runs));
        }
        printed.extend(object);
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

/// A step's events with the JSON objects its command prints (its figures)
/// kept to its log: the reader sees them as [`figures_sentence`] words them.
struct ObjectsInTheLog<'a> {
    step: &'a str,
    events: &'a dyn EventSink,
}

impl EventSink for ObjectsInTheLog<'_> {
    fn emit(&self, event: Event) {
        if let Event::Log {
            step,
            stream: Stream::Stdout,
            line,
        } = &event
            && step == self.step
            && line.trim_start().starts_with('{')
            && serde_json::from_str::<serde_json::Value>(line.trim()).is_ok_and(|v| v.is_object())
        {
            return;
        }
        self.events.emit(event)
    }
}

/// One run's figures in words: the metrics the recipe's figures read for
/// the lane this step measures (a step named like a lane), as the object
/// gives them: `run 3 of 5: count 10,000, seconds 0.15 s, memory_mb 6,541.3 MB`.
fn figures_sentence(s: &StepInput, object: &serde_json::Value, run: u32, runs: u32) -> String {
    let mut metrics: Vec<Metric> = Vec::new();
    for figure in s.recipe.figures.iter().filter(|f| f.lane == s.id()) {
        if !metrics.contains(&figure.metric) {
            metrics.push(figure.metric);
        }
    }
    let read: Vec<String> = metrics
        .iter()
        .filter_map(|m| {
            let v = object.get(m.name())?.as_f64()?;
            Some(format!("{} {}", m.name(), value(v, m.unit())))
        })
        .collect();
    let which = match runs {
        1 => String::new(),
        n => format!("run {run} of {n}: "),
    };
    match read.is_empty() {
        true => format!(
            "{which}its figures are in logs/{}.log and results/{}.json",
            s.id(),
            s.id()
        ),
        false => format!("{which}{}", read.join(", ")),
    }
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
