//! What the tests and benches run that is not the real thing, where the
//! real thing is out of reach on a test machine: the Campfire-shaped server
//! (`campfire_shaped_server`, a binary), the smallest server of Campfire's
//! shape, for the people load (Campfire itself holds a few hundred people on
//! two cores, not thousands). Nothing here ships in Reprise.
//!
//! `cargo test` of the workspace builds the binary beside the test programs
//! (`target/debug/campfire_shaped_server`), where
//! [`campfire_shaped_server`] finds it. And what a Podman API service a
//! test starts needs on these machines ([`containers_conf`]).

use std::path::{Path, PathBuf};

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

/// A `containers.conf` in `dir` for a Podman service a test starts: runc,
/// and the ulimits it may set here (the hard open-files limit, at most
/// 65,536): without both no container starts on these machines (see the
/// shared FACTS). Answers its path, for `CONTAINERS_CONF`.
pub fn containers_conf(dir: &Path) -> PathBuf {
    let hard = std::process::Command::new("sh")
        .args(["-c", "ulimit -Hn"])
        .output()
        .expect("sh answers `ulimit -Hn`");
    let nofile = String::from_utf8_lossy(&hard.stdout)
        .trim()
        .parse::<u64>()
        .unwrap_or(1024)
        .min(65536);
    let conf = dir.join("containers.conf");
    std::fs::write(
        &conf,
        format!(
            "[engine]\nruntime = \"runc\"\n[containers]\ndefault_ulimits = [\"nofile={nofile}:{nofile}\", \"nproc=4096:4096\"]\n"
        ),
    )
    .expect("containers.conf is written");
    conf
}
