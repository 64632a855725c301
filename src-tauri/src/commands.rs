//! The commands the UI calls: each a thin call into the session API
//! (`reprise-session`) or a crate's reading function, its answer turned into
//! a view, its failure into a [`CommandError`] with what to do.

use std::collections::BTreeSet;
use std::time::Duration;

use reprise_engine::LaneHost;
use reprise_probe::Fingerprint;
use reprise_session::preflight::Versions;
use reprise_session::{Loaded, Session, SessionError};

use crate::views::*;

pub type Answer<T> = Result<T, CommandError>;

/// A session error as the UI shows it: its kind, the message, and a hint.
pub fn error(e: SessionError) -> CommandError {
    let (kind, hint) = match &e {
        SessionError::Catalog(_) => (
            ErrorKind::NotFound,
            "Go back to the Library and pick one of the recipes listed there.",
        ),
        SessionError::Recipe(_) => (
            ErrorKind::Invalid,
            "Run `reprise check` on the file to see every problem with its line.",
        ),
        SessionError::Unreviewed { .. } => (
            ErrorKind::Unreviewed,
            "Review the recipe, then record it with `reprise checksums update`, or run it from the CLI with --allow-modified.",
        ),
        SessionError::Plan(_) => (
            ErrorKind::Plan,
            "The recipe's steps cannot be planned; `reprise run` shows the same error.",
        ),
        SessionError::UnknownSource { .. } => (
            ErrorKind::Plan,
            "Give a source id the recipe declares; the Post page lists them.",
        ),
        SessionError::Busy(_) => (
            ErrorKind::Busy,
            "Wait for it to finish, or cancel it first.",
        ),
        SessionError::MachineBusy(_) => (
            ErrorKind::Busy,
            "Wait for it to finish: the Machine page shows a validation, the Run page a run.",
        ),
        SessionError::Validate(_) => (
            ErrorKind::Internal,
            "Close other busy programs and try again; `reprise validate` in a terminal shows the same.",
        ),
        SessionError::WorkDir(_) | SessionError::Run(_) | SessionError::Harness(_) => (
            ErrorKind::Io,
            "Check that the data dir is writable, or set REPRISE_DATA_DIR; the run's log is in its folder.",
        ),
        SessionError::History(reprise_history::HistoryError::UnknownRun(_)) => (
            ErrorKind::NotFound,
            "Pick a run from the list; `reprise history` lists them too.",
        ),
        SessionError::History(_) | SessionError::ResultsFile { .. } => (
            ErrorKind::History,
            "The history file may be damaged or unwritable; check the data dir (REPRISE_DATA_DIR).",
        ),
        SessionError::ServerHost(_) => (
            ErrorKind::ServerHost,
            "Check the server host's address (tcp://HOST:PORT), that its engine's API is open there with TLS, that the certificates folder holds ca.pem, cert.pem and key.pem its CA signed, and that every lane has an image; docs/two-machines.md says how.",
        ),
        SessionError::NotSignedIn => (ErrorKind::Share, "Sign in to GitHub first."),
        SessionError::NoOAuthApp => (
            ErrorKind::Share,
            "Open the prefilled discussion on GitHub instead (“Open on GitHub”), or set REPRISE_GITHUB_CLIENT_ID to an OAuth app's client id and restart the app.",
        ),
        SessionError::NoRepository => (
            ErrorKind::Share,
            "Enter the repository to post in (owner/name) above the preview.",
        ),
        SessionError::BadRepository(_) => (
            ErrorKind::Invalid,
            "Write the repository as owner/name, as in its GitHub address: github.com/owner/name.",
        ),
        SessionError::Mise(_) | SessionError::NoMise { .. } => (
            ErrorKind::Io,
            "Install mise (`cargo install mise --locked`), then run `reprise setup RECIPE` in a terminal to see mise's own output.",
        ),
        SessionError::Report(_) | SessionError::Share(_) => (
            ErrorKind::Share,
            "Check the repository, its Discussions category for this recipe, and the token (`reprise logout` to sign in again).",
        ),
    };
    CommandError {
        kind,
        message: e.to_string(),
        hint: hint.into(),
    }
}

fn units(metrics: impl IntoIterator<Item = reprise_recipe::Metric>) -> Vec<MetricUnit> {
    let mut seen = Vec::new();
    for metric in metrics {
        if !seen.contains(&metric) {
            seen.push(metric);
        }
    }
    seen.into_iter()
        .map(|metric| MetricUnit {
            metric,
            unit: metric.unit().into(),
        })
        .collect()
}

