//! Where a run's lanes are served: this machine, or another machine's
//! Docker-compatible engine (`--server-host`). The session decides it once
//! and hands it to the run; everything that depends on it asks it here and
//! nowhere else:
//!
//! - the address the lanes listen on and are loaded at ([`LaneHost::address`],
//!   [`LaneHost::lane_command`]) and the CPU split ([`LaneHost::cpu_split`]);
//! - the engine container lanes run on, and whether a lane's folder is
//!   bound into its container or copied there ([`LaneHost::connect_engine`],
//!   [`LaneHost::lane_files`]);
//! - which lanes can run there and why not ([`LaneHost::lanes_here`]);
//! - what the reader accepts and what the results say of it
//!   ([`LaneHost::consent`], [`LaneHost::deviation`]), and what a shared
//!   report says instead of its name ([`LaneHost::unnamed`]);
//! - its record in the run's folder, so a resumed or cleaned run finds the
//!   containers it left ([`LaneHost::record`], [`LaneHost::recorded`],
//!   [`LaneHost::remove_left_over_containers`]);
//! - what is known of the server host before measuring
//!   ([`LaneHost::capture_environment`]).

use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;

use reprise_probe::ContainerEngine;
use reprise_probe::container_engine::EndpointError;
use reprise_probe::preflight::LaneAvailability;
use reprise_probe::toolchain::Toolchains;
use reprise_recipe::{Lane, Placement, Recipe};
use reprise_verdict::{Deviation, DeviationKind};

use crate::event::CancelToken;
use crate::lanes::cpu_split::CpuSplit;
use crate::lanes::remote_engine::{
    SERVER_HOST_FILE, ServerHost, ServerHostEnv, ServerHostError, ServerHostReading,
};
use crate::os::runner::container::{ContainerError, ContainerRunner};
use crate::os::workdir::RunDir;

/// Where a run's lanes are served.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LaneHost {
    /// On this machine, beside the load generators: lanes on 127.0.0.1.
    #[default]
    ThisMachine,
    /// On another machine's engine, every lane a container of its image;
    /// the load generators stay here and target its address only.
    ServerHost(ServerHost),
}

/// How a container lane gets its folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneFiles {
    /// Bound read-write at the same path: the engine shares this machine's
    /// files.
    Bound,
    /// Copied into the container at the same path: the engine is another
    /// machine's.
    Copied,
}

/// What `reprise clean` did with a run's containers on one host.
#[derive(Debug, Default)]
pub struct CleanedContainers {
    /// `removed container NAME`, where.
    pub removed: Vec<String>,
    pub problem: Option<String>,
    /// The run's folder must stay: it is the only record of where the
    /// containers are.
    pub keep_folder: bool,
}

/// The machine that serves the lanes, as a preflight reads it.
pub struct LanesMachine {
    pub fingerprint: reprise_probe::Fingerprint,
    /// A server host's engine, hardware and link.
    pub server_host: Option<ServerHostEnv>,
}

/// What was found out about the lanes' host before a measurement.
pub enum Captured {
    /// The lanes run here: this machine's `env.json` says it all.
    Nothing,
    /// The capture was cancelled on the way.
    Cancelled,
    ServerHost(Box<ServerHostEnv>),
}

impl LaneHost {
    /// The server host at `url` (`tcp://HOST:PORT`, TLS with the client
    /// certificates in the folder `certs`).
    pub fn server_host(url: &str, certs: &Path) -> Result<LaneHost, EndpointError> {
        ServerHost::new(url, certs).map(LaneHost::ServerHost)
    }

    /// Where the lanes listen and the load generators target: 127.0.0.1, or
    /// the server host's address.
    pub fn address(&self) -> IpAddr {
        match self {
            LaneHost::ThisMachine => IpAddr::V4(Ipv4Addr::LOCALHOST),
            LaneHost::ServerHost(host) => host.address,
        }
    }

