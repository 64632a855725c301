//! Hostile and broken recipes are refused by `check`, before anyone is asked
//! to consent, at the value that is wrong, with what was expected: paths that
//! leave loopback or the run's folder, names that are not file names, control
//! characters, numbers out of range, and text that is not what a diagnostic
//! can show whole.

use std::path::{Path, PathBuf};

use reprise_recipe::{Diagnostic, RecipeError};

fn recipe(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../recipes")
            .join(format!("{name}.toml")),
    )
    .unwrap()
}

/// The CPU time this thread spends in `f`, from the kernel's account of it
/// (/proc/thread-self/schedstat, nanoseconds on the CPU): what parsing costs,
/// which a busy machine's other work does not add to as it adds to the clock.
fn cpu_time_of<T>(f: impl FnOnce() -> T) -> (T, std::time::Duration) {
    fn on_cpu() -> std::time::Duration {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
        let ns = stat.split_whitespace().next().unwrap().parse().unwrap();
        std::time::Duration::from_nanos(ns)
    }
    let before = on_cpu();
    let value = f();
    (value, on_cpu() - before)
}

fn hello() -> String {
    recipe("hello-ceiling")
}

/// `text` with the first `from` replaced, which must be there.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} is not in the recipe");
    text.replacen(from, to, 1)
}

/// Every error of `text` read as recipes/`id`.toml.
fn errors_as(id: &str, text: &str) -> Vec<Diagnostic> {
    match reprise_recipe::parse(Path::new(&format!("recipes/{id}.toml")), text) {
        Ok(_) => panic!("the recipe was accepted"),
        Err(RecipeError::Invalid(d)) => d,
        Err(e) => panic!("{e}"),
    }
}

