//! Every character that prints as nothing is refused by `check` in a
//! command and in an env value, at the character, and is escaped wherever
//! it is shown: the whole Default_Ignorable_Code_Point set, the Hangul
//! fillers among it, and the format characters (Cf), not only Cf.

use std::path::Path;

use reprise_recipe::shown::{command_line, escaped, escaped_text, is_invisible};
use reprise_recipe::{Diagnostic, RecipeError};

/// Default_Ignorable_Code_Point, as DerivedCoreProperties.txt (Unicode 16)
/// lists it.
const DEFAULT_IGNORABLE: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180D),
    (0x180E, 0x180E),
    (0x180F, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2065, 0x2065),
    (0x2066, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0000),
    (0xE0001, 0xE0001),
    (0xE0002, 0xE001F),
    (0xE0020, 0xE007F),
    (0xE0080, 0xE00FF),
    (0xE0100, 0xE01EF),
    (0xE01F0, 0xE0FFF),
];

/// The Hangul fillers: print as a blank that is not a space.
const HANGUL_FILLERS: &[u32] = &[0x115F, 0x1160, 0x3164, 0xFFA0];

/// General category Cf (Unicode 16).
const FORMAT: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Every invisible character, each once.
fn the_set() -> Vec<char> {
    let mut set: Vec<char> = DEFAULT_IGNORABLE
        .iter()
        .chain(FORMAT)
        .flat_map(|&(a, b)| a..=b)
        .chain(HANGUL_FILLERS.iter().copied())
        .map(|c| char::from_u32(c).unwrap())
        .collect();
    set.sort();
    set.dedup();
    set
}

const RECIPE: &str = r#"[post]
id = "invisible"
title = "Invisible"
author = "Test"
date = "2026"
summary = "One command step."

[[step]]
id = "first"
kind = "command"
command = ["true", "COMMAND"]
env = { "NAME" = "VALUE" }
why = "Does nothing."
"#;

fn errors(text: &str) -> Vec<Diagnostic> {
    match reprise_recipe::parse(Path::new("recipes/invisible.toml"), text) {
        Ok(_) => Vec::new(),
        Err(RecipeError::Invalid(d)) => d,
        Err(e) => panic!("{e}"),
    }
}

/// The error at the line and column of `c`'s first occurrence, saying it.
fn refused_at(text: &str, c: char) -> Result<(), String> {
    let at = text.find(c).unwrap();
    let line = text[..at].matches('\n').count() + 1;
    let column = text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at]
        .chars()
        .count()
        + 1;
    let found = errors(text);
    let code = format!("U+{:04X}", c as u32);
    match found
        .iter()
        .find(|d| (d.line, d.column) == (line, column) && d.message.contains(&code))
    {
        // And the error itself shows the character escaped.
        Some(d) if d.to_string().contains(c) => Err(format!("{code} raw in {d}")),
        Some(_) => Ok(()),
        None => Err(format!(
            "{code} not refused at {line}:{column}: {:?}",
            found.iter().map(|d| d.to_string()).collect::<Vec<_>>()
        )),
    }
}

#[test]
fn the_recipe_without_them_is_valid() {
    assert!(errors(RECIPE).is_empty());
}

#[test]
fn check_refuses_every_invisible_character_in_a_command_and_an_env_value() {
    let set = the_set();
    assert!(set.len() > 4000, "{}", set.len());
    let mut failures = Vec::new();
    for &c in &set {
        for (place, with) in [
            ("COMMAND", format!("true{c} arg")),
            ("VALUE", format!("1{c}")),
            ("NAME", format!("A{c}")),
        ] {
            let text = RECIPE.replacen(place, &with, 1);
            if let Err(e) = refused_at(&text, c) {
                failures.push(format!("in {place}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        set.len() * 3,
        failures.join("\n")
    );
}

#[test]
fn every_printer_escapes_every_invisible_character() {
    for c in the_set() {
        assert!(is_invisible(c), "U+{:04X}", c as u32);
        let escape = format!("\\u{{{:x}}}", c as u32);
        let text = format!("true{c} arg");
        for (printer, out) in [
            ("escaped", escaped(&text).into_owned()),
            (
                "escaped_text",
                escaped_text(&format!("a\n{text}")).into_owned(),
            ),
            ("command_line", command_line(std::slice::from_ref(&text))),
            ("command_line", command_line(&["x".into(), text.clone()])),
        ] {
            assert!(
                !out.contains(c) && out.contains(&escape),
                "{printer} shows U+{:04X} as {out:?}",
                c as u32
            );
        }
    }
}

#[test]
fn visible_text_is_shown_as_it_is() {
    for text in ["plain", "ü", "日本語", "emoji 🎉", "한글", "a b"] {
        assert_eq!(escaped(text), text);
        assert!(!text.chars().any(is_invisible), "{text}");
    }
}
