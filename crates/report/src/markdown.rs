//! GitHub-flavoured Markdown, ready to post to a Discussion.

use std::fmt::Write;

use reprise_recipe::reading::{percent, range, value};
use reprise_recipe::shown::command_line;
use reprise_verdict::{CellReading, MachineDifference, MachineMatch, Outcome};

use crate::cards::{ClaimCard, listed_deviations, machine_row, not_measured_claims, text_bar};

use crate::{Exporter, Report, ReportError};

pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn extension(&self) -> &'static str {
        "md"
    }

    fn render(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        Ok(markdown(report).into_bytes())
    }
}

/// Text from a recipe or a run as Markdown shows it, literally: on one
/// line, with every character that could make markup backslash-escaped —
/// a link or an image (`[`, `]`), a tag or an autolink (`<`, `>`: `<b>`,
/// `</details>`), a code span (`` ` ``), a table column (`|`), a character
/// reference (`&#x202e;`, `&lt;`) — so a title, a quote or a deviation
/// cannot change the page around it. Emphasis marks (`*`, `_`, `~`) are
/// left as they are: they can only restyle the text itself, and the
/// redactor, which reads the rendered Markdown, must still find
/// `access_token=` and `/home/user_name` where they are. Usable in a table
/// cell.
pub(crate) fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '[' | ']' | '<' | '>' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '&' if is_reference(&text[i + 1..]) => out.push_str("\\&"),
            c => out.push(c),
        }
    }
    out
}

/// An id as inline code, where it can be one (no backtick, on one line);
/// else as text.
fn code(id: &str) -> String {
    match id.contains(['`', '\n', '\r']) {
        true => text(id),
        false => format!("`{id}`"),
    }
}

/// Whether the text after a `&` makes it a character reference: `#…` or
/// a name ended by `;`.
fn is_reference(after: &str) -> bool {
    if after.starts_with('#') {
        return true;
    }
    let name = after
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(after.len());
    name > 0 && after[name..].starts_with(';')
}

/// A link's address as Markdown reads it whole: the characters that would
/// end it percent-encoded (`check` lets only http(s) addresses through).
fn link_address(url: &str) -> String {
    url.replace('(', "%28")
        .replace(')', "%29")
        .replace(' ', "%20")
        .replace('<', "%3C")
        .replace('>', "%3E")
}

fn machine_line(machine: &MachineMatch) -> String {
    match machine {
        MachineMatch::Matches => {
            "This machine matches the post's: absolute figures are judged.".into()
        }
        MachineMatch::Differs(_) => {
            // Which claims were judged the verdicts below say, claim by claim.
            "This machine differs from the post's, so absolute figures are shown for information only:".into()
        }
    }
}

/// The machine's differences from the post's, once for the report: item,
/// here and the post's; the claims not judged for them point here.
fn machine_table(out: &mut String, differences: &[MachineDifference]) {
    let _ = writeln!(out, "| Item | Here | The post's |\n|---|---|---|");
    for difference in differences {
        match machine_row(difference) {
            (item, Some((here, post))) => {
                let _ = writeln!(out, "| {} | {} | {} |", text(item), text(here), text(post));
            }
            (words, None) => {
                let _ = writeln!(out, "| {} | | |", text(words));
            }
        }
    }
    out.push('\n');
}

