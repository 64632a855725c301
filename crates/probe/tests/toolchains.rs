//! Toolchain discovery and version queries against executables the tests
//! write (shell scripts printing the real banners), and the real Debian
//! ruby/java where installed. Each test passes its own search path; none
//! touches the process environment.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::time::{Duration, Instant};

use reprise_probe::toolchain::{self, Origin, SearchPath, Status, ToolQuery, Toolchains};

/// Held to write a script (exclusive) or to start processes (shared). A
/// process another test thread forks while a script is open for writing
/// holds that file open until its own exec, and running the script in that
/// window fails with ETXTBSY ("Text file busy"): the busier the machine, the
/// wider the window (seen as a toolchain that "failed" in a busy test run).
static FILES_AND_FORKS: RwLock<()> = RwLock::new(());

/// `toolchain::probe`, while no script is being written.
fn probe(queries: &[ToolQuery], search: &SearchPath, timeout: Duration) -> Toolchains {
    let _forking = FILES_AND_FORKS.read().unwrap_or_else(|e| e.into_inner());
    toolchain::probe(queries, search, timeout)
}

const RUBY_405: &str = "ruby 4.0.5 (2026-05-12 revision 3d1c2a0b5e) +YJIT +PRISM [x86_64-linux]";
const JRUBY_10: &str = "jruby 10.1.1.0 (3.4.2) 2026-01-13 8f1a2b3c4d OpenJDK 64-Bit Server VM 25.0.1+8-LTS on 25.0.1+8-LTS +jit [x86_64-linux]";
const TRUFFLERUBY_40: &str =
    "truffleruby 40.0.0, like ruby 3.4.7, GraalVM CE Native [x86_64-linux]";

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let _writing = FILES_AND_FORKS.write().unwrap_or_else(|e| e.into_inner());
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A bin dir with ruby, jruby, truffleruby, java (banner on stderr) and wrk
/// (banner on stderr, exit 1), plus `sh` so the scripts can run with this PATH only.
fn published_toolchains(dir: &Path) -> SearchPath {
    script(dir, "ruby", &format!("echo '{RUBY_405}'"));
    script(dir, "jruby", &format!("echo '{JRUBY_10}'"));
    script(dir, "truffleruby", &format!("echo '{TRUFFLERUBY_40}'"));
    script(
        dir,
        "java",
        "echo 'Picked up JAVA_TOOL_OPTIONS: -Xss4m' >&2\n\
         echo 'openjdk version \"25.0.1\" 2025-10-21 LTS' >&2\n\
         echo 'OpenJDK Runtime Environment Temurin-25.0.1+8 (build 25.0.1+8-LTS)' >&2\n\
         echo 'OpenJDK 64-Bit Server VM Temurin-25.0.1+8 (build 25.0.1+8-LTS, mixed mode, sharing)' >&2",
    );
    script(
        dir,
        "wrk",
        "echo 'Usage: wrk <options> <url>' >&2\n\
         echo 'wrk 4.1.0 [epoll] Copyright (C) 2012 Will Glozer' >&2\nexit 1",
    );
    SearchPath {
        dirs: vec![dir.to_path_buf()],
        mise_installs: None,
    }
}

#[test]
fn published_banners_parse_into_products_and_versions() {
    let tmp = tempfile::tempdir().unwrap();
    let search = published_toolchains(&tmp.path().join("bin"));
    let tools = probe(
        &toolchain::standard_queries(),
        &search,
        Duration::from_secs(10),
    );

    let ruby = tools.get("ruby").unwrap();
    assert_eq!(ruby.status, Status::Answered);
    assert_eq!(ruby.first_line.as_deref(), Some(RUBY_405));
    assert_eq!(ruby.version(), Some("4.0.5"));
    assert_eq!(ruby.banner.as_ref().unwrap().describe(), "Ruby 4.0.5 +YJIT");

    let jruby = tools.get("jruby").unwrap().banner.clone().unwrap();
    assert_eq!(
        (jruby.product.as_str(), jruby.version.as_str()),
        ("JRuby", "10.1.1.0")
    );
    assert_eq!(jruby.java_major(), Some(25));
    assert_eq!(jruby.ruby_compat.as_deref(), Some("3.4.2"));

    let truffle = tools.get("truffleruby").unwrap().banner.clone().unwrap();
    assert_eq!(
        truffle.describe(),
        "TruffleRuby 40.0.0 (Ruby 3.4.7), native"
    );

    let java = tools.get("java").unwrap();
    assert_eq!(
        java.first_line.as_deref(),
        Some("openjdk version \"25.0.1\" 2025-10-21 LTS")
    );
    assert_eq!(java.version(), Some("25.0.1"));
    assert_eq!(java.banner.as_ref().unwrap().product, "OpenJDK");

    let wrk = tools.get("wrk").unwrap();
    assert_eq!(
        wrk.status,
        Status::Answered,
        "a non-zero exit with a banner is an answer"
    );
    assert_eq!(wrk.version(), Some("4.1.0"));

    for missing in [
        "bundle", "gem", "node", "git", "sqlite3", "mise", "podman", "docker",
    ] {
        let t = tools.get(missing).unwrap();
        assert_eq!(
            (t.status, t.path.as_ref()),
            (Status::Missing, None),
            "{missing}"
        );
    }
}

