//! The consent plan and `show` print a command so that pasting the shown
//! line into `sh` runs exactly its argument vector: random argument vectors
//! (spaces, quotes, `#;|&$\`*~`, newlines, unicode, the empty argument, an
//! assignment or a reserved word as the program) are shown, handed to a
//! real `sh`, and what `sh` made of them is compared with the vector.
//!
//! A control or invisible character (which `check` refuses in a command)
//! is shown escaped, never raw: `sh` then reads back the escape (`\u{1b}`)
//! where the character was, in the same word, and nothing else changes.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Command;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use reprise_recipe::shown::{command_line, env_assignment, escaped};

/// Characters an argument is made of: every printable ASCII character (the
/// shell's syntax among them), unicode that shows, and, unless
/// `printable_only`, line breaks, tabs, characters that do not show
/// (escaped when shown) and what `check` refuses in a command as looking
/// like something else (a no-break space, shown as a space; a combining
/// overlay, escaped).
fn alphabet(printable_only: bool) -> Vec<char> {
    let mut chars: Vec<char> = (' '..='~').collect();
    chars.extend(['é', 'ß', '日', '本', '🎉', 'ü', 'Ω', 'ق']);
    if !printable_only {
        chars.extend([
            '\n',
            '\t',
            '\r',
            '\u{1b}',
            '\u{7f}',
            '\u{9b}',
            '\u{200b}',
            '\u{202e}',
            '\u{3164}',
            '\u{fe0f}',
            '\u{34f}',
            '\u{e0041}',
            '\u{2028}',
            '\u{a0}',
            '\u{338}',
        ]);
    }
    // The characters a shell reads as syntax, more often.
    chars.extend("'\"\\$`#;|&<>(){}[]*?~!= ".chars());
    chars
}

/// Words a shell reads specially where a command starts, and as arguments.
const SPECIAL: &[&str] = &[
    "",
    "#",
    "A=1",
    "if",
    "then",
    "!",
    "{",
    "}",
    "--",
    "-",
    "~",
    "*",
    "$IFS",
    "a\\ b",
    "'",
    "\"",
    "\\",
    "${x}",
    "$(id)",
    "`id`",
    "x;y",
    "x|y",
    "x&",
    "a b",
    "done",
    "in",
    "=",
    "A B=1",
    "hello; touch X",
    "#comment",
];

fn word(printable_only: bool) -> impl Strategy<Value = String> {
    prop_oneof![
        1 => proptest::sample::select(SPECIAL).prop_map(String::from),
        4 => proptest::collection::vec(proptest::sample::select(alphabet(printable_only)), 0..12)
            .prop_map(|chars| chars.into_iter().collect::<String>()),
    ]
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5eed_0040),
        ..Config::default()
    }
}

/// What `sh` reads as words from `line` (each a `printf` argument), split
/// where `printf '%s\0'` put its NULs.
fn sh_words(line: &str) -> Vec<String> {
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {line}"))
        // No PATH, in a folder of its own: a line quoted wrong runs nothing.
        .env("PATH", "/nonexistent")
        .current_dir(bin_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "sh failed on {line:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut words: Vec<String> = text.split('\0').map(String::from).collect();
    assert_eq!(words.pop().as_deref(), Some(""), "{line:?}");
    words
}

/// A folder of this test process's own (under the target's tmp/), for
/// the programs it names.
fn bin_dir() -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("quoting-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A program that prints its arguments, each followed by a NUL.
fn print_args() -> &'static PathBuf {
    static SCRIPT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCRIPT.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("quoting-print-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("print-args");
        std::fs::write(&path, "#!/bin/sh\nfor a; do printf '%s\\0' \"$a\"; done\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    })
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn a_shown_command_line_reads_back_in_sh_as_exactly_its_arguments(
        argv in proptest::collection::vec(word(false), 1..7),
    ) {
        let line = command_line(&argv);
        prop_assert!(
            !line.contains(|c: char| c.is_control()),
            "{argv:?} shown raw: {line:?}"
        );
        // Each argument comes back whole: itself, or (where it holds a
        // character `check` refuses) itself with that character escaped.
        let expected: Vec<String> = argv.iter().map(|a| escaped(a).into_owned()).collect();
        prop_assert_eq!(sh_words(&line), expected, "{:?} shown as {}", argv, line);
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// The program is found on a PATH holding only it, and prints what it
    /// was given: one named like an assignment (`A=1`) or a reserved word
    /// (`if`) is still run, not read as syntax.
    #[test]
    fn a_shown_command_line_runs_its_program_with_exactly_its_arguments(
        program in word(true).prop_filter("a file name", |p| {
            !p.is_empty() && !p.contains('/') && p != "." && p != ".."
        }),
        args in proptest::collection::vec(word(true), 0..4),
    ) {
        let dir = bin_dir();
        let path = dir.join(&program);
        std::os::unix::fs::symlink(print_args(), &path).unwrap();
        let argv: Vec<String> = std::iter::once(program.clone()).chain(args.iter().cloned()).collect();
        let line = command_line(&argv);
        let run = || {
            Command::new("/bin/sh")
                .args(["-c", "--", &line])
                .env("PATH", &dir)
                .current_dir(&dir)
                .output()
                .unwrap()
        };
        // A thread of this test forking while the script was being written
        // holds it open until it execs: ETXTBSY, for a moment.
        let mut out = run();
        for _ in 0..20 {
            if !String::from_utf8_lossy(&out.stderr).contains("Text file busy") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            out = run();
        }
        std::fs::remove_file(&path).unwrap();
        prop_assert!(out.status.success(), "{:?} shown as {}: {:?}", argv, line, out);
        let text = String::from_utf8(out.stdout).unwrap();
        let mut got: Vec<&str> = text.split('\0').collect();
        got.pop();
        prop_assert_eq!(got, args, "{:?} shown as {}", argv, line);
    }

    #[test]
    fn an_env_assignment_reads_back_as_one_assignment(value in word(true)) {
        let shown = env_assignment("REPRISE_X", &value);
        let out = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("{shown} /bin/sh -c 'printf %s \"$REPRISE_X\"'"))
            .env_clear()
            .current_dir(bin_dir())
            .output()
            .unwrap();
        prop_assert_eq!(String::from_utf8(out.stdout).unwrap(), value, "shown as {}", shown);
    }
}

#[test]
fn a_name_that_is_not_a_shell_name_is_one_word() {
    assert_eq!(sh_words(&env_assignment("A B", "1")), ["A B=1"]);
    assert_eq!(env_assignment("A", "x y"), "A='x y'");
}
