//! A stored run's results as both front ends show them: each verdict with
//! its published number, accepted band and measured interval as they read
//! (a spread claim's in percent), each figure's, and every measured lane
//! with its cells and what a reader should know before trusting them. The
//! numbers read as the reports `reprise report` prints write them.

use reprise_history::RunSummary;
use reprise_recipe::reading::{interval, percent, value};
use reprise_report::{Environment, PeopleRow, Report, RunInfo};
use reprise_verdict::{
    CellKey, CellReading, CellStats, CellStatus, Deviation, FigureReading, Interval, MachineMatch,
    Verdict,
};
use serde::Serialize;
use ts_rs::TS;

use super::machine::{Fact, measured_on};
use super::{MetricUnit, units};
use crate::run::LaneSkipped;
use crate::{Session, SessionError};

/// The Results page for one stored run.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ResultsView {
    pub run: RunSummary,
    pub info: RunInfo,
    /// Whether this machine is the post's (absolute figures are judged only then).
    pub machine: MachineMatch,
    pub tally: String,
    pub figures: Vec<FigureRow>,
    pub verdicts: Vec<VerdictRow>,
    /// Every way the run differs from the post.
    pub deviations: Vec<Deviation>,
    pub environment: Environment,
    /// The environment's commands as a person would type them.
    pub commands: Vec<String>,
    /// The people table (post 004's many-people steps); empty for a run without them.
    pub people: Vec<PeopleRow>,
    pub units: Vec<MetricUnit>,
    /// Every lane and endpoint the run measured, whether or not a figure
    /// reads it (a reference lane of the recipe's own, such as nginx).
    pub lanes: Vec<MeasuredLane>,
    /// The lanes the run did not measure, and why.
    pub not_measured: Vec<LaneSkipped>,
    /// The machine the run was measured on, as `reprise probe` words it
    /// (`CPU`, `Cores`, `Governor`, …); empty when the run records none.
    pub measured_on: Vec<Fact>,
}

/// A verdict and its numbers as they read.
#[derive(Clone, Debug, Serialize, TS)]
pub struct VerdictRow {
    pub verdict: Verdict,
    /// [`Verdict::show_published`]: `54,000 req/s`, `1.96×`, `11.7%`.
    pub published: String,
    /// [`Verdict::show_band`]: `45,900–62,100 req/s`.
    pub band: Option<String>,
    /// [`Verdict::show_measured`]: `30,200 req/s (30,100–30,300)`.
    pub measured: String,
}

/// A published figure and the cell that measured it, as they read.
#[derive(Clone, Debug, Serialize, TS)]
pub struct FigureRow {
    pub reading: FigureReading,
    pub published: String,
    /// The median with its 95% interval.
    pub measured: String,
    /// The cell's validity in one line, as the reports say it.
    pub status: String,
}

/// A lane's endpoint and the cells measured on it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct MeasuredLane {
    pub lane: String,
    pub endpoint: Option<String>,
    pub cells: Vec<MeasuredCell>,
    /// The most runs any of its cells recorded.
    pub runs: u32,
    /// Whether no published figure reads any of its cells.
    pub no_figure: bool,
    /// What a reader should know before trusting its numbers: each cell
    /// that failed a gate or whose runs vary past the threshold, by metric;
    /// once, that its runs were single (no spread to read) or that it has
    /// none recorded. Empty for a steady lane.
    pub flags: Vec<String>,
}

/// One measured cell: its runs' statistics and the interval of their median.
#[derive(Clone, Debug, Serialize, TS)]
pub struct MeasuredCell {
    pub key: CellKey,
    /// Runs recorded, with or without a number.
    pub runs: u32,
    pub status: CellStatus,
    pub stats: Option<CellStats>,
    /// The bootstrap interval of the median, as the verdicts draw it.
    pub interval: Option<Interval>,
    /// The median with its unit, `—` without runs.
    pub median: String,
    /// The median with its interval, `—` without runs.
    pub measured: String,
    /// The published figures this cell measured; empty for a lane no figure names.
    pub figures: Vec<String>,
}

impl VerdictRow {
    pub fn of(verdict: &Verdict) -> VerdictRow {
        VerdictRow {
            published: verdict.show_published(),
            band: verdict.show_band(),
            measured: verdict.show_measured(),
            verdict: verdict.clone(),
        }
    }
}

/// An interval as it reads, `—` for none.
fn measured(i: Option<&Interval>, unit: &str) -> String {
    i.map_or("—".into(), |i| interval(i.estimate, i.low, i.high, unit))
}

