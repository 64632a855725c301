//! `reprise run RECIPE [--lane L]... [--step S]... [--from S] [--yes] [--json]`:
//! shows the plan, asks before running it, then prints the engine's events.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use clap::Args as ClapArgs;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use reprise_engine::StepProgress;
use reprise_engine::event::{Event, Stream};
use reprise_engine::expected::duration_words;
use reprise_session::run::RunOptions;
use reprise_session::views::Countdown;
use reprise_session::{HistoryOutcome, Session};

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
    let mut loaded = match super::load_recipe(&session, &args.recipe) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let placed = args.placement.map(|p| (p, loaded.recipe.place_lanes(p)));
    let lane_host = match args.server.place(&mut loaded.recipe) {
        Ok(host) => host,
        Err(code) => return code,
    };
    let recipe = &loaded.recipe;
    let options = RunOptions {
        lanes: args.lanes.clone(),
        steps: args.steps.clone(),
        from: args.from.clone(),
        fresh: args.new,
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
    };
    let prepared = match session.prepare(&loaded, &options) {
        Ok(p) => p,
        Err(e @ reprise_session::SessionError::Unreviewed { .. }) => {
            say!(
                "error: {e}\n  (run it anyway with --allow-modified, or record it with \
                 `reprise checksums update` after reviewing it)"
            );
            return ExitCode::from(super::BAD_INPUT);
        }
        Err(e) => {
            say!("{}", super::error_text(&e));
            return ExitCode::from(super::BAD_INPUT);
        }
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

    use reprise_recipe::shown::shown as show;
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
        let expected = match args.quick {
            true => &row.expected_quick,
            false => &row.expected,
        };
        if let Some(expected) = expected {
            shown.push_str(&format!("       measures {}\n", show(&expected.shape)));
        }
    }
    shown.push_str(&super::preflight::judged_here(&view.claims));
    for line in prepared.consent.lines() {
        shown.push_str(&line);
        shown.push('\n');
    }
    for d in &prepared.deviations {
        shown.push_str(&format!(
            "  differs from the post: {}\n",
            reprise_recipe::shown::shown(&d.what)
        ));
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
    // Each part was escaped where it was put together; escaped again as a
    // whole (which changes nothing already escaped), so that no part left
    // out can reach the terminal raw.
    eprint!("{}", reprise_recipe::shown::shown_text(&shown));
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
        Ok(outcome) => {
            let steps = &outcome.steps;
            say!("{}", outcome.headline);
            // Every lane not measured, with why; one that did not boot or
            // stopped means the run did not measure what it planned.
            for lane in &outcome.skipped_lanes {
                let how = match steps.lanes_failed.contains(&lane.lane) {
                    true => "did not boot or stopped",
                    false => "not measured",
                };
                say!("  lane {} {how}: {}", lane.lane, lane.why);
            }
            // As hyperfine ends with its summary: the verdicts, at the end.
            if let (HistoryOutcome::Stored { id }, false) = (&outcome.history, args.json)
                && let Ok(report) = session.report(id)
            {
                println!("\n{} — {}", report.headline(), report.tally());
                print!(
                    "{}",
                    super::verdict::table(&report, super::verdict::colour())
                );
                for d in &report.judgement.deviations {
                    println!("  differs from the post: {}", d.what);
                }
                println!("(why, claim by claim: `reprise report {id}`)");
            }
            if outcome.ending.succeeded() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            say!("{}", super::error_text(&e));
            ExitCode::FAILURE
        }
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
/// process group and records the step as cancelled.
fn cancel_on_interrupt(session: &Session) {
    let session = session.clone();
    crate::interrupt::on_interrupt(move || session.cancel_all());
}

/// Log lines a step shows on the console; the rest are counted, and all
/// are in the step's log file (an emitter prints ~1,500 warnings a run).
const LOG_LINES_SHOWN: u64 = 40;

/// Prints events: JSON lines; or plain lines, with progress bars on a
/// terminal and a progress line every 10% elsewhere. A measuring step's
/// cells say the run's elapsed time and about how long the step has left;
/// step ends are coloured where stdout is a terminal and `NO_COLOR` unset.
struct Printer {
    json: bool,
    colour: bool,
    /// Progress bars, when stdout is a terminal.
    bars: Option<MultiProgress>,
    /// Per step: its bar, or the last progress tenth printed.
    progress: Mutex<HashMap<String, (Option<ProgressBar>, u64)>>,
    /// Per step: log lines seen, and how many of those said "warning".
    logged: Mutex<HashMap<String, (u64, u64)>>,
    /// The measuring steps.
    measuring: HashSet<String>,
    /// How long the run has left to measure, as the app counts it.
    countdown: Mutex<Countdown>,
    started: Instant,
}

impl Printer {
    fn new(json: bool, measuring: HashSet<String>, countdown: Countdown) -> Printer {
        let bars = (!json && std::io::stdout().is_terminal()).then(MultiProgress::new);
        Printer {
            json,
            colour: !json && super::verdict::colour(),
            bars,
            progress: Mutex::new(HashMap::new()),
            logged: Mutex::new(HashMap::new()),
            measuring,
            countdown: Mutex::new(countdown),
            started: Instant::now(),
        }
    }

    /// `, 14 s elapsed, about 8 s left`: the run's time so far and, while
    /// a step measures, about how long the run has left to measure.
    fn clock(&self) -> String {
        let elapsed = duration_words(self.started.elapsed().as_secs_f64().round());
        let left = self
            .countdown
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .left(Instant::now());
        match left {
            Some(left) if left.measuring => format!(
                ", {elapsed} elapsed, about {} left",
                duration_words(left.seconds.round())
            ),
            _ => format!(", {elapsed} elapsed"),
        }
    }

    /// `text` in the colour `code` (an SGR code) where colour is on.
    fn paint(&self, code: &str, text: String) -> String {
        match self.colour {
            true => format!("\x1b[{code}m{text}\x1b[0m"),
            false => text,
        }
    }

    /// Prints a line above any progress bars.
    fn line(&self, text: String) {
        match &self.bars {
            Some(bars) => bars.suspend(|| println!("{text}")),
            None => println!("{text}"),
        }
    }

    /// Ends a step's progress bar, if it has one, and says how many of its
    /// log lines were not shown.
    fn end_step(&self, step: &str) {
        let mut progress = self.progress.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((Some(bar), _)) = progress.remove(step) {
            bar.finish_and_clear();
        }
        drop(progress);
        let logged = self
            .logged
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(step);
        if let Some((lines, warnings)) = logged
            && lines > LOG_LINES_SHOWN
        {
            let hidden = lines - LOG_LINES_SHOWN;
            let of_which = if warnings > 0 {
                format!(" ({warnings} of its {lines} lines are warnings)")
            } else {
                String::new()
            };
            self.line(format!(
                "    {step}: {hidden} more lines not shown{of_which}; all are in logs/{step}.log"
            ));
        }
    }

    /// A step's log line, shown while the step has shown fewer than
    /// [`LOG_LINES_SHOWN`].
    fn log(&self, step: String, mark: char, line: String) {
        let mut logged = self.logged.lock().unwrap_or_else(|p| p.into_inner());
        let (lines, warnings) = logged.entry(step.clone()).or_default();
        *lines += 1;
        if line.to_ascii_lowercase().contains("warning") {
            *warnings += 1;
        }
        let show = *lines <= LOG_LINES_SHOWN;
        drop(logged);
        if show {
            self.line(format!("    {step} {mark} {line}"));
        }
    }

    /// A measuring step's live figures go on its bar; without bars the
    /// cell's own line says its result when it ends.
    fn live(&self, p: &StepProgress) {
        let progress = self.progress.lock().unwrap_or_else(|p| p.into_inner());
        if let (Some((Some(bar), _)), Some(cell)) = (progress.get(p.step), &p.cell) {
            let p99 = p
                .p99_ms
                .map(|p| format!(", p99 {p:.2} ms"))
                .unwrap_or_default();
            bar.set_message(format!(
                "{} {} {} run {}: {:.0} req/s{p99}{}",
                p.step,
                cell.lane,
                cell.endpoint,
                cell.run,
                p.req_per_s.unwrap_or_default(),
                self.clock()
            ));
        }
    }

    fn print(&self, event: Event) {
        self.countdown
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .observe(&event, Instant::now());
        if self.json {
            if let Ok(line) = serde_json::to_string(&event) {
                println!("{line}");
            }
            return;
        }
        match event {
            Event::Run { id, dir } => self.line(format!("run {id} in {dir}")),
            Event::Started { step, kind } => {
                self.line(self.paint("1", format!("==> {step} ({})", kind.name())))
            }
            Event::Progress {
                step,
                done,
                total,
                unit,
            } => {
                let mut progress = self.progress.lock().unwrap_or_else(|p| p.into_inner());
                match &self.bars {
                    Some(bars) => {
                        let (bar, _) = progress.entry(step.clone()).or_insert_with(|| {
                            let bar = bars.add(ProgressBar::new(total));
                            if let Ok(style) =
                                ProgressStyle::with_template("    {msg} [{bar:30}] {pos}/{len}")
                            {
                                bar.set_style(style.progress_chars("=> "));
                            }
                            (Some(bar), 0)
                        });
                        if let Some(bar) = bar {
                            bar.set_message(format!("{step} {unit}{}", self.clock()));
                            bar.set_length(total);
                            bar.set_position(done);
                        }
                    }
                    None => {
                        let tenth = (done * 10).checked_div(total).unwrap_or(10);
                        let last = progress.insert(step.clone(), (None, tenth));
                        if last.map(|(_, t)| t) != Some(tenth) {
                            drop(progress);
                            let line = match self.measuring.contains(&step) {
                                true => {
                                    format!("    {step}: {done} of {total} {unit}{}", self.clock())
                                }
                                false => format!("    {step}: {done}/{total} {unit}"),
                            };
                            self.line(line);
                        }
                    }
                }
            }
            measuring @ Event::Measuring { .. } => {
                if let Some(progress) = measuring.progress() {
                    self.live(&progress)
                }
            }
            Event::Log { step, stream, line } => match stream {
                Stream::Stdout => self.log(step, '|', line),
                Stream::Stderr => self.log(step, '!', line),
                // Reprise's own lines about the step are never held back.
                Stream::Reprise => self.line(format!("    {step} | {line}")),
            },
            Event::Finished { step, duration_ms } => {
                self.end_step(&step);
                self.line(self.paint(
                    "32",
                    format!("==> {step} finished in {:.1}s", duration_ms as f64 / 1000.0),
                ))
            }
            Event::Skipped { step, reason } => {
                self.end_step(&step);
                self.line(self.paint("33", format!("--  {step} skipped: {reason}")))
            }
            Event::Failed { step, reason } => {
                self.end_step(&step);
                self.line(self.paint("31", format!("!!  {step} failed: {reason}")))
            }
            Event::Note { message } => self.line(message),
        }
    }
}
