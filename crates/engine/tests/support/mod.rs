//! Running a recipe written by a test in a temporary data dir.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use reprise_engine::event::{CancelToken, Event};
use reprise_engine::{DataDir, PlanOptions, RunContext, RunDir, RunReport};

pub struct Attempt {
    pub report: RunReport,
    pub events: Vec<Event>,
    pub run: RunDir,
}

pub struct Setup {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
    pub data: DataDir,
    pub recipe: reprise_recipe::Recipe,
}

/// Loads `text` as recipes/<id>.toml of a fresh checkout.
pub fn setup(id: &str, text: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("checkout");
    std::fs::create_dir_all(root.join("recipes")).unwrap();
    let file = root.join(format!("recipes/{id}.toml"));
    std::fs::write(&file, text).unwrap();
    let recipe = reprise_recipe::load(&file).unwrap();
    Setup {
        data: DataDir {
            root: dir.path().join("data"),
        },
        root,
        recipe,
        dir,
    }
}

/// Runs every step in `run` (a new run when None); `on_event` sees each
/// event as it happens.
pub fn execute(
    s: &Setup,
    run: Option<RunDir>,
    quick: bool,
    on_event: &(dyn Fn(&Event) + Sync),
) -> Attempt {
    execute_planned(s, &PlanOptions::default(), run, quick, on_event)
}

/// [`execute`] with a plan's options (`--from`, lanes, steps).
pub fn execute_planned(
    s: &Setup,
    options: &PlanOptions,
    run: Option<RunDir>,
    quick: bool,
    on_event: &(dyn Fn(&Event) + Sync),
) -> Attempt {
    execute_with(s, options, run, on_event, &|ctx| ctx.quick = quick)
}

/// [`execute_planned`] with the run's context as `set` leaves it.
pub fn execute_with(
    s: &Setup,
    options: &PlanOptions,
    run: Option<RunDir>,
    on_event: &(dyn Fn(&Event) + Sync),
    set: &dyn Fn(&mut RunContext),
) -> Attempt {
    let plan = reprise_engine::plan(&s.recipe, options).unwrap();
    let run = run.unwrap_or_else(|| s.data.create_run(s.recipe.id()).unwrap());
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| {
        on_event(&e);
        events.lock().unwrap().push(e);
    };
    let mut ctx = RunContext::new(
        s.data.clone(),
        run.clone(),
        s.root.clone(),
        CancelToken::new(),
        &sink,
    );
    ctx.grace = Duration::from_secs(2);
    set(&mut ctx);
    let report = reprise_engine::execute(&plan, &ctx).unwrap();
    Attempt {
        report,
        events: events.into_inner().unwrap(),
        run,
    }
}

#[allow(unused_imports)] // not every test program starts a server
pub use reprise_test_support::free_port;

pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Every log line of the attempt's events.
pub fn log_lines(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Log { line, .. } => Some(line.clone()),
            _ => None,
        })
        .collect()
}

pub use reprise_test_support::PodmanService;

/// The container engine's address: `DOCKER_HOST` (scripts/test starts
/// Podman's API service), or a service started here for `cargo test` alone.
pub fn container_engine(dir: &Path) -> (String, Option<PodmanService>) {
    if let Ok(host) = std::env::var("DOCKER_HOST") {
        return (host, None);
    }
    let (host, service) = podman_service(dir, None);
    (host, Some(service))
}

/// A Podman API service of the test's own, in `dir`; with `registries`, a
/// registries.conf it reads (a test's own registry allowed over HTTP).
pub fn podman_service(dir: &Path, registries: Option<&Path>) -> (String, PodmanService) {
    let mut podman = std::process::Command::new("podman");
    if let Some(registries) = registries {
        podman.env("CONTAINERS_REGISTRIES_CONF", registries);
    }
    let service = PodmanService::start(podman, dir);
    (service.url(), service)
}

/// A busybox image (its httpd included) imported from a rootfs folder.
pub fn busybox_image(host: &str, dir: &Path, tag: &str) -> String {
    let rootfs = dir.join("rootfs");
    std::fs::create_dir_all(rootfs.join("bin")).unwrap();
    let busybox = ["/bin/busybox", "/usr/bin/busybox"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("busybox-static is needed (scripts/test installs it)");
    std::fs::copy(busybox, rootfs.join("bin/busybox")).unwrap();
    for applet in ["sh", "httpd"] {
        std::os::unix::fs::symlink("busybox", rootfs.join("bin").join(applet)).unwrap();
    }
    // The tag in the image itself: two tests importing the same files at
    // once made one image, and one of the two tags was lost (`no such
    // image: localhost/reprise-busybox:lines`, in a .ci/run).
    std::fs::write(rootfs.join("tag"), tag).unwrap();
    let tar = dir.join("rootfs.tar");
    let status = std::process::Command::new("tar")
        .arg("-C")
        .arg(&rootfs)
        .arg("-cf")
        .arg(&tar)
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success());
    let out = std::process::Command::new("podman")
        .args(["--remote", "--url", host, "import"])
        .arg(&tar)
        .arg(tag)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tag.to_string()
}
