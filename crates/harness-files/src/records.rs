//! `coldstart.json` and `skipped.json`: an array of boots, and an array of
//! lanes that did not run or stopped, with why and their log's tail.

use serde::{Deserialize, Serialize};

/// One entry of `skipped.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkippedLane {
    pub target: String,
    /// Where it stopped: `preflight`, `boot`, `sign_in`, `check`, `load`, …
    pub stage: String,
    pub reason: String,
    pub log_tail: String,
}

/// One entry of `coldstart.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColdStart {
    pub target: String,
    pub rep: u32,
    pub accept_ms: f64,
    pub page_ms: f64,
    pub page_code: u16,
}
