//! `summary.json` and `summary.md`: the harness's aggregation of
//! `per-run.json` (the Ruby embedded at the end of rubys/roundhouse
//! `scripts/bench`), reproduced byte for byte so that the harness's tools
//! read a Reprise run exactly as they read the post's.
//!
//! The rules are the aggregator's, not Reprise's verdicts': a cell is one
//! (target, workers, endpoint), in the order the cells first appear; each
//! figure is the median of the runs that produced a number (a `null`
//! `req_sec` is skipped, not a reason to give none); an RSS of 0 is no
//! measurement; an odd count's median keeps its type (an integer stays
//! one), an even count's is the mean of the middle two as a float. A cell
//! with errors is still "no data" in Reprise's verdicts; the harness's
//! per-run line of such a run carries `req_sec: null`.

use serde_json::{Number, Value};

use crate::HarnessError;
use crate::ruby_output::{Object, format_fixed, pretty_generate};

/// One row of `summary.json`, as the aggregator writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub target: Value,
    pub workers: Value,
    pub endpoint: Value,
    pub runs: usize,
    pub req_sec: Option<Number>,
    pub p50_ms: Option<Number>,
    pub p99_ms: Option<Number>,
    pub rss_kb: Option<Number>,
    pub rss_mb: Option<f64>,
    /// Requests per second per gigabyte of RSS.
    pub rps_per_gb: Option<f64>,
}

/// What aggregating a `per-run.json` gives: its rows, and the two files'
/// bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub rows: Vec<SummaryRow>,
    /// How many per-run lines were read.
    pub records: usize,
}

impl Summary {
    /// `summary.json`'s bytes (`JSON.pretty_generate`, no final newline).
    pub fn json(&self) -> String {
        let float = |v: Option<f64>| {
            v.and_then(Number::from_f64)
                .map_or(Value::Null, Value::Number)
        };
        let number = |v: &Option<Number>| v.clone().map_or(Value::Null, Value::Number);
        let rows: Vec<Object<'_>> = self
            .rows
            .iter()
            .map(|r| {
                vec![
                    ("target", r.target.clone()),
                    ("workers", r.workers.clone()),
                    ("endpoint", r.endpoint.clone()),
                    ("runs", Value::from(r.runs)),
                    ("req_sec", number(&r.req_sec)),
                    ("p50_ms", number(&r.p50_ms)),
                    ("p99_ms", number(&r.p99_ms)),
                    ("rss_kb", number(&r.rss_kb)),
                    ("rss_mb", float(r.rss_mb)),
                    ("rps_per_gb", float(r.rps_per_gb)),
                ]
            })
            .collect();
        pretty_generate(&rows)
    }

    /// `summary.md`'s bytes: a table per endpoint, rows by target and
    /// workers, `—` for a figure that was never measured.
    pub fn markdown(&self) -> String {
        let mut md = String::from("# Benchmark results\n\n");
        md.push_str(&format!(
            "_{} measurements across {} cells_\n\n",
            self.records,
            self.rows.len()
        ));
        let mut endpoints: Vec<&Value> = Vec::new();
        for row in &self.rows {
            if !endpoints.contains(&&row.endpoint) {
                endpoints.push(&row.endpoint);
            }
        }
        let fixed =
            |v: Option<f64>, places: usize| v.map_or("—".into(), |v| format_fixed(v, places));
        let as_f64 = |n: &Option<Number>| n.as_ref().and_then(Number::as_f64);
        for endpoint in endpoints {
            md.push_str(&format!("## `{}`\n\n", interpolated(endpoint)));
            md.push_str(
                "| target | workers | req/sec | p50 (ms) | p99 (ms) | RSS (MB) | req/sec/GB |\n",
            );
            md.push_str(
                "|--------|--------:|--------:|---------:|---------:|---------:|-----------:|\n",
            );
            let mut rows: Vec<&SummaryRow> = self
                .rows
                .iter()
                .filter(|r| &r.endpoint == endpoint)
                .collect();
            rows.sort_by(|a, b| {
                interpolated(&a.target)
                    .cmp(&interpolated(&b.target))
                    .then(workers_of(a).cmp(&workers_of(b)))
            });
            for r in rows {
                md.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} |\n",
                    interpolated(&r.target),
                    workers_of(r),
                    fixed(as_f64(&r.req_sec), 0),
                    fixed(as_f64(&r.p50_ms), 2),
                    fixed(as_f64(&r.p99_ms), 2),
                    fixed(r.rss_mb, 0),
                    fixed(r.rps_per_gb, 0),
                ));
            }
            md.push('\n');
        }
        md
    }
}

