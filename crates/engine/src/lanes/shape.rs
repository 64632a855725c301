//! The shape a lane's server was asked for on this machine and the one it
//! took: how many CPUs it may use, its workers and threads. A server that
//! sizes itself to the machine (Campfire's `config/puma.rb` forks
//! `(processor_count * 0.666).ceil` workers; the JVM sizes its pools to its
//! processors) counts the CPUs it is placed on, so a recipe gives the others
//! the same count (`workers = { per_cpu = 0.666 }`) and the run records what
//! each server then ran (`results/shapes.json`): a claim the post made
//! between lanes of one shape is judged only where they ran one shape here.
//! The posts' harness echoes what it asked for; here the processes are read.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use reprise_harness_files::records::ShapeSeen;
use reprise_recipe::{Count, Lane};

use super::server_process::LaneServer;
use crate::os::processes::ProcStat;

/// How many CPUs a server on `cpus` may use: those, or every CPU this
/// process may use where the server is not pinned.
pub fn cpu_count(cpus: &Option<Vec<usize>>) -> usize {
    cpus.as_ref()
        .map_or_else(|| reprise_cpus::allowed_cpus().len(), Vec::len)
        .max(1)
}

/// What `lane`'s server is given on `cpus`: its workers and threads, each
/// resolved against the CPUs it may use.
pub fn asked(lane: &Lane, cpus: &Option<Vec<usize>>) -> (Option<u32>, Option<u32>) {
    let n = cpu_count(cpus);
    (lane.workers.map(|w| w.on(n)), lane.threads.map(|t| t.on(n)))
}

/// How the plan shows what a lane's per-CPU counts add to its server's
/// environment, before anything runs, where its `env` does not set the
/// variable: `WEB_CONCURRENCY=… (0.666 per CPU it is placed on, rounded up)`.
/// The number is the run's to say (its log, `shapes.json`).
pub fn consent_lines(lane: &Lane) -> Vec<String> {
    [
        ("WEB_CONCURRENCY", lane.workers),
        ("RAILS_MAX_THREADS", lane.threads),
    ]
    .into_iter()
    .filter(|(key, _)| !lane.env.contains_key(*key))
    .filter_map(|(key, count)| match count? {
        Count::PerCpu { per_cpu } => Some(format!(
            "{key}=… ({per_cpu} per CPU it is placed on, rounded up)"
        )),
        Count::Fixed(_) => None,
    })
    .collect()
}

/// What `lane`'s server, just up on `cpus`, was given and runs.
pub fn seen(lane: &Lane, server: &LaneServer, cpus: &Option<Vec<usize>>) -> ShapeSeen {
    let (workers_asked, threads_asked) = asked(lane, cpus);
    // A forking server answers once its first worker is up; the rest were
    // forked with it, but on a busy machine one may come a moment later.
    let deadline = Instant::now() + Duration::from_secs(3);
    let (mut processes, mut workers_seen);
    loop {
        processes = server.processes();
        workers_seen = serving_processes(&processes);
        let short = match (workers_asked, workers_seen) {
            (Some(asked), Some(seen)) => seen < asked,
            (_, None) => !processes.is_empty(),
            _ => false,
        };
        if !short || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    ShapeSeen {
        lane: lane.name.to_string(),
        cpus: cpu_count(cpus),
        workers_asked,
        threads_asked,
        cpus_seen: processes.first().copied().and_then(allowed_cpus_of),
        workers_seen,
    }
}

/// The CPUs process `pid` may run on, from `/proc/PID/status`.
fn allowed_cpus_of(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?
        .trim();
    reprise_probe::parse_cpu_list(list).map(|cpus| cpus.len())
}

/// How many of `pids` serve a port: for each listening TCP port of theirs,
/// the processes holding one of its sockets that have no child among them
/// (Puma's master binds and forks its workers, which inherit the socket;
/// servers that bind each worker's own socket with SO_REUSEPORT count
/// alike); the most on any one port (a proxy in front, like Thruster, holds
/// its own port alone). `None` where none of them is seen listening.
fn serving_processes(pids: &[u32]) -> Option<u32> {
    let listening = listening_sockets();
    let mut holders: BTreeMap<u16, BTreeSet<u32>> = BTreeMap::new();
    for &pid in pids {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            let Ok(target) = std::fs::read_link(fd.path()) else {
                continue;
            };
            let inode = target
                .to_str()
                .and_then(|t| t.strip_prefix("socket:["))
                .and_then(|t| t.strip_suffix(']'))
                .and_then(|t| t.parse::<u64>().ok());
            if let Some(port) = inode.and_then(|i| listening.get(&i)) {
                holders.entry(*port).or_default().insert(pid);
            }
        }
    }
    let parent = |pid: u32| ProcStat::read(pid).map(|s| s.ppid);
    holders
        .values()
        .map(|pids| {
            let parents: BTreeSet<u32> = pids.iter().filter_map(|&p| parent(p)).collect();
            pids.iter().filter(|p| !parents.contains(p)).count() as u32
        })
        .max()
}

