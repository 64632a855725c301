//! The TypeScript client in `ui/src/bindings/` is generated from the
//! command list (`src-tauri/src/ipc.rs`): `commands.ts`, and every type a
//! command takes or answers, from the crate that defines it. This test
//! regenerates them and fails when the committed ones are stale.
//! `REPRISE_UPDATE_BINDINGS=1` rewrites them.

use std::collections::BTreeMap;
use std::path::Path;

fn generate(dir: &Path) {
    reprise_desktop::write_client(dir).unwrap();
}

/// Every `.ts` file under `dir`, by its path relative to `dir`.
fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x == "ts") {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                found.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    found
}

#[test]
fn the_committed_typescript_bindings_are_fresh() {
    let committed = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../ui/src/bindings"));
    let fresh = tempfile::tempdir().unwrap();
    generate(fresh.path());
    let generated = files(fresh.path());
    assert!(
        generated.contains_key("PostView.ts") && generated.contains_key("commands.ts"),
        "{:?}",
        generated.keys()
    );
    if std::env::var_os("REPRISE_UPDATE_BINDINGS").is_some() {
        std::fs::create_dir_all(committed).unwrap();
        for old in files(committed).keys() {
            std::fs::remove_file(committed.join(old)).unwrap();
        }
        for (name, text) in &generated {
            let file = committed.join(name);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
    }
    let on_disk = files(committed);
    let stale: Vec<&String> = generated
        .keys()
        .chain(on_disk.keys())
        .filter(|name| generated.get(*name) != on_disk.get(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "ui/src/bindings is stale ({stale:?}); run \
         `REPRISE_UPDATE_BINDINGS=1 cargo test -p reprise-desktop --features test --test bindings`"
    );
}
