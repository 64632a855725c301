//! Verdicts: whether each published claim of a recipe held on this machine,
//! how sure we are, and why.
//!
//! Measurements come in as a plain [`Measurements`] model (cells keyed by
//! lane, endpoint and metric, each with its runs), read from the original
//! harness's `per-run.json` or filled by the engine. Each cell passes the
//! validity gates (errors → no data, a saturated load generator →
//! client-bound, a response unlike the reference lane's → not comparable),
//! gets its statistics (median, min/max, coefficient of variation, an
//! unstable flag), and then every claim is judged: an absolute figure only
//! when the machine matches the post's, a ratio by a bootstrap interval
//! against the published ratio ± tolerance, an ordering by non-overlapping
//! intervals, a spread by the runs' coefficient of variation.
//!
//! ```
//! use reprise_verdict::{MachineMatch, Measurements, Outcome, Settings, judge};
//!
//! let recipe = reprise_recipe::parse("recipes/hello.toml".as_ref(), r#"
//! [post]
//! id = "hello"
//! title = "Hello"
//! author = "A. Writer"
//! date = "2026"
//! summary = "Two servers."
//! [[lane]]
//! name = "fast"
//! command = ["fast"]
//! why = "One."
//! [[lane]]
//! name = "slow"
//! command = ["slow"]
//! why = "Two."
//! [[figure]]
//! id = "fast-hello"
//! lane = "fast"
//! metric = "req_per_s"
//! value = 2000
//! quote = "Fast does 2,000."
//! [[figure]]
//! id = "slow-hello"
//! lane = "slow"
//! metric = "req_per_s"
//! value = 1000
//! quote = "Slow does 1,000."
//! [[claim]]
//! id = "twice"
//! kind = "ratio"
//! numerator = "fast-hello"
//! denominator = "slow-hello"
//! value = 2.0
//! tolerance = 0.15
//! quote = "Fast is twice slow."
//! "#).unwrap();
//!
//! let per_run = r#"{"target":"fast","workers":1,"endpoint":null,"run":1,"req_sec":700}
//! {"target":"fast","workers":1,"endpoint":null,"run":2,"req_sec":710}
//! {"target":"fast","workers":1,"endpoint":null,"run":3,"req_sec":705}
//! {"target":"slow","workers":1,"endpoint":null,"run":1,"req_sec":350}
//! {"target":"slow","workers":1,"endpoint":null,"run":2,"req_sec":352}
//! {"target":"slow","workers":1,"endpoint":null,"run":3,"req_sec":349}
//! "#;
//! let measurements = Measurements::from_per_run(per_run).unwrap();
//! let judgement = judge(&recipe, &measurements, &MachineMatch::Differs(vec!["another CPU".into()]), &Settings::default());
//! // A slower machine, but the ratio holds.
//! assert_eq!(judgement.verdict("twice").unwrap().outcome, Outcome::Reproduced);
//! ```

mod gates;
mod judge;
mod lanes;
mod measurements;
mod statistics;

use std::path::{Path, PathBuf};

pub use gates::{CellReading, CellStatus, Thresholds, gate, read_cells};
pub use judge::{
    FigureReading, Judgement, MachineMatch, Outcome, Settings, Verdict, format_number, judge,
    more_runs_to_settle,
};
pub use lanes::align_lanes;
pub use measurements::{
    Cell, CellKey, LaneInfo, Measurements, MetricName, Parity, Run, is_load_metric,
};
pub use statistics::{Bootstrap, CellStats, Interval, XorShift, coefficient_of_variation, median};

/// Why measurements could not be read.
#[derive(Debug, thiserror::Error)]
pub enum VerdictError {
    #[error("per-run.json line {line}: {source}")]
    PerRun {
        line: usize,
        source: serde_json::Error,
    },
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", file.display())]
    Json {
        file: PathBuf,
        source: serde_json::Error,
    },
}

/// The file names of a results directory, as the harness writes them.
pub const PER_RUN_FILE: &str = "per-run.json";
/// Reprise's record of the checked request per lane and endpoint.
pub const PARITY_FILE: &str = "parity.json";

/// Reads a results directory: `per-run.json`, and `parity.json` (an array
/// of `{lane, endpoint, fingerprint}`) where there is one.
pub fn read_results_dir(dir: &Path) -> Result<Measurements, VerdictError> {
    let file = dir.join(PER_RUN_FILE);
    let text = std::fs::read_to_string(&file).map_err(|source| VerdictError::Io {
        file: file.clone(),
        source,
    })?;
    let mut measurements = Measurements::from_per_run(&text)?;
    let parity = dir.join(PARITY_FILE);
    if parity.exists() {
        let text = std::fs::read_to_string(&parity).map_err(|source| VerdictError::Io {
            file: parity.clone(),
            source,
        })?;
        measurements.parity = serde_json::from_str(&text).map_err(|source| VerdictError::Json {
            file: parity,
            source,
        })?;
    }
    Ok(measurements)
}
