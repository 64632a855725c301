//! Where a load may go. A run loads the server it started and nothing else:
//! the engine names that server's address ([`Targets::Only`]); anything else
//! is refused before a name is looked up or a connection opened. A person
//! loading a URL of their own may load any address of this machine
//! ([`Targets::Loopback`], the default) or, when they say so, any server
//! ([`Targets::Anywhere`]).

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use serde::{Deserialize, Serialize};

/// The servers a load may be sent to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Targets {
    /// Only this address and port: the server the run started. The URL must
    /// name it as an IP address; a host name is refused unresolved.
    Only(SocketAddr),
    /// Any loopback address of this machine (`127.0.0.0/8`, `::1`, `localhost`).
    #[default]
    Loopback,
    /// Any server the URL names: the user asked for it explicitly.
    Anywhere,
}

/// Why a target was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("{target} is not the server this run started ({allowed})")]
    NotTheRunsServer { target: String, allowed: SocketAddr },
    #[error(
        "{target} is not on this machine's loopback, and loading another machine was not allowed"
    )]
    NotLoopback { target: String },
    #[error("cannot resolve {host}: {reason}")]
    Resolve { host: String, reason: String },
}

impl Targets {
    /// The address to connect to for `host` (brackets of an IPv6 literal
    /// removed) and `port`, or why it is not allowed. Under `Only` no name is
    /// looked up; under `Loopback` only `localhost` is.
    pub fn resolve(&self, host: &str, port: u16) -> Result<SocketAddr, TargetError> {
        let target = || {
            if host.contains(':') {
                format!("[{host}]:{port}")
            } else {
                format!("{host}:{port}")
            }
        };
        let literal = host
            .parse::<IpAddr>()
            .ok()
            .map(|ip| SocketAddr::new(ip, port));
        match (self, literal) {
            (Targets::Only(allowed), Some(addr)) if same(addr, *allowed) => Ok(addr),
            (Targets::Only(allowed), _) => Err(TargetError::NotTheRunsServer {
                target: target(),
                allowed: *allowed,
            }),
            (Targets::Loopback, Some(addr)) if is_loopback(addr.ip()) => Ok(addr),
            (Targets::Loopback, Some(_)) => Err(TargetError::NotLoopback { target: target() }),
            (Targets::Loopback, None) => {
                let name = host.trim_end_matches('.');
                if !name.eq_ignore_ascii_case("localhost") {
                    return Err(TargetError::NotLoopback { target: target() });
                }
                lookup(host, port)?
                    .into_iter()
                    .find(|a| is_loopback(a.ip()))
                    .ok_or(TargetError::NotLoopback { target: target() })
            }
            (Targets::Anywhere, Some(addr)) => Ok(addr),
            (Targets::Anywhere, None) => {
                lookup(host, port)?
                    .into_iter()
                    .next()
                    .ok_or_else(|| TargetError::Resolve {
                        host: host.into(),
                        reason: "no address".into(),
                    })
            }
        }
    }
}

fn lookup(host: &str, port: u16) -> Result<Vec<SocketAddr>, TargetError> {
    (host, port)
        .to_socket_addrs()
        .map(Iterator::collect)
        .map_err(|e| TargetError::Resolve {
            host: host.into(),
            reason: e.to_string(),
        })
}

fn is_loopback(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

fn same(a: SocketAddr, b: SocketAddr) -> bool {
    a.port() == b.port() && a.ip().to_canonical() == b.ip().to_canonical()
}

/// Checks that `path` is a path on the server and nothing more: `/` first,
/// no `//` (a network path naming another host), no space or control
/// character (a request line or header of its own).
pub fn check_path(path: &str) -> Result<(), NotAPath> {
    if !path.starts_with('/') {
        return Err(NotAPath::NoLeadingSlash(path.to_string()));
    }
    if path.starts_with("//") {
        return Err(NotAPath::OtherHost(path.to_string()));
    }
    if path.chars().any(|c| c.is_control() || c == ' ') {
        return Err(NotAPath::Control(path.to_string()));
    }
    Ok(())
}

/// Why a text is not a request path ([`check_path`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAPath {
    #[error("{0:?} is not a path: it must start with `/`")]
    NoLeadingSlash(String),
    #[error("{0:?} is not a path: `//` would name another host")]
    OtherHost(String),
    #[error("{0:?} holds a space or a control character")]
    Control(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_runs_server_is_allowed_and_no_name_is_looked_up() {
        let allowed: SocketAddr = "127.0.0.1:3000".parse().unwrap();
        let only = Targets::Only(allowed);
        assert_eq!(only.resolve("127.0.0.1", 3000), Ok(allowed));
        for (host, port) in [
            ("127.0.0.1", 3001),
            ("127.0.0.2", 3000),
            ("localhost", 3000),
            ("example.com", 3000),
            ("::1", 3000),
        ] {
            let e = only.resolve(host, port).unwrap_err();
            assert!(
                matches!(e, TargetError::NotTheRunsServer { .. }),
                "{host}:{port}: {e}"
            );
        }
    }

    #[test]
    fn loopback_allows_this_machine_only() {
        let l = Targets::Loopback;
        assert!(l.resolve("127.0.0.1", 80).is_ok());
        assert!(l.resolve("127.1.2.3", 80).is_ok());
        assert!(l.resolve("::1", 80).is_ok());
        assert!(l.resolve("::ffff:127.0.0.1", 80).is_ok());
        for host in ["192.0.2.1", "0.0.0.0", "10.0.0.1", "::", "example.com"] {
            let e = l.resolve(host, 80).unwrap_err();
            assert!(matches!(e, TargetError::NotLoopback { .. }), "{host}: {e}");
        }
        assert!(Targets::Anywhere.resolve("192.0.2.1", 80).is_ok());
    }

    #[test]
    fn a_path_is_only_a_path() {
        assert!(check_path("/cable").is_ok());
        assert!(check_path("/@evil.example:80/").is_ok());
        for bad in [
            "@evil.example:80/",
            "//evil/",
            "cable",
            "/a b",
            "/a\r\nHost: x",
            "",
        ] {
            assert!(check_path(bad).is_err(), "{bad:?}");
        }
    }
}
