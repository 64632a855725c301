//! The real emitted Campfire, end to end, as a reader runs it: `reprise run`
//! of the published recipes/campfire-falcon.toml, then of
//! recipes/campfire-runtimes.toml's two CRuby lanes, with the substitutions
//! this machine forces, written in tests/campfire_real/ (`--substitutions`:
//! what every Campfire recipe needs here, then the recipe's own), and their
//! two sources fetched from the git bundles of
//! ../shared/mirrors (`--source`). Roundhouse is built (unoptimised, Debian's
//! libclang; one build shared by every run of this test under
//! target/real-things), Campfire emitted (the tree compared with
//! checksums/trees/campfire-real/ruby.sha256: emission is deterministic), and
//! served by both of the recipe's lanes, Puma (ruby) and Falcon 0.55.6
//! (ruby-falcon), each in a container through Podman's Docker API: an image
//! of Debian unstable's Ruby, the gems the tree's Gemfile.lock pins (within a
//! patch level), Falcon's dependencies, and Falcon with the two gems Debian
//! lacks built from the mirrors' bundles; made by mmdebstrap once and kept
//! under target/real-things/images/ (keyed by how it is made), imported into
//! Podman and pinned by its digest. The tree is seeded through its own
//! endpoints over HTTP, signed in to, checked and measured on both lanes; the
//! run is judged (the Falcon tail against Puma's, from the two lanes'
//! posts), stored and reported with each substitution as a deviation. Then a
//! second run keeps every step, and `--from emit` keeps the Roundhouse build.
//! campfire-runtimes' ruby and ruby-1p lanes are served, seeded, signed in to,
//! checked and measured the same way, and every claim of that recipe says why
//! this run could not judge it.
//!
//! Needs (scripts/test installs them): the bundles (REPRISE_MIRRORS, else
//! ../shared/mirrors beside the checkout), cargo, libclang, sqlite3, ruby (an
//! HTTP client for the seed, the splices, and `gem build`), git, mmdebstrap
//! and Debian unstable's packages from the registry, podman and runc. Nothing
//! is skipped: a missing piece fails the test, saying what is missing.

#[path = "support/prerequisites.rs"]
mod prerequisites;
mod support;

use support::{free_port, repo};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

/// What this machine forces the Campfire recipes to do otherwise: what
/// every one of them needs here, then each recipe's own.
const SUBSTITUTIONS: [(&str, &str); 4] = [
    (
        "campfire.substitutions.toml",
        include_str!("campfire_real/campfire.substitutions.toml"),
    ),
    (
        "campfire-falcon.substitutions.toml",
        include_str!("campfire_real/campfire-falcon.substitutions.toml"),
    ),
    (
        "campfire-runtimes.substitutions.toml",
        include_str!("campfire_real/campfire-runtimes.substitutions.toml"),
    ),
    (
        "campfire-nightly.substitutions.toml",
        include_str!("campfire_real/campfire-nightly.substitutions.toml"),
    ),
];
const ROUNDHOUSE_REV: &str = "fda6906d830cca21c2e258aee15c38f31fbd9368";
const CAMPFIRE_REV: &str = "af801ff9577b131006293a38da4b6c28acf24962";

fn mirrors() -> PathBuf {
    let dir = std::env::var_os("REPRISE_MIRRORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/mirrors"));
    for bundle in [
        "roundhouse.bundle",
        "once-campfire.bundle",
        "falcon.bundle",
        "async-http-cache.bundle",
        "async-utilization.bundle",
    ] {
        assert!(
            dir.join(bundle).is_file(),
            "the real Campfire test needs {} (set REPRISE_MIRRORS to the folder of the mirror bundles)",
            dir.join(bundle).display()
        );
    }
    dir
}

/// A bare repository cloned from a bundle: what `--source` points at.
/// `command`'s output; it must succeed (`what` names it in the failure).
fn succeeded(command: &mut Command, what: &str) -> Output {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(out.status.success(), "{what}: {}", text(&out.stderr));
    out
}

fn bare_clone(bundle: &Path, into: &Path, rev: &str) {
    let git = || Command::new("git");
    succeeded(
        git()
            .args(["clone", "--quiet", "--bare"])
            .arg(bundle)
            .arg(into),
        "git clone --bare",
    );
    let head = succeeded(
        git().arg("-C").arg(into).args(["rev-parse", "HEAD"]),
        "git rev-parse",
    );
    assert_eq!(text(&head.stdout).trim(), rev);
}

