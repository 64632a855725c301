//! The posts' own load generator: wrk, run as a child process with
//! `--latency` and read as Roundhouse's `scripts/bench` reads it
//! (`Requests/sec:`, the `Latency Distribution` block), plus what that
//! script leaves to the reader: `Non-2xx or 3xx responses` and `Socket
//! errors`, either of which makes the run no data, as the posts say ("a
//! cell with any non-2xx response is not a measurement of the endpoint").
//!
//! The method, body and headers go to wrk in a Lua script written to a
//! private temporary file (mode 0600, removed after the run), not on its
//! command line, where every local user could read a session cookie.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crate::report::{ErrorCounts, LatencySummary, LoadReport};
use crate::spec::{LoadError, LoadSpec, STOP_POLL, StopHandle};

/// What wrk printed, in numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct WrkOutput {
    /// `N requests in 5.00s, 1.23MB read`.
    pub requests: u64,
    pub duration_s: f64,
    pub bytes: u64,
    /// `Requests/sec:`; `None` when wrk printed none.
    pub req_per_s: Option<f64>,
    /// The `Latency` thread-stats line and the distribution block (ms);
    /// wrk prints no 99.9th percentile.
    pub latency: Option<LatencySummary>,
    /// `Non-2xx or 3xx responses:` (wrk counts statuses of 400 and up).
    pub non_2xx: u64,
    /// `Socket errors: connect N, read N, write N, timeout N`.
    pub connect_errors: u64,
    pub read_errors: u64,
    pub write_errors: u64,
    pub timeouts: u64,
}

impl WrkOutput {
    /// What went wrong, as the harness counts it: nothing means data.
    pub fn errors(&self) -> ErrorCounts {
        ErrorCounts {
            connect: self.connect_errors,
            timeout: self.timeouts,
            io: self.read_errors + self.write_errors,
            status: self.non_2xx,
            ..ErrorCounts::default()
        }
    }
}

/// Why wrk's report could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnreadReport {
    #[error("bad line {0:?}")]
    BadLine(String),
    #[error("no `N requests in T` line: wrk did not finish a run")]
    Unfinished,
}

/// Reads wrk's report; an error says what was missing.
pub fn parse(text: &str) -> Result<WrkOutput, UnreadReport> {
    let mut out = WrkOutput {
        requests: 0,
        duration_s: 0.0,
        bytes: 0,
        req_per_s: None,
        latency: None,
        non_2xx: 0,
        connect_errors: 0,
        read_errors: 0,
        write_errors: 0,
        timeouts: 0,
    };
    let mut summary = false;
    let mut thread_stats: Option<(f64, f64, f64)> = None;
    let mut percentiles: Vec<(f64, f64)> = Vec::new();
    let mut in_distribution = false;
    for line in text.lines() {
        let t = line.trim();
        let words: Vec<&str> = t.split_whitespace().collect();
        if in_distribution {
            if let [p, v] = words[..]
                && let (Some(p), Some(v)) = (p.strip_suffix('%'), duration_ms(v))
                && let Ok(p) = p.parse::<f64>()
            {
                percentiles.push((p, v));
                continue;
            }
            in_distribution = false;
        }
        if t.starts_with("Latency Distribution") {
            in_distribution = true;
        } else if words.first() == Some(&"Latency") && words.len() >= 4 {
            // `Latency   1.23ms  456.00us  12.00ms   89.00%`: avg, stdev, max.
            if let (Some(avg), Some(stdev), Some(max)) = (
                duration_ms(words[1]),
                duration_ms(words[2]),
                duration_ms(words[3]),
            ) {
                thread_stats = Some((avg, stdev, max));
            }
        } else if let Some(rest) = t.strip_prefix("Requests/sec:") {
            out.req_per_s = rest.trim().parse().ok();
        } else if let Some(rest) = t.strip_prefix("Non-2xx or 3xx responses:") {
            out.non_2xx = rest
                .trim()
                .parse()
                .map_err(|_| UnreadReport::BadLine(t.to_string()))?;
        } else if let Some(rest) = t.strip_prefix("Socket errors:") {
            for part in rest.split(',') {
                let mut kv = part.split_whitespace();
                let (Some(kind), Some(n)) = (kv.next(), kv.next().and_then(|n| n.parse().ok()))
                else {
                    return Err(UnreadReport::BadLine(t.to_string()));
                };
                match kind {
                    "connect" => out.connect_errors = n,
                    "read" => out.read_errors = n,
                    "write" => out.write_errors = n,
                    "timeout" => out.timeouts = n,
                    _ => {}
                }
            }
        } else if words.len() >= 5 && words[1] == "requests" && words[2] == "in" {
            // `12345 requests in 5.00s, 1.23MB read`
            out.requests = words[0]
                .parse()
                .map_err(|_| UnreadReport::BadLine(t.to_string()))?;
            out.duration_s = duration_ms(words[3].trim_end_matches(','))
                .ok_or_else(|| UnreadReport::BadLine(t.to_string()))?
                / 1000.0;
            out.bytes = size_bytes(words[4]).unwrap_or(0);
            summary = true;
        }
    }
    if !summary {
        return Err(UnreadReport::Unfinished);
    }
    let at = |q: f64| {
        percentiles
            .iter()
            .find(|(p, _)| (*p - q).abs() < 1e-9)
            .map(|(_, v)| *v)
    };
    out.latency = match (at(50.0), at(90.0), at(99.0), thread_stats) {
        (Some(p50), Some(p90), Some(p99), Some((mean, stdev, max))) => Some(LatencySummary {
            p50,
            p90,
            p99,
            p999: None,
            max,
            mean,
            stdev,
        }),
        _ => None,
    };
    Ok(out)
}

