//! `per-run.json`: one JSON object a line, one line per lane, endpoint and
//! run (`target, workers, endpoint, run, warmup_sec, rss_kb, pss_kb,
//! req_sec, p50_ms, p99_ms, socket_errors`), read into and written from
//! [`Measurements`]. Reprise adds two optional fields a line, `client_cpu`
//! (the load generator's CPU fraction for the run) and `errors` (non-2xx
//! responses and failed checks), which the harness's readers ignore.

use std::collections::BTreeMap;

use reprise_recipe::Metric;
use reprise_verdict::{CellKey, LaneInfo, Measurements, Repetition, is_load_metric};
use serde::Deserialize;
use serde_json::Value;

use crate::HarnessError;

/// One line of `per-run.json`.
#[derive(Clone, Debug, Default, Deserialize)]
struct PerRunLine {
    target: String,
    workers: Option<u32>,
    endpoint: Option<String>,
    run: u32,
    warmup_sec: Option<f64>,
    rss_kb: Option<f64>,
    pss_kb: Option<f64>,
    req_sec: Option<f64>,
    p50_ms: Option<f64>,
    p99_ms: Option<f64>,
    socket_errors: Option<u64>,
    #[serde(default)]
    errors: Option<u64>,
    #[serde(default)]
    client_cpu: Option<f64>,
    /// The latency fields this line has a cell for: written, `null` where
    /// the run produced no number; left out where nothing measured them.
    #[serde(skip)]
    latencies: Vec<&'static str>,
}

/// The metrics a line carries: metric, field, scale from the field's unit
/// to the metric's.
const PER_RUN_METRICS: [(Metric, &str, f64); 5] = [
    (Metric::ReqPerS, "req_sec", 1.0),
    (Metric::P50Ms, "p50_ms", 1.0),
    (Metric::P99Ms, "p99_ms", 1.0),
    (Metric::RssMb, "rss_kb", 1.0 / 1024.0),
    (Metric::PssMb, "pss_kb", 1.0 / 1024.0),
];

/// The largest value a line's metric may have: far past any rate, latency
/// in milliseconds or memory in kB, and small enough that the sums of
/// squares a cell's statistics take stay finite.
pub const LARGEST: f64 = 1e12;

/// What a line says of one metric.
enum Reading {
    /// The field is absent (another harness version): no run of that cell.
    Absent,
    /// Null, or for memory 0 (the harness's sampler found no process, as a
    /// server that died leaves it): a run without a number.
    NoNumber,
    Value(f64),
}

fn reading(line: &serde_json::Map<String, Value>, metric: Metric, field: &str) -> Reading {
    match line.get(field) {
        None => Reading::Absent,
        Some(Value::Null) => Reading::NoNumber,
        Some(v) => match v.as_f64() {
            Some(0.0) if matches!(metric, Metric::RssMb | Metric::PssMb) => Reading::NoNumber,
            Some(x) => Reading::Value(x),
            None => Reading::NoNumber,
        },
    }
}

/// Reads `per-run.json`. A lane is named by its `target`; where one target
/// ran with several worker counts, each shape is its own lane, `target/wN`
/// (a recipe's lanes say which is theirs: `reprise_verdict::align_lanes`).
pub fn parse(text: &str) -> Result<Measurements, HarnessError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let bad = |source| HarnessError::PerRun {
            line: i + 1,
            source,
        };
        let fields: serde_json::Map<String, Value> = serde_json::from_str(raw).map_err(bad)?;
        // The keys every line has, typed; the metrics are read from `fields`.
        let line: PerRunLine =
            serde_json::from_value(Value::Object(fields.clone())).map_err(bad)?;
        lines.push((line, fields, i + 1));
    }
    let mut shapes: BTreeMap<&str, Vec<Option<u32>>> = BTreeMap::new();
    for (line, _, _) in &lines {
        let seen = shapes.entry(&line.target).or_default();
        if !seen.contains(&line.workers) {
            seen.push(line.workers);
        }
    }
    let lane_name = |line: &PerRunLine| match (shapes[line.target.as_str()].len(), line.workers) {
        (n, Some(w)) if n > 1 => format!("{}/w{w}", line.target),
        _ => line.target.clone(),
    };
    let mut m = Measurements::default();
    for (line, fields, number) in &lines {
        let lane = lane_name(line);
        m.lanes.entry(lane.clone()).or_insert_with(|| LaneInfo {
            target: line.target.clone(),
            workers: line.workers,
            warmup_sec: line.warmup_sec,
        });
        let errors = line.socket_errors.unwrap_or(0) + line.errors.unwrap_or(0);
        for (metric, field, scale) in PER_RUN_METRICS {
            let value = match reading(fields, metric, field) {
                // A line without req_sec is still a run without a number.
                Reading::Absent if metric != Metric::ReqPerS => continue,
                Reading::Absent | Reading::NoNumber => None,
                Reading::Value(v) if !(0.0..=LARGEST).contains(&v) => {
                    return Err(HarnessError::NotAMeasurement {
                        line: *number,
                        field: field.to_string(),
                        value: v,
                    });
                }
                Reading::Value(v) => Some(v * scale),
            };
            let load = is_load_metric(metric);
            m.push_run(
                CellKey::new(&lane, line.endpoint.as_deref(), metric),
                Repetition {
                    run: line.run,
                    value,
                    errors: if load { errors } else { 0 },
                    client_cpu: if load { line.client_cpu } else { None },
                    server_cpu: None,
                    first_attempt_taken: None,
                },
            );
        }
    }
    Ok(m)
}