/// What the image is made of: Debian unstable's Ruby, the gems the emitted
/// tree's Gemfile.lock pins, those it reaches without pinning them (bcrypt,
/// concurrent-ruby, net-http-persistent), and Falcon's dependencies that
/// Debian packages. The snapshot's Release file is past its Valid-Until.
const SID_PACKAGES: &str = "ruby,puma,ruby-rack,ruby-sqlite3,ruby-websocket-driver,ruby-nio4r,ruby-bcrypt,ruby-concurrent,ruby-net-http-persistent,ruby-async,ruby-async-http,ruby-async-container,ruby-async-service,ruby-protocol-http,ruby-protocol-rack,ruby-samovar,ruby-localhost,ruby-console,bundler";

/// Falcon 0.55.6 and the two gems of its tree Debian lacks, at the tags the
/// mirrors' bundles hold, in the order they are installed.
const FALCON_GEMS: [(&str, &str); 3] = [
    ("async-utilization", "0.4.0"),
    ("async-http-cache", "0.4.6"),
    ("falcon", "0.55.6"),
];

/// The three gems, built from the mirrors' bundles once and kept under
/// target/real-things/gems/: each gemspec names a signing key and
/// certificate chain that only the gem's author has, so those two lines go
/// before `gem build` (shared/mirrors/README.md).
fn falcon_gems() -> Vec<PathBuf> {
    let dir = repo().join("target/real-things/gems");
    std::fs::create_dir_all(&dir).unwrap();
    FALCON_GEMS
        .iter()
        .map(|(name, version)| {
            let gem = dir.join(format!("{name}-{version}.gem"));
            if gem.is_file() {
                return gem;
            }
            let src = dir.join(format!("{name}.{}.src", std::process::id()));
            let _ = std::fs::remove_dir_all(&src);
            succeeded(
                Command::new("git")
                    .args(["clone", "--quiet"])
                    .arg(mirrors().join(format!("{name}.bundle")))
                    .arg(&src),
                &format!("git clone {name}"),
            );
            let spec = src.join(format!("{name}.gemspec"));
            let written = std::fs::read_to_string(&spec).unwrap();
            let unsigned: String = written
                .lines()
                .filter(|l| !l.contains("spec.cert_chain") && !l.contains("spec.signing_key"))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_ne!(written.len(), unsigned.len(), "{name}'s gemspec is signed");
            std::fs::write(&spec, unsigned).unwrap();
            succeeded(
                Command::new("gem")
                    .args(["build", &format!("{name}.gemspec"), "--output"])
                    .arg(&gem)
                    .current_dir(&src),
                &format!("gem build {name} (Ruby's gem builds the Falcon gems)"),
            );
            std::fs::remove_dir_all(&src).unwrap();
            gem
        })
        .collect()
}

