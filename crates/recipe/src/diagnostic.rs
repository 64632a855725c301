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

/// One error in a recipe file, located for a person to find.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub message: String,
    /// The text at the error's position.
    pub found: String,
    pub expected: Option<String>,
    /// A suggestion, e.g. "did you mean `clone`?".
    pub help: Option<String>,
    /// The whole line the error is on.
    pub source_line: String,
}

impl Diagnostic {
    pub(crate) fn locate(file: &Path, text: &str, problem: Problem) -> Self {
        let start = problem.span.start.min(text.len());
        let end = problem.span.end.clamp(start, text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = text[..start].matches('\n').count() + 1;
        let column = text[line_start..start].chars().count() + 1;
        let found_end = end.min(line_end).max(start);
        Diagnostic {
            file: file.to_path_buf(),
            line,
            column,
            message: problem.message,
            found: text[start..found_end].to_string(),
            expected: problem.expected,
            help: problem.help,
            source_line: text[line_start..line_end]
                .trim_end_matches('\r')
                .to_string(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )?;
        let gutter = self.line.to_string().len();
        writeln!(f, "{:gutter$} |", "")?;
        writeln!(f, "{} | {}", self.line, self.source_line)?;
        let width = self.found.chars().count().max(1);
        writeln!(
            f,
            "{:gutter$} | {}{}",
            "",
            " ".repeat(self.column - 1),
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
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
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
        return Problem::new(
            span,
            format!("wrong type: found {found}"),
            Some(expected.to_string()),
        );
    }
    Problem::new(span, message, None)
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
