//! `reprise run RECIPE [--lane L]... [--step S]... [--from S] [--yes] [--json]`:
//! shows the plan, asks before running it, then prints the engine's events.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_engine::event::Event;
use reprise_recipe::Recipe;
use reprise_recipe::reading::duration_words;
use reprise_session::run::{PreparedRun, RunOptions};
use reprise_session::views::Countdown;
use reprise_session::views::RunPlan;
use reprise_session::{HistoryOutcome, LoadedRecipe, RunOutcome, Session};

use crate::output::{Printer, closing};

#[derive(ClapArgs)]
pub struct Args {
    /// Recipe id or path.
    recipe: String,
    /// Lanes to run (repeatable; default: every runnable lane).
    #[arg(long = "lane", value_name = "L")]
    lanes: Vec<String>,
    /// Steps to run, with the steps they need (repeatable; default: all).
    #[arg(long = "step", value_name = "S")]
    steps: Vec<String>,
    /// Redo this step and the steps that depend on it, even if finished before.
    #[arg(long, value_name = "S")]
    from: Option<String>,
    /// Run without asking.
    #[arg(long, short = 'y')]
    yes: bool,
    /// Print events as JSON, one per line.
    #[arg(long)]
    json: bool,
    /// Start a new run instead of resuming this recipe's latest one.
    #[arg(long)]
    new: bool,
    /// Run a recipe that is not the reviewed one (modified, or not listed in
    /// checksums/recipes.sha256).
    #[arg(long)]
    allow_modified: bool,
    /// A smoke run: cap load durations, warm-ups, runs and cold starts
    /// (the results say so; not a measurement to compare with a post).
    #[arg(long)]
    quick: bool,
    /// Fetch a source from elsewhere: a mirror, a fork, an offline copy
    /// (ID=URL or ID=PATH, repeatable). The pinned revision is still
    /// required and checked; the run records it as a deviation from the post.
    #[arg(long = "source", value_name = "ID=URL", value_parser = parse_source)]
    sources: Vec<(String, String)>,
    /// What this machine forces the recipe to do otherwise: a file of the
    /// recipe's own tables ([[step]], [[lane]], [[source]], …), each
    /// replacing the recipe's entry of the same id whole (or added), and
    /// [[remove]] entries, each with `because` (docs/reproduce.md). Each is
    /// shown in the plan and recorded as a deviation from the post.
    /// Repeatable: the files apply one after another.
    #[arg(long = "substitutions", value_name = "FILE")]
    substitutions: Vec<std::path::PathBuf>,
    /// Stop instead of redoing a step whose outputs changed since it
    /// finished (a tree edited after it was emitted).
    #[arg(long)]
    strict: bool,
    /// Measure every workload with this load generator instead of each
    /// workload's own: `wrk` measures as the posts did (it must be
    /// installed), `reprise` with Reprise's own.
    #[arg(long, value_name = "reprise|wrk")]
    generator: Option<reprise_recipe::Generator>,
    /// Run the lanes in containers of the images they name (`container`),
    /// or on this machine (`host`), instead of where the recipe places
    /// them; recorded as a deviation.
    #[arg(long, value_name = "host|container")]
    placement: Option<reprise_recipe::Placement>,
    /// After each load step's own runs, go on measuring the cells of the
    /// claims not yet decided until each is decided, the machine's noise
    /// is shown too large to decide it, or --budget is spent. The verdicts'
    /// intervals are widened for the extra looks (docs/verdicts.md).
    #[arg(long)]
    until_conclusive: bool,
    /// The most --until-conclusive may add to the run: e.g. 30m, 90s.
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "30m",
        requires = "until_conclusive",
        value_parser = crate::flags::duration
    )]
    budget: std::time::Duration,
    #[command(flatten)]
    server: super::ServerHostArgs,
}

