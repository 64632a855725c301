//! The machine-readable result every shared post carries: one fenced block,
//! ```` ```reprise-result v1 ```` … ```` ``` ````, holding JSON — the recipe
//! and its digest, the Reprise that wrote it, how the run differed from the
//! post, the machine in summary, each claim's verdict with its interval and
//! each cell's median with its interval — so that `reprise community` can
//! read everyone's results back without reading their prose.
//!
//! The schema's version is in the fence's info string, not in the JSON: a
//! reader that finds `reprise-result v2` knows before parsing that it is
//! another schema. Changing a field's meaning, or removing one, is a new
//! version; docs/community.md describes v1.

use reprise_verdict::{CellReading, Outcome};
use serde::{Deserialize, Serialize};

use crate::Report;

/// The fence's info string before the version: ```` ```reprise-result v1 ````.
pub const FENCE_TAG: &str = "reprise-result";

/// The schema this Reprise writes.
pub const SCHEMA_VERSION: u32 = 1;

/// One run's result, as a shared post carries it (schema v1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultBlock {
    /// The recipe's id.
    pub recipe: String,
    /// SHA-256 of the recipe file the run was made from, where the run
    /// recorded it.
    pub recipe_sha256: Option<String>,
    /// Whether that recipe was the reviewed one where it ran (no `recipe`
    /// deviation).
    pub reviewed: bool,
    /// The Reprise that wrote this block.
    pub reprise: String,
    /// The run's id and when it was made (RFC 3339 UTC).
    pub run: String,
    pub created_at: String,
    /// A smoke run (`--quick`): its numbers are not a measurement.
    pub smoke_run: bool,
    /// Whether the machine matched the post's (absolute figures judged).
    pub machine_matches_post: bool,
    /// Every way the run differed from the post.
    pub deviations: Vec<BlockDeviation>,
    pub machine: MachineSummary,
    pub claims: Vec<BlockClaim>,
    pub cells: Vec<BlockCell>,
}

/// One way the run differed from the post.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockDeviation {
    /// `source`, `toolchain`, `recipe`, `quick`, `lane`, `image`, `server_host`.
    pub kind: String,
    pub what: String,
}

/// A claim's verdict: the numbers are the verdict's own (a spread's are
/// fractions, shown as percentages).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockClaim {
    pub id: String,
    /// `absolute`, `ratio`, `ordering`, `spread`.
    pub kind: String,
    pub outcome: Outcome,
    /// The unit of `published`, `band` and `measured`.
    pub unit: String,
    pub published: Option<f64>,
    pub band: Option<[f64; 2]>,
    pub measured: Option<Estimate>,
}

/// An estimate with its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

/// A cell: its median and the bootstrap interval of the median, where it
/// has numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockCell {
    pub lane: String,
    pub endpoint: Option<String>,
    /// The metric's name (`req_per_s`, `p99_ms`, …).
    pub metric: String,
    /// `valid`, `no_data`, `client_bound`, `network_bound`, `not_comparable`.
    pub status: String,
    pub runs: u32,
    pub median: Option<f64>,
    pub interval: Option<[f64; 2]>,
}

/// The machine, as much as a reader needs to compare it with theirs: no
/// names, no addresses (and redacted as the rest of a post is).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct MachineSummary {
    /// The CPU's model name (`AMD Ryzen 5 3600 6-Core Processor`).
    pub cpu: Option<String>,
    /// `GenuineIntel`, `AuthenticAMD`, `ARM`, …
    pub vendor: Option<String>,
    pub cores: Option<u32>,
    pub threads: Option<u32>,
    pub smt: Option<bool>,
    #[ts(type = "number | null")]
    pub min_mhz: Option<u64>,
    #[ts(type = "number | null")]
    pub max_mhz: Option<u64>,
    pub governor: Option<String>,
    pub boost: Option<bool>,
    #[ts(type = "number | null")]
    pub memory_mib: Option<u64>,
    /// The distribution (`Debian GNU/Linux 12 (bookworm)`).
    pub os: Option<String>,
    pub kernel: Option<String>,
    pub arch: Option<String>,
    /// Whether it is a virtual machine (`false`: bare metal).
    pub virtual_machine: Option<bool>,
    /// The hypervisor or cloud, where it said (`KVM`, `Amazon EC2`).
    pub hypervisor: Option<String>,
}

