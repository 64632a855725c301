//! A server host: another machine's Docker-compatible engine that serves a
//! run's lanes (`reprise run --server-host tcp://HOST:2376`), and what is
//! known of it at a run (its engine, its hardware as a probe container
//! reads it, the link to it and the link's ceiling). On a server host every
//! lane runs as a container of its image on that host's network, its files
//! copied in through the engine's API; the load generators stay here and
//! target the server host's address, and only it. Everything else decides
//! where lanes run through [`crate::lanes::placement::LaneHost`].

use std::fmt::Write as _;
use std::net::IpAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use reprise_probe::container_engine::{EndpointError, EngineEndpoint};
use reprise_recipe::{Lane, Placement};
use serde::{Deserialize, Serialize};

use crate::os::workdir::RunDir;

/// The file in a run's folder that names its server host.
pub const SERVER_HOST_FILE: &str = "server-host.json";

/// Why the server host could not be asked, described or loaded through.
#[derive(Debug, thiserror::Error)]
pub enum ServerHostError {
    #[error(
        "the server host's engine at {url} does not answer (is its API open with TLS, and are the client certificates the ones its CA signed?)"
    )]
    NoAnswer { url: String },
    #[error("its engine did not answer")]
    EngineSilent,
    #[error("no lane's image to run it in")]
    NoImage,
    #[error(transparent)]
    Container(#[from] crate::os::runner::container::ContainerError),
    #[error("the probe container of {image} exited with {}", code.map_or("no code".into(), |c| format!("code {c}")))]
    ProbeExited { image: String, code: Option<i64> },
    #[error("the probe container printed none of the host's files")]
    ProbePrintedNothing,
    #[error(
        "the reference server is this program, built for {ours_arch} on {ours_os}, and the server host is {arch} on {os}"
    )]
    OtherPlatform {
        ours_arch: &'static str,
        ours_os: &'static str,
        arch: String,
        os: String,
    },
    #[error("the reference server is the `reprise` program, and none is beside this one")]
    NoReferenceServer,
    #[error("the reference server did not start there{}", last.as_ref().map_or(String::new(), |l| format!(": {}", reprise_recipe::shown::escaped(l))))]
    ReferenceServerSilent { last: Option<String> },
    #[error("the reference server said an address that is not one: {url}")]
    NotAnAddress { url: String },
    #[error(transparent)]
    Load(#[from] reprise_loadgen::LoadError),
    #[error("the load produced no number")]
    NoNumber,
    #[error(
        "{errors} errors loading the reference server ({timeouts} of them requests unanswered within the timeout)"
    )]
    LoadErrors { errors: u64, timeouts: u64 },
    #[error("cancelled")]
    Cancelled,
    /// A run resumed with its lanes somewhere else than its earlier
    /// attempts served them (`there`: a server host's engine, `None` for
    /// this machine).
    #[error("run {run} served its lanes {}", match there {
        Some(url) => format!("on the server host {url}: resume it with --server-host {url}, or start a new run (--new)"),
        None => "on this machine: start a new run (--new) to serve them on a server host".into(),
    })]
    ServedElsewhere { run: String, there: Option<String> },
    #[error("{what}: {source}")]
    Io {
        what: &'static str,
        source: std::io::Error,
    },
}

fn io(what: &'static str) -> impl FnOnce(std::io::Error) -> ServerHostError {
    move |source| ServerHostError::Io { what, source }
}

/// Another machine's engine that serves a run's lanes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerHost {
    pub endpoint: EngineEndpoint,
    /// Where this machine reaches it: lanes listen there, the load
    /// generators target it.
    pub address: IpAddr,
}

impl ServerHost {
    /// The server host at `url` (`tcp://HOST:PORT`, TLS with the client
    /// certificates in `certs`; or `unix:///path` for an engine here).
    pub fn new(url: &str, certs: &Path) -> Result<ServerHost, EndpointError> {
        let endpoint = EngineEndpoint::parse_remote(url, certs)?;
        if !matches!(endpoint, EngineEndpoint::Tls { .. }) {
            return Err(EndpointError::NotRemote(url.to_string()));
        }
        let address = endpoint.address()?;
        Ok(ServerHost { endpoint, address })
    }

