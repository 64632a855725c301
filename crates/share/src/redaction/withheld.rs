//! What of a server's words may be shown at all. Redaction ([`super::secrets`])
//! takes out a secret in the shapes it knows; a server can echo one in any
//! other (hex, reversed, a letter a word, HTML entities, percent-encoded,
//! base64 of it upper-cased…). So what a reader could not read as words is
//! not shown past a few characters, whatever it encodes.
//!
//! The text is read as pieces: runs of letters and digits (characters that
//! print as nothing are skipped, anything else ends a piece). A piece is a
//! word when it is ASCII letters only, in lower case, upper case or with a
//! capital first, of 2 to [`LONGEST_WORD`] letters (or `a`, `I`, `s`), or
//! one of the names GitHub writes in mixed case (`GitHub`, `OAuth`…). Pieces
//! that are not words and follow one another (only spaces or punctuation
//! between them) make a run; a run of [`LONGEST_RUN`] characters or more,
//! or any once [`BUDGET`] such characters of one answer have been shown, is
//! replaced by [`WITHHELD`]. GitHub's own messages (`Bad credentials`,
//! `API rate limit exceeded for user ID 123.`, `Resource not accessible by
//! integration`) are words and survive; a 40-character token cannot be
//! shown in under [`BUDGET`] characters of non-words. What is left is a
//! secret spelt in ordinary-looking words, which nothing short of not
//! showing the answer can stop: an answer is also cut to 300 characters.

/// What replaces a run that could carry a secret.
pub(crate) const WITHHELD: &str = "[part of the answer withheld: it could carry the token]";

/// The longest word ("authentication" is 14 letters).
const LONGEST_WORD: usize = 14;

/// Names GitHub's messages use, in their own case.
const NAMES: [&str; 4] = ["GitHub", "OAuth", "GraphQL", "JavaScript"];

/// A run of this many characters that are not words is withheld.
const LONGEST_RUN: usize = 8;

/// At most this many characters that are not words are shown of one answer.
const BUDGET: usize = 16;

/// `text` with every run of non-words that could carry a secret replaced
/// by [`WITHHELD`].
pub(crate) fn withheld(text: &str) -> String {
    // Each piece: where it starts and ends in `text`, its letters and digits.
    let mut pieces: Vec<(usize, usize, String)> = Vec::new();
    let mut open: Option<(usize, usize, String)> = None;
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            let piece = open.get_or_insert_with(|| (at, at, String::new()));
            piece.1 = at + c.len_utf8();
            piece.2.push(c);
        } else if !(reprise_recipe::shown::is_invisible(c)
            || (c.is_control() && !c.is_whitespace()))
        {
            pieces.extend(open.take());
        }
    }
    pieces.extend(open);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut shown = 0;
    let mut i = 0;
    while i < pieces.len() {
        if is_word(&pieces[i].2) {
            i += 1;
            continue;
        }
        let first = i;
        let mut length = 0;
        while i < pieces.len() && !is_word(&pieces[i].2) {
            length += pieces[i].2.chars().count();
            i += 1;
        }
        if length < LONGEST_RUN && shown + length <= BUDGET {
            shown += length;
            continue;
        }
        out.push_str(&text[last..pieces[first].0]);
        out.push_str(WITHHELD);
        last = pieces[i - 1].1;
    }
    out.push_str(&text[last..]);
    out
}

/// Whether a piece reads as a word: ASCII letters in one of a word's cases.
fn is_word(piece: &str) -> bool {
    let n = piece.len();
    if !piece.chars().all(|c| c.is_ascii_alphabetic()) || n == 0 || n > LONGEST_WORD {
        return false;
    }
    if n == 1 {
        // `s` as in `GitHub's`.
        return matches!(piece, "a" | "A" | "I" | "s");
    }
    if NAMES.contains(&piece) {
        return true;
    }
    let rest = &piece[1..];
    rest.chars().all(|c| c.is_ascii_lowercase()) || piece.chars().all(|c| c.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "gho_16C7e42F292c6912E7710c838347Ae178B4a";

    #[test]
    fn github_s_own_messages_are_shown_whole() {
        for message in [
            "Bad credentials",
            "Resource not accessible by integration",
            "API rate limit exceeded for user ID 123.",
            "Not Found",
            "Requires authentication",
            "Could not resolve to a Repository with the name 'rubys/reprise'.",
            "Must have admin rights to Repository.",
            "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
            "Resource not accessible by personal access token",
            "GitHub's OAuth App access restrictions",
            "[token] is not allowed",
        ] {
            assert_eq!(withheld(message), message);
        }
    }

    #[test]
    fn a_token_in_any_encoding_is_withheld() {
        let hex: String = TOKEN.bytes().map(|b| format!("{b:02x}")).collect();
        let reversed: String = TOKEN.chars().rev().collect();
        let dotted = TOKEN
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(".");
        let spaced = reversed
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(" ");
        let entities: String = TOKEN.bytes().map(|b| format!("&#{b};")).collect();
        let percent: String = TOKEN.bytes().map(|b| format!("%{b:02X}")).collect();
        let escaped: String = TOKEN
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD.encode(TOKEN.to_uppercase());
        let halves = format!("{} and {}", &reversed[..20], &reversed[20..]);
        let sevens: String = reversed
            .chars()
            .collect::<Vec<_>>()
            .chunks(6)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join(" the ");
        for shape in [
            hex, reversed, dotted, spaced, entities, percent, escaped, b64, halves, sevens,
        ] {
            let said = withheld(&format!("bad: {shape}"));
            assert!(said.starts_with("bad: "), "{shape} → {said}");
            assert!(said.contains(WITHHELD), "{shape} → {said}");
            // What is left shows at most the budget of non-words.
            let left: usize = said
                .replace(WITHHELD, " ")
                .split(|c: char| !c.is_alphanumeric())
                .filter(|p| !is_word(p))
                .map(|p| p.chars().count())
                .sum();
            assert!(left <= BUDGET, "{shape} → {said}");
        }
    }
}