fn mmdebstrap_args() -> Vec<String> {
    let built = repo().join("target/real-things/gems");
    let gems = |dir: &str| {
        FALCON_GEMS
            .map(|(name, version)| format!("{dir}/{name}-{version}.gem"))
            .join(" ")
    };
    [
        "--variant=essential".to_string(),
        format!("--include={SID_PACKAGES}"),
        "--aptopt=Acquire::Check-Valid-Until \"false\"".to_string(),
        "--format=tar".to_string(),
        format!(
            "--customize-hook=copy-in {} /tmp",
            gems(&built.display().to_string())
        ),
        format!(
            "--customize-hook=chroot \"$1\" gem install --local --ignore-dependencies --no-document {}",
            gems("/tmp")
        ),
        "--customize-hook=rm -f \"$1\"/tmp/*.gem".to_string(),
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
    let dir = repo().join("target/real-things/images");
    std::fs::create_dir_all(&dir).unwrap();
    let tar = dir.join(format!("sid-campfire-{}.tar", sid_key()));
    if tar.is_file() {
        return tar;
    }
    falcon_gems();
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
            service: reprise_test_support::PodmanService::start(Command::new("podman"), dir),
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

/// A run that succeeded: what it printed and its folder.
struct Ran {
    stdout: String,
    /// The plan and the run's progress.
    stderr: String,
    run: PathBuf,
}

impl Ran {
    /// A lane's server log, empty where it has none.
    fn lane_log(&self, lane: &str) -> String {
        std::fs::read_to_string(self.run.join(format!("logs/lane-{lane}.log"))).unwrap_or_default()
    }
}

struct Reader {
    /// Stopped first when the reader is dropped, before its folder goes.
    engine: Engine,
    /// Kept after the test when REPRISE_KEEP_TEST_DIR is set, to look into.
    dir: tempfile::TempDir,
    roundhouse: PathBuf,
    campfire: PathBuf,
    /// The lanes' image, `NAME@sha256:…`.
    image: String,
    /// This machine's substitutions, their ports and image filled in:
    /// the folder holding the files.
    substitutions: PathBuf,
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
        // Each lane its own port.
        let substitutions = dir.path().join("substitutions");
        std::fs::create_dir_all(&substitutions).unwrap();
        for (name, text) in SUBSTITUTIONS {
            let filled = text
                .replace("@PORT@", &free_port().to_string())
                .replace("@FALCON_PORT@", &free_port().to_string())
                .replace("@PORT_1P@", &free_port().to_string())
                .replace("@IMAGE@", &image);
            std::fs::write(substitutions.join(name), filled).unwrap();
        }
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
        Reader {
            dir,
            roundhouse,
            campfire,
            engine,
            image,
            substitutions,
        }
    }

    /// `reprise ARGS` over this checkout's published recipes.
    fn reprise(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_reprise"))
            .args(args)
            .env("REPRISE_ROOT", repo())
            .env("REPRISE_DATA_DIR", self.dir.path().join("data"))
            .env("DOCKER_HOST", self.engine.service.url())
            // One Roundhouse build for every run of this test (and CI's).
            .env(
                "CARGO_TARGET_DIR",
                repo().join("target/real-things/roundhouse-target"),
            )
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// `reprise run RECIPE --yes` with this machine's substitutions, what
    /// every Campfire recipe needs here and then the recipe's own, and the
    /// sources from the mirrors, with `extra` arguments.
    fn run(&self, recipe: &str, extra: &[&str]) -> (Output, f64) {
        let roundhouse = format!("roundhouse={}", self.roundhouse.display());
        // The recipes name Campfire's source `campfire` or `once-campfire`.
        let campfire_id = match recipe {
            "campfire-runtimes" | "campfire-nightly" => "once-campfire",
            _ => "campfire",
        };
        let campfire = format!("{campfire_id}={}", self.campfire.display());
        let common = self.substitutions.join("campfire.substitutions.toml");
        let own = self
            .substitutions
            .join(format!("{recipe}.substitutions.toml"));
        let (common, own) = (common.display().to_string(), own.display().to_string());
        let mut args = vec![
            "run",
            recipe,
            "--yes",
            "--substitutions",
            &common,
            "--substitutions",
            &own,
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

    /// `reprise run RECIPE` as [`Reader::run`] runs it, asserted to
    /// succeed, showing the logs of `lanes` where it did not.
    fn run_to_success(&self, recipe: &str, extra: &[&str], lanes: &[&str]) -> Ran {
        let (out, secs) = self.run(recipe, extra);
        eprintln!("{recipe}: {secs:.0} s");
        let ran = Ran {
            stdout: text(&out.stdout),
            stderr: text(&out.stderr),
            run: self.run_dir(recipe),
        };
        let logs: String = lanes
            .iter()
            .map(|lane| format!("\n── lane {lane} ──\n{}", ran.lane_log(lane)))
            .collect();
        assert!(out.status.success(), "{}\n{}{logs}", ran.stdout, ran.stderr);
        ran
    }

    /// `recipe`'s two CRuby lanes (`--lane ruby --lane ruby-1p --step
    /// load`), run to success.
    fn run_cruby_lanes(&self, recipe: &str) -> Ran {
        self.run_to_success(
            recipe,
            &["--lane", "ruby", "--lane", "ruby-1p", "--step", "load"],
            &["ruby", "ruby-1p"],
        )
    }

    /// The one run folder of `recipe`.
    fn run_dir(&self, recipe: &str) -> PathBuf {
        let runs = self.dir.path().join("data/runs");
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&runs)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|d| {
                d.file_name()
                    .and_then(|n| n.to_str()?.strip_prefix(recipe)?.strip_prefix('-'))
                    .is_some_and(|stamp| stamp.starts_with(|c: char| c.is_ascii_digit()))
            })
            .collect();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        dirs.pop().unwrap()
    }
}

impl Reader {
    /// `tree` is the one the checksums pin, file for file: emission is
    /// deterministic.
    fn assert_pinned_tree(&self, tree: &Path) {
        let pinned = repo().join("checksums/trees/campfire-real/ruby.sha256");
        let digest = self.reprise(&[
            "digest",
            tree.to_str().unwrap(),
            "--check",
            pinned.to_str().unwrap(),
        ]);
        assert!(
            digest.status.success(),
            "{}{}",
            text(&digest.stdout),
            text(&digest.stderr)
        );
    }

    /// The stored run of `recipe` and its report as JSON.
    fn stored_report(&self, recipe: &str) -> (String, serde_json::Value) {
        let listed = text(&self.reprise(&["history"]).stdout);
        let id = listed
            .lines()
            .find_map(|l| l.split_whitespace().find(|w| w.starts_with(recipe)))
            .unwrap_or_else(|| panic!("no stored run of {recipe} in:\n{listed}"))
            .to_string();
        let report = self.reprise(&["report", &id, "--format", "json"]);
        assert!(report.status.success(), "{}", text(&report.stderr));
        (id, serde_json::from_slice(&report.stdout).unwrap())
    }
}

/// Every lane measured every endpoint in both runs, with a rate and no
/// answer of the wrong status.
fn assert_measured_twice(cells: &[serde_json::Value], lanes: &[&str], endpoints: &[&str]) {
    for lane in lanes {
        for endpoint in endpoints {
            let measured: Vec<&serde_json::Value> = cells
                .iter()
                .filter(|c| c["lane"] == *lane && c["endpoint"] == *endpoint)
                .collect();
            assert_eq!(measured.len(), 2, "{lane} {endpoint}: 2 runs: {cells:?}");
            for cell in measured {
                assert!(
                    cell["req_per_s"].as_f64().is_some_and(|r| r > 0.0),
                    "{cell}"
                );
                assert_eq!(cell["errors"]["status"], 0, "{cell}");
            }
        }
    }
}

/// The CPUs this process (and so the run it starts) may use.
fn allowed_cpus() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .and_then(|list| reprise_probe::parse_cpu_list(list.trim()))
        .unwrap()
        .len()
}

/// Each lane of `given` was placed on the `allowed` CPUs, given its workers
/// and ran them, as `results/shapes.json` records.
fn assert_shapes(results: &Path, given: &[(&str, u32)], allowed: usize) {
    let shapes = json(&results.join("shapes.json"));
    for (lane, workers) in given {
        let shape = shapes
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["lane"] == *lane)
            .unwrap_or_else(|| panic!("{lane}: {shapes}"));
        assert_eq!(shape["cpus"], allowed, "{shape}");
        assert_eq!(shape["cpus_seen"], allowed, "{shape}");
        assert_eq!(shape["workers_asked"], *workers, "{shape}");
        assert_eq!(shape["workers_seen"], *workers, "{shape}");
    }
}

