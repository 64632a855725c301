//! The secrets this process sent (a token, a device code), taken out of a
//! server's answer in whatever shape it echoes them: split by characters
//! that print as nothing (U+200B, a soft hyphen, a variation selector) or by
//! white space, in another case or in full-width letters, cut to a piece of
//! [`MIN_PIECE`] characters or more, or base64-encoded (standard or
//! URL-safe, at any of the three byte alignments a secret can have inside a
//! longer encoded string, as in `Basic base64(user:token)`).
//!
//! The text is matched as a reader would see it: the hidden characters left
//! out and letters folded to lower case; what matched is replaced in the
//! text as it came, hidden characters between its letters included.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

/// The shortest piece of a secret that is taken out: shorter pieces are no
/// secret (and would take out ordinary words).
pub(super) const MIN_PIECE: usize = 8;

/// What replaces a secret.
const PLACEHOLDER: &str = "[token]";

/// Every form a secret is looked for in, folded as text is: the secret
/// itself and its base64 encodings.
fn forms(secret: &str) -> Vec<Vec<char>> {
    let mut forms: Vec<String> = vec![secret.to_string()];
    for shift in 0..3 {
        // Encoded after `shift` other bytes, a secret's first characters
        // share bits with those bytes, and its last with what follows: only
        // the characters made of its own bits alone are the same wherever
        // it stands.
        let mut bytes = vec![0u8; shift];
        bytes.extend_from_slice(secret.as_bytes());
        let start = (8 * shift).div_ceil(6);
        let end = 8 * bytes.len() / 6;
        for engine in [STANDARD_NO_PAD, URL_SAFE_NO_PAD] {
            let encoded = engine.encode(&bytes);
            if end > start + MIN_PIECE {
                forms.push(encoded[start..end].to_string());
            }
        }
    }
    let mut folded: Vec<Vec<char>> = forms
        .iter()
        .map(|f| f.chars().filter(|c| !hidden(*c)).map(fold).collect())
        .filter(|f: &Vec<char>| f.len() >= MIN_PIECE)
        .collect();
    folded.sort();
    folded.dedup();
    folded
}

/// Whether any [`MIN_PIECE`] characters in a row of the text as it is read
/// are a piece of a form: most texts hold none and come back as they are,
/// after one pass that packs each run of eight ASCII characters into a
/// number and looks it up among the forms' (a piece is ASCII: a secret's
/// characters and base64's, folded).
fn may_hold_a_piece(seen: &[(char, usize, usize)], forms: &[Vec<char>]) -> bool {
    const _: () = assert!(MIN_PIECE == 8, "eight characters pack into a u64");
    let pack = |chars: &[char]| {
        chars
            .iter()
            .try_fold(0u64, |n, c| c.is_ascii().then_some(n << 8 | *c as u64))
    };
    let mut pieces: Vec<u64> = forms
        .iter()
        .flat_map(|f| f.windows(MIN_PIECE))
        .filter_map(pack)
        .collect();
    pieces.sort_unstable();
    pieces.dedup();
    let (mut window, mut ascii_run) = (0u64, 0usize);
    for (c, _, _) in seen {
        if !c.is_ascii() {
            ascii_run = 0;
            continue;
        }
        window = window << 8 | *c as u64;
        ascii_run += 1;
        if ascii_run >= MIN_PIECE && pieces.binary_search(&window).is_ok() {
            return true;
        }
    }
    false
}

/// A character a reader does not see, or sees as a gap: white space,
/// controls, and every character the one escaping function escapes as
/// invisible ([`reprise_recipe::shown::is_invisible`]: format characters,
/// bidi controls, Default_Ignorable_Code_Point, the Hangul fillers).
fn hidden(c: char) -> bool {
    c.is_whitespace() || c.is_control() || reprise_recipe::shown::is_invisible(c)
}