/// 1-based line and column of the first `needle`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?}"));
    let line = text[..at].matches('\n').count() + 1;
    let column = text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at]
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The error of `text` (as recipes/`id`.toml) at the first `needle` whose
/// message holds `says`.
fn refused_as(id: &str, text: &str, needle: &str, says: &str) -> Diagnostic {
    let want = position(text, needle);
    let errors = errors_as(id, text);
    errors
        .iter()
        .find(|d| (d.line, d.column) == want && d.message.contains(says))
        .cloned()
        .unwrap_or_else(|| {
            panic!(
                "no error at {want:?} saying {says:?} for {needle:?}; got:\n{}",
                errors
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        })
}

fn refused(text: &str, needle: &str, says: &str) -> Diagnostic {
    refused_as("hello-ceiling", text, needle, says)
}

/// A clone, build, emit, digest, bundle, seed and stage step appended to
/// hello-ceiling, each path key set from `paths` (key → TOML value).
fn with_path_steps(paths: &[(&str, &str)]) -> String {
    let get = |key: &str, default: &str| {
        paths
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(format!("{default:?}"), |(_, v)| v.to_string())
    };
    format!(
        r#"{base}
[[source]]
id = "app"
url = "https://example.test/app.git"
rev = "0123456789abcdef0123456789abcdef01234567"
purpose = "An app."

[[step]]
id = "clone"
kind = "clone"
source = "app"
into = {into}
why = "Check it out."

[[step]]
id = "build"
kind = "build"
command = ["make"]
dir = {dir}
outputs = [{output}]
why = "Build it."

[[step]]
id = "emit"
kind = "emit"
command = ["make", "emit"]
tree = {tree}
manifest = {manifest}
why = "Emit it."

[[step]]
id = "bundle"
kind = "bundle"
runtime = "ruby"
tree = "out"
lockfile = {lockfile}
why = "Bundle it."

[[step]]
id = "seed"
kind = "seed"
command = ["make", "seed"]
database = {database}
why = "Seed it."

[[step]]
id = "stage"
kind = "stage"
database = "seed.sqlite3"
tree = "out"
to = {to}
why = "Stage it."
"#,
        base = hello(),
        into = get("into", "sources/app"),
        dir = get("dir", "sources/app"),
        output = get("outputs", "target/app"),
        tree = get("tree", "out"),
        manifest = get("manifest", "checksums/out.sha256"),
        lockfile = get("lockfile", "Gemfile.ruby.lock"),
        database = get("database", "seed.sqlite3"),
        to = get("to", "storage/development.sqlite3"),
    )
}

#[test]
fn endpoint_paths_that_could_leave_loopback_are_refused_at_the_path() {
    for bad in [
        "\"@evil.example:80/\"",
        "\"//evil.example/\"",
        "\"/\\\\evil.example/\"",
        "\"evil.example/\"",
        "\"/a b\"",
        "\"/a\\r\\nHost: evil.example\"",
        "\"{@evil.example}/\"",
    ] {
        let text = edit(&hello(), "path = \"/\"", &format!("path = {bad}"));
        let d = refused(&text, bad, "is not a path on the lane's server");
        assert!(d.expected.unwrap().contains("`/` first"));
        // The same rule for the other paths the engine requests.
        let text = edit(&hello(), "health = \"/\"", &format!("health = {bad}"));
        refused(&text, bad, "is not a path on the lane's server");
    }
    let people = recipe("campfire-people");
    let text = edit(
        &people,
        "rooms = 30",
        "rooms = 30\nverify_writes = \"@evil.example/writes\"",
    );
    refused_as(
        "campfire-people",
        &text,
        "\"@evil.example/writes\"",
        "is not a path",
    );
}

#[test]
fn a_path_starting_with_a_placeholder_is_left_to_the_run() {
    let text = edit(&hello(), "path = \"/\"", "path = \"{avatar}\"");
    reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap();
}

#[test]
fn control_and_bidi_characters_are_refused_in_ids_names_commands_env_and_urls() {
    let base = hello();
    for (from, to, needle) in [
        (
            "id = \"serve\"",
            "id = \"serve\\u001b[2J\"",
            "\"serve\\u001b",
        ),
        (
            "[[lane]]\nname = \"puma\"",
            "[[lane]]\nname = \"pu\\u202ema\"",
            "\"pu\\u202e",
        ),
        (
            "name = \"hello\"",
            "name = \"hel\\u2066lo\"",
            "\"hel\\u2066",
        ),
        (
            "\"--workers\", \"2\"",
            "\"--workers\", \"2\\r\\nrm -rf ~\"",
            "\"2\\r",
        ),
        (
            "\"--workers\", \"2\"",
            "\"--workers\", \"2\\u009b31m\"",
            "\"2\\u009b",
        ),
        (
            "port = 9292",
            "port = 9292\nenv = { A = \"x\\u001b]0;t\\u0007\" }",
            "\"x\\u001b",
        ),
        (
            "port = 9292",
            "port = 9292\nenv = { \"A\\u007f\" = \"x\" }",
            "\"A\\u007f",
        ),
        ("name = \"/\"", "name = \"/\\t\"", "\"/\\t"),
        (
            "pattern = 'ruby",
            "pattern = \"(\\u200f)\"\n#'ruby",
            "\"(\\u200f",
        ),
        (
            "date = \"2026-10\"",
            "date = \"2026-10\"\nurl = \"https://x.example/\\u001b[1A\"",
            "\"https://x",
        ),
    ] {
        let text = edit(&base, from, to);
        refused(&text, needle, "could change what a reader sees");
    }
}

#[test]
fn prose_may_span_lines_but_holds_no_escape() {
    let base = hello();
    let text = edit(
        &base,
        "quote = \"under Falcon",
        "quote = \"line one\\nunder Falcon",
    );
    reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap();
    let text = edit(
        &base,
        "quote = \"under Falcon",
        "quote = \"\\u001b[2Kunder Falcon",
    );
    refused(&text, "\"\\u001b[2K", "escape character");
}

#[test]
fn an_error_never_prints_the_recipe_s_control_characters() {
    // Raw controls are TOML syntax errors, bidi controls are ours: either
    // way the line is shown escaped.
    let (line, _) = position(&hello(), "id = \"serve\"");
    for raw in ['\u{1b}', '\u{202e}', '\u{9b}', '\r', '\u{2066}'] {
        let text = edit(&hello(), "id = \"serve\"", &format!("id = \"se{raw}rve\""));
        let err = reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains(&format!(":{line}:9:")), "{err}");
        assert!(!err.contains(raw), "{raw:?} printed raw:\n{err}");
        assert!(err.contains(&format!("\\u{{{:x}}}", raw as u32)), "{err}");
    }
}

