//! `reprise preflight RECIPE [--json]`: what on this machine matches the
//! post's, what differs and what blocks a lane, why, and how to fix it.
//! Exit 0 when every lane can run, 3 when a lane is blocked, 2 on bad input.

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args as ClapArgs;
use std::io::{BufRead, IsTerminal, Write as _};

use reprise_probe::preflight::{self, ClaimsHere, Preflight, PublishedOnly, Subject, Verdict};
use reprise_recipe::shown::command_line;
use reprise_session::preflight::{Preflighted, Versions};
use reprise_session::recipes::LoadedRecipe;

use crate::table::{Table, wrap};

/// Exit code when some lane cannot run here.
pub const BLOCKED: u8 = 3;

const WIDTH: usize = 100;

#[derive(ClapArgs)]
pub struct Args {
    /// Recipe id (e.g. campfire-runtimes) or path.
    recipe: String,
    /// Print the preflight as JSON.
    #[arg(long)]
    json: bool,
    /// Compare a saved machine instead of this one: a `reprise probe --json`
    /// snapshot or a bench-env env.json.
    #[arg(long, value_name = "FILE", conflicts_with = "server_host")]
    machine: Option<PathBuf>,
    /// How long each toolchain may take to print its version: seconds, or
    /// e.g. 500ms, 30s; held between 0.1 s and 10 min.
    #[arg(long, default_value = "10s", value_parser = crate::flags::duration)]
    timeout: Duration,
    /// Ask the toolchains their versions without asking first: runs the
    /// recipe's version commands, which preflight lists.
    #[arg(long, short = 'y')]
    yes: bool,
    /// Run the version commands of a recipe that is not the reviewed one.
    #[arg(long)]
    allow_modified: bool,
    /// Read /proc and /sys under this directory instead of / (fixture trees).
    #[arg(long, hide = true, conflicts_with = "server_host")]
    root: Option<PathBuf>,
    // With --server-host: that machine's hardware (read in a container of
    // a lane's image) against the post's, each lane's standing there, and
    // the link.
    #[command(flatten)]
    server: super::ServerHostArgs,
}