/// The last 60 lines of a log.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
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
            &format!("{}:/checkout:ro", repo().display()),
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
fn the_published_campfire_recipes_run_with_this_machines_substitutions() {
    let reader = Reader::new();
    preflight_in_a_bare_debian_root(&reader);
    campfire_falcon_on_puma_and_falcon(&reader);
    campfire_runtimes_on_its_cruby_lanes(&reader);
    campfire_nightly_on_its_cruby_lanes(&reader);
}

/// The published recipes/campfire-falcon.toml: Puma and Falcon, judged.
fn campfire_falcon_on_puma_and_falcon(reader: &Reader) {
    // ── The first run: every step, for real. ──
    let first = reader.run_to_success("campfire-falcon", &[], &["ruby", "ruby-falcon"]);
    let (stdout, stderr, run) = (&first.stdout, &first.stderr, &first.run);
    let results = run.join("results");
    // Each substitution was shown before the run, with why.
    assert!(
        stderr.contains("differs from the post: lane `ruby-falcon` replaced (campfire-falcon.substitutions.toml): RubyGems is out of reach, and the mirror's Roundhouse (fda6906d) emits no falcon.rb"),
        "{stderr}"
    );

    // The tree is the one the checksums pin, file for file: emission is
    // deterministic, and Falcon's Gemfile is beside the tree, not in it.
    reader.assert_pinned_tree(&run.join("trees/campfire-ruby"));
    assert!(run.join("trees/campfire-ruby-falcon/Gemfile").is_file());
    // The emitter's ~1,500 warnings are in the step's log, not the console.
    let emit_log = std::fs::read_to_string(run.join("logs/emit.log")).unwrap();
    assert!(
        emit_log.matches("warning[").count() > 1000,
        "{emit_log:.2000}"
    );
    assert!(stdout.matches("warning[").count() <= 80, "{stdout}");

    // The seed made campfire-oracle's shape through the app.
    let seed = json(&results.join("seed.json"));
    assert_eq!(seed["users"], 50, "{seed}");
    assert_eq!(seed["rooms"], 5, "{seed}");
    assert_eq!(seed["messages"], 500, "{seed}");
    // Every round read those rows: the posted messages were written back
    // out of the database both lanes serve, live, after each round that
    // posted, and the run left it as its load found it: the seed's 500 and
    // the check's one post per lane.
    let messages = succeeded(
        Command::new("sqlite3")
            .arg(run.join("served/ruby/storage/development.sqlite3"))
            .arg("SELECT COUNT(*) FROM messages"),
        "sqlite3",
    );
    assert_eq!(text(&messages.stdout).trim(), "502", "{stdout}");
    assert!(
        stdout.contains("the databases were written back"),
        "{stdout}"
    );

    // Both lanes served the same pages; what this revision cannot answer
    // (the stylesheet its room page links is 404: the tree has no static
    // assets; /up is a 500) is no data on both, said so, and every other
    // route, the signed avatar the room page links among them, was
    // measured on both.
    let cells = json(&results.join("results.json"))["cells"].clone();
    let cells = cells.as_array().unwrap();
    let unanswered = [("stylesheet", "status 404"), ("/up", "status 500")];
    assert_measured_twice(
        cells,
        &["ruby", "ruby-falcon"],
        &[
            "/rooms/1",
            "/rooms/1/messages",
            "/users/me/sidebar",
            "/searches?q=coffee",
            "avatar",
            "post-message",
        ],
    );
    for lane in ["ruby", "ruby-falcon"] {
        for (endpoint, why) in unanswered {
            let said = |c: &&serde_json::Value| {
                c["req_per_s"].is_null()
                    && c["no_data"]
                        .as_str()
                        .is_some_and(|n| n.contains(&format!("{why} is not 2xx")))
            };
            let no_data: Vec<&serde_json::Value> = cells
                .iter()
                .filter(|c| c["lane"] == lane && c["endpoint"] == endpoint)
                .collect();
            assert!(
                !no_data.is_empty() && no_data.iter().all(said),
                "{lane} {endpoint}: {no_data:?}"
            );
        }
    }
    // Placed as the harness placed its lanes, beside the load generator on
    // every CPU; given one worker each (substituted), and running one: the
    // processes serving each port, read from its container's.
    let allowed = allowed_cpus();
    assert_shapes(&results, &[("ruby", 1), ("ruby-falcon", 1)], allowed);
    assert!(
        stdout.contains("servers and load generator sharing every CPU, unpinned"),
        "{stdout}"
    );
    // Falcon served them: its own banner in its lane's log.
    assert!(
        first.lane_log("ruby-falcon").contains("Falcon"),
        "{}",
        first.lane_log("ruby-falcon")
    );

    // Judged, stored and reported: the Falcon tail against Puma's, from the
    // two lanes' posts, with how the run differs from the post.
    let (id, report) = reader.stored_report("campfire-falcon");
    let verdicts = report["judgement"]["verdicts"].as_array().unwrap();
    let tail = verdicts
        .iter()
        .find(|v| v["claim"] == "falcon-tail-vs-puma-now")
        .unwrap_or_else(|| panic!("{verdicts:?}"));
    assert!(
        ["reproduced", "not_reproduced", "inconclusive"]
            .contains(&tail["outcome"].as_str().unwrap()),
        "judged from the ruby and ruby-falcon lanes' posts: {tail}"
    );
    let md = text(&reader.reprise(&["report", &id]).stdout);
    // The lanes' toolchains, asked inside their image: Debian unstable's.
    assert!(
        md.contains("ruby 3.3.8 in localhost/reprise-campfire-sid@sha256:"),
        "{md}"
    );
    assert!(md.contains("instead of 4.0.5"), "{md}");
    assert!(md.contains("roundhouse.git"), "the source override: {md}");
    assert!(
        md.contains("lane `ruby-falcon` replaced (campfire-falcon.substitutions.toml)"),
        "{md}"
    );

    // ── A second run right after: every step kept. ──
    let (second, secs) = reader.run("campfire-falcon", &[]);
    let (stdout, stderr) = (text(&second.stdout), text(&second.stderr));
    assert!(second.status.success(), "{stdout}\n{stderr}");
    eprintln!("second run: {secs:.1} s");
    for step in [
        "clone-campfire",
        "clone-roundhouse",
        "build-roundhouse",
        "emit",
        "add-falcon",
        "stage",
        "serve",
        "seed",
        "sign-in",
        "check",
        "load",
    ] {
        assert_eq!(planned(&stderr, step), "keep", "{step}\n{stderr}");
    }
    // Judged again, still on the deviations the kept steps found.
    let md = text(&reader.reprise(&["report", &id]).stdout);
    assert!(md.contains("instead of 4.0.5"), "{md}");

    // ── From the emit: the Roundhouse build is kept. ──
    let (third, _) = reader.run("campfire-falcon", &["--from", "emit", "--step", "emit"]);
    let (stdout, stderr) = (text(&third.stdout), text(&third.stderr));
    assert!(third.status.success(), "{stdout}\n{stderr}");
    assert_eq!(planned(&stderr, "build-roundhouse"), "keep", "{stderr}");
    assert_eq!(planned(&stderr, "emit"), "redo", "{stderr}");
    assert!(
        run.join("sources/roundhouse/target/release/roundhouse")
            .is_file()
    );
}