#[test]
fn names_that_become_file_names_are_file_names() {
    let base = hello();
    for (from, to, bad) in [
        ("id = \"serve\"", "id = \"../../x\"", "\"../../x\""),
        (
            "id = \"measure\"",
            "id = \"results/../../x\"",
            "\"results/../../x\"",
        ),
        (
            "[[lane]]\nname = \"puma\"",
            "[[lane]]\nname = \"a/b\"",
            "\"a/b\"",
        ),
        (
            "[[lane]]\nname = \"falcon\"",
            "[[lane]]\nname = \".hidden\"",
            "\".hidden\"",
        ),
        (
            "[[lane]]\nname = \"nginx\"",
            "[[lane]]\nname = \"-rf\"",
            "\"-rf\"",
        ),
        ("name = \"hello\"", "name = \"..\"", "\"..\""),
    ] {
        let text = edit(&base, from, to);
        let d = refused(&text, bad, "cannot be used as a file name");
        assert!(d.expected.unwrap().contains("ASCII letters, digits"));
    }
    let long = format!("\"{}\"", "a".repeat(65));
    let text = edit(
        &base,
        "[[lane]]\nname = \"puma\"",
        &format!("[[lane]]\nname = {long}"),
    );
    refused(&text, &long, "cannot be used as a file name");
    let text = edit(&with_path_steps(&[]), "id = \"app\"", "id = \"../app\"");
    refused(&text, "\"../app\"", "cannot be used as a file name");
}

#[test]
fn paths_that_must_stay_in_the_run_folder_are_refused_in_check() {
    for (key, bad, says) in [
        ("into", "\"../elsewhere\"", "leaves sources/"),
        ("into", "\"/tmp/x\"", "it is absolute"),
        ("dir", "\"/etc\"", "leaves the run's folder"),
        ("dir", "\"files/../../..\"", "`..`"),
        ("outputs", "\"../../x\"", "leaves the step's `dir`"),
        ("tree", "\"../t\"", "cannot be a folder of the run's trees/"),
        ("tree", "\"a/b\"", "cannot be a folder of the run's trees/"),
        ("manifest", "\"/etc/passwd\"", "leaves the checkout"),
        ("lockfile", "\"../../Gemfile.lock\"", "climb out"),
        ("lockfile", "\"/tmp/Gemfile.lock\"", "it is absolute"),
        ("lockfile", "\"Gemfile.ruby\"", "`.lock`"),
        (
            "database",
            "\"/tmp/seed.sqlite3\"",
            "leaves the run's folder",
        ),
        ("database", "\"..\\\\seed.sqlite3\"", "backslash"),
        ("to", "\"../../x.sqlite3\"", "leaves the tree"),
    ] {
        let text = with_path_steps(&[(key, bad)]);
        let written = match key {
            "outputs" => format!("{key} = [{bad}]"),
            _ => format!("{key} = {bad}"),
        };
        let want = position_in(&text, &written, bad);
        let errors = errors_as("hello-ceiling", &text);
        assert!(
            errors
                .iter()
                .any(|d| (d.line, d.column) == want && d.message.contains(says)),
            "{key} = {bad}: expected {says:?} at {want:?}, got {errors:#?}"
        );
    }
    // The recipes' own forms stay valid, a lockfile beside the tree among them.
    let text = with_path_steps(&[("lockfile", "\"../ruby-bundle/Gemfile.lock\"")]);
    reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap();
    let text = edit(&hello(), "dir = \"files/hello\"", "dir = \"../hello\"");
    refused(&text, "\"../hello\"", "leaves the run's folder");
    let people = recipe("campfire-people");
    // The recipe names its own minted sessions; pointed outside the run's folder:
    let text = edit(
        &people,
        "sessions = \"people-sessions.tsv\"",
        "sessions = \"/etc/shadow\"",
    );
    refused_as(
        "campfire-people",
        &text,
        "\"/etc/shadow\"",
        "leaves the run's folder",
    );
}

#[test]
fn durations_a_run_cannot_hold_are_located_errors_not_panics() {
    for bad in [
        "\"5124095576030432h\"",
        "\"2562047788015215h\"",
        "\"18446744073709551615s\"",
        "\"1e400s\"",
        "\"-5s\"",
        "\"nans\"",
        "\"25h\"",
        "\"0s\"",
        "\"0.0001ms\"",
    ] {
        let text = edit(&hello(), "duration = \"20s\"", &format!("duration = {bad}"));
        let errors = errors_as("hello-ceiling", &text);
        let want = position(&text, bad);
        assert!(
            errors.iter().any(|d| (d.line, d.column) == want),
            "{bad}: {errors:#?}"
        );
    }
    let text = edit(
        &hello(),
        "kind = \"serve\"",
        "kind = \"serve\"\ntimeout = \"0s\"",
    );
    refused(&text, "\"0s\"", "`timeout` is 0s, out of range");
    // A warm-up may be none.
    let text = edit(&hello(), "warmup = \"5s\"\nruns", "warmup = \"0s\"\nruns");
    reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap();
}