/// `"#{value}"`: a string as is, nil as nothing, a number as Ruby prints it.
fn interpolated(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Number(n) => crate::ruby_output::number(n),
        other => other.to_string(),
    }
}

/// `%d` of the row's workers (the harness always records a number).
fn workers_of(r: &SummaryRow) -> i64 {
    match &r.workers {
        Value::Number(n) => n
            .as_i64()
            .unwrap_or_else(|| n.as_f64().unwrap_or(0.0) as i64),
        _ => 0,
    }
}

/// Aggregates `per-run.json` as the harness does.
pub fn aggregate(per_run: &str) -> Result<Summary, HarnessError> {
    let mut records = Vec::new();
    for (i, line) in per_run.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|source| HarnessError::PerRun {
            line: i + 1,
            source,
        })?;
        records.push((i + 1, value));
    }
    // group_by keeps the order in which each key first appears.
    let mut groups: Vec<((Value, Value, Value), Vec<usize>)> = Vec::new();
    for (n, (_, r)) in records.iter().enumerate() {
        let key = (
            r["target"].clone(),
            r["workers"].clone(),
            r["endpoint"].clone(),
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(n),
            None => groups.push((key, vec![n])),
        }
    }
    let mut rows = Vec::new();
    for ((target, workers, endpoint), members) in groups {
        let field = |name: &str| -> Result<Vec<Number>, HarnessError> {
            let mut values = Vec::new();
            for &n in &members {
                let (line, record) = &records[n];
                match &record[name] {
                    Value::Null => {}
                    Value::Number(x) => values.push(x.clone()),
                    other => {
                        return Err(HarnessError::NotANumber {
                            line: *line,
                            field: name.to_string(),
                            value: other.to_string(),
                        });
                    }
                }
            }
            Ok(values)
        };
        let req_sec = median(field("req_sec")?);
        let p50_ms = median(field("p50_ms")?);
        let p99_ms = median(field("p99_ms")?);
        // `.reject { |v| v.to_i.zero? }`: a zero RSS is the sampler finding
        // no process, never a measurement.
        let rss = field("rss_kb")?
            .into_iter()
            .filter(|n| to_i(n) != 0)
            .collect();
        let rss_kb = median(rss);
        let rss_f = rss_kb.as_ref().and_then(Number::as_f64);
        let rss_gb = rss_f.map(|kb| kb / 1024.0 / 1024.0);
        let rps_per_gb = match (req_sec.as_ref().and_then(Number::as_f64), rss_gb) {
            (Some(r), Some(gb)) if gb > 0.0 => Some(r / gb),
            _ => None,
        };
        rows.push(SummaryRow {
            target,
            workers,
            endpoint,
            runs: members.len(),
            req_sec,
            p50_ms,
            p99_ms,
            rss_kb,
            rss_mb: rss_f.map(|kb| kb / 1024.0),
            rps_per_gb,
        });
    }
    Ok(Summary {
        rows,
        records: records.len(),
    })
}

/// Ruby's `to_i`: an integer as is, a float truncated toward zero.
fn to_i(n: &Number) -> i128 {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => i128::from(i),
        (_, Some(u)) => i128::from(u),
        _ => n.as_f64().unwrap_or(0.0).trunc() as i128,
    }
}

/// The aggregator's median: sorted, the middle one as it was (an integer
/// stays an integer) for an odd count, the middle two's mean as a float
/// for an even one.
fn median(mut xs: Vec<Number>) -> Option<Number> {
    if xs.is_empty() {
        return None;
    }
    let key = |n: &Number| n.as_f64().unwrap_or(0.0);
    xs.sort_by(|a, b| {
        // Integers beyond f64's precision compare exactly, as Ruby's do.
        match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => key(a).total_cmp(&key(b)),
        }
    });
    let n = xs.len();
    if n % 2 == 1 {
        return Some(xs[n / 2].clone());
    }
    let (a, b) = (&xs[n / 2 - 1], &xs[n / 2]);
    // Integer + Integer is exact in Ruby; the sum becomes a float only
    // when divided by 2.0.
    let sum = match (a.as_i64(), b.as_i64()) {
        (Some(x), Some(y)) => (i128::from(x) + i128::from(y)) as f64,
        _ => key(a) + key(b),
    };
    Number::from_f64(sum / 2.0)
}
