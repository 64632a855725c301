//! The commands the UI calls: each a thin call into reprise-recipe,
//! reprise-verdict or reprise-report, its answer turned into a view.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use reprise_probe::toolchain::SearchPath;
use reprise_probe::{Fingerprint, preflight::probe_recipe_toolchains};
use reprise_recipe::{Catalog, ChecksumStatus, Recipe};
use reprise_report::history::History;
use reprise_report::share::{Redactor, new_discussion_url, prepare};
use reprise_verdict::MachineMatch;

use crate::views::*;

/// Where the recipes and the results history are.
#[derive(Clone)]
pub struct Shell {
    pub catalog: Catalog,
    pub data_dir: PathBuf,
    pub share: crate::share::ShareConfig,
}

impl Shell {
    /// `REPRISE_ROOT` or the checkout around the working directory (or the
    /// binary's source tree), and the report crate's data dir.
    pub fn from_env() -> Shell {
        let catalog = match std::env::var_os("REPRISE_ROOT") {
            Some(root) => Catalog::new(PathBuf::from(root)),
            None => {
                let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
                Catalog::discover(&here)
                    .or_else(|| Catalog::discover(Path::new(env!("CARGO_MANIFEST_DIR"))))
                    .unwrap_or_else(|| Catalog::new(here))
            }
        };
        Shell {
            catalog,
            data_dir: reprise_recipe::data_dir(),
            share: crate::share::ShareConfig::from_env(),
        }
    }
}

type Answer<T> = Result<T, CommandError>;

fn error(kind: &str, message: impl ToString, hint: &str) -> CommandError {
    CommandError {
        kind: kind.into(),
        message: message.to_string(),
        hint: hint.into(),
    }
}

/// Whether `program` is found the way the probe finds toolchains (PATH, then mise).
fn on_path(program: &str) -> bool {
    let search = SearchPath::from_env();
    search.find(program).is_some() || !search.mise_candidates(program).is_empty()
}

fn toolchains_here(recipe: &Recipe, lane: &reprise_recipe::Lane) -> bool {
    recipe
        .lane_toolchains(lane)
        .all(|t| t.command.first().is_some_and(|p| on_path(p)))
}

fn checksum(catalog: &Catalog, file: &Path) -> String {
    let status = catalog
        .checksums()
        .and_then(|sums| catalog.status(&sums, file));
    match status {
        Ok(ChecksumStatus::Matches) => "ok",
        Ok(ChecksumStatus::Modified { .. }) => "modified",
        Ok(ChecksumStatus::Unlisted) => "unlisted",
        Err(_) => "unreadable",
    }
    .into()
}

pub fn library(shell: &Shell) -> Answer<Library> {
    let files = shell.catalog.files().map_err(|e| {
        error(
            "io",
            format!("cannot read {}: {e}", shell.catalog.recipes_dir().display()),
            "Start Reprise from its checkout, or set REPRISE_ROOT to the folder that holds recipes/.",
        )
    })?;
    let mut library = Library {
        recipes: Vec::new(),
        problems: Vec::new(),
    };
    for file in files {
        match reprise_recipe::load(&file) {
            Ok(recipe) => {
                let measures: BTreeSet<&str> =
                    recipe.figures.iter().map(|f| f.metric.name()).collect();
                library.recipes.push(RecipeCard {
                    id: recipe.id().to_string(),
                    title: recipe.post.title.clone(),
                    author: recipe.post.author.clone(),
                    date: recipe.post.date.clone(),
                    summary: recipe.post.summary.clone(),
                    measures: measures.into_iter().map(String::from).collect(),
                    figures: recipe.figures.len() as u32,
                    claims: recipe.claims.len() as u32,
                    steps: recipe.steps.len() as u32,
                    lanes_runnable: recipe.lanes.iter().filter(|l| l.is_runnable()).count() as u32,
                    lanes_here: recipe
                        .lanes
                        .iter()
                        .filter(|l| l.is_runnable() && toolchains_here(&recipe, l))
                        .map(|l| l.name.to_string())
                        .collect(),
                    checksum: checksum(&shell.catalog, &file),
                });
            }
            Err(e) => library.problems.push(RecipeProblem {
                id: file
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                file: file.display().to_string(),
                message: e.to_string(),
            }),
        }
    }
    Ok(library)
}

