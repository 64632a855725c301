//! The profile: everything a validation found, as the JSON `reprise validate
//! --json` prints, and how two machines' profiles compare.

use reprise_probe::Fingerprint;
use serde::{Deserialize, Serialize};

use crate::ValidateError;
use crate::ceiling::Ceiling;
use crate::checks::{Check, Level, usable_cpus};
use crate::fitness::{self, Fitness};
use crate::stability::Stability;
use reprise_recipe::reading::{number, percent};

/// The profile's format; a reader refuses other majors.
pub const SCHEMA: u32 = 1;

/// The machine in a line's worth of facts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineSummary {
    pub host: Option<String>,
    pub cpu: Option<String>,
    pub cores: Option<u32>,
    pub threads: Option<u32>,
    pub usable_cpus: Option<u32>,
    pub os: Option<String>,
    pub kernel: Option<String>,
    pub virtual_machine: Option<bool>,
}

impl MachineSummary {
    pub fn of(fp: &Fingerprint) -> MachineSummary {
        MachineSummary {
            host: fp.os.hostname.clone(),
            cpu: fp.cpu.brand.clone(),
            cores: fp.cpu.physical_cores,
            threads: fp.cpu.logical_threads,
            usable_cpus: usable_cpus(fp),
            os: fp.os.pretty_name.clone(),
            kernel: fp.os.kernel.clone(),
            virtual_machine: fp.virtualization.virtual_machine,
        }
    }
}

/// One validation of one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub schema: u32,
    pub reprise_version: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// `full` or `quick`.
    pub mode: String,
    pub machine: MachineSummary,
    pub fitness: Fitness,
    /// The one line a person pastes.
    pub summary: String,
    /// `id: found` of every warning and failure.
    pub caveats: Vec<String>,
    pub checks: Vec<Check>,
    pub stability: Stability,
    pub ceiling: Ceiling,
    pub fingerprint: Fingerprint,
}

impl Profile {
    pub fn new(
        mode: &str,
        fingerprint: Fingerprint,
        checks: Vec<Check>,
        stability: Stability,
        ceiling: Ceiling,
    ) -> Profile {
        let fitness = fitness::decide(&checks);
        let caveats = checks
            .iter()
            .filter(|c| c.level != Level::Ok)
            .map(|c| format!("{}: {}", c.id, c.found))
            .collect();
        let mut profile = Profile {
            schema: SCHEMA,
            reprise_version: env!("CARGO_PKG_VERSION").to_string(),
            created_at: reprise_harness_files::timestamp::utc_now(),
            mode: mode.to_string(),
            machine: MachineSummary::of(&fingerprint),
            fitness,
            summary: String::new(),
            caveats,
            checks,
            stability,
            ceiling,
            fingerprint,
        };
        profile.summary = summary_line(&profile);
        profile
    }

    /// Reads a profile that `reprise validate --json` printed.
    pub fn parse(text: &str) -> Result<Profile, ValidateError> {
        let profile: Profile = serde_json::from_str(text)?;
        if profile.schema != SCHEMA {
            return Err(ValidateError::Schema {
                found: profile.schema,
                expected: SCHEMA,
            });
        }
        Ok(profile)
    }
}

