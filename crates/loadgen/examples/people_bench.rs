//! The people generator alone, for `bench/people`: runs the given steps
//! against a server (the bench starts `campfire_shaped_server`) and prints,
//! per step, the generator's CPU, timer lag and memory beside the load it made.
//!
//! With `--server-pid`, the server's CPU over each step's measurement too:
//! a step the server could not keep up with says so.
//!
//! Usage: `people_bench URL ACCOUNTS STEPS(comma-separated) WARMUP_S STEP_S
//! [--no-keep-alive] [--threads N] [--cpus 1,2,…] [--server-pid PID]`

use std::time::{Duration, Instant};

use reprise_loadgen::people::PeopleProgress;
use reprise_loadgen::{PeopleSpec, StopHandle, run_people_until};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!(
            "usage: people_bench URL ACCOUNTS STEPS WARMUP_S STEP_S [--no-keep-alive] [--threads N] [--cpus 1,2] [--server-pid PID]"
        );
        std::process::exit(2);
    }
    let number = |i: usize| -> u64 {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("not a number: {:?}", args[i]);
            std::process::exit(2)
        })
    };
    let mut spec = PeopleSpec::new(&args[0]);
    spec.accounts = number(1) as u32;
    spec.steps = args[2].split(',').filter_map(|s| s.parse().ok()).collect();
    spec.warmup = Duration::from_secs(number(3));
    spec.step_duration = Duration::from_secs(number(4));
    spec.sign_in_per_s = 2000.0;
    spec.keep_alive = !args.iter().any(|a| a == "--no-keep-alive");
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    spec.threads = option("--threads")
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    spec.cpus = option("--cpus").map(|c| c.split(',').filter_map(|n| n.parse().ok()).collect());
    spec.verify_writes_path = Some("/writes".into());
    let server = option("--server-pid").and_then(|p| p.parse::<u32>().ok());
    // The server's CPU when this step's measurement was first seen.
    let mut measuring_since: Option<(Instant, Duration)> = None;
    // Ctrl-C ends the process, generator and all.
    let report = run_people_until(&spec, &StopHandle::default(), |progress| {
        let step = match progress {
            PeopleProgress::Live(live) => {
                match (live.measuring, measuring_since, server) {
                    (true, None, Some(pid)) => {
                        measuring_since = process_cpu(pid).map(|cpu| (Instant::now(), cpu));
                    }
                    (false, _, _) => measuring_since = None,
                    _ => {}
                }
                return;
            }
            PeopleProgress::Step(step) => step,
        };
        let server_cores = match (measuring_since.take(), server.and_then(process_cpu)) {
            (Some((at, before)), Some(now)) => {
                format!(
                    "{:.3} cores",
                    (now - before).as_secs_f64() / at.elapsed().as_secs_f64()
                )
            }
            _ => "unknown".into(),
        };
        let nav = step.navigation.as_ref();
        println!(
            "people={:>6}  threads={}  generator cpu={:.3} cores  timer lag p50={:.3} ms p99={:.3} ms  rss={:.0} MiB  server cpu={}  | navigations={} p99={:.1} ms  deliveries={}  failures={}  served={}",
            step.people,
            spec.threads,
            step.generator.cpu_cores,
            step.generator.timer_lag_p50_ms,
            step.generator.timer_lag_p99_ms,
            step.generator.rss_mib,
            server_cores,
            nav.map_or(0, |n| n.count),
            nav.map_or(0.0, |n| n.p99_ms),
            step.delivery.as_ref().map_or(0, |d| d.count),
            step.failures,
            step.served,
        );
        if !step.failure_samples.is_empty() {
            println!("  failures: {:?}", step.failure_samples);
        }
    });
    match report {
        Ok(report) => println!(
            "acknowledged writes={} unsaved={:?} keep_alive={}",
            report.acknowledged_writes, report.unsaved_writes, spec.keep_alive
        ),
        Err(e) => {
            eprintln!("people_bench: {e}");
            std::process::exit(1);
        }
    }
}

/// User plus system CPU time of process `pid`, from /proc/PID/stat.
fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let per_second = rustix::param::clock_ticks_per_second().max(1) as f64;
    Some(Duration::from_secs_f64(ticks as f64 / per_second))
}
