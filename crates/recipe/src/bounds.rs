//! Numbers a run acts on, each in a range that makes sense: finite, counts
//! at least one and not absurd, ports that are ports, durations longer than
//! nothing and shorter than a day. Each is reported at its own value with the
//! range expected, before a run can trip over it (a NaN rate, `rooms = 0`).
//! The entries of each kind are bounded too, so no check of a hostile file
//! compares thousands of names with thousands.

use std::fmt::Display;
use std::ops::{Range, RangeInclusive};
use std::time::Duration;

use crate::claim::ClaimShape;
use crate::count::Count;
use crate::diagnostic::Problem;
use crate::duration::Span;
use crate::model::Recipe;
use crate::spans::{Spans, at};
use crate::step::Action;

/// The longest duration a recipe may ask for: a step, a warm-up, a run.
pub(crate) const DURATION_MAX: Duration = Duration::from_secs(24 * 3600);

/// The most entries of each kind a recipe may have: ten times what the
/// largest recipe has, and few enough that checks comparing every entry with
/// every other stay quick on any file.
const MOST: [(&str, usize); 9] = [
    ("source", 64),
    ("toolchain", 64),
    ("step", 256),
    ("lane", 256),
    ("workload", 64),
    ("figure", 1000),
    ("claim", 1000),
    ("file", 256),
    ("service", 16),
];

/// The most endpoints a workload may have.
const MOST_ENDPOINTS: usize = 256;

/// Whether the recipe has no more entries of each kind than [`MOST`] allows.
pub(crate) fn within_counts(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) -> bool {
    let counts = [
        recipe.sources.len(),
        recipe.toolchains.len(),
        recipe.steps.len(),
        recipe.lanes.len(),
        recipe.workloads.len(),
        recipe.figures.len(),
        recipe.claims.len(),
        recipe.files.len(),
        recipe.services.len(),
    ];
    for ((kind, most), count) in MOST.into_iter().zip(counts) {
        if count > most {
            p.push(Problem::new(
                at!(spans, kind, most).unwrap_or(0..0),
                format!("the recipe has {count} [[{kind}]] entries"),
                Some(format!("at most {most}")),
            ));
        }
    }
    for (i, w) in recipe.workloads.iter().enumerate() {
        if w.endpoints.len() > MOST_ENDPOINTS {
            p.push(Problem::new(
                at!(spans, "workload", i, "endpoint", MOST_ENDPOINTS)
                    .unwrap_or_else(|| w.name.span()),
                format!("workload `{}` has {} endpoints", w.name, w.endpoints.len()),
                Some(format!("at most {MOST_ENDPOINTS}")),
            ));
        }
    }
    p.is_empty()
}

