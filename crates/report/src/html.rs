//! A self-contained HTML page: no scripts, no external files, charts as
//! inline SVG.

use std::fmt::Write;

use reprise_recipe::reading::value;
use reprise_recipe::shown::command_line;

use crate::markdown::cell_median;
use crate::svg::{cell_charts, claim_forest, escape};

use crate::{Exporter, Report, ReportError};

pub struct HtmlExporter;

impl Exporter for HtmlExporter {
    fn extension(&self) -> &'static str {
        "html"
    }

    fn render(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        Ok(html(report).into_bytes())
    }
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#202124}\
table{border-collapse:collapse;margin:1em 0;font-size:13px}th,td{border:1px solid #dadce0;padding:4px 8px;text-align:left;vertical-align:top}\
th{background:#f1f3f4}.reproduced{color:#188038;font-weight:600}.not-reproduced{color:#d93025;font-weight:600}\
.inconclusive{color:#e37400;font-weight:600}.no-data{color:#a50e0e;font-weight:600}\
.not-measured{color:#5f6368;font-weight:600;font-style:italic}.not-comparable{color:#5f6368;font-weight:600}\
pre{background:#f8f9fa;padding:.8em;overflow:auto;font-size:12px}figure{margin:1.5em 0}figcaption{font-weight:600;margin-bottom:.3em}\
blockquote{color:#5f6368;border-left:3px solid #dadce0;margin:.3em 0;padding-left:.8em}";

fn html(report: &Report) -> String {
    let run = &report.run;
    let j = &report.judgement;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reprise: {}</title><style>{STYLE}</style></head><body>\n",
        escape(&report.headline())
    );
    let _ = writeln!(out, "<h1>Reprise: {}</h1>", escape(&report.headline()));
    let _ = writeln!(
        out,
        "<p>Reproduction of <em>{}</em> by {} ({}), recipe <code>{}</code>, run <code>{}</code> made {}.</p>",
        escape(&run.title),
        escape(&run.author),
        escape(&run.post_date),
        escape(&run.recipe),
        escape(&run.id),
        escape(&run.created_at)
    );
    let machine = match &j.machine {
        reprise_verdict::MachineMatch::Matches => "This machine matches the post's.".to_string(),
        reprise_verdict::MachineMatch::Differs(r) => format!(
            "This machine differs from the post's ({}): absolute figures are shown for information only.",
            r.join("; ")
        ),
    };
    let _ = writeln!(
        out,
        "<p><strong>{}.</strong> {}</p>",
        escape(&report.tally()),
        escape(&machine)
    );

    if !j.deviations.is_empty() {
        out.push_str("<h2>How this run differs from the post</h2>\n<ul class=\"deviations\">");
        for d in &j.deviations {
            let _ = write!(out, "<li>{}</li>", escape(&d.what));
        }
        out.push_str("</ul>\n");
    }
    let _ = writeln!(out, "<h2>Verdicts</h2>");
    if let Some(sentence) = j.sequential_sentence() {
        let _ = writeln!(out, "<p>{}</p>", escape(&sentence));
    }
    out.push_str(&claim_forest(report));
    let _ = writeln!(
        out,
        "<table class=\"verdicts\"><tr><th>Claim</th><th>Kind</th><th>Verdict</th><th>Published</th><th>Measured ({} interval)</th><th>Why</th></tr>",
        reprise_recipe::reading::confidence(j.settings.bootstrap.confidence)
    );
    for v in &j.verdicts {
        let published = v.published.map_or("—".into(), |p| v.show(p));
        let measured = v.show_measured();
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code><blockquote>{}</blockquote></td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&v.claim),
            escape(&v.quote),
            escape(v.kind.name()),
            v.outcome.label().replace(' ', "-"),
            escape(&v.outcome_text()),
            escape(&published),
            escape(&measured),
            escape(&v.reason)
        );
    }
    out.push_str("</table>\n<h2>Cells</h2>\n");
    if j.cells.is_empty() {
        out.push_str("<p>No cells were measured.</p>\n");
    }
    out.push_str(&cell_charts(report));
    out.push_str("<table class=\"cells\"><tr><th>Lane</th><th>Endpoint</th><th>Metric</th><th>Runs</th><th>Median</th><th>CV</th><th>Server CPU</th><th>Status</th></tr>\n");
    for r in &j.cells {
        let key = &r.cell.key;
        let runs: Vec<String> = r
            .cell
            .runs
            .iter()
            .map(|run| run.value.map_or("null".into(), |v| value(v, "")))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&key.lane),
            escape(key.endpoint.as_deref().unwrap_or("—")),
            key.metric().name(),
            escape(&runs.join(", ")),
            escape(&cell_median(r)),
            r.stats.as_ref().map_or("—".into(), crate::markdown::spread),
            escape(&crate::markdown::server_cpu(r)),
            escape(&r.status.describe())
        );
    }
    out.push_str("</table>\n");
    let people = report.people_rows();
    if !people.is_empty() {
        out.push_str("<h2>People</h2>\n<table class=\"people\"><tr>");
        for column in crate::PEOPLE_COLUMNS {
            let _ = write!(out, "<th>{}</th>", escape(column));
        }
        out.push_str("</tr>\n");
        for row in &people {
            out.push_str("<tr>");
            for c in row.cells() {
                let _ = write!(out, "<td>{}</td>", escape(c));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
    }
    appendix(&mut out, report);
    out.push_str("</body></html>\n");
    out
}

fn appendix(out: &mut String, report: &Report) {
    let env = &report.environment;
    out.push_str("<h2>Environment</h2>\n");
    let json_block = |out: &mut String, title: &str, value: &serde_json::Value| {
        if !value.is_null() {
            let _ = writeln!(
                out,
                "<h3>{title}</h3><pre>{}</pre>",
                escape(&serde_json::to_string_pretty(value).unwrap_or_default())
            );
        }
    };
    // The machine as a short table; the probe's whole record folded below it.
    let rows = report
        .run
        .machine
        .as_ref()
        .map(|m| m.rows())
        .unwrap_or_default();
    if !rows.is_empty() {
        out.push_str("<h3>Machine</h3><table class=\"machine\"><tr><th>Item</th><th>This run's machine</th></tr>");
        for (item, value) in &rows {
            let _ = write!(out, "<tr><td>{item}</td><td>{}</td></tr>", escape(value));
        }
        out.push_str("</table>\n");
    }
    if !env.fingerprint.is_null() {
        let _ = writeln!(
            out,
            "<details><summary>Machine fingerprint (the probe's whole record)</summary><pre>{}</pre></details>",
            escape(&serde_json::to_string_pretty(&env.fingerprint).unwrap_or_default())
        );
    }
    json_block(
        out,
        "Server host (the lanes ran there, the load generators here)",
        &env.server_host,
    );
    let table = |out: &mut String, title: &str, head: &[&str], rows: Vec<Vec<String>>| {
        if rows.is_empty() {
            return;
        }
        let _ = write!(out, "<h3>{title}</h3><table><tr>");
        for h in head {
            let _ = write!(out, "<th>{h}</th>");
        }
        out.push_str("</tr>");
        for row in rows {
            out.push_str("<tr>");
            for c in row {
                let _ = write!(out, "<td>{}</td>", escape(&c));
            }
            out.push_str("</tr>");
        }
        out.push_str("</table>\n");
    };
    table(
        out,
        "Toolchains",
        &["Toolchain", "Version"],
        env.toolchains
            .iter()
            .map(|t| vec![t.name.clone(), t.version.clone()])
            .collect(),
    );
    table(
        out,
        "Sources",
        &["Source", "URL", "Revision"],
        env.sources
            .iter()
            .map(|s| vec![s.id.clone(), s.url.clone(), s.revision.clone()])
            .collect(),
    );
    table(
        out,
        "Tree digests",
        &["Tree", "SHA-256"],
        env.tree_digests
            .iter()
            .map(|t| vec![t.name.clone(), t.sha256.clone()])
            .collect(),
    );
    json_block(out, "Harness parameters", &env.harness);
    if !env.commands.is_empty() {
        let commands: Vec<String> = env.commands.iter().map(|c| command_line(c)).collect();
        let _ = writeln!(
            out,
            "<h3>Commands</h3><pre>{}</pre>",
            escape(&commands.join("\n"))
        );
    }
}