/// The published recipes/campfire-runtimes.toml, its two CRuby lanes
/// (`--lane ruby --lane ruby-1p --step load`): its own steps (emit-ruby,
/// digest-ruby, stage-ruby, prepare, serve, sign-in, check, load) as this
/// machine's substitutions leave them, both lanes measured on the post's two
/// routes, and each of its claims said why this run cannot judge it (the
/// other runtimes' lanes are not run; an absolute figure needs the post's
/// machine).
fn campfire_runtimes_on_its_cruby_lanes(reader: &Reader) {
    let Ran { stderr, run, .. } = reader.run_cruby_lanes("campfire-runtimes");
    assert!(
        stderr.contains("differs from the post: lane `ruby-1p` replaced (campfire-runtimes.substitutions.toml): RubyGems is out of reach"),
        "{stderr}"
    );
    // Only the steps the two lanes wait on: no other runtime's.
    for step in [
        "emit-ruby",
        "digest-ruby",
        "stage-ruby",
        "prepare",
        "serve",
        "sign-in",
        "check",
        "load",
    ] {
        assert_eq!(planned(&stderr, step), "run", "{step}\n{stderr}");
    }
    for left in [
        "emit-jruby",
        "clone-spinel",
        "bundle-truffleruby",
        "serve-spinel",
    ] {
        assert!(
            !stderr
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(left)),
            "{left} is not planned:\n{stderr}"
        );
    }
    // The same tree as campfire-falcon's emit, file for file.
    reader.assert_pinned_tree(&run.join("trees/ruby"));
    let results = run.join("results");
    // The seed, in the recipe's own step (prepare), counted as the post's.
    let seed = json(&results.join("prepare.json"));
    assert_eq!(seed["messages"], 500, "{seed}");
    let cells = json(&results.join("results.json"))["cells"].clone();
    let cells = cells.as_array().unwrap();
    assert_measured_twice(
        cells,
        &["ruby", "ruby-1p"],
        &["/rooms/1", "/rooms/1/messages"],
    );
    // `ruby` given Campfire's count of the CPUs it shares with the load
    // generator (`workers = { per_cpu = 0.666 }`, as the harness gives the
    // emit rails' count) and running it, read from its container's
    // processes; `ruby-1p` one.
    let allowed = allowed_cpus();
    let campfire = reprise_recipe::Count::PerCpu { per_cpu: 0.666 }.on(allowed);
    assert_shapes(
        &run.join("results"),
        &[("ruby", campfire), ("ruby-1p", 1)],
        allowed,
    );
    // Judged: every claim has its verdict, and none pretends to a number
    // this run did not have: the other runtimes' lanes were not run here.
    let (_, report) = reader.stored_report("campfire-runtimes");
    let verdicts = report["judgement"]["verdicts"].as_array().unwrap();
    let published = std::fs::read_to_string(repo().join("recipes/campfire-runtimes.toml")).unwrap();
    assert_eq!(
        verdicts.len(),
        published.matches("[[claim]]").count(),
        "{verdicts:?}"
    );
    let outcome = |claim: &str| {
        verdicts
            .iter()
            .find(|v| v["claim"] == claim)
            .unwrap_or_else(|| panic!("{claim}: {verdicts:?}"))["outcome"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(outcome("jruby-0.72x-ruby"), "not_measured");
    assert_eq!(outcome("ruby-1p-rooms-abs"), "not_comparable");
}

/// The published recipes/campfire-nightly.toml, its two CRuby lanes
/// (`--lane ruby --lane ruby-1p --step load`): its steps as this machine's
/// substitutions leave them, every route of its suite resolved from the
/// signed-in pages (`{first}`, `{message}`, `{avatar}`, `{stylesheet}`,
/// `{second}`), checked and measured on both lanes, and its two claims, about
/// the nightly run's completeness, said why this run cannot judge them.
fn campfire_nightly_on_its_cruby_lanes(reader: &Reader) {
    let ran = reader.run_cruby_lanes("campfire-nightly");
    let (stderr, run) = (&ran.stderr, &ran.run);
    for step in [
        "emit-ruby",
        "stage-ruby",
        "prepare",
        "serve",
        "sign-in",
        "check",
        "load",
    ] {
        assert_eq!(planned(stderr, step), "run", "{step}\n{stderr}");
    }
    for step in [
        "bundle-ruby",
        "serve-falcon",
        "serve-spinel",
        "build-spinel",
    ] {
        let in_plan = stderr.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() >= 2 && words[1] == step && ["keep", "run", "redo"].contains(&words[0])
        });
        assert!(
            !in_plan,
            "{step} is not waited on by the chosen lanes:\n{stderr}"
        );
    }
    // Every route measured once on both lanes, but the two this revision
    // does not answer (the stylesheet's assets, /up's 500): no data, said so.
    let cells = json(&run.join("results/results.json"))["cells"].clone();
    let cells = cells.as_array().unwrap();
    for lane in ["ruby", "ruby-1p"] {
        for endpoint in [
            "/rooms/{first}",
            "/rooms/{first}/messages?before={message}",
            "/users/me/sidebar",
            "/searches?q=coffee",
            "/users/{user}/avatar",
            "POST /rooms/{second}/messages",
        ] {
            let measured: Vec<&serde_json::Value> = cells
                .iter()
                .filter(|c| c["lane"] == lane && c["endpoint"] == endpoint)
                .collect();
            assert!(
                measured.len() == 1 && measured[0]["req_per_s"].as_f64().is_some_and(|r| r > 0.0),
                "{lane} {endpoint}: {measured:?}\n── its log's tail ──\n{}",
                tail(&ran.lane_log(lane))
            );
        }
        for endpoint in ["stylesheet", "/up"] {
            assert!(
                cells.iter().any(|c| c["lane"] == lane
                    && c["endpoint"] == endpoint
                    && c["req_per_s"].is_null()
                    && c["no_data"]
                        .as_str()
                        .is_some_and(|n| n.contains("is not 2xx"))),
                "{lane} {endpoint}: {cells:?}"
            );
        }
    }
    // Its claims are about the nightly run as a whole (the harness's
    // targets, Spinel's runs): not measured by a run of two lanes, said so.
    let (_, report) = reader.stored_report("campfire-nightly");
    let verdicts = report["judgement"]["verdicts"].as_array().unwrap();
    let published = std::fs::read_to_string(repo().join("recipes/campfire-nightly.toml")).unwrap();
    assert_eq!(
        verdicts.len(),
        published.matches("[[claim]]").count(),
        "{verdicts:?}"
    );
    assert!(
        verdicts.iter().all(|v| v["outcome"] == "not_measured"),
        "{verdicts:?}"
    );
}
