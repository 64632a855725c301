//! The validity gates a cell passes before any verdict reads it: errors make
//! it no data, a saturated load generator makes it client-bound, a rate near
//! the link's ceiling (lanes on another machine) makes it network-bound, a
//! response that differs from the reference lane's makes it not comparable.

use serde::{Deserialize, Serialize};

use crate::measurements::{Cell, CellKey, Measurements, is_load_metric};
use crate::statistics::CellStats;

/// Thresholds the gates and statistics use.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Thresholds {
    /// A cell whose runs vary more than this (coefficient of variation) is
    /// unstable. 0.10 by default: the posts flag an 11.7% spread.
    pub unstable_cv: f64,
    /// A run whose load generator used more than this fraction of its CPU
    /// measured the client, not the server.
    pub client_bound_cpu: f64,
    /// With the lanes on a server host, a run at more than this fraction of
    /// the link's ceiling (Reprise's reference server there, loaded from
    /// here) measured the link, not the server.
    #[serde(default = "default_network_bound_share")]
    pub network_bound_share: f64,
}

fn default_network_bound_share() -> f64 {
    0.90
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            unstable_cv: 0.10,
            client_bound_cpu: 0.90,
            network_bound_share: default_network_bound_share(),
        }
    }
}

/// Whether a cell's numbers can be read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CellStatus {
    Valid,
    /// Errors or a run without a number: no data, never a number.
    NoData {
        reason: String,
    },
    /// The load generator was saturated in at least one run.
    ClientBound {
        run: u32,
        client_cpu: f64,
    },
    /// A run's rate came near the link's ceiling: the lanes ran on another
    /// machine and the network between them, not the server, set it.
    NetworkBound {
        run: u32,
        req_per_s: f64,
        ceiling: f64,
    },
    /// The lane answered this endpoint differently from the reference lane.
    NotComparable {
        reason: String,
    },
}

impl CellStatus {
    pub fn is_valid(&self) -> bool {
        matches!(self, CellStatus::Valid)
    }

    /// One line for a person.
    pub fn describe(&self) -> String {
        match self {
            CellStatus::Valid => "valid".into(),
            CellStatus::NoData { reason } => format!("no data: {reason}"),
            CellStatus::ClientBound { run, client_cpu } => format!(
                "client-bound: the load generator used {:.0}% of its CPU in run {run}",
                client_cpu * 100.0
            ),
            CellStatus::NetworkBound {
                run,
                req_per_s,
                ceiling,
            } => format!(
                "network-bound: run {run} reached {:.0}% of the link's ceiling ({req_per_s:.0} of {ceiling:.0} req/s)",
                req_per_s / ceiling * 100.0
            ),
            CellStatus::NotComparable { reason } => format!("not comparable: {reason}"),
        }
    }
}

/// A cell with its gate and statistics, as verdicts and reports read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct CellReading {
    pub cell: Cell,
    pub status: CellStatus,
    /// Statistics of the runs that have values; shown even for a cell that
    /// failed a gate, for information.
    pub stats: Option<CellStats>,
}

impl CellReading {
    /// The runs' values, in run order.
    pub fn values(&self) -> Vec<f64> {
        self.cell.runs.iter().filter_map(|r| r.value).collect()
    }
}

/// Passes one cell through the gates, in order: data, client, network,
/// parity.
pub fn gate(cell: &Cell, measurements: &Measurements, thresholds: &Thresholds) -> CellStatus {
    if cell.runs.is_empty() {
        return CellStatus::NoData {
            reason: "no runs".into(),
        };
    }
    if let Some(run) = cell.runs.iter().find(|r| r.errors > 0) {
        return CellStatus::NoData {
            reason: format!("run {} had {} errors", run.run, run.errors),
        };
    }
    if let Some(run) = cell.runs.iter().find(|r| r.value.is_none()) {
        return CellStatus::NoData {
            reason: format!("run {} produced no number", run.run),
        };
    }
    if is_load_metric(cell.key.metric())
        && let Some((run, cpu)) = cell
            .runs
            .iter()
            .filter_map(|r| r.client_cpu.map(|c| (r.run, c)))
            .find(|(_, c)| *c > thresholds.client_bound_cpu)
    {
        return CellStatus::ClientBound {
            run,
            client_cpu: cpu,
        };
    }
    // Near the link's ceiling, a run's rate and latencies are the link's.
    if is_load_metric(cell.key.metric())
        && let Some(ceiling) = measurements.link_ceiling.filter(|c| *c > 0.0)
        && let Some(rates) = measurements.cell(&CellKey::new(
            &cell.key.lane,
            cell.key.endpoint.as_deref(),
            reprise_recipe::Metric::ReqPerS,
        ))
        && let Some((run, rate)) = rates
            .runs
            .iter()
            .filter(|r| cell.runs.iter().any(|own| own.run == r.run))
            .filter_map(|r| r.value.map(|v| (r.run, v)))
            .find(|(_, v)| *v > thresholds.network_bound_share * ceiling)
    {
        return CellStatus::NetworkBound {
            run,
            req_per_s: rate,
            ceiling,
        };
    }
    if let (Some(endpoint), Some(reference)) = (&cell.key.endpoint, measurements.parity_reference())
        && reference != cell.key.lane
        && let (Some(theirs), Some(ours)) = (
            measurements.parity_of(reference, endpoint),
            measurements.parity_of(&cell.key.lane, endpoint),
        )
        && theirs != ours
    {
        return CellStatus::NotComparable {
            reason: format!(
                "{endpoint} answered `{ours}` on {} but `{theirs}` on the reference lane {reference}",
                cell.key.lane
            ),
        };
    }
    CellStatus::Valid
}

/// Reads every cell of the measurements.
pub fn read_cells(measurements: &Measurements, thresholds: &Thresholds) -> Vec<CellReading> {
    measurements
        .cells
        .iter()
        .map(|cell| {
            let values: Vec<f64> = cell.runs.iter().filter_map(|r| r.value).collect();
            CellReading {
                cell: cell.clone(),
                status: gate(cell, measurements, thresholds),
                stats: CellStats::of(&values, thresholds.unstable_cv),
            }
        })
        .collect()
}
