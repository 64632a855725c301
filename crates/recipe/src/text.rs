//! What characters a recipe's text may hold, checked on every key and every
//! string of the file, whatever table it is in: the consent plan, `show`,
//! logs and reports print them, so none may carry a terminal escape, a bidi
//! override that reorders what is read, a line break that forges a line, or
//! (in a one-line field: an id, a name, a command, a path) an invisible
//! character ([`crate::shown::is_invisible`]: a format character, a variation
//! selector, a Hangul filler…) that prints as nothing, so that
//! `nginx\u{200b}` reads as `nginx`.
//!
//! Prose (a post's summary, a step's reason, a quoted sentence) may span
//! lines; a file's content and a request body may also hold tabs; everything
//! else is a single line.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diagnostic::Problem;
use crate::shown::{is_bidi_control, is_combining_mark, is_invisible, is_space_like};

/// How many lines a string may span, by its key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// An id, a name, a path, an argument, a URL: one line.
    Line,
    /// Prose: line breaks, nothing else.
    Prose,
    /// A file's content or a request body: line breaks and tabs.
    Content,
}

impl Shape {
    fn of(key: &str) -> Shape {
        match key {
            "summary" | "why" | "quote" | "unknowns" | "not_runnable" | "unpinned" | "unknown"
            | "purpose" | "because" => Shape::Prose,
            "content" | "body" => Shape::Content,
            _ => Shape::Line,
        }
    }
}

/// A problem for the first character of each key or string that may not be
/// there.
pub(crate) fn check(root: &Spanned<DeTable<'_>>, text: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    table(root.get_ref(), text, &mut problems);
    problems
}

fn table(t: &DeTable<'_>, text: &str, out: &mut Vec<Problem>) {
    for (key, value) in t.iter() {
        if let Some(c) = first_bad(key.get_ref(), Shape::Line) {
            out.push(problem(text, key.span(), c, "a key", Shape::Line));
        }
        walk(value, key.get_ref(), text, out);
    }
}

fn walk(value: &Spanned<DeValue<'_>>, key: &str, text: &str, out: &mut Vec<Problem>) {
    match value.get_ref() {
        DeValue::String(s) => {
            let shape = Shape::of(key);
            if let Some(c) = first_bad(s, shape) {
                let what = format!("`{}`", crate::diagnostic::shown(key, 40));
                out.push(problem(text, value.span(), c, &what, shape));
            }
        }
        DeValue::Array(items) => {
            for item in items {
                walk(item, key, text, out);
            }
        }
        DeValue::Table(t) => table(t, text, out),
        DeValue::Integer(_) | DeValue::Float(_) | DeValue::Boolean(_) | DeValue::Datetime(_) => {}
    }
}

/// The first character of `s` that may not be there.
fn first_bad(s: &str, shape: Shape) -> Option<char> {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let bad = match c {
            '\n' | '\u{2028}' | '\u{2029}' => shape == Shape::Line,
            '\t' => shape != Shape::Content,
            // Only as half of a CRLF line break: alone it moves the cursor
            // back over what was printed.
            '\r' => shape == Shape::Line || chars.peek() != Some(&'\n'),
            c => {
                c.is_control()
                    || is_bidi_control(c)
                    || (shape == Shape::Line
                        && (is_invisible(c) || is_space_like(c) || is_combining_mark(c)))
            }
        };
        if bad {
            return Some(c);
        }
    }
    None
}

