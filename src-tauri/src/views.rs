//! What the commands hand the UI: plain, serialisable views of the crates'
//! types, each exported to TypeScript (`ui/src/bindings/`) with ts-rs.

pub use reprise_report::history::RunSummary;
use serde::Serialize;
use ts_rs::TS;

/// A command's failure, as the UI shows it: what happened and what to do.
#[derive(Clone, Debug, PartialEq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    /// `not_found`, `invalid`, `io`, `history`, `share`.
    pub kind: String,
    pub message: String,
    /// What the person can do about it.
    pub hint: String,
}

/// The Library page: one card per recipe, and the files that did not load.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Library {
    pub recipes: Vec<RecipeCard>,
    pub problems: Vec<RecipeProblem>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct RecipeCard {
    pub id: String,
    pub title: String,
    pub author: String,
    pub date: String,
    pub summary: String,
    /// The metrics the figures measure, by unit name (`req/s`, `ms`, …).
    pub measures: Vec<String>,
    pub figures: u32,
    pub claims: u32,
    pub steps: u32,
    /// Lanes the recipe can run at all.
    pub lanes_runnable: u32,
    /// Of those, the lanes whose toolchains are on this machine's PATH.
    pub lanes_here: Vec<String>,
    /// `ok`, `modified` or `unlisted` against checksums/recipes.sha256.
    pub checksum: String,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct RecipeProblem {
    pub id: String,
    pub file: String,
    pub message: String,
}

/// The Post page: what the post claims and on what.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PostView {
    pub id: String,
    pub title: String,
    pub author: String,
    pub date: String,
    pub url: Option<String>,
    pub run: Option<String>,
    pub summary: String,
    pub unknowns: Vec<String>,
    pub machine: Option<MachineView>,
    pub toolchains: Vec<ToolchainView>,
    pub lanes: Vec<LaneView>,
    pub steps: Vec<StepView>,
    pub figures: Vec<FigureView>,
    pub claims: Vec<ClaimView>,
    pub checksum: String,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct MachineView {
    pub cpu: String,
    pub cores: Option<u32>,
    pub threads: Option<u32>,
    pub smt: Option<bool>,
    pub base_mhz: Option<u32>,
    pub boost: Option<bool>,
    pub governor: Option<String>,
    pub memory_gb: Option<u32>,
    pub os: Option<String>,
    pub kernel: Option<String>,
    pub virtualization: Option<String>,
    pub quote: String,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct ToolchainView {
    pub name: String,
    /// The version requirement, e.g. `4.0.5` or `*`.
    pub version: String,
    pub command: Vec<String>,
    pub why: Option<String>,
    pub quote: Option<String>,
    /// Whether the command's program is on this machine's PATH.
    pub on_path: bool,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct LaneView {
    pub name: String,
    pub runtime: Option<String>,
    pub server: Option<String>,
    pub why: String,
    pub runnable: bool,
    pub runnable_here: bool,
    pub not_runnable: Option<String>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct StepView {
    pub id: String,
    pub kind: String,
    /// The post's reason for the step.
    pub why: String,
    pub after: Vec<String>,
    pub lanes: Vec<String>,
    pub command: Option<String>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct FigureView {
    pub id: String,
    pub lane: String,
    pub endpoint: Option<String>,
    pub metric: String,
    pub unit: String,
    pub value: Option<f64>,
    pub range: Option<Vec<f64>>,
    pub unknown: Option<String>,
    pub approx: bool,
    pub condition: Option<String>,
    pub quote: String,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct ClaimView {
    pub id: String,
    pub kind: String,
    pub quote: String,
    pub tolerance: Option<f64>,
    pub figures: Vec<String>,
}

/// The Results page for one stored run.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ResultsView {
    pub run: RunSummary,
    /// Empty when the machine matches the post's; otherwise why it differs.
    pub machine_differs: Vec<String>,
    pub tally: String,
    pub figures: Vec<FigureResult>,
    pub verdicts: Vec<VerdictView>,
    pub environment: EnvironmentView,
    /// The people table (post 004's many-people steps): its columns, and a
    /// row per step of people per lane. Empty for a run without them.
    pub people_columns: Vec<String>,
    pub people: Vec<Vec<String>>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct FigureResult {
    pub figure: String,
    pub lane: String,
    pub endpoint: Option<String>,
    pub metric: String,
    pub unit: String,
    pub published: Option<f64>,
    pub published_range: Option<Vec<f64>>,
    /// The measured median, where the cell has one.
    pub measured: Option<f64>,
    pub measured_low: Option<f64>,
    pub measured_high: Option<f64>,
    /// `valid`, or why the cell is no data / client-bound / not comparable.
    pub status: String,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct IntervalView {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct VerdictView {
    pub claim: String,
    pub kind: String,
    pub quote: String,
    /// `reproduced`, `not_reproduced`, `inconclusive`, `not_comparable`.
    pub outcome: String,
    pub reason: String,
    pub published: Option<f64>,
    pub unit: String,
    pub tolerance: Option<f64>,
    pub band: Option<Vec<f64>>,
    pub measured: Option<IntervalView>,
    pub more_runs: Option<u32>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct EnvironmentView {
    pub toolchains: Vec<NameValue>,
    pub sources: Vec<NameValue>,
    /// Every command run, as a person would type it.
    pub commands: Vec<String>,
    /// The harness settings and the fingerprint, pretty-printed JSON.
    pub harness: String,
    pub fingerprint: String,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

/// The Share page: exactly what would be posted, after redaction.
#[derive(Clone, Debug, Serialize, TS)]
pub struct SharePreview {
    pub run: String,
    pub title: String,
    pub body: String,
    /// What was replaced: host names and user names found in the fingerprint.
    pub redacted: Vec<String>,
    /// A GitHub new-discussion page with the title and body filled in,
    /// when a repository is configured (`REPRISE_DISCUSSIONS_REPO`).
    pub prefilled_url: Option<String>,
    /// The CLI command that signs in with the device flow and posts.
    pub cli_command: String,
}

/// The Machine page: the probe's fingerprint as facts.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ThisMachine {
    /// `cpu.brand`, `clock.governor`, … with their values.
    pub facts: Vec<NameValue>,
    /// What this page does not show, and where to find it.
    pub missing: Vec<String>,
}

/// The Preflight page: the probe's comparison, item by item.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PreflightView {
    pub recipe: String,
    /// Whether something blocks the run.
    pub blocks: bool,
    /// Whether absolute figures can be compared with the post's.
    pub absolute_comparable: bool,
    pub items: Vec<PreflightItem>,
    pub runnable_lanes: Vec<String>,
    pub blocked_lanes: Vec<String>,
    /// Lanes the post measured that no recipe can run, and why.
    pub published_only: Vec<NameValue>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct PreflightItem {
    /// `cpu`, `governor`, `toolchain`, `lane`, …
    pub subject: String,
    pub name: String,
    /// What the post had.
    pub reference: Option<String>,
    /// What this machine has.
    pub here: Option<String>,
    /// `matches`, `differs` or `blocks`.
    pub verdict: String,
    pub why: String,
    pub fix: Option<String>,
}

/// One message on a run's event channel: either an event as it happened or
/// a merged summary of many progress events.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamMessage {
    /// Progress merged over one interval: the latest value and how many
    /// events were folded into it.
    Progress {
        step: String,
        done: f64,
        total: Option<f64>,
        req_per_s: Option<f64>,
        p99_ms: Option<f64>,
        merged: u32,
    },
    /// Log lines of one step, joined, with how many were dropped to stay
    /// within the interval's budget.
    Log {
        step: String,
        lines: Vec<String>,
        dropped: u32,
    },
    /// Anything else, passed on at once and in order.
    Event { payload: String },
}

/// What this build can do.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Capabilities {
    /// Machine probe and preflight (reprise-probe).
    pub probe: bool,
    /// Running a recipe (reprise-engine).
    pub engine: bool,
    /// The synthetic event stream bench/desktop measures with.
    pub bench_stream: bool,
}

/// What a bench stream did: events produced, batches the UI received.
#[derive(Clone, Debug, Serialize, TS)]
pub struct StreamSummary {
    pub events: u64,
    pub batches: u64,
}

/// The Run page: the engine's plan and where the latest run got to.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RunPlan {
    pub recipe: String,
    pub checksum: String,
    pub lanes: Vec<String>,
    /// The run a start resumes, if there is one.
    pub latest_run: Option<String>,
    pub steps: Vec<PlannedStepView>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct PlannedStepView {
    pub id: String,
    pub kind: String,
    /// The post's reason for the step.
    pub why: String,
    /// What the step will do: the command, the source, the tree.
    pub describe: String,
    /// Where the latest run got to: `finished`, `failed`, `skipped`, …
    pub last_status: Option<String>,
    pub last_reason: Option<String>,
}

/// How a run ended.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RunOutcome {
    pub run: String,
    /// The run's id in the results history, when it measured something.
    pub stored: Option<String>,
    pub finished: Vec<String>,
    pub reused: Vec<String>,
    pub skipped: Vec<String>,
    pub failed: Vec<String>,
    pub cancelled: bool,
}

/// Whether the app can post, and where.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ShareStatus {
    pub signed_in: bool,
    /// Whether an OAuth app is configured for the device flow.
    pub can_sign_in: bool,
    pub repo: Option<String>,
    /// Where the token is (or would be) kept.
    pub token_store: String,
}

/// The code to enter at GitHub's device page.
#[derive(Clone, Debug, Serialize, TS)]
pub struct SignInCode {
    pub user_code: String,
    pub verification_uri: String,
    /// Seconds until the code expires.
    pub expires_in: u64,
}

/// A posted report.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Submitted {
    pub url: String,
}