    /// A lane's command with `{host}` filled with [`LaneHost::address`]
    /// (IPv6 in brackets).
    pub fn lane_command(&self, lane: &Lane) -> Vec<String> {
        let host = crate::lanes::remote_engine::url_host(self.address());
        lane.command
            .iter()
            .flatten()
            .map(|arg| arg.replace(reprise_recipe::HOST_PLACEHOLDER, &host))
            .collect()
    }

    /// The CPUs the servers and the load generator get, `placement` the
    /// recipe's on this machine.
    pub fn cpu_split(&self, placement: reprise_recipe::CpuPlacement) -> CpuSplit {
        match self {
            LaneHost::ThisMachine => CpuSplit::here(placement),
            LaneHost::ServerHost(_) => CpuSplit::remote(),
        }
    }

    /// The engine container lanes run on: this machine's (`DOCKER_HOST` or
    /// the default socket), or the server host's.
    pub fn connect_engine(&self) -> Result<ContainerRunner, ContainerError> {
        match self {
            LaneHost::ThisMachine => ContainerRunner::connect(),
            LaneHost::ServerHost(host) => ContainerRunner::connect_endpoint(&host.endpoint),
        }
    }

    /// Whether a container lane's folder is bound into it or copied there.
    pub fn lane_files(&self) -> LaneFiles {
        match self {
            LaneHost::ThisMachine => LaneFiles::Bound,
            LaneHost::ServerHost(_) => LaneFiles::Copied,
        }
    }

    /// The engine's own account of itself, where the lanes need one: the
    /// server host's (an error when it does not answer), or this
    /// machine's where a lane of `recipe` runs in a container (none when
    /// none answers: those lanes then cannot run, and say so).
    pub fn ask_engine(&self, recipe: &Recipe) -> Result<Option<ContainerEngine>, ServerHostError> {
        match self {
            LaneHost::ThisMachine => Ok(recipe
                .lanes
                .iter()
                .any(|l| l.placement == Placement::Container)
                .then(reprise_probe::container_engine::ask_from_env)
                .flatten()),
            LaneHost::ServerHost(host) => host.ask_engine().map(Some),
        }
    }

    /// Whether the lanes use this machine's toolchains (a preflight asks
    /// them their versions), or, on a server host, their images' (asked
    /// inside each image when the run starts its lane).
    pub fn toolchains_are_here(&self) -> bool {
        matches!(self, LaneHost::ThisMachine)
    }

    /// The machine that serves the lanes, for a preflight or a plan: this
    /// one (or the fixture tree under `root`), or the server host as a probe
    /// container of a lane's image reads it, with its engine and, as
    /// `reading` asks, the link to it (an engine that does not answer is an
    /// error).
    pub fn machine(
        &self,
        recipe: &Recipe,
        root: Option<&Path>,
        reading: ServerHostReading,
    ) -> Result<LanesMachine, ServerHostError> {
        let LaneHost::ServerHost(host) = self else {
            return Ok(LanesMachine {
                fingerprint: match root {
                    Some(root) => reprise_probe::Fingerprint::read(root),
                    None => reprise_probe::Fingerprint::probe(),
                },
                server_host: None,
            });
        };
        let engine = host.ask_engine()?;
        let image = recipe.lanes.iter().find_map(|l| l.image.as_deref());
        let connections = recipe.workloads.iter().map(|w| w.connections as usize);
        let env = ServerHostEnv::capture(
            host,
            Some(engine.clone()),
            image,
            reading,
            "preflight",
            connections.max().unwrap_or(16),
            &CancelToken::new(),
        )
        .unwrap_or_default();
        let mut fingerprint = env.fingerprint.clone().unwrap_or_default();
        fingerprint.container_engine = Some(engine);
        Ok(LanesMachine {
            fingerprint,
            server_host: Some(env),
        })
    }

