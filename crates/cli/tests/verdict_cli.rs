//! `reprise verdict`, `history`, `compare` and `report` as a reader runs
//! them: a results directory in the harness's format made by the test,
//! judged against the repository's hello-ceiling recipe, stored in a temp
//! data dir.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::published_results as results;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn reprise(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", repo())
        .env("REPRISE_DATA_DIR", data)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_published_run_is_judged_stored_listed_and_rendered() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let res = tmp.path().join("results");
    results(&res, [105_000.0, 106_500.0, 107_000.0]);

    let out = reprise(&data, &["verdict", "hello-ceiling", res.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("— 4 reproduced\n"), "{text}");
    assert!(
        text.contains("falcon-twice-puma  ratio     reproduced"),
        "{text}"
    );
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("Stored as run "))
        .and_then(|l| l.split(':').next())
        .expect(&text)
        .to_string();
    assert!(id.starts_with("hello-ceiling-"), "{id}");

    let out = reprise(&data, &["history"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = stdout(&out);
    let row = listed.lines().find(|l| l.starts_with(&id)).expect(&listed);
    assert!(
        row.contains(" measured  —      hello-ceiling  10     4"),
        "{row}"
    );

    let html = tmp.path().join("report.html");
    let harness = tmp.path().join("harness");
    let out = reprise(
        &data,
        &[
            "report",
            &id,
            "--format",
            "html",
            "-o",
            html.to_str().unwrap(),
            "--harness",
            harness.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("class=\"cell-mark\""));
    assert!(page.contains("ruby 3.4.1"), "the appendix carries env.json");
    let summary = std::fs::read_to_string(harness.join("summary.json")).unwrap();
    assert!(summary.contains("\"req_sec\": 106500.0"), "{summary}");

    let out = reprise(&data, &["report", &id, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["run"]["id"], id.as_str());
    assert_eq!(json["judgement"]["machine"]["machine"], "matches");
}

#[test]
fn compare_shows_two_runs_side_by_side_with_ratios() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let (slow, fast) = (tmp.path().join("slow"), tmp.path().join("fast"));
    results(&slow, [80_000.0, 80_000.0, 80_000.0]);
    results(&fast, [120_000.0, 120_000.0, 120_000.0]);
    let mut ids = Vec::new();
    for dir in [&slow, &fast] {
        let out = reprise(&data, &["verdict", "hello-ceiling", dir.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        ids.push(
            text.lines()
                .find_map(|l| l.strip_prefix("Stored as run "))
                .and_then(|l| l.split(':').next())
                .unwrap()
                .to_string(),
        );
    }
    assert_ne!(ids[0], ids[1]);
    let out = reprise(&data, &["compare", &ids[0], &ids[1]]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let falcon = text
        .lines()
        .find(|l| l.starts_with("falcon") && l.contains("req_per_s"))
        .expect(&text);
    assert!(
        falcon.contains("80,000") && falcon.contains("120,000") && falcon.ends_with("1.50×"),
        "{falcon}"
    );
}

#[test]
fn a_ratio_outside_the_band_and_a_different_machine_read_as_such() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path().join("results");
    results(&res, [70_000.0, 71_000.0, 69_000.0]);
    let out = reprise(
        &tmp.path().join("data"),
        &[
            "verdict",
            "hello-ceiling",
            res.to_str().unwrap(),
            "--machine",
            "differs",
            "--no-store",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("falcon-twice-puma  ratio     not reproduced"),
        "{text}"
    );
    assert!(
        text.contains("puma-ceiling       absolute  not comparable"),
        "{text}"
    );
    assert!(!text.contains("Stored as run"), "{text}");
}

#[test]
fn a_skipped_lane_is_not_measured_and_a_cell_with_errors_is_no_data() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let res = tmp.path().join("results");
    results(&res, [105_000.0, 106_500.0, 107_000.0]);
    // Falcon never ran; Puma's second run had socket errors.
    let per_run: String = std::fs::read_to_string(res.join("per-run.json"))
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"target\":\"falcon\""))
        .map(|l| {
            if l.contains("\"run\":2,") {
                l.replace("\"socket_errors\":0", "\"socket_errors\":3")
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    std::fs::write(res.join("per-run.json"), per_run).unwrap();
    std::fs::write(
        res.join("skipped.json"),
        r#"[{"target":"falcon","stage":"preflight","reason":"it needs falcon, which this machine lacks","log_tail":""}]"#,
    )
    .unwrap();

    let out = reprise(&data, &["verdict", "hello-ceiling", res.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("1 no data · 3 not measured"), "{text}");
    assert!(
        text.contains("puma-ceiling       absolute  no data"),
        "{text}"
    );
    assert!(
        text.contains("falcon-ceiling     absolute  not measured"),
        "{text}"
    );
    assert!(
        text.contains("falcon-twice-puma  ratio     not measured"),
        "{text}"
    );
    // Each reason once, as a note the claims' rows point to.
    assert!(
        text.contains("] puma-hello: no data: run 2 had 3 errors"),
        "{text}"
    );
    let lane =
        "] lane falcon was not measured (preflight): it needs falcon, which this machine lacks";
    assert_eq!(text.matches(lane).count(), 1, "{text}");
    assert!(
        !text.contains("differs from the post: lane falcon"),
        "said once, as the claims' note: {text}"
    );
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("next: reprise report ")),
        "{text}"
    );

    let out = reprise(&data, &["history"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = stdout(&out);
    let header = listed.lines().next().unwrap();
    assert!(
        header.contains("inconclusive  no data  not measured  not comparable"),
        "{header}"
    );
    let row: Vec<&str> = listed.lines().nth(1).unwrap().split_whitespace().collect();
    // reproduced, not reproduced, inconclusive, no data, not measured, not comparable
    assert_eq!(
        row[row.len() - 6..],
        ["0", "0", "0", "1", "3", "0"],
        "{listed}"
    );
}

#[test]
fn bad_input_is_reported_with_exit_code_two() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let out = reprise(
        &data,
        &[
            "verdict",
            "hello-ceiling",
            tmp.path().join("missing").to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("missing/per-run.json"),
        "{}",
        stderr(&out)
    );

    let out = reprise(&data, &["report", "no-such-run"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no run `no-such-run` in the history"),
        "{}",
        stderr(&out)
    );

    let out = reprise(&data, &["history"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("No runs yet"), "{}", stdout(&out));
}

/// `reprise` run with a terminal as its stdout (util-linux `script`), as a
/// reader at a terminal runs it; what the terminal showed.
fn at_a_terminal(data: &Path, args: &[&str], no_color: bool) -> String {
    let line = std::iter::once(env!("CARGO_BIN_EXE_reprise"))
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"])
        .env("REPRISE_ROOT", repo())
        .env("REPRISE_DATA_DIR", data)
        .env_remove("NO_COLOR");
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    let out = cmd.output().expect("script (util-linux)");
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn verdicts_are_coloured_at_a_terminal_unless_no_color_and_never_in_a_pipe() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path().join("results");
    results(&res, [105_000.0, 106_500.0, 107_000.0]);
    let args = [
        "verdict",
        "hello-ceiling",
        res.to_str().unwrap(),
        "--no-store",
    ];
    let coloured = at_a_terminal(&tmp.path().join("a"), &args, false);
    assert!(
        coloured.contains("\x1b[32mreproduced\x1b[0m"),
        "green for reproduced: {coloured:?}"
    );
    let plain = at_a_terminal(&tmp.path().join("b"), &args, true);
    assert!(!plain.contains("\x1b["), "NO_COLOR: {plain:?}");
    assert!(plain.contains("reproduced"), "{plain}");
    let piped = reprise(&tmp.path().join("c"), &args);
    assert!(!stdout(&piped).contains("\x1b["), "{}", stdout(&piped));
}

/// Text in a harness file that could change what a reader sees — a control
/// (C0, C1, a line break), a bidi or invisible character, a blank that is
/// not a space, a combining mark — in any string of per-run.json, env.json
/// or parity.json, is refused where `reprise verdict` reads the file: no
/// run is stored, so no report, share preview, comparison or page can
/// print it, and the error shows the character escaped.
#[test]
fn a_harness_file_whose_text_could_change_what_a_reader_sees_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let fields: [(&str, &str, &str); 5] = [
        (
            "per-run.json",
            "\"target\":\"puma\"",
            "\"target\":\"pu{}ma\"",
        ),
        ("per-run.json", "\"endpoint\":\"/\"", "\"endpoint\":\"/{}\""),
        ("env.json", "Ryzen 5 3600", "Ryzen 5{}3600"),
        ("env.json", "\"ruby 3.4.1\"", "\"ruby 3.4.1{}\""),
        ("parity.json", "sha256:ab", "sha256:a{}b"),
    ];
    for (file, plain, changed) in fields {
        for bad in [
            "\\u001b[2J",
            "\\u009b",
            "\\n",
            "\\u202e",
            "\\u200b",
            "\\u00a0",
            "\\u0338",
        ] {
            let dir = tmp.path().join("results");
            let _ = std::fs::remove_dir_all(&dir);
            results(&dir, [93_900.0, 94_500.0, 93_200.0]);
            std::fs::write(
                dir.join("parity.json"),
                r#"[{"lane":"puma","endpoint":"/","fingerprint":"200 13 bytes sha256:ab"}]"#,
            )
            .unwrap();
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains(plain), "{file}: {plain}");
            std::fs::write(&path, text.replace(plain, &changed.replace("{}", bad))).unwrap();
            let out = reprise(&data, &["verdict", "hello-ceiling", dir.to_str().unwrap()]);
            let said = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{file} {bad}: {said}");
            assert!(said.contains(file), "{file} {bad}: {said}");
            assert!(
                said.contains("could change what a reader sees"),
                "{file} {bad}: {said}"
            );
            assert!(
                said.chars()
                    .chain(stdout(&out).chars())
                    .all(|c| c == '\n' || reprise_recipe::shown::shows_as_is(c)),
                "{file} {bad}: {said:?}"
            );
        }
    }
    let out = reprise(&data, &["history"]);
    assert!(stdout(&out).starts_with("No runs yet"), "{}", stdout(&out));
}