pub(crate) fn check(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let mut b = Bounds { p };
    if let Some(m) = &recipe.machine {
        let fallback = 0..0;
        for (key, value, max) in [
            ("cores", m.cores, 100_000),
            ("threads", m.threads, 100_000),
            ("base_mhz", m.base_mhz, 100_000),
            ("memory_gb", m.memory_gb, 1_000_000),
        ] {
            if let Some(v) = value {
                let span = at!(spans, "machine", key).unwrap_or(fallback.clone());
                b.count(v.into(), 1..=max, span, format!("`{key}`"));
            }
        }
    }
    for (i, lane) in recipe.lanes.iter().enumerate() {
        let at = |key: &str| at!(spans, "lane", i, key).unwrap_or_else(|| lane.name.span());
        for (key, value, max) in [
            ("workers", lane.workers, 1024),
            ("threads", lane.threads, 4096),
        ] {
            match value {
                Some(Count::Fixed(v)) => b.count(v.into(), 1..=max, at(key), format!("`{key}`")),
                Some(Count::PerCpu { per_cpu }) => b.share_of_cpus(per_cpu, at(key), key),
                None => {}
            }
        }
        if let Some(v) = lane.heap_mb {
            b.count(v.into(), 1..=1_048_576, at("heap_mb"), "`heap_mb`");
        }
        if let Some(v) = lane.port {
            b.count(v.into(), 1..=65535, at("port"), "`port`");
        }
        if let Some(v) = lane.warmup {
            b.duration(v, true, at("warmup"), "`warmup`");
        }
        if let Some(v) = lane.boot_budget {
            b.duration(v, false, at("boot_budget"), "`boot_budget`");
        }
    }
    for (i, service) in recipe.services.iter().enumerate() {
        let at = |key: &str| at!(spans, "service", i, key).unwrap_or_else(|| service.name.span());
        b.count(service.port.into(), 1..=65535, at("port"), "`port`");
        if let Some(v) = service.boot_budget {
            b.duration(v, false, at("boot_budget"), "`boot_budget`");
        }
    }
    for (i, step) in recipe.steps.iter().enumerate() {
        let at = |key: &str| at!(spans, "step", i, key).unwrap_or_else(|| step.id.span());
        if let Some(v) = step.timeout {
            b.duration(v, false, at("timeout"), "`timeout`");
        }
        let repeat = match &step.action {
            Action::Serve(serve) => Some(serve.repeat),
            Action::Command(command) => Some(command.repeat),
            _ => None,
        };
        if let Some(repeat) = repeat {
            b.count(repeat.into(), 1..=100, at("repeat"), "`repeat`");
        }
    }
    for (i, w) in recipe.workloads.iter().enumerate() {
        let at = |key: &str| at!(spans, "workload", i, key).unwrap_or_else(|| w.name.span());
        b.count(
            w.connections.into(),
            1..=100_000,
            at("connections"),
            "`connections`",
        );
        b.count(w.threads.into(), 1..=1024, at("threads"), "`threads`");
        if w.threads > w.connections && w.connections > 0 {
            b.p.push(Problem::new(
                at("threads"),
                format!(
                    "workload `{}` has more threads ({}) than connections ({})",
                    w.name, w.threads, w.connections
                ),
                Some(format!(
                    "at most {} threads, one connection each at least",
                    w.connections
                )),
            ));
        }
        b.count(w.runs.into(), 1..=100, at("runs"), "`runs`");
        b.duration(w.duration, false, at("duration"), "`duration`");
        if let Some(v) = w.warmup {
            b.duration(v, true, at("warmup"), "`warmup`");
        }
        if let Some(rate) = w.rate {
            b.real(
                rate,
                (0.0, false),
                10_000_000.0,
                at("rate"),
                "`rate` (requests a second)",
            );
        }
        for (j, e) in w.endpoints.iter().enumerate() {
            if let Some(status) = e.expect.status {
                let span = at!(spans, "workload", i, "endpoint", j, "expect", "status")
                    .unwrap_or_else(|| e.name.span());
                b.count(status.into(), 100..=599, span, "the expected status");
            }
        }
        if let Some(people) = &w.people {
            let at = |key: &str| {
                at!(spans, "workload", i, "people", key).unwrap_or_else(|| w.name.span())
            };
            b.count(
                people.accounts.into(),
                1..=100_000,
                at("accounts"),
                "`accounts`",
            );
            b.count(people.rooms.into(), 1..=10_000, at("rooms"), "`rooms`");
            if people.steps.is_empty() || people.steps.len() > 100 {
                b.p.push(Problem::new(
                    at("steps"),
                    format!("{} steps of people", people.steps.len()),
                    Some("1 to 100 steps, e.g. [250, 500, 1000]".into()),
                ));
            }
            for (k, n) in people.steps.iter().enumerate() {
                let span =
                    at!(spans, "workload", i, "people", "steps", k).unwrap_or_else(|| at("steps"));
                b.count((*n).into(), 1..=100_000, span, "people added in a step");
            }
            b.duration(
                people.step_duration,
                false,
                at("step_duration"),
                "`step_duration`",
            );
            b.duration(
                people.navigate_every,
                false,
                at("navigate_every"),
                "`navigate_every`",
            );
            b.duration(people.post_every, false, at("post_every"), "`post_every`");
            for (kind, share) in &people.mix {
                let span = at!(spans, "workload", i, "people", "mix", kind.as_str())
                    .unwrap_or_else(|| at("mix"));
                b.real(
                    *share,
                    (0.0, true),
                    1.0,
                    span,
                    format!("the share of `{kind}`"),
                );
            }
            let served = &people.served;
            let at = |key: &str| {
                at!(spans, "workload", i, "people", "served", key).unwrap_or_else(|| at("served"))
            };
            for (key, q) in [
                ("navigation_quantile", served.navigation_quantile),
                ("delivery_quantile", served.delivery_quantile),
            ] {
                b.real(q, (0.0, false), 1.0, at(key), format!("`{key}`"));
            }
            for (key, ms) in [
                ("navigation_ms", served.navigation_ms),
                ("delivery_ms", served.delivery_ms),
            ] {
                b.real(ms, (0.0, false), 3_600_000.0, at(key), format!("`{key}`"));
            }
        }
    }
    for (i, f) in recipe.figures.iter().enumerate() {
        if let Some(v) = f.value {
            let span = at!(spans, "figure", i, "value").unwrap_or_else(|| f.id.span());
            b.finite(v, span, "`value`");
        }
        if let Some(range) = f.range {
            for (k, v) in range.iter().enumerate() {
                let span = at!(spans, "figure", i, "range", k).unwrap_or_else(|| f.id.span());
                b.finite(*v, span, "a bound of `range`");
            }
        }
    }
    for (i, c) in recipe.claims.iter().enumerate() {
        let span = at!(spans, "claim", i, "value").unwrap_or_else(|| c.id.span());
        match &c.shape {
            ClaimShape::Ratio { value, .. } => {
                b.real(*value, (0.0, false), 1e9, span, "the ratio");
            }
            ClaimShape::Spread { value, .. } => {
                b.real(*value, (0.0, true), 1e9, span, "the spread");
            }
            ClaimShape::Absolute { .. } | ClaimShape::Ordering { .. } => {}
        }
    }
}

