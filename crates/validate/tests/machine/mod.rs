//! Shared by the tests: fixture fingerprints (the probe's fixture trees,
//! read by the real probe) and measured figures made to order.
#![allow(dead_code)]

#[path = "../../../probe/tests/fixture/mod.rs"]
pub mod fixture;

use std::path::PathBuf;

use reprise_probe::{ContainerEngine, Fingerprint};
use reprise_validate::ceiling::{CeilingRun, Split};
use reprise_validate::checks::DiskSpace;
use reprise_validate::stability::{Background, CoreRuns, TimerLag};
use reprise_validate::{Ceiling, Stability};

pub const GIB: u64 = 1024 * 1024 * 1024;

/// The posts' bare-metal Ryzen, as the probe reads its fixture tree, with a
/// container engine. The engine is a value: a real Docker is out of reach
/// in these tests (the probe's own tests talk to a real one).
pub fn read(tree: &fixture::Tree) -> Fingerprint {
    let mut fp = Fingerprint::read(tree.root());
    fp.container_engine = Some(ContainerEngine {
        host: "unix:///var/run/docker.sock".into(),
        name: Some("Docker Engine - Community".into()),
        version: Some("27.3.1".into()),
        ..ContainerEngine::default()
    });
    fp
}

pub fn roomy_disk() -> DiskSpace {
    DiskSpace {
        path: PathBuf::from("/var/lib/reprise"),
        free_bytes: 200 * GIB,
        total_bytes: 500 * GIB,
    }
}

/// Kernel runs on two CPUs around `ms`, each run `jitter` apart.
pub fn stability(ms: f64, jitter: f64, busy: f64, timer_p99: f64) -> Stability {
    let runs: Vec<f64> = (0..10)
        .map(|i| ms + if i % 2 == 0 { jitter } else { -jitter })
        .collect();
    let cv = reprise_verdict::coefficient_of_variation(&runs);
    let cores = vec![
        CoreRuns {
            cpu: 0,
            runs_ms: runs.clone(),
            median_ms: ms,
            cv,
        },
        CoreRuns {
            cpu: 1,
            runs_ms: runs,
            median_ms: ms,
            cv,
        },
    ];
    Stability {
        kernel: "SHA-256 over 16 MiB".into(),
        work_mib: 16,
        pinned: true,
        cores,
        median_ms: ms,
        run_cv: cv,
        core_cv: 0.0,
        background: Background {
            busy_percent: Some(busy),
            loadavg: Some([0.1, 0.1, 0.1]),
            window_s: 1.0,
        },
        timer: TimerLag {
            sleeps: 200,
            requested_ms: 1.0,
            p50_ms: 0.06,
            p99_ms: timer_p99,
            max_ms: timer_p99 * 2.0,
        },
    }
}

pub fn quiet_stability() -> Stability {
    stability(14.0, 0.1, 0.5, 0.09)
}

/// A ceiling from the runs' rates (`None` = a run with errors).
pub fn ceiling(rates: &[Option<f64>], pinned: bool) -> Ceiling {
    let runs: Vec<CeilingRun> = rates
        .iter()
        .map(|r| CeilingRun {
            req_per_s: *r,
            requests: r.map_or(0, |r| (r * 3.0) as u64),
            errors: if r.is_some() { 0 } else { 12 },
            p50_ms: r.map(|_| 0.2),
            p99_ms: r.map(|_| 0.5),
        })
        .collect();
    let values: Vec<f64> = rates.iter().flatten().copied().collect();
    let some = !values.is_empty();
    Ceiling {
        split: if pinned {
            Split::of(&[0, 1])
        } else {
            Split::of(&[0])
        },
        connections: 16,
        duration_s: 3.0,
        body_bytes: 13,
        runs,
        median_req_per_s: some.then(|| reprise_verdict::median(&values)),
        min_req_per_s: values.iter().copied().reduce(f64::min),
        max_req_per_s: values.iter().copied().reduce(f64::max),
        cv: some.then(|| reprise_verdict::coefficient_of_variation(&values)),
    }
}

pub fn steady_ceiling() -> Ceiling {
    ceiling(&[Some(72_000.0), Some(72_500.0), Some(71_800.0)], true)
}
