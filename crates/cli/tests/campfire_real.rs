//! The real emitted Campfire, end to end, as a reader runs it: `reprise run`
//! of the test recipe `tests/campfire_real/campfire-real.toml` with its two
//! sources fetched from the git bundles of ../shared/mirrors (`--source`).
//! Roundhouse is built (release, Debian's libclang; one build shared by
//! every run of this test under target/real-things), Campfire emitted for
//! CRuby and JRuby and digested against checksums/trees/campfire-real/, and
//! the CRuby tree served with its own config.ru and config/puma.rb in a
//! container lane through Podman's Docker API: an image of Debian unstable's
//! Ruby and the gems the tree's Gemfile.lock pins (within a patch level; the
//! recipe names the versions), made by mmdebstrap once and kept under
//! target/real-things/images/ (keyed by its package list), imported into
//! Podman and pinned by its digest. The tree is seeded through its own
//! endpoints over HTTP, signed in to, checked, measured and loaded with people
//! over its real /cable; the run is judged, stored and reported. Then a
//! second run keeps every step, and `--from emit-ruby` keeps the Roundhouse
//! build.
//!
//! Needs (scripts/test installs them): the bundles (REPRISE_MIRRORS, else
//! ../shared/mirrors beside the checkout), cargo, libclang, sqlite3, ruby (an
//! HTTP client for the seed, and the splices), mmdebstrap and Debian
//! unstable's packages from the registry, podman and runc. Nothing is
//! skipped: a missing piece fails the test, saying what is missing.

#[path = "support/prerequisites.rs"]
mod prerequisites;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

const RECIPE: &str = include_str!("campfire_real/campfire-real.toml");
const ROUNDHOUSE_REV: &str = "fda6906d830cca21c2e258aee15c38f31fbd9368";
const CAMPFIRE_REV: &str = "af801ff9577b131006293a38da4b6c28acf24962";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

fn mirrors() -> PathBuf {
    let dir = std::env::var_os("REPRISE_MIRRORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/mirrors"));
    for bundle in ["roundhouse.bundle", "once-campfire.bundle"] {
        assert!(
            dir.join(bundle).is_file(),
            "the real Campfire test needs {} (set REPRISE_MIRRORS to the folder of the mirror bundles)",
            dir.join(bundle).display()
        );
    }
    dir
}

/// A bare repository cloned from a bundle: what `--source` points at.
fn bare_clone(bundle: &Path, into: &Path, rev: &str) {
    let out = Command::new("git")
        .args(["clone", "--quiet", "--bare"])
        .arg(bundle)
        .arg(into)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let head = Command::new("git")
        .arg("-C")
        .arg(into)
        .args(["rev-parse", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&head.stdout).trim(), rev);
}

/// What the image is made of: Debian unstable's Ruby, the gems the emitted
/// tree's Gemfile.lock pins, and those it reaches without pinning them
/// (bcrypt, concurrent-ruby, net-http-persistent). The snapshot's Release
/// file is past its Valid-Until.
const SID_PACKAGES: &str = "ruby,puma,ruby-rack,ruby-sqlite3,ruby-websocket-driver,ruby-nio4r,ruby-bcrypt,ruby-concurrent,ruby-net-http-persistent";

fn mmdebstrap_args() -> Vec<String> {
    [
        "--variant=essential".to_string(),
        format!("--include={SID_PACKAGES}"),
        "--aptopt=Acquire::Check-Valid-Until \"false\"".to_string(),
        "--format=tar".to_string(),
        "sid".to_string(),
    ]
    .to_vec()
}

/// A name that changes with the image's recipe (FNV-1a of mmdebstrap's
/// arguments): a new package list is a new tarball and a new image.
fn sid_key() -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in mmdebstrap_args().join("\0").bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The root filesystem tarball of Debian unstable with the packages above,
/// made by mmdebstrap when target/real-things/images/ lacks it.
fn sid_tarball() -> PathBuf {
    let dir = workspace().join("target/real-things/images");
    std::fs::create_dir_all(&dir).unwrap();
    let tar = dir.join(format!("sid-campfire-{}.tar", sid_key()));
    if tar.is_file() {
        return tar;
    }
    let partial = dir.join(format!("sid-campfire.{}.partial", std::process::id()));
    let started = Instant::now();
    let out = Command::new("timeout")
        .args(["900", "mmdebstrap"])
        .args(mmdebstrap_args())
        .arg(&partial)
        .output()
        .expect("timeout (coreutils) is needed");
    assert!(
        out.status.success(),
        "mmdebstrap (scripts/test installs it; it needs Debian unstable from the registry): {}",
        text(&out.stderr)
    );
    std::fs::rename(&partial, &tar).unwrap();
    eprintln!(
        "mmdebstrap: {} in {:.0} s, {} MB",
        tar.display(),
        started.elapsed().as_secs_f64(),
        std::fs::metadata(&tar).unwrap().len() / 1_000_000
    );
    tar
}