/// Writes `per-run.json`: one line per lane, endpoint and run, with the
/// harness's fields in its order (`target, workers, endpoint, run, rss_kb,
/// req_sec, p50_ms, p99_ms`) and Reprise's after them. As the harness does:
/// `workers` is 1 for a lane that does not say (a server that does not fork
/// workers), `rss_kb` is an integer and absent where not sampled, and a run
/// with any error has `req_sec: null` (its cell is no data; the aggregator
/// takes the median of the runs that produced a number).
pub fn render(m: &Measurements) -> String {
    let mut rows: BTreeMap<(String, Option<String>, u32), PerRunLine> = BTreeMap::new();
    for cell in &m.cells {
        let lane = m.lanes.get(&cell.key.lane);
        for run in &cell.runs {
            let row = rows
                .entry((cell.key.lane.clone(), cell.key.endpoint.clone(), run.run))
                .or_insert_with(|| PerRunLine {
                    target: lane.map_or_else(|| cell.key.lane.clone(), |l| l.target.clone()),
                    workers: Some(lane.and_then(|l| l.workers).unwrap_or(1)),
                    endpoint: cell.key.endpoint.clone(),
                    run: run.run,
                    warmup_sec: lane.and_then(|l| l.warmup_sec),
                    ..PerRunLine::default()
                });
            let kb = run.value.map(|v| (v * 1024.0).round());
            match cell.key.metric() {
                Metric::ReqPerS => row.req_sec = run.value.filter(|_| run.errors == 0),
                Metric::P50Ms => {
                    row.p50_ms = run.value;
                    row.latencies.push("p50_ms");
                }
                Metric::P99Ms => {
                    row.p99_ms = run.value;
                    row.latencies.push("p99_ms");
                }
                Metric::RssMb => row.rss_kb = kb,
                Metric::PssMb => row.pss_kb = kb,
                _ => continue,
            }
            if is_load_metric(cell.key.metric()) {
                row.socket_errors = Some(row.socket_errors.unwrap_or(0).max(run.errors));
                row.client_cpu = row.client_cpu.or(run.client_cpu);
            }
        }
    }
    let mut out = String::new();
    for row in rows.values() {
        out.push_str(&line_text(row));
        out.push('\n');
    }
    out
}

/// One line, keys in the harness's order; integers where it writes them.
fn line_text(row: &PerRunLine) -> String {
    let float = |v: Option<f64>| v.and_then(serde_json::Number::from_f64).map(Value::Number);
    let int = |v: Option<f64>| v.map(|v| Value::from(v as i64));
    let whole_or_float = |v: Option<f64>| match v {
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => int(Some(v)),
        v => float(v),
    };
    let fields: [(&str, Option<Value>, bool); 13] = [
        ("target", Some(Value::from(row.target.clone())), true),
        ("workers", row.workers.map(Value::from), true),
        ("endpoint", row.endpoint.clone().map(Value::from), true),
        ("run", Some(Value::from(row.run)), true),
        ("rss_kb", int(row.rss_kb), false),
        ("req_sec", float(row.req_sec), true),
        (
            "p50_ms",
            float(row.p50_ms),
            row.latencies.contains(&"p50_ms"),
        ),
        (
            "p99_ms",
            float(row.p99_ms),
            row.latencies.contains(&"p99_ms"),
        ),
        ("warmup_sec", whole_or_float(row.warmup_sec), false),
        ("pss_kb", int(row.pss_kb), false),
        ("socket_errors", row.socket_errors.map(Value::from), false),
        ("errors", row.errors.map(Value::from), false),
        ("client_cpu", float(row.client_cpu), false),
    ];
    let parts: Vec<String> = fields
        .into_iter()
        .filter(|(_, v, always)| v.is_some() || *always)
        .map(|(k, v, _)| format!("\"{k}\":{}", v.unwrap_or(Value::Null)))
        .collect();
    format!("{{{}}}", parts.join(","))
}
