//! Recipe text as a terminal or a page shows it: control characters and
//! invisible characters escaped, command lines quoted as a shell reads
//! them. Everything a recipe says goes through here before a reader sees it.

use std::borrow::Cow;

/// `text` with every control character, every invisible character
/// ([`is_invisible`]: bidi overrides, zero-width characters, variation
/// selectors, Hangul fillers…) and every combining mark that could
/// overlay a letter or digit ([`is_combining_mark`]) written as an escape
/// (`\u{1b}`), so it shows as what it is, and every blank that is not a
/// space ([`is_space_like`]) written as a space, so that `EPYC\u{a0}7763`
/// reads, and groups, as the `EPYC 7763` it looks like. Everything a
/// recipe, a server or a stranger's post says goes through this before it
/// reaches a terminal or a page: the one escaping function.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| needs_escape(c) || is_space_like(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            out.extend(c.escape_unicode());
        } else if is_space_like(c) {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escaped`] for text of several lines: newlines and tabs kept, every other
/// control character and bidirectional override escaped.
pub fn escaped_text(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c != '\n' && c != '\t' && (needs_escape(c) || is_space_like(c)))
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(|line| line.split('\t').map(escaped).collect::<Vec<_>>().join("\t"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Whether [`escaped`] shows `c` as it is: what a file from outside may
/// hold in its text where it is read, so that no printer can forget to
/// escape it.
pub fn shows_as_is(c: char) -> bool {
    !needs_escape(c) && !is_space_like(c)
}

/// What is escaped: control characters, invisible characters
/// ([`is_invisible`]: the rule `check` refuses them by), combining marks
/// ([`is_combining_mark`]) and the Unicode line separators.
fn needs_escape(c: char) -> bool {
    is_unsafe(c) || is_combining_mark(c) || c == '\u{2028}' || c == '\u{2029}'
}

/// Whether a character prints as a blank that is not the space: the
/// Unicode space separators (no-break, figure, thin, hair, ideographic…)
/// and the blank braille pattern. [`escaped`] writes each as a space;
/// `check` refuses them in a recipe's one-line fields.
pub(crate) fn is_space_like(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{2800}'
    )
}

/// Whether a character is a combining mark that draws over or beside the
/// Latin letters, digits and symbols before it (the combining diacritical
/// marks, their extensions and supplement, the marks for symbols, and the
/// half marks): `7\u{338}` reads as a struck-through `7`. [`escaped`]
/// shows each on its own, as an escape; `check` refuses them in a recipe's
/// one-line fields. The marks of other scripts are not among them.
pub(crate) fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// Whether a character would act on a terminal, reorder text or hide
/// rather than show: C0 and C1 controls, DEL, and [`is_invisible`].
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

/// Whether a character prints as nothing (or as a blank that is not a
/// space), so that `nginx\u{200b}` and `true\u{34f}` read as `nginx` and
/// `true`: every Default_Ignorable_Code_Point (Unicode 16's
/// DerivedCoreProperties.txt; it holds the bidi controls, the zero-width
/// characters, the variation selectors, the Mongolian free variation
/// selectors, the tags and the Hangul fillers) and every other format
/// character (general category Cf: the Arabic number signs, the
/// interlinear annotation and the Egyptian hieroglyph format controls).
///
/// `check` refuses these in every one-line field of a recipe, and
/// [`escaped`] escapes them wherever text from outside is printed: the one
/// list both read.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        // Default_Ignorable_Code_Point.
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}'..='\u{1160}' | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}'
        // The format characters (Cf) that are not default-ignorable.
        | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{0890}'..='\u{0891}'
        | '\u{08E2}' | '\u{FFF9}'..='\u{FFFB}' | '\u{110BD}' | '\u{110CD}'
        | '\u{13430}'..='\u{1343F}')
}

/// The bidirectional formatting characters ("Trojan Source"): refused even
/// in prose, where other invisible characters (a joiner in an emoji) may
/// stay, escaped when shown.
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// A command line as a POSIX shell reads it back: pasted into `sh`, it runs
/// exactly this argument vector. Each argument is a bare word when every
/// character of it is one a shell takes as it is (`[A-Za-z0-9_@%+=:,./-]`),
/// else single-quoted (`'` written `'\''`; the empty argument `''`); the
/// program is quoted too where a shell would read it as an assignment
/// (`A=1`) or a reserved word (`if`). The one quoting function: everything
/// that shows a command goes through it.
///
/// Control and invisible characters are escaped on top ([`escaped`]: `check`
/// refuses them in commands, so none should arrive): such an argument is
/// shown quoted, with the escape (`\u{1b}`) where the character was, never
/// raw.
pub fn command_line(command: &[String]) -> String {
    command
        .iter()
        .enumerate()
        .map(|(i, arg)| {
            let word = shell_word(arg);
            if i == 0 && word == *arg && (arg.contains('=') || is_reserved_word(arg)) {
                format!("'{arg}'")
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One argument as a POSIX shell reads it back (see [`command_line`]).
pub fn shell_word(arg: &str) -> String {
    let bare = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if bare {
        arg.to_string()
    } else {
        escaped(&format!("'{}'", arg.replace('\'', r"'\''"))).into_owned()
    }
}

/// `NAME=value` as a shell reads it back: one assignment. A name that is
/// not a shell variable's name (`check` refuses those) is shown as one
/// quoted word, so that `A B=1` cannot read as two.
pub fn env_assignment(name: &str, value: &str) -> String {
    if is_shell_name(name) {
        format!("{name}={}", shell_word(value))
    } else {
        shell_word(&format!("{name}={value}"))
    }
}

/// Whether `name` is a shell variable's name: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_shell_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The words a shell reads as its own syntax where a command starts.
fn is_reserved_word(word: &str) -> bool {
    matches!(
        word,
        "!" | "{"
            | "}"
            | "case"
            | "do"
            | "done"
            | "elif"
            | "else"
            | "esac"
            | "fi"
            | "for"
            | "if"
            | "in"
            | "then"
            | "until"
            | "while"
            | "function"
            | "select"
            | "time"
            | "[["
            | "]]"
            | "coproc"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_blanks_read_as_spaces_and_combining_marks_show_on_their_own() {
        for blank in [
            '\u{a0}', '\u{2007}', '\u{200a}', '\u{3000}', '\u{2800}', '\u{202f}',
        ] {
            assert_eq!(escaped(&format!("AMD EPYC{blank}7763")), "AMD EPYC 7763");
            assert_eq!(escaped_text(&format!("a{blank}b\nc")), "a b\nc");
        }
        assert_eq!(escaped("EPYC 77\u{338}63"), "EPYC 77\\u{338}63");
        assert_eq!(escaped("cafe\u{301}"), "cafe\\u{301}");
        // Precomposed letters and the marks of other scripts are text.
        assert_eq!(escaped("café Ryzen™ हिंदी"), "café Ryzen™ हिंदी");
    }

    #[test]
    fn control_characters_and_bidi_overrides_are_shown_escaped() {
        assert_eq!(escaped("plain text/ü"), "plain text/ü");
        assert_eq!(escaped("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(escaped("x\r\ny"), "x\\u{d}\\u{a}y");
        assert_eq!(escaped("rm \u{202e}txt.sh"), "rm \\u{202e}txt.sh");
        // Format characters that print as nothing show as what they are.
        assert_eq!(escaped("nginx\u{200b}"), "nginx\\u{200b}");
        assert_eq!(escaped("a\u{e0041}b\u{ad}"), "a\\u{e0041}b\\u{ad}");
        assert_eq!(escaped("\u{7f}\u{9b}"), "\\u{7f}\\u{9b}");
    }

    #[test]
    fn text_keeps_its_lines_and_tabs_and_escapes_the_rest() {
        assert_eq!(escaped_text("a\n\tb"), "a\n\tb");
        assert_eq!(
            escaped_text("a\r\n\u{1b}]0;x\u{7}"),
            "a\\u{d}\n\\u{1b}]0;x\\u{7}"
        );
    }

    #[test]
    fn command_lines_quote_every_character_a_shell_reads_as_syntax() {
        let line =
            |argv: &[&str]| command_line(&argv.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        // As the hostile recipes wrote them: a comment, a backslash, a `;`.
        assert_eq!(
            line(&["sh", "-c", "eval \"$1\"", "#", "touch${IFS}x"]),
            "sh -c 'eval \"$1\"' '#' 'touch${IFS}x'"
        );
        assert_eq!(line(&["echo", "a\\ b"]), "echo 'a\\ b'");
        assert_eq!(line(&["echo", "hello; touch X"]), "echo 'hello; touch X'");
        assert_eq!(
            line(&["a|b", "$HOME", "`x`", "*", "~"]),
            "'a|b' '$HOME' '`x`' '*' '~'"
        );
        assert_eq!(
            line(&["ruby", "-e", "--x=1,2", "a@b:%+/."]),
            "ruby -e --x=1,2 a@b:%+/."
        );
        // A program a shell would read as an assignment or a reserved word.
        assert_eq!(line(&["A=1", "B=2"]), "'A=1' B=2");
        assert_eq!(line(&["if", "then"]), "'if' then");
        assert_eq!(env_assignment("A", "1 2"), "A='1 2'");
        assert_eq!(env_assignment("A B", "1"), "'A B=1'");
        assert_eq!(
            env_assignment("RAILS_ENV", "production"),
            "RAILS_ENV=production"
        );
    }

    #[test]
    fn shell_names() {
        for ok in ["A", "_", "RAILS_ENV", "a1", "_9"] {
            assert!(is_shell_name(ok), "{ok}");
        }
        for bad in ["", "1A", "A B", "A-B", "A=B", "É", "A\u{200b}"] {
            assert!(!is_shell_name(bad), "{bad}");
        }
    }

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let argv: Vec<String> = ["ruby", "-e", "puts 'hi'", "", "a\u{1b}b"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            command_line(&argv),
            "ruby -e 'puts '\\''hi'\\''' '' 'a\\u{1b}b'"
        );
    }
}