fn podman(host: &str, args: &[&str]) -> Output {
    Command::new("timeout")
        .args(["300", "podman", "--remote", "--url", host])
        .args(args)
        .output()
        .expect("podman is needed (scripts/test installs it)")
}

/// Podman's Docker-compatible API service of the test's own, with storage
/// of its own in `dir`: in CI other tests run beside this one on the
/// machine's engine, and their `reprise clean --all` removes every
/// container Reprise labelled there, this lane's too. Stopped, and its
/// storage's mounts undone, when dropped.
struct Engine {
    service: reprise_test_support::PodmanService,
}

impl Engine {
    fn start(dir: &Path) -> Engine {
        Engine {
            service: reprise_test_support::PodmanService::start(Command::new("podman"), dir, true),
        }
    }

    /// The lane's image, imported from the tarball, as `NAME@sha256:…`:
    /// the run records exactly what it served.
    fn sid_image(&self) -> String {
        let name = "localhost/reprise-campfire-sid";
        let tag = format!("{name}:{}", sid_key());
        let tar = sid_tarball();
        let started = Instant::now();
        let out = podman(
            &self.service.url(),
            &["import", tar.to_str().unwrap(), &tag],
        );
        assert!(out.status.success(), "podman import: {}", text(&out.stderr));
        eprintln!("podman import: {:.1} s", started.elapsed().as_secs_f64());
        let out = podman(
            &self.service.url(),
            &["image", "inspect", "--format", "{{.Digest}}", &tag],
        );
        assert!(
            out.status.success(),
            "podman image inspect: {}",
            text(&out.stderr)
        );
        let digest = text(&out.stdout).trim().to_string();
        assert!(digest.starts_with("sha256:"), "{digest}");
        format!("{name}@{digest}")
    }
}

struct Reader {
    /// Stopped first when the reader is dropped, before its folder goes.
    engine: Engine,
    /// Kept after the test when REPRISE_KEEP_TEST_DIR is set, to look into.
    dir: tempfile::TempDir,
    roundhouse: PathBuf,
    campfire: PathBuf,
    /// The lane's image, `NAME@sha256:…`.
    image: String,
}

