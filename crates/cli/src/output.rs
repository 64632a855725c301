//! What the CLI prints on the terminal: the engine's events as a run goes
//! (progress bars on a terminal, a line every 10% elsewhere), and the
//! verdicts at its end, each reason said once and the next command last.
//! Colour where stdout is a terminal and `NO_COLOR` is unset.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use reprise_engine::StepProgress;
use reprise_engine::event::{Event, Stream};
use reprise_recipe::reading::duration_words;
use reprise_report::Report;
use reprise_session::views::Countdown;
use reprise_verdict::{MachineMatch, Outcome};

use crate::table::{Table, wrap};

/// Whether the terminal gets colour: stdout is a terminal and `NO_COLOR`
/// is not set (no-color.org).
pub fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The SGR colour of an outcome.
fn outcome_colour(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Reproduced => "32",
        Outcome::NotReproduced => "31",
        Outcome::Inconclusive => "33",
        Outcome::NoData => "35",
        Outcome::NotMeasured => "2",
        Outcome::NotComparable => "36",
    }
}

/// Why a claim came to its verdict, as the closing table's note says it:
/// a claim not comparable on this machine says which of the machine's items
/// differ (every such claim the same note); the others their reasoning.
fn note_of(report: &Report, v: &reprise_verdict::Verdict) -> String {
    match &report.judgement.machine {
        MachineMatch::Differs(differences) if v.not_comparable_here() => {
            let names: Vec<&str> = differences.iter().map(|d| d.item()).collect();
            format!(
                "absolute figures are judged only on a machine like the post's; this one differs in {} (`reprise preflight {}` lists them)",
                names.join(", "),
                report.run.recipe
            )
        }
        _ => v.reasoning(),
    }
}

/// The verdicts at the end of a run (or of `reprise verdict`), and the
/// next command last.
pub fn closing(report: &Report, colour: bool, stored: bool) -> String {
    let mut out = verdicts(report, colour);
    out.push_str(&match stored {
        true => format!(
            "next: reprise report {} (the reasoning claim by claim; --format html for charts), or reprise share {} (post it)\n",
            report.run.id, report.run.id
        ),
        false => "next: the same command without --no-store keeps the run, to report and share it\n"
            .to_string(),
    });
    out
}

/// A run's verdicts as the terminal shows them: the headline and its
/// tally, one row per claim with its verdict (coloured where `colour`) and
/// a note number, each note once, and what else the run did differently
/// than the post.
pub fn verdicts(report: &Report, colour: bool) -> String {
    let j = &report.judgement;
    let mut out = format!("\n{} — {}\n", report.headline(), report.tally());
    let mut notes: Vec<String> = Vec::new();
    let mut table = Table::new(&["claim", "kind", "verdict", "measured", "note"]);
    for v in &j.verdicts {
        let mut text = v.outcome.label().to_string();
        // A run that went on until its claims were decided says when.
        if let Some(runs) = v.decided_after {
            text.push_str(&format!(" (decided after {runs} runs)"));
        }
        let shown = match colour {
            true => format!("\x1b[{}m{text}\x1b[0m", outcome_colour(v.outcome)),
            false => text,
        };
        let note = note_of(report, v);
        let n = match notes.iter().position(|n| *n == note) {
            Some(i) => i + 1,
            None => {
                notes.push(note);
                notes.len()
            }
        };
        table.row(vec![
            v.claim.clone(),
            v.kind.to_string(),
            shown,
            v.show_measured(),
            format!("[{n}]"),
        ]);
    }
    if j.verdicts.is_empty() {
        out.push_str("The recipe makes no claims.\n");
    } else {
        out.push_str(&table.render(0));
    }
    for (i, note) in notes.iter().enumerate() {
        out.push_str(&wrap(&format!("[{}] {note}", i + 1), 100, 0));
    }
    // What else differs from the post, where no note said it already.
    for d in &j.deviations {
        if !notes.iter().any(|n| n.contains(&d.what)) {
            out.push_str(&wrap(&format!("differs from the post: {}", d.what), 100, 0));
        }
    }
    out
}

/// Log lines a step shows on the console; the rest are counted, and all
/// are in the step's log file (an emitter prints ~1,500 warnings a run).
const LOG_LINES_SHOWN: u64 = 40;

/// Prints events: JSON lines; or plain lines, with progress bars on a
/// terminal and a progress line every 10% elsewhere. A measuring step's
/// cells say the run's elapsed time and about how long the step has left;
/// step ends are coloured where stdout is a terminal and `NO_COLOR` unset.
pub struct Printer {
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
    /// Reprise's own lines shown so far: each is shown once.
    said: Mutex<HashSet<String>>,
}

impl Printer {
    pub fn new(json: bool, measuring: HashSet<String>, countdown: Countdown) -> Printer {
        let bars = (!json && std::io::stdout().is_terminal()).then(MultiProgress::new);
        Printer {
            json,
            colour: !json && colour(),
            bars,
            progress: Mutex::new(HashMap::new()),
            logged: Mutex::new(HashMap::new()),
            measuring,
            countdown: Mutex::new(countdown),
            started: Instant::now(),
            said: Mutex::new(HashSet::new()),
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

    pub fn print(&self, event: Event) {
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
            // The cell's end says what it measured.
            Event::CellStarted { .. } => {}
            measuring @ Event::Measuring { .. } => {
                if let Some(progress) = measuring.progress() {
                    self.live(&progress)
                }
            }
            Event::Log { step, stream, line } => match stream {
                Stream::Stdout => self.log(step, '|', line),
                Stream::Stderr => self.log(step, '!', line),
                // Reprise's own lines about the step are never held back,
                // and each is said once (a lane skipped, in every step).
                Stream::Note => {
                    let first = self
                        .said
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert(line.clone());
                    if first {
                        self.line(format!("    {step} | {line}"))
                    }
                }
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
            Event::Cancelled { step } => {
                self.end_step(&step);
                self.line(self.paint("33", format!("--  {step} cancelled")))
            }
            Event::Note { message } => self.line(message),
        }
    }
}
