//! Typed steps: each kind takes exactly the keys it needs, and a key that
//! does not apply to a kind is an error, not silently ignored.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diagnostic::Problem;
use crate::duration::Span;
use crate::name::Name;

/// One step of a run, with the post's reason for it.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub id: Name,
    /// The post's reason for this step, in one or two sentences.
    pub why: String,
    /// Steps that must finish first.
    pub after: Vec<Name>,
    pub timeout: Option<Span>,
    #[serde(flatten)]
    pub action: Action,
}

/// How a sign-in step gets past CSRF protection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignInFlow {
    /// Scrape `authenticity_token` from the form; fall back to headers.
    #[default]
    Auto,
    /// Scrape `authenticity_token` from the sign-in form.
    Form,
    /// Newer Campfire: no token, `Sec-Fetch-Site: same-origin` and `Origin`.
    Header,
}

/// What a tree should digest to: a manifest (`sha256sum` format) in the
/// checkout, and or the one-line digest over it, written in the recipe.
/// With neither, a `digest` step compares with
/// `checksums/trees/<recipe>/<tree>.sha256`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ExpectedTree {
    pub manifest: Option<String>,
    /// The tree's one-line digest (64 hex digits).
    pub digest: Option<String>,
}

/// What a step does.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Check out a source at its pinned revision into `into`.
    Clone { source: Name, into: String },
    /// Build something from a checkout.
    Build {
        command: Vec<String>,
        dir: Option<String>,
        env: BTreeMap<String, String>,
        /// The files the build makes, relative to `dir`: the step is kept
        /// from an earlier attempt only while they are there, unchanged.
        outputs: Vec<String>,
    },
    /// Run an emitter that writes a tree, then digest the tree.
    Emit {
        command: Vec<String>,
        dir: Option<String>,
        env: BTreeMap<String, String>,
        tree: String,
        expected: ExpectedTree,
    },
    /// Digest a tree and compare it with what the recipe expects.
    Digest {
        tree: String,
        expected: ExpectedTree,
    },
    /// `bundle install` for one runtime into its own lockfile.
    Bundle {
        runtime: Name,
        tree: String,
        lockfile: String,
        env: BTreeMap<String, String>,
    },
    /// Make the seed database and check its row counts.
    Seed {
        command: Vec<String>,
        dir: Option<String>,
        env: BTreeMap<String, String>,
        database: String,
        verify: BTreeMap<String, u64>,
    },
    /// Copy a database into a tree (SQLite's backup API: safe with WAL).
    Stage {
        database: String,
        tree: String,
        to: String,
    },
    /// Sign in and keep the session cookie for the load steps.
    SignIn {
        lanes: Vec<Name>,
        email: String,
        password: String,
        flow: SignInFlow,
    },
    /// Boot each lane, wait for it to be ready, record boot times.
    Serve { lanes: Vec<Name>, repeat: u32 },
    /// One request per endpoint per lane: status, tags, bytes, SHA-256.
    Check { workload: Name, lanes: Vec<Name> },
    /// The measurement matrix: lanes × endpoints × runs.
    Load { workload: Name, lanes: Vec<Name> },
    /// WebSocket (Action Cable) load.
    Cable { workload: Name, lanes: Vec<Name> },
    /// Anything else: a plain command, run `repeat` times (each run's
    /// printed figures kept as a run of the cells it measures).
    Command {
        command: Vec<String>,
        dir: Option<String>,
        env: BTreeMap<String, String>,
        repeat: u32,
    },
}

impl Action {
    pub fn kind(&self) -> StepKind {
        match self {
            Action::Clone { .. } => StepKind::Clone,
            Action::Build { .. } => StepKind::Build,
            Action::Emit { .. } => StepKind::Emit,
            Action::Digest { .. } => StepKind::Digest,
            Action::Bundle { .. } => StepKind::Bundle,
            Action::Seed { .. } => StepKind::Seed,
            Action::Stage { .. } => StepKind::Stage,
            Action::SignIn { .. } => StepKind::SignIn,
            Action::Serve { .. } => StepKind::Serve,
            Action::Check { .. } => StepKind::Check,
            Action::Load { .. } => StepKind::Load,
            Action::Cable { .. } => StepKind::Cable,
            Action::Command { .. } => StepKind::Command,
        }
    }

