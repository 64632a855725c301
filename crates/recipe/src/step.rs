//! Typed steps: each kind is one struct that takes exactly the keys it
//! needs ([`Keys`] records which it asked for), and a key that does not
//! apply to a kind is an error at the key, not silently ignored. A new kind
//! is its struct here, with its `take`, and its file in the engine's
//! `run/steps/`.

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

/// What a step does: one struct per kind.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    Clone(CloneStep),
    Build(BuildStep),
    Emit(EmitStep),
    Digest(DigestStep),
    Bundle(BundleStep),
    Seed(SeedStep),
    Stage(StageStep),
    SignIn(SignInStep),
    Serve(ServeStep),
    Check(CheckStep),
    Load(LoadStep),
    Cable(CableStep),
    Command(CommandStep),
}

/// Check out a source at its pinned revision into `sources/<into>`.
#[derive(Clone, Debug, Serialize)]
pub struct CloneStep {
    pub source: Name,
    pub into: String,
}

/// Build something from a checkout.
#[derive(Clone, Debug, Serialize)]
pub struct BuildStep {
    pub command: Vec<String>,
    pub dir: Option<String>,
    pub env: BTreeMap<String, String>,
    /// The files the build makes, relative to `dir`: the step is kept
    /// from an earlier attempt only while they are there, unchanged.
    pub outputs: Vec<String>,
}

/// Run an emitter that writes a tree, then digest the tree.
#[derive(Clone, Debug, Serialize)]
pub struct EmitStep {
    pub command: Vec<String>,
    pub dir: Option<String>,
    pub env: BTreeMap<String, String>,
    pub tree: String,
    pub expected: ExpectedTree,
}

/// Digest a tree and compare it with what the recipe expects.
#[derive(Clone, Debug, Serialize)]
pub struct DigestStep {
    pub tree: String,
    pub expected: ExpectedTree,
}

/// `bundle install` for one runtime into its own lockfile.
#[derive(Clone, Debug, Serialize)]
pub struct BundleStep {
    pub runtime: Name,
    pub tree: String,
    pub lockfile: String,
    pub env: BTreeMap<String, String>,
}

/// Make the seed database and check its row counts.
#[derive(Clone, Debug, Serialize)]
pub struct SeedStep {
    pub command: Vec<String>,
    pub dir: Option<String>,
    pub env: BTreeMap<String, String>,
    pub database: String,
    pub verify: BTreeMap<String, u64>,
}

/// Copy a database into a tree (SQLite's backup API: safe with WAL).
#[derive(Clone, Debug, Serialize)]
pub struct StageStep {
    pub database: String,
    pub tree: String,
    pub to: String,
}

/// Sign in and keep the session cookie for the load steps.
#[derive(Clone, Debug, Serialize)]
pub struct SignInStep {
    pub lanes: Vec<Name>,
    pub email: String,
    pub password: String,
    pub flow: SignInFlow,
}

/// Boot each lane, wait for it to be ready, record boot times.
#[derive(Clone, Debug, Serialize)]
pub struct ServeStep {
    pub lanes: Vec<Name>,
    pub repeat: u32,
}

/// One request per endpoint per lane: status, tags, bytes, SHA-256.
#[derive(Clone, Debug, Serialize)]
pub struct CheckStep {
    pub workload: Name,
    pub lanes: Vec<Name>,
}

/// The measurement matrix: lanes × endpoints × runs.
#[derive(Clone, Debug, Serialize)]
pub struct LoadStep {
    pub workload: Name,
    pub lanes: Vec<Name>,
}

/// WebSocket (Action Cable) load.
#[derive(Clone, Debug, Serialize)]
pub struct CableStep {
    pub workload: Name,
    pub lanes: Vec<Name>,
}

/// Anything else: a plain command, run `repeat` times (each run's printed
/// figures kept as a run of the cells it measures).
#[derive(Clone, Debug, Serialize)]
pub struct CommandStep {
    pub command: Vec<String>,
    pub dir: Option<String>,
    pub env: BTreeMap<String, String>,
    pub repeat: u32,
}

impl Action {
    pub fn kind(&self) -> StepKind {
        match self {
            Action::Clone(_) => StepKind::Clone,
            Action::Build(_) => StepKind::Build,
            Action::Emit(_) => StepKind::Emit,
            Action::Digest(_) => StepKind::Digest,
            Action::Bundle(_) => StepKind::Bundle,
            Action::Seed(_) => StepKind::Seed,
            Action::Stage(_) => StepKind::Stage,
            Action::SignIn(_) => StepKind::SignIn,
            Action::Serve(_) => StepKind::Serve,
            Action::Check(_) => StepKind::Check,
            Action::Load(_) => StepKind::Load,
            Action::Cable(_) => StepKind::Cable,
            Action::Command(_) => StepKind::Command,
        }
    }