/// `ID=URL` or `ID=PATH` (a path is made absolute, as a URL must be).
fn parse_source(text: &str) -> Result<(String, String), String> {
    let (id, place) = text
        .split_once('=')
        .filter(|(id, place)| !id.is_empty() && !place.is_empty())
        .ok_or_else(|| format!("`{text}` is not ID=URL or ID=PATH"))?;
    let looks_like_url = place.contains("://") || place.contains('@');
    let place = if looks_like_url {
        place.to_string()
    } else {
        std::path::Path::new(place)
            .canonicalize()
            .map_err(|e| format!("{place}: {e}"))?
            .display()
            .to_string()
    };
    Ok((id.to_string(), place))
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    let (mut loaded, substituted) =
        match session.load_substituted(&args.recipe, &args.substitutions) {
            Ok(loaded) => loaded,
            Err(e) => {
                say!("{}", super::error_text(&e));
                return ExitCode::from(super::BAD_INPUT);
            }
        };
    let prepared = match options(&mut loaded, &args, substituted)
        .and_then(|o| prepare(&session, &loaded, &o))
    {
        Ok(p) => p,
        Err(code) => return code,
    };
    // The plan as the app shows it: the same rows, reasons and measures.
    let view = session.plan_view(&loaded, &prepared);
    if !loaded.checksum.is_reviewed() {
        say!(
            "warning: running a recipe that is not the reviewed one (--allow-modified): {}",
            loaded.checksum.explain()
        );
        if let Some(diff) = &view.reviewed_diff {
            say!("What changed since the reviewed version:\n{diff}");
        }
    }
    // Each part was escaped where it was put together; escaped again as a
    // whole (which changes nothing already escaped), so that no part left
    // out can reach the terminal raw.
    let shown = plan_text(&loaded.recipe, &prepared, &view, args.quick);
    eprint!("{}", reprise_recipe::shown::escaped_text(&shown));
    if !args.yes && !confirm() {
        return ExitCode::FAILURE;
    }

    cancel_on_interrupt(&session);
    let measuring = view
        .steps
        .iter()
        .filter(|row| row.expected.is_some())
        .map(|row| row.id.clone())
        .collect();
    let printer = Printer::new(args.json, measuring, Countdown::of(&prepared));
    let sink = |e: Event| printer.print(e);
    match session.execute(prepared, &sink) {
        Ok(outcome) => close(&session, &outcome, args.json),
        Err(e) => {
            say!("{}", super::error_text(&e));
            ExitCode::FAILURE
        }
    }
}

/// The run the flags ask for, its lanes placed.
fn options(
    loaded: &mut LoadedRecipe,
    args: &Args,
    substituted: Vec<reprise_recipe::Substitution>,
) -> Result<RunOptions, ExitCode> {
    let placed = args.placement.map(|p| (p, loaded.recipe.place_lanes(p)));
    let lane_host = args.server.place(&mut loaded.recipe)?;
    Ok(RunOptions {
        lanes: args.lanes.clone(),
        steps: args.steps.clone(),
        from: args.from.clone(),
        fresh: args.new,
        new_after_finished: false,
        quick: args.quick,
        allow_modified: args.allow_modified,
        origin: "reprise run".into(),
        sources: args.sources.iter().cloned().collect(),
        strict: args.strict,
        generator: args.generator,
        until_conclusive: args.until_conclusive.then_some(args.budget),
        placed,
        images: args.server.images(),
        lane_host,
        substituted,
    })
}

/// The run prepared: the plan made, nothing run.
fn prepare<'r>(
    session: &Session,
    loaded: &'r LoadedRecipe,
    options: &RunOptions,
) -> Result<PreparedRun<'r>, ExitCode> {
    session.prepare(loaded, options).map_err(|e| {
        match e {
            e @ reprise_session::SessionError::Unreviewed { .. } => say!(
                "error: {e}\n  (run it anyway with --allow-modified, or record it with \
                 `reprise checksums update` after reviewing it)"
            ),
            e => say!("{}", super::error_text(&e)),
        }
        ExitCode::from(super::BAD_INPUT)
    })
}

