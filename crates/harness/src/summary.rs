//! `summary.json`: the medians per lane and endpoint, as the harness
//! aggregates `per-run.json` into it.

use std::collections::BTreeMap;

use reprise_recipe::Metric;
use reprise_verdict::{CellKey, CellStatus, Measurements, median};
use serde::{Deserialize, Serialize};

/// One row of `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub target: String,
    pub workers: Option<u32>,
    pub endpoint: Option<String>,
    pub runs: usize,
    /// `null` when the cell is no data.
    pub req_sec: Option<f64>,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub rss_kb: Option<f64>,
    pub rss_mb: Option<f64>,
    pub pss_kb: Option<f64>,
    pub pss_mb: Option<f64>,
    /// Requests per second per gigabyte of RSS.
    pub rps_per_gb: Option<f64>,
}

/// Medians per lane and endpoint, as the harness summarises them.
pub fn summarise(measurements: &Measurements) -> Vec<SummaryRow> {
    let mut groups: BTreeMap<(String, Option<String>), Vec<&reprise_verdict::Cell>> =
        BTreeMap::new();
    for cell in &measurements.cells {
        groups
            .entry((cell.key.lane.clone(), cell.key.endpoint.clone()))
            .or_default()
            .push(cell);
    }
    let thresholds = reprise_verdict::Thresholds::default();
    groups
        .into_iter()
        .map(|((lane, endpoint), cells)| {
            let value = |metric: Metric| {
                let key = CellKey::new(&lane, endpoint.as_deref(), metric);
                let cell = cells.iter().find(|c| c.key == key)?;
                match reprise_verdict::gate(cell, measurements, &thresholds) {
                    CellStatus::NoData { .. } => None,
                    _ => {
                        let values: Vec<f64> = cell.runs.iter().filter_map(|r| r.value).collect();
                        (!values.is_empty()).then(|| median(&values))
                    }
                }
            };
            let info = measurements.lanes.get(&lane);
            let rss_mb = value(Metric::RssMb);
            let pss_mb = value(Metric::PssMb);
            let req_sec = value(Metric::ReqPerS);
            let (p50_ms, p99_ms) = (value(Metric::P50Ms), value(Metric::P99Ms));
            SummaryRow {
                target: info.map_or_else(|| lane.clone(), |i| i.target.clone()),
                workers: info.and_then(|i| i.workers),
                endpoint,
                runs: cells.iter().map(|c| c.runs.len()).max().unwrap_or(0),
                req_sec,
                p50_ms,
                p99_ms,
                rss_kb: rss_mb.map(|m| (m * 1024.0).round()),
                rss_mb,
                pss_kb: pss_mb.map(|m| (m * 1024.0).round()),
                pss_mb,
                rps_per_gb: req_sec
                    .zip(rss_mb)
                    .filter(|(_, m)| *m > 0.0)
                    .map(|(r, m)| r / (m / 1024.0)),
            }
        })
        .collect()
}
