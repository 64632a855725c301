//! What a recipe says, once parsed and validated.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::claim::Claim;
use crate::count::Count;
use crate::duration::Span;
use crate::name::Name;
use crate::step::{Action, Step};
use crate::version::VersionReq;

/// Why an image cannot be given to a lane ([`Recipe::give_image`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("no lane `{lane}` in this recipe (its lanes: {})", known.join(", "))]
    NoLane { lane: String, known: Vec<String> },
    #[error("`{0}` is not an image reference")]
    NotAnImage(String),
}

/// One published result: what the post did, on what, and what it found.
#[derive(Clone, Debug, Serialize)]
pub struct Recipe {
    /// The file the recipe was read from.
    pub file: PathBuf,
    pub post: Post,
    pub sources: Vec<Source>,
    pub toolchains: Vec<Toolchain>,
    /// The machine the post measured on, where the post says.
    pub machine: Option<Machine>,
    pub steps: Vec<Step>,
    pub lanes: Vec<Lane>,
    pub workloads: Vec<Workload>,
    pub figures: Vec<Figure>,
    pub claims: Vec<Claim>,
    /// Small files the run writes into its work dir (an app, a config).
    pub files: Vec<FileSpec>,
    /// Programs lanes need running beside them (Redis for stock Campfire),
    /// which the run starts and stops itself.
    pub services: Vec<Service>,
}

/// A program a lane needs running beside it, started by the run before the
/// lane's server (once, shared by every lane that names it) and stopped
/// when the run ends; or, where the service says how to know it
/// (`answers`), the one already running on this machine.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Service {
    pub name: Name,
    /// How to start it in the foreground, e.g. `["redis-server", "--port", "6379"]`.
    pub command: Vec<String>,
    /// The loopback port it listens on: ready once it accepts there.
    pub port: u16,
    /// How to tell that what listens on the port is this service. With it,
    /// a service already answering there is used as it is and left running
    /// (Debian's and Ubuntu's redis-server starts a Redis on 6379 when it is
    /// installed, and the posts' harness uses the box's running Redis);
    /// without it, a taken port stops the lanes that need the service.
    pub answers: Option<Exchange>,
    /// Working directory, relative to the run's work dir.
    pub dir: Option<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// How long it may take to accept (10 s when not said).
    pub boot_budget: Option<Span>,
    pub why: String,
}

/// One exchange on a service's port: a line sent (the run ends it with
/// CR LF), and how the answer starts (`{ send = "PING", expect = "+PONG" }`
/// for Redis).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    pub send: String,
    pub expect: String,
}

/// A file the recipe carries: written into the run's work dir before the
/// first step, so a recipe needs nothing but itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSpec {
    /// Relative to the run's `files/` folder; no `..`. (Steps' and lanes' `dir` are relative to the run folder, which holds `files/`, `sources/`, `trees/`.)
    pub path: Name,
    pub content: String,
    pub why: String,
}

/// In a lane's command, the address its server listens on: `127.0.0.1` on
/// one machine, the server host's address when the lanes run on another
/// (`reprise run --server-host`), IPv6 in brackets.
pub const HOST_PLACEHOLDER: &str = "{host}";

/// Whether a step's `lanes` take in `lane`: they name it, or name none
/// (every lane).
pub fn takes_in(lanes: &[Name], lane: &str) -> bool {
    lanes.is_empty() || lanes.iter().any(|l| l.as_str() == lane)
}

impl Recipe {
    pub fn id(&self) -> &str {
        &self.post.id
    }