    /// The lanes a per-lane step names (empty: every runnable lane).
    pub fn lanes(&self) -> &[Name] {
        match self {
            Action::SignIn { lanes, .. }
            | Action::Serve { lanes, .. }
            | Action::Check { lanes, .. }
            | Action::Load { lanes, .. }
            | Action::Cable { lanes, .. } => lanes,
            _ => &[],
        }
    }

    /// The argument vector a step runs, for steps that run one.
    pub fn command(&self) -> Option<&[String]> {
        match self {
            Action::Build { command, .. }
            | Action::Emit { command, .. }
            | Action::Seed { command, .. }
            | Action::Command { command, .. } => Some(command),
            _ => None,
        }
    }
}

/// The kinds of step, as recipes name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    Clone,
    Build,
    Emit,
    Digest,
    Bundle,
    Seed,
    Stage,
    SignIn,
    Serve,
    Check,
    Load,
    Cable,
    Command,
}

impl StepKind {
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Clone => "clone",
            StepKind::Build => "build",
            StepKind::Emit => "emit",
            StepKind::Digest => "digest",
            StepKind::Bundle => "bundle",
            StepKind::Seed => "seed",
            StepKind::Stage => "stage",
            StepKind::SignIn => "sign_in",
            StepKind::Serve => "serve",
            StepKind::Check => "check",
            StepKind::Load => "load",
            StepKind::Cable => "cable",
            StepKind::Command => "command",
        }
    }
}

/// A step as written: every kind's keys are optional here, and turning it
/// into a [`Step`] checks which apply.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStep {
    id: Name,
    kind: Spanned<StepKind>,
    why: String,
    #[serde(default)]
    after: Vec<Name>,
    timeout: Option<Span>,
    lanes: Option<Spanned<Vec<Name>>>,
    source: Option<Name>,
    into: Option<Spanned<String>>,
    command: Option<Spanned<Vec<String>>>,
    dir: Option<Spanned<String>>,
    env: Option<Spanned<BTreeMap<String, String>>>,
    tree: Option<Spanned<String>>,
    manifest: Option<Spanned<String>>,
    digest: Option<Spanned<String>>,
    outputs: Option<Spanned<Vec<String>>>,
    runtime: Option<Name>,
    lockfile: Option<Spanned<String>>,
    database: Option<Spanned<String>>,
    verify: Option<Spanned<BTreeMap<String, u64>>>,
    to: Option<Spanned<String>>,
    email: Option<Spanned<String>>,
    password: Option<Spanned<String>>,
    flow: Option<Spanned<SignInFlow>>,
    workload: Option<Name>,
    repeat: Option<Spanned<u32>>,
}

/// Takes keys out of a raw step, remembering which were used.
struct Keys {
    kind: StepKind,
    kind_span: Range<usize>,
    problems: Vec<Problem>,
}

impl Keys {
    fn required<T>(&mut self, value: Option<T>, key: &str, why: &str) -> Option<T> {
        if value.is_none() {
            self.problems.push(Problem::new(
                self.kind_span.clone(),
                format!("a `{}` step needs `{key}`", self.kind.name()),
                Some(why.to_string()),
            ));
        }
        value
    }
}

fn inner<T>(value: Option<Spanned<T>>) -> Option<T> {
    value.map(Spanned::into_inner)
}