fn standings(lanes: Vec<reprise_session::recipes::LaneStanding>) -> Vec<LaneStanding> {
    lanes
        .into_iter()
        .map(|s| LaneStanding {
            lane: s.lane,
            here: s.here,
        })
        .collect()
}

pub fn library(session: &Session) -> Answer<Library> {
    let library = session.library().map_err(error)?;
    Ok(Library {
        recipes: library
            .recipes
            .into_iter()
            .map(|Loaded { recipe, checksum }| {
                let measures: BTreeSet<&str> =
                    recipe.figures.iter().map(|f| f.metric.unit()).collect();
                RecipeCard {
                    units: measures.into_iter().map(String::from).collect(),
                    figures: recipe.figures.len() as u32,
                    claims: recipe.claims.len() as u32,
                    steps: recipe.steps.len() as u32,
                    lanes: standings(session.found_here(&recipe).lanes),
                    post: recipe.post,
                    checksum,
                }
            })
            .collect(),
        problems: library
            .problems
            .into_iter()
            .map(|p| RecipeProblem {
                id: p.id,
                file: p.file.display().to_string(),
                message: p.message,
            })
            .collect(),
        dir: session.catalog.recipes_dir().display().to_string(),
    })
}

pub fn load_recipe(session: &Session, id: &str) -> Answer<Loaded> {
    session.load_recipe(id).map_err(error)
}

pub fn post(session: &Session, id: &str) -> Answer<PostView> {
    let Loaded { recipe, checksum } = load_recipe(session, id)?;
    let here = session.found_here(&recipe);
    Ok(PostView {
        checksum,
        machine: recipe.machine.clone(),
        toolchains: recipe
            .toolchains
            .iter()
            .map(|t| ToolchainHere {
                on_path: here
                    .toolchains
                    .get(&t.name)
                    .is_some_and(|p| p.status.is_present()),
                toolchain: t.clone(),
            })
            .collect(),
        lanes: recipe
            .lanes
            .iter()
            .zip(here.lanes)
            .map(|(lane, standing)| LaneOfPost {
                lane: lane.clone(),
                here: standing.here,
            })
            .collect(),
        steps: recipe
            .ordered_steps()
            .into_iter()
            .map(|s| StepView {
                id: s.id.to_string(),
                kind: s.action.kind(),
                why: s.why.clone(),
                after: s.after.iter().map(|a| a.to_string()).collect(),
                lanes: s.action.lanes().iter().map(|l| l.to_string()).collect(),
                command: s.action.command().map(reprise_report::shell_words),
            })
            .collect(),
        units: units(recipe.figures.iter().map(|f| f.metric)),
        figures: recipe.figures.clone(),
        claims: recipe.claims.clone(),
        post: recipe.post,
    })
}

pub fn history(session: &Session) -> Answer<Vec<RunSummary>> {
    session.history().and_then(|h| Ok(h.list()?)).map_err(error)
}

pub fn results(session: &Session, run: &str) -> Answer<ResultsView> {
    let report = session.report(run).map_err(error)?;
    let summary = history(session)?
        .into_iter()
        .find(|r| r.id == report.run.id)
        .ok_or_else(|| error(reprise_history::HistoryError::UnknownRun(run.into()).into()))?;
    let bootstrap = report.judgement.settings.bootstrap;
    let cells = report
        .judgement
        .cells
        .iter()
        .map(|c| {
            let values = c.values();
            MeasuredCell {
                key: c.cell.key.clone(),
                runs: c.cell.runs.len() as u32,
                status: c.status.clone(),
                stats: c.stats.clone(),
                interval: (!values.is_empty()).then(|| bootstrap.median(&values)),
                figures: report
                    .figures_of(&c.cell.key)
                    .iter()
                    .map(|f| f.figure.clone())
                    .collect(),
            }
        })
        .collect();
    // The machine as the Machine page words it, but for what would name
    // the host or is not recorded by a run (the container engine).
    let measured_on = reprise_session::harness_files::measured_on(&report)
        .map(|fingerprint| fingerprint.summary())
        .unwrap_or_default()
        .into_iter()
        .filter(|(name, _)| !["Host", "Containers"].contains(name))
        .map(|(name, value)| Fact {
            name: name.into(),
            value,
        })
        .collect();
    Ok(ResultsView {
        run: summary,
        tally: report.tally(),
        people: report.people_rows(),
        units: units(
            report
                .judgement
                .figures
                .iter()
                .map(|f| f.metric)
                .chain(report.judgement.cells.iter().map(|c| c.cell.key.metric())),
        ),
        cells,
        not_measured: report
            .measurements
            .not_measured
            .iter()
            .map(|(lane, why)| reprise_session::run::LaneSkipped {
                lane: lane.clone(),
                why: why.clone(),
            })
            .collect(),
        measured_on,
        machine: report.judgement.machine,
        figures: report.judgement.figures,
        verdicts: report.judgement.verdicts,
        deviations: report.judgement.deviations,
        commands: report
            .environment
            .commands
            .iter()
            .map(|c| reprise_report::shell_words(c))
            .collect(),
        environment: report.environment,
        info: report.run,
    })
}

