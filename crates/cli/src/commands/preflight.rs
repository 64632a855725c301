//! `reprise preflight RECIPE [--json]`: what on this machine matches the
//! post's, what differs and what blocks a lane, why, and how to fix it.
//! Exit 0 when every lane can run, 3 when a lane is blocked, 2 on bad input.

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args as ClapArgs;
use reprise_probe::Fingerprint;
use reprise_probe::preflight::{self, Preflight, PublishedOnly, Subject, Verdict};
use reprise_probe::toolchain::SearchPath;

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
    #[arg(long, value_name = "FILE")]
    machine: Option<PathBuf>,
    /// How long each toolchain may take to print its version: seconds, or
    /// e.g. 500ms, 30s; held between 0.1 s and 10 min.
    #[arg(long, default_value = "10s", value_parser = crate::flags::duration)]
    timeout: Duration,
    /// Read /proc and /sys under this directory instead of / (fixture trees).
    #[arg(long, hide = true)]
    root: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    let recipe = match super::load_recipe(&session, &args.recipe) {
        Ok(r) => r.recipe,
        Err(code) => return code,
    };
    let report = match &args.machine {
        Some(file) => {
            let snap = match std::fs::read_to_string(file)
                .map_err(|e| e.to_string())
                .and_then(|t| reprise_harness::parse_machine_file(&t).map_err(|e| e.to_string()))
            {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {}: {e}", file.display());
                    return ExitCode::from(super::BAD_INPUT);
                }
            };
            preflight::preflight(&recipe, &snap.fingerprint, &snap.toolchains)
        }
        None => {
            let timeout = args
                .timeout
                .clamp(Duration::from_millis(100), Duration::from_secs(600));
            let search = SearchPath::from_env();
            let (fp, tools) = std::thread::scope(|scope| {
                let machine = scope.spawn(|| match &args.root {
                    Some(root) => Fingerprint::read(root),
                    None => Fingerprint::probe(Duration::from_secs(2)),
                });
                let tools = preflight::probe_recipe_toolchains(&recipe, &search, timeout);
                (machine.join().unwrap_or_default(), tools)
            });
            preflight::preflight(&recipe, &fp, &tools)
        }
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", render(&report));
    }
    if report.blocks() {
        ExitCode::from(BLOCKED)
    } else {
        ExitCode::SUCCESS
    }
}

fn render(report: &Preflight) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "Preflight of {}\n", report.recipe);
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
        .filter(|i| i.verdict != Verdict::Matches || i.subject == Subject::Lane)
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(o, "\nWhy it matters");
        for item in notes {
            o.push_str(&wrap(
                &format!("{} {}: {}", item.name, item.verdict.word(), item.why),
                WIDTH,
                2,
            ));
            if let Some(fix) = &item.fix {
                o.push_str(&wrap(&format!("fix: {fix}"), WIDTH, 6));
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
        format!(
            "absolute figures are not comparable ({differing} machine item{} differ{}); ratios \
             between lanes measured here still are.",
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
    o
}
