//! A post's result, read as data from a stranger: the one
//! ```` ```reprise-result vN ```` block found in its body (nothing else of
//! the body is kept, and nothing of it is rendered or run), parsed against
//! schema v1 and checked — sizes, counts, every number finite and in range,
//! every id shaped as an id — with every text escaped for a terminal.

use reprise_recipe::shown::escaped;
use reprise_report::{FENCE_TAG, ResultBlock, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};

/// A body longer than this is not read for a block (GitHub keeps bodies to
/// 65,536 characters; more came from something that is not GitHub).
pub const MAX_BODY: usize = 256 * 1024;

/// A block longer than this is not parsed.
pub const MAX_BLOCK: usize = 64 * 1024;

/// The longest text a block may hold in one field.
const MAX_TEXT: usize = 500;
const MAX_CLAIMS: usize = 500;
const MAX_CELLS: usize = 2_000;
const MAX_DEVIATIONS: usize = 100;
/// No measurement, ratio or spread here comes near it; a larger number is
/// a made-up one.
const MAX_NUMBER: f64 = 1e12;

/// What a discussion's body held, as the cache keeps it: the block's text
/// and version, never the rest of the body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "found", rename_all = "snake_case")]
pub enum Found {
    /// No result block: a discussion of another kind.
    Nothing,
    /// One block; `version` as its fence wrote it (`v1`).
    Block { version: String, text: String },
    /// More than one block: which one is the post's result cannot be said.
    Several,
    /// A body or block past [`MAX_BODY`] / [`MAX_BLOCK`].
    TooLarge { bytes: usize },
    /// A block that is never closed.
    Unclosed,
}

/// Why a post's block is not counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "why", content = "detail", rename_all = "snake_case")]
pub enum Unreadable {
    /// Not JSON of schema v1, or a value out of range; what was wrong.
    Malformed(String),
    /// A block of another schema version (as its fence says).
    OtherSchema(String),
    /// More than one block in one post.
    Several,
    /// Past the size caps.
    TooLarge,
}

impl Unreadable {
    /// As a person reads it.
    pub fn describe(&self) -> String {
        match self {
            Unreadable::Malformed(why) => format!("malformed: {why}"),
            Unreadable::OtherSchema(v) => {
                format!("another schema ({FENCE_TAG} {v}; this Reprise reads v{SCHEMA_VERSION})")
            }
            Unreadable::Several => "more than one result block in one post".into(),
            Unreadable::TooLarge => "larger than a result can be".into(),
        }
    }
}

/// Finds the result block in a discussion's body. Only a fence of its own
/// line at the top level of the body counts (```` ```reprise-result v1 ````
/// at the line's start), closed by a line of ```` ``` ````; one inside
/// another fenced block (```` ```` ```` or `~~~`), a quote (`>`), an
/// indented code block, an HTML comment, an HTML `<blockquote>` or `<pre>`
/// is a quotation, shown as text on GitHub, not the post's result. The body is not otherwise read.
pub fn find_block(body: &str) -> Found {
    if body.len() > MAX_BODY {
        return Found::TooLarge { bytes: body.len() };
    }
    let mut found = None;
    let mut lines = body.split('\n');
    // What a line is inside of, where it is not the top level.
    let mut inside: Option<Inside> = None;
    let mut html = Html::default();
    while let Some(line) = lines.next() {
        let line = line.trim_end_matches('\r');
        match inside {
            Some(Inside::Fence { mark, length }) => {
                if closes(line, mark, length) {
                    inside = None;
                }
                continue;
            }
            Some(Inside::Comment) => {
                if line.contains("-->") {
                    inside = None;
                }
                continue;
            }
            None => {}
        }
        // Inside an HTML `<blockquote>` or `<pre>`, a line is a quotation
        // (or raw text); the tags of this line count from the next.
        let quoted = html.quoted();
        let raw = html.pre > 0;
        html.read(line);
        if raw {
            continue;
        }
        if quoted {
            inside = opens(line);
            continue;
        }
        let Some(version) = line
            .strip_prefix("```")
            .filter(|rest| !rest.starts_with('`'))
            .and_then(|rest| rest.trim().strip_prefix(FENCE_TAG))
            .map(str::trim)
        else {
            inside = opens(line);
            continue;
        };
        if found.is_some() {
            return Found::Several;
        }
        let mut text = String::new();
        let mut closed = false;
        for line in lines.by_ref() {
            if closes(line.trim_end_matches('\r'), '`', 3) {
                closed = true;
                break;
            }
            text.push_str(line);
            text.push('\n');
            if text.len() > MAX_BLOCK {
                return Found::TooLarge { bytes: text.len() };
            }
        }
        if !closed {
            return Found::Unclosed;
        }
        // Kept in the cache: no more than its own bytes.
        text.shrink_to_fit();
        found = Some(Found::Block {
            version: version.chars().take(20).collect(),
            text,
        });
    }
    found.unwrap_or(Found::Nothing)
}

