//! Every recipe of recipes/, mutated: values swapped for the wrong type, huge
//! or non-finite numbers, negative counts, control characters, escaping
//! paths; keys dropped and duplicated; bytes flipped, inserted, deleted and
//! the file cut short. Whatever comes out, reading and checking it never
//! panics, never takes a second, and every error it reports has a line and
//! column inside the file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed};
use toml::de::{DeTable, DeValue};

/// A recipe: its file as `check` names it, its text and the sites of its keys.
struct Recipe {
    file: PathBuf,
    text: String,
    sites: Vec<Site>,
}

fn recipes() -> &'static [Recipe] {
    static RECIPES: std::sync::OnceLock<Vec<Recipe>> = std::sync::OnceLock::new();
    RECIPES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 5, "{files:?}");
        files
            .into_iter()
            .map(|f| {
                let text = std::fs::read_to_string(&f).unwrap();
                Recipe {
                    // Errors name the file as `reprise check recipes/x.toml` would.
                    file: Path::new("recipes").join(f.file_name().unwrap()),
                    sites: sites(&text).unwrap(),
                    text,
                }
            })
            .collect()
    })
}

/// A key written as `key = value` on a line, with the byte ranges of both.
#[derive(Clone, Debug)]
struct Site {
    key: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
}

/// The `key = value` sites of `text`, when it is TOML.
fn sites(text: &str) -> Option<Vec<Site>> {
    fn walk(table: &DeTable<'_>, text: &str, out: &mut Vec<Site>) {
        for (key, value) in table.iter() {
            let (k, v) = (key.span(), value.span());
            let assignment = k.end <= v.start
                && text
                    .get(k.end..v.start)
                    .is_some_and(|between| between.trim() == "=");
            if assignment {
                out.push(Site {
                    key: k.clone(),
                    value: v.clone(),
                });
            }
            match value.get_ref() {
                DeValue::Table(t) => walk(t, text, out),
                DeValue::Array(items) => {
                    for item in items {
                        if let DeValue::Table(t) = item.get_ref() {
                            walk(t, text, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(DeTable::parse(text).ok()?.get_ref(), text, &mut out);
    Some(out)
}

/// Values a hostile or careless author might write anywhere.
const VALUES: &[&str] = &[
    "\"x\"",
    "\"\"",
    "0",
    "-1",
    "1",
    "4294967296",
    "18446744073709551616",
    "-9223372036854775808",
    "nan",
    "-nan",
    "inf",
    "-inf",
    "1e308",
    "-0.0",
    "true",
    "[]",
    "{}",
    "[1, \"a\", true]",
    "{ a = 1 }",
    "1979-05-27T07:32:00Z",
    "2026-10-16",
    "07:32:00",
    "\"5124095576030432h\"",
    "\"2562047788015215h\"",
    "\"0s\"",
    "\"-5s\"",
    "\"nans\"",
    "\"\\u001b[2J\\u001b[H\"",
    "\"ok\\u202eevil\"",
    "\"a\\r\\nb\"",
    "\"\\u0000\"",
    "\"../../../etc/passwd\"",
    "\"/etc/passwd\"",
    "\"@evil.example:80/\"",
    "\"//evil.example/\"",
    "\".\"",
    "\"..\"",
    "\"{avatar}\"",
    "'''\nmulti\nline'''",
];

#[derive(Clone, Debug)]
enum Structured {
    /// Replace a value with one of [`VALUES`] or a huge string.
    Replace(Index, Index),
    Huge(Index, usize),
    /// Remove `key = value`.
    Drop(Index),
    /// Write `key = value` twice.
    Duplicate(Index),
    /// Replace a key with a near miss or a control character.
    Rekey(Index, Index),
}

fn structured() -> impl Strategy<Value = Structured> {
    prop_oneof![
        4 => (any::<Index>(), any::<Index>()).prop_map(|(s, v)| Structured::Replace(s, v)),
        1 => (any::<Index>(), 1usize..100_000).prop_map(|(s, n)| Structured::Huge(s, n)),
        2 => any::<Index>().prop_map(Structured::Drop),
        1 => any::<Index>().prop_map(Structured::Duplicate),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(s, k)| Structured::Rekey(s, k)),
    ]
}

fn apply(text: &str, sites: &[Site], m: &Structured) -> String {
    let splice = |range: std::ops::Range<usize>, with: &str| {
        format!("{}{with}{}", &text[..range.start], &text[range.end..])
    };
    match m {
        Structured::Replace(site, value) => {
            let site = site.get(sites);
            splice(site.value.clone(), value.get::<&str>(VALUES))
        }
        Structured::Huge(site, n) => {
            let site = site.get(sites);
            splice(site.value.clone(), &format!("\"{}\"", "9".repeat(*n)))
        }
        Structured::Drop(site) => {
            let site = site.get(sites);
            splice(site.key.start..site.value.end, "")
        }
        Structured::Duplicate(site) => {
            let site = site.get(sites);
            let line = &text[site.key.start..site.value.end];
            splice(site.value.end..site.value.end, &format!("\n{line}"))
        }
        Structured::Rekey(site, key) => {
            let site = site.get(sites);
            let keys = ["id2", "kind", "\"k\\u001bey\"", "\"\"", "why", "value"];
            splice(site.key.clone(), key.get::<&str>(&keys))
        }
    }
}

#[derive(Clone, Debug)]
enum ByteEdit {
    Flip(Index, u8),
    Insert(Index, u8),
    Delete(Index),
    Truncate(Index),
}

fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| ByteEdit::Flip(i, b)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| ByteEdit::Insert(i, b)),
        any::<Index>().prop_map(ByteEdit::Delete),
        any::<Index>().prop_map(ByteEdit::Truncate),
    ]
}

fn apply_bytes(bytes: &mut Vec<u8>, edit: &ByteEdit) {
    if bytes.is_empty() {
        return;
    }
    match edit {
        ByteEdit::Flip(i, mask) => {
            let i = i.index(bytes.len());
            bytes[i] ^= (*mask).max(1);
        }
        ByteEdit::Insert(i, b) => {
            let i = i.index(bytes.len() + 1);
            bytes.insert(i, *b);
        }
        ByteEdit::Delete(i) => {
            let i = i.index(bytes.len());
            bytes.remove(i);
        }
        ByteEdit::Truncate(i) => {
            let i = i.index(bytes.len());
            bytes.truncate(i);
        }
    }
}

/// This thread's CPU time: what a parse costs. A hang or a parse that grows
/// out of hand burns it; other programs on a busy machine do not add to it,
/// as they add to the wall clock (a parse of this test took 1.19 s by the
/// wall clock beside the test command's other lanes).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Reads `bytes` as `file` and checks what comes out: quickly, and every
/// error at a line and column that exist in the file.
fn check(file: &Path, bytes: &[u8]) -> Result<(), TestCaseError> {
    let started = thread_cpu();
    let result = reprise_recipe::parse_bytes(file, bytes);
    let took = thread_cpu() - started;
    prop_assert!(took < Duration::from_secs(1), "took {took:?} of CPU");
    let Err(err) = result else { return Ok(()) };
    let diagnostics = err.diagnostics();
    prop_assert!(
        !diagnostics.is_empty(),
        "an error without a location: {err}"
    );
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.split('\n').collect();
    for d in diagnostics {
        prop_assert!(d.line >= 1 && d.column >= 1, "{d}");
        prop_assert!(
            d.line <= lines.len(),
            "line {} of {}: {d}",
            d.line,
            lines.len()
        );
        let width = lines[d.line - 1].chars().count();
        prop_assert!(d.column <= width + 1, "column {} of {width}: {d}", d.column);
        prop_assert_eq!(&d.file, file);
        let shown = d.to_string();
        prop_assert!(
            !shown.contains(|c: char| c.is_control() && c != '\n'),
            "control character printed: {shown:?}"
        );
    }
    Ok(())
}

/// Fixed cases, nothing written to disk: the same inputs on every run.
fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5eed_0015),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn structured_mutations_never_panic_hang_or_lose_their_place(
        recipe in any::<Index>(),
        first in structured(),
        second in proptest::option::of(structured()),
    ) {
        let recipe = recipe.get(recipes());
        let mut mutated = apply(&recipe.text, &recipe.sites, &first);
        // A second mutation where the first left valid TOML.
        if let Some(second) = second
            && let Some(sites) = sites(&mutated).filter(|s| !s.is_empty())
        {
            mutated = apply(&mutated, &sites, &second);
        }
        check(&recipe.file, mutated.as_bytes())?;
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn byte_mutations_never_panic_hang_or_lose_their_place(
        recipe in any::<Index>(),
        edits in proptest::collection::vec(byte_edit(), 1..8),
    ) {
        let recipe = recipe.get(recipes());
        let mut bytes = recipe.text.as_bytes().to_vec();
        for edit in &edits {
            apply_bytes(&mut bytes, edit);
        }
        check(&recipe.file, &bytes)?;
    }
}

#[test]
fn every_recipe_unmutated_is_valid() {
    for r in recipes() {
        if let Err(e) = reprise_recipe::parse(&r.file, &r.text) {
            panic!("{e}");
        }
    }
}