fn problem(text: &str, span: Range<usize>, c: char, what: &str, shape: Shape) -> Problem {
    let name = match c {
        '\n' | '\u{2028}' | '\u{2029}' => "a line break",
        '\r' => "a carriage return",
        '\t' => "a tab",
        '\u{1b}' => "an escape character (ESC)",
        '\u{7f}' => "a delete character (DEL)",
        c if is_bidi_control(c) => "a bidi control character",
        c if is_invisible(c) => "an invisible character",
        c if is_space_like(c) => "a blank that is not a space",
        c if is_combining_mark(c) => "a combining mark",
        _ => "a control character",
    };
    // Point at the character itself when the file holds it as written; an
    // escape such as `\u001b` is found by pointing at the string.
    let at = text
        .get(span.clone())
        .and_then(|raw| raw.find(c))
        .map_or(span.clone(), |i| {
            span.start + i..span.start + i + c.len_utf8()
        });
    let expected = match shape {
        Shape::Line => {
            "a single line of visible text: no line break, tab, escape, invisible character, blank other than a space, or combining mark"
        }
        Shape::Prose => "text without control characters (line breaks are allowed here)",
        Shape::Content => "text without control characters (line breaks and tabs are allowed here)",
    };
    Problem::new(
        at,
        format!(
            "{what} holds {name} (U+{:04X}), which could change what a reader sees",
            c as u32
        ),
        Some(expected.into()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<Problem> {
        check(&DeTable::parse(text).unwrap(), text)
    }

    #[test]
    fn prose_may_span_lines_and_everything_else_is_one_line() {
        assert!(problems("why = \"a\\nb\"\nquote = \"x\\r\\ny\"").is_empty());
        assert!(problems("content = \"a:\\n\\tmake\\r\\n\"").is_empty());
        assert_eq!(problems("quote = \"a\\tb\"").len(), 1, "a tab in prose");
        assert_eq!(problems("id = \"a\\nb\"").len(), 1);
        assert_eq!(problems("command = [\"sh\", \"a\\tb\"]").len(), 1);
        assert_eq!(problems("why = \"a\\rb\"").len(), 1, "a lone CR");
    }

    #[test]
    fn escapes_and_bidi_controls_are_refused_everywhere_even_in_prose() {
        for bad in ["\\u001b[2J", "\\u202e", "\\u2066", "\\u007f", "\\u0085"] {
            for key in ["why", "id", "\"env key\""] {
                let text = format!("{key} = \"ok{bad}\"");
                assert_eq!(problems(&text).len(), 1, "{text}");
            }
            let text = format!("[x]\n\"k{bad}\" = \"v\"");
            assert_eq!(problems(&text).len(), 1, "{text}");
        }
    }

    #[test]
    fn invisible_format_characters_are_refused_in_one_line_fields() {
        // Zero-width space, word joiner, soft hyphen, a tag character, BOM.
        for bad in ["\\u200b", "\\u2060", "\\u00ad", "\\U000E0041", "\\ufeff"] {
            for key in ["id", "name", "command", "\"env key\""] {
                let text = format!("{key} = \"nginx{bad}\"");
                let p = problems(&text);
                assert_eq!(p.len(), 1, "{text}");
                assert!(
                    p[0].message.contains("an invisible character"),
                    "{}",
                    p[0].message
                );
            }
            let text = format!("[x]\n\"k{bad}\" = \"v\"");
            assert_eq!(problems(&text).len(), 1, "{text}");
        }
        // Prose quoted from a post may keep a joiner (emoji, scripts that need it).
        assert!(problems("quote = \"a\\u200db\"").is_empty());
    }

    #[test]
    fn blanks_that_are_not_spaces_and_combining_marks_are_refused_in_one_line_fields() {
        for (bad, name) in [
            ("\\u00a0", "a blank that is not a space"),
            ("\\u2007", "a blank that is not a space"),
            ("\\u3000", "a blank that is not a space"),
            ("\\u2800", "a blank that is not a space"),
            ("\\u0338", "a combining mark"),
        ] {
            for key in ["id", "name", "command", "\"env key\""] {
                let text = format!("{key} = \"EPYC 77{bad}63\"");
                let p = problems(&text);
                assert_eq!(p.len(), 1, "{text}");
                assert!(p[0].message.contains(name), "{}", p[0].message);
            }
            // Prose may hold them (a quote's no-break space); shown, they fold or escape.
            assert!(problems(&format!("quote = \"20{bad}s\"")).is_empty());
        }
    }

    #[test]
    fn a_literal_character_is_pointed_at() {
        let text = "[x]\nid = \"ab\u{202e}cd\"\n";
        let p = problems(text);
        assert_eq!(p[0].span.start, text.find('\u{202e}').unwrap());
    }
}