/// The HTML blocks a line is inside: `<blockquote>` (a quotation, whose
/// Markdown GitHub renders inside the quote) and `<pre>` (raw text), each
/// counted as they nest, their tags in any case.
#[derive(Default)]
struct Html {
    blockquote: usize,
    pre: usize,
}

impl Html {
    fn quoted(&self) -> bool {
        self.blockquote > 0 || self.pre > 0
    }

    /// Counts the tags a line opens and closes, in order.
    fn read(&mut self, line: &str) {
        let lower = line.to_ascii_lowercase();
        let mut rest = lower.as_str();
        while let Some(at) = rest.find('<') {
            rest = &rest[at + 1..];
            let (closing, name) = match rest.strip_prefix('/') {
                Some(name) => (true, name),
                None => (false, rest),
            };
            for (tag, count) in [("blockquote", &mut self.blockquote), ("pre", &mut self.pre)] {
                let ends = name
                    .strip_prefix(tag)
                    .map(|after| after.is_empty() || after.starts_with(['>', ' ', '\t', '/']));
                if ends == Some(true) {
                    *count = if closing {
                        count.saturating_sub(1)
                    } else {
                        *count + 1
                    };
                }
            }
        }
    }
}

/// A block whose lines Markdown does not read as the body's own.
#[derive(Clone, Copy)]
enum Inside {
    /// A fenced code block: its fence character and length.
    Fence { mark: char, length: usize },
    /// An HTML comment, until its `-->`.
    Comment,
}

/// A line with at most three spaces before what it says (four make it an
/// indented code block's); `None` for a quoted or indented line.
fn unindented(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches(' ');
    (line.len() - rest.len() <= 3 && !rest.starts_with('\t')).then_some(rest)
}

/// What a top-level line opens: a fence (three or more backticks, with no
/// backtick after them, or tildes), or an HTML comment that does not close
/// on its own line.
fn opens(line: &str) -> Option<Inside> {
    let rest = unindented(line)?;
    if let Some(comment) = rest.strip_prefix("<!--") {
        return (!comment.contains("-->")).then_some(Inside::Comment);
    }
    let mark = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = rest.chars().take_while(|c| *c == mark).count();
    let info = &rest[length..];
    (length >= 3 && !(mark == '`' && info.contains('`'))).then_some(Inside::Fence { mark, length })
}

/// Whether `line` closes a fence of `length` `mark`s: as many or more of
/// them, and nothing after but spaces.
fn closes(line: &str, mark: char, length: usize) -> bool {
    let Some(rest) = unindented(line) else {
        return false;
    };
    let run = rest.chars().take_while(|c| *c == mark).count();
    run >= length && rest[run..].trim().is_empty()
}

/// The result a post's block holds, checked, every text escaped; `None` for
/// a discussion without one.
pub fn read(found: &Found) -> Option<Result<ResultBlock, Unreadable>> {
    match found {
        Found::Nothing => None,
        Found::Several => Some(Err(Unreadable::Several)),
        Found::TooLarge { .. } => Some(Err(Unreadable::TooLarge)),
        Found::Unclosed => Some(Err(Unreadable::Malformed(
            "the block is never closed".into(),
        ))),
        Found::Block { version, text } => Some(read_block(version, text)),
    }
}