/// One line: verdict, machine, ceiling with its spread, stability, timer,
/// and the names of the caveats.
pub fn summary_line(p: &Profile) -> String {
    let m = &p.machine;
    let cpus = m
        .usable_cpus
        .map_or("? CPUs".into(), |n| format!("{n} CPUs"));
    let vm = if m.virtual_machine == Some(true) {
        ", VM"
    } else {
        ""
    };
    let ceiling = match p.ceiling.median_req_per_s {
        Some(rps) => format!(
            "ceiling {} req/s{} ({}{})",
            number(rps),
            p.ceiling
                .spread()
                .map_or(String::new(), |cv| format!(" ±{}", percent(cv))),
            match p.ceiling.runs_with_data() {
                1 => "1 run".to_string(),
                n => format!("{n} runs"),
            },
            if p.ceiling.split.pinned {
                ", split"
            } else {
                ", unpinned"
            }
        ),
        None => "ceiling: no data".to_string(),
    };
    let s = &p.stability;
    let mut line = format!(
        "reprise validate: {} — {} ({cpus}{vm}); {ceiling}; kernel CV {:.1}% runs, {:.1}% CPUs; timer lag p99 {:.2} ms; background {}",
        p.fitness.word(),
        m.cpu.as_deref().unwrap_or("unknown CPU"),
        s.run_cv * 100.0,
        s.core_cv * 100.0,
        s.timer.p99_ms,
        s.background
            .busy_percent
            .map_or("?".into(), |b| format!("{b:.0}%")),
    );
    let named = |level: Level| -> Vec<&str> {
        p.checks
            .iter()
            .filter(|c| c.level == level)
            .map(|c| c.id.as_str())
            .collect()
    };
    let (fails, warns) = (named(Level::Fail), named(Level::Warn));
    if !fails.is_empty() {
        line.push_str(&format!(" — fails: {}", fails.join(", ")));
    }
    if !warns.is_empty() {
        line.push_str(&format!(" — caveats: {}", warns.join(", ")));
    }
    line
}

/// One figure of two machines side by side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRow {
    pub figure: String,
    pub unit: String,
    pub this: Option<f64>,
    pub other: Option<f64>,
    /// this ÷ other, where both are known and other is not zero.
    pub ratio: Option<f64>,
    /// Whether a ratio above 1 means this machine is better.
    pub higher_is_better: bool,
}

/// Two machines' validations, figure by figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub this: String,
    pub other: String,
    pub rows: Vec<ComparisonRow>,
}

impl Comparison {
    /// The line to quote: "ceiling 0.80× the other machine".
    pub fn headline(&self) -> String {
        match self
            .rows
            .iter()
            .find(|r| r.figure == "ceiling")
            .and_then(|r| r.ratio)
        {
            Some(ratio) => format!("ceiling {ratio:.2}× the other machine"),
            None => "ceiling: not comparable (a profile without ceiling data)".to_string(),
        }
    }
}

/// Compares `this` with `other`.
pub fn compare(this: &Profile, other: &Profile) -> Comparison {
    let row =
        |figure: &str, unit: &str, a: Option<f64>, b: Option<f64>, higher: bool| ComparisonRow {
            figure: figure.to_string(),
            unit: unit.to_string(),
            this: a,
            other: b,
            ratio: a.zip(b).filter(|(_, b)| *b != 0.0).map(|(a, b)| a / b),
            higher_is_better: higher,
        };
    let kernel_speed = |p: &Profile| {
        (p.stability.median_ms > 0.0)
            .then(|| p.stability.work_mib as f64 * 1000.0 / p.stability.median_ms)
    };
    let label = |p: &Profile| {
        format!(
            "{} ({}, {})",
            p.machine.host.as_deref().unwrap_or("?"),
            p.machine.cpu.as_deref().unwrap_or("unknown CPU"),
            p.created_at
        )
    };
    Comparison {
        this: label(this),
        other: label(other),
        rows: vec![
            row(
                "ceiling",
                "req/s",
                this.ceiling.median_req_per_s,
                other.ceiling.median_req_per_s,
                true,
            ),
            row(
                "ceiling spread",
                "CV %",
                this.ceiling.spread().map(|c| c * 100.0),
                other.ceiling.spread().map(|c| c * 100.0),
                false,
            ),
            row(
                "kernel speed",
                "MiB/s",
                kernel_speed(this),
                kernel_speed(other),
                true,
            ),
            row(
                "kernel spread",
                "CV %",
                Some(this.stability.run_cv * 100.0),
                Some(other.stability.run_cv * 100.0),
                false,
            ),
            row(
                "timer lag p99",
                "ms",
                Some(this.stability.timer.p99_ms),
                Some(other.stability.timer.p99_ms),
                false,
            ),
            row(
                "background load",
                "%",
                this.stability.background.busy_percent,
                other.stability.background.busy_percent,
                false,
            ),
        ],
    }
}
