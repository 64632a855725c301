//! Deviations: every way a run differs from the post it reproduces — a
//! source fetched from elsewhere, a toolchain at another version, a recipe
//! that is not the reviewed one, a smoke run, a lane left out. A verdict is
//! only as good as what it was measured on, so each verdict carries the
//! deviations that bear on its lanes ("reproduced, on ruby 3.1.2 instead of
//! 4.0.5").

use serde::{Deserialize, Serialize};

/// What kind of difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum DeviationKind {
    /// A source fetched from a mirror, fork or copy (the revision still holds).
    Source,
    /// A toolchain at another version than the post's.
    Toolchain,
    /// A recipe that is not the reviewed one: its steps, files (shims) or
    /// lanes may differ from the post's.
    Recipe,
    /// A smoke run: durations, warm-ups and runs capped.
    Quick,
    /// An entry of the reviewed recipe (a source, step, lane, …) replaced,
    /// added or left out by a substitutions file, saying why this machine
    /// needs it (`reprise run --substitutions`).
    Substituted,
    /// A lane the post measured that this run did not.
    Lane,
    /// A lane placed otherwise than the recipe places it: on the host or in
    /// containers (`--placement`), or in an image given with `--image`.
    Placement,
    /// A toolchain in a container lane's image at another version than
    /// the post's (asked inside the image).
    Image,
    /// The lanes served by another machine (`--server-host`), the load
    /// generators here: the post's servers and client shared one box.
    ServerHost,
    /// A process a step started moved itself out of the run's cgroup (and
    /// was ended): the step did more than its command says.
    Escape,
    /// A lane's server ran with another allocator than the one the post's
    /// harness preloaded (jemalloc missing here: the C library's malloc).
    Allocator,
    /// A lane's server ran another number of workers than it was given
    /// (it sized itself to the machine).
    Shape,
}

impl DeviationKind {
    /// Known before any step runs (from the run's options and the recipe),
    /// rather than found by a step.
    pub fn known_before_run(self) -> bool {
        matches!(
            self,
            DeviationKind::Source
                | DeviationKind::Recipe
                | DeviationKind::Substituted
                | DeviationKind::Quick
                | DeviationKind::ServerHost
                | DeviationKind::Placement
        )
    }
}

/// One way the run differs from the post.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Deviation {
    pub kind: DeviationKind,
    /// What differs, as a person reads it: `ruby 3.1.2 instead of 4.0.5`.
    pub what: String,
    /// The lanes it bears on; empty when it bears on the whole run.
    #[serde(default)]
    pub lanes: Vec<String>,
}

impl Deviation {
    pub fn new(kind: DeviationKind, what: impl Into<String>) -> Deviation {
        Deviation {
            kind,
            what: what.into(),
            lanes: Vec::new(),
        }
    }

    /// Whether it bears on a claim over these lanes.
    pub fn bears_on(&self, lanes: &[&str]) -> bool {
        self.lanes.is_empty() || self.lanes.iter().any(|l| lanes.contains(&l.as_str()))
    }
}
