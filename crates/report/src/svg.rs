//! Inline SVG charts: published against measured per cell, with the runs'
//! spread, and the claims as a forest of intervals against the published
//! value and its tolerance band. Every cell is one `.cell-mark` group and
//! every claim one `.claim-mark` group, so a browser test can count them.

use std::fmt::Write;

use reprise_recipe::Metric;
use reprise_recipe::reading::value;
use reprise_verdict::CellReading;

use crate::Report;

/// Text safe inside SVG or HTML, in content and in quoted attributes.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const LABEL: f64 = 280.0;
const PLOT: f64 = 560.0;
const ROW: f64 = 30.0;
const TOP: f64 = 24.0;

/// One chart per metric: a row per cell with its runs, median and the
/// published value where a figure names the cell.
pub(crate) fn cell_charts(report: &Report) -> String {
    let mut metrics: Vec<Metric> = Vec::new();
    for r in &report.judgement.cells {
        if !metrics.contains(&r.cell.key.metric()) {
            metrics.push(r.cell.key.metric());
        }
    }
    let mut out = String::new();
    for metric in metrics {
        let rows: Vec<&CellReading> = report
            .judgement
            .cells
            .iter()
            .filter(|r| r.cell.key.metric() == metric)
            .collect();
        out.push_str(&metric_chart(report, metric, &rows));
    }
    out
}

fn metric_chart(report: &Report, metric: Metric, rows: &[&CellReading]) -> String {
    let unit = metric.unit();
    let mut top = 0.0f64;
    for r in rows {
        for v in r.values() {
            top = top.max(v);
        }
        for f in report.figures_of(&r.cell.key) {
            top = top.max(
                f.published_range
                    .map_or(f.published.unwrap_or(0.0), |[_, hi]| hi),
            );
        }
    }
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };
    let x = |v: f64| LABEL + v / top * PLOT;
    let height = TOP + ROW * rows.len() as f64 + 24.0;
    let width = LABEL + PLOT + 120.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<figure class="chart"><figcaption>{} ({}): median ●, runs ·, range ─, published ▮</figcaption><svg xmlns="http://www.w3.org/2000/svg" class="cells-chart" data-metric="{}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">"#,
        escape(metric.name()),
        escape(if unit.is_empty() { "count" } else { unit }),
        metric.name()
    );
    // Axis: zero and the top.
    let axis_y = TOP + ROW * rows.len() as f64;
    let _ = write!(
        s,
        r##"<line x1="{LABEL}" y1="{TOP}" x2="{LABEL}" y2="{axis_y}" stroke="#999"/><line x1="{LABEL}" y1="{axis_y}" x2="{}" y2="{axis_y}" stroke="#999"/><text x="{LABEL}" y="{}" font-size="11" text-anchor="middle">0</text><text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>"##,
        LABEL + PLOT,
        axis_y + 14.0,
        LABEL + PLOT,
        axis_y + 14.0,
        escape(&value(top, unit))
    );
    for (i, r) in rows.iter().enumerate() {
        let key = &r.cell.key;
        let y = TOP + ROW * i as f64 + ROW / 2.0;
        let status = match &r.status {
            reprise_verdict::CellStatus::Valid => "valid",
            reprise_verdict::CellStatus::NoData { .. } => "no-data",
            reprise_verdict::CellStatus::ClientBound { .. } => "client-bound",
            reprise_verdict::CellStatus::NetworkBound { .. } => "network-bound",
            reprise_verdict::CellStatus::NotComparable { .. } => "not-comparable",
        };
        let label = match &key.endpoint {
            Some(e) => format!("{} {e}", key.lane),
            None => key.lane.clone(),
        };
        let _ = write!(
            s,
            r#"<g class="cell-mark" data-cell="{}" data-status="{status}"><title>{}: {}</title><text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>"#,
            escape(&key.to_string()),
            escape(&key.to_string()),
            escape(&r.status.describe()),
            LABEL - 8.0,
            y + 4.0,
            escape(&label)
        );
        for f in report.figures_of(key) {
            if let Some([lo, hi]) = f.published_range {
                let _ = write!(
                    s,
                    r##"<rect class="published-mark" x="{}" y="{}" width="{}" height="{}" fill="#f4b400" opacity="0.5"><title>published {}: {} – {}</title></rect>"##,
                    x(lo),
                    y - 10.0,
                    (x(hi) - x(lo)).max(2.0),
                    20.0,
                    escape(&f.figure),
                    escape(&value(lo, unit)),
                    escape(&value(hi, unit))
                );
            } else if let Some(p) = f.published {
                let _ = write!(
                    s,
                    r##"<rect class="published-mark" x="{}" y="{}" width="4" height="20" fill="#f4b400"><title>published {}: {}</title></rect>"##,
                    x(p) - 2.0,
                    y - 10.0,
                    escape(&f.figure),
                    escape(&value(p, unit))
                );
            }
        }
        match &r.stats {
            Some(stats) => {
                let colour = if status == "valid" { "#1a73e8" } else { "#999" };
                let _ = write!(
                    s,
                    r#"<line class="run-spread" x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"/>"#,
                    x(stats.min),
                    x(stats.max)
                );
                for v in r.values() {
                    let _ = write!(
                        s,
                        r#"<circle class="run-dot" cx="{}" cy="{y}" r="2.5" fill="{colour}" opacity="0.6"/>"#,
                        x(v)
                    );
                }
                let _ = write!(
                    s,
                    r#"<circle class="median-dot" cx="{}" cy="{y}" r="5" fill="{colour}"/><text x="{}" y="{}" font-size="11">{}{}</text>"#,
                    x(stats.median),
                    LABEL + PLOT + 8.0,
                    y + 4.0,
                    escape(&value(stats.median, unit)),
                    if stats.unstable { " ⚠" } else { "" }
                );
            }
            None => {
                let _ = write!(
                    s,
                    r##"<text x="{}" y="{}" font-size="11" fill="#b00">no data</text>"##,
                    LABEL + 8.0,
                    y + 4.0
                );
            }
        }
        s.push_str("</g>");
    }
    s.push_str("</svg></figure>\n");
    s
}