impl RawStep {
    pub(crate) fn into_step(mut self) -> Result<Step, Vec<Problem>> {
        let kind = *self.kind.get_ref();
        let mut keys = Keys {
            kind,
            kind_span: self.kind.span(),
            problems: Vec::new(),
        };
        let command_why = "the argument vector to run, e.g. [\"ruby\", \"bench.rb\"]";
        let tree_why = "the tree's directory under the run's trees/";
        let lanes = inner(self.lanes.take()).unwrap_or_default();
        let action = match kind {
            StepKind::Clone => {
                let source = keys.required(self.source.take(), "source", "the id of a [[source]]");
                let into = inner(self.into.take());
                source.map(|source| {
                    let into = into.unwrap_or_else(|| source.to_string());
                    Action::Clone { source, into }
                })
            }
            StepKind::Build | StepKind::Command => {
                let command = keys.required(inner(self.command.take()), "command", command_why);
                let dir = inner(self.dir.take());
                let env = inner(self.env.take()).unwrap_or_default();
                let outputs = match kind {
                    StepKind::Build => inner(self.outputs.take()).unwrap_or_default(),
                    _ => Vec::new(),
                };
                let repeat = match kind {
                    StepKind::Command => inner(self.repeat.take()).unwrap_or(1),
                    _ => 1,
                };
                command.map(|command| match kind {
                    StepKind::Build => Action::Build {
                        command,
                        dir,
                        env,
                        outputs,
                    },
                    _ => Action::Command {
                        command,
                        dir,
                        env,
                        repeat,
                    },
                })
            }
            StepKind::Emit => {
                let command = keys.required(inner(self.command.take()), "command", command_why);
                let tree = keys.required(inner(self.tree.take()), "tree", tree_why);
                let dir = inner(self.dir.take());
                let env = inner(self.env.take()).unwrap_or_default();
                let expected = self.expected_tree(&mut keys);
                command.zip(tree).map(|(command, tree)| Action::Emit {
                    command,
                    dir,
                    env,
                    tree,
                    expected,
                })
            }
            StepKind::Digest => {
                let tree = keys.required(inner(self.tree.take()), "tree", tree_why);
                let expected = self.expected_tree(&mut keys);
                tree.map(|tree| Action::Digest { tree, expected })
            }
            StepKind::Bundle => {
                let runtime = keys.required(
                    self.runtime.take(),
                    "runtime",
                    "the [[toolchain]] that runs `bundle install`",
                );
                let tree = keys.required(inner(self.tree.take()), "tree", tree_why);
                let lockfile = keys.required(
                    inner(self.lockfile.take()),
                    "lockfile",
                    "the runtime's own lockfile, so the main Gemfile.lock is never modified",
                );
                let env = inner(self.env.take()).unwrap_or_default();
                match (runtime, tree, lockfile) {
                    (Some(runtime), Some(tree), Some(lockfile)) => Some(Action::Bundle {
                        runtime,
                        tree,
                        lockfile,
                        env,
                    }),
                    _ => None,
                }
            }
            StepKind::Seed => {
                let command = keys.required(inner(self.command.take()), "command", command_why);
                let database = keys.required(
                    inner(self.database.take()),
                    "database",
                    "the SQLite file the seed writes",
                );
                let dir = inner(self.dir.take());
                let env = inner(self.env.take()).unwrap_or_default();
                let verify = inner(self.verify.take()).unwrap_or_default();
                command
                    .zip(database)
                    .map(|(command, database)| Action::Seed {
                        command,
                        dir,
                        env,
                        database,
                        verify,
                    })
            }
            StepKind::Stage => {
                let database = keys.required(
                    inner(self.database.take()),
                    "database",
                    "the database to copy",
                );
                let tree = keys.required(inner(self.tree.take()), "tree", tree_why);
                let to = keys.required(
                    inner(self.to.take()),
                    "to",
                    "the path inside the tree, e.g. storage/development.sqlite3",
                );
                match (database, tree, to) {
                    (Some(database), Some(tree), Some(to)) => {
                        Some(Action::Stage { database, tree, to })
                    }
                    _ => None,
                }
            }
            StepKind::SignIn => {
                let email = keys.required(
                    inner(self.email.take()),
                    "email",
                    "the seed account to sign in as",
                );
                let password = keys.required(
                    inner(self.password.take()),
                    "password",
                    "the seed account's password",
                );
                let flow = inner(self.flow.take()).unwrap_or_default();
                email.zip(password).map(|(email, password)| Action::SignIn {
                    lanes: lanes.clone(),
                    email,
                    password,
                    flow,
                })
            }
            StepKind::Serve => {
                let repeat = inner(self.repeat.take()).unwrap_or(1);
                Some(Action::Serve {
                    lanes: lanes.clone(),
                    repeat,
                })
            }
            StepKind::Check | StepKind::Load | StepKind::Cable => {
                let workload = keys.required(
                    self.workload.take(),
                    "workload",
                    "the name of a [[workload]]",
                );
                workload.map(|workload| match kind {
                    StepKind::Check => Action::Check {
                        workload,
                        lanes: lanes.clone(),
                    },
                    StepKind::Load => Action::Load {
                        workload,
                        lanes: lanes.clone(),
                    },
                    _ => Action::Cable {
                        workload,
                        lanes: lanes.clone(),
                    },
                })
            }
        };
        let takes_lanes = matches!(
            kind,
            StepKind::SignIn | StepKind::Serve | StepKind::Check | StepKind::Load | StepKind::Cable
        );
        let mut leftovers = self.leftover_keys();
        if !takes_lanes && !lanes.is_empty() {
            leftovers.push(("lanes", lanes[0].span()));
        }
        for (key, span) in leftovers {
            keys.problems.push(Problem::new(
                span,
                format!("`{key}` does not apply to a `{}` step", kind.name()),
                Some(format!(
                    "the keys of a `{}` step: {}",
                    kind.name(),
                    keys_of(kind)
                )),
            ));
        }
        match action {
            Some(action) if keys.problems.is_empty() => Ok(Step {
                id: self.id,
                why: self.why,
                after: self.after,
                timeout: self.timeout,
                action,
            }),
            _ => Err(keys.problems),
        }
    }