    /// The lanes a per-lane step names (empty: every runnable lane).
    pub fn lanes(&self) -> &[Name] {
        match self {
            Action::SignIn(s) => &s.lanes,
            Action::Serve(s) => &s.lanes,
            Action::Check(s) => &s.lanes,
            Action::Load(s) => &s.lanes,
            Action::Cable(s) => &s.lanes,
            _ => &[],
        }
    }

    /// The command a step runs, for steps that run one: its argument
    /// vector, its folder in the run's, and the variables it sets.
    pub fn command(&self) -> Option<StepCommand<'_>> {
        let (argv, dir, env) = match self {
            Action::Build(s) => (&s.command, &s.dir, &s.env),
            Action::Emit(s) => (&s.command, &s.dir, &s.env),
            Action::Seed(s) => (&s.command, &s.dir, &s.env),
            Action::Command(s) => (&s.command, &s.dir, &s.env),
            _ => return None,
        };
        Some(StepCommand {
            argv,
            dir: dir.as_deref(),
            env,
        })
    }

    /// The variables a step sets: its command's, or a bundle's.
    pub fn env(&self) -> Option<&BTreeMap<String, String>> {
        match self {
            Action::Bundle(s) => Some(&s.env),
            _ => self.command().map(|c| c.env),
        }
    }

    /// The workload a check, load or cable step sends.
    pub fn workload(&self) -> Option<&Name> {
        match self {
            Action::Check(s) => Some(&s.workload),
            Action::Load(s) => Some(&s.workload),
            Action::Cable(s) => Some(&s.workload),
            _ => None,
        }
    }

    /// The tree an emit or digest step makes or checks, and what it expects.
    pub fn tree(&self) -> Option<(&str, &ExpectedTree)> {
        match self {
            Action::Emit(s) => Some((&s.tree, &s.expected)),
            Action::Digest(s) => Some((&s.tree, &s.expected)),
            _ => None,
        }
    }
}

/// A step's command as written.
#[derive(Clone, Copy, Debug)]
pub struct StepCommand<'a> {
    pub argv: &'a [String],
    pub dir: Option<&'a str>,
    pub env: &'a BTreeMap<String, String>,
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

/// Where a key was written in the recipe.
trait Located {
    fn at(&self) -> Range<usize>;
}

impl Located for Name {
    fn at(&self) -> Range<usize> {
        self.span()
    }
}

impl<T> Located for Spanned<T> {
    fn at(&self) -> Range<usize> {
        self.span()
    }
}

/// `RawStep`, a step as written, with every kind's keys optional: each key
/// is declared here once, and the kinds take theirs from it.
macro_rules! raw_step {
    ($($key:ident: $ty:ty,)*) => {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct RawStep {
            id: Name,
            kind: Spanned<StepKind>,
            why: String,
            #[serde(default)]
            after: Vec<Name>,
            timeout: Option<Span>,
            $($key: Option<$ty>,)*
        }

        impl RawStep {
            /// Keys still present after the kind took what it needs.
            fn leftover_keys(&self) -> Vec<(&'static str, Range<usize>)> {
                let mut out = Vec::new();
                $(if let Some(value) = &self.$key {
                    out.push((stringify!($key), value.at()));
                })*
                out
            }
        }
    };
}

raw_step! {
    lanes: Spanned<Vec<Name>>,
    source: Name,
    into: Spanned<String>,
    command: Spanned<Vec<String>>,
    dir: Spanned<String>,
    env: Spanned<BTreeMap<String, String>>,
    tree: Spanned<String>,
    manifest: Spanned<String>,
    digest: Spanned<String>,
    outputs: Spanned<Vec<String>>,
    runtime: Name,
    lockfile: Spanned<String>,
    database: Spanned<String>,
    verify: Spanned<BTreeMap<String, u64>>,
    to: Spanned<String>,
    email: Spanned<String>,
    password: Spanned<String>,
    flow: Spanned<SignInFlow>,
    workload: Name,
    repeat: Spanned<u32>,
}

/// A value as written, without where.
trait Written {
    type Value;
    fn value(self) -> Self::Value;
}