    pub fn lane(&self, name: &str) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.name == name)
    }

    /// Whether a `sign_in` step signs in to `lane` (one that names no lanes
    /// signs in to every lane): its cold starts are timed there, to its
    /// signed-in room page, and its serve step boots it once.
    pub fn signs_in(&self, lane: &str) -> bool {
        self.steps.iter().any(|s| {
            matches!(&s.action, crate::Action::SignIn(sign_in)
                if takes_in(&sign_in.lanes, lane))
        })
    }

    /// How many cold starts of `lane` are timed: the `repeat` of the serve
    /// step that serves it, at least 1.
    pub fn cold_starts(&self, lane: &str) -> u32 {
        self.steps
            .iter()
            .find_map(|s| match &s.action {
                crate::Action::Serve(serve) if takes_in(&serve.lanes, lane) => Some(serve.repeat),
                _ => None,
            })
            .unwrap_or(1)
            .max(1)
    }

    /// How the run shares the CPUs between servers and load generator: as
    /// the post's run did, where the recipe says.
    pub fn cpu_placement(&self) -> CpuPlacement {
        self.machine
            .as_ref()
            .map_or(CpuPlacement::default(), |m| m.cpu_placement)
    }

    /// Runs the lanes as `placement` says where they can (`reprise run
    /// --placement`): in a container, each lane that names an `image`; on
    /// the host, each that has a `command`. Returns the lanes moved.
    pub fn place_lanes(&mut self, placement: Placement) -> Vec<String> {
        let mut moved = Vec::new();
        for lane in &mut self.lanes {
            let fits = match placement {
                Placement::Container => lane.image.is_some(),
                Placement::Host => lane.command.is_some(),
            };
            if fits && lane.placement != placement {
                lane.placement = placement;
                moved.push(lane.name.to_string());
            }
        }
        moved
    }

    /// Runs `lane` in a container of `image` (`reprise run --image
    /// LANE=IMAGE`), whatever image and placement the recipe gave it; an
    /// unknown lane is an error that names the known ones.
    pub fn give_image(&mut self, lane: &str, image: &str) -> Result<(), ImageError> {
        let known: Vec<String> = self.lanes.iter().map(|l| l.name.to_string()).collect();
        let Some(found) = self.lanes.iter_mut().find(|l| l.name == lane) else {
            return Err(ImageError::NoLane {
                lane: lane.to_string(),
                known,
            });
        };
        if image.trim().is_empty() || image.chars().any(char::is_whitespace) {
            return Err(ImageError::NotAnImage(image.to_string()));
        }
        found.image = Some(image.to_string());
        found.placement = Placement::Container;
        Ok(())
    }

    pub fn service(&self, name: &str) -> Option<&Service> {
        self.services.iter().find(|s| s.name == name)
    }

    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    pub fn toolchain(&self, name: &str) -> Option<&Toolchain> {
        self.toolchains.iter().find(|t| t.name == name)
    }

    pub fn workload(&self, name: &str) -> Option<&Workload> {
        self.workloads.iter().find(|w| w.name == name)
    }

    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }

    /// The toolchains a lane needs on this machine: its runtime and anything
    /// else it names.
    pub fn lane_toolchains<'a>(&'a self, lane: &'a Lane) -> impl Iterator<Item = &'a Toolchain> {
        lane.runtime
            .iter()
            .chain(lane.needs.iter())
            .filter_map(|n| self.toolchain(n))
    }
}

/// The post the recipe reproduces.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Post {
    /// The recipe's id; also its file name without `.toml`.
    pub id: Name,
    pub title: String,
    pub author: String,
    /// Publication date, `YYYY-MM-DD`, or `YYYY` / `YYYY-MM` when only that is known.
    pub date: String,
    pub url: Option<String>,
    /// Which run the post reports, e.g. "the nightly of September 22".
    pub run: Option<String>,
    /// One paragraph: what the post measures.
    pub summary: String,
    /// What the post leaves unknown, said rather than invented.
    #[serde(default)]
    pub unknowns: Vec<String>,
}

/// A git repository the run needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub id: Name,
    pub url: String,
    /// A pinned revision: a full or short commit SHA.
    pub rev: Option<Name>,
    /// A branch to follow when the post pins no revision.
    pub branch: Option<String>,
    /// Why the source is not pinned (required with `branch`).
    pub unpinned: Option<String>,
    /// What the source is for.
    pub purpose: String,
}

/// A source's revision, as the recipe pins it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Revision<'a> {
    Pinned(&'a str),
    Unpinned { branch: &'a str, reason: &'a str },
}

impl Source {
    pub fn revision(&self) -> Revision<'_> {
        match (&self.rev, &self.branch) {
            (Some(rev), _) => Revision::Pinned(rev),
            (None, Some(branch)) => Revision::Unpinned {
                branch,
                reason: self.unpinned.as_deref().unwrap_or(""),
            },
            (None, None) => Revision::Unpinned {
                branch: "HEAD",
                reason: "",
            },
        }
    }
}