    /// What a preflight of the lanes here is about to do, where it takes
    /// more than reading this machine: said before it starts.
    pub fn preflight_note(&self) -> Option<String> {
        self.engine_url().map(|url| format!(
            "Asking the server host's engine at {url}, probing its hardware in a container of a lane's image, and loading Reprise's reference server there (this program, copied in) to find the link's ceiling…"
        ))
    }

    /// Why `lane` cannot run on this host whatever is installed, or `None`.
    pub fn why_lane_cannot_run(&self, lane: &Lane) -> Option<String> {
        match self {
            LaneHost::ThisMachine => None,
            LaneHost::ServerHost(_) => crate::lanes::remote_engine::why_lane_cannot_run(lane),
        }
    }

    /// Whether each lane of `recipe` can run on this host: the probe's rule
    /// for `toolchains` and `engine`, then this host's own.
    pub fn lanes_here(
        &self,
        recipe: &Recipe,
        toolchains: &Toolchains,
        engine: Option<&ContainerEngine>,
    ) -> Vec<(String, LaneAvailability)> {
        reprise_probe::preflight::lanes_here(recipe, toolchains, engine)
            .into_iter()
            .map(|(name, here)| {
                let why = recipe.lane(&name).and_then(|l| self.why_lane_cannot_run(l));
                match why {
                    Some(why) if here == LaneAvailability::Runs => {
                        (name, LaneAvailability::Blocked { why, fix: None })
                    }
                    _ => (name, here),
                }
            })
            .collect()
    }

    /// What the reader accepts of where the lanes run, as a sentence;
    /// `None` on this machine, where the lanes' own lines say it all.
    pub fn consent(&self) -> Option<String> {
        let LaneHost::ServerHost(host) = self else {
            return None;
        };
        Some(format!(
            "runs each lane as a container of its image on the server host's engine at {} (TLS), each lane's folder copied there; `{{host}}` in a lane's command is {}; before measuring, probes that host's hardware in a container of a lane's image (sh reading /proc and /sys) and loads Reprise's reference server there (this program, copied into such a container) to find the link's ceiling",
            host.endpoint.url(),
            host.url_host()
        ))
    }

    /// How serving the lanes here differs from the post. The server host's
    /// address stays out: results are shared.
    pub fn deviation(&self) -> Option<Deviation> {
        match self {
            LaneHost::ThisMachine => None,
            LaneHost::ServerHost(_) => Some(Deviation::new(
                DeviationKind::ServerHost,
                "the lanes were served by another machine through its engine's API, the load generators ran here: the post's servers and client shared one box",
            )),
        }
    }

    /// `text` with the server host's engine, name and address said as "the
    /// server host": what a reader shares does not say where their machines
    /// are. This machine's texts are as they are.
    pub fn unnamed(&self, text: &str) -> String {
        match self {
            LaneHost::ThisMachine => text.to_string(),
            LaneHost::ServerHost(host) => host.unnamed(text),
        }
    }

    /// Records where the run's lanes are served in its folder (a run on
    /// this machine has no record).
    pub fn record(&self, run: &RunDir) -> std::io::Result<()> {
        match self {
            LaneHost::ThisMachine => Ok(()),
            LaneHost::ServerHost(host) => host.record(run),
        }
    }