fn read_block(version: &str, text: &str) -> Result<ResultBlock, Unreadable> {
    if version != format!("v{SCHEMA_VERSION}") {
        return Err(Unreadable::OtherSchema(escaped(version).into_owned()));
    }
    if text.len() > MAX_BLOCK {
        return Err(Unreadable::TooLarge);
    }
    let block: ResultBlock = serde_json::from_str(text).map_err(|e| {
        // serde's message names the field and line, never the value.
        Unreadable::Malformed(escaped(&e.to_string()).chars().take(200).collect())
    })?;
    check(&block).map_err(Unreadable::Malformed)?;
    Ok(block.map_text(&|text| escaped(text).into_owned()))
}

/// Every count, id, number and text of a block against schema v1's bounds.
fn check(block: &ResultBlock) -> Result<(), String> {
    if !is_id(&block.recipe) {
        return Err("the recipe is not an id".into());
    }
    if let Some(sha) = &block.recipe_sha256
        && !(sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err("recipe_sha256 is not a SHA-256".into());
    }
    if block.claims.len() > MAX_CLAIMS
        || block.cells.len() > MAX_CELLS
        || block.deviations.len() > MAX_DEVIATIONS
    {
        return Err("more claims, cells or deviations than a recipe has".into());
    }
    let m = &block.machine;
    let texts = [&block.reprise, &block.run, &block.created_at]
        .into_iter()
        .chain(block.deviations.iter().flat_map(|d| [&d.kind, &d.what]))
        .chain(block.claims.iter().flat_map(|c| [&c.id, &c.kind, &c.unit]))
        .chain(
            block
                .cells
                .iter()
                .flat_map(|c| [&c.lane, &c.metric, &c.status]),
        )
        .chain(block.cells.iter().filter_map(|c| c.endpoint.as_ref()))
        .chain(
            [
                &m.cpu,
                &m.vendor,
                &m.governor,
                &m.os,
                &m.kernel,
                &m.arch,
                &m.hypervisor,
            ]
            .into_iter()
            .flatten(),
        );
    for text in texts {
        if text.chars().count() > MAX_TEXT {
            return Err(format!("a text longer than {MAX_TEXT} characters"));
        }
    }
    let mut ids = std::collections::HashSet::new();
    for claim in &block.claims {
        if !is_id(&claim.id) {
            return Err("a claim's id is not an id".into());
        }
        if !ids.insert(claim.id.as_str()) {
            return Err(format!("claim {} is judged twice", claim.id));
        }
        let numbers = claim
            .published
            .into_iter()
            .chain(claim.band.into_iter().flatten())
            .chain(
                claim
                    .measured
                    .into_iter()
                    .flat_map(|m| [m.estimate, m.low, m.high]),
            );
        check_numbers(numbers, &claim.id)?;
        if claim.band.is_some_and(|[low, high]| low > high)
            || claim.measured.is_some_and(|m| m.low > m.high)
        {
            return Err(format!(
                "claim {}: an interval's low is above its high",
                claim.id
            ));
        }
    }
    let mut keys = std::collections::HashSet::new();
    for cell in &block.cells {
        if !keys.insert((&cell.lane, &cell.endpoint, &cell.metric)) {
            return Err(format!(
                "cell {} is measured twice",
                escaped(&cell.lane.chars().take(60).collect::<String>())
            ));
        }
        let numbers = cell
            .median
            .into_iter()
            .chain(cell.interval.into_iter().flatten());
        check_numbers(numbers, &cell.lane)?;
        if cell.interval.is_some_and(|[low, high]| low > high) || cell.runs > 100_000 {
            return Err(format!(
                "cell {}: an impossible interval or count",
                cell.lane
            ));
        }
    }
    let counts = [m.cores, m.threads].into_iter().flatten();
    let sizes = [m.min_mhz, m.max_mhz].into_iter().flatten();
    if counts.into_iter().any(|n| n > 100_000)
        || sizes.into_iter().any(|n| n > 100_000)
        || m.memory_mib.is_some_and(|n| n > 1 << 40)
    {
        return Err("the machine's numbers are out of range".into());
    }
    Ok(())
}