impl Written for Name {
    type Value = Name;
    fn value(self) -> Name {
        self
    }
}

impl<T> Written for Spanned<T> {
    type Value = T;
    fn value(self) -> T {
        self.into_inner()
    }
}

/// A kind taking its keys from a raw step: what it needs is said at the
/// kind when missing, and the keys it asked for are the kind's keys, listed
/// when another is written.
struct Keys {
    kind: StepKind,
    kind_span: Range<usize>,
    asked: Vec<&'static str>,
    problems: Vec<Problem>,
}

impl Keys {
    fn optional<W: Written>(&mut self, value: Option<W>, key: &'static str) -> Option<W::Value> {
        self.asked.push(key);
        value.map(Written::value)
    }

    fn required<W: Written>(
        &mut self,
        value: Option<W>,
        key: &'static str,
        why: &str,
    ) -> Option<W::Value> {
        let value = self.optional(value, key);
        if value.is_none() {
            self.problems.push(Problem::new(
                self.kind_span.clone(),
                format!("a `{}` step needs `{key}`", self.kind.name()),
                Some(why.to_string()),
            ));
        }
        value
    }

    fn command(&mut self, raw: &mut RawStep) -> Option<Vec<String>> {
        self.required(
            raw.command.take(),
            "command",
            "the argument vector to run, e.g. [\"ruby\", \"bench.rb\"]",
        )
    }

    fn tree(&mut self, raw: &mut RawStep) -> Option<String> {
        self.required(
            raw.tree.take(),
            "tree",
            "the tree's directory under the run's trees/",
        )
    }

    fn dir(&mut self, raw: &mut RawStep) -> Option<String> {
        self.optional(raw.dir.take(), "dir")
    }

    fn env(&mut self, raw: &mut RawStep) -> BTreeMap<String, String> {
        self.optional(raw.env.take(), "env").unwrap_or_default()
    }

    fn lanes(&mut self, raw: &mut RawStep) -> Vec<Name> {
        self.optional(raw.lanes.take(), "lanes").unwrap_or_default()
    }

    /// What a check, load or cable step measures: its workload (needed)
    /// and its lanes.
    fn workload_and_lanes(&mut self, raw: &mut RawStep) -> Option<(Name, Vec<Name>)> {
        let workload = self.required(
            raw.workload.take(),
            "workload",
            "the name of a [[workload]]",
        );
        let lanes = self.lanes(raw);
        Some((workload?, lanes))
    }

    /// `manifest` and `digest`, the digest checked to be 64 hex digits.
    fn expected_tree(&mut self, raw: &mut RawStep) -> ExpectedTree {
        let manifest = self.optional(raw.manifest.take(), "manifest");
        self.asked.push("digest");
        let digest = raw.digest.take().and_then(|d| {
            let text = d.get_ref().to_ascii_lowercase();
            if text.len() == 64 && text.chars().all(|c| c.is_ascii_hexdigit()) {
                Some(text)
            } else {
                self.problems.push(Problem::new(
                    d.span(),
                    format!("`{}` is not a tree digest", d.get_ref()),
                    Some("64 hex digits: what `reprise digest DIR` prints".into()),
                ));
                None
            }
        });
        ExpectedTree { manifest, digest }
    }
}

impl CloneStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let source = keys.required(raw.source.take(), "source", "the id of a [[source]]");
        let into = keys.optional(raw.into.take(), "into");
        source.map(|source| CloneStep {
            into: into.unwrap_or_else(|| source.to_string()),
            source,
        })
    }
}

impl BuildStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let command = keys.command(raw);
        let dir = keys.dir(raw);
        let env = keys.env(raw);
        let outputs = keys
            .optional(raw.outputs.take(), "outputs")
            .unwrap_or_default();
        Some(BuildStep {
            command: command?,
            dir,
            env,
            outputs,
        })
    }
}

impl CommandStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let command = keys.command(raw);
        let dir = keys.dir(raw);
        let env = keys.env(raw);
        let repeat = keys.optional(raw.repeat.take(), "repeat").unwrap_or(1);
        Some(CommandStep {
            command: command?,
            dir,
            env,
            repeat,
        })
    }
}

impl EmitStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let command = keys.command(raw);
        let tree = keys.tree(raw);
        let dir = keys.dir(raw);
        let env = keys.env(raw);
        let expected = keys.expected_tree(raw);
        Some(EmitStep {
            command: command?,
            dir,
            env,
            tree: tree?,
            expected,
        })
    }
}

