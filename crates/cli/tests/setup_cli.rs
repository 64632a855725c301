//! `reprise setup` with the real mise, offline: a local asdf-style plugin
//! (a git repository the test makes) provides `falcon` at a pinned version,
//! so hello-ceiling's falcon lane goes from "blocks" to "matches" and runs.
//! mise comes from npm's `@jdxcode/mise` (scripts/test installs it and puts
//! it on PATH); its data, config and cache are the test's own.
//!
//! The falcon the plugin installs answers `--version` as Falcon does and
//! serves the lane with Debian's Puma: what is under test is provisioning
//! (the pinned version installed, found and used by every step and lane),
//! not Falcon.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn mise() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("mise"))
        .find(|p| p.is_file())
        .expect("the setup test needs mise on PATH (scripts/test installs npm's @jdxcode/mise)")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn succeed(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    out
}

const FALCON_INSTALL: &str = r#"#!/usr/bin/env bash
# asdf's install hook: a falcon at $ASDF_INSTALL_VERSION in $ASDF_INSTALL_PATH.
set -euo pipefail
mkdir -p "$ASDF_INSTALL_PATH/bin"
cat > "$ASDF_INSTALL_PATH/bin/falcon" <<SCRIPT
#!/bin/sh
# falcon $ASDF_INSTALL_VERSION, as the test's plugin provides it.
if [ "\$1" = "--version" ]; then echo "falcon $ASDF_INSTALL_VERSION"; exit 0; fi
# falcon serve --bind http://HOST:PORT --count N --config FILE
shift
while [ \$# -gt 0 ]; do
  case "\$1" in
    --bind) bind=\$(echo "\$2" | sed 's|^http://|tcp://|'); shift 2 ;;
    --count) count=\$2; shift 2 ;;
    --config) config=\$2; shift 2 ;;
    *) shift ;;
  esac
done
exec puma --bind "\$bind" --workers "\$count" --environment production "\$config"
SCRIPT
chmod +x "$ASDF_INSTALL_PATH/bin/falcon"
"#;

struct World {
    dir: tempfile::TempDir,
    mise_dir: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let mise = mise();
        let w = World {
            mise_dir: mise.parent().unwrap().to_path_buf(),
            dir,
        };
        // The plugin: a local git repository with asdf's hooks.
        let plugin = w.path("falcon-plugin");
        std::fs::create_dir_all(plugin.join("bin")).unwrap();
        for (name, text) in [
            ("list-all", "#!/usr/bin/env bash\necho 0.47.7 0.48.0\n"),
            ("install", FALCON_INSTALL),
        ] {
            let file = plugin.join("bin").join(name);
            std::fs::write(&file, text).unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let git = |args: &[&str]| {
            succeed(
                Command::new("git")
                    .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
                    .args(args)
                    .current_dir(&plugin),
            )
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "falcon plugin"]);
        let url = format!("file://{}", plugin.display());
        succeed(
            w.env(&mut Command::new(&mise))
                .args(["plugins", "install", "falcon", &url]),
        );

        // The recipe: hello-ceiling, its falcon provided by the plugin; the
        // other toolchains are Debian's (mise would fetch them).
        let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes/hello-ceiling.toml");
        let mut text = std::fs::read_to_string(real).unwrap();
        let mut lines: Vec<String> = Vec::new();
        let mut in_falcon = false;
        for line in text.lines() {
            if line.starts_with("mise = ") {
                continue;
            }
            if line.starts_with("name = ") {
                in_falcon = line == "name = \"falcon\"";
            }
            lines.push(line.to_string());
            if in_falcon && line.starts_with("pattern = ") {
                lines.push("mise = \"falcon@0.47.7\"".into());
            }
        }
        text = lines.join("\n") + "\n";
        assert!(text.contains("mise = \"falcon@0.47.7\""), "{text}");
        std::fs::create_dir_all(w.path("root/recipes")).unwrap();
        std::fs::create_dir_all(w.path("root/checksums")).unwrap();
        std::fs::write(w.path("root/recipes/hello-ceiling.toml"), text).unwrap();
        std::fs::write(w.path("root/checksums/recipes.sha256"), "").unwrap();
        let out = w.reprise(&["checksums", "update"]);
        assert!(out.status.success(), "{}", stderr(&out));
        w
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// mise's state (data, config, cache) is the test's; mise on PATH.
    fn env<'c>(&self, cmd: &'c mut Command) -> &'c mut Command {
        let path = format!(
            "{}:{}",
            self.mise_dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        cmd.env("HOME", self.path("home"))
            .env("MISE_DATA_DIR", self.path("mise/data"))
            .env("MISE_CONFIG_DIR", self.path("mise/config"))
            .env("MISE_CACHE_DIR", self.path("mise/cache"))
            .env("MISE_STATE_DIR", self.path("mise/state"))
            .env("PATH", path)
            .stdin(Stdio::null())
    }

    fn reprise(&self, args: &[&str]) -> Output {
        self.env(&mut Command::new(env!("CARGO_BIN_EXE_reprise")))
            .args(args)
            .env("REPRISE_ROOT", self.path("root"))
            .env("REPRISE_DATA_DIR", self.path("data"))
            .current_dir(self.path("root"))
            .output()
            .unwrap()
    }
}

