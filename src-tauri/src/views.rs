//! What the commands hand the UI, exported to TypeScript (`ui/src/bindings/`)
//! with ts-rs. Most of it is the crates' own types (a recipe's post, figures
//! and claims, the preflight, verdicts, the run's outcome, engine events),
//! generated from where they are defined; the types here only combine
//! several of those for one page, or carry what only the app has (errors
//! with a hint, the event stream's batches).

use reprise_engine::{Decision, Event, StepStatus};
use reprise_probe::preflight::LaneHere;
use reprise_recipe::{
    ChecksumStatus, Claim, Figure, Lane, Machine, Metric, Post, StepKind, Toolchain,
};
use reprise_report::{Environment, PeopleRow, RunInfo};
use reprise_verdict::{
    CellKey, CellStats, CellStatus, Deviation, FigureReading, Interval, MachineMatch, Verdict,
};
use serde::Serialize;
use ts_rs::TS;

pub use reprise_history::RunSummary;
pub use reprise_probe::preflight::Preflight;
pub use reprise_session::run::RunOutcome;
pub use reprise_session::share::{SharePreview, ShareStatus};
pub use reprise_share::CreatedDiscussion;

/// A command's failure, as the UI shows it: what happened and what to do.
#[derive(Clone, Debug, PartialEq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub kind: ErrorKind,
    pub message: String,
    /// What the person can do about it.
    pub hint: String,
}

/// What kind of failure a command had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No such recipe or run.
    NotFound,
    /// A recipe that does not load.
    Invalid,
    /// A recipe that is not the reviewed one.
    Unreviewed,
    /// The recipe's steps cannot be planned.
    Plan,
    /// The recipe is already running.
    Busy,
    /// Reading or writing the data dir.
    Io,
    /// The results history.
    History,
    /// Sharing: GitHub, the token, the preview.
    Share,
    /// The server host of a run on two machines: its address, certificates,
    /// engine or the lanes' images.
    ServerHost,
    /// The app itself (a thread stopped).
    Internal,
}

/// The Library page: one card per recipe, and the files that did not load.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Library {
    pub recipes: Vec<RecipeCard>,
    pub problems: Vec<RecipeProblem>,
    /// The folder the recipes were read from (`REPRISE_ROOT`, a checkout, or
    /// the installed app's own).
    pub dir: String,
}

/// A recipe as the Library shows it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RecipeCard {
    pub post: Post,
    /// The units of what its figures measure (`req/s`, `ms`, …).
    pub units: Vec<String>,
    pub figures: u32,
    pub claims: u32,
    pub steps: u32,
    /// Each lane and whether it runs here (judged from what is installed,
    /// without running anything).
    pub lanes: Vec<LaneStanding>,
    pub checksum: ChecksumStatus,
}

/// A lane by name and whether it runs here.
#[derive(Clone, Debug, Serialize, TS)]
pub struct LaneStanding {
    pub lane: String,
    pub here: LaneHere,
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
    pub post: Post,
    pub checksum: ChecksumStatus,
    pub machine: Option<Machine>,
    pub toolchains: Vec<ToolchainHere>,
    pub lanes: Vec<LaneOfPost>,
    pub steps: Vec<StepView>,
    pub figures: Vec<Figure>,
    pub claims: Vec<Claim>,
    /// The unit of each metric the figures use.
    pub units: Vec<MetricUnit>,
}

/// A toolchain and whether its program is found here.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ToolchainHere {
    pub toolchain: Toolchain,
    pub on_path: bool,
}

/// A lane and whether it runs here.
#[derive(Clone, Debug, Serialize, TS)]
pub struct LaneOfPost {
    pub lane: Lane,
    pub here: LaneHere,
}

/// A step as the Post page lists it: its kind, the post's reason, and its
/// command as a person would type it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct StepView {
    pub id: String,
    pub kind: StepKind,
    pub why: String,
    pub after: Vec<String>,
    pub lanes: Vec<String>,
    pub command: Option<String>,
}

/// A metric and the unit its numbers are in.
#[derive(Clone, Debug, Serialize, TS)]
pub struct MetricUnit {
    pub metric: Metric,
    pub unit: String,
}

/// The Results page for one stored run.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ResultsView {
    pub run: RunSummary,
    pub info: RunInfo,
    /// Whether this machine is the post's (absolute figures are judged only then).
    pub machine: MachineMatch,
    pub tally: String,
    pub figures: Vec<FigureReading>,
    pub verdicts: Vec<Verdict>,
    /// Every way the run differs from the post.
    pub deviations: Vec<Deviation>,
    pub environment: Environment,
    /// The environment's commands as a person would type them.
    pub commands: Vec<String>,
    /// The people table (post 004's many-people steps); empty for a run without them.
    pub people: Vec<PeopleRow>,
    pub units: Vec<MetricUnit>,
    /// Every cell the run measured, whether or not a figure reads it (a
    /// reference lane of the recipe's own, such as nginx).
    pub cells: Vec<MeasuredCell>,
    /// The lanes the run did not measure, and why.
    pub not_measured: Vec<reprise_session::run::LaneSkipped>,
    /// The machine the run was measured on, as `reprise probe` words it
    /// (`CPU`, `Cores`, `Governor`, …); empty when the run records none.
    pub measured_on: Vec<Fact>,
}

