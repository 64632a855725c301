//! Runs one program in a container through the Docker Engine API (bollard;
//! `DOCKER_HOST` or the default socket; Podman's API service works): create
//! from an image, bind mounts, environment, CPU set, memory limit, a
//! published loopback port or the host network; logs streamed line by line;
//! stop on timeout or cancel; always removed. Every container is labelled
//! with its run id, so what a crashed run left behind can be found and removed.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bollard::Docker;
use bollard::container::LogOutput;
use bollard::models::{ContainerCreateBody, HostConfig, PortBinding};
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, ListContainersOptionsBuilder, LogsOptionsBuilder,
    RemoveContainerOptionsBuilder, StatsOptionsBuilder, StopContainerOptionsBuilder,
    UploadToContainerOptionsBuilder,
};
use futures_util::StreamExt;
use reprise_probe::container_engine::EngineEndpoint;

use crate::event::{CancelToken, Event, EventSink, Stream};
use crate::os::runner::host::Ending;

/// The label every Reprise container carries: the run it belongs to.
pub const RUN_LABEL: &str = "reprise.run";

/// How a container reaches the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Network {
    /// The engine's default network, nothing published.
    Default,
    /// The host's network namespace.
    Host,
    /// `127.0.0.1:host` on the host forwards to `container`/tcp.
    Publish { host: u16, container: u16 },
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct ContainerSpec {
    /// The step (or lane) this container belongs to; events carry it.
    pub step: String,
    pub run_id: String,
    pub image: String,
    /// Program and arguments; never a shell string.
    pub argv: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// Host folder, path in the container, read-only.
    pub binds: Vec<(PathBuf, String, bool)>,
    /// Host folders copied into the container at a path before it starts:
    /// how files reach an engine on another machine.
    pub copies: Vec<(PathBuf, String)>,
    pub workdir: Option<String>,
    /// CPUs the container may use, e.g. `"0"` or `"0-1"`.
    pub cpuset: Option<String>,
    pub memory_mb: Option<u64>,
    pub network: Network,
    pub timeout: Option<Duration>,
    /// Seconds between the stop signal and SIGKILL (rounded up to whole seconds).
    pub grace: Duration,
    pub log: Option<crate::os::run_files::RunFile>,
    /// Told the moment the container is started, after its copies are in:
    /// a lane's boot is timed from there, not from the upload.
    pub started: Option<std::sync::mpsc::Sender<Instant>>,
    /// What it prints is the answer (a probe, a version): its whole log,
    /// read once it stopped, is the outcome's `output`, however much it
    /// printed. (Every container's live lines are completed from that log
    /// where they were a prefix of it, up to a bound.)
    pub read_output: bool,
}

impl ContainerSpec {
    pub fn new(step: &str, run_id: &str, image: &str, argv: Vec<String>) -> Self {
        ContainerSpec {
            step: step.to_string(),
            run_id: run_id.to_string(),
            image: image.to_string(),
            argv,
            env: BTreeMap::new(),
            binds: Vec::new(),
            copies: Vec::new(),
            workdir: None,
            cpuset: None,
            memory_mb: None,
            network: Network::Default,
            timeout: None,
            grace: Duration::from_secs(2),
            log: None,
            started: None,
            read_output: false,
        }
    }
}

/// How a container ended.
#[derive(Clone, Debug)]
pub struct ContainerOutcome {
    pub ending: Ending,
    pub code: Option<i64>,
    pub duration: Duration,
    /// The container's id (it has been removed).
    pub id: String,
    /// Where the spec asked to [read its output](ContainerSpec::read_output):
    /// every line it printed, from its whole log once it stopped, stdout's
    /// then stderr's.
    pub output: Vec<(Stream, String)>,
}

