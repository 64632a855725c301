//! A preflight runs nothing the recipe names until the reader accepts the
//! version commands, and never for a recipe that is not the reviewed one
//! unless the reader allows it. The toolchain here is a real `sh` whose
//! version command leaves a mark when it runs.

use std::path::Path;

use reprise_recipe::Catalog;
use reprise_session::preflight::Versions;
use reprise_session::{DataDir, Session, SessionError, ShareSettings};

fn recipe(mark: &Path) -> String {
    format!(
        r#"[post]
id = "marked"
title = "Marked"
author = "A. Writer"
date = "2026"
summary = "A toolchain whose version command leaves a mark."

[[toolchain]]
name = "marker"
version = "1.2.3"
command = ["sh", "-c", "touch '{}'; echo marker 1.2.3"]
pattern = 'marker (\d+\.\d+\.\d+)'
"#,
        mark.display()
    )
}

struct Setup {
    dir: tempfile::TempDir,
    session: Session,
}

impl Setup {
    fn new(reviewed: bool) -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("recipes")).unwrap();
        std::fs::write(
            root.join("recipes/marked.toml"),
            recipe(&dir.path().join("ran")),
        )
        .unwrap();
        let catalog = Catalog::new(&root);
        catalog.update_checksums().unwrap();
        if !reviewed {
            std::fs::write(
                root.join("recipes/marked.toml"),
                recipe(&dir.path().join("ran")) + "\n# edited\n",
            )
            .unwrap();
        }
        let session = Session::new(
            catalog,
            DataDir::new(dir.path().join("data")),
            ShareSettings::from_env(),
        );
        Setup { dir, session }
    }

    fn ran(&self) -> bool {
        self.dir.path().join("ran").exists()
    }

    fn preflight(
        &self,
        versions: Versions,
        allow_modified: bool,
    ) -> Result<reprise_probe::preflight::Preflight, SessionError> {
        let loaded = self.session.load_recipe("marked").unwrap();
        let here = reprise_engine::LaneHost::ThisMachine;
        self.session
            .preflight(
                &loaded,
                versions,
                allow_modified,
                &here,
                reprise_engine::ServerHostReading::Hardware,
            )
            .map(|found| found.report)
    }
}

const ASK: Versions = Versions::Ask {
    timeout: std::time::Duration::from_secs(5),
};

#[test]
fn locating_runs_nothing_and_lists_what_asking_would_run() {
    let s = Setup::new(true);
    let p = s.preflight(Versions::Locate, false).unwrap();
    assert!(!s.ran(), "looking for a program ran the recipe's command");
    assert!(!p.versions_asked);
    assert_eq!(p.version_commands.len(), 1);
    assert!(
        p.version_commands[0].starts_with("sh -c 'touch "),
        "{:?}",
        p.version_commands
    );
    let item = p.item("toolchain marker").unwrap();
    assert!(
        item.here.as_deref().unwrap().contains("version not asked"),
        "{item:?}"
    );
}

#[test]
fn asking_runs_the_version_commands_of_the_reviewed_recipe() {
    let s = Setup::new(true);
    let p = s.preflight(ASK, false).unwrap();
    assert!(s.ran());
    assert!(p.versions_asked);
    let item = p.item("toolchain marker").unwrap();
    assert_eq!(
        item.verdict,
        reprise_probe::preflight::Verdict::Matches,
        "{item:?}"
    );
}

#[test]
fn asking_a_modified_recipe_is_refused_unless_allowed() {
    let s = Setup::new(false);
    match s.preflight(ASK, false) {
        Err(SessionError::Unreviewed { .. }) => {}
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(!s.ran(), "a modified recipe's command ran");
    s.preflight(Versions::Locate, false).unwrap();
    assert!(!s.ran());
    s.preflight(ASK, true).unwrap();
    assert!(s.ran());
}