impl MachineSummary {
    /// The machine as a short table's rows, each item a reader compares
    /// with theirs: `CPU`, `Cores / threads`, … (items not known left out).
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        let mut rows = Vec::new();
        if let Some(cpu) = &self.cpu {
            rows.push(("CPU", cpu.clone()));
        }
        match (self.cores, self.threads) {
            (Some(c), Some(t)) => rows.push(("Cores / threads", format!("{c} / {t}"))),
            (Some(c), None) => rows.push(("Cores", c.to_string())),
            _ => {}
        }
        if let Some(smt) = self.smt {
            rows.push(("SMT", if smt { "on" } else { "off" }.into()));
        }
        match (self.min_mhz, self.max_mhz) {
            (Some(lo), Some(hi)) if lo != hi => rows.push(("Frequency", format!("{lo}–{hi} MHz"))),
            (_, Some(hi)) => rows.push(("Frequency", format!("{hi} MHz"))),
            _ => {}
        }
        if let Some(g) = &self.governor {
            rows.push(("Governor", g.clone()));
        }
        if let Some(boost) = self.boost {
            rows.push(("Boost", if boost { "on" } else { "off" }.into()));
        }
        if let Some(m) = self.memory_mib {
            rows.push(("Memory", format!("{:.1} GiB", m as f64 / 1024.0)));
        }
        if let Some(os) = &self.os {
            rows.push(("OS", os.clone()));
        }
        if let Some(k) = &self.kernel {
            rows.push(("Kernel", k.clone()));
        }
        match (self.virtual_machine, &self.hypervisor) {
            (Some(true), Some(h)) => {
                rows.push(("Virtualisation", format!("virtual machine ({h})")))
            }
            (Some(true), None) => rows.push(("Virtualisation", "virtual machine".into())),
            (Some(false), _) => rows.push(("Virtualisation", "bare metal".into())),
            _ => {}
        }
        rows
    }
}

impl ResultBlock {
    /// The block for a report: its recipe digest and machine as the run
    /// recorded them (`report.run`), every verdict, every cell with a
    /// bootstrap interval of its median drawn as the verdicts' were.
    pub fn of(report: &Report) -> ResultBlock {
        let j = &report.judgement;
        ResultBlock {
            recipe: report.run.recipe.clone(),
            recipe_sha256: report.run.recipe_sha256.clone(),
            reviewed: !j
                .deviations
                .iter()
                .any(|d| d.kind == reprise_verdict::DeviationKind::Recipe),
            reprise: env!("CARGO_PKG_VERSION").to_string(),
            run: report.run.id.clone(),
            created_at: report.run.created_at.clone(),
            smoke_run: report.is_smoke_run(),
            machine_matches_post: j.machine == reprise_verdict::MachineMatch::Matches,
            deviations: j
                .deviations
                .iter()
                .map(|d| BlockDeviation {
                    kind: serde_json::to_value(d.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    what: d.what.clone(),
                })
                .collect(),
            machine: report.run.machine.clone().unwrap_or_default(),
            claims: j
                .verdicts
                .iter()
                .map(|v| BlockClaim {
                    id: v.claim.clone(),
                    kind: v.kind.name().to_string(),
                    outcome: v.outcome,
                    unit: v.unit.clone(),
                    published: v.published,
                    band: v.band,
                    measured: v.measured.map(|i| Estimate {
                        estimate: i.estimate,
                        low: i.low,
                        high: i.high,
                    }),
                })
                .collect(),
            cells: j
                .cells
                .iter()
                .map(|c| block_cell(c, &j.settings.bootstrap))
                .collect(),
        }
    }

    /// The block as a post carries it: the fence, the JSON, the fence.
    pub fn fenced(&self) -> String {
        format!(
            "```{FENCE_TAG} v{SCHEMA_VERSION}\n{}\n```\n",
            serde_json::to_string_pretty(self).unwrap_or_default()
        )
    }

    /// The block with `change` applied to every text in it (not to field
    /// names, numbers or outcomes): how a share redacts it, so that a
    /// replaced name can never break the JSON or rename a field.
    pub fn map_text(&self, change: &dyn Fn(&str) -> String) -> ResultBlock {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        map_strings(&mut value, change);
        serde_json::from_value(value).unwrap_or_else(|_| self.clone())
    }
}

fn map_strings(value: &mut serde_json::Value, change: &dyn Fn(&str) -> String) {
    match value {
        serde_json::Value::String(text) => *text = change(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| map_strings(v, change)),
        serde_json::Value::Object(fields) => {
            for (key, v) in fields.iter_mut() {
                // An outcome is a word of the schema, not text of the run.
                if key != "outcome" {
                    map_strings(v, change);
                }
            }
        }
        _ => {}
    }
}

fn block_cell(reading: &CellReading, bootstrap: &reprise_verdict::Bootstrap) -> BlockCell {
    let key = &reading.cell.key;
    let values = reading.values();
    // One run has no spread, so no interval.
    let interval = (values.len() >= 2).then(|| {
        let i = bootstrap.median(&values);
        [i.low, i.high]
    });
    BlockCell {
        lane: key.lane.clone(),
        endpoint: key.endpoint.clone(),
        metric: key.metric().name().to_string(),
        status: serde_json::to_value(&reading.status)
            .ok()
            .and_then(|v| v["status"].as_str().map(str::to_string))
            .unwrap_or_default(),
        runs: reading.cell.runs.len() as u32,
        median: reading.stats.as_ref().map(|s| s.median),
        interval,
    }
}