#[test]
fn a_hung_toolchain_is_cut_off_without_delaying_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    let search = published_toolchains(&bin);
    let pid_file = tmp.path().join("sleeper.pid");
    // node never answers; its own child (the sleep) must die with it.
    script(
        &bin,
        "node",
        &format!(
            "/bin/sleep 1000 &\necho $! > '{}'\nwait",
            pid_file.display()
        ),
    );
    let timeout = Duration::from_secs(2);
    let started = Instant::now();
    let tools = probe(&toolchain::standard_queries(), &search, timeout);
    let wall = started.elapsed();

    let node = tools.get("node").unwrap();
    assert_eq!(node.status, Status::TimedOut);
    assert!(
        node.error
            .as_deref()
            .unwrap()
            .contains("no answer within 2.0 s")
    );
    for answered in ["ruby", "jruby", "truffleruby", "java", "wrk"] {
        let t = tools.get(answered).unwrap();
        assert_eq!(t.status, Status::Answered, "{answered}: {:?}", t.error);
        assert!(t.elapsed_ms < 2000, "{answered} took {} ms", t.elapsed_ms);
    }
    assert!(wall < timeout + Duration::from_secs(3), "took {wall:?}");

    let sleeper = std::fs::read_to_string(&pid_file).unwrap();
    let stat = Path::new("/proc").join(sleeper.trim()).join("stat");
    std::thread::sleep(Duration::from_millis(200));
    let alive = std::fs::read_to_string(stat)
        .map(|s| !s.contains(") Z "))
        .unwrap_or(false);
    assert!(!alive, "the hung tool's child process was left running");
}

#[test]
fn a_tool_that_fails_without_a_banner_is_reported_with_its_words() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    script(
        &bin,
        "ruby",
        "echo 'ruby: error while loading shared libraries: libruby.so.4.0' >&2\nexit 127",
    );
    let search = SearchPath {
        dirs: vec![bin],
        mise_installs: None,
    };
    let tools = probe(
        &[ToolQuery::new("ruby", &["--version"])],
        &search,
        Duration::from_secs(5),
    );
    let ruby = tools.get("ruby").unwrap();
    assert_eq!(ruby.status, Status::Failed);
    assert_eq!(ruby.version(), None);
    let error = ruby.error.as_deref().unwrap();
    assert!(
        error.contains("127") && error.contains("libruby.so.4.0"),
        "{error}"
    );
}

#[test]
fn mise_installs_are_found_beside_the_path_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    script(
        &bin,
        "ruby",
        "echo 'ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]'",
    );
    let installs = tmp.path().join("mise/installs");
    script(
        &installs.join("ruby/4.0.5/bin"),
        "ruby",
        &format!("echo '{RUBY_405}'"),
    );
    script(
        &installs.join("ruby/truffleruby-40.0.0/bin"),
        "truffleruby",
        &format!("echo '{TRUFFLERUBY_40}'"),
    );
    // mise's short-version link points at the same install: asked once.
    std::os::unix::fs::symlink(installs.join("ruby/4.0.5"), installs.join("ruby/4")).unwrap();
    let search = SearchPath {
        dirs: vec![bin],
        mise_installs: Some(installs.clone()),
    };
    let queries = [
        ToolQuery::new("ruby", &["--version"]),
        ToolQuery::new("truffleruby", &["--version"]),
    ];
    let tools = probe(&queries, &search, Duration::from_secs(5));

    assert_eq!(tools.get("ruby").unwrap().version(), Some("3.1.2"));
    let rubies: Vec<(Option<Origin>, Option<&str>)> = tools
        .candidates("ruby")
        .map(|t| (t.origin, t.version()))
        .collect();
    assert_eq!(
        rubies,
        vec![
            (Some(Origin::Path), Some("3.1.2")),
            (Some(Origin::Mise), Some("4.0.5"))
        ]
    );
    assert_eq!(tools.get("truffleruby").unwrap().status, Status::Missing);
    let truffle: Vec<_> = tools.candidates("truffleruby").collect();
    assert_eq!(truffle.len(), 1);
    assert_eq!(truffle[0].version(), Some("40.0.0"));
    assert_eq!(
        truffle[0].path.as_deref(),
        Some(
            installs
                .join("ruby/truffleruby-40.0.0/bin/truffleruby")
                .as_path()
        )
    );
}

/// The real toolchains Debian ships (scripts/test installs ruby and a JRE).
#[test]
fn real_debian_ruby_and_java_answer_with_their_versions() {
    let search = SearchPath::from_env();
    let queries = [
        ToolQuery::new("ruby", &["--version"]),
        ToolQuery::new("java", &["-version"]),
    ];
    let tools = probe(&queries, &search, Duration::from_secs(30));
    let mut asked = 0;
    for (tool, product) in [("ruby", "Ruby"), ("java", "OpenJDK")] {
        let t = tools.get(tool).unwrap();
        if t.status == Status::Missing {
            eprintln!("{tool} is not installed here; scripts/test installs it");
            continue;
        }
        asked += 1;
        assert_eq!(t.status, Status::Answered, "{t:?}");
        let banner = t.banner.as_ref().expect("a parsed banner");
        assert_eq!(banner.product, product);
        assert!(
            banner.version.chars().next().unwrap().is_ascii_digit(),
            "{banner:?}"
        );
    }
    if std::env::var_os("CI").is_some() {
        assert_eq!(
            asked, 2,
            "CI installs both ruby and java through scripts/test"
        );
    }
}
