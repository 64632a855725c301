//! How numbers read on screen, one way for the CLI, the app and the reports:
//! a number with sensible precision and its thousands grouped as the posts
//! write them (`54,000`, `1.96`, `0.012`), a value with its unit, a range, an
//! interval, a spread; a metric's name as a reader says it; a published
//! figure and a claim's tolerance.
//!
//! ```
//! use reprise_recipe::reading::{interval, value};
//!
//! assert_eq!(value(54_000.0, "req/s"), "54,000 req/s");
//! assert_eq!(value(1.96, "×"), "1.96×");
//! assert_eq!(interval(30_200.0, 30_100.0, 30_300.0, "req/s"), "30,200 req/s (30,100–30,300)");
//! ```

use crate::{Claim, ClaimShape, Figure, Metric, Published};

/// A number with sensible precision: grouped thousands from 1,000 on, whole
/// from 100, one decimal from 10, two from 1, two significant digits below;
/// trailing zeros trimmed. `—` for a number that is not one.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let abs = v.abs();
    if abs >= 1000.0 {
        grouped(v.round())
    } else if abs >= 100.0 {
        format!("{v:.0}")
    } else if abs >= 10.0 {
        trimmed(format!("{v:.1}"))
    } else if abs >= 1.0 {
        trimmed(format!("{v:.2}"))
    } else if abs == 0.0 {
        "0".into()
    } else {
        // Two significant digits: 0.012, 0.5.
        let decimals = (1 - abs.log10().floor() as i32).max(0) as usize;
        trimmed(format!("{v:.decimals$}"))
    }
}

fn grouped(whole: f64) -> String {
    let digits = format!("{:.0}", whole.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if whole < 0.0 { format!("-{out}") } else { out }
}

fn trimmed(text: String) -> String {
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => text,
    }
}

/// A value with its unit: `54,000 req/s`, `12 ms`, `1.96×` and `12%` (the
/// unit attached), and a count (whose unit is empty) bare: `6`.
pub fn value(v: f64, unit: &str) -> String {
    match unit {
        "" => number(v),
        "×" | "%" => format!("{}{unit}", number(v)),
        _ => format!("{} {unit}", number(v)),
    }
}

/// A range with its unit once, after the upper bound: `45,900–62,100 req/s`.
pub fn range(low: f64, high: f64, unit: &str) -> String {
    format!("{}–{}", number(low), value(high, unit))
}

/// An estimate with its interval: `1.99× (1.98–2)`, `30,200 req/s (30,100–30,300)`.
/// An interval wider than its estimate bounds nothing and says so:
/// `93,000 req/s (too wide to bound: 2,561–2,799,601)`.
pub fn interval(estimate: f64, low: f64, high: f64, unit: &str) -> String {
    let wide = if too_wide_to_bound(estimate, low, high) {
        "too wide to bound: "
    } else {
        ""
    };
    format!(
        "{} ({wide}{}–{})",
        value(estimate, unit),
        number(low),
        number(high)
    )
}

/// Whether an interval is wider than its estimate: it then says nothing
/// of where the value lies.
pub fn too_wide_to_bound(estimate: f64, low: f64, high: f64) -> bool {
    high - low > estimate.abs()
}

/// An interval's confidence as its heading says it: `95%`, `99.17%`.
pub fn confidence(c: f64) -> String {
    let shown = format!("{:.2}", c * 100.0);
    format!("{}%", shown.trim_end_matches('0').trim_end_matches('.'))
}

/// A fraction as a percentage with one decimal, as spreads are read: `1.2%`.
pub fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

impl Metric {
    /// The metric as a reader says it: `throughput`, `tail latency`.
    pub fn words(self) -> &'static str {
        match self {
            Metric::ReqPerS => "throughput",
            Metric::P50Ms => "median latency",
            Metric::P99Ms => "tail latency",
            Metric::RssMb => "memory (RSS)",
            Metric::PssMb => "memory (PSS)",
            Metric::MemoryMb => "memory",
            Metric::BootAcceptS => "boot time",
            Metric::BootPageS => "time to first page",
            Metric::UsPerRow => "time per row",
            Metric::UsPerRequest => "time per request",
            Metric::ReqPerSPerGb => "throughput per GB",
            Metric::Tags => "response shape",
            Metric::Count => "counts",
            Metric::Seconds => "durations",
            Metric::Percent => "percentages",
        }
    }
}

impl Figure {
    /// What the post published, with its unit: `≈ 54,000 req/s`,
    /// `360–716 ms`, or `not given` (the figure's `unknown` says why).
    pub fn published_text(&self) -> String {
        let unit = self.metric.unit();
        match self.published() {
            Published::Value(v) if self.approx => format!("≈ {}", value(v, unit)),
            Published::Value(v) => value(v, unit),
            Published::Range(low, high) => range(low, high, unit),
            Published::Unknown => "not given".into(),
        }
    }
}

impl Claim {
    /// The claim's tolerance, `±15%`; orderings have none.
    pub fn tolerance_text(&self) -> Option<String> {
        self.tolerance.map(|t| format!("±{}%", number(t * 100.0)))
    }

