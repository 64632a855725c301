//! A validation of this machine as both front ends show it: the verdict,
//! its one line, every check with why and its fix, and the loopback
//! ceiling's one line (`74,210 req/s median over 3 runs, spread 1.2%`, or
//! that one run has no spread to read), which `reprise validate` prints too.

use reprise_validate::{Check, Fitness, Profile};
use serde::Serialize;
use ts_rs::TS;

use crate::HistoryOutcome;

/// A validation of this machine, as `reprise validate` prints it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Validation {
    /// `quick` or `full`.
    pub mode: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    pub fitness: Fitness,
    /// The one line a person pastes.
    pub summary: String,
    pub checks: Vec<Check>,
    /// The loopback ceiling ([`reprise_validate::Ceiling::reading`]).
    pub ceiling: String,
    /// Which CPUs served and which loaded.
    pub ceiling_split: String,
    /// Saved in the history (as `reprise validate` saves it), or why not.
    pub history: HistoryOutcome,
}

impl Validation {
    pub fn of(profile: Profile, history: Option<HistoryOutcome>) -> Validation {
        Validation {
            ceiling: profile.ceiling.reading(),
            ceiling_split: profile.ceiling.split.describe(),
            mode: profile.mode,
            created_at: profile.created_at,
            fitness: profile.fitness,
            summary: profile.summary,
            checks: profile.checks,
            history: history.unwrap_or(HistoryOutcome::NothingToStore),
        }
    }
}