/// One measured cell: a lane's endpoint and metric, its runs' statistics
/// and the interval of their median.
#[derive(Clone, Debug, Serialize, TS)]
pub struct MeasuredCell {
    pub key: CellKey,
    /// Runs recorded, with or without a number.
    pub runs: u32,
    pub status: CellStatus,
    pub stats: Option<CellStats>,
    /// The bootstrap interval of the median, as the verdicts draw it.
    pub interval: Option<Interval>,
    /// The published figures this cell measured; empty for a lane no figure names.
    pub figures: Vec<String>,
}

/// The Machine page: the probe's fingerprint as facts.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ThisMachine {
    /// The fingerprint as `reprise probe` prints it: `CPU`, `Cores`,
    /// `Governor`, … each with a readable value.
    pub summary: Vec<Fact>,
    /// Every raw fact: `cpu.brand`, `clock.governor`, … with their values.
    pub facts: Vec<Fact>,
}

/// A validation of this machine, as `reprise validate` prints it: the
/// verdict, its one line, every check with why and its fix, the ceiling.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Validation {
    /// `quick` or `full`.
    pub mode: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    pub fitness: reprise_validate::Fitness,
    /// The one line a person pastes.
    pub summary: String,
    pub checks: Vec<reprise_validate::Check>,
    /// The loopback ceiling's median over its runs (`None`: no run had data).
    pub ceiling_req_per_s: Option<f64>,
    /// Its spread between runs (coefficient of variation); `None` under two
    /// runs with data, where there is no spread to read.
    pub ceiling_cv: Option<f64>,
    /// The runs the median is over: those with data.
    pub ceiling_runs: u32,
    /// Which CPUs served and which loaded.
    pub ceiling_split: String,
    /// Saved in the history (as `reprise validate` saves it), or why not.
    pub history: reprise_session::HistoryOutcome,
}

/// One fact of the fingerprint.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Fact {
    pub name: String,
    pub value: String,
}

/// One message on a run's event channel: an engine event as it happened, or
/// a merged summary of many progress events or log lines.
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
        /// The cell being measured, where the step measures cells.
        cell: Option<LiveCell>,
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
    Event { event: Event },
}

/// The cell a measuring step is on: the lane, the endpoint (or step of
/// people) and which timed run.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct LiveCell {
    pub lane: String,
    pub endpoint: String,
    pub run: u32,
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
    pub checksum: ChecksumStatus,
    pub lanes: Vec<String>,
    /// The run a start resumes, if there is one.
    pub latest_run: Option<String>,
    pub steps: Vec<PlannedStep>,
    /// The recipe's sources, each of which a run may fetch from elsewhere.
    pub sources: Vec<SourceOfRun>,
    /// How the run would differ from the post, known before it starts.
    pub deviations: Vec<Deviation>,
    /// Everything the run executes, writes and requests, escaped: what
    /// starting it accepts.
    pub consent: reprise_engine::Consent,
    /// For a modified recipe: the diff from its reviewed version, where the
    /// checkout's git history has it.
    pub reviewed_diff: Option<String>,
}

/// A source as the run options show it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct SourceOfRun {
    pub id: String,
    pub url: String,
    /// The pinned revision, or the branch an unpinned source follows.
    pub revision: String,
}

/// A step of the plan, and where the latest run got to with it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PlannedStep {
    pub id: String,
    pub kind: StepKind,
    /// The post's reason for the step.
    pub why: String,
    /// What the step will do: the command, the source, the tree.
    pub describe: String,
    /// Kept from the latest run, run, or redone — and why.
    pub decision: Decision,
    pub last_status: Option<StepStatus>,
    pub last_reason: Option<String>,
    /// A measuring step's cells and about how long they take, as a full
    /// run applies the workload, and as a quick one does.
    pub expected: Option<reprise_engine::Expected>,
    pub expected_quick: Option<reprise_engine::Expected>,
}

/// What a person chose for a run on the Run page.
#[derive(Clone, Debug, Default, serde::Deserialize, TS)]
pub struct RunChoices {
    /// Start a new run instead of resuming the latest.
    pub fresh: bool,
    /// A smoke run: short loads and warm-ups (the results say so).
    pub quick: bool,
    /// Sources to fetch from elsewhere, by id: a mirror, a fork, an offline copy.
    pub sources: std::collections::BTreeMap<String, String>,
    /// Run a recipe that is not the reviewed one: the reader saw what it
    /// runs (and the diff from the reviewed version) and accepted it.
    pub allow_modified: bool,
    /// Serve the lanes on another machine: the plan the reader saw was made
    /// with this same choice.
    pub server: Option<ServerChoice>,
}

/// Lanes served by another machine's Docker Engine API (`reprise run
/// --server-host URL --server-certs DIR --image LANE=IMAGE`).
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, TS)]
pub struct ServerChoice {
    /// `tcp://HOST:PORT` (TLS with client certificates).
    pub host: String,
    /// The folder of ca.pem, cert.pem and key.pem; `None` for
    /// DOCKER_CERT_PATH, else ~/.docker.
    pub certs: Option<String>,
    /// Images given to lanes, by lane: every lane there runs in one.
    pub images: std::collections::BTreeMap<String, String>,
}

/// The Share page's preview: the session's [`SharePreview`] (exactly what
/// would be posted, and where) with the Markdown Copy gives, made by the
/// session as Save writes it, so Copy, Save and Post cannot drift.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ShareView {
    #[serde(flatten)]
    pub preview: SharePreview,
    /// The title, a blank line and the body ([`SharePreview::markdown`]).
    pub markdown: String,
}

/// The code to enter at GitHub's device page.
#[derive(Clone, Debug, Serialize, TS)]
pub struct SignInCode {
    pub user_code: String,
    pub verification_uri: String,
    /// Seconds until the code expires.
    pub expires_in: u64,
}