/// The claims that have a band and a measured interval, each drawn
/// relative to its published value (1 = as published).
pub(crate) fn claim_forest(report: &Report) -> String {
    let rows: Vec<_> = report
        .judgement
        .verdicts
        .iter()
        .filter_map(|v| {
            let published = v.published.filter(|p| *p != 0.0)?;
            Some((v, published, v.band?, v.measured?))
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let (mut lo, mut hi) = (1.0f64, 1.0f64);
    for (_, p, band, m) in &rows {
        for v in [band[0] / p, band[1] / p, m.low / p, m.high / p] {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    let pad = (hi - lo).max(0.1) * 0.08;
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    let x = |v: f64| LABEL + (v - lo) / (hi - lo) * PLOT;
    let height = TOP + ROW * rows.len() as f64 + 24.0;
    let width = LABEL + PLOT + 160.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<figure class="chart"><figcaption>Claims, measured ÷ published: interval ─, estimate ●, tolerance band ▭, published |</figcaption><svg xmlns="http://www.w3.org/2000/svg" class="claims-chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img"><line x1="{0}" y1="{TOP}" x2="{0}" y2="{1}" stroke="#444" stroke-dasharray="4 3"/><text x="{0}" y="{2}" font-size="11" text-anchor="middle">1 = published</text>"##,
        x(1.0),
        height - 24.0,
        height - 8.0
    );
    for (i, (v, p, band, m)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64 + ROW / 2.0;
        let colour = match v.outcome {
            reprise_verdict::Outcome::Reproduced => "#188038",
            reprise_verdict::Outcome::NotReproduced => "#d93025",
            reprise_verdict::Outcome::Inconclusive => "#e37400",
            reprise_verdict::Outcome::NoData => "#a50e0e",
            reprise_verdict::Outcome::NotMeasured => "#bbb",
            reprise_verdict::Outcome::NotComparable => "#999",
        };
        let claim = escape(&v.claim);
        let outcome = escape(v.outcome.label());
        let reason = escape(&v.reason);
        let label_x = LABEL - 8.0;
        let text_y = y + 4.0;
        let band_x = x(band[0] / p);
        let band_y = y - 9.0;
        let band_w = (x(band[1] / p) - x(band[0] / p)).max(1.0);
        let one = x(1.0);
        let (tick_top, tick_bottom) = (y - 11.0, y + 11.0);
        let (low, high, estimate) = (x(m.low / p), x(m.high / p), x(m.estimate / p));
        let value_x = LABEL + PLOT + 8.0;
        let value = escape(&v.show(m.estimate));
        let _ = write!(
            s,
            r##"<g class="claim-mark" data-claim="{claim}" data-outcome="{outcome}"><title>{claim}: {reason}</title><text x="{label_x}" y="{text_y}" font-size="12" text-anchor="end">{claim}</text><rect class="tolerance-band" x="{band_x}" y="{band_y}" width="{band_w}" height="18" fill="#e6f4ea"/><line class="published-value" x1="{one}" y1="{tick_top}" x2="{one}" y2="{tick_bottom}" stroke="#444"/><line class="claim-interval" x1="{low}" y1="{y}" x2="{high}" y2="{y}" stroke="{colour}" stroke-width="3"/><circle cx="{estimate}" cy="{y}" r="5" fill="{colour}"/><text x="{value_x}" y="{text_y}" font-size="11">{value} {outcome}</text></g>"##
        );
    }
    s.push_str("</svg></figure>\n");
    s
}