    /// The address as it goes in a URL or a bind: `10.0.0.2`, `[fd00::2]`.
    pub fn url_host(&self) -> String {
        url_host(self.address)
    }

    /// The engine's own account of itself, or why it gave none.
    pub fn ask_engine(&self) -> Result<reprise_probe::ContainerEngine, ServerHostError> {
        reprise_probe::container_engine::ask_endpoint(&self.endpoint, Duration::from_secs(10))
            .ok_or_else(|| ServerHostError::NoAnswer {
                url: self.endpoint.url(),
            })
    }

    /// The engine's port: where the link is timed.
    pub fn port(&self) -> u16 {
        match &self.endpoint {
            EngineEndpoint::Tls { port, .. } | EngineEndpoint::Plain { port, .. } => *port,
            EngineEndpoint::Unix { .. } => 0,
        }
    }

    /// The name the server host was reached by, where it is not an address.
    pub fn name(&self) -> Option<&str> {
        match &self.endpoint {
            EngineEndpoint::Tls { host, .. } | EngineEndpoint::Plain { host, .. } => {
                host.parse::<IpAddr>().is_err().then_some(host.as_str())
            }
            EngineEndpoint::Unix { .. } => None,
        }
    }

    /// `text` with the engine's address and the host's name and address
    /// said as "the server host": what a reader shares does not say where
    /// their machines are.
    pub fn unnamed(&self, text: &str) -> String {
        let mut text = text.replace(&self.endpoint.url(), "the server host's engine");
        if let Some(name) = self.name() {
            text = text.replace(name, "the server host");
        }
        text.replace(&self.address.to_string(), "the server host")
    }

    /// Records this server host in the run's folder.
    pub fn record(&self, run: &RunDir) -> std::io::Result<()> {
        run.file(SERVER_HOST_FILE)
            .map_err(std::io::Error::other)?
            .write_atomic(&reprise_harness_files::pretty(self))
    }
}

