//! The `[[service]]`s lanes need beside them (Redis for stock Campfire):
//! started before the first lane that names one, shared by every lane that
//! does, stopped after the lanes (`Lanes::stop_all`). Where the service
//! says how to know it (`answers`) and this machine already runs it on its
//! port, that one is used and left running, as the posts' harness uses the
//! box's running Redis.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

use super::Lanes;
use crate::lanes::server_process::{LaneServer, ServerError, ServerSpec};
use crate::os::run_files::within;
use crate::run::context::RunContext;
use crate::run::failure::StepFailure;
use reprise_recipe::Lane;

/// Why a service a lane needs did not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServiceError {
    #[error("the recipe has no service `{0}`")]
    NoService(String),
    #[error("service {name}: {source}")]
    Spec {
        name: String,
        source: Box<StepFailure>,
    },
    #[error("service {name} did not start: {source} (its log: logs/service-{name}.log)")]
    Start { name: String, source: ServerError },
    /// The port is taken by something that is not this service, or by
    /// something the service gives no way to know.
    #[error("service {name} cannot start: port {port} is taken, {why}")]
    PortTaken {
        name: String,
        port: u16,
        why: PortTakenWhy,
    },
    /// An escape of the service's earlier start that could not be recorded.
    #[error(transparent)]
    Record(Box<StepFailure>),
}

impl Lanes {
    /// Starts the services `lane` needs that are not running yet, each
    /// waited for until its port accepts; why one did not start otherwise.
    pub(super) fn start_services(
        &mut self,
        ctx: &RunContext,
        step: &str,
        lane: &Lane,
    ) -> Result<(), ServiceError> {
        for name in &lane.services {
            if self
                .services
                .get_mut(name.as_str())
                .is_some_and(|s| s.is_running())
            {
                continue;
            }
            let Some(service) = self.service_specs.iter().find(|s| s.name == *name).cloned() else {
                return Err(ServiceError::NoService(name.to_string()));
            };
            if !self.services.contains_key(name.as_str())
                && let Some(found) = already_running(&service)
            {
                match found {
                    Ok(answered) => {
                        if self.machine_services.insert(name.to_string()) {
                            ctx.note(
                                step,
                                format!(
                                    "service {name}: this machine's own answers on port {} ({answered}); used as it is and left running, as the posts' harness uses the box's",
                                    service.port
                                ),
                            );
                        }
                        continue;
                    }
                    Err(why) => {
                        return Err(ServiceError::PortTaken {
                            name: name.to_string(),
                            port: service.port,
                            why,
                        });
                    }
                }
            }
            if let Some(mut old) = self.services.remove(name.as_str())
                && let Err(e @ ServerError::Escaped { .. }) = old.stop()
            {
                ctx.escaped(step, format!("service {name}: {e}"), Vec::new())
                    .map_err(|e| ServiceError::Record(Box::new(e)))?;
            }
            let spec = service_spec(ctx, &service).map_err(|source| ServiceError::Spec {
                name: name.to_string(),
                source: Box::new(source),
            })?;
            let server = LaneServer::start(&spec).map_err(|source| ServiceError::Start {
                name: name.to_string(),
                source,
            })?;
            ctx.note(
                step,
                format!(
                    "service {name} accepts on port {} after {:.0} ms",
                    service.port, server.accept_ms
                ),
            );
            self.services.insert(name.to_string(), server);
        }
        Ok(())
    }
}

/// Why a taken port is not the service.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PortTakenWhy {
    #[error("and the service gives no way to know what answers there (`answers`)")]
    Unknowable,
    #[error("and what answers there is not {name}: sent {sent}, it answered {answered}")]
    Other {
        name: String,
        sent: String,
        answered: String,
    },
}

/// Whether something already accepts on the service's port: `None` where
/// nothing does; else whether it is the service (how it answered) or not.
fn already_running(service: &reprise_recipe::Service) -> Option<Result<String, PortTakenWhy>> {
    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), service.port);
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_millis(500)).ok()?;
    let Some(answers) = &service.answers else {
        return Some(Err(PortTakenWhy::Unknowable));
    };
    let shown = |s: &str| format!("`{}`", s.escape_default());
    let answered = exchange(&mut stream, answers);
    Some(match answered {
        Ok(text) if text.starts_with(&answers.expect) => Ok(format!(
            "{} answered {}",
            shown(&answers.send),
            shown(&answers.expect)
        )),
        Ok(text) => Err(PortTakenWhy::Other {
            name: service.name.to_string(),
            sent: shown(&answers.send),
            answered: shown(&text),
        }),
        Err(e) => Err(PortTakenWhy::Other {
            name: service.name.to_string(),
            sent: shown(&answers.send),
            answered: format!("nothing ({e})"),
        }),
    })
}

/// Sends `answers.send`, a line, and reads what comes back until the expected
/// answer's length is in, the peer closes, or two seconds pass.
fn exchange(stream: &mut TcpStream, answers: &reprise_recipe::Exchange) -> std::io::Result<String> {
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.set_write_timeout(Some(Duration::from_secs(2)))?;
    stream.write_all(format!("{}\r\n", answers.send).as_bytes())?;
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    while got.len() < answers.expect.len() {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if got.is_empty() => return Err(e),
            Err(_) => break,
        }
    }
    got.truncate(answers.expect.len().max(64));
    Ok(String::from_utf8_lossy(&got).into_owned())
}

/// How a `[[service]]` starts: on the host, in its own process group,
/// with the run's toolchain environment, ready once its port accepts.
fn service_spec(
    ctx: &RunContext,
    service: &reprise_recipe::Service,
) -> Result<ServerSpec, StepFailure> {
    let dir = match &service.dir {
        Some(d) => within(&ctx.run.path, d)?,
        None => ctx.run.path.clone(),
    };
    let mut env = ctx.toolchain_env.clone();
    env.extend(service.env.clone());
    env.insert("REPRISE_RUN_DIR".into(), ctx.run.path.display().to_string());
    Ok(ServerSpec {
        address: IpAddr::V4(Ipv4Addr::LOCALHOST),
        lane: format!("service {}", service.name),
        argv: service.command.clone(),
        dir,
        env,
        port: service.port,
        health: None,
        boot_budget: service
            .boot_budget
            .map(|b| b.as_duration())
            .unwrap_or(Duration::from_secs(10)),
        cpus: None,
        log: ctx.run.log(&format!("service-{}", service.name))?,
        grace: ctx.grace,
        container: None,
        processes: Some(ctx.processes()),
    })
}
