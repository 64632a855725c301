//! The `[[service]]`s lanes need beside them (Redis for stock Campfire):
//! started before the first lane that names one, shared by every lane that
//! does, stopped after the lanes (`Lanes::stop_all`).

use std::net::{IpAddr, Ipv4Addr};
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
            if let Some(mut old) = self.services.remove(name.as_str())
                && let Err(e @ ServerError::Escaped { .. }) = old.stop()
            {
                ctx.escaped(step, format!("service {name}: {e}"), Vec::new())
                    .map_err(|e| ServiceError::Record(Box::new(e)))?;
            }
            let Some(service) = self.service_specs.iter().find(|s| s.name == *name).cloned() else {
                return Err(ServiceError::NoService(name.to_string()));
            };
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
