//! The Docker-compatible container engine, when one answers: Docker itself or
//! Podman's service, asked over the Docker Engine API with a short timeout.
//! An engine is named as `DOCKER_HOST` names one ([`EngineEndpoint`]): a
//! Unix socket on this machine, or `tcp://HOST:PORT` on another, reached
//! with TLS and client certificates only.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bollard::{API_DEFAULT_VERSION, Docker};
use serde::{Deserialize, Serialize};

/// Where a Docker Engine API answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EngineEndpoint {
    /// `unix:///path`: an engine on this machine.
    Unix { path: PathBuf },
    /// `tcp://HOST:PORT` with TLS: the client proves itself with
    /// `cert.pem`/`key.pem` and trusts an engine certificate for HOST signed
    /// by `ca.pem` (or, as bollard builds its trust, by a CA of the system's
    /// store), all in `certs` (Docker's `DOCKER_CERT_PATH` layout).
    Tls {
        host: String,
        port: u16,
        certs: PathBuf,
    },
    /// `tcp://HOST:PORT` without TLS: only as `DOCKER_HOST` names the local
    /// engine without `DOCKER_TLS_VERIFY`, as the Docker CLI reads it.
    Plain { host: String, port: u16 },
}

/// Why an engine address cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error("`{0}` is not an engine address: expected unix:///path/to/socket or tcp://HOST:PORT")]
    Scheme(String),
    #[error("`{0}` names no port: expected tcp://HOST:PORT (Docker's TLS port is 2376)")]
    Port(String),
    #[error(
        "ssh:// engines are not supported by this build: open the engine's API on the server host with TLS and give tcp://HOST:2376 (docs/two-machines.md says how)"
    )]
    Ssh,
    #[error(
        "the engine at {url} is reached with TLS, and {} lacks {file}: put the CA's certificate (ca.pem) and this client's certificate and key (cert.pem, key.pem) there, or name another folder with DOCKER_CERT_PATH",
        folder.display()
    )]
    Certificates {
        url: String,
        folder: PathBuf,
        file: &'static str,
    },
    #[error("{host}: not an address this machine can resolve: {why}")]
    Resolve { host: String, why: String },
    #[error(
        "`{0}` is an engine on this machine: a server host is another machine's engine, tcp://HOST:PORT with TLS (for containers here, use --placement container)"
    )]
    NotRemote(String),
}

impl EngineEndpoint {
    /// Reads an engine address. `tcp://` always means TLS here, with the
    /// certificates in `certs` (checked now, so a missing file is said
    /// before anything starts).
    pub fn parse_remote(url: &str, certs: &Path) -> Result<EngineEndpoint, EndpointError> {
        match Self::parse_plain(url)? {
            EngineEndpoint::Plain { host, port } => {
                for file in ["ca.pem", "cert.pem", "key.pem"] {
                    if !certs.join(file).is_file() {
                        return Err(EndpointError::Certificates {
                            url: url.to_string(),
                            folder: certs.to_path_buf(),
                            file,
                        });
                    }
                }
                Ok(EngineEndpoint::Tls {
                    host,
                    port,
                    certs: certs.to_path_buf(),
                })
            }
            other => Ok(other),
        }
    }

    /// Reads `DOCKER_HOST` the way the Docker CLI does: `tcp://` is TLS when
    /// `DOCKER_TLS_VERIFY` is set (certificates from [`cert_folder`]).
    pub fn from_docker_host(url: &str) -> Result<EngineEndpoint, EndpointError> {
        if std::env::var_os("DOCKER_TLS_VERIFY").is_some_and(|v| !v.is_empty()) {
            return Self::parse_remote(url, &cert_folder());
        }
        Self::parse_plain(url)
    }

    fn parse_plain(url: &str) -> Result<EngineEndpoint, EndpointError> {
        if let Some(path) = url.strip_prefix("unix://") {
            if path.is_empty() {
                return Err(EndpointError::Scheme(url.to_string()));
            }
            return Ok(EngineEndpoint::Unix { path: path.into() });
        }
        if url.starts_with("ssh://") {
            return Err(EndpointError::Ssh);
        }
        let Some(rest) = url.strip_prefix("tcp://") else {
            return Err(EndpointError::Scheme(url.to_string()));
        };
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) if !h.is_empty() && !p.is_empty() => (h, p),
            _ => return Err(EndpointError::Port(url.to_string())),
        };
        let port: u16 = port
            .parse()
            .map_err(|_| EndpointError::Port(url.to_string()))?;
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() || host.contains('/') || host.contains('@') {
            return Err(EndpointError::Scheme(url.to_string()));
        }
        Ok(EngineEndpoint::Plain {
            host: host.to_string(),
            port,
        })
    }

    /// The address as `DOCKER_HOST` writes it.
    pub fn url(&self) -> String {
        match self {
            EngineEndpoint::Unix { path } => format!("unix://{}", path.display()),
            EngineEndpoint::Tls { host, port, .. } | EngineEndpoint::Plain { host, port } => {
                match host.contains(':') {
                    true => format!("tcp://[{host}]:{port}"),
                    false => format!("tcp://{host}:{port}"),
                }
            }
        }
    }

    /// The address this machine reaches the engine's host at: what its
    /// lanes listen on and the load generator targets. A Unix socket's
    /// engine is this machine: 127.0.0.1.
    pub fn address(&self) -> Result<IpAddr, EndpointError> {
        let (host, port) = match self {
            EngineEndpoint::Unix { .. } => return Ok(IpAddr::from([127, 0, 0, 1])),
            EngineEndpoint::Tls { host, port, .. } | EngineEndpoint::Plain { host, port } => {
                (host, *port)
            }
        };
        if let Ok(ip) = host.parse() {
            return Ok(ip);
        }
        use std::net::ToSocketAddrs;
        let resolve = |why: String| EndpointError::Resolve {
            host: host.clone(),
            why,
        };
        (host.as_str(), port)
            .to_socket_addrs()
            .map_err(|e| resolve(e.to_string()))?
            .next()
            .map(|a| a.ip())
            .ok_or_else(|| resolve("no address".into()))
    }

    /// A client for the engine, every request bounded by `timeout_secs`.
    pub fn connect(&self, timeout_secs: u64) -> Result<Docker, String> {
        let docker = match self {
            EngineEndpoint::Unix { path } => Docker::connect_with_unix(
                &path.to_string_lossy(),
                timeout_secs,
                API_DEFAULT_VERSION,
            ),
            EngineEndpoint::Plain { .. } => Docker::connect_with_http(
                &self.url().replacen("tcp://", "http://", 1),
                timeout_secs,
                API_DEFAULT_VERSION,
            ),
            EngineEndpoint::Tls { certs, .. } => Docker::connect_with_ssl(
                &self.url(),
                &certs.join("key.pem"),
                &certs.join("cert.pem"),
                &certs.join("ca.pem"),
                timeout_secs,
                API_DEFAULT_VERSION,
            ),
        };
        docker.map_err(|e| e.to_string())
    }
}

