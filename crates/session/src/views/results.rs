//! A stored run's results as both front ends show them: each verdict with
//! its published number, accepted band and measured interval as they read
//! (a spread claim's in percent), each figure's, and every measured lane
//! with its cells and what a reader should know before trusting them. The
//! numbers read as the reports `reprise report` prints write them.

use reprise_history::RunSummary;
use reprise_recipe::reading::{interval, percent, value};
use reprise_report::{
    ClaimCard, Environment, MachineRow, NotMeasuredClaims, PeopleRow, Report, RunInfo,
    machine_rows, not_measured_claims,
};
use reprise_verdict::{
    CellKey, CellReading, CellStats, CellStatus, Deviation, FigureReading, Interval, MachineMatch,
    Verdict,
};
use serde::Serialize;
use ts_rs::TS;

use super::machine::{Fact, measured_on};
use super::{MetricUnit, units};
use crate::run_folder::LaneSkipped;
use crate::{Session, SessionError};

/// The Results page for one stored run.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ResultsView {
    pub run: RunSummary,
    pub info: RunInfo,
    /// Whether this machine is the post's (absolute figures are judged only then).
    pub machine: MachineMatch,
    /// Where it is not, its differences as the table's rows, as the
    /// reports show them.
    pub machine_rows: Vec<MachineRow>,
    pub tally: String,
    pub figures: Vec<FigureRow>,
    pub verdicts: Vec<VerdictRow>,
    /// The claims this run did not measure, once per why.
    pub not_measured_claims: Vec<NotMeasuredClaims>,
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
    /// The intervals' confidence: `95%`, or a run that went on until its
    /// claims were decided (`--until-conclusive`) the wider one its looks
    /// call for (`99.17%`).
    pub confidence: String,
    /// Such a run's rule (its looks and their confidence) and how far it
    /// got, in a sentence ([`reprise_verdict::Judgement::sequential_sentence`]).
    pub sequential: Option<String>,
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
    /// Its sentence of why, its reasoning and what differs for it, as the
    /// reports show them.
    pub card: ClaimCard,
}

/// A published figure and the cell that measured it, as they read.
#[derive(Clone, Debug, Serialize, TS)]
pub struct FigureRow {
    pub reading: FigureReading,
    pub published: String,
    /// The median with its interval, at the run's confidence.
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
    /// What its server got from the machine over its runs, as the reports
    /// say it (`83% of 1 CPU, CPU-bound`); none where it was not read.
    pub server_cpu: Option<String>,
}

impl VerdictRow {
    pub fn of(verdict: &Verdict) -> VerdictRow {
        VerdictRow {
            published: verdict.show_published(),
            band: verdict.show_band(),
            measured: verdict.show_measured(),
            card: ClaimCard::of(verdict),
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
            // A cell of one run has a value and no interval.
            measured: match (&reading.interval, &reading.stats) {
                (None, Some(stats)) => value(stats.median, unit),
                (interval, _) => measured(interval.as_ref(), unit),
            },
            status: match (&reading.other_size, &reading.status) {
                (Some(other), Some(_)) => other.to_string(),
                (_, status) => status
                    .as_ref()
                    .map_or("not measured".into(), CellStatus::describe),
            },
            reading: reading.clone(),
        }
    }
}

impl MeasuredCell {
    fn of(report: &Report, c: &CellReading) -> MeasuredCell {
        let unit = c.cell.key.metric().unit();
        let values = c.values();
        // One run has no spread: its value, and no interval.
        let interval =
            (values.len() >= 2).then(|| report.judgement.settings.bootstrap.median(&values));
        MeasuredCell {
            key: c.cell.key.clone(),
            runs: c.cell.runs.len() as u32,
            status: c.status.clone(),
            median: c
                .stats
                .as_ref()
                .map_or("—".into(), |s| value(s.median, unit)),
            measured: match values.as_slice() {
                [one] => value(*one, unit),
                _ => measured(interval.as_ref(), unit),
            },
            stats: c.stats.clone(),
            interval,
            figures: report
                .figures_of(&c.cell.key)
                .iter()
                .map(|f| f.figure.clone())
                .collect(),
            server_cpu: reprise_verdict::LaneCpu::of("", &c.cell).map(|cpu| cpu.words()),
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
            confidence: reprise_recipe::reading::confidence(
                report.judgement.settings.bootstrap.confidence,
            ),
            sequential: report.judgement.sequential_sentence(),
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
                .map(|(lane, skips)| LaneSkipped::of(lane, skips))
                .collect(),
            measured_on: measured_on(&report),
            machine_rows: match &report.judgement.machine {
                MachineMatch::Differs(differences) => machine_rows(differences),
                MachineMatch::Matches => Vec::new(),
            },
            machine: report.judgement.machine.clone(),
            figures: report.judgement.figures.iter().map(FigureRow::of).collect(),
            not_measured_claims: not_measured_claims(&report.judgement.verdicts),
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
                .map(|c| reprise_recipe::shown::command_line(c))
                .collect(),
            environment: report.environment,
            // What the app shows of the run: not the fields its bindings
            // leave out (the recipe's digest, the machine in summary).
            info: RunInfo {
                recipe_sha256: None,
                machine: None,
                ..report.run
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reprise_recipe::Metric;

    fn cell(metric: Metric, status: CellStatus, runs: usize, cv: f64) -> MeasuredCell {
        MeasuredCell {
            key: CellKey::new("puma", Some("/"), metric),
            runs: runs as u32,
            status,
            stats: (runs > 0).then_some(CellStats {
                runs,
                median: 1.0,
                min: 1.0,
                max: 1.0,
                mean: 1.0,
                cv,
                unstable: cv > 0.1,
            }),
            interval: None,
            median: String::new(),
            measured: String::new(),
            figures: Vec::new(),
            server_cpu: None,
        }
    }

    #[test]
    fn a_lane_is_flagged_by_metric_for_a_failed_gate_and_a_high_spread() {
        let bound = CellStatus::ClientBound {
            run: 2,
            client_cpu: 0.97,
        };
        assert_eq!(
            flags(&[
                cell(Metric::ReqPerS, bound, 3, 0.01),
                cell(Metric::P99Ms, CellStatus::Valid, 3, 0.142),
            ]),
            [
                "throughput: client-bound: the load generator used 97% of its CPU in run 2",
                "tail latency: high spread, runs vary 14.2%"
            ]
        );
    }

    #[test]
    fn a_steady_lane_has_no_flag_and_single_runs_are_said_once() {
        assert!(flags(&[cell(Metric::ReqPerS, CellStatus::Valid, 3, 0.01)]).is_empty());
        assert_eq!(
            flags(&[
                cell(Metric::ReqPerS, CellStatus::Valid, 1, 0.0),
                cell(Metric::P99Ms, CellStatus::Valid, 1, 0.0),
            ]),
            ["one run: no spread to read"]
        );
    }

    #[test]
    fn a_lane_whose_cells_recorded_no_runs_says_so_not_that_it_had_one() {
        let none = || {
            cell(
                Metric::ReqPerS,
                CellStatus::NoData {
                    reason: "every run failed".into(),
                },
                0,
                0.0,
            )
        };
        assert_eq!(
            flags(&[none()]),
            ["throughput: no data: every run failed", "no runs recorded"]
        );
        // One cell with a run: a single run, not none.
        assert!(
            flags(&[none(), cell(Metric::P99Ms, CellStatus::Valid, 1, 0.0)])
                .contains(&"one run: no spread to read".to_string())
        );
    }
}
