//! What both front ends show, computed once: the Library's cards, a post, a
//! run's plan rows and how long it has left to measure, a stored run's
//! results, this machine and its validation. The CLI prints these values
//! and the app renders them (their TypeScript types are generated from
//! these), so the two cannot say different things about the same run.
//!
//! ```no_run
//! use reprise_session::Session;
//!
//! let session = Session::from_env();
//! let post = session.post_view("hello-ceiling").unwrap();
//! for f in &post.figures {
//!     println!("{}: {}", f.figure.id, f.published);
//! }
//! ```

pub mod countdown;
pub mod library;
pub mod machine;
pub mod plan;
pub mod post;
pub mod results;
pub mod validation;

use reprise_recipe::Metric;
use serde::Serialize;
use ts_rs::TS;

pub use countdown::{Countdown, Left};
pub use library::{Library, RecipeCard};
pub use machine::{Fact, ThisMachine};
pub use plan::{PlanRow, RunPlan};
pub use post::{ClaimOfPost, FigureOfPost, LaneOfPost, PostView, StepView, ToolchainHere};
pub use results::{FigureRow, MeasuredCell, MeasuredLane, ResultsView, VerdictRow};
pub use validation::Validation;

/// A metric, the unit its numbers are in, and its name as a reader says it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct MetricUnit {
    pub metric: Metric,
    pub unit: String,
    /// `throughput`, `tail latency`, …
    pub name: String,
}

/// Each metric once, in the order first met, with its unit and name.
pub fn units(metrics: impl IntoIterator<Item = Metric>) -> Vec<MetricUnit> {
    let mut seen: Vec<Metric> = Vec::new();
    for metric in metrics {
        if !seen.contains(&metric) {
            seen.push(metric);
        }
    }
    seen.into_iter()
        .map(|metric| MetricUnit {
            metric,
            unit: metric.unit().into(),
            name: metric.words().into(),
        })
        .collect()
}
