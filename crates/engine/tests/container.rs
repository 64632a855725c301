//! The container runner against a real Docker-compatible engine: Podman's
//! API service. `scripts/test` starts one and sets `DOCKER_HOST`; without
//! it, this test starts its own from the `podman` program. Either way an
//! engine that does not answer fails the test; it never skips.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reprise_engine::event::{CancelToken, Event, Stream};
use reprise_engine::os::runner::container::{ContainerRunner, ContainerSpec, Network};
use reprise_engine::os::runner::host::Ending;
use reprise_test_support::PodmanService;

/// The engine's address: `DOCKER_HOST`, or a service started here.
fn engine(dir: &Path) -> (String, Option<PodmanService>) {
    if let Ok(host) = std::env::var("DOCKER_HOST") {
        return (host, None);
    }
    let service = PodmanService::start(Command::new("podman"), dir);
    (service.url(), Some(service))
}

fn podman(host: &str, args: &[&str]) -> String {
    let out = Command::new("podman")
        .arg("--remote")
        .arg("--url")
        .arg(host)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "podman {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A busybox image made from a rootfs folder: /bin/busybox and its applets.
fn busybox_image(host: &str, dir: &Path) -> String {
    busybox_image_named(host, dir, "localhost/reprise-busybox:test")
}

fn busybox_image_named(host: &str, dir: &Path, tag: &str) -> String {
    let rootfs = dir.join("rootfs");
    std::fs::create_dir_all(rootfs.join("bin")).unwrap();
    let busybox = ["/bin/busybox", "/usr/bin/busybox"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("busybox-static is needed (scripts/test installs it)");
    std::fs::copy(busybox, rootfs.join("bin/busybox")).unwrap();
    for applet in ["sh", "httpd", "echo", "sleep", "cat"] {
        std::os::unix::fs::symlink("busybox", rootfs.join("bin").join(applet)).unwrap();
    }
    // The tag in the image itself: two tests importing the same files at
    // once made one image, and one of the two tags was lost (`no such
    // image: localhost/reprise-busybox:lines`, in a .ci/run).
    std::fs::write(rootfs.join("tag"), tag).unwrap();
    let tar = dir.join("rootfs.tar");
    let status = Command::new("tar")
        .arg("-C")
        .arg(&rootfs)
        .arg("-cf")
        .arg(&tar)
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success());
    podman(host, &["import", tar.to_str().unwrap(), tag]);
    tag.to_string()
}

use reprise_test_support::free_port;

fn get(port: u16) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    stream
        .write_all(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .ok()?;
    let mut body = String::new();
    stream.read_to_string(&mut body).ok()?;
    Some(body)
}

#[test]
fn a_busybox_httpd_lane_runs_in_a_container_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _service) = engine(dir.path());
    let runner = ContainerRunner::connect_to(&host)
        .unwrap_or_else(|e| panic!("the container engine must answer: {e}"));
    let image = busybox_image(&host, dir.path());
    let run_id = format!("test-{}", std::process::id());

    // A short command: output lines in order, exit status, env, bind mount.
    let www = dir.path().join("www");
    std::fs::create_dir_all(&www).unwrap();
    std::fs::write(www.join("index.html"), "hello from the tree\n").unwrap();
    // A folder copied in (the archive a remote engine gets): a name and a
    // link target past ustar's 100 bytes, a link, an executable.
    let lane = dir.path().join("lane");
    let long = "d".repeat(120);
    std::fs::create_dir_all(lane.join(&long)).unwrap();
    std::fs::write(lane.join(&long).join("file"), "a long name\n").unwrap();
    std::os::unix::fs::symlink(format!("{long}/file"), lane.join("link")).unwrap();
    let script = lane.join("run.sh");
    std::fs::write(&script, "#!/bin/sh\necho ran from the copy\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut spec = ContainerSpec::new(
        "echo",
        &run_id,
        &image,
        [
            "sh",
            "-c",
            "echo one; echo two; echo $GREETING; cat /www/index.html; \
             cat /copied/lane/link; /copied/lane/run.sh; echo oops >&2; exit 3",
        ]
        .map(String::from)
        .to_vec(),
    );
    spec.env.insert("GREETING".into(), "hi".into());
    spec.binds.push((www.clone(), "/www".into(), true));
    spec.copies.push((lane, "/copied/lane".into()));
    spec.memory_mb = Some(64);
    spec.cpuset = Some("0".into());
    let events = Mutex::new(Vec::new());
    let outcome = runner
        .run(&spec, &CancelToken::new(), &|e| {
            events.lock().unwrap().push(e)
        })
        .unwrap();
    assert_eq!(outcome.ending, Ending::Exited);
    assert_eq!(outcome.code, Some(3));
    let lines: Vec<(Stream, String)> = events
        .into_inner()
        .unwrap()
        .into_iter()
        .filter_map(|e| match e {
            Event::Log { stream, line, .. } => Some((stream, line)),
            _ => None,
        })
        .collect();
    let out: Vec<&str> = lines
        .iter()
        .filter(|(s, _)| *s == Stream::Stdout)
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(
        out,
        [
            "one",
            "two",
            "hi",
            "hello from the tree",
            "a long name",
            "ran from the copy"
        ]
    );
    assert!(lines.contains(&(Stream::Stderr, "oops".to_string())));

    // The httpd lane: published on loopback, logs streamed, then cancelled.
    let port = free_port();
    let mut spec = ContainerSpec::new(
        "httpd",
        &run_id,
        &image,
        ["/bin/httpd", "-f", "-v", "-p", "80", "-h", "/www"]
            .map(String::from)
            .to_vec(),
    );
    spec.binds.push((www, "/www".into(), true));
    spec.network = Network::Publish {
        host: port,
        container: 80,
    };
    spec.grace = Duration::from_secs(1);
    let cancel = CancelToken::new();
    let logged = Mutex::new(Vec::new());
    let (outcome, answer) = std::thread::scope(|scope| {
        let serving = scope.spawn(|| {
            runner.run(&spec, &cancel, &|e| {
                if let Event::Log { line, .. } = e {
                    logged.lock().unwrap().push(line);
                }
            })
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        let answer = loop {
            if let Some(body) = get(port).filter(|b| b.contains("200")) {
                break body;
            }
            assert!(
                Instant::now() < deadline,
                "httpd never answered on 127.0.0.1:{port}"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        // Its access log arrives as log events.
        while !logged
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("response:200"))
        {
            assert!(Instant::now() < deadline, "no access log line streamed");
            std::thread::sleep(Duration::from_millis(50));
        }
        cancel.cancel();
        (serving.join().unwrap(), answer)
    });
    assert!(answer.ends_with("hello from the tree\n"), "{answer}");
    let outcome = outcome.unwrap();
    assert_eq!(outcome.ending, Ending::Cancelled);
    assert!(get(port).is_none(), "still answering after cancel");
    assert!(runner.containers(Some(&run_id)).unwrap().is_empty());

    // A container a crashed run left is found by its label and removed.
    podman(
        &host,
        &[
            "create",
            "--label",
            &format!("reprise.run={run_id}"),
            &image,
            "/bin/sleep",
            "60",
        ],
    );
    assert_eq!(runner.containers(Some(&run_id)).unwrap().len(), 1);
    assert_eq!(runner.remove_left_over(Some(&run_id)).unwrap().len(), 1);
    assert!(runner.containers(Some(&run_id)).unwrap().is_empty());
}

#[test]
fn an_engine_that_does_not_answer_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let host = format!("unix://{}/nothing.sock", dir.path().display());
    let err = ContainerRunner::connect_to(&host).err().unwrap();
    assert!(
        err.to_string()
            .starts_with(&format!("no container engine answers at {host}")),
        "{err}"
    );
}

/// A container that prints much and exits at once: every line it printed
/// is in its outcome's output, once and in order, and the live lines are
/// the same or say that the engine's live log missed some (Podman's, on a
/// busy machine, ends early or late and skips lines).
#[test]
fn every_line_a_container_printed_is_read_once_however_soon_it_exits() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _service) = engine(dir.path());
    let runner = ContainerRunner::connect_to(&host)
        .unwrap_or_else(|e| panic!("the container engine must answer: {e}"));
    let image = busybox_image_named(&host, dir.path(), "localhost/reprise-busybox:lines");
    let run_id = format!("test-lines-{}", std::process::id());
    let want =
        |word: &str, n: usize| -> Vec<String> { (0..n).map(|i| format!("{word} {i}")).collect() };
    for attempt in 0..3 {
        let mut spec = ContainerSpec::new(
            "lines",
            &run_id,
            &image,
            [
                "sh",
                "-c",
                "i=0; while [ $i -lt 5000 ]; do echo out $i; i=$((i+1)); done; \
                 i=0; while [ $i -lt 200 ]; do echo err $i >&2; i=$((i+1)); done",
            ]
            .map(String::from)
            .to_vec(),
        );
        spec.read_output = true;
        let live = Mutex::new(Vec::new());
        let outcome = runner
            .run(&spec, &CancelToken::new(), &|e| {
                if let Event::Log { stream, line, .. } = e {
                    live.lock().unwrap().push((stream, line));
                }
            })
            .unwrap();
        assert_eq!(outcome.code, Some(0));
        let live = live.into_inner().unwrap();
        let missed = live.iter().any(|(s, _)| *s == Stream::Note);
        for (stream, word, n) in [(Stream::Stdout, "out", 5000), (Stream::Stderr, "err", 200)] {
            let of = |lines: &[(Stream, String)]| -> Vec<String> {
                lines
                    .iter()
                    .filter(|(s, _)| *s == stream)
                    .map(|(_, l)| l.clone())
                    .collect()
            };
            let want = want(word, n);
            let output = of(&outcome.output);
            assert!(
                output == want,
                "attempt {attempt}, {stream:?}: {} lines in the output for {n}",
                output.len()
            );
            if !missed {
                let shown = of(&live);
                let first = shown.iter().zip(&want).position(|(g, w)| g != w);
                assert!(
                    shown == want,
                    "attempt {attempt}, {stream:?}: {} live lines for {n}, first difference at {first:?}, and no note that the live log missed lines",
                    shown.len()
                );
            }
        }
    }
}