pub fn run(args: Args) -> ExitCode {
    let mut session = super::session();
    session.machine_root = args.root.clone();
    let mut loaded = match super::load_recipe(&session, &args.recipe) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let lane_host = match args.server.place(&mut loaded.recipe) {
        Ok(host) => host,
        Err(code) => return code,
    };
    let found = match &args.machine {
        Some(file) => {
            let snap = match std::fs::read_to_string(file)
                .map_err(|e| e.to_string())
                .and_then(|t| {
                    reprise_harness_files::parse_machine_file(&t).map_err(|e| e.to_string())
                }) {
                Ok(s) => s,
                Err(e) => {
                    say!("error: {}: {e}", file.display());
                    return ExitCode::from(super::BAD_INPUT);
                }
            };
            Preflighted {
                report: preflight::preflight(&loaded.recipe, &snap.fingerprint, &snap.toolchains),
                fingerprint: snap.fingerprint,
                server_host: None,
            }
        }
        None => {
            let timeout = args
                .timeout
                .clamp(Duration::from_millis(100), Duration::from_secs(600));
            let versions = match lane_host.toolchains_are_here() && accepted(&args, &loaded) {
                true => Versions::Ask { timeout },
                false => Versions::Locate,
            };
            if let Some(note) = lane_host.preflight_note() {
                say!("{note}");
            }
            match session.preflight(
                &loaded,
                versions,
                args.allow_modified,
                &lane_host,
                reprise_engine::ServerHostReading::HardwareAndLink,
            ) {
                Ok(found) => found,
                Err(e) => {
                    say!("{}", super::error_text(&e));
                    return ExitCode::from(super::BAD_INPUT);
                }
            }
        }
    };
    let report = &found.report;
    match (&found.server_host, args.json) {
        (None, true) => println!(
            "{}",
            serde_json::to_string_pretty(report).unwrap_or_default()
        ),
        (None, false) => print!("{}", render(report)),
        (Some(env), true) => {
            let both = serde_json::json!({ "preflight": report, "server_host": env });
            println!(
                "{}",
                serde_json::to_string_pretty(&both).unwrap_or_default()
            );
        }
        (Some(env), false) => {
            println!(
                "The lanes on the server host {}: \"here\" below is that machine.\n",
                lane_host.engine_url().unwrap_or_default()
            );
            print!("{}", render(report));
            println!("\nThe server host");
            if let Some(engine) = &env.engine {
                let line = [
                    engine.name.clone(),
                    engine.version.clone(),
                    engine.operating_system.clone(),
                    engine.kernel.as_ref().map(|k| format!("kernel {k}")),
                    engine.cpus.map(|c| format!("{c} CPUs")),
                    engine
                        .memory_bytes
                        .map(|b| format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64)),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ");
                println!("  engine: {line}");
            }
            if let Some(why) = &env.probe_error {
                println!("  hardware not read: {why}");
            }
            match &env.link {
                Some(link) => println!("  link: {}", link.describe()),
                None => println!("  link: not measured"),
            }
            println!(
                "  This machine runs the load generators; `reprise probe` describes it, and the run records both."
            );
        }
    }
    if report.blocks() {
        ExitCode::from(BLOCKED)
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether the reader lets preflight run the recipe's version commands:
/// shown first, then `--yes` or a yes on the terminal, and only for the
/// reviewed recipe unless `--allow-modified`.
fn accepted(args: &Args, loaded: &LoadedRecipe) -> bool {
    let commands: Vec<String> = loaded
        .recipe
        .toolchains
        .iter()
        .map(|t| command_line(&t.command))
        .collect();
    if commands.is_empty() {
        return false;
    }
    if !loaded.checksum.is_reviewed() && !args.allow_modified {
        say!(
            "Not asking the toolchains their versions: {} is not the reviewed recipe ({}), \
             so its commands do not run (--allow-modified runs them). The programs are only \
             looked for.",
            super::shown_path(&loaded.recipe.file),
            loaded.checksum.explain()
        );
        return false;
    }
    say!("To read the toolchains' versions, preflight runs the recipe's commands:");
    for c in &commands {
        say!("  {c}");
    }
    if args.yes {
        return true;
    }
    if !std::io::stdin().is_terminal() {
        say!(
            "Not asking without a terminal: add --yes to run them. The programs are only looked for."
        );
        return false;
    }
    eprint!("Run them? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    matches!(answer.trim(), "y" | "Y" | "yes")
}

/// What a run here can judge: the judged claims named once, each reason
/// others are not said once with the claims it stops and its fix on a line
/// of its own (a command to copy, nothing else), unless `said` holds it
/// (the page said that fix already).
pub(crate) fn judged_here(claims: &ClaimsHere, said: &[&str]) -> String {
    use reprise_recipe::shown::escaped;
    let mut o = String::new();
    if claims.total == 0 {
        return o;
    }
    o.push_str(&wrap(
        &escaped(&format!("What a run here can judge: {}", claims.summary)),
        WIDTH,
        0,
    ));
    for n in &claims.not_judged {
        o.push_str(&wrap(
            &escaped(&format!("not judged: {} — {}", n.claims.join(", "), n.why)),
            WIDTH,
            2,
        ));
        if let Some(fix) = n.fix.as_deref().filter(|f| !said.contains(f)) {
            o.push_str(&format!("      fix: {}\n", escaped(fix)));
        }
    }
    o
}

fn render(report: &Preflight) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "Preflight of {}\n", report.recipe);
    if !report.versions_asked && !report.version_commands.is_empty() {
        let _ = writeln!(
            o,
            "Versions not asked: the toolchains were only looked for on the search path \
             (`--yes` runs their {} version command{}).\n",
            report.version_commands.len(),
            if report.version_commands.len() == 1 {
                ""
            } else {
                "s"
            }
        );
    }
    let mut table = Table::new(&["", "item", "post", "here"]);
    for item in &report.items {
        table.row(vec![
            item.verdict.word().to_string(),
            item.name.clone(),
            item.reference.clone().unwrap_or_default(),
            item.here.clone().unwrap_or_else(|| "—".into()),
        ]);
    }
    o.push_str(&table.render(2));

    let notes: Vec<_> = report
        .items
        .iter()
        .filter(|i| i.verdict != Verdict::Matches || !i.why.is_empty())
        .collect();
    // Each fix is said once: under the first item that needs it.
    let mut fixes_said: Vec<&str> = Vec::new();
    if !notes.is_empty() {
        let _ = writeln!(o, "\nWhy it matters");
        for item in notes {
            o.push_str(&wrap(
                &format!("{} {}: {}", item.name, item.verdict.word(), item.why),
                WIDTH,
                2,
            ));
            if let Some(fix) = item.fix.as_deref().filter(|f| !fixes_said.contains(f)) {
                o.push_str(&wrap(&format!("fix: {fix}"), WIDTH, 6));
                fixes_said.push(fix);
            }
        }
    }

    let _ = writeln!(o, "\nSummary");
    let differing = report
        .items
        .iter()
        .filter(|i| !matches!(i.subject, Subject::Toolchain | Subject::Lane))
        .filter(|i| i.verdict != Verdict::Matches)
        .count();
    let absolute = if report.absolute_comparable {
        "absolute figures can be compared with the post's: the machine matches.".to_string()
    } else if differing == 0 {
        "absolute figures cannot be checked: the recipe names no reference machine.".to_string()
    } else {
        // What a run here judges (ratios, orderings) is listed claim by
        // claim below: said once, there, not promised here.
        format!(
            "absolute figures are not comparable ({differing} machine item{} differ{}), so no \
             absolute claim is judged here.",
            if differing == 1 { "" } else { "s" },
            if differing == 1 { "s" } else { "" }
        )
    };
    o.push_str(&wrap(&format!("Machine: {absolute}"), WIDTH, 2));
    let list = |lanes: &[String]| {
        if lanes.is_empty() {
            "none".to_string()
        } else {
            lanes.join(", ")
        }
    };
    o.push_str(&wrap(
        &format!("Lanes that can run: {}", list(&report.runnable_lanes)),
        WIDTH,
        2,
    ));
    if !report.blocked_lanes.is_empty() {
        o.push_str(&wrap(
            &format!("Blocked lanes: {}", list(&report.blocked_lanes)),
            WIDTH,
            2,
        ));
    }
    for PublishedOnly { lane, why } in &report.published_only_lanes {
        o.push_str(&wrap(&format!("Published only: {lane} — {why}"), WIDTH, 2));
    }
    o.push('\n');
    o.push_str(&judged_here(&report.claims, &fixes_said));
    o
}