/// The client certificates' folder as the Docker CLI finds it:
/// `DOCKER_CERT_PATH`, else `~/.docker`.
pub fn cert_folder() -> PathBuf {
    match std::env::var_os("DOCKER_CERT_PATH") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default()
            .join(".docker"),
    }
}

/// What `/version` and `/info` said.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContainerEngine {
    /// Where it was reached, e.g. `unix:///var/run/docker.sock`.
    pub host: String,
    /// `Docker Engine - Community`, `Podman Engine`, … (first component's name).
    pub name: Option<String>,
    pub version: Option<String>,
    pub api_version: Option<String>,
    /// The engine's OS, e.g. `linux`.
    pub os: Option<String>,
    pub cpus: Option<i64>,
    pub memory_bytes: Option<i64>,
    /// The engine host's kernel, e.g. `6.1.0-26-amd64`.
    pub kernel: Option<String>,
    /// The engine host's architecture as `uname -m` says it, e.g. `x86_64`.
    #[serde(default)]
    pub architecture: Option<String>,
    /// The engine host's operating system, e.g. `Debian GNU/Linux 12 (bookworm)`.
    pub operating_system: Option<String>,
}

const DEFAULT_SOCKET: &str = "/var/run/docker.sock";

/// How long a run or a page waits for the engine's `/version`, and again for
/// its `/info`. Podman answers `/info` by walking its storage, which takes
/// seconds on a busy machine; an engine that is slow to describe itself is
/// still an engine, so only `/version` decides whether one answers.
pub const ENGINE_TIMEOUT: Duration = Duration::from_secs(10);

/// The engine this machine's runs use: `DOCKER_HOST` (read as the Docker
/// CLI reads it), else the default socket. An unusable `DOCKER_HOST` is an
/// error, not a silent fall back to another engine.
pub fn local_endpoint() -> Result<EngineEndpoint, EndpointError> {
    match std::env::var("DOCKER_HOST") {
        Ok(h) if !h.is_empty() => EngineEndpoint::from_docker_host(&h),
        _ => Ok(EngineEndpoint::Unix {
            path: DEFAULT_SOCKET.into(),
        }),
    }
}

/// Asks the engine named by `DOCKER_HOST`, else the default socket when it
/// exists; `None` when neither is there or nothing answers within
/// [`ENGINE_TIMEOUT`].
pub fn ask_from_env() -> Option<ContainerEngine> {
    let endpoint = local_endpoint().ok()?;
    if let EngineEndpoint::Unix { path } = &endpoint
        && !path.exists()
    {
        return None;
    }
    ask_endpoint(&endpoint, ENGINE_TIMEOUT)
}

/// Asks the engine at `host` (`unix:///path` or `tcp://host:port`, plain).
pub fn ask(host: &str, timeout: Duration) -> Option<ContainerEngine> {
    ask_endpoint(&EngineEndpoint::from_docker_host(host).ok()?, timeout)
}

/// Asks the engine at `endpoint` for its version, then its resources. It
/// answers when `/version` does within `timeout`; `/info` gets a `timeout` of
/// its own and its facts are left out when it does not answer.
pub fn ask_endpoint(endpoint: &EngineEndpoint, timeout: Duration) -> Option<ContainerEngine> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    let secs = timeout.as_secs().max(1);
    let host = endpoint.url();
    runtime.block_on(async {
        let docker = endpoint.connect(secs).ok()?;
        let version = tokio::time::timeout(timeout, docker.version())
            .await
            .ok()?
            .ok()?;
        let info = tokio::time::timeout(timeout, docker.info())
            .await
            .ok()
            .and_then(Result::ok);
        Some(ContainerEngine {
            host: host.to_string(),
            name: version
                .components
                .as_ref()
                .and_then(|c| c.first())
                .map(|c| c.name.clone()),
            version: version.version,
            api_version: version.api_version,
            os: version.os,
            cpus: info.as_ref().and_then(|i| i.ncpu),
            memory_bytes: info.as_ref().and_then(|i| i.mem_total),
            kernel: info.as_ref().and_then(|i| i.kernel_version.clone()),
            architecture: info.as_ref().and_then(|i| i.architecture.clone()),
            operating_system: info.as_ref().and_then(|i| i.operating_system.clone()),
        })
    })
}
