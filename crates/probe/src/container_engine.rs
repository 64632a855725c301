//! The Docker-compatible container engine, when one answers: Docker itself or
//! Podman's service, asked over the Docker Engine API with a short timeout.

use std::path::Path;
use std::time::Duration;

use bollard::{API_DEFAULT_VERSION, Docker};
use serde::{Deserialize, Serialize};

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
}

const DEFAULT_SOCKET: &str = "/var/run/docker.sock";

/// Asks the engine named by `DOCKER_HOST`, else the default socket when it
/// exists; `None` when neither is there or nothing answers within `timeout`.
pub fn ask_from_env(timeout: Duration) -> Option<ContainerEngine> {
    let host = match std::env::var("DOCKER_HOST") {
        Ok(h) if !h.is_empty() => h,
        _ if Path::new(DEFAULT_SOCKET).exists() => format!("unix://{DEFAULT_SOCKET}"),
        _ => return None,
    };
    ask(&host, timeout)
}

/// Asks the engine at `host` (`unix:///path` or `tcp://host:port`).
pub fn ask(host: &str, timeout: Duration) -> Option<ContainerEngine> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    let secs = timeout.as_secs().max(1);
    runtime.block_on(async {
        let docker = if let Some(path) = host.strip_prefix("unix://") {
            Docker::connect_with_unix(path, secs, API_DEFAULT_VERSION).ok()?
        } else {
            let addr = host.replacen("tcp://", "http://", 1);
            Docker::connect_with_http(&addr, secs, API_DEFAULT_VERSION).ok()?
        };
        let (version, info) = tokio::time::timeout(timeout, async {
            (docker.version().await, docker.info().await)
        })
        .await
        .ok()?;
        let version = version.ok()?;
        let info = info.ok();
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
        })
    })
}