/// `776.00us`, `1.23ms`, `2.00s`, `1.00m` in milliseconds.
fn duration_ms(v: &str) -> Option<f64> {
    let split = v.find(|c: char| c.is_ascii_alphabetic())?;
    let (n, unit) = v.split_at(split);
    let n: f64 = n.parse().ok()?;
    Some(match unit {
        "us" => n / 1000.0,
        "ms" => n,
        "s" => n * 1000.0,
        "m" => n * 60_000.0,
        "h" => n * 3_600_000.0,
        _ => return None,
    })
}

/// `1.23MB`, `512.00KB`, `100B` in bytes (wrk's units are powers of 1024).
fn size_bytes(v: &str) -> Option<u64> {
    let split = v.find(|c: char| c.is_ascii_alphabetic())?;
    let (n, unit) = v.split_at(split);
    let n: f64 = n.parse().ok()?;
    let scale = match unit {
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        "TB" => 1024f64.powi(4),
        _ => return None,
    };
    Some((n * scale).round() as u64)
}

/// The Lua long bracket that holds `value` unchanged.
fn lua_string(value: &str) -> String {
    let mut level = 0;
    loop {
        let close = format!("]{}]", "=".repeat(level));
        if !value.contains(&close) {
            let eq = "=".repeat(level);
            // A long string drops a newline right after its opening bracket.
            return format!("[{eq}[\n{value}]{eq}]");
        }
        level += 1;
    }
}

/// The script that gives wrk the spec's method, body and headers.
pub fn script(spec: &LoadSpec) -> String {
    let mut lua = format!("wrk.method = {}\n", lua_string(&spec.method));
    if let Some(body) = &spec.body {
        lua.push_str(&format!("wrk.body = {}\n", lua_string(body)));
    }
    for (name, value) in &spec.headers {
        lua.push_str(&format!(
            // Spaced: `t[[[…]]]` would read as a call with a long string.
            "wrk.headers[ {} ] = {}\n",
            lua_string(name),
            lua_string(value)
        ));
    }
    lua
}

/// A private file removed when dropped.
struct TempScript(std::path::PathBuf);

impl TempScript {
    fn write(text: &str) -> std::io::Result<TempScript> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "reprise-wrk-{}-{}.lua",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&path)?;
        let script = TempScript(path);
        file.write_all(text.as_bytes())?;
        Ok(script)
    }
}

