//! Inline SVG charts: published against measured per cell, with the runs'
//! spread, and each claim's picture: its interval against the published
//! value and its tolerance band on one axis. Every cell is one `.cell-mark`
//! group and every measured claim one `.claim-mark` group, so a browser
//! test can count them.

use std::fmt::Write;

use reprise_recipe::Metric;
use reprise_recipe::reading::value;
use reprise_verdict::CellReading;

use crate::Report;
use crate::cards::{Numbers, tick_label};

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

/// One claim on one axis, as the app draws it: the range it accepts
/// shaded, the published number as a tick, the measured interval as a bar
/// with its estimate as a dot, and round numbers under it; nothing where
/// nothing was measured. The interval is the `.claim-mark`.
pub(crate) fn claim_picture(v: &reprise_verdict::Verdict) -> String {
    const WIDTH: f64 = 480.0;
    const SIDE: f64 = 14.0;
    const AXIS_Y: f64 = 40.0;
    let n = Numbers::of(v);
    let (Some(axis), Some([estimate, low, high])) = (n.axis(), n.measured) else {
        return String::new();
    };
    let x = |v: f64| SIDE + axis.at(v) * (WIDTH - 2.0 * SIDE);
    let colour = match v.outcome {
        reprise_verdict::Outcome::Reproduced => "#188038",
        reprise_verdict::Outcome::NotReproduced => "#d93025",
        reprise_verdict::Outcome::Inconclusive => "#e37400",
        reprise_verdict::Outcome::NoData => "#a50e0e",
        reprise_verdict::Outcome::NotMeasured | reprise_verdict::Outcome::NotComparable => {
            "#80868b"
        }
    };
    let label = format!(
        "{}: published {}{}; measured {}",
        v.claim,
        v.show_published(),
        v.show_band()
            .map(|b| format!(", accepted {b}"))
            .unwrap_or_default(),
        v.show_measured()
    );
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="claim-picture" width="{WIDTH}" height="66" viewBox="0 0 {WIDTH} 66" role="img" aria-label="{}">"#,
        escape(&label)
    );
    if let Some([lo, hi]) = n.band {
        let _ = write!(
            s,
            r##"<rect class="tolerance-band" x="{:.1}" y="8" width="{:.1}" height="26" rx="3" fill="#188038" fill-opacity="0.15" stroke="#188038" stroke-dasharray="4 3"/>"##,
            x(lo),
            (x(hi) - x(lo)).max(1.0)
        );
    }
    if let Some(p) = n.published {
        let _ = write!(
            s,
            r##"<line class="published-value" x1="{0:.1}" x2="{0:.1}" y1="4" y2="{1}" stroke="#202124" stroke-width="2"/>"##,
            x(p),
            AXIS_Y - 2.0
        );
    }
    let _ = write!(
        s,
        r##"<g class="claim-mark" data-claim="{}" data-outcome="{}"><line class="claim-interval" x1="{:.1}" x2="{:.1}" y1="21" y2="21" stroke="{colour}" stroke-width="6" stroke-linecap="round"/><circle class="claim-estimate" cx="{:.1}" cy="21" r="5" fill="{colour}" stroke="#fff" stroke-width="1.5"/></g>"##,
        escape(&v.claim),
        escape(v.outcome.label()),
        x(low),
        x(high).max(x(low) + 2.0),
        x(estimate)
    );
    let _ = write!(
        s,
        r##"<line x1="{SIDE}" x2="{}" y1="{AXIS_Y}" y2="{AXIS_Y}" stroke="#80868b"/>"##,
        WIDTH - SIDE
    );
    let last = axis.ticks.len() - 1;
    for (i, t) in axis.ticks.iter().enumerate() {
        let anchor = match i {
            0 => "start",
            i if i == last => "end",
            _ => "middle",
        };
        let _ = write!(
            s,
            r##"<line x1="{0:.1}" x2="{0:.1}" y1="{AXIS_Y}" y2="{1}" stroke="#80868b"/><text class="tick" x="{0:.1}" y="{2}" font-size="11" fill="#5f6368" text-anchor="{anchor}">{3}</text>"##,
            x(*t),
            AXIS_Y + 4.0,
            AXIS_Y + 17.0,
            escape(&tick_label(*t, &n.unit, i == last))
        );
    }
    s.push_str("</svg>");
    s
}
