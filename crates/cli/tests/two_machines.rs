//! `reprise run hello-ceiling --server-host …` with the lanes on another
//! machine, made real on one: two network namespaces this test creates,
//! joined by a veth pair with link-local addresses it assigns
//! (169.254.77.1 here, 169.254.77.2 the server host). In the server's
//! namespace, Podman's Docker-compatible API service with storage of its own
//! (it shares no image or folder with this machine's), opened on the
//! network with TLS and client certificates the test makes with openssl, the
//! way Docker's docs protect a daemon socket (stunnel terminates TLS in front
//! of Podman 4, which has no TLS of its own). Reprise runs in the client's
//! namespace, whose only route to the server is the veth pair: the lane is
//! copied there, served there, loaded from here. Both namespaces are
//! removed at the end. Where namespaces cannot be made, the test fails and
//! says so; it never skips.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const CLIENT_IP: &str = "169.254.77.1";
const SERVER_IP: &str = "169.254.77.2";
const ENGINE_PORT: u16 = 2376;
const IMAGE: &str = "localhost/reprise-ruby-puma:two-machines";

fn run(program: &str, args: &[&str]) -> Output {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Two namespaces and their veth pair; removed (with what runs in them)
/// when dropped.
struct Machines {
    client: String,
    server: String,
    children: Vec<Child>,
    /// The server's Podman service, with storage of its own.
    podman: Option<reprise_test_support::PodmanService>,
}

impl Machines {
    fn new() -> Machines {
        let id = std::process::id();
        let (client, server) = (format!("rp-cli-{id}"), format!("rp-srv-{id}"));
        let made = Command::new("ip").args(["netns", "add", &client]).output();
        match made {
            Ok(out) if out.status.success() => {}
            Ok(out) => panic!(
                "cannot create a network namespace (`ip netns add` needs root or CAP_SYS_ADMIN): {}",
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) => panic!("cannot run `ip` (Debian's iproute2): {e}"),
        }
        let machines = Machines {
            client,
            server,
            children: Vec::new(),
            podman: None,
        };
        run("ip", &["netns", "add", &machines.server]);
        let (veth_c, veth_s) = (format!("rpc{id}"), format!("rps{id}"));
        run(
            "ip",
            &[
                "link",
                "add",
                &veth_c,
                "netns",
                &machines.client,
                "type",
                "veth",
                "peer",
                "name",
                &veth_s,
                "netns",
                &machines.server,
            ],
        );
        for (ns, dev, ip) in [
            (&machines.client, &veth_c, CLIENT_IP),
            (&machines.server, &veth_s, SERVER_IP),
        ] {
            run(
                "ip",
                &["-n", ns, "addr", "add", &format!("{ip}/24"), "dev", dev],
            );
            run("ip", &["-n", ns, "link", "set", dev, "up"]);
            run("ip", &["-n", ns, "link", "set", "lo", "up"]);
        }
        machines
    }

    /// `program` in namespace `ns`'s network only: `nsenter`, not `ip netns
    /// exec`, which remounts /sys and so hides the cgroup file system that
    /// Podman's runtime needs.
    fn in_ns(&self, ns: &str, program: &str) -> Command {
        let mut c = Command::new("nsenter");
        c.arg(format!("--net=/run/netns/{ns}"))
            .arg("--")
            .arg(program);
        c
    }
}

impl Drop for Machines {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
        // Stopped, and its storage's mounts undone, before its namespace goes.
        drop(self.podman.take());
        for ns in [&self.client, &self.server] {
            let _ = Command::new("ip").args(["netns", "del", ns]).status();
        }
    }
}

/// A CA, the server's certificate for SERVER_IP and a client certificate,
/// made by openssl; the client's folder in DOCKER_CERT_PATH's layout.
fn certificates(dir: &Path) -> (PathBuf, PathBuf) {
    let server = dir.join("server-certs");
    let client = dir.join("client-certs");
    std::fs::create_dir_all(&server).unwrap();
    std::fs::create_dir_all(&client).unwrap();
    let p = |d: &Path, f: &str| d.join(f).display().to_string();
    run(
        "openssl",
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=reprise test CA",
            "-keyout",
            &p(&server, "ca-key.pem"),
            "-out",
            &p(&server, "ca.pem"),
        ],
    );
    for (folder, cn, ext) in [
        (
            &server,
            "server",
            format!("subjectAltName=IP:{SERVER_IP}\nextendedKeyUsage=serverAuth\n"),
        ),
        (
            &client,
            "client",
            "extendedKeyUsage=clientAuth\n".to_string(),
        ),
    ] {
        let extfile = folder.join("ext.cnf");
        std::fs::write(&extfile, ext).unwrap();
        run(
            "openssl",
            &[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                &format!("/CN={cn}"),
                "-keyout",
                &p(folder, "key.pem"),
                "-out",
                &p(folder, "req.csr"),
            ],
        );
        run(
            "openssl",
            &[
                "x509",
                "-req",
                "-days",
                "1",
                "-in",
                &p(folder, "req.csr"),
                "-CA",
                &p(&server, "ca.pem"),
                "-CAkey",
                &p(&server, "ca-key.pem"),
                "-CAcreateserial",
                "-extfile",
                &extfile.display().to_string(),
                "-out",
                &p(folder, "cert.pem"),
            ],
        );
    }
    std::fs::copy(server.join("ca.pem"), client.join("ca.pem")).unwrap();
    (server, client)
}