/// A recipe by id, with its checksum status.
pub fn load_recipe(shell: &Shell, id: &str) -> Answer<(Recipe, String)> {
    let file = shell.catalog.resolve(id).map_err(|e| {
        error(
            "not_found",
            e,
            "Go back to the Library and pick one of the recipes listed there.",
        )
    })?;
    let recipe = reprise_recipe::load(&file).map_err(|e| {
        error(
            "invalid",
            e,
            "Run `reprise check` on the file to see every problem with its line.",
        )
    })?;
    let checksum = checksum(&shell.catalog, &file);
    Ok((recipe, checksum))
}

pub fn post(shell: &Shell, id: &str) -> Answer<PostView> {
    let (recipe, checksum) = load_recipe(shell, id)?;
    let m = recipe.machine.as_ref();
    Ok(PostView {
        id: recipe.id().to_string(),
        title: recipe.post.title.clone(),
        author: recipe.post.author.clone(),
        date: recipe.post.date.clone(),
        url: recipe.post.url.clone(),
        run: recipe.post.run.clone(),
        summary: recipe.post.summary.clone(),
        unknowns: recipe.post.unknowns.clone(),
        machine: m.map(|m| MachineView {
            cpu: m.cpu.clone(),
            cores: m.cores,
            threads: m.threads,
            smt: m.smt,
            base_mhz: m.base_mhz,
            boost: m.boost,
            governor: m.governor.clone(),
            memory_gb: m.memory_gb,
            os: m.os.clone(),
            kernel: m.kernel.clone(),
            virtualization: m.virtualization.clone(),
            quote: m.quote.clone(),
        }),
        toolchains: recipe
            .toolchains
            .iter()
            .map(|t| ToolchainView {
                name: t.name.to_string(),
                version: t.version.to_string(),
                command: t.command.clone(),
                why: t.why.clone(),
                quote: t.quote.clone(),
                on_path: t.command.first().is_some_and(|p| on_path(p)),
            })
            .collect(),
        lanes: recipe
            .lanes
            .iter()
            .map(|l| LaneView {
                name: l.name.to_string(),
                runtime: l.runtime.as_ref().map(|r| r.to_string()),
                server: l.server.clone(),
                why: l.why.clone(),
                runnable: l.is_runnable(),
                runnable_here: l.is_runnable() && toolchains_here(&recipe, l),
                not_runnable: l.not_runnable.clone(),
            })
            .collect(),
        steps: recipe
            .ordered_steps()
            .into_iter()
            .map(|s| StepView {
                id: s.id.to_string(),
                kind: s.action.kind().name().into(),
                why: s.why.clone(),
                after: s.after.iter().map(|a| a.to_string()).collect(),
                lanes: s.action.lanes().iter().map(|l| l.to_string()).collect(),
                command: s.action.command().map(reprise_report::shell_words),
            })
            .collect(),
        figures: recipe
            .figures
            .iter()
            .map(|f| FigureView {
                id: f.id.to_string(),
                lane: f.lane.to_string(),
                endpoint: f.endpoint.as_ref().map(|e| e.to_string()),
                metric: f.metric.name().into(),
                unit: f.metric.unit().into(),
                value: f.value,
                range: f.range.map(|r| r.to_vec()),
                unknown: f.unknown.clone(),
                approx: f.approx,
                condition: f.condition.clone(),
                quote: f.quote.clone(),
            })
            .collect(),
        claims: recipe
            .claims
            .iter()
            .map(|c| ClaimView {
                id: c.id.to_string(),
                kind: c.shape.kind().into(),
                quote: c.quote.clone(),
                tolerance: c.tolerance,
                figures: c.shape.figures().iter().map(|f| f.to_string()).collect(),
            })
            .collect(),
        checksum,
    })
}