impl DigestStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let tree = keys.tree(raw);
        let expected = keys.expected_tree(raw);
        Some(DigestStep {
            tree: tree?,
            expected,
        })
    }
}

impl BundleStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let runtime = keys.required(
            raw.runtime.take(),
            "runtime",
            "the [[toolchain]] that runs `bundle install`",
        );
        let tree = keys.tree(raw);
        let lockfile = keys.required(
            raw.lockfile.take(),
            "lockfile",
            "the runtime's own lockfile, so the main Gemfile.lock is never modified",
        );
        let env = keys.env(raw);
        Some(BundleStep {
            runtime: runtime?,
            tree: tree?,
            lockfile: lockfile?,
            env,
        })
    }
}

impl SeedStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let command = keys.command(raw);
        let database = keys.required(
            raw.database.take(),
            "database",
            "the SQLite file the seed writes",
        );
        let dir = keys.dir(raw);
        let env = keys.env(raw);
        let verify = keys
            .optional(raw.verify.take(), "verify")
            .unwrap_or_default();
        Some(SeedStep {
            command: command?,
            dir,
            env,
            database: database?,
            verify,
        })
    }
}

impl StageStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let database = keys.required(raw.database.take(), "database", "the database to copy");
        let tree = keys.tree(raw);
        let to = keys.required(
            raw.to.take(),
            "to",
            "the path inside the tree, e.g. storage/development.sqlite3",
        );
        Some(StageStep {
            database: database?,
            tree: tree?,
            to: to?,
        })
    }
}

impl SignInStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let email = keys.required(raw.email.take(), "email", "the seed account to sign in as");
        let password = keys.required(
            raw.password.take(),
            "password",
            "the seed account's password",
        );
        let flow = keys.optional(raw.flow.take(), "flow").unwrap_or_default();
        let lanes = keys.lanes(raw);
        Some(SignInStep {
            lanes,
            email: email?,
            password: password?,
            flow,
        })
    }
}

impl ServeStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let lanes = keys.lanes(raw);
        let repeat = keys.optional(raw.repeat.take(), "repeat").unwrap_or(1);
        Some(ServeStep { lanes, repeat })
    }
}

impl CheckStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let (workload, lanes) = keys.workload_and_lanes(raw)?;
        Some(CheckStep { workload, lanes })
    }
}

impl LoadStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let (workload, lanes) = keys.workload_and_lanes(raw)?;
        Some(LoadStep { workload, lanes })
    }
}

impl CableStep {
    fn take(raw: &mut RawStep, keys: &mut Keys) -> Option<Self> {
        let (workload, lanes) = keys.workload_and_lanes(raw)?;
        Some(CableStep { workload, lanes })
    }
}

impl RawStep {
    pub(crate) fn into_step(mut self) -> Result<Step, Vec<Problem>> {
        let kind = *self.kind.get_ref();
        let mut keys = Keys {
            kind,
            kind_span: self.kind.span(),
            asked: Vec::new(),
            problems: Vec::new(),
        };
        let raw = &mut self;
        let k = &mut keys;
        let action = match kind {
            StepKind::Clone => CloneStep::take(raw, k).map(Action::Clone),
            StepKind::Build => BuildStep::take(raw, k).map(Action::Build),
            StepKind::Emit => EmitStep::take(raw, k).map(Action::Emit),
            StepKind::Digest => DigestStep::take(raw, k).map(Action::Digest),
            StepKind::Bundle => BundleStep::take(raw, k).map(Action::Bundle),
            StepKind::Seed => SeedStep::take(raw, k).map(Action::Seed),
            StepKind::Stage => StageStep::take(raw, k).map(Action::Stage),
            StepKind::SignIn => SignInStep::take(raw, k).map(Action::SignIn),
            StepKind::Serve => ServeStep::take(raw, k).map(Action::Serve),
            StepKind::Check => CheckStep::take(raw, k).map(Action::Check),
            StepKind::Load => LoadStep::take(raw, k).map(Action::Load),
            StepKind::Cable => CableStep::take(raw, k).map(Action::Cable),
            StepKind::Command => CommandStep::take(raw, k).map(Action::Command),
        };
        for (key, span) in self.leftover_keys() {
            keys.problems.push(Problem::new(
                span,
                format!("`{key}` does not apply to a `{}` step", kind.name()),
                Some(format!(
                    "the keys of a `{}` step: {}",
                    kind.name(),
                    keys.asked.join(", ")
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
}
