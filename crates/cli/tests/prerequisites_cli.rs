//! `reprise preflight` of the published campfire-runtimes recipe on a
//! machine that has none of what building and bundling Campfire needs
//! besides the runtimes: each missing prerequisite is named, with the fix a
//! reader copies. The machine is this one seen through a PATH of the test's
//! own: `sh`, `grep` and `cat` from the system, an `ldconfig` whose cache
//! lists only the C library (no libclang, no libjemalloc), Ubuntu 24.04's
//! packaged cargo (1.75), and a Ruby without its headers; no C compiler,
//! no pkg-config.

#[path = "support/prerequisites.rs"]
mod prerequisites;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn preflight_names_every_missing_prerequisite_of_campfire_with_its_fix() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["sh", "grep", "cat"] {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no {tool}"));
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    script(
        &bin,
        "ldconfig",
        "echo '1 libs found in cache `/etc/ld.so.cache'\\''\n\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6'",
    );
    script(&bin, "cargo", "echo 'cargo 1.75.0'");
    // A system Ruby 3.2 without ruby-dev: it answers its version, and the
    // headers probe finds no ruby.h.
    script(
        &bin,
        "ruby",
        "case \"$*\" in --version) echo 'ruby 3.2.3 (2024-01-18 revision 52bb2ac0a6) [x86_64-linux-gnu]';; *rubyhdrdir*) echo 'no ruby.h';; *) echo 'no yjit';; esac",
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["preflight", "campfire-runtimes", "--yes", "--json"])
        .env("REPRISE_ROOT", &root)
        .env("REPRISE_DATA_DIR", dir.path().join("data"))
        .env("PATH", &bin)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    prerequisites::assert_each_is_named_with_its_fix(&report);
    // Ubuntu's cargo is named as what is here, against the post's need.
    assert_eq!(
        prerequisites::item(&report, "cargo")["reference"],
        "cargo >=1.85"
    );
    assert!(
        prerequisites::item(&report, "cargo")["here"]
            .as_str()
            .is_some_and(|h| h.starts_with("cargo 1.75.0")),
        "{}",
        prerequisites::item(&report, "cargo")
    );
}
