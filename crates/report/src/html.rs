//! A self-contained HTML page: no scripts, no external files, charts as
//! inline SVG.

use std::fmt::Write;

use reprise_recipe::reading::value;
use reprise_recipe::shown::command_line;
use reprise_verdict::MachineDifference;

use crate::cards::{ClaimCard, listed_deviations, machine_row, not_measured_claims};
use crate::markdown::cell_median;
use crate::svg::{cell_charts, claim_picture, escape};

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
blockquote{color:#5f6368;border-left:3px solid #dadce0;margin:.3em 0;padding-left:.8em}\
.claim-card{border:1px solid #dadce0;border-radius:8px;padding:.6em 1em;margin:.8em 0}.claim-card h3{margin:.2em 0;font-size:15px}\
.claim-card svg{display:block;max-width:100%;height:auto}.claim-card dl{font-size:13px;margin:.3em 0}.claim-card dt{color:#5f6368}.claim-card dd{margin:0 0 .3em 1em}\
.badge{display:inline-block;font-size:12px;padding:0 .5em;border:1px solid currentColor;border-radius:999px}\
.not-measured-claims{list-style:none;padding:0}.not-measured-claims li{margin:.4em 0}";

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
    match &j.machine {
        reprise_verdict::MachineMatch::Matches => {
            let _ = writeln!(
                out,
                "<p><strong>{}.</strong> This machine matches the post's.</p>",
                escape(&report.tally())
            );
        }
        reprise_verdict::MachineMatch::Differs(differences) => {
            let _ = writeln!(
                out,
                "<p><strong>{}.</strong> This machine differs from the post's, so absolute figures are shown for information only:</p>",
                escape(&report.tally())
            );
            machine_table(&mut out, differences);
        }
    }

    let deviations = listed_deviations(j);
    if !deviations.is_empty() {
        out.push_str("<h2>How this run differs from the post</h2>\n<ul class=\"deviations\">");
        for d in deviations {
            let _ = write!(out, "<li>{}</li>", escape(&d.what));
        }
        out.push_str("</ul>\n");
    }
    let _ = writeln!(out, "<h2>Verdicts</h2>");
    if let Some(sentence) = j.sequential_sentence() {
        let _ = writeln!(out, "<p>{}</p>", escape(&sentence));
    }
    claim_cards(&mut out, report);
    out.push_str("<h2>Cells</h2>\n");
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

/// The machine's differences from the post's, once for the report: item,
/// here and the post's; the claims not judged for them point here.
fn machine_table(out: &mut String, differences: &[MachineDifference]) {
    out.push_str(
        "<table class=\"machine-differs\"><tr><th>Item</th><th>Here</th><th>The post's</th></tr>",
    );
    for difference in differences {
        match machine_row(difference) {
            (item, Some((here, post))) => {
                let _ = write!(
                    out,
                    "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
                    escape(item),
                    escape(here),
                    escape(post)
                );
            }
            (words, None) => {
                let _ = write!(out, "<tr><td colspan=\"3\">{}</td></tr>", escape(words));
            }
        }
    }
    out.push_str("</table>\n");
}

/// A card per claim this machine measured (its verdict, its numbers on one
/// axis, one sentence of why, what differs and the full reasoning), then
/// the claims it did not measure, each reason once with the claims it stops.
fn claim_cards(out: &mut String, report: &Report) {
    let j = &report.judgement;
    if j.verdicts.is_empty() {
        out.push_str("<p>The recipe makes no claims.</p>\n");
        return;
    }
    if j.verdicts.iter().any(|v| v.measured.is_some()) {
        let _ = writeln!(
            out,
            "<p>Each claim's picture: the range it accepts shaded, the published number as a line, the measured median's {} interval as a bar with the median as a dot.</p>",
            reprise_recipe::reading::confidence(j.settings.bootstrap.confidence)
        );
    }
    out.push_str("<div class=\"claims\">\n");
    for v in j
        .verdicts
        .iter()
        .filter(|v| v.outcome != reprise_verdict::Outcome::NotMeasured)
    {
        let class = v.outcome.label().replace(' ', "-");
        let _ = write!(
            out,
            "<section class=\"claim-card\" data-claim=\"{}\" data-outcome=\"{class}\"><h3><span class=\"badge {class}\">{}</span> <code>{}</code> <small>{}</small>",
            escape(&v.claim),
            escape(v.outcome.label()),
            escape(&v.claim),
            escape(v.kind.name())
        );
        if let Some(runs) = v.decided_after {
            let _ = write!(out, " <small>decided after {runs} runs</small>");
        }
        let _ = write!(out, "</h3><blockquote>{}</blockquote>", escape(&v.quote));
        out.push_str(&claim_picture(v));
        let card = ClaimCard::of(v);
        let _ = write!(out, "<p class=\"why\">{}</p>", escape(&card.why));
        if card.reasoning.is_some() || !card.differs_in.is_empty() {
            out.push_str("<dl>");
            if !card.differs_in.is_empty() {
                let _ = write!(
                    out,
                    "<dt>Differs from the post in</dt><dd>{} (said above)</dd>",
                    escape(&card.differs_in.join("; "))
                );
            }
            if let Some(reasoning) = &card.reasoning {
                let _ = write!(out, "<dt>Reasoning</dt><dd>{}</dd>", escape(reasoning));
            }
            out.push_str("</dl>");
        }
        out.push_str("</section>\n");
    }
    out.push_str("</div>\n");
    let groups = not_measured_claims(&j.verdicts);
    if !groups.is_empty() {
        out.push_str("<ul class=\"not-measured-claims\">");
        for group in groups {
            let claims: Vec<String> = group
                .claims
                .iter()
                .map(|c| format!("<code>{}</code>", escape(c)))
                .collect();
            let _ = write!(
                out,
                "<li><span class=\"badge not-measured\">not measured here</span> {} {}: {}.</li>",
                escape(&group.why),
                if claims.len() == 1 { "Claim" } else { "Claims" },
                claims.join(", ")
            );
        }
        out.push_str("</ul>\n");
    }
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
