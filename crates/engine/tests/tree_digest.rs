//! Tree digests against coreutils' sha256sum on a tree the test makes.

use std::path::Path;
use std::process::Command;

use reprise_engine::inputs::tree_digest::{Manifest, digest_tree};

fn make_tree(root: &Path) {
    for i in 0..150 {
        let dir = root.join(format!("d{}/sub{}", i % 7, i % 3));
        std::fs::create_dir_all(&dir).unwrap();
        let body: Vec<u8> = (0..(i * 37 % 5000)).map(|b| (b * i % 251) as u8).collect();
        std::fs::write(dir.join(format!("f{i}.txt")), body).unwrap();
    }
    std::fs::write(root.join("with space.txt"), "spaced\n").unwrap();
    std::fs::write(root.join("Upper.txt"), "case sorts before lower\n").unwrap();
    std::fs::write(root.join("empty"), "").unwrap();
    std::fs::create_dir_all(root.join("empty-dir")).unwrap();
}

fn coreutils_manifest(root: &Path, paths: &[&String]) -> String {
    let out = Command::new("sha256sum")
        .args(paths.iter().map(|p| p.as_str()))
        .current_dir(root)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn manifest_matches_sha256sum_and_checks_with_it() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path());
    let manifest = digest_tree(dir.path(), &|_, _| {}).unwrap();
    assert_eq!(manifest.files.len(), 153);

    // Same lines as coreutils prints for the same sorted paths.
    let paths: Vec<&String> = manifest.files.keys().collect();
    assert_eq!(manifest.text(), coreutils_manifest(dir.path(), &paths));

    // And `sha256sum -c` accepts the manifest from the tree's root.
    let list = dir.path().join("../manifest-for-check.sha256");
    std::fs::write(&list, manifest.text()).unwrap();
    let check = Command::new("sha256sum")
        .arg("-c")
        .arg("--quiet")
        .arg(&list)
        .current_dir(dir.path())
        .status()
        .unwrap();
    std::fs::remove_file(&list).unwrap();
    assert!(check.success());

    // The one digest is the digest of the manifest text.
    let mut hasher = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    hasher
        .stdin
        .take()
        .unwrap()
        .write_all(manifest.text().as_bytes())
        .unwrap();
    let out = hasher.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.split_whitespace().next().unwrap(), manifest.digest());
}

#[test]
fn a_changed_tree_names_the_files_that_differ_are_missing_or_extra() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path());
    let expected = digest_tree(dir.path(), &|_, _| {}).unwrap();
    let saved = Manifest::parse(Path::new("saved.sha256"), &expected.text()).unwrap();
    assert_eq!(saved, expected);
    assert!(expected.compare(&saved).is_empty());

    std::fs::write(dir.path().join("d1/sub1/f1.txt"), "changed").unwrap();
    std::fs::remove_file(dir.path().join("with space.txt")).unwrap();
    std::fs::write(dir.path().join("d0/new.txt"), "new").unwrap();
    let now = digest_tree(dir.path(), &|_, _| {}).unwrap();
    assert_ne!(now.digest(), expected.digest());
    let mismatch = now.compare(&saved);
    assert_eq!(mismatch.differ, vec!["d1/sub1/f1.txt"]);
    assert_eq!(mismatch.missing, vec!["with space.txt"]);
    assert_eq!(mismatch.extra, vec!["d0/new.txt"]);
    let said = mismatch.to_string();
    assert!(said.contains("1 differ: d1/sub1/f1.txt"), "{said}");
    assert!(said.contains("1 missing: with space.txt"), "{said}");
}

#[test]
fn progress_counts_every_file_and_bad_manifests_are_located() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path());
    let last = std::sync::Mutex::new((0, 0));
    digest_tree(dir.path(), &|done, total| {
        *last.lock().unwrap() = (done, total)
    })
    .unwrap();
    assert_eq!(*last.lock().unwrap(), (153, 153));

    let err = Manifest::parse(Path::new("m.sha256"), "abc  file\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "m.sha256:1: not a sha256sum line (`<64 hex>  <path>`)"
    );
}