/// Listening TCP sockets on this machine (IPv4 and IPv6), by inode, with
/// their ports.
fn listening_sockets() -> BTreeMap<u64, u16> {
    let mut found = BTreeMap::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            let (Some(local), Some(state), Some(inode)) =
                (fields.get(1), fields.get(3), fields.get(9))
            else {
                continue;
            };
            if *state != "0A" {
                continue;
            }
            let port = local
                .rsplit(':')
                .next()
                .and_then(|p| u16::from_str_radix(p, 16).ok());
            if let (Some(port), Ok(inode)) = (port, inode.parse::<u64>()) {
                found.insert(inode, port);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::server_process::group_members;
    use std::net::TcpListener;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    #[test]
    fn a_forking_server_counts_its_workers_not_its_master() {
        // A listening socket inherited by three children, as Puma's master
        // hands its socket to its workers: the master and three workers hold
        // it; three serve. Real processes, read through /proc.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&listener);
        let mut master = unsafe {
            Command::new("bash")
                .args(["-c", "sleep 30 & sleep 30 & sleep 30 & wait"])
                .pre_exec(move || {
                    // Keep the socket open across exec.
                    let flags = libc::fcntl(fd, libc::F_GETFD);
                    libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
                    libc::setpgid(0, 0);
                    Ok(())
                })
                .spawn()
                .unwrap()
        };
        let pgid = master.id();
        let mut members = Vec::new();
        for _ in 0..100 {
            members = group_members(pgid);
            if members.len() == 4 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        drop(listener);
        let served = serving_processes(&members);
        unsafe { libc::kill(-(pgid as i32), libc::SIGKILL) };
        let _ = master.wait();
        assert_eq!(members.len(), 4, "{members:?}");
        assert_eq!(served, Some(3));
        // A process that listens on nothing serves no port.
        let mut idle = Command::new("sleep").arg("30").spawn().unwrap();
        let none = serving_processes(&[idle.id()]);
        let _ = idle.kill();
        let _ = idle.wait();
        assert_eq!(none, None);
    }

    #[test]
    fn the_plan_shows_a_per_cpu_count_the_run_adds_and_not_one_env_sets() {
        let recipe = |env: &str| {
            reprise_recipe::parse(
                "recipes/c.toml".as_ref(),
                &format!(
                    "[post]\nid = \"c\"\ntitle = \"C\"\nauthor = \"A\"\ndate = \"2026\"\nsummary = \"S.\"\n\n[[lane]]\nname = \"ruby\"\ncommand = [\"puma\"]\nworkers = {{ per_cpu = 0.666 }}\nthreads = 5\n{env}why = \"W.\"\n"
                ),
            )
            .unwrap()
        };
        let given = recipe("");
        assert_eq!(
            consent_lines(&given.lanes[0]),
            ["WEB_CONCURRENCY=… (0.666 per CPU it is placed on, rounded up)"]
        );
        let fixed = recipe("env = { WEB_CONCURRENCY = \"3\" }\n");
        assert!(consent_lines(&fixed.lanes[0]).is_empty());
    }

    #[test]
    fn the_cpus_of_this_process_are_read_as_the_kernel_lists_them() {
        assert_eq!(
            allowed_cpus_of(std::process::id()),
            Some(reprise_cpus::allowed_cpus().len())
        );
    }
}