/// 1-based line and column of the first `needle` inside the first `within`.
fn position_in(text: &str, within: &str, needle: &str) -> (usize, usize) {
    let from = text.find(within).unwrap_or_else(|| panic!("{within:?}"));
    let at = from
        + text[from..]
            .find(needle)
            .unwrap_or_else(|| panic!("{needle:?}"));
    let before = &text[..at];
    (
        before.matches('\n').count() + 1,
        before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1,
    )
}

/// Each edit of `base` (as recipes/`id`.toml) is refused at `needle` of the
/// edited text, expecting what `expected` says.
fn out_of_range(id: &str, base: &str, cases: &[(&str, &str, &str, &str)]) {
    for (from, to, needle, expected) in cases {
        let text = edit(base, from, to);
        let want = position_in(&text, to, needle);
        let errors = errors_as(id, &text);
        assert!(
            errors.iter().any(|d| (d.line, d.column) == want
                && d.expected.as_deref().is_some_and(|e| e.contains(expected))),
            "{to}: expected an error at {want:?} expecting {expected:?}, got {errors:#?}"
        );
    }
}

#[test]
fn numbers_out_of_range_are_refused_at_the_value_with_the_range_expected() {
    out_of_range(
        "hello-ceiling",
        &hello(),
        &[
            (
                "connections = 16",
                "connections = 0",
                "0",
                "from 1 to 100000",
            ),
            (
                "connections = 16",
                "connections = 4000000",
                "4",
                "from 1 to 100000",
            ),
            (
                "threads = 1\nduration",
                "threads = 32\nduration",
                "32",
                "at most 16 threads",
            ),
            ("runs = 3", "runs = 0", "0", "from 1 to 100"),
            ("runs = 3", "runs = 4000000000", "4", "from 1 to 100"),
            ("port = 9292", "port = 0", "0", "from 1 to 65535"),
            ("port = 9292", "port = 70000", "7", "from 1 to 65535"),
            ("port = 9292", "port = -1", "-", "from 1 to 65535"),
            (
                "workers = 2\nthreads = 4",
                "workers = 0\nthreads = 4",
                "0",
                "from 1 to 1024",
            ),
            ("runs = 3", "runs = 3\nrate = nan", "nan", "above 0"),
            ("runs = 3", "runs = 3\nrate = inf", "inf", "above 0"),
            ("runs = 3", "runs = 3\nrate = -5.0", "-5", "above 0"),
            ("runs = 3", "runs = 3\nrate = 0.0", "0.0", "above 0"),
            (
                "runs = 3",
                "runs = 3\nrate = 1e308",
                "1e308",
                "up to 10000000",
            ),
            (
                "status = 200, bytes",
                "status = 0, bytes",
                "0",
                "from 100 to 599",
            ),
            ("value = 54000", "value = nan", "nan", "a finite number"),
            ("value = 106000", "value = -inf", "-inf", "a finite number"),
            ("value = 1.96", "value = nan", "nan", "above 0"),
            (
                "kind = \"serve\"",
                "kind = \"serve\"\nrepeat = 0",
                "0",
                "from 1 to 100",
            ),
            ("cores = 6", "cores = 0", "0", "from 1 to"),
        ],
    );
}

#[test]
fn a_people_load_with_no_rooms_or_a_nan_share_is_refused() {
    out_of_range(
        "campfire-people",
        &recipe("campfire-people"),
        &[
            ("rooms = 30", "rooms = 0", "0", "from 1 to 10000"),
            ("accounts = 5000", "accounts = 0", "0", "from 1 to 100000"),
            (
                "steps = [250, 500, 1000, 2000, 3000]",
                "steps = [250, 0]",
                "0]",
                "from 1 to 100000",
            ),
            (
                "steps = [250, 500, 1000, 2000, 3000]",
                "steps = []",
                "[]",
                "1 to 100 steps",
            ),
            ("search = 0.10", "search = nan", "nan", "from 0 up to 1"),
            (
                "navigation_quantile = 0.99",
                "navigation_quantile = 0.0",
                "0.0",
                "above 0 up to 1",
            ),
            ("delivery_ms = 500", "delivery_ms = inf", "inf", "above 0"),
            (
                "navigate_every = \"10s\"",
                "navigate_every = \"0s\"",
                "\"0s\"",
                "from 1ms",
            ),
        ],
    );
}