/// Why `lane` cannot run on a server host, where every lane is a container
/// of its image that reaches nothing of this machine's.
pub(crate) fn why_lane_cannot_run(lane: &Lane) -> Option<String> {
    if lane.placement != Placement::Container {
        return Some(
            "it names no image, and on a server host every lane runs as a container of its image (name one with --image LANE=IMAGE)"
                .into(),
        );
    }
    let command = lane.command.iter().flatten();
    if let Some(fixed) = command
        .flat_map(|arg| {
            ["127.0.0.1", "localhost"]
                .into_iter()
                .filter(move |a| arg.contains(a))
        })
        .next()
    {
        return Some(format!(
            "its command listens on {fixed}, which the load generator cannot reach on another machine: the recipe would write `{{host}}` where the address goes"
        ));
    }
    if !lane.services.is_empty() {
        return Some(format!(
            "it needs {}, and services do not run on a server host yet",
            lane.services
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    None
}

/// `ip` as it goes in a URL's host: IPv6 in brackets.
pub fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// What is known of a server host at a run: its engine's own account, its
/// hardware as a probe container reads it, and the link to it. Written as
/// `results/env.server.json` beside this machine's `env.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerHostEnv {
    pub engine: Option<reprise_probe::ContainerEngine>,
    /// Read inside a container of a lane's image on the host's network:
    /// the host's CPU, clocks, memory and kernel (the image's own OS
    /// release and the host's name are not read).
    pub fingerprint: Option<reprise_probe::Fingerprint>,
    /// Why the probe container gave no fingerprint.
    pub probe_error: Option<String>,
    pub link: Option<Link>,
}

/// The file of a run's results that describes its server host.
pub const SERVER_ENV_FILE: &str = "env.server.json";

/// A recorded server-host environment (or `Null` where the lanes ran on
/// this machine) as a report shows it: where the reader's server answers
/// its engine is theirs, not the report's.
pub fn as_reported(mut recorded: serde_json::Value) -> serde_json::Value {
    if let Some(engine) = recorded
        .get_mut("engine")
        .and_then(serde_json::Value::as_object_mut)
    {
        engine.remove("host");
    }
    recorded
}

/// What the probe container prints: each file of the host the fingerprint
/// reads, after a `=== PATH` line. Plain `sh` only (busybox's will do).
const PROBE_SCRIPT: &str = r#"for f in /proc/cpuinfo /proc/meminfo /proc/loadavg /proc/stat /proc/uptime /proc/self/status /proc/sys/kernel/osrelease /proc/sys/kernel/ostype /proc/sys/kernel/version /sys/class/dmi/id/product_name /sys/class/dmi/id/sys_vendor /sys/devices/system/cpu/online /sys/devices/system/cpu/smt/active /sys/devices/system/cpu/smt/control /sys/devices/system/cpu/intel_pstate/no_turbo /sys/devices/system/cpu/cpufreq/boost /sys/kernel/mm/transparent_hugepage/enabled /sys/devices/system/cpu/cpufreq/policy*/* /sys/devices/system/cpu/cpu[0-9]*/topology/* /sys/devices/system/cpu/cpu[0-9]*/cache/index*/*; do
  [ -f "$f" ] && [ -r "$f" ] || continue
  echo "=== $f"
  while IFS= read -r line || [ -n "$line" ]; do echo "$line"; done < "$f" 2>/dev/null
done"#;

/// How much of the server host a reading takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerHostReading {
    /// Its engine and hardware: what a plan needs to say what is comparable
    /// (a probe container, about a second).
    Hardware,
    /// Also the link: its round trip, and its ceiling with Reprise's
    /// reference server loaded there (this program copied in; several
    /// seconds), as a preflight shows it and a run records it.
    HardwareAndLink,
}

impl ServerHostEnv {
    /// With what the server host's `engine` said of itself: runs the probe
    /// container of `image` there and, for [`ServerHostReading::HardwareAndLink`],
    /// times the link to the engine's port and measures its ceiling at
    /// `connections`; `None` when `cancel` stops it on the way. Its texts
    /// say "the server host", never the name it was reached by.
    pub fn capture(
        host: &ServerHost,
        engine: Option<reprise_probe::ContainerEngine>,
        image: Option<&str>,
        reading: ServerHostReading,
        run_id: &str,
        connections: usize,
        cancel: &crate::event::CancelToken,
    ) -> Option<ServerHostEnv> {
        let mut link = match reading {
            ServerHostReading::Hardware => None,
            ServerHostReading::HardwareAndLink => Link::measure(host.address, host.port(), 20),
        };
        if cancel.is_cancelled() {
            return None;
        }
        let (fingerprint, probe_error) = match image {
            None => (
                None,
                Some("no lane's image to run the probe in".to_string()),
            ),
            Some(image) => match probe(host, image, run_id, cancel) {
                Ok(fp) => (Some(fp), None),
                Err(why) => (None, Some(host.unnamed(&why.to_string()))),
            },
        };
        if cancel.is_cancelled() {
            return None;
        }
        if let Some(link) = link.as_mut() {
            let cpus = engine.as_ref().and_then(|e| e.cpus).unwrap_or(1);
            let ceiling = image.ok_or(ServerHostError::NoImage).and_then(|image| {
                let there = engine.as_ref().ok_or(ServerHostError::EngineSilent)?;
                runs_there(there)?;
                link_ceiling(host, image, run_id, cpus, connections, cancel)
            });
            match ceiling {
                Ok(rate) => link.ceiling_req_per_s = Some(rate.round()),
                Err(why) => link.ceiling_error = Some(host.unnamed(&why.to_string())),
            }
        }
        if cancel.is_cancelled() {
            return None;
        }
        Some(ServerHostEnv {
            engine,
            fingerprint,
            probe_error,
            link,
        })
    }
}

/// The host's CPU, clocks, memory and kernel, read by [`PROBE_SCRIPT`] in a
/// container of `image` on the host's network.
fn probe(
    host: &ServerHost,
    image: &str,
    run_id: &str,
    cancel: &crate::event::CancelToken,
) -> Result<reprise_probe::Fingerprint, ServerHostError> {
    use crate::os::runner::container::{ContainerRunner, ContainerSpec, Network};
    let runner = ContainerRunner::connect_endpoint(&host.endpoint)?;
    runner.ensure_image(image, &|_| {})?;
    let mut spec = ContainerSpec::new(
        "probe-server-host",
        run_id,
        image,
        vec!["sh".into(), "-c".into(), PROBE_SCRIPT.into()],
    );
    spec.network = Network::Host;
    spec.timeout = Some(Duration::from_secs(60));
    spec.read_output = true;
    // What it printed is read from its whole log once it stopped.
    let ran = runner.run(&spec, cancel, &|_: crate::event::Event| {});
    match ran {
        Ok(o) if o.code == Some(0) => {
            let lines: Vec<String> = o.output.into_iter().map(|(_, line)| line).collect();
            fingerprint_of(&lines)
        }
        Ok(o) => Err(ServerHostError::ProbeExited {
            image: image.to_string(),
            code: o.code,
        }),
        Err(e) => Err(e.into()),
    }
}

/// Whether this program runs on the server host's OS and architecture, as
/// the ceiling's reference server (this program, copied there) must.
fn runs_there(engine: &reprise_probe::ContainerEngine) -> Result<(), ServerHostError> {
    let os = engine.os.as_deref().unwrap_or("an unknown OS");
    let arch = engine
        .architecture
        .as_deref()
        .unwrap_or("an unknown architecture");
    // Docker says `uname -m` (x86_64), Podman Go's name (amd64).
    let as_rust = match arch {
        "amd64" => "x86_64",
        "arm64" => "aarch64",
        "386" | "i386" | "i686" => "x86",
        "ppc64le" => "powerpc64",
        other => other,
    };
    if os != std::env::consts::OS || as_rust != std::env::consts::ARCH {
        return Err(ServerHostError::OtherPlatform {
            ours_arch: std::env::consts::ARCH,
            ours_os: std::env::consts::OS,
            arch: arch.to_string(),
            os: os.to_string(),
        });
    }
    Ok(())
}

/// The probe container's output laid out as a root folder, read by the
/// same code that fingerprints this machine.
fn fingerprint_of(lines: &[String]) -> Result<reprise_probe::Fingerprint, ServerHostError> {
    let root = tempfile::tempdir().map_err(io("a folder for the host's files"))?;
    let mut current: Option<std::fs::File> = None;
    let mut files = 0;
    for line in lines {
        if let Some(path) = line.strip_prefix("=== /") {
            if path.split('/').any(|p| p == ".." || p.is_empty()) {
                current = None;
                continue;
            }
            let file = root.path().join(path);
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir).map_err(io("a folder for the host's files"))?;
            }
            current = Some(std::fs::File::create(&file).map_err(io("a copy of a host's file"))?);
            files += 1;
        } else if let Some(f) = current.as_mut() {
            use std::io::Write;
            writeln!(f, "{line}").map_err(io("a copy of a host's file"))?;
        }
    }
    if files == 0 {
        return Err(ServerHostError::ProbePrintedNothing);
    }
    drop(current);
    Ok(reprise_probe::Fingerprint::read(root.path()))
}