/// The server host: Podman's API service on a socket, TLS in front of it on
/// SERVER_IP:ENGINE_PORT, both in the server's namespace; the lane's image
/// imported into its own storage. Answers the socket (for the test's own
/// look at the server's containers).
fn server_host(machines: &mut Machines, dir: &Path, certs: &Path) -> String {
    let podman =
        reprise_test_support::PodmanService::start(machines.in_ns(&machines.server, "podman"), dir);
    let socket = podman.socket().to_path_buf();
    let url = podman.url();
    machines.podman = Some(podman);
    let c = |f: &str| certs.join(f).display().to_string();
    let conf = dir.join("stunnel.conf");
    std::fs::write(
        &conf,
        format!(
            "foreground = yes\npid =\n[docker]\naccept = {SERVER_IP}:{ENGINE_PORT}\nconnect = {}\ncert = {}\nkey = {}\nCAfile = {}\nverifyChain = yes\nrequireCert = yes\n",
            socket.display(),
            c("cert.pem"),
            c("key.pem"),
            c("ca.pem")
        ),
    )
    .unwrap();
    let stunnel = machines
        .in_ns(&machines.server.clone(), "stunnel")
        .arg(&conf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("stunnel is needed (scripts/test installs stunnel4)");
    machines.children.push(stunnel);
    let imported = Command::new("podman")
        .args(["--remote", "--url", &url, "import"])
        .arg(reprise_test_support::bookworm_ruby_puma())
        .arg(IMAGE)
        .output()
        .unwrap();
    assert!(
        imported.status.success(),
        "podman import: {}",
        String::from_utf8_lossy(&imported.stderr)
    );
    url
}

/// The ids of the server's containers that carry Reprise's run label.
fn server_containers(socket: &str) -> Vec<String> {
    let out = run(
        "podman",
        &[
            "--remote",
            "--url",
            socket,
            "ps",
            "-a",
            "-q",
            "--filter",
            "label=reprise.run",
        ],
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// How many containers of Reprise's step `step` the server host's engine
/// created since `since` (seconds since the epoch), from its event log.
fn created_since(socket: &str, since: u64, step: &str) -> usize {
    let (since, label) = (since.to_string(), format!("label=reprise.step={step}"));
    let out = run(
        "podman",
        &[
            "--remote",
            "--url",
            socket,
            "events",
            "--stream=false",
            "--since",
            &since,
            "--filter",
            "event=create",
            "--filter",
            &label,
            "--format",
            "{{.ID}}",
        ],
    );
    String::from_utf8_lossy(&out.stdout).lines().count()
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The run folders of hello-ceiling in `data`, oldest first.
fn runs(data: &Path) -> Vec<PathBuf> {
    let mut runs: Vec<PathBuf> = std::fs::read_dir(data.join("runs"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    runs.retain(|p| {
        p.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("hello-ceiling")
    });
    runs.sort();
    runs
}

/// `command` started, once it is measuring (its JSON events say so).
fn measuring(mut command: Command) -> Child {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) if line.contains("\"measuring\"") => return child,
            Ok(_) => {}
            Err(_) => {
                let _ = child.kill();
                panic!("the run never measured");
            }
        }
    }
}

/// Sends `signal` to `child` and waits (at most 60 s) for it to end.
fn signal(mut child: Child, signal: rustix::process::Signal) -> std::process::ExitStatus {
    // A child this test spawned and has not reaped.
    rustix::process::kill_process(rustix::process::Pid::from_child(&child), signal).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the run did not end within 60 s of signal {signal:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn hello_ceiling_is_served_by_another_machine_and_loaded_from_this_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut machines = Machines::new();
    let (server_certs, client_certs) = certificates(dir.path());
    let socket = server_host(&mut machines, dir.path(), &server_certs);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = dir.path().join("data");
    let engine = format!("tcp://{SERVER_IP}:{ENGINE_PORT}");
    let reprise = |extra: &[&str]| {
        let mut c = machines.in_ns(&machines.client, env!("CARGO_BIN_EXE_reprise"));
        c.args(["run", "hello-ceiling", "--server-host", &engine])
            .args(["--image", &format!("puma={IMAGE}"), "--quick", "--yes"])
            .args(extra)
            .env("REPRISE_ROOT", &root)
            .env("REPRISE_DATA_DIR", &data)
            .env("DOCKER_CERT_PATH", &client_certs)
            .env_remove("DOCKER_HOST")
            .env_remove("DOCKER_TLS_VERIFY")
            .current_dir(dir.path())
            .stdin(Stdio::null());
        c
    };

    // Without the client's certificates the engine is never reached.
    let refused = reprise(&[])
        .env("DOCKER_CERT_PATH", dir.path().join("nowhere"))
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("lacks ca.pem"), "{said}");
    // Certificates its CA did not sign are refused by the server host.
    let (_, strangers) = certificates(&dir.path().join("strangers"));
    let refused = reprise(&[])
        .env("DOCKER_CERT_PATH", &strangers)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("does not answer"), "{said}");

    // The preflight reads the server host's hardware and the lanes there.
    let preflight = machines
        .in_ns(&machines.client, env!("CARGO_BIN_EXE_reprise"))
        .args(["preflight", "hello-ceiling", "--server-host", &engine])
        .args(["--image", &format!("puma={IMAGE}")])
        .env("REPRISE_ROOT", &root)
        .env("REPRISE_DATA_DIR", &data)
        .env("DOCKER_CERT_PATH", &client_certs)
        .env_remove("DOCKER_HOST")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&preflight.stdout);
    assert_eq!(
        preflight.status.code(),
        Some(3),
        "falcon and nginx cannot run there: {said}\n{}",
        String::from_utf8_lossy(&preflight.stderr)
    );
    assert!(
        said.contains(&format!("The lanes on the server host {engine}")),
        "{said}"
    );
    let brand = reprise_probe::Fingerprint::read(Path::new("/"))
        .cpu
        .brand
        .unwrap();
    assert!(said.contains(&brand), "the server host's CPU: {said}");
    assert!(said.contains("engine: Podman Engine"), "{said}");
    assert!(said.contains("link: round trip"), "{said}");
    assert!(
        said.contains("req/s (Reprise's reference server there"),
        "{said}"
    );
    assert!(
        said.contains("Cannot run on the server host: it names no image"),
        "{said}"
    );

    // A run, served there and loaded from here.
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let out = reprise(&["--new"]).output().unwrap();
    let stdout =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("on the server host's engine at {engine} (TLS)")),
        "the consent names the server host:\n{stdout}"
    );
    assert!(
        stdout.contains(&format!("tcp://{SERVER_IP}:9292")),
        "the lane listens on the server host's address:\n{stdout}"
    );
    let folder = runs(&data).pop().expect("a run folder");
    let results = folder.join("results");
    let rich = read_json(&results.join("results.json"));
    let puma: Vec<&serde_json::Value> = rich["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["lane"] == "puma")
        .collect();
    assert!(!puma.is_empty(), "{rich}");
    for cell in &puma {
        assert!(cell["req_per_s"].as_f64().unwrap() > 0.0, "{cell}");
        assert!(
            cell["rss_kb"].as_u64().unwrap() > 0,
            "memory from the server's engine: {cell}"
        );
    }
    let skipped = std::fs::read_to_string(results.join("skipped.json")).unwrap();
    assert!(
        skipped.contains("names no image"),
        "nginx has no image, so it cannot run there: {skipped}"
    );
    // Both machines recorded: this one in env.json, the server host beside it.
    assert!(results.join("env.json").is_file());
    let server = read_json(&results.join("env.server.json"));
    assert_eq!(server["engine"]["name"], "Podman Engine", "{server}");
    assert!(server["link"]["samples"].as_u64().unwrap() > 0, "{server}");
    assert!(
        server["link"]["rtt_median_ms"].as_f64().unwrap() > 0.0,
        "{server}"
    );
    let ceiling = server["link"]["ceiling_req_per_s"].as_f64();
    assert!(
        ceiling.is_some_and(|c| c > 0.0),
        "the link's ceiling, from the reference server there: {server}"
    );
    let here = reprise_probe::Fingerprint::read(Path::new("/"));
    assert_eq!(
        server["fingerprint"]["cpu"]["brand"].as_str(),
        here.cpu.brand.as_deref(),
        "the probe container read the server host's CPU: {server}"
    );
    assert_eq!(
        created_since(&socket, started, "link-ceiling"),
        1,
        "the link's ceiling is loaded once a run, by the run: its plan reads the hardware only"
    );
    let recorded = read_json(&folder.join("server-host.json"));
    assert_eq!(recorded["address"], SERVER_IP);
    let deviations = std::fs::read_to_string(results.join("deviations.json")).unwrap();
    assert!(
        deviations.contains("served by another machine"),
        "{deviations}"
    );
    assert!(deviations.contains("--image"), "{deviations}");
    assert!(
        server_containers(&socket).is_empty(),
        "the run removed its containers from the server host"
    );
    // The report shows both machines, and not where the server answers.
    let id = folder.file_name().unwrap().to_string_lossy().to_string();
    let report = Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(["report", &id])
        .env("REPRISE_ROOT", &root)
        .env("REPRISE_DATA_DIR", &data)
        .output()
        .unwrap();
    let markdown = String::from_utf8_lossy(&report.stdout);
    assert!(report.status.success(), "{markdown}");
    assert!(markdown.contains("### Server host"), "{markdown}");
    assert!(markdown.contains("ceiling_req_per_s"), "{markdown}");
    assert!(
        markdown.contains("served by another machine"),
        "the deviation is said: {markdown}"
    );
    assert!(
        !markdown.contains(SERVER_IP),
        "the server host's address stays out of the report: {markdown}"
    );

    // A run killed while its lane serves leaves a container there; the next
    // attempt of that run finds and removes it before it starts.
    let killed = measuring(reprise(&["--new", "--json"]));
    signal(killed, rustix::process::Signal::KILL);
    assert!(
        !server_containers(&socket).is_empty(),
        "a killed run leaves its lane's container"
    );
    let resumed = reprise(&[]).output().unwrap();
    let said = String::from_utf8_lossy(&resumed.stdout).to_string()
        + &String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{said}");
    assert!(
        said.contains("left by an earlier attempt of this run on the server host"),
        "{said}"
    );
    assert!(server_containers(&socket).is_empty(), "{said}");

    // Killed again: `reprise clean` removes the run and its container there.
    let killed = measuring(reprise(&["--new", "--json"]));
    signal(killed, rustix::process::Signal::KILL);
    assert!(!server_containers(&socket).is_empty());

    // A run served there is resumed there only.
    let elsewhere = machines
        .in_ns(&machines.client, env!("CARGO_BIN_EXE_reprise"))
        .args(["run", "hello-ceiling", "--quick", "--yes"])
        .env("REPRISE_ROOT", &root)
        .env("REPRISE_DATA_DIR", &data)
        .env_remove("DOCKER_HOST")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&elsewhere.stderr);
    assert!(!elsewhere.status.success());
    assert!(
        said.contains(&format!(
            "served its lanes on the server host {engine}: resume it with --server-host"
        )),
        "{said}"
    );

    let id = runs(&data)
        .pop()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let cleaned = machines
        .in_ns(&machines.client, env!("CARGO_BIN_EXE_reprise"))
        .args(["clean", &id])
        .env("REPRISE_ROOT", &root)
        .env("REPRISE_DATA_DIR", &data)
        .env("DOCKER_CERT_PATH", &client_certs)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&cleaned.stdout);
    assert!(cleaned.status.success(), "{said}");
    assert!(said.contains("on the server host"), "{said}");
    assert!(server_containers(&socket).is_empty(), "{said}");

    // Ctrl-C: the run ends cancelled and takes its container with it.
    let interrupted = measuring(reprise(&["--new", "--json"]));
    let status = signal(interrupted, rustix::process::Signal::INT);
    assert!(
        !status.success(),
        "a cancelled run does not end as a success"
    );
    assert!(server_containers(&socket).is_empty());

    let storage = machines
        .podman
        .as_ref()
        .map(|p| p.storage().to_path_buf())
        .unwrap();
    drop(machines);
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap();
    assert!(
        !mounts.contains(&storage.display().to_string()),
        "the server's storage is unmounted: {mounts}"
    );
    let namespaces = run("ip", &["netns", "list"]);
    let listed = String::from_utf8_lossy(&namespaces.stdout);
    assert!(
        !listed.contains(&format!("rp-srv-{}", std::process::id())),
        "{listed}"
    );
}
