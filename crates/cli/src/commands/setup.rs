//! `reprise setup RECIPE [--lane L]… [--yes]`: installs the toolchains the
//! recipe pins through mise (and mise itself with cargo where it is
//! missing), after showing exactly what it writes and runs; then asks the
//! toolchains their versions, as preflight does, to show them matching.
//! Exit 0 when set up, 1 when an install failed, 130 when stopped, 2 on bad
//! input or when not accepted.

use std::io::{BufRead, IsTerminal, Write as _};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args as ClapArgs;

use reprise_engine::{CancelToken, Event};
use reprise_probe::preflight::{Subject, Verdict};
use reprise_session::preflight::Versions;
use reprise_session::setup::{SetupEnd, SetupPlan};

use crate::interrupt;

#[derive(ClapArgs)]
pub struct Args {
    /// Recipe id (e.g. campfire-runtimes) or path.
    recipe: String,
    /// Only what these lanes need (repeatable); every lane by default.
    #[arg(long = "lane", value_name = "LANE")]
    lanes: Vec<String>,
    /// Install without asking first (the plan is still shown).
    #[arg(long, short = 'y')]
    yes: bool,
    /// Set up a recipe that is not the reviewed one.
    #[arg(long)]
    allow_modified: bool,
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    let loaded = match super::load_recipe(&session, &args.recipe) {
        Ok(r) => r,
        Err(code) => return code,
    };
    for lane in &args.lanes {
        if loaded.recipe.lane(lane).is_none() {
            say!(
                "error: {} has no lane `{lane}` (its lanes: {})",
                loaded.recipe.id(),
                loaded
                    .recipe
                    .lanes
                    .iter()
                    .map(|l| l.name.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return ExitCode::from(super::BAD_INPUT);
        }
    }
    let plan = session.setup_plan(&loaded, &args.lanes);
    show(&plan);
    if plan.commands.is_empty() {
        match &plan.get_mise {
            Some(how) => say!("mise is not installed and cannot be installed here: {how}"),
            None => say!("Nothing for mise to install."),
        }
        return if plan.get_mise.is_some() {
            ExitCode::from(super::BAD_INPUT)
        } else {
            ExitCode::SUCCESS
        };
    }
    if !accepted(&args) {
        return ExitCode::from(super::BAD_INPUT);
    }
    let cancel = CancelToken::new();
    let stop = cancel.clone();
    interrupt::on_interrupt(move || stop.cancel());
    let printer = Arc::new(std::sync::Mutex::new(()));
    let sink = move |e: Event| {
        if let Event::Log { line, .. } = e {
            let _held = printer.lock();
            println!("    setup | {line}");
        }
    };
    let end = match session.setup(&loaded, &plan, args.allow_modified, &sink, &cancel) {
        Ok(end) => end,
        Err(e) => {
            say!("{}", super::error_text(&e));
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    match end {
        SetupEnd::Cancelled => {
            say!("setup stopped; `reprise setup` again installs what is still missing");
            return ExitCode::from(130);
        }
        SetupEnd::Failed => {
            say!("setup failed: mise's output above says why");
            return ExitCode::FAILURE;
        }
        SetupEnd::Installed => {}
    }
    println!(
        "\nInstalled. The recipe's runs and preflights now use {}.",
        plan.config
    );
    // The versions as a run will see them.
    match session.preflight(
        &loaded,
        Versions::Ask {
            timeout: Duration::from_secs(30),
        },
        args.allow_modified,
        &reprise_engine::LaneHost::ThisMachine,
        reprise_engine::ServerHostReading::Hardware,
    ) {
        Ok(found) => {
            for item in found
                .report
                .items
                .iter()
                .filter(|i| i.subject == Subject::Toolchain)
            {
                println!(
                    "  {:<8} {:<24} {}",
                    item.verdict.word(),
                    item.name,
                    item.here.as_deref().unwrap_or("—")
                );
            }
            if found
                .report
                .items
                .iter()
                .any(|i| i.subject == Subject::Toolchain && i.verdict == Verdict::Blocks)
            {
                println!("Some toolchains still block: `reprise preflight` says how to fix them.");
            }
        }
        Err(e) => say!("{}", super::error_text(&e)),
    }
    ExitCode::SUCCESS
}

fn show(plan: &SetupPlan) {
    say!(
        "Setting up {}{}:",
        plan.recipe,
        if plan.lanes.is_empty() {
            String::new()
        } else {
            format!(" for {}", plan.lanes.join(", "))
        }
    );
    if let Some(how) = &plan.get_mise {
        say!("  mise is not installed: {how}");
    }
    if !plan.installs.is_empty() {
        say!("  mise installs:");
        for i in &plan.installs {
            say!("       {i}");
        }
        say!("  writes {}:", plan.config);
        for line in plan.config_text.lines() {
            say!("       {line}");
        }
    }
    if !plan.by_hand.is_empty() {
        say!(
            "  not through mise (`reprise preflight` says how to install any that are missing): {}",
            plan.by_hand.join(", ")
        );
    }
    if !plan.commands.is_empty() {
        say!("  runs, in {}:", plan.dir);
        for c in &plan.commands {
            say!("       {c}");
        }
        say!("  then asks each toolchain its version, as `reprise preflight --yes` does");
    }
}

fn accepted(args: &Args) -> bool {
    if args.yes {
        return true;
    }
    if !std::io::stdin().is_terminal() {
        say!("Not asking without a terminal: add --yes to install.");
        return false;
    }
    eprint!("Install? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    matches!(answer.trim(), "y" | "Y" | "yes")
}