#[test]
fn locations_point_at_the_key_that_is_wrong() {
    let text = edit(&hello(), "date = \"2026-10\"", "date = \"2026-13\"");
    refused(&text, "\"2026-13\"", "is not a date");
    let text = edit(&hello(), "value = 1.96", "value = 2.5");
    refused(&text, "2.5", "says 2.5×");
    let people = recipe("campfire-people");
    let text = edit(&people, "open_room = 0.55", "open_room = 0.65");
    refused_as("campfire-people", &text, "{ open_room = 0.65", "adds up to");
}

#[test]
fn a_datetime_is_called_a_date_not_a_map() {
    let text = edit(&hello(), "date = \"2026-10\"", "date = 2026-10-16");
    let d = refused(&text, "2026-10-16", "wrong type: found a date or time");
    assert!(!d.message.contains("map"), "{}", d.message);
    assert!(d.expected.unwrap().contains("in quotes"));
    let text = edit(&hello(), "duration = \"20s\"", "duration = 07:32:00");
    refused(&text, "07:32:00", "a date or time");
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir.join("recipes")).unwrap();
    let file = dir.join("recipes/hello-ceiling.toml");
    std::fs::write(&file, bytes).unwrap();
    file
}

#[test]
fn bytes_that_are_not_utf8_are_located_at_the_first_bad_byte() {
    let text = hello();
    let at = text.find("connections = 16").unwrap() + "connections = ".len();
    let mut bytes = text.as_bytes().to_vec();
    bytes.insert(at, 0xff);
    let file = scratch("utf8", &bytes);
    let err = reprise_recipe::load(&file).unwrap_err();
    let d = err.diagnostics().first().unwrap_or_else(|| panic!("{err}"));
    assert_eq!((d.line, d.column), position(&text, "16\nthreads"));
    assert!(d.message.contains("not UTF-8"), "{}", d.message);
    assert!(d.message.contains("0xff"), "{}", d.message);
    assert!(
        err.to_string()
            .contains(&format!(":{}:{}:", d.line, d.column))
    );
}