/// A program the run needs, the version the post used, and how to ask for it.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Toolchain {
    pub name: Name,
    /// The version requirement (`4.0.5`, `>=3.1`, `*`).
    pub version: VersionReq,
    /// The argument vector that prints the version, e.g. `["ruby", "--version"]`.
    pub command: Vec<String>,
    /// A regular expression whose first group is the version in the output.
    pub pattern: Name,
    /// Why the version matters, from the post where it says.
    pub why: Option<String>,
    /// The post's own words naming this version.
    pub quote: Option<String>,
    /// What mise installs to provide it, `TOOL@VERSION` as `mise use`
    /// takes it: `ruby@4.0.5`, `ruby@jruby-10.1.1.0`, `java@25`,
    /// `gem:falcon@0.47.7`. `reprise setup` installs these (the posts pin
    /// their toolchains through mise).
    pub mise: Option<Name>,
    /// What installs it where mise does not, as a reader copies it
    /// (`sudo apt-get install libclang-dev`): preflight's fix when it is
    /// missing or at another version.
    pub fix: Option<String>,
}

impl Toolchain {
    /// The mise tool and version, `("ruby", "jruby-10.1.1.0")`.
    pub fn mise_tool(&self) -> Option<(&str, &str)> {
        self.mise.as_deref()?.rsplit_once('@')
    }

    /// Reads this toolchain's version out of the output of its `command`.
    pub fn read_version(&self, output: &str) -> Option<crate::version::Version> {
        let re = regex::Regex::new(&self.pattern).ok()?;
        let captures = re.captures(output)?;
        captures.get(1)?.as_str().parse().ok()
    }
}

/// The machine a post measured on.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    pub cpu: String,
    pub cores: Option<u32>,
    pub threads: Option<u32>,
    pub smt: Option<bool>,
    pub base_mhz: Option<u32>,
    /// Whether boost (turbo) was on.
    pub boost: Option<bool>,
    pub governor: Option<String>,
    pub memory_gb: Option<u32>,
    pub os: Option<String>,
    pub kernel: Option<String>,
    /// `none` for bare metal.
    pub virtualization: Option<String>,
    /// How the post's run shared the CPUs between its servers and its load
    /// generator.
    #[serde(default)]
    pub cpu_placement: CpuPlacement,
    /// The sentence of the post that describes the machine.
    pub quote: String,
}

impl Machine {
    /// Whether `name` (as `lscpu`, a fingerprint or a post gives it) is this
    /// machine's CPU: the same words, whatever their case and spacing.
    pub fn is_cpu(&self, name: &str) -> bool {
        let words = |text: &str| {
            text.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        words(&self.cpu) == words(name)
    }
}

/// How a run shares the machine's CPUs between the lanes' servers and the
/// load generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum CpuPlacement {
    /// The servers on the first half of the CPUs, the load generator on the
    /// rest: neither takes the other's CPU time.
    #[default]
    Split,
    /// Servers and load generator unpinned, on every CPU, as the posts'
    /// harness runs its HTTP lanes and wrk: a server sizing itself to the
    /// machine (Campfire's `config/puma.rb`, the JVM) sees all of it.
    Shared,
}

/// Where a lane's server runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    #[default]
    Host,
    Container,
}

/// One runtime shape the post measured: a server, its runtime, its shape.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Lane {
    pub name: Name,
    /// The toolchain that runs the app (a `[[toolchain]]` name).
    pub runtime: Option<Name>,
    /// Other toolchains the lane needs.
    #[serde(default)]
    pub needs: Vec<Name>,
    /// The server program (puma, falcon, nginx, …).
    pub server: Option<String>,
    /// Worker processes: a number, or a share of the server's CPUs.
    pub workers: Option<Count>,
    /// Threads per worker: a number, or a share of the server's CPUs.
    pub threads: Option<Count>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    pub heap_mb: Option<u32>,
    /// Warm-up before the first timed run.
    pub warmup: Option<Span>,
    /// How to start it. A lane without a command is published only: the post
    /// measured it but the recipe cannot run it. `{host}` in it is the
    /// address to listen on ([`HOST_PLACEHOLDER`]).
    pub command: Option<Vec<String>>,
    /// Working directory, relative to the run's work dir.
    pub dir: Option<String>,
    pub port: Option<u16>,
    /// The path asked until the server is up: any answer but 502 or 503,
    /// as the posts' harness waits on `/` (`/` when not said).
    pub health: Option<String>,
    /// How long the server may take to become ready.
    pub boot_budget: Option<Span>,
    #[serde(default)]
    pub placement: Placement,
    /// Container image for `placement = "container"`.
    pub image: Option<String>,
    /// What this lane is, in the post's words.
    pub why: String,
    /// Why the recipe cannot run this lane, when it has no command.
    pub not_runnable: Option<String>,
    /// How the original harness names this lane's cells in `per-run.json`
    /// and `summary.json`, where that is not the lane's own name and
    /// workers (`harness = { target = "ruby", workers = 1 }` for `ruby-1p`).
    pub harness: Option<HarnessName>,
    /// The `[[service]]`s it needs running (`["redis"]`).
    #[serde(default)]
    pub services: Vec<Name>,
    /// The allocator the post's harness preloaded into the lane's server
    /// (`"jemalloc"`): preloaded where this machine has it, and what the
    /// server then loaded is recorded with the run.
    pub allocator: Option<Allocator>,
}

