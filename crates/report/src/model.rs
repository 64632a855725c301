//! What a report holds: the run, the measurements, the judgement and the
//! environment appendix, as plain serialisable data.

use reprise_loadgen::PeopleReport;
use reprise_recipe::Recipe;
use reprise_verdict::{CellKey, FigureReading, Judgement, Measurements};
use serde::{Deserialize, Serialize};

/// One reproduction, ready to render.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub run: RunInfo,
    pub judgement: Judgement,
    pub measurements: Measurements,
    pub environment: Environment,
    /// The many-people loads of the run's `cable` steps (post 004), each
    /// step of people judged served or not by the recipe's criterion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub people: Vec<PeopleRun>,
}

/// One lane's many-people load: what `results/<step>/<lane>/people.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeopleRun {
    pub step: String,
    pub lane: String,
    pub report: PeopleReport,
}

/// One row of the people table: a step of people of one lane, or a note on
/// a lane's whole run (stopped early, writes lost).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct PeopleRow {
    pub step: String,
    pub lane: String,
    /// How many people; `—` on a row that notes a whole run.
    pub people: String,
    /// Whether the step met the recipe's criterion (false on a note).
    pub served: bool,
    /// `served`, `not served: …` with the reasons, or the note.
    pub verdict: String,
    pub navigation: String,
    pub delivery: String,
    pub failures: String,
    pub resends: String,
    pub reconnects: String,
    pub generator: String,
}

impl PeopleRow {
    /// The row's cells in [`PEOPLE_COLUMNS`]' order.
    pub fn cells(&self) -> [&str; 10] {
        [
            &self.step,
            &self.lane,
            &self.people,
            &self.verdict,
            &self.navigation,
            &self.delivery,
            &self.failures,
            &self.resends,
            &self.reconnects,
            &self.generator,
        ]
    }
}

/// The columns of the people table, as both reports show it.
pub const PEOPLE_COLUMNS: [&str; 10] = [
    "Step",
    "Lane",
    "People",
    "Served",
    "Navigation p50 / p99",
    "Delivery p50 / p99",
    "Failures",
    "Re-sends",
    "Reconnects (HTTP / cable)",
    "Generator CPU, timer lag p99",
];

/// Which run this is and which post it reproduces.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunInfo {
    pub id: String,
    /// When the run was made, RFC 3339 UTC.
    pub created_at: String,
    pub recipe: String,
    pub title: String,
    pub author: String,
    pub post_date: String,
    pub post_url: Option<String>,
    /// Which run the post reports.
    pub post_run: Option<String>,
    /// Where the measurements came from (a results directory, the engine).
    pub origin: Option<String>,
    /// SHA-256 of the recipe file the run was made from, where it was
    /// recorded: what a shared result says it reproduced. (Not shown by the
    /// app, so not in its bindings.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    pub recipe_sha256: Option<String>,
    /// The machine the run measured on, in summary: what a shared result
    /// says of it. (The app shows the fingerprint itself.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    pub machine: Option<crate::MachineSummary>,
    /// How the run ended, where Reprise ran it (none for published results
    /// judged with `reprise verdict`, and runs stored before this was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<RunEnding>,
}

/// How a run ended: the one rule every front end reads (the CLI's exit
/// code, the history, the app's Run and Results pages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum RunEnding {
    /// Every step ran to its end and every lane was measured.
    Finished,
    /// Every step ran to its end; lanes this machine cannot run (or that
    /// were left out) were not measured.
    LanesMissing,
    /// A step failed, a lane did not boot or stopped, or the results could
    /// not be stored.
    Failed,
    /// Stopped by the reader: `reprise run` again (or Resume) goes on.
    Cancelled,
}

impl RunEnding {
    /// The rule: cancelled over failed over lanes missing over finished.
    pub fn of(cancelled: bool, failed: bool, lanes_missing: bool) -> RunEnding {
        match (cancelled, failed, lanes_missing) {
            (true, _, _) => RunEnding::Cancelled,
            (_, true, _) => RunEnding::Failed,
            (_, _, true) => RunEnding::LanesMissing,
            _ => RunEnding::Finished,
        }
    }

    /// Whether the run did what it set out to do (the CLI exits 0).
    pub fn succeeded(self) -> bool {
        matches!(self, RunEnding::Finished | RunEnding::LanesMissing)
    }

    /// As a reader says it: `finished`, `finished with lanes missing`.
    pub fn words(self) -> &'static str {
        match self {
            RunEnding::Finished => "finished",
            RunEnding::LanesMissing => "finished with lanes missing",
            RunEnding::Failed => "failed",
            RunEnding::Cancelled => "cancelled",
        }
    }
}

impl RunInfo {
    /// The run's description, taken from the recipe's post.
    pub fn for_recipe(recipe: &Recipe, id: &str, created_at: &str) -> RunInfo {
        RunInfo {
            id: id.to_string(),
            created_at: created_at.to_string(),
            recipe: recipe.id().to_string(),
            title: recipe.post.title.clone(),
            author: recipe.post.author.clone(),
            post_date: recipe.post.date.clone(),
            post_url: recipe.post.url.clone(),
            post_run: recipe.post.run.clone(),
            origin: None,
            recipe_sha256: None,
            machine: None,
            ending: None,
        }
    }
}

