//! The closed-loop generator alone, for `bench/loadgen-vs-wrk`: the same
//! `run_until` that `reprise load` runs, without the rest of Reprise (so the
//! bench builds this crate only), printing the report as JSON.
//!
//! Usage: `load_bench URL [-c CONNECTIONS] [-t THREADS] [--cpus 1,2] [-d SECONDS]
//! [--timeout SECONDS] [--expect-bytes N]`

use std::time::Duration;

use reprise_loadgen::{LoadSpec, StopHandle, run_until};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(url) = args.first() else {
        eprintln!(
            "usage: load_bench URL [-c N] [-t N] [--cpus 1,2] [-d S] [--timeout S] [--expect-bytes N]"
        );
        std::process::exit(2);
    };
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let number = |name: &str| -> Option<f64> {
        option(name).map(|v| {
            v.parse().unwrap_or_else(|_| {
                eprintln!("{name}: not a number: {v:?}");
                std::process::exit(2)
            })
        })
    };
    let mut spec = LoadSpec::new(url);
    if let Some(c) = number("-c") {
        spec.connections = c as usize;
    }
    if let Some(t) = number("-t") {
        spec.threads = t as usize;
    }
    if let Some(d) = number("-d") {
        spec.duration = Duration::from_secs_f64(d);
    }
    if let Some(t) = number("--timeout") {
        spec.timeout = Duration::from_secs_f64(t);
    }
    spec.checks.bytes = number("--expect-bytes").map(|n| n as u64);
    spec.cpus = option("--cpus").map(|c| c.split(',').filter_map(|n| n.parse().ok()).collect());
    // Ctrl-C ends the process, generator and all.
    match run_until(&spec, &StopHandle::default(), |_| {}) {
        Ok(report) => println!("{}", serde_json::to_string(&report).expect("a report")),
        Err(e) => {
            eprintln!("load_bench: {e}");
            std::process::exit(2);
        }
    }
}