/// A character as it is compared: full-width ASCII as ASCII, letters in
/// lower case.
fn fold(c: char) -> char {
    let c = match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    };
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// `text` with every piece of a secret in `secrets` (of [`MIN_PIECE`]
/// characters or more, in any of its forms) replaced by `[token]`.
pub(super) fn redact(text: &str, secrets: &[String]) -> String {
    let forms: Vec<Vec<char>> = secrets.iter().flat_map(|s| forms(s)).collect();
    if forms.is_empty() {
        return text.to_string();
    }
    // The text as it is read: each seen character, folded, with where it
    // is in `text`.
    let seen: Vec<(char, usize, usize)> = text
        .char_indices()
        .filter(|(_, c)| !hidden(*c))
        .map(|(at, c)| (fold(c), at, at + c.len_utf8()))
        .collect();
    // The look ahead packs ASCII only: a secret with any other character
    // is looked for the long way.
    let ascii = forms.iter().all(|f| f.iter().all(char::is_ascii));
    if ascii && !may_hold_a_piece(&seen, &forms) {
        return text.to_string();
    }
    // Where each form's pieces can start, by their first character.
    let mut starts: HashMap<char, Vec<(usize, usize)>> = HashMap::new();
    for (f, form) in forms.iter().enumerate() {
        for (offset, c) in form.iter().enumerate().take(form.len() + 1 - MIN_PIECE) {
            starts.entry(*c).or_default().push((f, offset));
        }
    }
    let mut covered = vec![false; seen.len()];
    for i in 0..seen.len() {
        let Some(candidates) = starts.get(&seen[i].0) else {
            continue;
        };
        let mut longest = 0;
        for &(f, offset) in candidates {
            let form = &forms[f];
            let matched = seen[i..]
                .iter()
                .zip(&form[offset..])
                .take_while(|((c, _, _), d)| c == *d)
                .count();
            longest = longest.max(matched);
        }
        if longest >= MIN_PIECE {
            covered[i..i + longest].iter_mut().for_each(|c| *c = true);
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut i = 0;
    while i < seen.len() {
        if !covered[i] {
            i += 1;
            continue;
        }
        let start = seen[i].1;
        while i < seen.len() && covered[i] {
            i += 1;
        }
        let end = seen[i - 1].2;
        out.push_str(&text[last..start]);
        out.push_str(PLACEHOLDER);
        last = end;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "gho_16C7e42F292c6912E7710c838347Ae178B4a";

    fn redacted(text: &str) -> String {
        redact(text, &[TOKEN.to_string()])
    }

    #[test]
    fn a_secret_is_found_in_every_shape_a_server_can_echo_it() {
        assert_eq!(redacted(&format!("got {TOKEN}.")), "got [token].");
        let split: String = TOKEN
            .chars()
            .flat_map(|c| [c, '\u{200b}'])
            .collect::<String>();
        assert_eq!(redacted(&format!("a {split} b")), "a [token]\u{200b} b");
        assert_eq!(
            redacted(&format!("{} end", TOKEN.to_uppercase())),
            "[token] end"
        );
        assert_eq!(redacted(&format!("x{}y", &TOKEN[..10])), "x[token]y");
        assert_eq!(redacted(&format!("({})", &TOKEN[..7])), "(gho_16C)");
        assert_eq!(
            redacted(&format!("wrapped {}\n{}", &TOKEN[..20], &TOKEN[20..])),
            "wrapped [token]"
        );
        for text in [
            STANDARD_NO_PAD.encode(TOKEN),
            STANDARD_NO_PAD.encode(format!("x-access-token:{TOKEN}")),
            URL_SAFE_NO_PAD.encode(format!("a:{TOKEN}")),
            base64::engine::general_purpose::STANDARD.encode(format!("ab:{TOKEN}")),
        ] {
            let out = redacted(&format!("Authorization: Basic {text}"));
            let middle = &text[text.len() / 2..text.len() / 2 + 8];
            assert!(
                out.contains("[token]") && !out.contains(middle),
                "{text} → {out}"
            );
            // At most an edge character and the padding are left after it.
            let after = &out[out.rfind("[token]").unwrap() + "[token]".len()..];
            assert!(after.len() <= 3, "{text} → {out}");
        }
        // Full-width letters read as the letters.
        let wide: String = TOKEN
            .chars()
            .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
            .collect();
        assert_eq!(redacted(&wide), "[token]");
        assert_eq!(redacted("an ordinary answer"), "an ordinary answer");
    }
}