fn check_numbers(numbers: impl Iterator<Item = f64>, what: &str) -> Result<(), String> {
    for n in numbers {
        if !n.is_finite() || !(0.0..=MAX_NUMBER).contains(&n) {
            return Err(format!(
                "{}: a number out of range",
                escaped(&what.chars().take(60).collect::<String>())
            ));
        }
    }
    Ok(())
}

/// A recipe's or claim's id: ASCII letters, digits, `-`, `_` and `.`, as
/// recipes name them.
fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 100
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_counts_only_on_a_line_of_its_own_and_must_close() {
        let body = "text ```reprise-result v1 not a fence\n```reprise-result v1\n{}\n```\nafter";
        assert_eq!(
            find_block(body),
            Found::Block {
                version: "v1".into(),
                text: "{}\n".into()
            }
        );
        assert_eq!(find_block("```reprise-result v1\n{}\n"), Found::Unclosed);
        assert_eq!(
            find_block("```reprise-result v1\n{}\n```\n```reprise-result v1\n{}\n```\n"),
            Found::Several
        );
        assert_eq!(find_block("# A question\n```json\n{}\n```"), Found::Nothing);
    }

    #[test]
    fn a_block_quoted_in_another_fence_a_quote_or_a_comment_is_not_the_post_s() {
        let block = "```reprise-result v1\n{}\n```\n";
        for quoted in [
            format!("Ana posted:\n````markdown\n{block}````\n"),
            format!("~~~\n{block}~~~\n"),
            format!("> Ana posted:\n> {}", block.replace('\n', "\n> ")),
            format!("Ana posted:\n\n    {}", block.replace('\n', "\n    ")),
            format!("<!--\n{block}-->\n"),
            // In HTML quotes and preformatted text, as GitHub renders them.
            format!("Quoting ana:\n\n<blockquote>\n\n{block}\n</blockquote>\n"),
            format!("Quoting ana:\n<blockquote>\n{block}</blockquote>\n"),
            format!(
                "<BlockQuote cite=\"x\"><blockquote>\n</blockquote>\n\n{block}\n</BLOCKQUOTE>\n"
            ),
            format!("<pre>\n\n{block}\n</pre>\n"),
            // A fence left open runs to the end of the body.
            format!("````\n{block}"),
        ] {
            assert_eq!(find_block(&quoted), Found::Nothing, "{quoted}");
        }
        // Quoting another's result beside one's own: one's own is read.
        let quote = format!("> {}", block.trim_end().replace('\n', "\n> "));
        let own = format!("````\n{block}````\n{quote}\n\nMine:\n{block}");
        assert!(matches!(find_block(&own), Found::Block { .. }), "{own}");
        // After a quote closes, and in a collapsed `<details>`, it is one's own.
        for own in [
            format!("<blockquote>\n\n{block}\n</blockquote>\n\nMine:\n\n{block}"),
            format!("<pre>```</pre>\n<blockquote><pre>x</pre></blockquote>\n{block}"),
            format!("<details><summary>JSON</summary>\n\n{block}\n</details>\n"),
            format!("a <blockquotes> tag is no quote\n{block}"),
            format!("<pre>\n````\n</pre>\n{block}"),
        ] {
            assert!(matches!(find_block(&own), Found::Block { .. }), "{own}");
        }
        // A longer fence closes the block; a shorter one does not close a longer fence.
        assert_eq!(
            find_block("```reprise-result v1\n{}\n````\n"),
            Found::Block {
                version: "v1".into(),
                text: "{}\n".into()
            }
        );
        assert_eq!(
            find_block(&format!("````\n```\n{block}````\n")),
            Found::Nothing
        );
    }
}
