//! The recipe reference, docs/recipe-reference.md, lists every key of every
//! table of a recipe, and no other: for each `## [section]` of it, a small
//! valid recipe gets an unknown key in that table, and the keys the parser's
//! error says it expected are the keys the section's first table documents.
//! Each step kind's own keys come from the error a key the kind does not take
//! gets. A key added to the schema and not documented, or documented and not
//! in the schema, fails here with the difference.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const UNKNOWN: &str = "zzz_not_a_key";

fn hello_ceiling() -> String {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../recipes/hello-ceiling.toml"
    );
    std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn reference() -> String {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/recipe-reference.md"
    );
    std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// `text` with `insertion` put right after the first `anchor`.
fn after(text: &str, anchor: &str, insertion: &str) -> String {
    let at = text
        .find(anchor)
        .unwrap_or_else(|| panic!("hello-ceiling.toml no longer has {anchor:?}"))
        + anchor.len();
    format!("{}{insertion}{}", &text[..at], &text[at..])
}

/// `text` with `insertion` put right before the first `anchor`.
fn before(text: &str, anchor: &str, insertion: &str) -> String {
    let at = text
        .find(anchor)
        .unwrap_or_else(|| panic!("hello-ceiling.toml no longer has {anchor:?}"));
    format!("{}{insertion}{}", &text[..at], &text[at..])
}

const SOURCE: &str = r#"[[source]]
id = "app"
url = "https://example.test/app.git"
rev = "0123456789abcdef0123456789abcdef01234567"
purpose = "The app."

"#;

const SERVICE: &str = r#"[[service]]
name = "redis"
command = ["redis-server", "--port", "6379"]
port = 6379
why = "The lanes' cache."

"#;

const PEOPLE: &str = r#"
[workload.people]
accounts = 50
rooms = 5
steps = [10, 20]
step_duration = "10s"
navigate_every = "10s"
post_every = "5m"
mix = { open_room = 1.0 }
"#;

const SERVED: &str = r#"
[workload.people.served]
navigation_quantile = 0.99
navigation_ms = 100
max_failures = 0
delivery_quantile = 0.99
delivery_ms = 500
"#;

const EXPECT: &str = "expect = { status = 200, bytes = 13 }";

/// For each table, hello-ceiling.toml with an unknown key in that table
/// (`[[step]]`, whose keys are shared out among its kinds, is checked apart).
fn tables_with_an_unknown_key() -> Vec<(&'static str, String)> {
    let text = hello_ceiling();
    let key = format!("{UNKNOWN} = 1\n");
    let with_people = after(&text, EXPECT, &format!("\n{PEOPLE}{SERVED}"));
    vec![
        ("", format!("{key}{text}")),
        ("[post]", after(&text, "[post]\n", &key)),
        (
            "[[source]]",
            before(&text, "[[toolchain]]", &after(SOURCE, "[[source]]\n", &key)),
        ),
        ("[[toolchain]]", after(&text, "[[toolchain]]\n", &key)),
        (
            "[[service]]",
            before(&text, "[[lane]]", &after(SERVICE, "[[service]]\n", &key)),
        ),
        ("[machine]", after(&text, "[machine]\n", &key)),
        ("[[file]]", after(&text, "[[file]]\n", &key)),
        ("[[lane]]", after(&text, "[[lane]]\n", &key)),
        (
            "[lane.harness]",
            after(
                &text,
                "[[lane]]\n",
                &format!("harness = {{ target = \"puma\", workers = 2, {UNKNOWN} = 1 }}\n"),
            ),
        ),
        ("[[workload]]", after(&text, "[[workload]]\n", &key)),
        (
            "[[workload.endpoint]]",
            after(&text, "[[workload.endpoint]]\n", &key),
        ),
        (
            "[workload.endpoint.expect]",
            text.replacen(
                EXPECT,
                &format!("expect = {{ status = 200, bytes = 13, {UNKNOWN} = 1 }}"),
                1,
            ),
        ),
        (
            "[workload.people]",
            after(&with_people, "[workload.people]\n", &key),
        ),
        (
            "[workload.people.served]",
            after(&with_people, "[workload.people.served]\n", &key),
        ),
        ("[[figure]]", after(&text, "[[figure]]\n", &key)),
        ("[[claim]]", after(&text, "[[claim]]\n", &key)),
    ]
}