fn open_history(shell: &Shell) -> Answer<History> {
    History::open(&shell.data_dir).map_err(|e| {
        error(
            "history",
            e,
            "Check that the data dir is writable, or set REPRISE_DATA_DIR to one that is.",
        )
    })
}

pub fn history(shell: &Shell) -> Answer<Vec<RunSummary>> {
    let history = open_history(shell)?;
    history.list().map_err(|e| {
        error(
            "history",
            e,
            "The history file may be damaged; move it aside and try again.",
        )
    })
}

pub fn load_report(shell: &Shell, run: &str) -> Answer<reprise_report::Report> {
    open_history(shell)?.load(run).map_err(|e| {
        error(
            "not_found",
            e,
            "Pick a run from the list; `reprise history` lists them too.",
        )
    })
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

pub fn results(shell: &Shell, run: &str) -> Answer<ResultsView> {
    let report = load_report(shell, run)?;
    let summary = history(shell)?.into_iter().find(|r| r.id == report.run.id);
    let j = &report.judgement;
    Ok(ResultsView {
        run: summary.unwrap_or_else(|| RunSummary {
            id: report.run.id.clone(),
            created_at: report.run.created_at.clone(),
            recipe: report.run.recipe.clone(),
            title: report.run.title.clone(),
            origin: report.run.origin.clone(),
            cells: j.cells.len() as u32,
            reproduced: 0,
            not_reproduced: 0,
            inconclusive: 0,
            not_comparable: 0,
        }),
        machine_differs: match &j.machine {
            MachineMatch::Matches => Vec::new(),
            MachineMatch::Differs(reasons) => reasons.clone(),
        },
        tally: report.tally(),
        figures: j
            .figures
            .iter()
            .map(|f| FigureResult {
                figure: f.figure.clone(),
                lane: f.lane.clone(),
                endpoint: f.endpoint.clone(),
                metric: f.metric.name().into(),
                unit: f.metric.unit().into(),
                published: f.published,
                published_range: f.published_range.map(|r| r.to_vec()),
                measured: f.stats.as_ref().map(|s| s.median),
                measured_low: f.interval.as_ref().map(|i| i.low),
                measured_high: f.interval.as_ref().map(|i| i.high),
                status: f
                    .status
                    .as_ref()
                    .map_or_else(|| "not measured".into(), |s| s.describe()),
            })
            .collect(),
        verdicts: j
            .verdicts
            .iter()
            .map(|v| VerdictView {
                claim: v.claim.clone(),
                kind: v.kind.clone(),
                quote: v.quote.clone(),
                outcome: serde_json::to_value(v.outcome)
                    .ok()
                    .and_then(|o| o.as_str().map(String::from))
                    .unwrap_or_default(),
                reason: v.reason.clone(),
                published: v.published,
                unit: v.unit.clone(),
                tolerance: v.tolerance,
                band: v.band.map(|b| b.to_vec()),
                measured: v.measured.as_ref().map(|i| IntervalView {
                    estimate: i.estimate,
                    low: i.low,
                    high: i.high,
                }),
                more_runs: v.more_runs,
            })
            .collect(),
        environment: EnvironmentView {
            toolchains: report
                .environment
                .toolchains
                .iter()
                .map(|t| NameValue {
                    name: t.name.clone(),
                    value: t.version.clone(),
                })
                .collect(),
            sources: report
                .environment
                .sources
                .iter()
                .map(|s| NameValue {
                    name: s.id.clone(),
                    value: format!("{} @ {}", s.url, s.revision),
                })
                .collect(),
            commands: report
                .environment
                .commands
                .iter()
                .map(|c| reprise_report::shell_words(c))
                .collect(),
            harness: pretty(&report.environment.harness),
            fingerprint: pretty(&report.environment.fingerprint),
        },
        people_columns: if report.people.is_empty() {
            Vec::new()
        } else {
            reprise_report::PEOPLE_COLUMNS.map(String::from).to_vec()
        },
        people: report.people_rows().into_iter().map(Vec::from).collect(),
    })
}

pub fn share_preview(shell: &Shell, run: &str) -> Answer<SharePreview> {
    let report = load_report(shell, run)?;
    let redactor = Redactor::from_fingerprint(&report.environment.fingerprint);
    let post = prepare(&report, Some(&redactor)).map_err(|e| {
        error(
            "share",
            e,
            "The report could not be rendered; `reprise report` shows the same error.",
        )
    })?;
    let mut redacted: Vec<String> = redactor.hostnames().to_vec();
    redacted.extend(redactor.users().iter().cloned());
    let prefilled_url = std::env::var("REPRISE_DISCUSSIONS_REPO").ok().map(|repo| {
        let web =
            std::env::var("REPRISE_GITHUB_URL").unwrap_or_else(|_| "https://github.com".into());
        new_discussion_url(&web, &repo, &report.run.recipe, &post.title, &post.body)
    });
    Ok(SharePreview {
        run: report.run.id.clone(),
        title: post.title,
        body: post.body,
        redacted,
        prefilled_url,
        cli_command: format!("reprise share {}", report.run.id),
    })
}

/// This machine against the recipe's reference, item by item, from the probe.
pub fn preflight(shell: &Shell, id: &str) -> Answer<PreflightView> {
    let (recipe, _) = load_recipe(shell, id)?;
    let machine = Fingerprint::read(Path::new("/"));
    let tools = probe_recipe_toolchains(&recipe, &SearchPath::from_env(), Duration::from_secs(10));
    let report = reprise_probe::preflight::preflight(&recipe, &machine, &tools);
    let word = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    Ok(PreflightView {
        recipe: report.recipe.clone(),
        blocks: report.blocks(),
        absolute_comparable: report.absolute_comparable,
        items: report
            .items
            .iter()
            .map(|item| PreflightItem {
                subject: word(serde_json::to_value(item.subject).unwrap_or_default()),
                name: item.name.clone(),
                reference: item.reference.clone(),
                here: item.here.clone(),
                verdict: word(serde_json::to_value(item.verdict).unwrap_or_default()),
                why: item.why.clone(),
                fix: item.fix.clone(),
            })
            .collect(),
        runnable_lanes: report.runnable_lanes.clone(),
        blocked_lanes: report.blocked_lanes.clone(),
        published_only: report
            .published_only_lanes
            .iter()
            .map(|p| NameValue {
                name: p.lane.clone(),
                value: p.why.clone(),
            })
            .collect(),
    })
}

/// Flattens the probe's JSON into `cpu.brand = …` facts, leaving out the
/// unknown ones.
fn facts(prefix: &str, value: &serde_json::Value, out: &mut Vec<NameValue>) {
    use serde_json::Value;
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
                out.push(NameValue {
                    name: prefix.into(),
                    value: joined.join(", "),
                });
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                facts(&format!("{prefix}[{i}]"), v, out);
            }
        }
        Value::String(s) => out.push(NameValue {
            name: prefix.into(),
            value: s.clone(),
        }),
        other => out.push(NameValue {
            name: prefix.into(),
            value: other.to_string(),
        }),
    }
}

/// This machine's fingerprint, as the probe reads it.
pub fn machine() -> ThisMachine {
    let fingerprint = Fingerprint::read(Path::new("/"));
    let mut out = Vec::new();
    facts(
        "",
        &serde_json::to_value(&fingerprint).unwrap_or_default(),
        &mut out,
    );
    ThisMachine {
        facts: out,
        missing: vec![
            "Validation of this machine against a recipe's reference is on each recipe's Preflight page.".into(),
        ],
    }
}
