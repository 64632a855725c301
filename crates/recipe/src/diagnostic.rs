//! Errors that point at the recipe text: file, line, column, the offending
//! text, what was expected, and a guess at what was meant.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// A problem found in a recipe, before it is placed in a file.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub span: Range<usize>,
    pub message: String,
    pub expected: Option<String>,
    pub help: Option<String>,
}

impl Problem {
    pub fn new(span: Range<usize>, message: String, expected: Option<String>) -> Self {
        Problem {
            span,
            message,
            expected,
            help: None,
        }
    }

    pub fn with_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }
}

/// How many characters of a line an error shows: a long line (a 10 MB
/// value) is shown as an excerpt around the error, not whole.
const EXCERPT: usize = 200;

/// How many characters of a message, expectation or found text are kept:
/// they quote recipe values, which can be as long as the file.
const TEXT: usize = 400;

/// One error in a recipe file, located for a person to find.
///
/// Every text in it is safe to print on a terminal: control and bidi
/// characters from the recipe are escaped (`\u{1b}`), and long texts are
/// cut to an excerpt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub message: String,
    /// The text at the error's position (on its line, and cut when long).
    pub found: String,
    pub expected: Option<String>,
    /// A suggestion, e.g. "did you mean `clone`?".
    pub help: Option<String>,
    /// The line the error is on, or an excerpt of it around the error when
    /// the line is long.
    pub source_line: String,
    /// 1-based column of the error in `source_line`, in characters as shown.
    pub excerpt_column: usize,
}

/// Where each line of a text starts, to place many errors in one pass.
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// 0-based line index and that line's byte range (without its `\n`).
    fn line_of(&self, offset: usize) -> (usize, Range<usize>) {
        let index = self.starts.partition_point(|s| *s <= offset) - 1;
        let start = self.starts[index];
        let end = self
            .starts
            .get(index + 1)
            .map_or(self.text.len(), |next| next - 1);
        (index, start..end)
    }
}

impl Diagnostic {
    pub(crate) fn locate(file: &Path, text: &str, problem: Problem) -> Self {
        Self::place(file, &Lines::new(text), problem)
    }

    pub(crate) fn place(file: &Path, lines: &Lines<'_>, problem: Problem) -> Self {
        let text = lines.text;
        let start = floor_char_boundary(text, problem.span.start.min(text.len()));
        let end = floor_char_boundary(text, problem.span.end.clamp(start, text.len()));
        let (index, line_range) = lines.line_of(start);
        let line_start = line_range.start;
        let line_end = line_range.end;
        let column = text[line_start..start].chars().count() + 1;
        let found_raw = &text[start..end.min(line_end).max(start)];
        let line_text = text[line_start..line_end]
            .strip_suffix('\r')
            .unwrap_or(&text[line_start..line_end]);
        let (source_line, excerpt_column) =
            excerpt(line_text, (start - line_start).min(line_text.len()));
        Diagnostic {
            file: file.to_path_buf(),
            line: index + 1,
            column,
            message: shown(&problem.message, TEXT),
            found: shown(found_raw, EXCERPT),
            expected: problem.expected.map(|e| shown(&e, TEXT)),
            help: problem.help.map(|h| shown(&h, TEXT)),
            source_line,
            excerpt_column,
        }
    }
}

/// The largest char boundary at or below `at`.
fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `c` as it is shown: itself, or an escape such as `\u{1b}`. A tab is
/// shown as a space so that the caret under a line stays aligned.
fn escaped(c: char, out: &mut String) {
    if c == '\t' {
        out.push(' ');
    } else {
        out.push_str(&crate::shown::escaped(c.encode_utf8(&mut [0; 4])));
    }
}

/// `text` safe to print on one line, cut in the middle when longer than
/// `max` characters.
pub(crate) fn shown(text: &str, max: usize) -> String {
    let count = text.chars().count();
    let mut out = String::new();
    if count <= max {
        text.chars().for_each(|c| escaped(c, &mut out));
    } else {
        let half = max / 2;
        text.chars().take(half).for_each(|c| escaped(c, &mut out));
        out.push_str(&format!(" … ({} characters) … ", count - 2 * half));
        text.chars()
            .skip(count - half)
            .for_each(|c| escaped(c, &mut out));
    }
    out
}

/// The line around byte `at`, at most [`EXCERPT`] characters of it, escaped;
/// and the 1-based column of `at` in what is shown.
fn excerpt(line: &str, at: usize) -> (String, usize) {
    let before = line[..at].chars().count();
    let total = before + line[at..].chars().count();
    let first = if total <= EXCERPT {
        0
    } else {
        before.saturating_sub(EXCERPT / 2).min(total - EXCERPT)
    };
    let mut out = String::new();
    if first > 0 {
        out.push('…');
    }
    let mut column = 0;
    for (i, c) in line.chars().enumerate().skip(first).take(EXCERPT) {
        if i == before {
            column = out.chars().count() + 1;
        }
        escaped(c, &mut out);
    }
    if column == 0 {
        column = out.chars().count() + 1;
    }
    if first + EXCERPT < total {
        out.push('…');
    }
    (out, column)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {}",
            shown(&self.file.display().to_string(), TEXT),
            self.line,
            self.column,
            self.message
        )?;
        let gutter = self.line.to_string().len();
        writeln!(f, "{:gutter$} |", "")?;
        writeln!(f, "{} | {}", self.line, self.source_line)?;
        let room = self
            .source_line
            .chars()
            .count()
            .saturating_sub(self.excerpt_column - 1)
            .max(1);
        let width = self.found.chars().count().clamp(1, room);
        writeln!(
            f,
            "{:gutter$} | {}{}",
            "",
            " ".repeat(self.excerpt_column - 1),
            "^".repeat(width)
        )?;
        if let Some(expected) = &self.expected {
            writeln!(f, "{:gutter$} = expected {expected}", "")?;
        }
        if let Some(help) = &self.help {
            writeln!(f, "{:gutter$} = help: {help}", "")?;
        }
        Ok(())
    }
}