/// A memory allocator a lane's server is started with, in place of the C
/// library's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Allocator {
    /// jemalloc, preloaded (`LD_PRELOAD=…/libjemalloc.so.2`) as Campfire's
    /// Dockerfile and the posts' harness preload it.
    Jemalloc,
}

impl Allocator {
    /// The shared library that provides it.
    pub fn library(self) -> &'static str {
        match self {
            Allocator::Jemalloc => "libjemalloc.so.2",
        }
    }

    /// The Debian and Ubuntu package that installs the library.
    pub fn package(self) -> &'static str {
        match self {
            Allocator::Jemalloc => "libjemalloc2",
        }
    }
}

impl std::fmt::Display for Allocator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Allocator::Jemalloc => "jemalloc",
        })
    }
}

/// A lane's name in the original harness's files: its `target` and
/// `workers` (scripts/bench names a cell by both).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct HarnessName {
    pub target: String,
    pub workers: Option<u32>,
}

impl HarnessName {
    /// Whether a harness cell of `target` with `workers` is this lane's:
    /// same target, and the same workers where both say.
    pub fn fits(&self, target: &str, workers: Option<u32>) -> bool {
        self.target == target
            && match (self.workers, workers) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

impl Lane {
    pub fn is_runnable(&self) -> bool {
        self.command.is_some()
    }

    /// The lane's name in the harness's files: the recipe's `harness`
    /// mapping, or else the lane's own name and workers.
    pub fn harness_name(&self) -> HarnessName {
        self.harness.clone().unwrap_or_else(|| HarnessName {
            target: self.name.to_string(),
            workers: self.workers.and_then(Count::fixed),
        })
    }
}

/// What is measured: endpoints and how hard, how long, how often.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub name: Name,
    pub connections: u32,
    #[serde(default = "one")]
    pub threads: u32,
    pub duration: Span,
    pub warmup: Option<Span>,
    #[serde(default = "one")]
    pub runs: u32,
    /// Requests per second for an open-loop run; closed loop when absent.
    pub rate: Option<f64>,
    /// What measures it: Reprise's own load generator (the default), or
    /// wrk as the posts ran it.
    #[serde(default)]
    pub generator: Generator,
    #[serde(default, rename = "endpoint")]
    pub endpoints: Vec<Endpoint>,
    /// The many-people load of post 004.
    pub people: Option<People>,
    pub why: Option<String>,
}

fn one() -> u32 {
    1
}

/// The load generator that measures a workload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// Reprise's own (reprise-loadgen): every response checked, HDR latency.
    #[default]
    Reprise,
    /// wrk (`wrk --latency`), as the posts measured, parsed as their
    /// harness parses it: any non-2xx response or socket error is no data.
    Wrk,
}

impl Generator {
    pub fn name(self) -> &'static str {
        match self {
            Generator::Reprise => "reprise-loadgen",
            Generator::Wrk => "wrk",
        }
    }
}

impl std::str::FromStr for Placement {
    type Err = String;

    fn from_str(s: &str) -> Result<Placement, String> {
        match s {
            "host" => Ok(Placement::Host),
            "container" => Ok(Placement::Container),
            other => Err(format!(
                "unknown placement {other:?}: expected \"host\" or \"container\""
            )),
        }
    }
}

impl std::str::FromStr for Generator {
    type Err = String;

