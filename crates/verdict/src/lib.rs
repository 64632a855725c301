//! Verdicts: whether each published claim of a recipe held on this machine,
//! how sure we are, and why.
//!
//! Measurements come in as a plain [`Measurements`] model (cells keyed by
//! lane, endpoint and metric, each with its runs), filled by the engine or
//! read from the original harness's `per-run.json` by `reprise-harness-files`. Each cell passes the
//! validity gates (errors → no data, a saturated load generator →
//! client-bound, a response unlike the reference lane's → not comparable),
//! gets its statistics (median, min/max, coefficient of variation, an
//! unstable flag), and then every claim is judged: an absolute figure only
//! when the machine matches the post's, a ratio by its interval
//! against the published ratio ± tolerance, an ordering by each pair's
//! ratio interval clear of one, a spread by the runs' coefficient of
//! variation. Every interval is the wider of a bootstrap percentile
//! interval and a Student-t one (why: `statistics.rs`).
//!
//! Statistics and judging only: no files are read or written here (the
//! harness's are `reprise-harness-files`'s), nothing is rendered (`reprise-report`).
//!
//! ```
//! use reprise_recipe::Metric;
//! use reprise_verdict::{CellKey, MachineMatch, Measurements, Outcome, Repetition, Settings, judge};
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
//! let mut measurements = Measurements::default();
//! for (lane, values) in [("fast", [700.0, 710.0, 705.0]), ("slow", [350.0, 352.0, 349.0])] {
//!     for (i, value) in values.into_iter().enumerate() {
//!         let key = CellKey::new(lane, None, Metric::ReqPerS);
//!         measurements.push_run(key, Repetition { run: i as u32 + 1, value: Some(value), errors: 0, client_cpu: None, server_cpu: None, first_attempt_taken: None });
//!     }
//! }
//! let judgement = judge(&recipe, &measurements, &MachineMatch::Differs(vec![reprise_verdict::MachineDifference::not_compared("another CPU")]), &Settings::default());
//! // A slower machine, but the ratio holds.
//! assert_eq!(judgement.verdict("twice").unwrap().outcome, Outcome::Reproduced);
//! ```

mod band;
mod cap;
mod cpu_share;
mod deviation;
mod gates;
mod judge;
mod lanes;
mod measurements;
mod ordering;
pub mod sequential;
mod shape;
mod single_run;
mod statistics;
mod verdict;
mod why;

pub use band::{more_runs_to_settle, placed};
pub use cpu_share::{
    CPU_BOUND, CpuBasis, CpuReading, LaneCpu, MISS_PER_SHARE_TAKEN, SPOILED, TAKEN,
    count_words as cpu_count_words, per_cpu_second,
};
pub use deviation::{Deviation, DeviationKind};
pub use gates::{CellReading, CellStatus, Thresholds, gate, read_cells};
pub use judge::judge;
pub use lanes::{align_lanes, align_not_measured, lane_of_target};
pub use measurements::{
    Cell, CellKey, LaneInfo, LaneSkip, Measurements, MetricName, Parity, Repetition, ServerCpu,
    is_load_metric,
};
pub use ordering::LEVEL_BAND;
pub use statistics::{Bootstrap, CellStats, Interval, XorShift, coefficient_of_variation, median};
pub use verdict::{FigureReading, Judgement, MachineMatch, OtherSize, Outcome, Settings, Verdict};
pub use why::{
    LaneWorkers, MachineDifference, Measure, Note, OneRunReading, OrderFinding, OrderPair,
    PairFigure, Place, Settle, Why,
};