/// The appendix: enough for the next reader to reproduce the reproduction.
/// Plain values, so the probe and the engine can fill it as they grow.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Environment {
    /// The machine fingerprint, as the probe serialises it.
    #[serde(default)]
    pub fingerprint: serde_json::Value,
    #[serde(default)]
    pub toolchains: Vec<ToolchainVersion>,
    #[serde(default)]
    pub sources: Vec<SourceRevision>,
    #[serde(default)]
    pub tree_digests: Vec<TreeDigest>,
    /// Workers, connections, runs, durations, warm-up: what the harness used.
    #[serde(default)]
    pub harness: serde_json::Value,
    /// Every command run, as argument vectors.
    #[serde(default)]
    pub commands: Vec<Vec<String>>,
    /// The harness's `env.json` (bench-env), passed through as read.
    #[serde(default)]
    pub bench_env: serde_json::Value,
    /// With the lanes on another machine (`--server-host`): that machine as
    /// `results/env.server.json` describes it (its engine, its hardware read
    /// by a probe container, the link's round trip and ceiling), without
    /// the engine's address.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub server_host: serde_json::Value,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ToolchainVersion {
    pub name: String,
    pub version: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct SourceRevision {
    pub id: String,
    pub url: String,
    pub revision: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TreeDigest {
    pub name: String,
    pub sha256: String,
}

impl Environment {
    /// The sources as the recipe pins them, for an appendix the engine has
    /// not filled.
    pub fn sources_of(recipe: &Recipe) -> Vec<SourceRevision> {
        recipe
            .sources
            .iter()
            .map(|s| SourceRevision {
                id: s.id.to_string(),
                url: s.url.clone(),
                revision: match s.revision() {
                    reprise_recipe::Revision::Pinned(rev) => rev.to_string(),
                    reprise_recipe::Revision::Unpinned { branch, .. } => {
                        format!("{branch} (unpinned)")
                    }
                },
            })
            .collect()
    }
}

impl Report {
    /// The published figures that a cell measured.
    pub fn figures_of(&self, key: &CellKey) -> Vec<&FigureReading> {
        self.judgement
            .figures
            .iter()
            .filter(|f| f.cell.as_ref() == Some(key))
            .collect()
    }

    /// The people table's rows (see [`PEOPLE_COLUMNS`]), a row per step of
    /// people per lane, then a row per run that was stopped early or lost writes.
    pub fn people_rows(&self) -> Vec<PeopleRow> {
        let ms = |l: Option<&reprise_loadgen::people::Latency>| {
            l.map_or("—".into(), |l| {
                format!("{:.1} / {:.1} ms", l.p50_ms, l.p99_ms)
            })
        };
        let mut rows = Vec::new();
        for run in &self.people {
            for s in &run.report.steps {
                let failures = if s.failures == 0 {
                    "0".to_string()
                } else {
                    let causes: Vec<String> = s
                        .failures_by_cause
                        .iter()
                        .map(|(cause, n)| format!("{cause} {n}"))
                        .collect();
                    format!("{} ({})", s.failures, causes.join(", "))
                };
                rows.push(PeopleRow {
                    step: run.step.clone(),
                    lane: run.lane.clone(),
                    people: s.people.to_string(),
                    served: s.served,
                    verdict: if s.served {
                        "served".into()
                    } else {
                        format!("not served: {}", s.not_served.join("; "))
                    },
                    navigation: ms(s.navigation.as_ref()),
                    delivery: ms(s.delivery.as_ref()),
                    failures,
                    resends: s.resends.to_string(),
                    reconnects: format!("{} / {}", s.reconnects, s.cable_reconnects),
                    generator: format!(
                        "{:.2} cores, {:.2} ms",
                        s.generator.cpu_cores, s.generator.timer_lag_p99_ms
                    ),
                });
            }
            let r = &run.report;
            let mut notes = Vec::new();
            if r.stopped {
                notes.push(format!("stopped after {} of its steps", r.steps.len()));
            }
            match r.unsaved_writes {
                Some(0) => {}
                Some(n) => notes.push(format!(
                    "{n} of {} acknowledged writes missing from the database",
                    r.acknowledged_writes
                )),
                None => notes.push("acknowledged writes not checked".into()),
            }
            if !notes.is_empty() {
                rows.push(PeopleRow {
                    step: run.step.clone(),
                    lane: run.lane.clone(),
                    people: "—".into(),
                    served: false,
                    verdict: notes.join("; "),
                    navigation: String::new(),
                    delivery: String::new(),
                    failures: String::new(),
                    resends: String::new(),
                    reconnects: String::new(),
                    generator: String::new(),
                });
            }
        }
        rows
    }

    /// Whether the run was a smoke run (`--quick`): capped durations,
    /// warm-ups and runs, so its numbers are not a measurement.
    pub fn is_smoke_run(&self) -> bool {
        self.judgement
            .deviations
            .iter()
            .any(|d| d.kind == reprise_verdict::DeviationKind::Quick)
    }

    /// The run's title, saying so where it was a smoke run: the headline of
    /// reports, the share's title and the terminal's summary.
    pub fn headline(&self) -> String {
        if self.is_smoke_run() {
            format!("{} (a smoke run, not a measurement)", self.run.title)
        } else {
            self.run.title.clone()
        }
    }

    /// A one-line tally of the verdicts, every outcome counted on its own:
    /// `2 reproduced, 0 not reproduced, 1 inconclusive, 0 no data, 1 not
    /// measured, 0 not comparable`.
    pub fn tally(&self) -> String {
        reprise_verdict::Outcome::tally(|o| self.judgement.count(o))
    }
}
