//! The loopback ceiling: the built-in reference server on half the allowed
//! CPUs, Reprise's load generator on the other half, several runs; the
//! machine's own "hello-world ceiling" with its median and spread.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use reprise_loadgen::{LoadSpec, ResponseChecks, StopHandle, Targets};
use reprise_recipe::reading::{number, percent};
use reprise_verdict::{coefficient_of_variation, median};
use serde::{Deserialize, Serialize};

use crate::ValidateError;
use crate::reference_server::{BODY, ReferenceServer};

/// How the ceiling is measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CeilingPlan {
    pub runs: usize,
    pub connections: usize,
    pub duration: Duration,
    pub warmup: Duration,
}

/// Which CPUs serve and which load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Split {
    pub server_cpus: Vec<usize>,
    pub client_cpus: Vec<usize>,
    /// False on one CPU: both sides unpinned, sharing it.
    pub pinned: bool,
}

impl Split {
    /// The first half of the allowed CPUs serve, the rest load; one CPU (or
    /// none known) gives an unpinned split.
    pub fn of(cpus: &[usize]) -> Split {
        Split::by_core(cpus, |cpu| vec![cpu])
    }

    /// Like [`Split::of`], but SMT siblings (`siblings(cpu)`: the CPUs sharing
    /// its physical core) stay on one side, so the server and the load
    /// generator never share a core. With a single core, its threads split.
    pub fn by_core(cpus: &[usize], siblings: impl Fn(usize) -> Vec<usize>) -> Split {
        if cpus.len() < 2 {
            return Split {
                server_cpus: Vec::new(),
                client_cpus: Vec::new(),
                pinned: false,
            };
        }
        let mut cores: Vec<Vec<usize>> = Vec::new();
        for &cpu in cpus {
            if cores.iter().any(|core| core.contains(&cpu)) {
                continue;
            }
            let mut core: Vec<usize> = siblings(cpu)
                .into_iter()
                .filter(|c| cpus.contains(c))
                .collect();
            if !core.contains(&cpu) {
                core.push(cpu);
            }
            core.sort_unstable();
            cores.push(core);
        }
        let (mut server, mut client): (Vec<usize>, Vec<usize>) = if cores.len() < 2 {
            let half = cpus.len() / 2;
            (cpus[..half].to_vec(), cpus[half..].to_vec())
        } else {
            let half = cores.len() / 2;
            (cores[..half].concat(), cores[half..].concat())
        };
        server.sort_unstable();
        client.sort_unstable();
        Split {
            server_cpus: server,
            client_cpus: client,
            pinned: true,
        }
    }

    /// The split of this machine's `cpus`, keeping SMT siblings together as
    /// `/sys/devices/system/cpu/cpuN/topology/thread_siblings_list` says.
    pub fn for_machine(cpus: &[usize]) -> Split {
        Split::by_core(cpus, |cpu| {
            std::fs::read_to_string(format!(
                "/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
            ))
            .ok()
            .and_then(|text| reprise_probe::parse_cpu_list(&text))
            .map_or_else(
                || vec![cpu],
                |list| list.into_iter().map(|c| c as usize).collect(),
            )
        })
    }

    /// How the split reads in a report.
    pub fn describe(&self) -> String {
        if self.pinned {
            format!(
                "server on CPU {}, load generator on CPU {}",
                reprise_probe::format_cpu_list(&as_u32(&self.server_cpus)),
                reprise_probe::format_cpu_list(&as_u32(&self.client_cpus))
            )
        } else {
            "server and load generator unpinned, sharing one CPU".to_string()
        }
    }
}

fn as_u32(cpus: &[usize]) -> Vec<u32> {
    cpus.iter().map(|&c| c as u32).collect()
}

/// One measured run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CeilingRun {
    /// `None` when any request failed (no data).
    pub req_per_s: Option<f64>,
    pub requests: u64,
    pub errors: u64,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
}

/// The loopback ceiling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ceiling {
    pub split: Split,
    pub connections: usize,
    pub duration_s: f64,
    pub body_bytes: usize,
    pub runs: Vec<CeilingRun>,
    /// Over the runs with data; `None` when none had.
    pub median_req_per_s: Option<f64>,
    pub min_req_per_s: Option<f64>,
    pub max_req_per_s: Option<f64>,
    /// Coefficient of variation between the runs with data; `None` under
    /// two such runs (one value has no spread).
    pub cv: Option<f64>,
}

impl Ceiling {
    fn from_runs(split: Split, plan: &CeilingPlan, runs: Vec<CeilingRun>) -> Ceiling {
        let values: Vec<f64> = runs.iter().filter_map(|r| r.req_per_s).collect();
        let some = !values.is_empty();
        Ceiling {
            split,
            connections: plan.connections,
            duration_s: plan.duration.as_secs_f64(),
            body_bytes: BODY.len(),
            median_req_per_s: some.then(|| median(&values)),
            min_req_per_s: values.iter().copied().reduce(f64::min),
            max_req_per_s: values.iter().copied().reduce(f64::max),
            cv: (values.len() >= 2).then(|| coefficient_of_variation(&values)),
            runs,
        }
    }

