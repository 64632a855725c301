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

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
