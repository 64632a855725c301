//! What a reader accepts before a run: every command the run will execute
//! (steps, lanes, toolchain version questions), every environment variable
//! it sets, every file it writes from the recipe and every request it sends,
//! each shown escaped so that nothing in a recipe can redraw the terminal or
//! reorder text on the page.

use std::collections::BTreeMap;

use reprise_recipe::shown::{command_line, env_assignment, escaped};
use reprise_recipe::{Action, Placement, Recipe};
use serde::Serialize;

use crate::lanes::placement::LaneHost;
use crate::run::plan::Plan;
use crate::run::steps::kind;

/// Everything a run executes, writes and requests, as the reader sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Consent {
    /// The recipe's steps in the order they run.
    pub steps: Vec<ConsentStep>,
    /// The lanes' servers the run starts.
    pub lanes: Vec<ConsentLane>,
    /// The `[[service]]`s those lanes need, which the run starts and stops.
    pub services: Vec<ConsentService>,
    /// The commands asked for a version before the first lane starts (a
    /// toolchain's `command`).
    pub version_commands: Vec<String>,
    /// The commands that record the machine into the results' `env.json`
    /// when a load step runs, the ones the original harness's bench-env
    /// runs (uname, lscpu, each of its tools' version flags, git, …).
    pub records_machine: Vec<String>,
    /// Files the recipe writes into the run's `files/` folder.
    pub files: Vec<ConsentFile>,
    /// Requests sent to the lanes: `GET /rooms/1` per endpoint, and the
    /// people model's paths.
    pub requests: Vec<String>,
    /// Where the lanes and those requests go: `127.0.0.1`, or the server
    /// host's address.
    pub lane_address: String,
    /// `--server-host`: the other machine's engine the lanes run on, as
    /// a sentence; `None` on one machine.
    pub server_host: Option<String>,
    /// The variables Reprise signs in to GitHub with, which every command
    /// (step, lane, service, version) runs without unless the recipe sets
    /// one itself ([`reprise_spawn::SIGN_IN_VARIABLES`]).
    pub withheld: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ConsentStep {
    pub id: String,
    pub kind: String,
    /// What it does, the command where it runs one.
    pub does: String,
    /// `NAME=value` it sets for its command.
    pub env: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ConsentLane {
    pub name: String,
    /// The server's command line, with where it runs (the folder, or the
    /// container image).
    pub command: String,
    pub env: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ConsentService {
    pub name: String,
    /// Its command line, with its folder and port.
    pub command: String,
    pub env: Vec<String>,
    /// Whether the run starts it or uses this machine's own, as a reader
    /// reads it: `started for the run, stopped after`.
    pub lifecycle: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ConsentFile {
    /// Under the run's `files/`.
    pub path: String,
    pub lines: usize,
    /// Whether its first line is a `#!` line: a script a step may execute.
    pub script: bool,
}

fn env_lines(env: &BTreeMap<String, String>) -> Vec<String> {
    env.iter().map(|(k, v)| env_assignment(k, v)).collect()
}

impl Consent {
    /// What running `plan` executes, writes and requests, with its lanes
    /// served on `host`.
    pub fn of(plan: &Plan, recipe: &Recipe, host: &LaneHost) -> Consent {
        let mut consent = Consent {
            lane_address: host.address().to_string(),
            server_host: host.consent(),
            withheld: reprise_spawn::SIGN_IN_VARIABLES
                .iter()
                .map(|v| v.to_string())
                .collect(),
            ..Consent::default()
        };
        let mut workloads: Vec<&str> = Vec::new();
        for p in &plan.steps {
            let env = p.step.action.env().map(env_lines).unwrap_or_default();
            if let Some(workload) = p.step.action.workload()
                && !workloads.contains(&workload.as_str())
            {
                workloads.push(workload.as_str());
            }
            consent.steps.push(ConsentStep {
                id: escaped(p.id()).into_owned(),
                kind: p.kind().name().to_string(),
                does: p.describe(recipe),
                env,
            });
        }
        let serves = plan.steps.iter().any(|p| kind(&p.step.action).serves());
        if serves {
            for lane in recipe
                .lanes
                .iter()
                .filter(|l| plan.lanes.iter().any(|n| *n == l.name.as_str()))
            {
                if lane.command.is_none() {
                    continue;
                }
                let mut line = command_line(&host.lane_command(lane));
                match (&lane.placement, &lane.image, &lane.dir) {
                    (Placement::Container, Some(image), _) => {
                        line = format!("in a container of {}: {line}", escaped(image));
                    }
                    (_, _, Some(dir)) => line = format!("in {}: {line}", escaped(dir)),
                    _ => {}
                }
                if let Some(port) = lane.port {
                    line.push_str(&format!(" (port {port})"));
                }
                let mut env = env_lines(&lane.env);
                // What the run adds to the environment is shown too.
                env.extend(crate::lanes::allocator::consent_line(lane));
                env.extend(crate::lanes::shape::consent_lines(lane));
                consent.lanes.push(ConsentLane {
                    name: escaped(&lane.name).into_owned(),
                    command: line,
                    env,
                });
                for name in &lane.services {
                    let Some(service) = recipe.service(name) else {
                        continue;
                    };
                    if consent.services.iter().any(|s| s.name == escaped(name)) {
                        continue;
                    }
                    let mut line = command_line(&service.command);
                    if let Some(dir) = &service.dir {
                        line = format!("in {}: {line}", escaped(dir));
                    }
                    line.push_str(&format!(" (port {})", service.port));
                    let started = "started for the run, stopped after";
                    let lifecycle = match &service.answers {
                        Some(answers) => format!(
                            "this machine's own where one already answers on port {} ({} → {}), used and left running; else {started}",
                            service.port,
                            escaped(&answers.send),
                            escaped(&answers.expect)
                        ),
                        None => started.to_string(),
                    };
                    consent.services.push(ConsentService {
                        name: escaped(name).into_owned(),
                        command: line,
                        env: env_lines(&service.env),
                        lifecycle,
                    });
                }
            }
            consent.version_commands = recipe
                .toolchains
                .iter()
                .map(|t| command_line(&t.command))
                .collect();
        }
        if plan
            .steps
            .iter()
            .any(|p| matches!(p.step.action, Action::Load(_)))
        {
            consent.records_machine = reprise_harness_files::bench_env::commands();
        }
        for file in &recipe.files {
            consent.files.push(ConsentFile {
                path: escaped(&file.path).into_owned(),
                lines: file.content.lines().count(),
                script: file.content.starts_with("#!"),
            });
        }
        for name in workloads {
            let Some(workload) = recipe.workloads.iter().find(|w| w.name == name) else {
                continue;
            };
            for e in &workload.endpoints {
                let request = format!(
                    "{} {}{}",
                    escaped(&e.method),
                    escaped(&e.path),
                    e.body
                        .as_ref()
                        .map(|b| format!(" with a body of {} bytes", b.len()))
                        .unwrap_or_default()
                );
                // Each request once, however many endpoints make it (a
                // people workload opens a room, then returns to it).
                if !consent.requests.contains(&request) {
                    consent.requests.push(request);
                }
            }
            if let Some(people) = &workload.people {
                consent.requests.push(format!(
                    "people: sign-in or minted sessions, room pages, /cable subscriptions and posts in {} rooms{}",
                    people.rooms,
                    people
                        .verify_writes
                        .as_ref()
                        .map(|p| format!(", then GET {}", escaped(p)))
                        .unwrap_or_default()
                ));
            }
        }
        consent
    }

    /// The consent as lines for a terminal, indented under a plan.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "  runs every command without {} (Reprise's sign-in to GitHub) unless the recipe sets one",
            self.withheld.join(", ")
        )];
        for step in &self.steps {
            for env in &step.env {
                lines.push(format!("  step {} sets {env}", step.id));
            }
        }
        if let Some(host) = &self.server_host {
            lines.push(format!("  {host}"));
        }
        for lane in &self.lanes {
            lines.push(format!("  lane {} runs: {}", lane.name, lane.command));
            for env in &lane.env {
                lines.push(format!("       with {env}"));
            }
        }
        for service in &self.services {
            lines.push(format!(
                "  service {} runs ({}): {}",
                service.name, service.lifecycle, service.command
            ));
            for env in &service.env {
                lines.push(format!("       with {env}"));
            }
        }
        if !self.version_commands.is_empty() {
            lines.push("  asks each toolchain its version:".into());
            for c in &self.version_commands {
                lines.push(format!("       {c}"));
            }
        }
        if !self.records_machine.is_empty() {
            lines
                .push("  records the machine in env.json, as the harness's bench-env does:".into());
            lines.push(format!("       {}", self.records_machine.join(", ")));
        }
        for file in &self.files {
            lines.push(format!(
                "  writes files/{} ({} line{}{})",
                file.path,
                file.lines,
                if file.lines == 1 { "" } else { "s" },
                if file.script { ", a script" } else { "" }
            ));
        }
        if !self.requests.is_empty() {
            lines.push(format!(
                "  requests (to its own lanes on {} only):",
                self.lane_address
            ));
            for r in &self.requests {
                lines.push(format!("       {r}"));
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each request a published recipe's run makes is listed once: one two
    /// endpoints make (campfire-people opens a room, then returns to it)
    /// is one thing the reader accepts.
    #[test]
    fn a_published_recipe_s_consent_lists_each_request_once() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let recipe = reprise_recipe::load(&path).unwrap();
            let plan = crate::run::plan::plan(&recipe, &Default::default()).unwrap();
            let requests = Consent::of(&plan, &recipe, &LaneHost::ThisMachine).requests;
            let mut seen = std::collections::BTreeSet::new();
            for request in &requests {
                assert!(
                    seen.insert(request),
                    "{}: listed twice: {request}",
                    path.display()
                );
            }
            checked += 1;
        }
        assert!(checked >= 8, "{checked} recipes");
    }
}
