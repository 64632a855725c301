//! This machine as both front ends show it: the probe's fingerprint as
//! `reprise probe` words it (`CPU`, `Cores`, `Governor`, …) and every raw
//! fact; and the machine a stored run was measured on, worded the same way.

use reprise_probe::Fingerprint;
use reprise_report::Report;
use serde::Serialize;
use ts_rs::TS;

/// The Machine page: the probe's fingerprint as facts.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ThisMachine {
    /// The fingerprint as `reprise probe` prints it: `CPU`, `Cores`,
    /// `Governor`, … each with a readable value.
    pub summary: Vec<Fact>,
    /// Every raw fact: `cpu.brand`, `clock.governor`, … with their values.
    pub facts: Vec<Fact>,
}

/// One fact of a fingerprint.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Fact {
    pub name: String,
    pub value: String,
}

impl ThisMachine {
    /// This machine's fingerprint, probed as `reprise probe` probes it.
    pub fn probe() -> ThisMachine {
        ThisMachine::of(&Fingerprint::probe())
    }

    /// A machine's fingerprint, as the Machine page shows it.
    pub fn of(fingerprint: &Fingerprint) -> ThisMachine {
        let mut facts = Vec::new();
        flatten(
            "",
            &serde_json::to_value(fingerprint).unwrap_or_default(),
            &mut facts,
        );
        ThisMachine {
            summary: summary(fingerprint),
            facts,
        }
    }
}

fn summary(fingerprint: &Fingerprint) -> Vec<Fact> {
    fingerprint
        .summary()
        .into_iter()
        .map(|(name, value)| Fact {
            name: name.into(),
            value,
        })
        .collect()
}

/// The machine `report`'s run was measured on, as the Machine page words
/// it, but for what would name the host or is not recorded by a run (the
/// container engine); empty when the run records none.
pub fn measured_on(report: &Report) -> Vec<Fact> {
    crate::harness_files::measured_on(report)
        .map(|fingerprint| summary(&fingerprint))
        .unwrap_or_default()
        .into_iter()
        .filter(|f| !["Host", "Containers"].contains(&f.name.as_str()))
        .collect()
}

/// Flattens the probe's JSON into `cpu.brand = …` facts, leaving out the
/// unknown ones.
fn flatten(prefix: &str, value: &serde_json::Value, out: &mut Vec<Fact>) {
    use serde_json::Value;
    let fact = |name: &str, value: String| Fact {
        name: name.into(),
        value,
    };
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                let key = match prefix.is_empty() {
                    true => k.clone(),
                    false => format!("{prefix}.{k}"),
                };
                flatten(&key, v, out);
            }
        }
        Value::Array(items) if items.iter().all(|i| !i.is_object()) => {
            if !items.is_empty() {
                let joined: Vec<String> = items
                    .iter()
                    .map(|i| i.to_string().trim_matches('"').to_string())
                    .collect();
                out.push(fact(prefix, joined.join(", ")));
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), v, out);
            }
        }
        Value::String(s) => out.push(fact(prefix, s.clone())),
        other => out.push(fact(prefix, other.to_string())),
    }
}