    /// The runs with data, those the median is over.
    pub fn runs_with_data(&self) -> usize {
        self.runs.iter().filter(|r| r.req_per_s.is_some()).count()
    }

    /// The spread between the runs with data (their coefficient of
    /// variation); `None` under two such runs, whatever a profile saved
    /// before this rule says.
    pub fn spread(&self) -> Option<f64> {
        self.cv.filter(|_| self.runs_with_data() >= 2)
    }

    /// The spread as every reading of the ceiling says it: `spread 1.2%`,
    /// or that one run has none to read.
    pub fn spread_words(&self) -> String {
        match self.spread() {
            Some(cv) => format!("spread {}", percent(cv)),
            None => "no spread to read".into(),
        }
    }

    /// The ceiling in one line, as the CLI and the app both show it:
    /// `74,210 req/s median over 3 runs, spread 1.2%`; `74,210 req/s median
    /// over 1 run, no spread to read`; or that no run had data.
    pub fn reading(&self) -> String {
        match self.median_req_per_s {
            Some(median) => format!(
                "{} req/s median over {}, {}",
                number(median),
                count(self.runs_with_data(), "run"),
                self.spread_words()
            ),
            None => "no data (no run answered every request)".into(),
        }
    }
}

/// `1 run`, `3 runs`.
fn count(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// Starts the reference server on the split's server CPUs and loads it from
/// the client CPUs, `plan.runs` times; `each_run` hears every run as it ends.
///
/// Server and load generator share this process, so under the kernel's
/// sched_autogroup they share one scheduling group: when another session
/// competes for the server's CPU, the server gets less of it than a server
/// in its own session would, and the ceiling reads lower. A quiet machine is
/// unaffected, and a busy one is flagged by the background-load check.
pub fn measure(
    plan: &CeilingPlan,
    split: &Split,
    mut each_run: impl FnMut(usize, &CeilingRun),
) -> Result<Ceiling, ValidateError> {
    let server = ReferenceServer::start(
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        &split.server_cpus,
    )?;
    let mut spec = LoadSpec::new(server.url());
    spec.targets = Targets::Only(server.addr());
    spec.connections = plan.connections;
    spec.duration = plan.duration;
    spec.warmup = plan.warmup;
    // One worker per client CPU, never more workers than connections.
    spec.threads = split.client_cpus.len().clamp(1, plan.connections.max(1));
    spec.cpus = split.pinned.then(|| split.client_cpus.clone());
    spec.checks = ResponseChecks {
        status: Some(200),
        bytes: Some(BODY.len() as u64),
        ..ResponseChecks::default()
    };
    // `reprise validate` takes no signal: Ctrl-C ends the process, server and load alike.
    let stop = StopHandle::default();
    let mut runs = Vec::with_capacity(plan.runs);
    for n in 0..plan.runs {
        let report = reprise_loadgen::run_until(&spec, &stop, |_| {})?;
        let run = CeilingRun {
            req_per_s: report.req_per_s,
            requests: report.requests,
            errors: report.errors.total(),
            p50_ms: report.latency.as_ref().map(|l| l.p50),
            p99_ms: report.latency.as_ref().map(|l| l.p99),
        };
        each_run(n + 1, &run);
        runs.push(run);
    }
    server.stop();
    Ok(Ceiling::from_runs(split.clone(), plan, runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_half_serves_and_the_rest_loads() {
        let split = Split::of(&[0, 1, 2, 3, 4]);
        assert_eq!(split.server_cpus, vec![0, 1]);
        assert_eq!(split.client_cpus, vec![2, 3, 4]);
        assert_eq!(
            split.describe(),
            "server on CPU 0-1, load generator on CPU 2-4"
        );
        // SMT: CPU n and n + 4 share a core; each side gets whole cores.
        let smt = Split::by_core(&[0, 1, 2, 3, 4, 5, 6, 7], |c| vec![c % 4, c % 4 + 4]);
        assert_eq!(smt.server_cpus, vec![0, 1, 4, 5]);
        assert_eq!(smt.client_cpus, vec![2, 3, 6, 7]);
        // One core with two threads: its threads split.
        let one_core = Split::by_core(&[0, 1], |_| vec![0, 1]);
        assert_eq!(
            (one_core.server_cpus, one_core.client_cpus),
            (vec![0], vec![1])
        );
        let one = Split::of(&[3]);
        assert!(!one.pinned);
        assert_eq!(
            one.describe(),
            "server and load generator unpinned, sharing one CPU"
        );
    }
}