struct Bounds<'a> {
    p: &'a mut Vec<Problem>,
}

impl Bounds<'_> {
    fn count(
        &mut self,
        value: u64,
        range: RangeInclusive<u64>,
        span: Range<usize>,
        what: impl Display,
    ) {
        if !range.contains(&value) {
            self.p.push(Problem::new(
                span,
                format!("{what} is {value}, out of range"),
                Some(format!(
                    "a whole number from {} to {}",
                    range.start(),
                    range.end()
                )),
            ));
        }
    }

    fn finite(&mut self, value: f64, span: Range<usize>, what: impl Display) {
        if !value.is_finite() {
            self.p.push(Problem::new(
                span,
                format!("{what} is {value}"),
                Some("a finite number".into()),
            ));
        }
    }

    /// `value` finite, above `low` (or equal, when `inclusive`), at most `high`.
    fn real(
        &mut self,
        value: f64,
        (low, inclusive): (f64, bool),
        high: f64,
        span: Range<usize>,
        what: impl Display,
    ) {
        let above = if inclusive { value >= low } else { value > low };
        if !(value.is_finite() && above && value <= high) {
            let open = if inclusive { "from" } else { "above" };
            self.p.push(Problem::new(
                span,
                format!("{what} is {value}, out of range"),
                Some(format!("a number {open} {low} up to {high}")),
            ));
        }
    }

    /// A share of the CPUs: more than none, at most 64 a CPU.
    fn share_of_cpus(&mut self, value: f64, span: Range<usize>, key: &str) {
        if !(value > 0.0 && value <= 64.0) {
            self.p.push(Problem::new(
                span,
                format!("`{key}` is {{ per_cpu = {value} }}, out of range"),
                Some("a share of the server's CPUs above 0 and at most 64, e.g. 0.666".into()),
            ));
        }
    }

    fn duration(&mut self, value: Span, may_be_zero: bool, span: Range<usize>, what: impl Display) {
        let d = value.as_duration();
        let too_short = if may_be_zero {
            false
        } else {
            d < Duration::from_millis(1)
        };
        if too_short || d > DURATION_MAX {
            let low = if may_be_zero { "from 0s" } else { "from 1ms" };
            self.p.push(Problem::new(
                span,
                format!("{what} is {value}, out of range"),
                Some(format!("a duration {low} up to {}", Span(DURATION_MAX))),
            ));
        }
    }
}