    /// What the claim asserts, in its figures' ids: `falcon-hello /
    /// puma-hello = 1.96× ±15%`, `best first: falcon-hello, puma-hello`.
    pub fn statement(&self) -> String {
        let tol = self
            .tolerance_text()
            .map(|t| format!(" {t}"))
            .unwrap_or_default();
        match &self.shape {
            ClaimShape::Absolute { figure } => format!("{figure} holds{tol}"),
            ClaimShape::Ratio {
                numerator,
                denominator,
                value,
            } => format!("{numerator} / {denominator} = {}×{tol}", number(*value)),
            ClaimShape::Ordering { order } => format!(
                "best first: {}",
                order
                    .iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ClaimShape::Spread {
                figure,
                value: spread,
            } => format!(
                "runs of {figure} spread {}{tol}",
                value(spread * 100.0, "%")
            ),
        }
    }
}

/// `1 run`, `3 runs`.
pub fn count(n: u32, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// Seconds as a person reads them: `8 s`, `1 min 12 s`, `2 h 5 min`;
/// under ten seconds with a tenth where it has one (`1.5 s`).
pub fn duration_words(seconds: f64) -> String {
    let seconds = seconds.max(0.0);
    if seconds < 10.0 && (seconds * 10.0).round() % 10.0 != 0.0 {
        return format!("{:.1} s", seconds);
    }
    let s = seconds.round() as u64;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, 0) => format!("{m} min"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, 0, _) => format!("{h} h"),
        (h, m, _) => format!("{h} h {m} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration_words(0.0), "0 s");
        assert_eq!(duration_words(1.5), "1.5 s");
        assert_eq!(duration_words(2.0), "2 s");
        assert_eq!(duration_words(59.6), "1 min");
        assert_eq!(duration_words(192.0), "3 min 12 s");
        assert_eq!(duration_words(3600.0 + 300.0 + 7.0), "1 h 5 min");
        assert_eq!(duration_words(7200.0), "2 h");
    }

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1, "run"), "1 run");
        assert_eq!(count(0, "lane"), "0 lanes");
        assert_eq!(count(3, "endpoint"), "3 endpoints");
    }

    #[test]
    fn numbers_group_thousands_and_trim_decimals() {
        assert_eq!(number(54_000.0), "54,000");
        assert_eq!(number(106_000.4), "106,000");
        assert_eq!(number(1_234_567.0), "1,234,567");
        assert_eq!(number(-75_552.0), "-75,552");
        assert_eq!(number(478.0), "478");
        assert_eq!(number(1.96), "1.96");
        assert_eq!(number(12.5), "12.5");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1.2), "1.2");
        assert_eq!(number(0.0123), "0.012");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(f64::NAN), "—");
    }

    #[test]
    fn a_unit_follows_its_value_and_a_count_has_none() {
        assert_eq!(value(54_000.0, "req/s"), "54,000 req/s");
        assert_eq!(value(1.96, "×"), "1.96×");
        assert_eq!(value(12.0, "%"), "12%");
        assert_eq!(value(6.0, ""), "6");
        assert_eq!(range(45_900.0, 62_100.0, "req/s"), "45,900–62,100 req/s");
        assert_eq!(range(1.67, 2.25, "×"), "1.67–2.25×");
        assert_eq!(interval(1.99, 1.9, 2.05, "×"), "1.99× (1.9–2.05)");
        assert_eq!(interval(6.0, 5.0, 7.0, ""), "6 (5–7)");
        assert_eq!(percent(0.142), "14.2%");
        assert_eq!(confidence(0.95), "95%");
        assert_eq!(confidence(1.0 - 0.05 / 6.0), "99.17%");
        // A count's unit is empty: no suffix, its ranges written alike.
        assert_eq!(range(5.1, 6.9, ""), "5.1–6.9");
        assert_eq!(
            interval(30_200.0, 30_100.0, 30_300.0, "req/s"),
            "30,200 req/s (30,100–30,300)"
        );
    }

    #[test]
    fn an_interval_wider_than_its_estimate_says_it_bounds_nothing() {
        assert_eq!(
            interval(93_000.0, 2_561.0, 2_799_601.0, "req/s"),
            "93,000 req/s (too wide to bound: 2,561–2,799,601)"
        );
        assert_eq!(
            interval(1.0, 0.4, 1.5, "×"),
            "1× (too wide to bound: 0.4–1.5)"
        );
        // As wide as its estimate still bounds it.
        assert_eq!(interval(1.0, 0.5, 1.5, "×"), "1× (0.5–1.5)");
    }

    #[test]
    fn a_published_figure_reads_as_the_post_gave_it() {
        let figure = |value: Option<f64>, range: Option<[f64; 2]>, unknown: Option<&str>| Figure {
            id: crate::Name::new("f", 0..1),
            lane: crate::Name::new("puma", 0..4),
            endpoint: None,
            metric: Metric::ReqPerS,
            value,
            range,
            unknown: unknown.map(String::from),
            approx: value.is_some(),
            condition: None,
            requested: None,
            quote: String::new(),
        };
        assert_eq!(
            figure(Some(54_000.0), None, None).published_text(),
            "≈ 54,000 req/s"
        );
        assert_eq!(
            figure(None, Some([360.0, 716.0]), None).published_text(),
            "360–716 req/s"
        );
        assert_eq!(
            figure(None, None, Some("only as a ratio")).published_text(),
            "not given"
        );
    }
}
