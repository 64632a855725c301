//! Recipe text as a terminal or a page shows it: control characters and
//! bidirectional overrides escaped, command lines quoted as a shell reads
//! them. Everything a recipe says goes through here before a reader sees it.

use std::borrow::Cow;

/// `text` with every control character and every bidirectional override
/// written as an escape (`\u{1b}`), so it shows as what it is. Everything a
/// recipe says goes through this before it reaches a terminal or a page.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`shown`] for text of several lines: newlines and tabs kept, every other
/// control character and bidirectional override escaped.
pub fn shown_text(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c != '\n' && c != '\t' && needs_escape(c))
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(|line| line.split('\t').map(shown).collect::<Vec<_>>().join("\t"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// What is escaped: control characters, format characters (bidi controls,
/// zero-width characters, tags: the rule `check` refuses them by) and the
/// Unicode line separators.
fn needs_escape(c: char) -> bool {
    crate::diagnostic::is_unsafe_char(c) || c == '\u{2028}' || c == '\u{2029}'
}

/// A command line as a shell would read it back: each argument escaped and
/// quoted where it holds a space, a quote or nothing.
pub fn command_line(command: &[String]) -> String {
    command
        .iter()
        .map(|a| {
            let a = shown(a);
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a.into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_bidi_overrides_are_shown_escaped() {
        assert_eq!(shown("plain text/ü"), "plain text/ü");
        assert_eq!(shown("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(shown("x\r\ny"), "x\\u{d}\\u{a}y");
        assert_eq!(shown("rm \u{202e}txt.sh"), "rm \\u{202e}txt.sh");
        // Format characters that print as nothing show as what they are.
        assert_eq!(shown("nginx\u{200b}"), "nginx\\u{200b}");
        assert_eq!(shown("a\u{e0041}b\u{ad}"), "a\\u{e0041}b\\u{ad}");
        assert_eq!(shown("\u{7f}\u{9b}"), "\\u{7f}\\u{9b}");
    }

    #[test]
    fn text_keeps_its_lines_and_tabs_and_escapes_the_rest() {
        assert_eq!(shown_text("a\n\tb"), "a\n\tb");
        assert_eq!(
            shown_text("a\r\n\u{1b}]0;x\u{7}"),
            "a\\u{d}\n\\u{1b}]0;x\\u{7}"
        );
    }

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let argv: Vec<String> = ["ruby", "-e", "puts 'hi'", "", "a\u{1b}b"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            command_line(&argv),
            "ruby -e 'puts '\\''hi'\\''' '' a\\u{1b}b"
        );
    }
}
