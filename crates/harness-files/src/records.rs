//! `coldstart.json`, `skipped.json` and `shapes.json`: an array of boots, an
//! array of lanes that did not run or stopped, with why and their log's tail,
//! and what each lane's server was given and ran.

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

/// What one lane's server was given and what it ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeSeen {
    pub lane: String,
    /// The CPUs it was placed on (every CPU the run may use, unpinned).
    pub cpus: usize,
    /// The workers and threads it was given (`WEB_CONCURRENCY`,
    /// `RAILS_MAX_THREADS`), where the recipe says.
    pub workers_asked: Option<u32>,
    pub threads_asked: Option<u32>,
    /// The CPUs its first process may run on (`Cpus_allowed_list`): what a
    /// server that sizes itself to the machine counts.
    pub cpus_seen: Option<usize>,
    /// The processes serving its port: those holding a listening socket of
    /// the server's that did not hand it on to a child (a forking server's
    /// master holds its workers' socket too), on the port most hold.
    /// `None` where its processes are not read from here (a lane on a
    /// server host) or hold no listening socket this machine sees.
    pub workers_seen: Option<u32>,
}

impl ShapeSeen {
    /// Whether it ran the workers it was given.
    pub fn as_asked(&self) -> bool {
        match (self.workers_asked, self.workers_seen) {
            (Some(asked), Some(seen)) => asked == seen,
            _ => true,
        }
    }
}

impl std::fmt::Display for ShapeSeen {
    /// `lane ruby ran 2 workers on 2 CPUs`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: usize, one: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {one}s")
            }
        };
        let cpus = plural(self.cpus_seen.unwrap_or(self.cpus), "CPU");
        match (self.workers_seen, self.workers_asked) {
            (Some(seen), Some(asked)) if seen != asked => write!(
                f,
                "lane {} ran {} on {cpus}, where it was given {asked} (WEB_CONCURRENCY): the server chose its own count",
                self.lane,
                plural(seen as usize, "worker")
            ),
            (Some(seen), _) => write!(
                f,
                "lane {} ran {} on {cpus}",
                self.lane,
                plural(seen as usize, "worker")
            ),
            (None, _) => write!(
                f,
                "lane {} placed on {cpus}; its processes were not read from here",
                self.lane
            ),
        }
    }
}
