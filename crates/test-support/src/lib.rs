//! What the tests and benches run that is not the real thing, where the
//! real thing is out of reach on a test machine: the Campfire-shaped server
//! (`campfire_shaped_server`, a binary), the smallest server of Campfire's
//! shape, for the people load (Campfire itself holds a few hundred people on
//! two cores, not thousands). Nothing here ships in Reprise.
//!
//! `cargo test` of the workspace builds the binary beside the test programs
//! (`target/debug/campfire_shaped_server`), where
//! [`campfire_shaped_server`] finds it.

use std::path::PathBuf;

/// The Campfire-shaped server's binary beside the test program that asks
/// (`target/<profile>/deps/<test>` → `target/<profile>/campfire_shaped_server`);
/// a missing one fails the test with how to build it.
pub fn campfire_shaped_server() -> PathBuf {
    let exe = std::env::current_exe().expect("the test program's path");
    let profile = exe
        .ancestors()
        .find(|dir| dir.join("deps").is_dir())
        .expect("a test program under target/<profile>/deps");
    let server = profile.join("campfire_shaped_server");
    assert!(
        server.is_file(),
        "{} is missing: build it with `cargo build -p reprise-test-support` (the workspace's `cargo test` does)",
        server.display()
    );
    server
}