fn falcon_row(preflight: &str) -> String {
    preflight
        .lines()
        .find(|l| l.contains("toolchain falcon"))
        .unwrap_or_else(|| panic!("no falcon row in\n{preflight}"))
        .to_string()
}

#[test]
fn setup_installs_the_pinned_falcon_and_the_lane_goes_from_blocks_to_matches_and_runs() {
    let w = World::new();
    let listed = stdout(&w.reprise(&["recipes"]));
    let row = listed
        .lines()
        .find(|l| l.starts_with("hello-ceiling"))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(row.contains(" 2/3 "), "falcon does not run here yet: {row}");
    let before = w.reprise(&["preflight", "hello-ceiling", "--yes"]);
    assert_eq!(before.status.code(), Some(3), "{}", stdout(&before));
    assert!(
        falcon_row(&stdout(&before))
            .trim_start()
            .starts_with("blocks"),
        "{}",
        stdout(&before)
    );

    // Not accepted without a terminal or --yes: nothing is installed.
    let refused = w.reprise(&["setup", "hello-ceiling", "--lane", "falcon"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let plan = stderr(&refused);
    for shown in [
        "mise installs:",
        "falcon 0.47.7 (for falcon)",
        "falcon = \"0.47.7\"",
        "  runs, in ",
        "       mise install\n",
        "Not asking without a terminal",
    ] {
        assert!(plan.contains(shown), "no {shown:?} in the plan:\n{plan}");
    }
    assert!(!w.path("mise/data/installs/falcon/0.47.7").exists());

    let setup = w.reprise(&["setup", "hello-ceiling", "--lane", "falcon", "--yes"]);
    assert!(
        setup.status.success(),
        "{}{}",
        stdout(&setup),
        stderr(&setup)
    );
    let said = stdout(&setup);
    assert!(
        said.contains("setup | "),
        "mise's output is shown live: {said}"
    );
    let row = said
        .lines()
        .find(|l| l.contains("toolchain falcon"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        row.trim_start().starts_with("matches") && row.contains("0.47.7"),
        "{said}"
    );
    assert!(
        w.path("mise/data/installs/falcon/0.47.7/bin/falcon")
            .is_file()
    );

    // The listing looks where a run would: falcon is found through the setup.
    let listed = stdout(&w.reprise(&["recipes"]));
    let row = listed
        .lines()
        .find(|l| l.starts_with("hello-ceiling"))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(row.contains(" 3/3 "), "every lane runs here now: {row}");

    let after = w.reprise(&["preflight", "hello-ceiling", "--yes"]);
    assert_eq!(after.status.code(), Some(0), "{}", stdout(&after));
    let row = falcon_row(&stdout(&after));
    assert!(
        row.trim_start().starts_with("matches") && row.contains("0.47.7"),
        "{row}"
    );

    // A second setup installs nothing new and still succeeds.
    let again = w.reprise(&["setup", "hello-ceiling", "--lane", "falcon", "--yes"]);
    assert!(again.status.success(), "{}", stderr(&again));

    // The run serves the falcon lane with the installed falcon.
    let run = w.reprise(&["run", "hello-ceiling", "--yes", "--quick", "--new"]);
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let runs: Vec<PathBuf> = std::fs::read_dir(w.path("data/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let per_run = std::fs::read_to_string(runs[0].join("results/per-run.json")).unwrap();
    assert!(
        per_run.lines().any(|l| l.contains("\"target\":\"falcon\"")
            && l.contains("\"req_sec\":")
            && !l.contains("\"req_sec\":null")),
        "the falcon lane was measured: {per_run}\n{}",
        stdout(&run)
    );
    // The history says it was a smoke run.
    let history = w.reprise(&["history"]);
    let listed = stdout(&history);
    let row = listed.lines().nth(1).expect(&listed);
    assert!(row.contains(" smoke  finished  hello-ceiling "), "{listed}");
}

#[test]
fn setup_of_an_unknown_lane_is_refused_naming_the_lanes() {
    let w = World::new();
    let out = w.reprise(&["setup", "hello-ceiling", "--lane", "falcom", "--yes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has no lane `falcom` (its lanes: puma, falcon, nginx)"),
        "{}",
        stderr(&out)
    );
}
