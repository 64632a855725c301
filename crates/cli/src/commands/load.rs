//! `reprise load`: HTTP load against one URL, wrk-style, with a summary or JSON.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use reprise_loadgen::{
    CheckSample, LoadError, LoadReport, LoadSpec, Phase, Progress, ResponseChecks, StopHandle,
    Targets, write_hdr_log,
};

use crate::flags::{duration, format_duration, rate};

/// Exit status of a load stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
const STOPPED: u8 = 130;

/// Generate HTTP load (closed loop like wrk, or open loop at a fixed rate like wrk2).
///
/// Exit status: 0 with a figure, 1 when the run is "no data" (any error, non-2xx
/// status or failed check), 2 on bad input, 130 when stopped by Ctrl-C or SIGTERM.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The URL to load (http:// only); an address of this machine unless --allow-remote.
    pub url: String,
    /// Allow a URL on another machine (by default only loopback addresses are loaded).
    #[arg(long)]
    pub allow_remote: bool,
    /// Connections, each with one request in flight.
    #[arg(short = 'c', long, default_value_t = 16)]
    pub connections: usize,
    /// Worker threads.
    #[arg(short = 't', long, default_value_t = 1)]
    pub threads: usize,
    /// Measured time, e.g. 20s, 500ms, 2m.
    #[arg(short = 'd', long, default_value = "20s", value_parser = duration)]
    pub duration: Duration,
    /// Load before measuring, not counted.
    #[arg(long, default_value = "0s", value_parser = duration)]
    pub warmup: Duration,
    /// Requests per second over all connections (open loop, corrected
    /// latency). The load still ends at its duration when the rate cannot be
    /// held; the requests due but not sent are reported as missed.
    #[arg(long, value_parser = rate)]
    pub rate: Option<f64>,
    /// A request header, 'Name: value' (repeatable).
    #[arg(short = 'H', long = "header", value_parser = parse_header)]
    pub headers: Vec<(String, String)>,
    #[arg(long, default_value = "GET")]
    pub method: String,
    /// Request body.
    #[arg(long)]
    pub body: Option<String>,
    /// A request without a complete response by then is a timeout error.
    #[arg(long, default_value = "2s", value_parser = duration)]
    pub timeout: Duration,
    /// Expected status code (any non-2xx is always an error).
    #[arg(long)]
    pub expect_status: Option<u16>,
    /// Expected number of tags (matches of `<([a-zA-Z][-a-zA-Z0-9]*)`).
    #[arg(long)]
    pub expect_tags: Option<u64>,
    /// Expected body length in bytes.
    #[arg(long)]
    pub expect_bytes: Option<u64>,
    /// Expected SHA-256 of the body (hex).
    #[arg(long)]
    pub expect_sha256: Option<String>,
    /// A substring the body must contain.
    #[arg(long)]
    pub expect_contains: Option<String>,
    /// Check bodies on one response in N per connection (the first always), not on every one.
    #[arg(long, value_name = "N")]
    pub check_one_in: Option<u32>,
    /// CPUs to pin the worker threads to, e.g. 1 or 2,3.
    #[arg(long, value_delimiter = ',')]
    pub cpus: Option<Vec<usize>>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Save the latency histograms as an HdrHistogram interval log.
    #[arg(long, value_name = "FILE")]
    pub hdr: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let spec = LoadSpec {
        url: args.url,
        targets: if args.allow_remote {
            Targets::Anywhere
        } else {
            Targets::Loopback
        },
        method: args.method,
        headers: args.headers,
        body: args.body,
        connections: args.connections,
        threads: args.threads,
        duration: args.duration,
        warmup: args.warmup,
        rate: args.rate,
        cpus: args.cpus,
        timeout: args.timeout,
        checks: ResponseChecks {
            status: args.expect_status,
            tags: args.expect_tags,
            bytes: args.expect_bytes,
            sha256: args.expect_sha256,
            contains: args.expect_contains,
        },
        check_sample: args
            .check_one_in
            .map_or(CheckSample::Every, CheckSample::OneIn),
    };
    let show_progress = std::io::stderr().is_terminal();
    if !args.json {
        println!(
            "Running {} test @ {}",
            format_duration(spec.duration),
            reprise_recipe::shown::escaped(&spec.url)
        );
        println!(
            "  {} threads and {} connections",
            spec.threads, spec.connections
        );
    }
    let stop = StopHandle::default();
    let stopper = stop.clone();
    crate::interrupt::on_interrupt(move || stopper.stop());
    let outcome = reprise_loadgen::run_until(&spec, &stop, |p| {
        if show_progress {
            print_progress(p);
        }
    });
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    let report = match outcome {
        Ok(report) => report,
        Err(LoadError::Stopped) => {
            say!("reprise load: stopped before the end: no figure");
            return ExitCode::from(STOPPED);
        }
        Err(e @ LoadError::NotAllowed { .. }) if !args.allow_remote => {
            say!("reprise load: {e} (--allow-remote loads another machine)");
            return ExitCode::from(2);
        }
        Err(e) => {
            say!("reprise load: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &args.hdr {
        let written = std::fs::File::create(path)
            .map_err(|e| e.to_string())
            .and_then(|file| {
                write_hdr_log(&report, std::io::BufWriter::new(file)).map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            say!("reprise load: cannot save {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                say!("reprise load: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        print_summary(&report);
    }
    if report.has_data() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn print_progress(p: &Progress) {
    let phase = match p.phase {
        Phase::Warmup => "warm-up",
        Phase::Measure => "measure",
    };
    let p99 = p.p99_ms.map_or("-".into(), |ms| format!("{ms:.2}ms"));
    eprint!(
        "\r\x1b[2K{phase} {:.0}/{:.0}s  {} requests  {:.0} req/s  p99 {p99}  errors {}  reconnects {}",
        p.elapsed_s, p.phase_s, p.requests, p.req_per_s, p.errors, p.reconnects
    );
    let _ = std::io::stderr().flush();
}

fn print_summary(report: &LoadReport) {
    let rows = [
        ("Latency", report.latency),
        ("Corrected", report.corrected_latency),
    ];
    println!(
        "  {:<10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "", "p50", "p90", "p99", "p99.9", "max", "mean"
    );
    for (name, summary) in rows {
        let Some(s) = summary else { continue };
        println!(
            "  {name:<10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            ms(s.p50),
            ms(s.p90),
            ms(s.p99),
            s.p999.map_or_else(|| "-".into(), ms),
            ms(s.max),
            ms(s.mean)
        );
    }
    println!(
        "  {} requests in {:.2}s, {} read",
        report.requests,
        report.duration_s,
        format_bytes(report.bytes)
    );
    if report.missed > 0 {
        println!(
            "  Missed: {} requests due were never sent: the rate asked ({:.0} req/s) was not sustained",
            report.missed,
            report.rate.unwrap_or(0.0)
        );
    }
    let e = &report.errors;
    if e.total() > 0 || report.reconnects > 0 {
        println!(
            "  Errors: connect {}, timeout {}, io {}, status {}, check {}; reconnects {}",
            e.connect, e.timeout, e.io, e.status, e.check, report.reconnects
        );
        for (code, n) in &e.statuses {
            println!("  Status {code}: {n}");
        }
        for sample in &report.error_samples {
            println!("  e.g. {sample}");
        }
    }
    match report.req_per_s {
        Some(rps) => {
            println!("Requests/sec: {rps:>10.2}");
            println!(
                "Transfer/sec: {:>10}",
                format_bytes((report.bytes as f64 / report.duration_s) as u64)
            );
        }
        None => println!("Requests/sec: no data ({} errors)", e.total()),
    }
}

fn ms(value: f64) -> String {
    format!("{value:.2}ms")
}

fn format_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        0..1024 => format!("{bytes}B"),
        1024..1_048_576 => format!("{:.2}KB", b / 1024.0),
        1_048_576..1_073_741_824 => format!("{:.2}MB", b / 1_048_576.0),
        _ => format!("{:.2}GB", b / 1_073_741_824.0),
    }
}

/// `Name: value`.
fn parse_header(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not a header like 'Name: value'"))?;
    if name.trim().is_empty() {
        return Err(format!("{text:?} has no header name"));
    }
    Ok((name.trim().to_string(), value.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_split_at_the_first_colon() {
        assert_eq!(
            parse_header("Origin: http://127.0.0.1:3000"),
            Ok(("Origin".into(), "http://127.0.0.1:3000".into()))
        );
        assert!(parse_header("no colon").is_err());
        assert!(parse_header(": empty").is_err());
    }
}
