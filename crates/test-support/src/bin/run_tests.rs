//! Runs the test programs a `cargo test --no-run --message-format=json`
//! built, one after another, each in its package's folder, as `cargo test`
//! runs them — but without holding cargo's lock on the target dir, so a
//! build can go on beside them (scripts/test builds the desktop app while
//! the workspace's tests run). Every program runs: a failure does not stop
//! the rest. It ends with how long each took, by the clock and in CPU time
//! (its own and that of the processes it waited for: what a program costs
//! the lanes running beside it), and which failed; its exit status is 1 when
//! any failed.
//!
//! Usage: `run_tests BUILD.json [--only NAME]... [--skip NAME]... [-- ARGS...]`,
//! where NAME is a test program's target name (`campfire_real`) and ARGS go
//! to every program (`--test-threads 1`).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

struct Program {
    /// The package's folder name.
    package: String,
    name: String,
    /// `src/lib.rs`, `tests/load.rs`: as `cargo test` names it.
    source: String,
    executable: PathBuf,
    dir: PathBuf,
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(build) = args.next() else {
        eprintln!("usage: run_tests BUILD.json [--only NAME]... [--skip NAME]... [-- ARGS...]");
        return ExitCode::from(2);
    };
    let (mut only, mut skip, mut passed) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--only" => only.extend(args.next()),
            "--skip" => skip.extend(args.next()),
            "--" => passed.extend(args.by_ref()),
            other => {
                eprintln!("run_tests: unknown argument `{other}`");
                return ExitCode::from(2);
            }
        }
    }
    let programs = match programs(Path::new(&build)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("run_tests: {build}: {e}");
            return ExitCode::from(2);
        }
    };
    let chosen: Vec<&Program> = programs
        .iter()
        .filter(|p| only.is_empty() || only.contains(&p.name))
        .filter(|p| !skip.contains(&p.name))
        .collect();
    let mut ran: Vec<(&Program, Duration, Duration, bool)> = Vec::new();
    for program in chosen {
        println!(
            "     Running {} ({}, {})",
            program.source,
            program.package,
            program.executable.display()
        );
        let (started, cpu_before) = (Instant::now(), children_cpu());
        let ok = Command::new(&program.executable)
            .args(&passed)
            .current_dir(&program.dir)
            .status()
            .is_ok_and(|s| s.success());
        let cpu = children_cpu().saturating_sub(cpu_before);
        ran.push((program, started.elapsed(), cpu, ok));
    }
    let total: Duration = ran.iter().map(|(_, d, _, _)| *d).sum();
    let total_cpu: Duration = ran.iter().map(|(_, _, c, _)| *c).sum();
    let mut slowest = ran.clone();
    slowest.sort_by_key(|(_, took, _, _)| std::cmp::Reverse(*took));
    println!("\ntest program                                      seconds   cpu s");
    for (program, took, cpu, ok) in slowest.iter().take(15) {
        let name = format!("{} {}", program.package, program.name);
        let mark = if *ok { "" } else { "  FAILED" };
        println!(
            "{name:<48}{:>8.1}{:>8.1}{mark}",
            took.as_secs_f64(),
            cpu.as_secs_f64()
        );
    }
    println!(
        "{:<48}{:>8.1}{:>8.1}  ({} programs)",
        "all",
        total.as_secs_f64(),
        total_cpu.as_secs_f64(),
        ran.len()
    );
    let failed: Vec<String> = ran
        .iter()
        .filter(|(_, _, _, ok)| !ok)
        .map(|(p, _, _, _)| format!("{} ({})", p.source, p.package))
        .collect();
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("\nfailed: {}", failed.join(", "));
        ExitCode::FAILURE
    }
}

/// The CPU time, user and system, of this process's children that have
/// ended and been waited for, and of theirs.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The test programs of a build's JSON messages, in the order `cargo test`
/// runs them: by package, then the library's, the binaries', the
/// integration tests' by name.
fn programs(build: &Path) -> std::io::Result<Vec<Program>> {
    let file = std::fs::File::open(build)?;
    let mut found = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
            continue;
        }
        let (Some(executable), Some(manifest)) = (
            message["executable"].as_str(),
            message["manifest_path"].as_str(),
        ) else {
            continue;
        };
        let dir = Path::new(manifest)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let source = message["target"]["src_path"].as_str().unwrap_or_default();
        let kind = message["target"]["kind"][0].as_str().unwrap_or_default();
        let order = match kind {
            "lib" | "rlib" | "proc-macro" => 0,
            "bin" => 1,
            _ => 2,
        };
        found.push((
            order,
            Program {
                // The package's folder: `cli`, `engine`, `src-tauri`.
                package: dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                name: message["target"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                source: Path::new(source)
                    .strip_prefix(&dir)
                    .unwrap_or(Path::new(source))
                    .display()
                    .to_string(),
                executable: PathBuf::from(executable),
                dir,
            },
        ));
    }
    found.sort_by(|(a_order, a), (b_order, b)| {
        (&a.dir, a_order, &a.name).cmp(&(&b.dir, b_order, &b.name))
    });
    found.dedup_by(|a, b| a.1.executable == b.1.executable);
    Ok(found.into_iter().map(|(_, p)| p).collect())
}