impl FigureRow {
    pub fn of(reading: &FigureReading) -> FigureRow {
        let unit = reading.metric.unit();
        FigureRow {
            published: reading.published.map_or("—".into(), |p| value(p, unit)),
            measured: measured(reading.interval.as_ref(), unit),
            status: reading
                .status
                .as_ref()
                .map_or("not measured".into(), CellStatus::describe),
            reading: reading.clone(),
        }
    }
}

impl MeasuredCell {
    fn of(report: &Report, c: &CellReading) -> MeasuredCell {
        let unit = c.cell.key.metric().unit();
        let values = c.values();
        let interval =
            (!values.is_empty()).then(|| report.judgement.settings.bootstrap.median(&values));
        MeasuredCell {
            key: c.cell.key.clone(),
            runs: c.cell.runs.len() as u32,
            status: c.status.clone(),
            median: c
                .stats
                .as_ref()
                .map_or("—".into(), |s| value(s.median, unit)),
            measured: measured(interval.as_ref(), unit),
            stats: c.stats.clone(),
            interval,
            figures: report
                .figures_of(&c.cell.key)
                .iter()
                .map(|f| f.figure.clone())
                .collect(),
        }
    }
}

impl MeasuredLane {
    /// The cells grouped by lane and endpoint, in the order first met.
    fn all(cells: Vec<MeasuredCell>) -> Vec<MeasuredLane> {
        let mut lanes: Vec<MeasuredLane> = Vec::new();
        for c in cells {
            let same = |l: &&mut MeasuredLane| l.lane == c.key.lane && l.endpoint == c.key.endpoint;
            match lanes.iter_mut().find(same) {
                Some(lane) => lane.cells.push(c),
                None => lanes.push(MeasuredLane {
                    lane: c.key.lane.clone(),
                    endpoint: c.key.endpoint.clone(),
                    cells: vec![c],
                    runs: 0,
                    no_figure: false,
                    flags: Vec::new(),
                }),
            }
        }
        for lane in &mut lanes {
            lane.runs = lane.cells.iter().map(|c| c.runs).max().unwrap_or(0);
            lane.no_figure = lane.cells.iter().all(|c| c.figures.is_empty());
            lane.flags = flags(&lane.cells);
        }
        lanes
    }
}

/// What a reader should know before trusting a lane's numbers.
fn flags(cells: &[MeasuredCell]) -> Vec<String> {
    let mut flags = Vec::new();
    for c in cells {
        let what = c.key.metric().words();
        if !matches!(c.status, CellStatus::Valid) {
            flags.push(format!("{what}: {}", c.status.describe()));
        }
        if let Some(s) = c.stats.as_ref().filter(|s| s.unstable) {
            flags.push(format!("{what}: high spread, runs vary {}", percent(s.cv)));
        }
    }
    let none = |c: &MeasuredCell| c.stats.as_ref().is_none_or(|s| s.runs == 0);
    let single = |c: &MeasuredCell| c.stats.as_ref().is_none_or(|s| s.spread().is_none());
    if !cells.is_empty() && cells.iter().all(none) {
        flags.push("no runs recorded".into());
    } else if !cells.is_empty() && cells.iter().all(single) {
        flags.push("one run: no spread to read".into());
    }
    flags
}

impl Session {
    /// The Results page of stored run `run`.
    pub fn results_view(&self, run: &str) -> Result<ResultsView, SessionError> {
        let report = self.report(run)?;
        let summary = self
            .history()?
            .list()?
            .into_iter()
            .find(|r| r.id == report.run.id)
            .ok_or_else(|| reprise_history::HistoryError::UnknownRun(run.into()))?;
        let cells = report
            .judgement
            .cells
            .iter()
            .map(|c| MeasuredCell::of(&report, c))
            .collect();
        Ok(ResultsView {
            run: summary,
            tally: report.tally(),
            people: report.people_rows(),
            units: units(
                report
                    .judgement
                    .figures
                    .iter()
                    .map(|f| f.metric)
                    .chain(report.judgement.cells.iter().map(|c| c.cell.key.metric())),
            ),
            lanes: MeasuredLane::all(cells),
            not_measured: report
                .measurements
                .not_measured
                .iter()
                .map(|(lane, why)| LaneSkipped {
                    lane: lane.clone(),
                    why: why.clone(),
                })
                .collect(),
            measured_on: measured_on(&report),
            machine: report.judgement.machine.clone(),
            figures: report.judgement.figures.iter().map(FigureRow::of).collect(),
            verdicts: report
                .judgement
                .verdicts
                .iter()
                .map(VerdictRow::of)
                .collect(),
            deviations: report.judgement.deviations.clone(),
            commands: report
                .environment
                .commands
                .iter()
                .map(|c| reprise_report::shell_words(c))
                .collect(),
            environment: report.environment,
            info: report.run,
        })
    }
}