/// Why a container could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ContainerError {
    #[error("no container engine answers at {host}: {message}")]
    Unreachable { host: String, message: String },
    #[error("container engine: {0}")]
    Engine(#[from] bollard::errors::Error),
    #[error("step `{step}` has an empty command")]
    EmptyCommand { step: String },
    #[error("a bind mount's host folder must be absolute: {}", .0.display())]
    RelativeBind(PathBuf),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("log file {}: {source}", file.display())]
    Log {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot copy {} into the container: {source}", folder.display())]
    Copy {
        folder: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot pull {image}: {message}")]
    Pull { image: String, message: String },
    #[error("the image {image} is not the one its digest pins: the engine has {found}")]
    DigestMismatch { image: String, found: String },
}

/// The digest an image reference pins (`…@sha256:<hex>`), if it pins one.
pub fn pinned_digest(image: &str) -> Option<&str> {
    image
        .rsplit_once('@')
        .map(|(_, d)| d)
        .filter(|d| d.starts_with("sha256:"))
}

/// A connection to a Docker-compatible engine.
pub struct ContainerRunner {
    docker: Docker,
    rt: tokio::runtime::Runtime,
}

impl ContainerRunner {
    /// Connects through `DOCKER_HOST` or the default socket, and checks
    /// that the engine answers.
    pub fn connect() -> Result<ContainerRunner, ContainerError> {
        let endpoint = reprise_probe::container_engine::local_endpoint().map_err(|e| {
            ContainerError::Unreachable {
                host: std::env::var("DOCKER_HOST").unwrap_or_default(),
                message: e.to_string(),
            }
        })?;
        ContainerRunner::connect_endpoint(&endpoint)
    }

    /// Connects to the engine at `host` (`unix:///path` or `tcp://…`, read
    /// as `DOCKER_HOST` is), and checks that it answers.
    pub fn connect_to(host: &str) -> Result<ContainerRunner, ContainerError> {
        let endpoint =
            EngineEndpoint::from_docker_host(host).map_err(|e| ContainerError::Unreachable {
                host: host.to_string(),
                message: e.to_string(),
            })?;
        ContainerRunner::connect_endpoint(&endpoint)
    }

    /// Connects to the engine at `endpoint` (this machine's or a server
    /// host's), and checks that it answers.
    pub fn connect_endpoint(endpoint: &EngineEndpoint) -> Result<ContainerRunner, ContainerError> {
        let unreachable = |message: String| ContainerError::Unreachable {
            host: endpoint.url(),
            message,
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ContainerError::Runtime)?;
        let docker = endpoint.connect(120).map_err(unreachable)?;
        // An engine that drops packets is said in seconds, not at the
        // client's two-minute timeout for long calls (pulls, waits).
        let answered = rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(10), docker.ping()).await });
        match answered {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err(unreachable(e.to_string())),
            Err(_) => return Err(unreachable("no answer within 10 s".into())),
        }
        Ok(ContainerRunner { docker, rt })
    }

    /// Makes sure the engine has `image`: pulled (each status line of the
    /// pull to `progress`) when it has not; where the reference pins a
    /// digest, the image's digests must include it, or it is refused.
    pub fn ensure_image(
        &self,
        image: &str,
        progress: &dyn Fn(String),
    ) -> Result<(), ContainerError> {
        use bollard::query_parameters::CreateImageOptionsBuilder;
        self.rt.block_on(async {
            let present = self.docker.inspect_image(image).await.is_ok();
            if !present {
                progress(format!("pulling {image}"));
                let options = CreateImageOptionsBuilder::default()
                    .from_image(image)
                    .build();
                let mut pull = self.docker.create_image(Some(options), None, None);
                let mut last = String::new();
                while let Some(item) = pull.next().await {
                    let info = item.map_err(|e| ContainerError::Pull {
                        image: image.to_string(),
                        message: e.to_string(),
                    })?;
                    if let Some(error) = info.error_detail.and_then(|d| d.message) {
                        return Err(ContainerError::Pull {
                            image: image.to_string(),
                            message: error,
                        });
                    }
                    let bytes = info
                        .progress_detail
                        .and_then(|p| match (p.current, p.total) {
                            (Some(c), Some(t)) if t > 0 => {
                                Some(format!("{:.1} of {:.1} MB", c as f64 / 1e6, t as f64 / 1e6))
                            }
                            _ => None,
                        });
                    let line = [info.id, info.status, bytes]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(" ");
                    if !line.is_empty() && line != last {
                        progress(line.clone());
                        last = line;
                    }
                }
            }
            let Some(digest) = pinned_digest(image) else {
                return Ok(());
            };
            let inspected = self.docker.inspect_image(image).await?;
            let digests = inspected.repo_digests.unwrap_or_default();
            if digests.iter().any(|d| d.ends_with(&format!("@{digest}"))) {
                Ok(())
            } else {
                Err(ContainerError::DigestMismatch {
                    image: image.to_string(),
                    found: if digests.is_empty() {
                        "no digest".into()
                    } else {
                        digests.join(", ")
                    },
                })
            }
        })
    }

    /// Runs `spec` to its end and removes the container, whatever happens.
    pub fn run(
        &self,
        spec: &ContainerSpec,
        cancel: &CancelToken,
        events: &dyn EventSink,
    ) -> Result<ContainerOutcome, ContainerError> {
        if spec.argv.is_empty() {
            return Err(ContainerError::EmptyCommand {
                step: spec.step.clone(),
            });
        }
        if let Some((host, ..)) = spec.binds.iter().find(|(h, ..)| !h.is_absolute()) {
            return Err(ContainerError::RelativeBind(host.clone()));
        }
        let mut log = match &spec.log {
            Some(file) => Some(file.create().map_err(|source| ContainerError::Log {
                file: file.path(),
                source,
            })?),
            None => None,
        };
        self.rt.block_on(async {
            let id = self.create(spec).await?;
            let result = self.follow(&id, spec, cancel, events, &mut log).await;
            let removed = self
                .docker
                .remove_container(
                    &id,
                    Some(RemoveContainerOptionsBuilder::default().force(true).build()),
                )
                .await;
            let outcome = result?;
            removed?;
            Ok(outcome)
        })
    }

    /// Ids of the containers labelled with `run_id`, or with any run id.
    pub fn containers(&self, run_id: Option<&str>) -> Result<Vec<String>, ContainerError> {
        let label = match run_id {
            Some(id) => format!("{RUN_LABEL}={id}"),
            None => RUN_LABEL.to_string(),
        };
        let filters = HashMap::from([("label".to_string(), vec![label])]);
        let options = ListContainersOptionsBuilder::default()
            .all(true)
            .filters(&filters)
            .build();
        let list = self
            .rt
            .block_on(self.docker.list_containers(Some(options)))?;
        Ok(list.into_iter().filter_map(|c| c.id).collect())
    }

    /// The memory the engine reports for the running container of `step` in
    /// `run_id` (its cgroup's usage), in kB; `None` when it is not running.
    pub fn memory_kb(&self, run_id: &str, step: &str) -> Result<Option<u64>, ContainerError> {
        self.rt.block_on(async {
            let Some(id) = self.container_of(run_id, step).await? else {
                return Ok(None);
            };
            let options = StatsOptionsBuilder::default()
                .stream(false)
                .one_shot(true)
                .build();
            let mut stats = Box::pin(self.docker.stats(&id, Some(options)));
            match stats.next().await {
                Some(Ok(s)) => Ok(s
                    .memory_stats
                    .and_then(|m| m.usage)
                    .map(|bytes| bytes / 1024)),
                Some(Err(e)) => Err(e.into()),
                None => Ok(None),
            }
        })
    }

    /// The id of `step`'s container in run `run_id`, found by its labels.
    async fn container_of(
        &self,
        run_id: &str,
        step: &str,
    ) -> Result<Option<String>, ContainerError> {
        let filters = HashMap::from([(
            "label".to_string(),
            vec![
                format!("{RUN_LABEL}={run_id}"),
                format!("reprise.step={step}"),
            ],
        )]);
        let options = ListContainersOptionsBuilder::default()
            .filters(&filters)
            .build();
        let list = self.docker.list_containers(Some(options)).await?;
        Ok(list.into_iter().find_map(|c| c.id))
    }

    /// The host's process id of the first process of `step`'s container in
    /// run `run_id` (the engine's `State.Pid`), where it runs on this
    /// machine's kernel and the engine says; `None` otherwise.
    pub fn host_pid(&self, run_id: &str, step: &str) -> Result<Option<u32>, ContainerError> {
        self.rt.block_on(async {
            let Some(id) = self.container_of(run_id, step).await? else {
                return Ok(None);
            };
            let inspected = self.docker.inspect_container(&id, None).await?;
            Ok(inspected
                .state
                .and_then(|s| s.pid)
                .and_then(|pid| u32::try_from(pid).ok())
                .filter(|pid| *pid > 0))
        })
    }

    /// Removes the containers a run left (all runs' with `None`), e.g.
    /// after Reprise was killed; returns their ids.
    pub fn remove_left_over(&self, run_id: Option<&str>) -> Result<Vec<String>, ContainerError> {
        let ids = self.containers(run_id)?;
        for id in &ids {
            self.rt.block_on(self.docker.remove_container(
                id,
                Some(RemoveContainerOptionsBuilder::default().force(true).build()),
            ))?;
        }
        Ok(ids)
    }

    async fn create(&self, spec: &ContainerSpec) -> Result<String, ContainerError> {
        let mut host = HostConfig {
            binds: Some(
                spec.binds
                    .iter()
                    .map(|(h, c, ro)| {
                        format!("{}:{c}:{}", h.display(), if *ro { "ro" } else { "rw" })
                    })
                    .collect(),
            ),
            cpuset_cpus: spec.cpuset.clone(),
            memory: spec.memory_mb.map(|mb| (mb * 1024 * 1024) as i64),
            ..Default::default()
        };
        let mut exposed = None;
        match spec.network {
            Network::Default => {}
            Network::Host => host.network_mode = Some("host".into()),
            Network::Publish {
                host: host_port,
                container,
            } => {
                let key = format!("{container}/tcp");
                exposed = Some(vec![key.clone()]);
                host.port_bindings = Some(HashMap::from([(
                    key,
                    Some(vec![PortBinding {
                        host_ip: Some("127.0.0.1".into()),
                        host_port: Some(host_port.to_string()),
                    }]),
                )]));
            }
        }
        let body = ContainerCreateBody {
            image: Some(spec.image.clone()),
            cmd: Some(spec.argv.clone()),
            env: Some(spec.env.iter().map(|(k, v)| format!("{k}={v}")).collect()),
            working_dir: spec.workdir.clone(),
            labels: Some(HashMap::from([
                (RUN_LABEL.to_string(), spec.run_id.clone()),
                ("reprise.step".to_string(), spec.step.clone()),
            ])),
            exposed_ports: exposed,
            host_config: Some(host),
            ..Default::default()
        };
        // Unique per process and call: one step may start several containers.
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "reprise-{}-{}-{}-{}",
            spec.run_id,
            spec.step,
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        );
        let options = CreateContainerOptionsBuilder::default().name(&name).build();
        let created = self.docker.create_container(Some(options), body).await?;
        let started = async {
            for (from, to) in &spec.copies {
                let tar = super::tar::archive(from, to).map_err(|source| ContainerError::Copy {
                    folder: from.clone(),
                    source,
                })?;
                let options = UploadToContainerOptionsBuilder::default().path("/").build();
                self.docker
                    .upload_to_container(&created.id, Some(options), bollard::body_full(tar.into()))
                    .await?;
            }
            if let Some(started) = &spec.started {
                let _ = started.send(Instant::now());
            }
            self.docker.start_container(&created.id, None).await?;
            Ok::<(), ContainerError>(())
        };
        if let Err(e) = started.await {
            // A container that never started is removed here: nothing else
            // knows its id.
            let _ = self
                .docker
                .remove_container(
                    &created.id,
                    Some(RemoveContainerOptionsBuilder::default().force(true).build()),
                )
                .await;
            return Err(e);
        }
        Ok(created.id)
    }

    /// A stopped container's whole log, stdout and stderr apart.
    async fn whole_log(&self, id: &str) -> Result<Streams<Vec<u8>>, ContainerError> {
        let options = LogsOptionsBuilder::default()
            .stdout(true)
            .stderr(true)
            .build();
        let mut chunks = self.docker.logs(id, Some(options));
        let mut whole = Streams::<Vec<u8>>::default();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk?;
            if let Some((stream, bytes)) = stream_of(&chunk) {
                whole.of_mut(stream).extend_from_slice(bytes);
            }
        }
        Ok(whole)
    }

    /// Streams the container's output until it exits, stopping it on
    /// timeout or cancel.
    async fn follow(
        &self,
        id: &str,
        spec: &ContainerSpec,
        cancel: &CancelToken,
        events: &dyn EventSink,
        log: &mut Option<File>,
    ) -> Result<ContainerOutcome, ContainerError> {
        let started = Instant::now();
        let options = LogsOptionsBuilder::default()
            .follow(true)
            .stdout(true)
            .stderr(true)
            .build();
        let mut logs = self.docker.logs(id, Some(options));
        let mut lines = LineSplitter::default();
        // What the live stream gave of stdout and of stderr, to check
        // against the whole log at the end: every container's, up to
        // LIVE_LOG_CHECKED (a server's log can be large), and all of it
        // where its output is the answer.
        let mut received = Some(Streams::<Vec<u8>>::default());
        let mut emit = |stream: Stream, line: String| {
            if let Some(file) = log.as_mut() {
                let _ = writeln!(file, "{line}");
            }
            events.emit(Event::Log {
                step: spec.step.clone(),
                stream,
                line,
            });
        };
        let mut ending = Ending::Exited;
        let mut stopping = false;
        let mut logs_open = true;
        // The exit code once the container stopped. Podman reports states
        // bollard's inspect model does not know ("stopped"), so the wait
        // endpoint, not inspect, tells when and how it ended.
        let mut exit: Option<Option<i64>> = None;
        let mut exited_at: Option<Instant> = None;
        let mut wait = Box::pin(self.docker.wait_container(id, None));
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        loop {
            tokio::select! {
                chunk = logs.next(), if logs_open => match chunk {
                    Some(Ok(output)) => {
                        let Some((stream, bytes)) = stream_of(&output) else {
                            continue;
                        };
                        if let Some(kept) = received.as_mut() {
                            kept.of_mut(stream).extend_from_slice(bytes);
                            if !spec.read_output
                                && kept.stdout.len() + kept.stderr.len() > LIVE_LOG_CHECKED
                            {
                                received = None;
                            }
                        }
                        for line in lines.push(stream, bytes) {
                            emit(stream, line);
                        }
                    }
                    Some(Err(_)) | None => logs_open = false,
                },
                waited = wait.next(), if exit.is_none() => {
                    exit = Some(match waited {
                        Some(Ok(response)) => Some(response.status_code),
                        Some(Err(bollard::errors::Error::DockerContainerWaitError { code, .. })) => Some(code),
                        Some(Err(e)) => return Err(e.into()),
                        None => None,
                    });
                    exited_at = Some(Instant::now());
                },
                _ = tick.tick() => {
                    if let (Some(code), Some(at)) = (exit, exited_at) {
                        // The live stream ends shortly after the exit; wait
                        // a little for its last lines. It is what a run shows
                        // as it goes: on a busy machine Podman's ends early,
                        // late, or skips lines (a fresh test command's lanes
                        // left a six-line command with its first line only).
                        // So the whole log is read once the container
                        // stopped, and the live lines are completed from it
                        // where they were a true prefix; where the output
                        // is the answer, it is that whole log.
                        if !logs_open || at.elapsed() > Duration::from_secs(2) {
                            let mut output = Vec::new();
                            // A server's log that cannot be read again
                            // leaves its live lines as they were.
                            let whole = match received {
                                Some(_) => match self.whole_log(id).await {
                                    Ok(whole) => Some(whole),
                                    Err(e) if spec.read_output => return Err(e),
                                    Err(_) => None,
                                },
                                None => None,
                            };
                            if let (Some(whole), Some(shown)) = (&whole, &received) {
                                for stream in [Stream::Stdout, Stream::Stderr] {
                                    let all = whole.of(stream);
                                    let rest = match all.strip_prefix(&shown.of(stream)[..]) {
                                        Some(rest) => rest,
                                        None => {
                                            let which = match stream {
                                                Stream::Stderr => "stderr",
                                                _ => "stdout",
                                            };
                                            emit(Stream::Note, format!("the container engine's live log missed lines of its {which}; all of it, read once it stopped, follows"));
                                            lines.discard(stream);
                                            all
                                        }
                                    };
                                    for line in lines.push(stream, rest) {
                                        emit(stream, line);
                                    }
                                }
                                if spec.read_output {
                                    output = whole.lines();
                                }
                            }
                            for (stream, line) in lines.finish() {
                                emit(stream, line);
                            }
                            return Ok(ContainerOutcome {
                                ending,
                                code,
                                duration: started.elapsed(),
                                id: id.to_string(),
                                output,
                            });
                        }
                        continue;
                    }
                    let timed_out = spec.timeout.is_some_and(|t| started.elapsed() >= t);
                    if !stopping && (timed_out || cancel.is_cancelled()) {
                        stopping = true;
                        ending = if timed_out { Ending::TimedOut } else { Ending::Cancelled };
                        let grace = spec.grace.as_secs_f64().ceil() as i32;
                        self.docker
                            .stop_container(id, Some(StopContainerOptionsBuilder::default().t(grace).build()))
                            .await?;
                    }
                }
            }
        }
    }
}