#[test]
fn a_huge_line_is_shown_as_an_excerpt_around_the_error() {
    let long = "y".repeat(600_000);
    let text = edit(
        &hello(),
        "quote = \"under Falcon, 106,000.\"",
        &format!("quote = \"{long}\u{1b}under Falcon, 106,000.\""),
    );
    let errors = errors_as("hello-ceiling", &text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let d = &errors[0];
    assert_eq!((d.line, d.column), position(&text, "\u{1b}"));
    assert!(
        d.source_line.chars().count() <= 210,
        "{}",
        d.source_line.len()
    );
    let shown = d.to_string();
    assert!(shown.len() < 2_000, "{} bytes", shown.len());
    // The caret is under the escaped character.
    let lines: Vec<&str> = shown.lines().collect();
    let code = lines.iter().find(|l| l.contains("\\u{1b}")).unwrap();
    let caret = lines.iter().find(|l| l.trim_end().ends_with('^')).unwrap();
    let column = |line: &str, at: usize| line[..at].chars().count();
    assert_eq!(
        column(code, code.find("\\u{1b}").unwrap()),
        column(caret, caret.find('^').unwrap()),
        "\n{code}\n{caret}"
    );
}

#[test]
fn a_ten_megabyte_file_is_refused_in_a_few_lines() {
    let text = format!("{}\nwhy = \"{}\"\n", hello(), "z".repeat(10 << 20));
    let (err, took) = cpu_time_of(|| {
        reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap_err()
    });
    assert!(took.as_secs_f64() < 1.0, "{took:?} on the CPU");
    let shown = err.to_string();
    assert!(shown.len() < 2_000, "{} bytes", shown.len());
    assert!(shown.contains("larger than a recipe may be"), "{shown}");
}

#[test]
fn a_huge_unknown_key_is_reported_quickly_and_briefly() {
    let key = "k".repeat(500_000);
    let text = edit(
        &hello(),
        "approx = true",
        &format!("approx = true\n{key} = 1"),
    );
    let (err, took) = cpu_time_of(|| {
        reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap_err()
    });
    assert!(took.as_secs_f64() < 1.0, "{took:?} on the CPU");
    assert!(err.to_string().len() < 4_000);
}

#[test]
fn many_errors_are_counted_after_the_first_fifty() {
    let mut text = hello();
    for i in 0..200 {
        text.push_str(&format!(
            "\n[[figure]]\nid = \"puma-hello\"\nlane = \"puma\"\nmetric = \"req_per_s\"\nvalue = {i}\nquote = \"q\"\n"
        ));
    }
    let errors = errors_as("hello-ceiling", &text);
    assert_eq!(errors.len(), 51);
    assert!(
        errors[50].message.contains("more errors"),
        "{}",
        errors[50].message
    );
}

#[test]
fn a_version_pattern_too_big_to_compile_is_refused_quickly() {
    let text = edit(
        &hello(),
        r"pattern = 'ruby (\d+\.\d+\.\d+)'",
        r"pattern = '(\w{1000})'",
    );
    let ((), took) = cpu_time_of(|| {
        refused(
            &text,
            r"'(\w{1000})'",
            "not a regular expression Reprise can use",
        );
    });
    assert!(took.as_secs_f64() < 1.0, "{took:?} on the CPU");
}

#[test]
fn a_recipe_with_thousands_of_entries_is_refused_quickly() {
    let mut text = hello();
    for i in 0..1500 {
        text.push_str(&format!(
            "\n[[claim]]\nid = \"c{i}\"\nkind = \"absolute\"\nfigure = \"nothing-{i}\"\ntolerance = 0.1\nquote = \"q\"\n"
        ));
    }
    let (errors, took) = cpu_time_of(|| errors_as("hello-ceiling", &text));
    assert!(took.as_secs_f64() < 1.0, "{took:?} on the CPU");
    assert!(
        errors[0].message.contains("[[claim]] entries"),
        "{errors:#?}"
    );
}

#[test]
fn two_lanes_reading_the_same_harness_cells_are_refused_at_the_mapping() {
    let text = edit(
        &recipe("campfire-runtimes"),
        "harness = { target = \"ruby\", workers = 1 }",
        "harness = { target = \"jruby\", workers = 1 }",
    );
    let d = refused_as(
        "campfire-runtimes",
        &text,
        "{ target = \"jruby\", workers = 1 }",
        "lanes `ruby-1p` and `jruby` both read the harness's `jruby` cells with one worker",
    );
    assert!(
        d.expected
            .as_deref()
            .unwrap_or("")
            .contains("names one lane only"),
        "{d:?}"
    );
}

/// An env key that is not a shell variable's name (`A B`, `1A`, `A-B`, `É`)
/// would read as two words or as no assignment in the plan's `NAME=value`:
/// refused at the key, with where.
#[test]
fn env_keys_are_shell_names() {
    let base = hello();
    for key in [
        "\"A B\"", "\"1A\"", "\"A-B\"", "\"É\"", "\"A.B\"", "\"\"", "\"A;B\"",
    ] {
        let text = edit(
            &base,
            "port = 9292",
            &format!("port = 9292\nenv = {{ {key} = \"1\" }}"),
        );
        let at = format!("{key} = \"1\" }}");
        let d = refused(&text, &at, "cannot be an environment variable's name");
        assert!(
            d.expected.as_deref().is_some_and(|e| e.contains("shell")),
            "{d}"
        );
    }
    for key in ["A", "_X", "RAILS_ENV", "a1"] {
        let text = edit(
            &base,
            "port = 9292",
            &format!("port = 9292\nenv = {{ {key} = \"1\" }}"),
        );
        assert!(
            reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).is_ok(),
            "{key}"
        );
    }
}

/// The post's link is opened by the app and written into reports as a link:
/// only a web page's address passes, never `javascript:` or `data:`.
#[test]
fn the_post_url_is_a_web_page() {
    let base = hello();
    let date = "date = \"2026-10\"";
    let with_url = |url: &str| edit(&base, date, &format!("{date}\nurl = \"{url}\""));
    for bad in [
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:x",
        "file:///etc/passwd",
        "https://",
        "http:///path",
        "https://:80/x",
        "//example.com/x",
        "https://example.com/a\\\"b",
        "https://example.com/<b>",
        "https://example.com/a b",
    ] {
        refused(
            &with_url(bad),
            &format!("\"{bad}"),
            "is not a web page's address",
        );
    }
    for ok in [
        "https://example.com/post",
        "HTTP://EXAMPLE.COM",
        "https://user@host.example:8443/a?b=c#d",
    ] {
        assert!(
            reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &with_url(ok)).is_ok(),
            "{ok}"
        );
    }
}
