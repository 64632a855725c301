//! The real harness: `scripts/bench-env`, the aggregator embedded in
//! `scripts/bench` and `scripts/bench-report`, taken from the Roundhouse
//! mirror bundle (../shared/mirrors, or `REPRISE_MIRRORS`) and run with
//! Debian's Ruby. Shared by the harness's and the session's tests.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The harness's scripts, extracted once per test binary.
pub struct Scripts {
    _dir: tempfile::TempDir,
    pub bench_env: PathBuf,
    pub bench_report: PathBuf,
    /// The Ruby `scripts/bench` runs to aggregate per-run.json.
    pub aggregate: PathBuf,
}

pub fn scripts() -> &'static Scripts {
    static SCRIPTS: OnceLock<Scripts> = OnceLock::new();
    SCRIPTS.get_or_init(|| {
        let mirrors = std::env::var_os("REPRISE_MIRRORS")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mirrors")
            });
        let bundle = mirrors.join("roundhouse.bundle");
        assert!(
            bundle.is_file(),
            "these tests need the Roundhouse mirror bundle at {} (set REPRISE_MIRRORS)",
            bundle.display()
        );
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join("roundhouse.git");
        let out = Command::new("git")
            .args(["clone", "--quiet", "--bare"])
            .arg(&bundle)
            .arg(&git)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let show = |path: &str| {
            let out = Command::new("git")
                .arg("--git-dir")
                .arg(&git)
                .args(["show", &format!("HEAD:{path}")])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{path}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).unwrap()
        };
        let write = |name: &str, text: &str| {
            let file = dir.path().join(name);
            std::fs::write(&file, text).unwrap();
            file
        };
        let bench = show("scripts/bench");
        let start = bench
            .find("<<'RUBY'\n")
            .expect("scripts/bench embeds its aggregator")
            + 9;
        let end = start + bench[start..].find("\nRUBY\n").unwrap();
        Scripts {
            bench_env: write("bench-env", &show("scripts/bench-env")),
            bench_report: write("bench-report", &show("scripts/bench-report")),
            aggregate: write("aggregate.rb", &bench[start..end]),
            _dir: dir,
        }
    })
}