/// A section per claim this machine measured (its verdict, its numbers on
/// one line, one sentence of why, what differs and the full reasoning),
/// then the claims it did not measure, each reason once with the claims it
/// stops.
fn claim_sections(out: &mut String, report: &Report) {
    let j = &report.judgement;
    if j.verdicts.is_empty() {
        let _ = writeln!(out, "The recipe makes no claims.\n");
        return;
    }
    if j.verdicts.iter().any(|v| v.measured.is_some()) {
        let _ = writeln!(
            out,
            "Each claim's line: the range it accepts as `=`, the measured median's {} interval in brackets and the median as `●`.\n",
            reprise_recipe::reading::confidence(j.settings.bootstrap.confidence)
        );
    }
    for v in j
        .verdicts
        .iter()
        .filter(|v| v.outcome != Outcome::NotMeasured)
    {
        let decided = v
            .decided_after
            .map(|n| format!(" (decided after {n} runs)"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "### {}: {}{decided}\n\n> {}\n",
            code(&v.claim),
            v.outcome.label(),
            text(&v.quote)
        );
        if let Some(bar) = text_bar(v) {
            let _ = writeln!(out, "`{bar}`\n");
        }
        let card = ClaimCard::of(v);
        let _ = writeln!(out, "{}\n", text(&card.why));
        if !card.differs_in.is_empty() {
            let _ = writeln!(
                out,
                "- Differs from the post in: {} (said above)",
                text(&card.differs_in.join("; "))
            );
        }
        if let Some(reasoning) = &card.reasoning {
            let _ = writeln!(out, "- Reasoning: {}", text(reasoning));
        }
        if !card.differs_in.is_empty() || card.reasoning.is_some() {
            out.push('\n');
        }
    }
    let groups = not_measured_claims(&j.verdicts);
    for group in &groups {
        let claims: Vec<String> = group.claims.iter().map(|c| code(c)).collect();
        let _ = writeln!(
            out,
            "- **Not measured here:** {} {}: {}.",
            text(&group.why),
            if claims.len() == 1 { "Claim" } else { "Claims" },
            claims.join(", ")
        );
    }
    if !groups.is_empty() {
        out.push('\n');
    }
}

pub(crate) fn cell_median(reading: &CellReading) -> String {
    let unit = reading.cell.key.metric().unit();
    reading
        .stats
        .as_ref()
        .map_or("—".into(), |s| value(s.median, unit))
}

fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let run = &report.run;
    let j = &report.judgement;
    let _ = writeln!(out, "# Reprise: {}\n", text(&report.headline()));
    let post = match &run.post_url {
        Some(url) => format!("[{}]({})", text(&run.title), link_address(url)),
        None => text(&run.title),
    };
    let _ = writeln!(
        out,
        "Reproduction of {post} by {} ({}{}), recipe `{}`, run `{}` made {}.\n",
        text(&run.author),
        text(&run.post_date),
        run.post_run
            .as_ref()
            .map(|r| format!(", {}", text(r)))
            .unwrap_or_default(),
        run.recipe,
        run.id,
        run.created_at
    );
    let _ = writeln!(
        out,
        "**{}.** {}\n",
        report.tally(),
        machine_line(&j.machine)
    );
    if let MachineMatch::Differs(differences) = &j.machine {
        machine_table(&mut out, differences);
    }

    let deviations = listed_deviations(j);
    if !deviations.is_empty() {
        let _ = writeln!(out, "## How this run differs from the post\n");
        for d in deviations {
            let _ = writeln!(out, "- {}", text(&d.what));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "## Verdicts\n");
    if let Some(sentence) = j.sequential_sentence() {
        let _ = writeln!(out, "{sentence}\n");
    }
    claim_sections(&mut out, report);

    let _ = writeln!(out, "## Cells\n");
    if j.cells.is_empty() {
        let _ = writeln!(out, "No cells were measured.");
    } else {
        let _ = writeln!(
            out,
            "| Lane | Endpoint | Metric | Runs | Median | Min – max | CV | Server CPU | Published | Status |\n|---|---|---|---|---|---|---|---|---|---|"
        );
    }
    for reading in &j.cells {
        let key = &reading.cell.key;
        let unit = key.metric().unit();
        let (min_max, cv, runs) = match &reading.stats {
            Some(s) => (
                range(s.min, s.max, unit),
                spread(s),
                reading.cell.runs.len().to_string(),
            ),
            None => ("—".into(), "—".into(), reading.cell.runs.len().to_string()),
        };
        let published = report
            .figures_of(key)
            .iter()
            .filter_map(|f| {
                f.published.map(|p| match &f.other_size {
                    Some(other) => format!("{} (`{}`; {other})", value(p, unit), f.figure),
                    None => format!("{} (`{}`)", value(p, unit), f.figure),
                })
            })
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            text(&key.lane),
            text(key.endpoint.as_deref().unwrap_or("—")),
            key.metric().name(),
            runs,
            cell_median(reading),
            min_max,
            cv,
            server_cpu(reading),
            if published.is_empty() {
                "—".into()
            } else {
                published
            },
            text(&reading.status.describe())
        );
    }
    out.push('\n');
    let people = report.people_rows();
    if !people.is_empty() {
        let _ = writeln!(
            out,
            "## People\n\nEach step of simulated people, judged served or not by the recipe's criterion.\n"
        );
        let _ = writeln!(
            out,
            "| {} |\n|{}",
            crate::PEOPLE_COLUMNS.join(" | "),
            "---|".repeat(crate::PEOPLE_COLUMNS.len())
        );
        for row in &people {
            let cells: Vec<String> = row.cells().iter().map(|c| text(c)).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    appendix(&mut out, report);
    let _ = writeln!(
        out,
        "\n## Machine-readable result\n\nFor `reprise community`, which reads everyone's results back (docs/community.md).\n\n{}",
        crate::ResultBlock::of(report).fenced()
    );
    out
}

fn appendix(out: &mut String, report: &Report) {
    let env = &report.environment;
    let _ = writeln!(out, "## Environment\n");
    // The machine as a short table; the probe's whole record folded below it.
    let rows = report
        .run
        .machine
        .as_ref()
        .map(|m| m.rows())
        .unwrap_or_default();
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "### Machine\n\n| Item | This run's machine |\n|---|---|"
        );
        for (item, value) in &rows {
            let _ = writeln!(out, "| {item} | {} |", text(value));
        }
        out.push('\n');
    }
    if !env.fingerprint.is_null() {
        let _ = writeln!(
            out,
            "<details><summary>Machine fingerprint (the probe's whole record)</summary>\n\n```json\n{}\n```\n\n</details>\n",
            serde_json::to_string_pretty(&env.fingerprint).unwrap_or_default()
        );
    }
    if !env.server_host.is_null() {
        let _ = writeln!(
            out,
            "### Server host

The lanes ran on another machine, the load generators on this one.

```json
{}
```
",
            serde_json::to_string_pretty(&env.server_host).unwrap_or_default()
        );
    }
    if !env.toolchains.is_empty() {
        let _ = writeln!(out, "### Toolchains\n\n| Toolchain | Version |\n|---|---|");
        for t in &env.toolchains {
            let _ = writeln!(out, "| {} | {} |", text(&t.name), text(&t.version));
        }
        out.push('\n');
    }
    if !env.sources.is_empty() {
        let _ = writeln!(
            out,
            "### Sources\n\n| Source | URL | Revision |\n|---|---|---|"
        );
        for s in &env.sources {
            let _ = writeln!(
                out,
                "| {} | {} | `{}` |",
                text(&s.id),
                text(&s.url),
                text(&s.revision)
            );
        }
        out.push('\n');
    }
    if !env.tree_digests.is_empty() {
        let _ = writeln!(out, "### Tree digests\n\n| Tree | SHA-256 |\n|---|---|");
        for t in &env.tree_digests {
            let _ = writeln!(out, "| {} | `{}` |", text(&t.name), text(&t.sha256));
        }
        out.push('\n');
    }
    if !env.harness.is_null() {
        let _ = writeln!(
            out,
            "### Harness parameters\n\n```json\n{}\n```\n",
            serde_json::to_string_pretty(&env.harness).unwrap_or_default()
        );
    }
    if !env.commands.is_empty() {
        let _ = writeln!(out, "### Commands\n\n```sh");
        for c in &env.commands {
            let _ = writeln!(out, "{}", command_line(c));
        }
        let _ = writeln!(out, "```\n");
    }
    let s = &report.judgement.settings;
    let _ = writeln!(
        out,
        "### How verdicts were reached\n\nMedians of runs; intervals are {} intervals, each the wider of a bootstrap percentile interval ({} resamples, seed {:#x}, over {}) and a Student-t interval on the runs' logarithms (the bootstrap alone is too narrow over few runs); a cell is unstable past a {:.0}% coefficient of variation and client-bound past {:.0}% load-generator CPU; a cell with any error is no data. A claim is inconclusive when its cells were measured but its interval straddles the band's edge (or, for an ordering, a pair's ratio interval reaches one), no data when a cell it rests on failed a gate (errors, a run without a number, a saturated load generator), and not measured when no cell measured one of its figures (the lane cannot be run, was skipped, or did not measure it).",
        reprise_recipe::reading::confidence(s.bootstrap.confidence),
        s.bootstrap.resamples,
        s.bootstrap.seed,
        if s.rounds_alternate {
            "rounds of alternating lanes"
        } else {
            "each cell's runs independently"
        },
        s.thresholds.unstable_cv * 100.0,
        s.thresholds.client_bound_cpu * 100.0
    );
}

/// A cell's spread as the reports' CV column reads it: `1.2%`, `14.2% ⚠
/// unstable`, or `one run` where there is no spread to read.
pub(crate) fn spread(s: &reprise_verdict::CellStats) -> String {
    match s.spread() {
        Some(cv) if s.unstable => format!("{} ⚠ unstable", percent(cv)),
        Some(cv) => percent(cv),
        None => "one run".into(),
    }
}

/// What the cell's server got from the machine, over its runs: `83% of 1
/// CPU, CPU-bound`; `—` where it was not read.
pub(crate) fn server_cpu(reading: &reprise_verdict::CellReading) -> String {
    reprise_verdict::LaneCpu::of("", &reading.cell).map_or("—".into(), |c| c.words())
}
