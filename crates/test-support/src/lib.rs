//! What the tests and benches run that is not the real thing, where the
//! real thing is out of reach on a test machine: the Campfire-shaped server
//! (`campfire_shaped_server`, a binary), the smallest server of Campfire's
//! shape, for the people load (Campfire itself holds a few hundred people on
//! two cores, not thousands). Nothing here ships in Reprise.
//!
//! `cargo test` of the workspace builds the binary beside the test programs
//! (`target/debug/campfire_shaped_server`), where
//! [`campfire_shaped_server`] finds it. And a Podman API service of a
//! test's own ([`PodmanService`]), with what it needs on these machines
//! ([`containers_conf`]), and the Debian image the container tests import
//! ([`bookworm_ruby_puma`]). And the port a test's server listens on
//! ([`free_port`]).

use std::path::{Path, PathBuf};

/// A port on 127.0.0.1 for a server a test starts: free now, and outside
/// the kernel's ephemeral range (`net.ipv4.ip_local_port_range`), from which
/// every outgoing connection takes its local port. A port from that range,
/// which binding port 0 gives, can be taken by another test's client
/// connection between this check and the server's own bind, which then
/// fails; beside the test command's other lanes, loading servers of their
/// own, a lane of bench_lanes had no cold start, as a lane whose port is
/// taken has none. Ports handed out by this process are not handed out
/// again.
pub fn free_port() -> u16 {
    use std::collections::BTreeSet;
    use std::hash::{BuildHasher, RandomState};
    use std::sync::Mutex;
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let (low, high) = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| {
            let mut n = r.split_whitespace().map(|n| n.parse::<u16>().ok());
            Some((n.next()??, n.next()??))
        })
        .unwrap_or((32768, 60999));
    // Below the range where there is room there, else above it.
    let (from, to) = if low > 11_024 {
        (10_000, low - 1)
    } else {
        (high.saturating_add(1).max(1_024), u16::MAX)
    };
    let span = u64::from(to - from) + 1;
    let mut given = GIVEN.lock().unwrap_or_else(|p| p.into_inner());
    let start = RandomState::new().hash_one(std::process::id()) % span;
    for i in 0..span {
        let port = from + ((start + i) % span) as u16;
        if !given.contains(&port) && std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            given.insert(port);
            return port;
        }
    }
    panic!("no free port on 127.0.0.1 from {from} to {to}")
}

/// The Campfire-shaped server's binary beside the test program that asks
/// (`target/<profile>/deps/<test>` → `target/<profile>/campfire_shaped_server`);
/// a missing one fails the test with how to build it.
pub fn campfire_shaped_server() -> PathBuf {
    let exe = std::env::current_exe().expect("the test program's path");
    let profile = exe
        .ancestors()
        .find(|dir| dir.join("deps").is_dir())
        .expect("a test program under target/<profile>/deps");
    let server = profile.join("campfire_shaped_server");
    assert!(
        server.is_file(),
        "{} is missing: build it with `cargo build -p reprise-test-support` (the workspace's `cargo test` does)",
        server.display()
    );
    server
}

/// Debian bookworm with ruby, puma and ruby-rack, a root filesystem tar
/// made by mmdebstrap from Debian's packages (`scripts/lib/bookworm-ruby-puma`):
/// made once, kept under target/real-things/images/. Answers its path.
pub fn bookworm_ruby_puma() -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/lib/bookworm-ruby-puma");
    let out = std::process::Command::new(&script)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert!(
        out.status.success(),
        "{}: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// A `containers.conf` in `dir` for a Podman service a test starts: runc,
/// and the ulimits it may set here (the hard open-files limit, at most
/// 65,536): without both no container starts on these machines (see the
/// shared FACTS). Answers its path, for `CONTAINERS_CONF`.
pub fn containers_conf(dir: &Path) -> PathBuf {
    let hard = std::process::Command::new("sh")
        .args(["-c", "ulimit -Hn"])
        .output()
        .expect("sh answers `ulimit -Hn`");
    let nofile = String::from_utf8_lossy(&hard.stdout)
        .trim()
        .parse::<u64>()
        .unwrap_or(1024)
        .min(65536);
    let conf = dir.join("containers.conf");
    std::fs::write(
        &conf,
        format!(
            "[engine]\nruntime = \"runc\"\n[containers]\ndefault_ulimits = [\"nofile={nofile}:{nofile}\", \"nproc=4096:4096\"]\n"
        ),
    )
    .expect("containers.conf is written");
    conf
}

/// Podman's Docker-compatible API service of a test's own, answering on
/// `podman.sock` in its folder, its images and containers in `podman/` there:
/// what a test imports or pulls goes with its folder, never into the user's
/// store (a pulled 181 MB image a run used to stay behind). Stopped when
/// dropped, and the overlay mounts that outlive Podman are undone.
pub struct PodmanService {
    child: std::process::Child,
    socket: PathBuf,
    storage: PathBuf,
}

impl PodmanService {
    /// Starts `podman` (the program, as the test runs it: here, or in a
    /// network namespace; with what it should read in its environment)
    /// as the service in `dir`, with the [`containers_conf`] these machines
    /// need. Answers once the socket is there.
    pub fn start(mut podman: std::process::Command, dir: &Path) -> PodmanService {
        let socket = dir.join("podman.sock");
        let storage = dir.join("podman");
        let child = podman
            .arg("--root")
            .arg(storage.join("root"))
            .arg("--runroot")
            .arg(storage.join("run"))
            .args(["system", "service", "--time=0"])
            .arg(format!("unix://{}", socket.display()))
            .env("CONTAINERS_CONF", containers_conf(dir))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("podman is needed (scripts/test installs it)");
        let mut service = PodmanService {
            child,
            socket,
            storage,
        };
        // A service that cannot start ends; the deadline is for one that hangs.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !service.socket.exists() {
            if let Ok(Some(status)) = service.child.try_wait() {
                panic!("podman's API service ended before it answered: {status}");
            }
            assert!(
                std::time::Instant::now() < deadline,
                "podman's API service did not start within 30 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        service
    }

    /// `unix://…/podman.sock`, for `DOCKER_HOST`.
    pub fn url(&self) -> String {
        format!("unix://{}", self.socket.display())
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Its own storage.
    pub fn storage(&self) -> &Path {
        &self.storage
    }
}

impl Drop for PodmanService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let storage = &self.storage;
        let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
        for point in mounts.lines().filter_map(|l| l.split(' ').nth(1)) {
            if Path::new(point).starts_with(storage) {
                let _ = std::process::Command::new("umount")
                    .args(["-l", point])
                    .status();
            }
        }
    }
}