/// Runs `cmd`, which must succeed.
pub fn succeed(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The real aggregator's summary.json and summary.md of `per_run`.
pub fn real_aggregate(per_run: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("per-run.json");
    std::fs::write(&input, per_run).unwrap();
    let (json, md) = (
        dir.path().join("summary.json"),
        dir.path().join("summary.md"),
    );
    succeed(
        Command::new("ruby")
            .arg(&scripts().aggregate)
            .args([input.as_os_str(), json.as_os_str(), md.as_os_str()])
            .current_dir(dir.path()),
    );
    (
        std::fs::read_to_string(json).unwrap(),
        std::fs::read_to_string(md).unwrap(),
    )
}

/// The arguments `scripts/bench` hands bench-env, and the `harness` block
/// bench-env makes of them.
pub const BENCH_ENV_ARGS: [&str; 20] = [
    "--workers",
    "1 8",
    "--concurrency",
    "16",
    "--runs",
    "3",
    "--duration",
    "20",
    "--warmup",
    "20",
    "--threads",
    "5",
    "--wrk-threads",
    "2",
    "--endpoints",
    "/rooms/1 /rooms/1/messages",
    "--targets",
    "rails ruby jruby",
    "--command",
    "scripts/bench rails ruby jruby",
];

pub fn bench_env_harness() -> serde_json::Value {
    serde_json::json!({
        "workers": [1, 8], "concurrency": 16, "runs": 3, "duration_sec": 20, "warmup_sec": 20,
        "threads": 5, "wrk_threads": 2, "endpoints": ["/rooms/1", "/rooms/1/messages"],
        "targets": ["rails", "ruby", "jruby"], "command": "scripts/bench rails ruby jruby",
    })
}

/// The real bench-env's env.json of this machine, run in `cwd`.
pub fn bench_env_here(cwd: &Path, args: &[&str]) -> String {
    let out = succeed(
        Command::new("ruby")
            .arg(&scripts().bench_env)
            .args(args)
            .current_dir(cwd),
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The posts' machine as the post describes it: a bare-metal Ryzen 5 3600
/// (6 cores, 12 threads), governor performance, boost off, 63 GB, Ubuntu
/// 24.04.5. The real bench-env is run on it by giving it that machine's
/// files and commands: a mount namespace (made by the test, gone with its
/// process) binds the post's /proc/meminfo, os-release, cpufreq and DMI
/// over this machine's for bench-env alone, and `lscpu`, `uname` and
/// `hostname` on its PATH answer as that machine's would.
pub fn bench_env_on_posts_machine(cwd: &Path, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let file = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    };
    let exe = |rel: &str, text: &str| {
        let path = file(rel, text);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    file(
        "meminfo",
        "MemTotal:       65778904 kB\nMemFree:        61234567 kB\n",
    );
    file(
        "os-release",
        "PRETTY_NAME=\"Ubuntu 24.04.5 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\n\
         VERSION=\"24.04.5 LTS (Noble Numbat)\"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n",
    );
    exe(
        "bin/lscpu",
        &format!("#!/bin/sh\ncat <<'JSON'\n{POSTS_LSCPU}\nJSON\n"),
    );
    exe(
        "bin/uname",
        "#!/bin/sh\ncase \"$1\" in\n-a) echo 'Linux bench 6.8.0-45-generic #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux' ;;\n-s) echo Linux ;;\n-m) echo x86_64 ;;\nesac\n",
    );
    exe("bin/hostname", "#!/bin/sh\necho bench\n");
    let script = format!(
        "set -e\n\
         mount --bind {root}/meminfo /proc/meminfo\n\
         mount --bind {root}/os-release /etc/os-release\n\
         mount -t tmpfs reprise-test /sys/devices/system/cpu\n\
         mkdir -p /sys/devices/system/cpu/cpufreq/policy0\n\
         cd /sys/devices/system/cpu/cpufreq\n\
         echo 0 > boost\n\
         echo performance > policy0/scaling_governor\n\
         echo 3600000 > policy0/scaling_cur_freq\n\
         echo 2200000 > policy0/scaling_min_freq\n\
         echo 3600000 > policy0/scaling_max_freq\n\
         mount -t tmpfs reprise-test /sys/class\n\
         mkdir -p /sys/class/dmi/id\n\
         echo 'B450 TOMAHAWK MAX' > /sys/class/dmi/id/board_name\n\
         echo 'Micro-Star International Co., Ltd.' > /sys/class/dmi/id/board_vendor\n\
         echo MS-7C02 > /sys/class/dmi/id/product_name\n\
         cd \"$0\"\n\
         exec ruby \"$@\"\n",
        root = root.display()
    );
    let path = format!(
        "{}:{}",
        root.join("bin").display(),
        std::env::var("PATH").unwrap()
    );
    let out = succeed(
        Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &script])
            .arg(cwd)
            .arg(&scripts().bench_env)
            .args(args.iter().map(OsStr::new))
            .env("PATH", path),
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `lscpu --json` on a Ryzen 5 3600 under Ubuntu 24.04 (util-linux 2.39 nests its rows).
pub const POSTS_LSCPU: &str = r#"{
   "lscpu": [
      {"field": "Architecture:", "data": "x86_64",
       "children": [
          {"field": "CPU op-mode(s):", "data": "32-bit, 64-bit"},
          {"field": "Address sizes:", "data": "43 bits physical, 48 bits virtual"},
          {"field": "Byte Order:", "data": "Little Endian"}
       ]},
      {"field": "CPU(s):", "data": "12",
       "children": [
          {"field": "On-line CPU(s) list:", "data": "0-11"}
       ]},
      {"field": "Vendor ID:", "data": "AuthenticAMD",
       "children": [
          {"field": "Model name:", "data": "AMD Ryzen 5 3600 6-Core Processor",
           "children": [
              {"field": "CPU family:", "data": "23"},
              {"field": "Model:", "data": "113"},
              {"field": "Thread(s) per core:", "data": "2"},
              {"field": "Core(s) per socket:", "data": "6"},
              {"field": "Socket(s):", "data": "1"},
              {"field": "Stepping:", "data": "0"},
              {"field": "Frequency boost:", "data": "disabled"},
              {"field": "CPU(s) scaling MHz:", "data": "100%"},
              {"field": "CPU max MHz:", "data": "3600.0000"},
              {"field": "CPU min MHz:", "data": "2200.0000"}
           ]}
       ]},
      {"field": "Caches (sum of all):", "data": null,
       "children": [
          {"field": "L1d:", "data": "192 KiB (6 instances)"},
          {"field": "L2:", "data": "3 MiB (6 instances)"},
          {"field": "L3:", "data": "32 MiB (2 instances)"}
       ]}
   ]
}"#;