/// The problems of a recipe text, as (message, expected): none when it parses.
fn problems(text: &str) -> Vec<(String, Option<String>)> {
    match reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), text) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .diagnostics()
            .iter()
            .map(|d| (d.message.clone(), d.expected.clone()))
            .collect(),
    }
}

/// `a, b, c` (after `prefix`) as a set, refusing a list cut short.
fn listed(expected: &str, prefix: &str) -> BTreeSet<String> {
    let list = expected
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("expected {prefix:?} at the start of {expected:?}"));
    assert!(
        !list.contains('…'),
        "the error's list of keys was cut short: {expected:?}"
    );
    list.split(", ").map(|k| k.trim().to_string()).collect()
}

/// The keys the parser accepts in the table that holds the unknown key.
fn accepted_keys(text: &str) -> BTreeSet<String> {
    let problems = problems(text);
    let (_, expected) = problems
        .iter()
        .find(|(message, _)| message.starts_with(&format!("unknown key `{UNKNOWN}`")))
        .unwrap_or_else(|| panic!("no unknown-key error among {problems:?}"));
    let expected = expected
        .as_deref()
        .expect("an unknown key's error lists the keys");
    listed(expected, "one of ")
}

/// The step kinds, as the error for an unknown kind lists them.
fn step_kinds() -> Vec<String> {
    let text = hello_ceiling().replacen("kind = \"serve\"", "kind = \"zzz_not_a_kind\"", 1);
    let problems = problems(&text);
    let (_, expected) = problems
        .iter()
        .find(|(message, _)| message.starts_with("unknown step kind"))
        .unwrap_or_else(|| panic!("no unknown-kind error among {problems:?}"));
    listed(expected.as_deref().unwrap(), "one of ")
        .into_iter()
        .collect()
}

/// A kind's own keys, from the error for a key the kind does not take
/// (`the keys of a `serve` step: lanes, repeat`).
fn keys_of_kind(kind: &str) -> BTreeSet<String> {
    let candidates = [("repeat", "1"), ("workload", "\"hello\"")];
    for (key, value) in candidates {
        let step = format!(
            "[[step]]\nid = \"probe\"\nkind = \"{kind}\"\nwhy = \"A probe.\"\n{key} = {value}\n\n"
        );
        let text = before(&hello_ceiling(), "[[step]]", &step);
        let problems = problems(&text);
        let does_not_apply = format!("`{key}` does not apply to a `{kind}` step");
        if let Some((_, expected)) = problems.iter().find(|(m, _)| *m == does_not_apply) {
            let prefix = format!("the keys of a `{kind}` step: ");
            return listed(expected.as_deref().unwrap(), &prefix);
        }
    }
    panic!("every candidate key applies to a `{kind}` step: add one that does not to `candidates`")
}

/// The reference's sections: each `## [...]` heading and the keys in the
/// first cell of its first table.
fn documented(reference: &str) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let mut sections: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut lines = reference.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(heading) = line.strip_prefix("## ").filter(|h| h.starts_with('[')) else {
            continue;
        };
        let mut body = Vec::new();
        while let Some(next) = lines.next_if(|l| !l.starts_with("## ") && !l.starts_with("# ")) {
            body.push(next);
        }
        let keys: BTreeSet<String> = body
            .iter()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .filter_map(|row| row.split('|').nth(1))
            .map(str::trim)
            .filter(|cell| cell.len() > 2 && cell.starts_with('`') && cell.ends_with('`'))
            .map(|cell| cell.trim_matches('`').to_string())
            .collect();
        if sections.insert(heading.trim().to_string(), keys).is_some() {
            return Err(format!("the reference has `## {heading}` twice"));
        }
    }
    Ok(sections)
}