    fn from_str(s: &str) -> Result<Generator, String> {
        match s {
            "reprise" | "reprise-loadgen" => Ok(Generator::Reprise),
            "wrk" => Ok(Generator::Wrk),
            other => Err(format!(
                "unknown load generator {other:?}: expected \"reprise\" or \"wrk\""
            )),
        }
    }
}

/// One request the workload sends.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// How figures name this endpoint, e.g. `/rooms/1`.
    pub name: Name,
    #[serde(default = "get")]
    pub method: String,
    pub path: String,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    pub body: Option<String>,
    #[serde(default)]
    pub expect: Expect,
}

fn get() -> String {
    "GET".into()
}

/// What every response to an endpoint must look like.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub status: Option<u16>,
    /// The harness's tag count: matches of `<([a-zA-Z][-a-zA-Z0-9]*)`.
    pub tags: Option<u64>,
    pub bytes: Option<u64>,
    pub sha256: Option<String>,
    pub contains: Option<String>,
}

/// Simulated people (post 004): accounts, navigation mix, steps, and the
/// criterion for a step to count as served.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct People {
    pub accounts: u32,
    pub rooms: u32,
    /// People added per step, e.g. `[250, 500, 1000, 2000, 3000]`.
    pub steps: Vec<u32>,
    pub step_duration: Span,
    pub navigate_every: Span,
    pub post_every: Span,
    /// Share of navigations by kind; the shares add up to 1.
    pub mix: BTreeMap<String, f64>,
    pub served: Served,
    /// A path on the lane's server listing every saved post's client message
    /// id, one a line: the end-of-run check of acknowledged writes.
    pub verify_writes: Option<String>,
    /// The accounts' password, as the seed made them (`person{n}@example.test`);
    /// people sign in with it unless `sessions` mints their sessions.
    pub password: Option<String>,
    /// A file in the run's folder with a session minted for every account
    /// (`email<TAB>cookie` a line, written by an earlier step such as the
    /// seed): people use them instead of signing in, which Campfire rate-limits.
    pub sessions: Option<String>,
}

/// When a step of people counts as served.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Served {
    pub navigation_quantile: f64,
    pub navigation_ms: f64,
    pub max_failures: u64,
    pub delivery_quantile: f64,
    pub delivery_ms: f64,
}

/// What a figure measures, and so its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    ReqPerS,
    P50Ms,
    P99Ms,
    RssMb,
    PssMb,
    MemoryMb,
    BootAcceptS,
    BootPageS,
    UsPerRow,
    UsPerRequest,
    ReqPerSPerGb,
    Tags,
    Count,
    Seconds,
    Percent,
}

impl Metric {
    pub const ALL: [Metric; 15] = [
        Metric::ReqPerS,
        Metric::P50Ms,
        Metric::P99Ms,
        Metric::RssMb,
        Metric::PssMb,
        Metric::MemoryMb,
        Metric::BootAcceptS,
        Metric::BootPageS,
        Metric::UsPerRow,
        Metric::UsPerRequest,
        Metric::ReqPerSPerGb,
        Metric::Tags,
        Metric::Count,
        Metric::Seconds,
        Metric::Percent,
    ];

    pub fn unit(self) -> &'static str {
        match self {
            Metric::ReqPerS => "req/s",
            Metric::P50Ms | Metric::P99Ms => "ms",
            Metric::RssMb | Metric::PssMb | Metric::MemoryMb => "MB",
            Metric::BootAcceptS | Metric::BootPageS | Metric::Seconds => "s",
            Metric::UsPerRow => "µs/row",
            Metric::UsPerRequest => "µs",
            Metric::ReqPerSPerGb => "req/s/GB",
            Metric::Tags => "tags",
            Metric::Count => "",
            Metric::Percent => "%",
        }
    }

    /// Whether the value is the response's shape (its tag count), not the
    /// machine's speed: the same on every machine, and exact, so one check
    /// reads it and a machine unlike the post's compares it as it is.
    pub fn is_shape(self) -> bool {
        self == Metric::Tags
    }

    /// Whether a larger value is the better one, where that is meaningful.
    pub fn higher_is_better(self) -> Option<bool> {
        match self {
            Metric::ReqPerS | Metric::ReqPerSPerGb => Some(true),
            Metric::Tags | Metric::Count | Metric::Percent => None,
            _ => Some(false),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::ReqPerS => "req_per_s",
            Metric::P50Ms => "p50_ms",
            Metric::P99Ms => "p99_ms",
            Metric::RssMb => "rss_mb",
            Metric::PssMb => "pss_mb",
            Metric::MemoryMb => "memory_mb",
            Metric::BootAcceptS => "boot_accept_s",
            Metric::BootPageS => "boot_page_s",
            Metric::UsPerRow => "us_per_row",
            Metric::UsPerRequest => "us_per_request",
            Metric::ReqPerSPerGb => "req_per_s_per_gb",
            Metric::Tags => "tags",
            Metric::Count => "count",
            Metric::Seconds => "seconds",
            Metric::Percent => "percent",
        }
    }
}

