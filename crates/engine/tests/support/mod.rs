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
    let plan = reprise_engine::plan(&s.recipe, &PlanOptions::default()).unwrap();
    let run = run.unwrap_or_else(|| s.data.create_run(s.recipe.id()).unwrap());
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| {
        on_event(&e);
        events.lock().unwrap().push(e);
    };
    let ctx = RunContext {
        data: s.data.clone(),
        run: run.clone(),
        checksums_root: s.root.clone(),
        cancel: CancelToken::new(),
        events: &sink,
        grace: Duration::from_secs(2),
        quick,
    };
    let report = reprise_engine::execute(&plan, &ctx).unwrap();
    Attempt {
        report,
        events: events.into_inner().unwrap(),
        run,
    }
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

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