/// The closest candidate to `word`, when one is close enough to be a typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    candidates
        .into_iter()
        // Lengths further apart than the limit cannot be close, and the
        // distance costs length × length: a huge word is compared with nothing.
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance counting an adjacent transposition as one edit (`chekc` → `check`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// Turns the TOML deserializer's error into a problem with a plainer message,
/// the list of what was expected, and a "did you mean".
pub(crate) fn from_toml(error: &toml::de::Error, text: &str) -> Problem {
    let span = error.span().unwrap_or(0..0);
    let message = error.message().trim().to_string();
    let table = enclosing_table(text, span.start);
    // serde: "unknown field `clon`, expected one of `id`, `kind`" / "unknown variant `x`, expected `a` or `b`"
    for (prefix, what) in [("unknown field `", "key"), ("unknown variant `", "value")] {
        if let Some(rest) = message.strip_prefix(prefix) {
            let (word, tail) = rest.split_once('`').unwrap_or((rest, ""));
            let options = backticked(tail);
            let what = match what {
                "value" => match key_before(text, span.start).as_deref() {
                    Some("kind") if table.as_deref() == Some("[[step]]") => "step kind".to_string(),
                    Some(key) => key.to_string(),
                    None => "value".to_string(),
                },
                _ => what.to_string(),
            };
            let place = match (&table, what.as_str()) {
                (Some(table), "key") => format!(" in {table}"),
                _ => String::new(),
            };
            let expected = (!options.is_empty()).then(|| format!("one of {}", options.join(", ")));
            let help = did_you_mean(word, options.iter().map(String::as_str))
                .map(|m| format!("did you mean `{m}`?"));
            return Problem::new(span, format!("unknown {what} `{word}`{place}"), expected)
                .with_help(help);
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or(rest);
        let place = table.map(|t| format!(" in {t}")).unwrap_or_default();
        return Problem::new(span, format!("missing key `{field}`{place}"), None);
    }
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        // TOML datetimes reach serde as a map with one private key.
        let found = if found == "map" && is_datetime(text, &span) {
            "a date or time (TOML datetime)".to_string()
        } else if found == "map" {
            "a table".to_string()
        } else {
            found.to_string()
        };
        let expected = match expected {
            "a string" if found.starts_with("a date") => {
                "a string: the date in quotes, e.g. \"2026-10-16\"".to_string()
            }
            other => other.to_string(),
        };
        return Problem::new(span, format!("wrong type: found {found}"), Some(expected));
    }
    // serde: "invalid value: integer `70000`, expected u16"
    if let Some(rest) = message.strip_prefix("invalid value: integer `")
        && let Some((number, expected)) = rest.split_once("`, expected ")
    {
        let expected = match key_before(text, span.start).as_deref() {
            Some("port") => "a port, from 1 to 65535".to_string(),
            _ => integer_range(expected),
        };
        return Problem::new(
            span,
            format!("number out of range: {number}"),
            Some(expected),
        );
    }
    Problem::new(span, message, None)
}

/// Whether the value at `span` is a TOML datetime.
fn is_datetime(text: &str, span: &std::ops::Range<usize>) -> bool {
    text.get(span.clone())
        .and_then(|value| toml::de::DeValue::parse(value).ok())
        .is_some_and(|v| v.get_ref().is_datetime())
}

/// serde's name for an integer type, as the range of numbers it holds.
fn integer_range(expected: &str) -> String {
    let range = match expected {
        "u8" => "0 to 255",
        "u16" => "0 to 65535",
        "u32" => "0 to 4294967295",
        "u64" => "0 to 18446744073709551615",
        "i64" => "-9223372036854775808 to 9223372036854775807",
        other => return other.to_string(),
    };
    format!("a whole number from {range}")
}

/// `a`, `b` or `c` → [a, b, c]
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The name of the `[table]` or `[[array]]` header above `offset`.
pub(crate) fn enclosing_table(text: &str, offset: usize) -> Option<String> {
    text[..offset.min(text.len())]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.split('#').next().unwrap_or(l).trim().to_string())
}

/// The key of `key = value` when `offset` is in the value.
fn key_before(text: &str, offset: usize) -> Option<String> {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let before = text[start..offset].trim_end();
    let before = before.strip_suffix('=')?.trim_end();
    let key: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    (!key.is_empty()).then(|| key.chars().rev().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_and_only_close() {
        assert_eq!(
            did_you_mean("clon", ["clone", "build", "emit"]),
            Some("clone")
        );
        assert_eq!(
            did_you_mean("sign-in", ["sign_in", "serve"]),
            Some("sign_in")
        );
        assert_eq!(did_you_mean("xyz", ["clone", "build"]), None);
    }

    #[test]
    fn location_is_line_and_character_column() {
        let text = "a = 1\nbé = \"x\"\n";
        let at = text.find("\"x\"").unwrap();
        let d = Diagnostic::locate(
            Path::new("f.toml"),
            text,
            Problem::new(at..at + 3, "m".into(), None),
        );
        assert_eq!((d.line, d.column, d.found.as_str()), (2, 6, "\"x\""));
        assert!(d.to_string().starts_with("f.toml:2:6: m"));
    }
}