/// A number the post published, with the sentence it comes from.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    pub id: Name,
    pub lane: Name,
    /// The endpoint's name in the lane's workload, where the figure has one.
    pub endpoint: Option<Name>,
    pub metric: Metric,
    /// The published value (exactly one of `value`, `range`, `unknown`).
    pub value: Option<f64>,
    /// A published range, e.g. a p99 of 360–716 ms.
    pub range: Option<[f64; 2]>,
    /// The post measured this cell but gives its number only through a
    /// claim (a ratio); says so.
    pub unknown: Option<String>,
    /// The post rounds ("about 54,000").
    #[serde(default)]
    pub approx: bool,
    /// The conditions that set this figure apart, e.g. "4 threads" or "1,000 people".
    pub condition: Option<String>,
    /// The number the post's program was asked for (its N: 100,000
    /// fibers), where the lane's command prints the one it was asked
    /// (`requested`): a figure measured at another N says so, not
    /// "valid".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<f64>,
    /// The exact sentence of the post.
    pub quote: String,
}

/// A published value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Published {
    Value(f64),
    Range(f64, f64),
    Unknown,
}

impl Figure {
    pub fn published(&self) -> Published {
        match (self.value, self.range) {
            (Some(v), _) => Published::Value(v),
            (None, Some([lo, hi])) => Published::Range(lo, hi),
            _ => Published::Unknown,
        }
    }

    /// A single number for the figure: the value, or a range's midpoint.
    pub fn point(&self) -> Option<f64> {
        match self.published() {
            Published::Value(v) => Some(v),
            Published::Range(lo, hi) => Some((lo + hi) / 2.0),
            Published::Unknown => None,
        }
    }
}

impl Recipe {
    /// The unpinned sources a step's work comes from: those cloned by the
    /// steps it runs after, directly or through others. A tree emitted from
    /// an unpinned source has no digest anyone could publish.
    pub fn unpinned_sources_upstream(&self, step: &Step) -> Vec<&Source> {
        let mut seen: Vec<&str> = Vec::new();
        let mut todo: Vec<&Name> = step.after.iter().collect();
        let mut found: Vec<&Source> = Vec::new();
        while let Some(id) = todo.pop() {
            if seen.contains(&id.as_str()) {
                continue;
            }
            seen.push(id.as_str());
            let Some(up) = self.step(id) else { continue };
            if let Action::Clone(clone) = &up.action
                && let Some(src) = self.sources.iter().find(|s| s.id == clone.source)
                && matches!(src.revision(), Revision::Unpinned { .. })
                && !found.iter().any(|f| f.id == src.id)
            {
                found.push(src);
            }
            todo.extend(up.after.iter());
        }
        found
    }

    /// The steps in an order that respects `after`, otherwise as written.
    /// (A validated recipe has no cycles; were there one, its steps would be
    /// left out rather than looped over.)
    pub fn ordered_steps(&self) -> Vec<&Step> {
        let mut done: Vec<bool> = vec![false; self.steps.len()];
        let mut order = Vec::with_capacity(self.steps.len());
        while order.len() < self.steps.len() {
            let next = self.steps.iter().enumerate().find(|(i, s)| {
                !done[*i]
                    && s.after.iter().all(|dep| {
                        self.steps
                            .iter()
                            .position(|x| x.id == *dep)
                            .is_none_or(|j| done[j])
                    })
            });
            match next {
                Some((i, step)) => {
                    done[i] = true;
                    order.push(step);
                }
                None => break,
            }
        }
        order
    }
}