    /// `manifest` and `digest`, the digest checked to be 64 hex digits.
    fn expected_tree(&mut self, keys: &mut Keys) -> ExpectedTree {
        let manifest = inner(self.manifest.take());
        let digest = self.digest.take().and_then(|d| {
            let text = d.get_ref().to_ascii_lowercase();
            if text.len() == 64 && text.chars().all(|c| c.is_ascii_hexdigit()) {
                Some(text)
            } else {
                keys.problems.push(Problem::new(
                    d.span(),
                    format!("`{}` is not a tree digest", d.get_ref()),
                    Some("64 hex digits: what `reprise digest DIR` prints".into()),
                ));
                None
            }
        });
        ExpectedTree { manifest, digest }
    }

    /// Keys still present after the kind took what it needs.
    fn leftover_keys(&self) -> Vec<(&'static str, Range<usize>)> {
        let mut out = Vec::new();
        let mut note = |key: &'static str, span: Option<Range<usize>>| {
            if let Some(span) = span {
                out.push((key, span));
            }
        };
        note("source", self.source.as_ref().map(Name::span));
        note("into", self.into.as_ref().map(Spanned::span));
        note("command", self.command.as_ref().map(Spanned::span));
        note("dir", self.dir.as_ref().map(Spanned::span));
        note("env", self.env.as_ref().map(Spanned::span));
        note("tree", self.tree.as_ref().map(Spanned::span));
        note("manifest", self.manifest.as_ref().map(Spanned::span));
        note("digest", self.digest.as_ref().map(Spanned::span));
        note("outputs", self.outputs.as_ref().map(Spanned::span));
        note("runtime", self.runtime.as_ref().map(Name::span));
        note("lockfile", self.lockfile.as_ref().map(Spanned::span));
        note("database", self.database.as_ref().map(Spanned::span));
        note("verify", self.verify.as_ref().map(Spanned::span));
        note("to", self.to.as_ref().map(Spanned::span));
        note("email", self.email.as_ref().map(Spanned::span));
        note("password", self.password.as_ref().map(Spanned::span));
        note("flow", self.flow.as_ref().map(Spanned::span));
        note("workload", self.workload.as_ref().map(Name::span));
        note("repeat", self.repeat.as_ref().map(Spanned::span));
        out
    }
}

/// The keys each kind takes besides `id`, `kind`, `why`, `after`, `timeout`.
fn keys_of(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Clone => "source, into",
        StepKind::Build => "command, dir, env, outputs",
        StepKind::Command => "command, dir, env, repeat",
        StepKind::Emit => "command, tree, dir, env, manifest, digest",
        StepKind::Digest => "tree, manifest, digest",
        StepKind::Bundle => "runtime, tree, lockfile, env",
        StepKind::Seed => "command, database, dir, env, verify",
        StepKind::Stage => "database, tree, to",
        StepKind::SignIn => "email, password, flow, lanes",
        StepKind::Serve => "lanes, repeat",
        StepKind::Check | StepKind::Load | StepKind::Cable => "workload, lanes",
    }
}
