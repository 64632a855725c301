//! `reprise recipes`, `show`, `check` and `checksums` as a reader runs them,
//! over a copy of the repository's recipes made by each test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A copy of recipes/ and checksums/ in a temp dir, as a fresh checkout has them.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["recipes", "checksums"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for entry in std::fs::read_dir(repo().join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.path().join(sub).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

fn reprise(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", root)
        .current_dir(root)
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
fn recipes_lists_every_recipe_with_its_counts() {
    let dir = checkout();
    let out = reprise(dir.path(), &["recipes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("hello-ceiling "))
        .expect(&text);
    let cells: Vec<&str> = line
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    // id, post, date, steps, figures, claims, runnable lanes, checksum
    assert_eq!(&cells[3..6], ["3", "2", "4"], "{line}");
    assert_eq!(cells.last(), Some(&"reviewed"), "{line}");
    let files = std::fs::read_dir(dir.path().join("recipes"))
        .unwrap()
        .count();
    assert_eq!(text.lines().count(), files + 1, "{text}");
}

#[test]
fn show_prints_steps_in_order_with_reasons_and_figures_with_sentences() {
    let dir = checkout();
    let out = reprise(dir.path(), &["show", "hello-ceiling"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let serve = text.find("1. serve [serve]").expect(&text);
    let check = text.find("2. check [check]").expect(&text);
    let measure = text.find("3. measure [load]").expect(&text);
    assert!(serve < check && check < measure);
    assert!(text.contains("≈54,000 req/s"), "{text}");
    assert!(
        text.contains("serves about 54,000 requests a second"),
        "{text}"
    );
    assert!(text.contains("matches checksums/recipes.sha256"), "{text}");
}

#[test]
fn show_suggests_the_id_that_was_meant() {
    let dir = checkout();
    let out = reprise(dir.path(), &["show", "hello-cieling"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `hello-ceiling`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_reports_file_line_and_column_and_exits_2() {
    let dir = checkout();
    let file = dir.path().join("recipes/hello-ceiling.toml");
    let text =
        std::fs::read_to_string(&file)
            .unwrap()
            .replacen("kind = \"load\"", "kind = \"lod\"", 1);
    std::fs::write(&file, &text).unwrap();
    let out = reprise(dir.path(), &["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let line = text[..text.find("\"lod\"").unwrap()].matches('\n').count() + 1;
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "hello-ceiling.toml:{line}:8: unknown step kind `lod`"
        )),
        "{err}"
    );
    assert!(err.contains("did you mean `load`?"), "{err}");
}

#[test]
fn check_passes_every_recipe_of_the_repository() {
    let dir = checkout();
    let out = reprise(dir.path(), &["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).lines().all(|l| l.starts_with("ok  ")),
        "{}",
        stdout(&out)
    );
}

#[test]
fn checksums_catch_a_one_byte_change_until_updated() {
    let dir = checkout();
    let out = reprise(dir.path(), &["checksums", "verify"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));

    let file = dir.path().join("recipes/hello-ceiling.toml");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.iter().position(|b| *b == b'6').unwrap();
    bytes[at] = b'7';
    std::fs::write(&file, &bytes).unwrap();

    let out = reprise(dir.path(), &["checksums", "verify"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("MODIFIED  recipes/hello-ceiling.toml"),
        "{}",
        stdout(&out)
    );
    let shown = reprise(dir.path(), &["show", "hello-ceiling"]);
    assert!(stdout(&shown).contains("MODIFIED"), "{}", stdout(&shown));

    let out = reprise(dir.path(), &["checksums", "update"]);
    assert!(
        stdout(&out).contains("updated  recipes/hello-ceiling.toml"),
        "{}",
        stdout(&out)
    );
    assert!(
        reprise(dir.path(), &["checksums", "verify"])
            .status
            .success()
    );
    // The manifest is sha256sum's format: coreutils agrees.
    let coreutils = Command::new("sha256sum")
        .args(["-c", "checksums/recipes.sha256"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(coreutils.status.success(), "{}", stdout(&coreutils));
}

#[test]
fn recipes_lists_the_others_when_one_is_broken_and_check_locates_its_error() {
    let dir = checkout();
    let hello = std::fs::read_to_string(dir.path().join("recipes/hello-ceiling.toml")).unwrap();
    let huge = hello
        .replacen("id = \"hello-ceiling\"", "id = \"huge\"", 1)
        .replacen("duration = \"20s\"", "duration = \"5124095576030432h\"", 1);
    std::fs::write(dir.path().join("recipes/huge.toml"), &huge).unwrap();
    let mut binary = hello
        .replacen("id = \"hello-ceiling\"", "id = \"binary\"", 1)
        .into_bytes();
    binary.insert(0, 0xff);
    std::fs::write(dir.path().join("recipes/binary.toml"), &binary).unwrap();

    let out = reprise(dir.path(), &["recipes"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stdout(&out);
    for id in ["hello-ceiling", "campfire-runtimes", "machine"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{id} ")) && !l.contains("invalid")),
            "{id} not listed:\n{text}"
        );
    }
    for id in ["huge", "binary"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{id} ")) && l.contains("invalid")),
            "{id} not listed as invalid:\n{text}"
        );
    }

    let out = reprise(
        dir.path(),
        &["check", "recipes/huge.toml", "recipes/binary.toml"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let line = huge[..huge.find("\"5124095576030432h\"").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert!(err.contains(&format!("huge.toml:{line}:12:")), "{err}");
    assert!(
        err.contains("binary.toml:1:1: the file is not UTF-8"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