/// The network between this machine and a server host, as measured before
/// the lanes start: TCP connection set-up times to a port that answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// Round trips measured (TCP connects).
    pub samples: usize,
    pub rtt_median_ms: f64,
    pub rtt_max_ms: f64,
    /// Requests a second the load generator here got from Reprise's
    /// reference server there (13-byte answers, 16 connections): the most
    /// any lane can be measured at over this link. A lane near it measured
    /// the link or the client, not the server.
    #[serde(default)]
    pub ceiling_req_per_s: Option<f64>,
    /// Why there is no ceiling.
    #[serde(default)]
    pub ceiling_error: Option<String>,
}

impl Link {
    /// `samples` TCP connects to `address`:`port`, each a SYN/SYN-ACK round
    /// trip; `None` when none connects within a second.
    pub fn measure(address: IpAddr, port: u16, samples: usize) -> Option<Link> {
        let target = std::net::SocketAddr::new(address, port);
        let mut rtts = Vec::with_capacity(samples);
        for _ in 0..samples {
            let started = Instant::now();
            if std::net::TcpStream::connect_timeout(&target, Duration::from_secs(1)).is_ok() {
                rtts.push(started.elapsed().as_secs_f64() * 1000.0);
            }
        }
        if rtts.is_empty() {
            return None;
        }
        rtts.sort_by(f64::total_cmp);
        Some(Link {
            samples: rtts.len(),
            rtt_median_ms: round3(rtts[rtts.len() / 2]),
            rtt_max_ms: round3(rtts[rtts.len() - 1]),
            ..Link::default()
        })
    }