/// This machine against the recipe's reference, item by item, from the
/// probe, as the CLI's preflight does. The toolchains are only looked for
/// until the reader asks their versions (`ask_versions`), which runs the
/// recipe's version commands the page lists: refused for a recipe that is
/// not the reviewed one.
pub fn preflight(session: &Session, id: &str, ask_versions: bool) -> Answer<Preflight> {
    let loaded = load_recipe(session, id)?;
    let versions = match ask_versions {
        true => Versions::Ask {
            timeout: Duration::from_secs(10),
        },
        false => Versions::Locate,
    };
    session
        .preflight(&loaded, versions, false, None, &LaneHost::ThisMachine)
        .map(|found| found.report)
        .map_err(error)
}

/// Flattens the probe's JSON into `cpu.brand = …` facts, leaving out the
/// unknown ones.
fn facts(prefix: &str, value: &serde_json::Value, out: &mut Vec<Fact>) {
    use serde_json::Value;
    let fact = |name: &str, value: String| Fact {
        name: name.into(),
        value,
    };
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                facts(&key, v, out);
            }
        }
        Value::Array(items) if items.iter().all(|i| !i.is_object()) => {
            if !items.is_empty() {
                let joined: Vec<String> = items
                    .iter()
                    .map(|i| i.to_string().trim_matches('"').to_string())
                    .collect();
                out.push(fact(prefix, joined.join(", ")));
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                facts(&format!("{prefix}[{i}]"), v, out);
            }
        }
        Value::String(s) => out.push(fact(prefix, s.clone())),
        other => out.push(fact(prefix, other.to_string())),
    }
}

/// This machine's fingerprint, probed as `reprise probe` probes it.
pub fn machine() -> ThisMachine {
    let fingerprint = Fingerprint::probe(Duration::from_secs(2));
    let mut out = Vec::new();
    facts(
        "",
        &serde_json::to_value(&fingerprint).unwrap_or_default(),
        &mut out,
    );
    ThisMachine {
        summary: fingerprint
            .summary()
            .into_iter()
            .map(|(name, value)| Fact {
                name: name.into(),
                value,
            })
            .collect(),
        facts: out,
    }
}

/// The program that opens a link in the system's browser.
const LINK_OPENER: &str = if cfg!(target_os = "macos") {
    "open"
} else if cfg!(windows) {
    "explorer"
} else {
    "xdg-open"
};

/// Opens an http(s) link (a post, a discussion) in the system's browser, as
/// a click on a link does in a browser; anything else is refused.
pub fn open_link(url: &str) -> Answer<()> {
    open_link_with(std::path::Path::new(LINK_OPENER), url)
}

/// [`open_link`] through a given opener program.
pub fn open_link_with(opener: &std::path::Path, url: &str) -> Answer<()> {
    let parsed = tauri::Url::parse(url).map_err(|e| CommandError {
        kind: ErrorKind::Invalid,
        message: format!("`{url}` is not a link: {e}"),
        hint: "Only http and https links open in the browser.".into(),
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(CommandError {
            kind: ErrorKind::Invalid,
            message: format!("`{url}` is not an http or https link"),
            hint: "Only http and https links open in the browser.".into(),
        });
    }
    let mut command = std::process::Command::new(opener);
    command
        .arg(parsed.as_str())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().map_err(|e| CommandError {
        kind: ErrorKind::Io,
        message: format!("could not start {}: {e}", opener.display()),
        hint: format!(
            "Install {} (xdg-utils on Linux), or open the link by hand: {}",
            opener.display(),
            parsed.as_str()
        ),
    })?;
    // The opener hands the link to the browser and exits; reap it off this thread.
    std::thread::spawn(move || child.wait());
    Ok(())
}
