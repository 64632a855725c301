//! Running version queries: all at once, each in its own process group, each
//! killed (with its children) at the timeout.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{Origin, Status, ToolProbe, ToolQuery, banner};

pub(super) fn ask_all(
    jobs: Vec<(ToolQuery, PathBuf, Origin)>,
    path_env: &OsStr,
    timeout: Duration,
) -> Vec<ToolProbe> {
    if jobs.is_empty() {
        return Vec::new();
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            return jobs
                .into_iter()
                .map(|(q, p, o)| probe_result(&q, p, o, Status::Failed, Some(e.to_string())))
                .collect();
        }
    };
    runtime.block_on(async {
        let mut set = tokio::task::JoinSet::new();
        for (index, (query, path, origin)) in jobs.into_iter().enumerate() {
            let path_env = path_env.to_os_string();
            set.spawn(async move {
                (
                    index,
                    ask_one(query, path, origin, &path_env, timeout).await,
                )
            });
        }
        let mut done = Vec::new();
        while let Some(joined) = set.join_next().await {
            if let Ok(pair) = joined {
                done.push(pair);
            }
        }
        done.sort_by_key(|(i, _)| *i);
        done.into_iter().map(|(_, p)| p).collect()
    })
}

fn probe_result(
    query: &ToolQuery,
    path: PathBuf,
    origin: Origin,
    status: Status,
    error: Option<String>,
) -> ToolProbe {
    ToolProbe {
        tool: query.tool.clone(),
        path: Some(path),
        origin: Some(origin),
        status,
        first_line: None,
        banner: None,
        error,
        elapsed_ms: 0,
        output: String::new(),
    }
}

async fn ask_one(
    query: ToolQuery,
    path: PathBuf,
    origin: Origin,
    path_env: &OsStr,
    timeout: Duration,
) -> ToolProbe {
    let started = Instant::now();
    // The tool's own bin dir first, so a mise install's `bundle` finds its own `ruby`.
    let child_path = std::env::join_paths(
        path.parent()
            .map(PathBuf::from)
            .into_iter()
            .chain(std::env::split_paths(path_env)),
    )
    .unwrap_or_else(|_| path_env.to_os_string());
    let mut command = std::process::Command::new(&path);
    command
        .args(&query.args)
        .env("PATH", child_path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Started the one way every child is (a group of its own, killed with
    // Reprise), then waited for without blocking.
    reprise_spawn::own_group(&mut command);
    let mut command = tokio::process::Command::from(command);
    command.kill_on_drop(true);
    let mut probe = probe_result(&query, path, origin, Status::Failed, None);
    let child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            probe.error = Some(format!("could not start: {e}"));
            return probe;
        }
    };
    let pid = child.id();
    let outcome = tokio::time::timeout(timeout, child.wait_with_output()).await;
    probe.elapsed_ms = started.elapsed().as_millis() as u64;
    match outcome {
        Err(_) => {
            if let Some(pid) = pid {
                // The process group this query created, as every spawn ends one.
                reprise_spawn::signal_group(pid, libc::SIGKILL);
            }
            probe.status = Status::TimedOut;
            probe.error = Some(format!("no answer within {:.1} s", timeout.as_secs_f64()));
        }
        Ok(Err(e)) => probe.error = Some(format!("could not read its output: {e}")),
        Ok(Ok(output)) => {
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let mut whole = format!("{stdout}{stderr}");
            if whole.len() > 8192 {
                let cut = (0..=8192)
                    .rev()
                    .find(|i| whole.is_char_boundary(*i))
                    .unwrap_or(0);
                whole.truncate(cut);
            }
            probe.output = whole;
            // JVMs print `Picked up JAVA_TOOL_OPTIONS: …` ahead of their banner.
            let lines: Vec<&str> = stdout
                .lines()
                .chain(stderr.lines())
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("Picked up "))
                .collect();
            let parsed = lines
                .iter()
                .find_map(|l| banner::parse(&query.tool, l).map(|b| (*l, b)));
            match parsed {
                Some((line, b)) => {
                    probe.status = Status::Answered;
                    probe.first_line = Some(line.to_string());
                    probe.banner = Some(b);
                }
                None => {
                    probe.first_line = lines.first().map(|l| l.to_string());
                    if output.status.success() && !lines.is_empty() {
                        probe.status = Status::Answered;
                    } else {
                        probe.error = Some(format!(
                            "exited with {} printing {}",
                            output.status,
                            lines.first().map_or("nothing".into(), |l| format!("`{l}`"))
                        ));
                    }
                }
            }
        }
    }
    probe
}
