//! A checkout and a data dir made by a test, and `reprise` run in them: the
//! recipes the test writes, reviewed (`reprise checksums update`), as a
//! reader's clone has them.
#![allow(dead_code)]

pub mod servers;

use std::path::PathBuf;
use std::process::{Command, Stdio};

pub struct Checkout {
    pub dir: tempfile::TempDir,
}

impl Checkout {
    /// `recipes/<id>.toml` for each `(id, text)`, reviewed.
    pub fn new(recipes: &[(&str, &str)]) -> Checkout {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("recipes")).unwrap();
        std::fs::create_dir_all(root.join("checksums")).unwrap();
        for (id, text) in recipes {
            std::fs::write(root.join(format!("recipes/{id}.toml")), text).unwrap();
        }
        std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
        let c = Checkout { dir };
        let out = c.command(&["checksums", "update"]).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        c
    }

    /// `reprise ARGS` in the checkout, its output captured.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_reprise"));
        cmd.args(args)
            .env("REPRISE_ROOT", self.dir.path().join("root"))
            .env("REPRISE_DATA_DIR", self.dir.path().join("data"))
            .current_dir(self.dir.path().join("root"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// The first run folder, once there is one.
    pub fn run_dir(&self) -> Option<PathBuf> {
        let runs = std::fs::read_dir(self.dir.path().join("data/runs")).ok()?;
        runs.flatten().map(|e| e.path()).next()
    }
}

/// This checkout (its absolute path): its recipes/ are the published ones.
pub fn repo() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

#[allow(unused_imports)] // not every test program starts a server
pub use reprise_test_support::free_port;

/// A published-style results directory: Puma and Falcon, three runs each,
/// on the post's machine as its env.json describes it.
pub fn published_results(dir: &std::path::Path, falcon: [f64; 3]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut lines = String::new();
    for (target, values) in [("puma", [54_100.0, 53_600.0, 54_400.0]), ("falcon", falcon)] {
        for (i, v) in values.iter().enumerate() {
            lines.push_str(&format!(
                "{{\"target\":\"{target}\",\"workers\":2,\"endpoint\":\"/\",\"run\":{},\"warmup_sec\":5,\"rss_kb\":81920,\"pss_kb\":61440,\"req_sec\":{v},\"p50_ms\":0.3,\"p99_ms\":1.2,\"socket_errors\":0}}\n",
                i + 1
            ));
        }
    }
    std::fs::write(dir.join("per-run.json"), lines).unwrap();
    std::fs::write(
        dir.join("env.json"),
        // As bench-env writes it on Linux: lscpu's rows, boost as "0".
        r#"{"captured_at":"2026-10-16T10:00:00Z",
            "os":{"pretty_name":"Ubuntu 24.04.5 LTS","id":"ubuntu"},
            "cpu":{"lscpu":{"lscpu":[{"field":"CPU(s):","data":"12"},
              {"field":"Model name:","data":"AMD Ryzen 5 3600 6-Core Processor","children":[
                {"field":"Thread(s) per core:","data":"2"},{"field":"Core(s) per socket:","data":"6"},
                {"field":"Socket(s):","data":"1"},{"field":"CPU max MHz:","data":"3600.0000"}]}]}},
            "memory_mb":64237,
            "clock":{"governor":"performance","boost":"0","max_khz":3600000},
            "toolchains":{"ruby":"ruby 3.4.1"},"harness":{"concurrency":16,"runs":3}}"#,
    )
    .unwrap();
}