/// How much of a container's live log is kept to be checked against its
/// whole log once it stopped, where its output is not the answer: a
/// command's log whole, not a busy server's access log.
const LIVE_LOG_CHECKED: usize = 4 << 20;

/// Something kept of a container's stdout and of its stderr.
#[derive(Default)]
struct Streams<T> {
    stdout: T,
    stderr: T,
}

impl<T> Streams<T> {
    fn of(&self, stream: Stream) -> &T {
        match stream {
            Stream::Stderr => &self.stderr,
            Stream::Stdout | Stream::Note => &self.stdout,
        }
    }

    fn of_mut(&mut self, stream: Stream) -> &mut T {
        match stream {
            Stream::Stderr => &mut self.stderr,
            Stream::Stdout | Stream::Note => &mut self.stdout,
        }
    }
}

impl Streams<Vec<u8>> {
    /// Every line, stdout's then stderr's (the whole log keeps no order
    /// between the two).
    fn lines(&self) -> Vec<(Stream, String)> {
        let mut splitter = LineSplitter::default();
        let mut out: Vec<(Stream, String)> = Vec::new();
        for stream in [Stream::Stdout, Stream::Stderr] {
            let bytes = self.of(stream);
            out.extend(
                splitter
                    .push(stream, bytes)
                    .into_iter()
                    .map(|l| (stream, l)),
            );
        }
        out.extend(splitter.finish());
        out
    }
}