/// The plan a reader confirms: each step with what it will do and why, what
/// a run here can judge, the consent lines, how the run differs from the
/// post, and where it runs. Every part escaped as it is put in.
fn plan_text(recipe: &Recipe, prepared: &PreparedRun, view: &RunPlan, quick: bool) -> String {
    use reprise_recipe::shown::escaped as show;
    let mut shown = format!(
        "Plan for {} ({}):\n",
        show(recipe.id()),
        show(&recipe.post.title)
    );
    for row in &view.steps {
        shown.push_str(&format!(
            "  {:<4} {:<12} {:<8} {}\n",
            row.decision,
            show(&row.id),
            row.kind.name(),
            row.describe
        ));
        if let Some(reason) = &row.reason {
            shown.push_str(&format!("       ({})\n", show(reason)));
        }
        let expected = match quick {
            true => &row.expected_quick,
            false => &row.expected,
        };
        if let Some(expected) = expected {
            shown.push_str(&format!("       measures {}\n", show(&expected.summary)));
        }
    }
    shown.push_str(&super::preflight::judged_here(&view.claims, &[]));
    if !view.judged_elsewhere.is_empty() {
        shown.push_str(&format!(
            "  recipes a run here can judge: {}\n",
            show(&view.judged_elsewhere.join(", "))
        ));
    }
    for line in prepared.consent.lines() {
        shown.push_str(&line);
        shown.push('\n');
    }
    for d in &prepared.deviations {
        shown.push_str(&format!("  differs from the post: {}\n", show(&d.what)));
    }
    if let Some(budget) = prepared.until_conclusive {
        shown.push_str(&format!(
            "  until conclusive: after each load step's runs, more runs for the claims still undecided, for at most {} more (looks at 3, 5, 8, 12, … runs per cell; each look's intervals widened so that together they keep a 5% error rate)\n",
            duration_words(budget.as_secs_f64())
        ));
    }
    if !prepared.plan.lanes.is_empty() {
        shown.push_str(&format!(
            "  lanes: {}\n",
            show(&prepared.plan.lanes.join(", "))
        ));
    }
    match &prepared.resumes {
        Some(run) => shown.push_str(&format!(
            "  resuming run {} (finished steps whose inputs are unchanged are kept)\n",
            run.id
        )),
        None => shown.push_str("  in a new run folder\n"),
    }
    shown
}

/// How the run ended, as hyperfine ends with its summary: the headline,
/// then the verdicts, each reason once (a lane not measured among them).
fn close(session: &Session, outcome: &RunOutcome, json: bool) -> ExitCode {
    say!("{}", outcome.headline);
    let report = match (&outcome.history, json) {
        (HistoryOutcome::Stored { id }, false) => session.report(id).ok(),
        _ => None,
    };
    match report {
        Some(report) => print!("{}", closing(&report, crate::output::colour(), true)),
        // Without verdicts: every lane not measured, with why; one that did
        // not boot or stopped means the run did not measure what it planned.
        None => {
            for lane in &outcome.skipped_lanes {
                let how = match outcome.steps.lanes_failed.contains(&lane.lane) {
                    true => "did not boot or stopped",
                    false => "not measured",
                };
                say!("  lane {} {how}: {}", lane.lane, lane.why);
            }
        }
    }
    if outcome.ending.succeeded() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Asks on the terminal; without one, says how to run without asking.
fn confirm() -> bool {
    if !std::io::stdin().is_terminal() {
        say!("Not asking without a terminal: add --yes to run these steps.");
        return false;
    }
    eprint!("Run these steps? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    matches!(answer.trim(), "y" | "Y" | "yes")
}

/// Ctrl-C (SIGINT) or SIGTERM cancels the run: the engine stops the step's
/// process group and records the step as cancelled, its files replaced
/// whole but not waited on (the reader asked to stop now: on a busy disk
/// each sync took up to a second, and a cancelled run's end took 8 s).
fn cancel_on_interrupt(session: &Session) {
    let session = session.clone();
    crate::interrupt::on_interrupt(move || {
        reprise_engine::os::run_files::stop_syncing();
        session.cancel_all();
    });
}
