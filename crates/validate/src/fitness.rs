//! The verdict: stability and ceiling figures read as checks, every check
//! folded into `ready`, `usable with caveats` or `not suitable`.

use reprise_recipe::reading::number;
use serde::{Deserialize, Serialize};

use crate::ceiling::Ceiling;
use crate::checks::{Check, Level};
use crate::stability::Stability;

/// Whether the machine is fit to benchmark on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Fitness {
    Ready,
    UsableWithCaveats,
    NotSuitable,
}

impl Fitness {
    pub fn word(self) -> &'static str {
        match self {
            Fitness::Ready => "ready",
            Fitness::UsableWithCaveats => "usable with caveats",
            Fitness::NotSuitable => "not suitable",
        }
    }
}

/// The worst level decides: any failure makes the machine not suitable, any
/// warning a caveat.
pub fn decide(checks: &[Check]) -> Fitness {
    match checks.iter().map(|c| c.level).max() {
        Some(Level::Fail) => Fitness::NotSuitable,
        Some(Level::Warn) => Fitness::UsableWithCaveats,
        _ => Fitness::Ready,
    }
}

/// Run-to-run spread of the kernel on one CPU: above this a warning, above
/// the second a failure (the verdicts flag cells varying more than 10%).
pub const KERNEL_RUN_CV: (f64, f64) = (0.03, 0.10);
/// Spread between CPUs' medians: above this a warning.
pub const KERNEL_CORE_CV: f64 = 0.05;
/// Other work during the stability runs, percent of the allowed CPUs.
pub const BACKGROUND_PERCENT: (f64, f64) = (5.0, 25.0);
/// Timer lag p99, ms (post 004's generator: around one millisecond).
pub const TIMER_P99_MS: (f64, f64) = (2.0, 10.0);
/// Spread of the ceiling's runs.
pub const CEILING_CV: (f64, f64) = (0.05, 0.15);
/// A ceiling under this share of the baseline's low end is a caveat.
pub const CEILING_BASELINE_SHARE: f64 = 0.5;

fn level(value: f64, (warn, fail): (f64, f64)) -> Level {
    if value > fail {
        Level::Fail
    } else if value > warn {
        Level::Warn
    } else {
        Level::Ok
    }
}

/// The stability figures as checks.
pub fn stability_checks(s: &Stability) -> Vec<Check> {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    let worst = s
        .cores
        .iter()
        .max_by(|a, b| a.cv.total_cmp(&b.cv))
        .map_or(0, |c| c.cpu);
    let mut checks = vec![
        Check::new(
            "kernel_runs",
            level(s.run_cv, KERNEL_RUN_CV),
            format!(
                "{} runs vary by {} (CV, worst CPU {worst}); median {:.2} ms",
                s.kernel,
                pct(s.run_cv),
                s.median_ms
            ),
        )
        .explained(
            "the same fixed work takes a different time from run to run: something else takes the CPU or moves its clock, and every figure measured here carries that noise",
            "stop other work, set the governor to performance, turn boost off, and run again",
        ),
        Check::new(
            "kernel_cores",
            level(s.core_cv, (KERNEL_CORE_CV, f64::INFINITY)),
            format!(
                "CPUs differ by {} (CV of {} CPUs' medians)",
                pct(s.core_cv),
                s.cores.len()
            ),
        )
        .explained(
            "some CPUs are slower than others (efficiency cores, a busy neighbour, thermal limits): pin the server and the client to alike CPUs",
            "use `--cpus` / taskset to keep runs on CPUs of one kind",
        ),
    ];
    if let Some(busy) = s.background.busy_percent {
        let load = s
            .background
            .loadavg
            .map_or(String::new(), |l| format!(", load average {:.2}", l[0]));
        checks.push(
            Check::new(
                "background_load",
                level(busy, BACKGROUND_PERCENT),
                format!("{busy:.1}% of the allowed CPUs busy with other work during the runs{load}"),
            )
            .explained(
                "other processes ran while the kernel did; they will run during a benchmark too and take its CPU",
                "find them with `top` or `ps -eo pcpu,comm --sort=-pcpu | head`, stop them, and run again",
            ),
        );
    }
    let t = &s.timer;
    checks.push(
        Check::new(
            "timer_lag",
            level(t.p99_ms, TIMER_P99_MS),
            format!(
                "a {:.0} ms sleep wakes {:.3} ms late (p50), {:.3} ms (p99), over {} sleeps",
                t.requested_ms, t.p50_ms, t.p99_ms, t.sleeps
            ),
        )
        .explained(
            "a late timer delays an open-loop generator's sends and a server's timeouts; post 004's generator ran with about 1 ms",
            "stop other work; on a VM, ask for dedicated vCPUs",
        ),
    );
    checks
}

/// The ceiling as checks; `baseline` is the low end of the 2-core baseline
/// (req/s), for information and a caveat when far below it.
pub fn ceiling_checks(c: &Ceiling, baseline: Option<[f64; 2]>) -> Vec<Check> {
    let Some(median) = c.median_req_per_s else {
        let errors: u64 = c.runs.iter().map(|r| r.errors).sum();
        return vec![Check::new(
            "ceiling",
            Level::Fail,
            format!("no run of the reference server had data ({errors} failed requests)"),
        )
        .why("the machine could not serve a 13-byte answer on loopback without errors; no load test here can be read")
        .fix("check the loopback interface, the open-file limit (ulimit -n) and memory, then run again")];
    };
    let with_data = c.runs_with_data();
    let mut found = format!(
        "{} req/s median over {with_data} of {} runs (min {}, max {}, {}); {}",
        number(median),
        c.runs.len(),
        number(c.min_req_per_s.unwrap_or(median)),
        number(c.max_req_per_s.unwrap_or(median)),
        c.spread_words(),
        c.split.describe()
    );
    if let Some([low, high]) = baseline {
        found.push_str(&format!(
            "; {:.2}× the 2-core baseline ({}–{} req/s)",
            median / low,
            number(low),
            number(high)
        ));
    }
    let mut checks = Vec::new();
    let mut spread_level = c.spread().map_or(Level::Ok, |cv| level(cv, CEILING_CV));
    if with_data < c.runs.len() {
        spread_level = spread_level.max(Level::Warn);
    }
    checks.push(Check::new("ceiling", spread_level, found).explained(
        "the same trivial load gives different rates from run to run (or failed in some runs): every ceiling measured here carries that spread",
        "stop other work and run again; more runs narrow the median",
    ));
    if !c.split.pinned {
        checks.push(
            Check::new(
                "ceiling_split",
                Level::Warn,
                "the ceiling ran unpinned on one CPU",
            )
            .why("server and client shared the CPU, so the ceiling measures both")
            .fix("run on at least 2 CPUs"),
        );
    }
    if let Some([low, _]) = baseline
        && median < low * CEILING_BASELINE_SHARE
    {
        checks.push(
            Check::new(
                "ceiling_baseline",
                Level::Warn,
                format!("ceiling {:.2}× the 2-core baseline's low end", median / low),
            )
            .why("a box this far below a quiet 2-core machine will put every recipe's absolute figures far below the posts'; ratios still hold")
            .fix("read ratios, not absolute figures, on this machine"),
        );
    }
    checks
}