    /// Where a run's folder says its lanes were served.
    pub fn recorded(run: &Path) -> LaneHost {
        let recorded = std::fs::read(run.join(SERVER_HOST_FILE))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok());
        match recorded {
            Some(host) => LaneHost::ServerHost(host),
            None => LaneHost::ThisMachine,
        }
    }

    /// Whether the run in `run` may go on here: one run, one place for its
    /// lanes, so a resumed run keeps where its earlier attempts served them.
    pub fn may_resume(&self, run: &RunDir) -> Result<(), ServerHostError> {
        let recorded = LaneHost::recorded(&run.path);
        if recorded.engine_url() == self.engine_url() {
            return Ok(());
        }
        Err(ServerHostError::ServedElsewhere {
            run: run.id.clone(),
            there: recorded.engine_url(),
        })
    }

    /// The server host's engine, as its URL; `None` on this machine.
    pub fn engine_url(&self) -> Option<String> {
        match self {
            LaneHost::ThisMachine => None,
            LaneHost::ServerHost(host) => Some(host.endpoint.url()),
        }
    }

    /// Removes the containers of run `run` (of every run, with `None`) left
    /// on this host's engine. This machine without an engine has none; a
    /// server host whose engine does not answer is an error, since the
    /// run's folder is what says where its containers are.
    pub fn remove_left_over_containers(
        &self,
        run: Option<&str>,
    ) -> Result<Vec<String>, ContainerError> {
        let engine = match (self, self.connect_engine()) {
            (_, Ok(engine)) => engine,
            (LaneHost::ThisMachine, Err(_)) => return Ok(Vec::new()),
            (LaneHost::ServerHost(_), Err(e)) => return Err(e),
        };
        engine.remove_left_over(run)
    }

    /// `reprise clean` of run `run` on this host's engine: its containers
    /// removed, each said. A server host whose engine does not answer keeps
    /// the run's folder, which is what says where its containers are; this
    /// machine's containers are found by their labels whatever becomes of
    /// the folder.
    pub fn clean_containers(&self, run: &str) -> CleanedContainers {
        match self.remove_left_over_containers(Some(run)) {
            Ok(removed) => CleanedContainers {
                removed: removed
                    .into_iter()
                    .map(|c| format!("removed container {c}{}", self.on_where()))
                    .collect(),
                ..CleanedContainers::default()
            },
            Err(e) => match self.engine_url() {
                None => CleanedContainers {
                    problem: Some(e.to_string()),
                    ..CleanedContainers::default()
                },
                Some(url) => CleanedContainers {
                    problem: Some(format!(
                        "{run} not removed: its server host's engine at {url} does not answer ({e}), and this run's folder is what says where its containers are"
                    )),
                    keep_folder: true,
                    ..CleanedContainers::default()
                },
            },
        }
    }

    /// ` on the server host tcp://…`: where a container was, for a note.
    pub fn on_where(&self) -> String {
        match self.engine_url() {
            Some(url) => format!(" on the server host {url}"),
            None => String::new(),
        }
    }

    /// Before the first measurement of run `run_id`: what is known of the
    /// server host (its engine, its hardware as a probe container of
    /// `image` reads it, the link and its ceiling at `connections`); nothing
    /// on this machine, whose `env.json` the measuring step writes. What it
    /// is about to do is said to `say` first.
    pub fn capture_environment(
        &self,
        recipe: &Recipe,
        image: Option<&str>,
        run_id: &str,
        connections: usize,
        cancel: &CancelToken,
        say: &dyn Fn(&str),
    ) -> Captured {
        let LaneHost::ServerHost(host) = self else {
            return Captured::Nothing;
        };
        say(
            "the server host: asking its engine, timing the link, probing its hardware in a container, loading Reprise's reference server there",
        );
        let engine = self.ask_engine(recipe).ok().flatten();
        match ServerHostEnv::capture(
            host,
            engine,
            image,
            ServerHostReading::HardwareAndLink,
            run_id,
            connections,
            cancel,
        ) {
            Some(env) => Captured::ServerHost(Box::new(env)),
            None => Captured::Cancelled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_host(url: &str) -> (LaneHost, tempfile::TempDir) {
        let certs = tempfile::tempdir().unwrap();
        for file in ["ca.pem", "cert.pem", "key.pem"] {
            std::fs::write(certs.path().join(file), "").unwrap();
        }
        (LaneHost::server_host(url, certs.path()).unwrap(), certs)
    }

    fn lane(toml: &str) -> Lane {
        #[derive(serde::Deserialize)]
        struct One {
            lane: Lane,
        }
        toml::from_str::<One>(toml).unwrap().lane
    }

    #[test]
    fn this_machine_serves_on_loopback_and_a_server_host_at_its_address() {
        assert_eq!(LaneHost::ThisMachine.address().to_string(), "127.0.0.1");
        let (v6, _certs) = server_host("tcp://[fd00::2]:2376");
        assert_eq!(v6.address().to_string(), "fd00::2");
        let nginx = lane(
            r#"[lane]
name = "nginx"
why = "the reference"
command = ["nginx", "-g", "listen {host}:8080;"]
image = "nginx@sha256:0000000000000000000000000000000000000000000000000000000000000000"
placement = "container"
"#,
        );
        assert_eq!(
            LaneHost::ThisMachine.lane_command(&nginx),
            ["nginx", "-g", "listen 127.0.0.1:8080;"]
        );
        assert_eq!(
            v6.lane_command(&nginx),
            ["nginx", "-g", "listen [fd00::2]:8080;"]
        );
        assert_eq!(LaneHost::ThisMachine.lane_files(), LaneFiles::Bound);
        assert_eq!(v6.lane_files(), LaneFiles::Copied);
        let split = reprise_recipe::CpuPlacement::Split;
        assert!(!LaneHost::ThisMachine.cpu_split(split).remote);
        assert!(v6.cpu_split(split).remote);
    }

    #[test]
    fn only_a_server_host_is_a_deviation_a_consent_line_and_a_redaction() {
        assert_eq!(LaneHost::ThisMachine.deviation(), None);
        assert_eq!(LaneHost::ThisMachine.consent(), None);
        assert_eq!(
            LaneHost::ThisMachine.unnamed("127.0.0.1 answered"),
            "127.0.0.1 answered"
        );
        let (host, _certs) = server_host("tcp://10.9.8.7:2376");
        let deviation = host.deviation().unwrap();
        assert_eq!(deviation.kind, DeviationKind::ServerHost);
        assert!(!deviation.what.contains("10.9.8.7"), "{}", deviation.what);
        let consent = host.consent().unwrap();
        assert!(consent.contains("tcp://10.9.8.7:2376"), "{consent}");
        assert_eq!(host.unnamed("10.9.8.7 refused"), "the server host refused");
    }

    #[test]
    fn a_run_resumes_only_where_it_served_its_lanes() {
        let data = tempfile::tempdir().unwrap();
        let data = crate::os::workdir::DataDir::new(data.path().to_path_buf());
        let run = data.create_run("demo").unwrap();
        let (host, _certs) = server_host("tcp://10.9.8.7:2376");
        assert_eq!(LaneHost::recorded(&run.path), LaneHost::ThisMachine);
        assert!(LaneHost::ThisMachine.may_resume(&run).is_ok());
        let elsewhere = host.may_resume(&run).unwrap_err();
        assert!(
            matches!(
                &elsewhere,
                ServerHostError::ServedElsewhere { there: None, .. }
            ),
            "{elsewhere}"
        );
        host.record(&run).unwrap();
        assert_eq!(LaneHost::recorded(&run.path), host);
        assert!(host.may_resume(&run).is_ok());
        let here = LaneHost::ThisMachine.may_resume(&run).unwrap_err();
        assert!(
            matches!(&here, ServerHostError::ServedElsewhere { there: Some(url), .. } if url == "tcp://10.9.8.7:2376"),
            "{here}"
        );
        // Said with the flag that resumes it.
        assert!(
            here.to_string()
                .contains("resume it with --server-host tcp://10.9.8.7:2376"),
            "{here}"
        );
    }

    #[test]
    fn on_a_server_host_a_lane_without_an_image_is_blocked_with_why() {
        let (host, _certs) = server_host("tcp://10.9.8.7:2376");
        let puma = lane(
            r#"[lane]
name = "puma"
why = "the post's server"
command = ["puma", "-b", "tcp://{host}:9292"]
"#,
        );
        assert_eq!(LaneHost::ThisMachine.why_lane_cannot_run(&puma), None);
        let why = host.why_lane_cannot_run(&puma).unwrap();
        assert!(why.contains("names no image"), "{why}");
    }
}
