//! Every printer of a stored run escapes what it was given: a run whose
//! every string field (the machine's names, the toolchains, the lanes, the
//! endpoints, the deviations, the verdicts' words, the recipe's) holds a
//! control, bidi, invisible or space-like character comes out of `report`
//! (Markdown, HTML, `--verdicts`), the `share` preview, `compare` and
//! `history` with each of them escaped or refused, never raw.
//!
//! The harness files' reader refuses these characters, so no run judged
//! now holds them (verdict_cli's `a_harness_file_whose_text_could_change_…`);
//! this is the run stored before that, or by another program, written into
//! the history as it is.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use reprise_recipe::shown::shows_as_is;

fn reprise(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", support::repo())
        .env("REPRISE_DATA_DIR", data)
        .env("REPRISE_TOKEN_STORE", "file")
        .env("REPRISE_GITHUB_URL", "http://127.0.0.1:9")
        .env("REPRISE_GITHUB_API_URL", "http://127.0.0.1:9")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .env_remove("REPRISE_DISCUSSIONS_REPO")
        .env("PATH", "/usr/bin:/bin")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A published run of hello-ceiling, as the harness writes its files, with
/// its parity record.
fn results(dir: &Path) {
    support::published_results(dir, [93_900.0, 94_500.0, 93_200.0]);
    std::fs::write(
        dir.join("parity.json"),
        r#"[{"lane":"puma","endpoint":"/","fingerprint":"200 13 bytes sha256:ab"}]"#,
    )
    .unwrap();
}

/// The paths of every string leaf of `value`.
fn string_paths(value: &serde_json::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        serde_json::Value::String(_) => out.push(at.clone()),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                at.push(i.to_string());
                string_paths(item, at, out);
                at.pop();
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                at.push(key.clone());
                string_paths(item, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn leaf<'a>(value: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    path.iter().fold(value, |v, key| match v {
        serde_json::Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
        serde_json::Value::Object(map) => map.get_mut(key).unwrap(),
        _ => unreachable!(),
    })
}

/// The report with `bad` in the middle of every string field that can hold
/// it and still read as a report: how many fields took it.
fn poisoned(report: &serde_json::Value, bad: &str) -> (reprise_report::Report, usize) {
    let mut paths = Vec::new();
    string_paths(report, &mut Vec::new(), &mut paths);
    let mut value = report.clone();
    let mut taken = 0;
    // The run's id is the key it is stored under (and a file name): a name
    // checked where it is made, kept as it is here.
    for path in paths.into_iter().filter(|p| p != &["run", "id"]) {
        let field = leaf(&mut value, &path);
        let before = field.clone();
        let text = before.as_str().unwrap_or_default();
        // In the middle, where a reader would not look for it.
        let at = text
            .char_indices()
            .nth(text.chars().count() / 2)
            .map_or(text.len(), |(i, _)| i);
        *field = format!("{}{bad}{}", &text[..at], &text[at..]).into();
        if serde_json::from_value::<reprise_report::Report>(value.clone()).is_ok() {
            taken += 1;
        } else {
            *leaf(&mut value, &path) = before;
        }
    }
    (serde_json::from_value(value).unwrap(), taken)
}

/// What a reader would see is clean: every character shows as itself.
fn clean(what: &str, out: &Output, bad: &str) {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let raw: Vec<char> = text
        .chars()
        .filter(|c| !matches!(c, '\n' | '\t') && !shows_as_is(*c))
        .collect();
    assert!(
        raw.is_empty(),
        "{what} with {bad:?} printed {raw:?} raw:\n{}",
        text.escape_debug()
    );
}

#[test]
fn every_printer_of_a_stored_run_escapes_every_string_field() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let dir = tmp.path().join("results");
    results(&dir);
    let out = reprise(&data, &["verdict", "hello-ceiling", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let history = reprise_history::History::open(&data).unwrap();
    let id = history.list().unwrap()[0].id.clone();
    let stored = serde_json::to_value(history.load(&id).unwrap()).unwrap();
    drop(history);
    for bad in [
        "\u{1b}[2J",
        "\u{7}",
        "\u{9b}",
        "\r",
        "\u{202e}",
        "\u{2067}",
        "\u{200b}",
        "\u{feff}",
        "\u{a0}",
        "\u{2028}",
        "\u{0338}",
    ] {
        let (report, taken) = poisoned(&stored, bad);
        assert!(taken > 40, "only {taken} fields took {bad:?}");
        let mut history = reprise_history::History::open(&data).unwrap();
        history.store(&report).unwrap();
        drop(history);
        for args in [
            vec!["report", id.as_str()],
            vec!["report", id.as_str(), "--verdicts"],
            vec!["report", id.as_str(), "--format", "html"],
            vec!["share", id.as_str(), "--repo", "rubys/reprise"],
            vec!["compare", id.as_str(), id.as_str()],
            vec!["history"],
        ] {
            let out = reprise(&data, &args);
            clean(&args.join(" "), &out, bad);
        }
    }
}