/// Which stream a chunk of a container's log is, and its bytes.
fn stream_of(output: &LogOutput) -> Option<(Stream, &[u8])> {
    match output {
        LogOutput::StdErr { message } => Some((Stream::Stderr, message)),
        LogOutput::StdOut { message } | LogOutput::Console { message } => {
            Some((Stream::Stdout, message))
        }
        LogOutput::StdIn { .. } => None,
    }
}

/// Splits a container's output chunks into lines, per stream.
#[derive(Default)]
struct LineSplitter {
    partial: HashMap<bool, Vec<u8>>,
}

impl LineSplitter {
    fn push(&mut self, stream: Stream, bytes: &[u8]) -> Vec<String> {
        let buf = self.partial.entry(stream == Stream::Stderr).or_default();
        buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(i) = buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buf.drain(..=i).collect();
            let line = &line[..line.len() - 1];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            out.push(String::from_utf8_lossy(line).into_owned());
        }
        out
    }

    /// Forgets `stream`'s unfinished line: its output is read again whole.
    fn discard(&mut self, stream: Stream) {
        self.partial.remove(&(stream == Stream::Stderr));
    }

    fn finish(&mut self) -> Vec<(Stream, String)> {
        let mut out = Vec::new();
        for (is_err, buf) in self.partial.drain() {
            if !buf.is_empty() {
                let stream = if is_err {
                    Stream::Stderr
                } else {
                    Stream::Stdout
                };
                out.push((stream, String::from_utf8_lossy(&buf).into_owned()));
            }
        }
        out
    }
}