    /// `round trip 0.084 ms (median of 20 TCP connects, max 0.210 ms);
    /// ceiling 41,200 req/s (the reference server there, loaded from here)`.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "round trip {:.3} ms (median of {} TCP connects, max {:.3} ms)",
            self.rtt_median_ms, self.samples, self.rtt_max_ms
        );
        match (&self.ceiling_req_per_s, &self.ceiling_error) {
            (Some(c), _) => {
                let _ = write!(
                    s,
                    "; ceiling {} req/s (Reprise's reference server there, loaded from here)",
                    thousands(*c)
                );
            }
            (None, Some(why)) => {
                let _ = write!(s, "; no ceiling measured: {why}");
            }
            (None, None) => {}
        }
        s
    }
}

/// `41200.4` → `41,200`.
fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How long the link's ceiling is loaded, after a warm-up of a second.
const CEILING_RUN: Duration = Duration::from_secs(3);

/// Runs Reprise's reference server (`reprise validate --serve`, this
/// program copied into a container of `image` on the host's network, a
/// thread on each of the host's `cpus`) on the server host, and loads it
/// from here at `connections`: the link's ceiling in requests a second.
fn link_ceiling(
    host: &ServerHost,
    image: &str,
    run_id: &str,
    cpus: i64,
    connections: usize,
    cancel: &crate::event::CancelToken,
) -> Result<f64, ServerHostError> {
    use crate::os::runner::container::{ContainerRunner, ContainerSpec, Network};
    use reprise_loadgen::{LoadSpec, ResponseChecks, Targets};
    let exe = reprise_program()?;
    let carried = tempfile::tempdir().map_err(io("a folder for this program"))?;
    std::fs::copy(&exe, carried.path().join("reprise")).map_err(io("copying this program"))?;
    const AT: &str = "/opt/reprise-link";
    let threads = cpus.clamp(1, 256);
    let mut spec = ContainerSpec::new(
        "link-ceiling",
        run_id,
        image,
        vec![
            format!("{AT}/reprise"),
            "validate".into(),
            "--serve".into(),
            std::net::SocketAddr::new(host.address, 0).to_string(),
            "--server-cpus".into(),
            (0..threads)
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(","),
        ],
    );
    spec.copies.push((carried.path().to_path_buf(), AT.into()));
    spec.network = Network::Host;
    spec.timeout = Some(Duration::from_secs(180));
    let runner = ContainerRunner::connect_endpoint(&host.endpoint)?;
    // The server's own stop: the run's cancel stops the wait and the load,
    // and this then stops the server.
    let server_stop = crate::event::CancelToken::new();
    let (said, heard) = std::sync::mpsc::channel::<String>();
    std::thread::scope(|scope| {
        let server = scope.spawn(|| {
            runner.run(&spec, &server_stop, &move |e: crate::event::Event| {
                if let crate::event::Event::Log { line, .. } = e {
                    let _ = said.send(line);
                }
            })
        });
        // `reference server on http://ADDR:PORT/ (N threads); stop with
        // Ctrl-C`, once this program (80-150 MB) is copied there and started.
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut lines = Vec::new();
        let url = loop {
            if cancel.is_cancelled() {
                break Err(ServerHostError::Cancelled);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match heard.recv_timeout(left.min(Duration::from_millis(200))) {
                Ok(line) => {
                    if let Some(url) = line
                        .strip_prefix("reference server on ")
                        .and_then(|rest| rest.split_whitespace().next())
                    {
                        break Ok(url.to_string());
                    }
                    lines.push(line);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !left.is_zero() => {}
                Err(_) => {
                    break Err(ServerHostError::ReferenceServerSilent { last: lines.pop() });
                }
            }
        };
        let measured = url.and_then(|url| {
            let addr = reqwest::Url::parse(&url)
                .ok()
                .and_then(|u| u.port())
                .map(|port| std::net::SocketAddr::new(host.address, port))
                .ok_or_else(|| ServerHostError::NotAnAddress { url: url.clone() })?;
            let mut load = LoadSpec::new(url);
            load.targets = Targets::Only(addr);
            load.connections = connections.max(16);
            load.threads = reprise_cpus::allowed_cpus().len().clamp(1, 16);
            load.warmup = Duration::from_secs(1);
            load.duration = CEILING_RUN;
            load.checks = ResponseChecks {
                status: Some(200),
                bytes: Some(13),
                ..ResponseChecks::default()
            };
            // A busy machine can leave a request of the reference server
            // unanswered past the timeout without anything failing: a load
            // whose only errors are such is measured again once, as the
            // load step measures such a cell again.
            let mut report = reprise_loadgen::run_until(&load, cancel.stop_handle(), |_| {})?;
            let errors = &report.errors;
            if errors.timeout > 0 && errors.total() == errors.timeout && !cancel.is_cancelled() {
                report = reprise_loadgen::run_until(&load, cancel.stop_handle(), |_| {})?;
            }
            match (report.errors.total(), report.req_per_s) {
                _ if cancel.is_cancelled() => Err(ServerHostError::Cancelled),
                (0, Some(rate)) => Ok(rate),
                (0, None) => Err(ServerHostError::NoNumber),
                (errors, _) => Err(ServerHostError::LoadErrors {
                    errors,
                    timeouts: report.errors.timeout,
                }),
            }
        });
        server_stop.cancel();
        let _ = server.join();
        measured
    })
}

/// The `reprise` program the ceiling's reference server is: this one when
/// it is `reprise`, else one beside it (the desktop app's install).
fn reprise_program() -> Result<std::path::PathBuf, ServerHostError> {
    let exe = std::env::current_exe().map_err(io("this program's path"))?;
    if exe.file_stem().is_some_and(|stem| stem == "reprise") {
        return Ok(exe);
    }
    let beside = exe.with_file_name("reprise");
    match beside.is_file() {
        true => Ok(beside),
        false => Err(ServerHostError::NoReferenceServer),
    }
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_address_is_bracketed_in_urls() {
        assert_eq!(url_host("10.1.2.3".parse().unwrap()), "10.1.2.3");
        assert_eq!(url_host("fd00::2".parse().unwrap()), "[fd00::2]");
    }

    #[test]
    fn a_server_host_needs_its_client_certificates_before_anything_starts() {
        let certs = tempfile::tempdir().unwrap();
        let err = ServerHost::new("tcp://10.9.8.7:2376", certs.path()).unwrap_err();
        assert!(
            matches!(&err, EndpointError::Certificates { file: "ca.pem", .. }),
            "{err}"
        );
        for file in ["ca.pem", "cert.pem", "key.pem"] {
            std::fs::write(certs.path().join(file), "").unwrap();
        }
        let host = ServerHost::new("tcp://10.9.8.7:2376", certs.path()).unwrap();
        assert_eq!(host.address, "10.9.8.7".parse::<IpAddr>().unwrap());
        assert_eq!(host.endpoint.url(), "tcp://10.9.8.7:2376");
        let v6 = ServerHost::new("tcp://[fd00::2]:2376", certs.path()).unwrap();
        assert_eq!(v6.url_host(), "[fd00::2]");
        assert_eq!(v6.endpoint.url(), "tcp://[fd00::2]:2376");
        for bad in [
            "http://10.0.0.1:2376",
            "tcp://10.0.0.1",
            "10.0.0.1:2376",
            "tcp://:2376",
        ] {
            assert!(ServerHost::new(bad, certs.path()).is_err(), "{bad}");
        }
        let here = ServerHost::new("unix:///run/podman/podman.sock", certs.path()).unwrap_err();
        assert_eq!(
            here,
            EndpointError::NotRemote("unix:///run/podman/podman.sock".into()),
            "{here}"
        );
        let ssh = ServerHost::new("ssh://me@box", certs.path()).unwrap_err();
        assert_eq!(ssh, EndpointError::Ssh, "{ssh}");
    }

    #[test]
    fn texts_say_the_server_host_not_its_name_or_address() {
        let certs = tempfile::tempdir().unwrap();
        for file in ["ca.pem", "cert.pem", "key.pem"] {
            std::fs::write(certs.path().join(file), "").unwrap();
        }
        let host = ServerHost::new("tcp://localhost:2376", certs.path()).unwrap();
        assert_eq!(host.name(), Some("localhost"));
        let said = host.unnamed(&format!(
            "no container engine answers at tcp://localhost:2376: refused by localhost ({})",
            host.address
        ));
        assert_eq!(
            said,
            "no container engine answers at the server host's engine: refused by the server host (the server host)"
        );
        let by_address = ServerHost::new("tcp://10.9.8.7:2376", certs.path()).unwrap();
        assert_eq!(by_address.name(), None);
        assert_eq!(
            by_address.unnamed("10.9.8.7 refused"),
            "the server host refused"
        );
    }

    #[test]
    fn the_reference_server_goes_only_where_this_program_runs() {
        let engine = |os: &str, arch: &str| reprise_probe::ContainerEngine {
            os: Some(os.into()),
            architecture: Some(arch.into()),
            ..Default::default()
        };
        let (os, arch) = (std::env::consts::OS, std::env::consts::ARCH);
        assert!(runs_there(&engine(os, arch)).is_ok());
        if arch == "x86_64" {
            // Podman names it as Go does.
            assert!(runs_there(&engine(os, "amd64")).is_ok());
        }
        let elsewhere = runs_there(&engine(os, "s390x")).unwrap_err();
        assert!(
            matches!(&elsewhere, ServerHostError::OtherPlatform { arch, .. } if arch == "s390x"),
            "{elsewhere}"
        );
        assert!(matches!(
            runs_there(&engine("windows", arch)),
            Err(ServerHostError::OtherPlatform { .. })
        ));
        assert!(runs_there(&reprise_probe::ContainerEngine::default()).is_err());
    }

    #[test]
    fn the_probe_s_output_is_read_as_the_host_s_files() {
        let lines: Vec<String> = [
            "=== /proc/cpuinfo",
            "processor\t: 0",
            "model name\t: AMD Ryzen 5 3600 6-Core Processor",
            "cpu MHz\t\t: 3600.000",
            "",
            "processor\t: 1",
            "model name\t: AMD Ryzen 5 3600 6-Core Processor",
            "=== /proc/meminfo",
            "MemTotal:       65536000 kB",
            "=== /proc/sys/kernel/osrelease",
            "6.8.0-45-generic",
            "=== /../etc/passwd",
            "root:x:0:0",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let fp = fingerprint_of(&lines).unwrap();
        assert_eq!(
            fp.cpu.brand.as_deref(),
            Some("AMD Ryzen 5 3600 6-Core Processor")
        );
        assert_eq!(fp.memory.total_kib, Some(65536000));
        assert_eq!(fp.os.kernel.as_deref(), Some("6.8.0-45-generic"));
        assert!(fingerprint_of(&["nothing".to_string()]).is_err());
    }

    #[test]
    fn the_link_is_measured_by_connects_to_a_port_that_answers() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let link = Link::measure("127.0.0.1".parse().unwrap(), port, 5).unwrap();
        assert_eq!(link.samples, 5);
        assert!(link.rtt_median_ms > 0.0 && link.rtt_median_ms <= link.rtt_max_ms);
        // Port 1 for the port nothing answers on: a freed ephemeral port may
        // be taken by a parallel test at once, or connect to itself.
        assert_eq!(Link::measure("127.0.0.1".parse().unwrap(), 1, 3), None);
        let with_ceiling = Link {
            ceiling_req_per_s: Some(41200.4),
            ..link
        };
        assert!(
            with_ceiling.describe().ends_with(
                "; ceiling 41,200 req/s (Reprise's reference server there, loaded from here)"
            ),
            "{}",
            with_ceiling.describe()
        );
    }
}