impl Drop for TempScript {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// wrk's `-d`: whole seconds, at least one.
fn whole_seconds(d: Duration) -> u64 {
    d.as_secs_f64().ceil().max(1.0) as u64
}

/// One wrk run of `duration` (stopped when `stop` is): its output.
fn run_once(
    spec: &LoadSpec,
    duration: Duration,
    latency: bool,
    stop: &StopHandle,
) -> Result<String, LoadError> {
    let script = TempScript::write(&script(spec))
        .map_err(|e| LoadError::Wrk(format!("cannot write wrk's script: {e}")))?;
    let mut command = Command::new("wrk");
    command
        .arg(format!("-t{}", spec.threads.max(1)))
        .arg(format!("-c{}", spec.connections.max(spec.threads.max(1))))
        .arg(format!("-d{}s", whole_seconds(duration)))
        .arg(format!("--timeout={}s", whole_seconds(spec.timeout)))
        .arg("-s")
        .arg(&script.0);
    if latency {
        command.arg("--latency");
    }
    command
        .arg(&spec.url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // It ends with a Reprise that is killed, rather than loading the server
    // for the rest of its duration.
    let cpus = spec.cpus.as_deref().unwrap_or_default();
    let mut child = reprise_spawn::spawn(&mut command, "wrk", cpus, None)
        .map_err(|e| {
            LoadError::Wrk(match e {
                reprise_spawn::SpawnError::NotFound { .. } => {
                    "wrk is not installed (Debian: apt-get install wrk)".into()
                }
                reprise_spawn::SpawnError::Spawn { source, .. }
                | reprise_spawn::SpawnError::Record { source, .. } => {
                    format!("cannot start wrk: {source}")
                }
            })
        })?
        .child;
    // Read its output on threads so a full pipe never stalls it.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let status = loop {
        if stop.is_stopped() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(LoadError::Stopped);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(STOP_POLL),
            Err(e) => return Err(LoadError::Wrk(format!("waiting for wrk: {e}"))),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        return Err(LoadError::Wrk(format!(
            "wrk exited with {status}: {}",
            stderr.trim().lines().last().unwrap_or("no message")
        )));
    }
    Ok(stdout)
}

/// Runs `spec` with wrk: its warm-up as a run of its own (discarded, as
/// the harness does), then the measured run with `--latency`. A run with any
/// non-2xx response or socket error has no throughput ("no data"). The spec
/// is checked as Reprise's own generator checks it (its target included)
/// before wrk starts; `stop` kills wrk within ~50 ms.
pub fn run_until(spec: &LoadSpec, stop: &StopHandle) -> Result<LoadReport, LoadError> {
    spec.template()?;
    if spec.rate.is_some() {
        return Err(LoadError::InvalidSpec(
            "wrk runs closed loop only: an open-loop rate needs Reprise's generator".into(),
        ));
    }
    if spec.warmup > Duration::ZERO {
        run_once(spec, spec.warmup, false, stop)?;
    }
    let started = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    let clock = Instant::now();
    let text = run_once(spec, spec.duration, true, stop)?;
    let out = parse(&text).map_err(|why| {
        LoadError::Wrk(format!(
            "cannot read wrk's report ({why}) after {:.1} s",
            clock.elapsed().as_secs_f64()
        ))
    })?;
    let errors = out.errors();
    let mut samples = Vec::new();
    if out.non_2xx > 0 {
        samples.push(format!("wrk: Non-2xx or 3xx responses: {}", out.non_2xx));
    }
    if errors.connect + errors.io + errors.timeout > 0 {
        samples.push(format!(
            "wrk: Socket errors: connect {}, read {}, write {}, timeout {}",
            out.connect_errors, out.read_errors, out.write_errors, out.timeouts
        ));
    }
    Ok(LoadReport {
        url: spec.url.clone(),
        connections: spec.connections,
        threads: spec.threads,
        rate: None,
        requests: out.requests,
        started_unix_s: started,
        duration_s: out.duration_s,
        req_per_s: out.req_per_s.filter(|_| errors.total() == 0),
        attempted_per_s: out.req_per_s.unwrap_or(0.0),
        bytes: out.bytes,
        latency: out.latency,
        corrected_latency: None,
        errors,
        reconnects: 0,
        missed: 0,
        error_samples: samples,
        intervals: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // wrk 4.1.0's report, as Debian's wrk prints it.
    const REPORT: &str = "Running 5s test @ http://127.0.0.1:8080/
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   776.00us  250.50us  12.00ms   89.00%
    Req/Sec    20.50k     1.20k   22.00k    80.00%
  Latency Distribution
     50%  700.00us
     75%    0.90ms
     90%    1.10ms
     99%    2.50ms
  102400 requests in 5.00s, 16.50MB read
Requests/sec:  20480.00
Transfer/sec:      3.30MB
";

    #[test]
    fn a_clean_report_is_read_as_the_harness_reads_it() {
        let out = parse(REPORT).unwrap();
        assert_eq!(out.requests, 102_400);
        assert_eq!(out.duration_s, 5.0);
        assert_eq!(out.bytes, (16.5 * 1024.0 * 1024.0) as u64);
        assert_eq!(out.req_per_s, Some(20480.0));
        let l = out.latency.unwrap();
        assert_eq!((l.p50, l.p90, l.p99), (0.7, 1.1, 2.5));
        assert_eq!((l.mean, l.max, l.p999), (0.776, 12.0, None));
        assert_eq!(out.errors().total(), 0);
    }

    #[test]
    fn non_2xx_responses_and_socket_errors_are_counted() {
        let text = REPORT.replace(
            "Requests/sec:",
            "  Socket errors: connect 1, read 2, write 3, timeout 4\n  Non-2xx or 3xx responses: 17\nRequests/sec:",
        );
        let out = parse(&text).unwrap();
        let e = out.errors();
        assert_eq!((e.connect, e.io, e.timeout, e.status), (1, 5, 4, 17));
        assert_eq!(e.total(), 27);
    }

    #[test]
    fn a_report_without_its_summary_is_an_error() {
        let e = parse("Running 5s test @ http://127.0.0.1:1/\nunable to connect to 127.0.0.1:1 Connection refused\n")
            .unwrap_err();
        assert_eq!(e, UnreadReport::Unfinished, "{e}");
    }

    #[test]
    fn the_script_carries_any_bytes_unchanged() {
        let mut spec = LoadSpec::new("http://127.0.0.1:1/");
        spec.method = "POST".into();
        spec.body = Some("a]]b]=]c\n".into());
        spec.headers = vec![("Cookie".into(), "s=1".into())];
        let lua = script(&spec);
        assert!(lua.contains("wrk.method = [[\nPOST]]"), "{lua}");
        assert!(lua.contains("wrk.body = [==[\na]]b]=]c\n]==]"), "{lua}");
        assert!(
            lua.contains("wrk.headers[ [[\nCookie]] ] = [[\ns=1]]"),
            "{lua}"
        );
    }
}