/// What differs between the keys a section documents and those accepted.
fn difference(
    section: &str,
    documented: &BTreeSet<String>,
    accepted: &BTreeSet<String>,
) -> Option<String> {
    let quoted = |keys: Vec<&String>| {
        keys.iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let missing: Vec<&String> = accepted.difference(documented).collect();
    let extra: Vec<&String> = documented.difference(accepted).collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!(
            "accepted by the parser but not documented: {}",
            quoted(missing)
        ));
    }
    if !extra.is_empty() {
        parts.push(format!(
            "documented but not accepted by the parser: {}",
            quoted(extra)
        ));
    }
    (!parts.is_empty()).then(|| format!("## {section}: {}", parts.join("; ")))
}

/// The name of a top-level table as a heading writes it: `[[step]] kind =
/// "clone"` and `[lane.harness]` are parts of `step` and `lane`.
fn top_level(heading: &str) -> String {
    heading
        .split(']')
        .next()
        .unwrap_or_default()
        .trim_start_matches('[')
        .split('.')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Every way `reference` and the parser disagree, one line each.
fn drift(reference: &str) -> Vec<String> {
    let sections = match documented(reference) {
        Ok(sections) => sections,
        Err(e) => return vec![e],
    };
    let mut found = Vec::new();
    let mut checked = BTreeSet::new();
    let empty = BTreeSet::new();
    for (section, text) in tables_with_an_unknown_key() {
        let accepted = accepted_keys(&text);
        if section.is_empty() {
            // The top level: one `## [table]` (or more) for each of its tables.
            let tables: BTreeSet<String> = sections.keys().map(|h| top_level(h)).collect();
            found.extend(difference(
                "[...] (the top-level tables)",
                &tables,
                &accepted,
            ));
            continue;
        }
        checked.insert(section.to_string());
        let keys = sections.get(section).unwrap_or(&empty);
        if !sections.contains_key(section) {
            found.push(format!("## {section}: no such section in the reference"));
        }
        found.extend(difference(section, keys, &accepted));
    }
    let mut own_keys = BTreeSet::new();
    for kind in step_kinds() {
        let section = format!("[[step]] kind = \"{kind}\"");
        let accepted = keys_of_kind(&kind);
        own_keys.extend(accepted.iter().cloned());
        if !sections.contains_key(&section) {
            found.push(format!("## {section}: no such section in the reference"));
        }
        found.extend(difference(
            &section,
            sections.get(&section).unwrap_or(&empty),
            &accepted,
        ));
        checked.insert(section);
    }
    // `## [[step]]` holds the keys every kind takes: the step's keys that
    // are no kind's own.
    let step = format!("{UNKNOWN} = 1\n");
    let all_step_keys = accepted_keys(&after(&hello_ceiling(), "[[step]]\n", &step));
    let common: BTreeSet<String> = all_step_keys.difference(&own_keys).cloned().collect();
    checked.insert("[[step]]".to_string());
    found.extend(difference(
        "[[step]] (the keys of every kind)",
        sections.get("[[step]]").unwrap_or(&empty),
        &common,
    ));
    for section in sections.keys() {
        if !checked.contains(section) {
            found.push(format!(
                "## {section}: a section this test does not check; add a case for it"
            ));
        }
    }
    found
}

#[test]
fn the_reference_documents_every_key_the_parser_accepts_and_no_other() {
    let found = drift(&reference());
    assert!(
        found.is_empty(),
        "docs/recipe-reference.md and the recipe schema differ:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_key_missing_from_the_reference_or_invented_in_it_is_caught() {
    let reference = reference();
    let row = "| `repeat` |";
    assert!(
        reference.contains(row),
        "the serve section documents `repeat`"
    );
    let without = reference.replacen(row, "| repeat |", 1);
    let found = drift(&without);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("## [[step]] kind = \"serve\"")
                && f.contains("not documented: `repeat`")),
        "{found:#?}"
    );
    let invented = reference.replacen(
        "| `contains` |",
        "| `contains_not` | string | no | invented |\n| `contains` |",
        1,
    );
    let found = drift(&invented);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("## [workload.endpoint.expect]")
                && f.contains("not accepted by the parser: `contains_not`")),
        "{found:#?}"
    );
}