impl Reader {
    fn new() -> Reader {
        let mirrors = mirrors();
        let mut dir = tempfile::Builder::new()
            .prefix("campfire-real")
            .tempdir()
            .unwrap();
        if std::env::var_os("REPRISE_KEEP_TEST_DIR").is_some() {
            dir.disable_cleanup(true);
            eprintln!("keeping {}", dir.path().display());
        }
        let engine = Engine::start(dir.path());
        let image = engine.sid_image();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("recipes")).unwrap();
        std::fs::create_dir_all(root.join("checksums/trees/campfire-real")).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        std::fs::write(
            root.join("recipes/campfire-real.toml"),
            RECIPE
                .replace("@PORT@", &port.to_string())
                .replace("@IMAGE@", &image),
        )
        .unwrap();
        for tree in ["ruby", "jruby"] {
            std::fs::copy(
                workspace().join(format!("checksums/trees/campfire-real/{tree}.sha256")),
                root.join(format!("checksums/trees/campfire-real/{tree}.sha256")),
            )
            .unwrap();
        }
        std::fs::write(root.join("checksums/recipes.sha256"), "").unwrap();
        let roundhouse = dir.path().join("mirrors/roundhouse.git");
        let campfire = dir.path().join("mirrors/once-campfire.git");
        bare_clone(
            &mirrors.join("roundhouse.bundle"),
            &roundhouse,
            ROUNDHOUSE_REV,
        );
        bare_clone(
            &mirrors.join("once-campfire.bundle"),
            &campfire,
            CAMPFIRE_REV,
        );
        let reader = Reader {
            dir,
            roundhouse,
            campfire,
            engine,
            image,
        };
        let out = reader.reprise(&["checksums", "update"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        reader
    }

    fn reprise(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_reprise"))
            .args(args)
            .env("REPRISE_ROOT", self.dir.path().join("root"))
            .env("REPRISE_DATA_DIR", self.dir.path().join("data"))
            .env("DOCKER_HOST", self.engine.service.url())
            // One Roundhouse build for every run of this test (and CI's).
            .env(
                "CARGO_TARGET_DIR",
                workspace().join("target/real-things/roundhouse-target"),
            )
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// `reprise run campfire-real --yes` from the mirrors, with `extra` arguments.
    fn run(&self, extra: &[&str]) -> (Output, f64) {
        let roundhouse = format!("roundhouse={}", self.roundhouse.display());
        let campfire = format!("once-campfire={}", self.campfire.display());
        let mut args = vec![
            "run",
            "campfire-real",
            "--yes",
            "--source",
            &roundhouse,
            "--source",
            &campfire,
        ];
        args.extend_from_slice(extra);
        let started = Instant::now();
        let out = self.reprise(&args);
        (out, started.elapsed().as_secs_f64())
    }

    fn run_dir(&self) -> PathBuf {
        let runs = self.dir.path().join("data/runs");
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&runs)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        dirs.pop().unwrap()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// What the plan (on standard error) says of a step: `keep`, `run` or `redo`.
fn planned(stderr: &str, step: &str) -> String {
    stderr
        .lines()
        .find_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [word, id, ..] if id == step && ["keep", "run", "redo"].contains(&word) => {
                Some(word.to_string())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no plan line for {step} in:\n{stderr}"))
}

/// `reprise preflight campfire-runtimes` where a reader starts: a Debian
/// root with Ruby and nothing else a build needs (the lane's image: Debian
/// unstable's essential packages, Ruby 3.3.8 without its headers, its gems),
/// this build's `reprise` and the checkout's recipes mounted read-only.
/// Every prerequisite the root lacks is named, with the fix a reader copies.
fn preflight_in_a_bare_debian_root(reader: &Reader) {
    let reprise = Path::new(env!("CARGO_BIN_EXE_reprise"));
    let out = podman(
        &reader.engine.service.url(),
        &[
            "run",
            "--rm",
            "--network",
            "none",
            "-v",
            &format!("{}:/usr/local/bin/reprise:ro", reprise.display()),
            "-v",
            &format!("{}:/checkout:ro", workspace().display()),
            "-e",
            "REPRISE_ROOT=/checkout",
            "-e",
            "REPRISE_DATA_DIR=/tmp/reprise",
            &reader.image,
            "reprise",
            "preflight",
            "campfire-runtimes",
            "--yes",
            "--json",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", text(&out.stdout), text(&out.stderr)));
    prerequisites::assert_each_is_named_with_its_fix(&report);
    // Debian's Ruby is there, not the post's: the pin says how to get it.
    let ruby = prerequisites::item(&report, "ruby");
    assert!(
        ruby["here"].as_str().is_some_and(|h| h.contains("3.3.8")),
        "{ruby}"
    );
    assert_ne!(ruby["verdict"], "matches", "{ruby}");
    assert!(
        ruby["fix"].as_str().is_some_and(|f| !f.is_empty()),
        "{ruby}"
    );
    // Nothing it lacks goes unnamed: every toolchain item that does not
    // match gives a command to run, not a wish ("install make").
    for i in report["items"].as_array().unwrap() {
        if i["name"].as_str().unwrap().starts_with("toolchain ") && i["verdict"] != "matches" {
            assert!(
                i["fix"]
                    .as_str()
                    .is_some_and(|f| !f.is_empty() && !f.starts_with("install ")),
                "{i}"
            );
        }
    }
}

#[test]
fn the_real_emitted_campfire_is_built_emitted_served_seeded_measured_and_loaded() {
    let reader = Reader::new();
    preflight_in_a_bare_debian_root(&reader);

    // ── The first run: every step, for real. ──
    let (first, secs) = reader.run(&[]);
    let (stdout, stderr) = (text(&first.stdout), text(&first.stderr));
    assert!(first.status.success(), "{stdout}\n{stderr}");
    eprintln!("first run: {secs:.0} s");
    let run = reader.run_dir();
    let results = run.join("results");

    // Both trees are the ones the checksums pin, file for file.
    assert!(
        stdout.contains("trees/ruby matches") && stdout.contains("trees/jruby matches"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(results.join("ruby.sha256")).unwrap(),
        std::fs::read_to_string(workspace().join("checksums/trees/campfire-real/ruby.sha256"))
            .unwrap()
    );
    // The emitter's ~1,500 warnings are in the step's log, not the console.
    let emit_log = std::fs::read_to_string(run.join("logs/emit-ruby.log")).unwrap();
    assert!(
        emit_log.matches("warning[").count() > 1000,
        "{emit_log:.2000}"
    );
    assert!(stdout.matches("warning[").count() <= 80, "{stdout}");

    // The seed made the harness's shape through the app.
    let seed = json(&results.join("seed.json"));
    assert_eq!(seed["users"], 50, "{seed}");
    assert_eq!(seed["rooms"], 5, "{seed}");
    assert_eq!(seed["messages"], 500, "{seed}");

    // Every endpoint answered 200 when checked, and was measured without errors.
    let check = json(&results.join("check.json"));
    let checked = check.as_array().unwrap();
    assert_eq!(checked.len(), 5, "{check}");
    for c in checked {
        assert_eq!(c["status"], 200, "{c}");
    }
    let cells = json(&results.join("results.json"))["cells"].clone();
    let cells = cells.as_array().unwrap();
    assert_eq!(cells.len(), 10, "5 endpoints × 2 runs");
    let lane_log = std::fs::read_to_string(run.join("logs/lane-ruby-1p.log")).unwrap();
    // Concurrent posts meet the emitted runtime's SQLite handles, opened
    // with no busy timeout: a 500 is SQLite's "database is locked", which the
    // cell reports as no data rather than a figure. A read just after the
    // posts can meet the same lock; any cell that is no data must be that
    // and nothing else, and every read endpoint must be measured in a run.
    let busy_only = |cell: &serde_json::Value| {
        cell["errors"]["statuses"]
            .as_object()
            .is_some_and(|s| s.keys().collect::<Vec<_>>() == ["500"])
            && cell["errors"]["timeout"] == 0
            && lane_log.contains("SQLite3::BusyException: database is locked")
    };
    // One Puma worker shares a core with the test command's other lane: a
    // run of the heaviest page can wait past the load's 2-second limit
    // while that lane takes the CPU (measured: 6 answers in 4 s, p50 1.3 s,
    // 4 timeouts), and is no data for that alone. Such a cell has nothing
    // but timeouts; every read endpoint must still be measured in a run.
    let slow_only = |cell: &serde_json::Value| {
        let e = &cell["errors"];
        e["timeout"].as_u64().is_some_and(|t| t > 0)
            && e["statuses"].as_object().is_some_and(|s| s.is_empty())
            && [&e["check"], &e["connect"], &e["io"], &e["status"]]
                .iter()
                .all(|n| **n == 0)
    };
    for cell in cells {
        let endpoint = cell["endpoint"].as_str().unwrap();
        match cell["req_per_s"].as_f64() {
            Some(rate) => {
                assert!(rate > 0.0, "{cell}");
                assert_eq!(cell["errors"]["status"], 0, "{cell}");
                assert_eq!(cell["errors"]["timeout"], 0, "{cell}");
            }
            None => assert!(
                busy_only(cell) || slow_only(cell),
                "{endpoint} is no data, neither for SQLite's lock nor for a busy machine: {cell}\n{stdout}"
            ),
        }
        if !endpoint.starts_with("POST") {
            assert!(
                cells
                    .iter()
                    .any(|c| c["endpoint"] == endpoint && c["req_per_s"].as_f64().is_some()),
                "{endpoint} was measured in no run: {cells:?}"
            );
        }
    }
    let room = cells
        .iter()
        .find(|c| c["endpoint"] == "/rooms/1" && c["req_per_s"].as_f64().is_some())
        .unwrap();
    assert!(room["latency_ms"]["p50"].as_f64().unwrap() > 0.0, "{room}");

    // People: real subscriptions confirmed by /cable, deliveries counted.
    // The failures are the emitted tree's, each explained: its room page
    // shows no messages (so never the newest post), its cable.rb handles
    // only "subscribe", so a room left keeps delivering, and a post that
    // meets another's write can be SQLite's lock (a 500, as above), and its
    // `Current` (the signed-in user a page renders for) is one process-wide
    // instance where Rails' is per thread, so under Puma's five threads a
    // page now and then renders for another request's user (wrong_user).
    let cable_rb = std::fs::read_to_string(run.join("served/ruby/cable.rb")).unwrap();
    assert!(cable_rb.contains(r#"return nil unless message["command"] == "subscribe""#));
    let current_rb =
        std::fs::read_to_string(run.join("served/ruby/app/models/current.rb")).unwrap();
    assert!(
        current_rb.contains("def self.instance") && current_rb.contains("@__instance"),
        "{current_rb}"
    );
    let people = json(&results.join("people/ruby-1p/people.json"));
    let steps = people["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{people}");
    for step in steps {
        assert!(step["navigation"]["count"].as_u64().unwrap() > 0, "{step}");
        assert!(step["delivery"]["count"].as_u64().unwrap() > 0, "{step}");
        for cause in step["failures_by_cause"].as_object().unwrap().keys() {
            let locked = || {
                let samples = step["failure_samples"].as_array().unwrap();
                let posts = samples
                    .iter()
                    .filter_map(|s| s.as_str()?.strip_prefix("post_status: "))
                    .collect::<Vec<_>>();
                !posts.is_empty()
                    && posts.iter().all(|p| p.ends_with(": 500"))
                    && lane_log.contains("SQLite3::BusyException: database is locked")
            };
            assert!(
                ["missing_newest_post", "wrong_room_delivery", "wrong_user"]
                    .contains(&cause.as_str())
                    || cause == "post_status" && locked(),
                "{cause}: {step}"
            );
        }
    }

    // Judged, stored and reported, with how the run differs from the post.
    let history = reader.reprise(&["history"]);
    let listed = text(&history.stdout);
    let id = listed
        .lines()
        .find_map(|l| {
            l.split_whitespace()
                .find(|w| w.starts_with("campfire-real"))
        })
        .unwrap_or_else(|| panic!("no stored run in:\n{listed}"))
        .to_string();
    let report = reader.reprise(&["report", &id]);
    let md = text(&report.stdout);
    assert!(report.status.success(), "{}", text(&report.stderr));
    assert!(md.contains("/rooms/1"), "{md}");
    // The lane's toolchains, asked inside its image: Debian unstable's.
    assert!(
        md.contains("ruby 3.3.8 in localhost/reprise-campfire-sid@sha256:"),
        "{md}"
    );
    assert!(md.contains("instead of 4.0.5"), "{md}");
    assert!(
        md.contains("puma 8.0.2 in localhost/reprise-campfire-sid@sha256:"),
        "{md}"
    );
    assert!(md.contains("roundhouse.git"), "the source override: {md}");

    // ── A second run right after: every step kept. ──
    let (second, secs) = reader.run(&[]);
    let (stdout, stderr) = (text(&second.stdout), text(&second.stderr));
    assert!(second.status.success(), "{stdout}\n{stderr}");
    eprintln!("second run: {secs:.1} s");
    for step in [
        "clone-roundhouse",
        "clone-campfire",
        "build-roundhouse",
        "emit-ruby",
        "emit-jruby",
        "prepare-served",
        "seed",
        "serve",
        "sign-in",
        "check",
        "load",
        "people",
    ] {
        assert_eq!(planned(&stderr, step), "keep", "{step}\n{stderr}");
    }
    // Judged again, still on the deviations the kept steps found.
    let md = text(&reader.reprise(&["report", &id]).stdout);
    assert!(md.contains("instead of 4.0.5"), "{md}");

    // ── From the emit: the Roundhouse build is kept. ──
    let (third, _) = reader.run(&["--from", "emit-ruby", "--step", "emit-ruby"]);
    let (stdout, stderr) = (text(&third.stdout), text(&third.stderr));
    assert!(third.status.success(), "{stdout}\n{stderr}");
    assert_eq!(planned(&stderr, "build-roundhouse"), "keep", "{stderr}");
    assert_eq!(planned(&stderr, "emit-ruby"), "redo", "{stderr}");
    assert!(
        run.join("sources/roundhouse/target/release/roundhouse")
            .is_file()
    );
}
