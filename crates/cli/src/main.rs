//! `reprise`: reproduce a published benchmark result on this machine.
//!
//! Every subcommand lives in its own module under `commands/` and is a thin
//! caller: running, judging, storing and sharing go through the session API
//! (`reprise-session`) the desktop app calls too, the rest through the
//! crate that owns it. Nothing here holds logic the app would need too; a
//! behaviour the two front ends share and do differently is a bug.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// `eprintln!`, escaped: what the commands say on stderr quotes what was
/// typed (a run id, a path, a repository) and what a server or a file said,
/// so it is shown as the recipes' text is, through the one escaping
/// function ([`reprise_recipe::shown::escaped_text`]): no ESC, bidi override
/// or invisible character reaches the terminal raw.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", reprise_recipe::shown::escaped_text(&format!($($arg)*)))
    };
}

mod commands;
mod flags;
mod interrupt;
mod output;
mod table;

use commands::*;

#[derive(Parser)]
#[command(
    name = "reprise",
    version,
    about = "Reproduce published benchmark results on your machine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the recipes: post, date, steps, figures, claims, lanes runnable here.
    Recipes(recipes::Args),
    /// Show a recipe: steps with their reasons, lanes, figures, claims.
    Show(show::Args),
    /// Validate recipe files (exit 0 when valid, 2 otherwise).
    Check(check::Args),
    /// Verify or update checksums/recipes.sha256.
    Checksums(checksums::Args),
    /// Digest a folder: one SHA-256 over its sha256sum-format manifest.
    Digest(digest::Args),
    /// Run a recipe's steps: shows the plan, asks, then runs (resuming the last run).
    Run(run::Args),
    /// List past runs in the data dir.
    Runs(runs::Args),
    /// Remove run folders.
    Clean(clean::Args),
    /// Judge a directory of harness result files against a recipe's claims.
    Verdict(verdict::Args),
    /// List the runs stored on this machine.
    History(history::Args),
    /// Show two stored runs' cells side by side, with ratios.
    Compare(compare::Args),
    /// Render a stored run as Markdown, HTML or JSON.
    Report(report::Args),
    /// Post a stored run's report to GitHub Discussions (or print a prefilled link).
    Share(share::Args),
    /// Everyone's results for a recipe, read back from the Discussions, with this machine's among them.
    Community(community::Args),
    /// Forget the GitHub token.
    Logout(logout::Args),
    /// Generate HTTP load against one URL and report throughput and latency.
    Load(load::Args),
    /// Fingerprint this machine and its toolchains.
    Probe(probe::Args),
    /// Compare this machine with a recipe's before running it (exit 3 when a lane is blocked).
    Preflight(preflight::Args),
    /// Install the toolchains a recipe pins, through mise (shows the plan, asks, installs).
    Setup(setup::Args),
    /// Is this machine fit to benchmark on: checks, stability, loopback ceiling, verdict
    /// (exit 0 ready or usable with caveats, 1 not suitable, 2 could not validate).
    Validate(validate::Args),
}

fn main() -> ExitCode {
    // Parsed without styles: an error quotes what was typed, and is shown
    // escaped as everything that reaches the terminal from outside is (on
    // a terminal clap would print a value's ESC as it is); without styles
    // the only escapes in it are the value's.
    let plain = Cli::command().styles(clap::builder::Styles::plain());
    let cli = match plain
        .try_get_matches()
        .and_then(|mut m| Cli::from_arg_matches_mut(&mut m))
    {
        Ok(cli) => cli,
        // --help and --version, in colour where the terminal has it.
        Err(e) if !e.use_stderr() => {
            Cli::parse();
            e.exit()
        }
        Err(e) => {
            let text = e.render().ansi().to_string();
            eprint!("{}", reprise_recipe::shown::escaped_text(&text));
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match cli.command {
        Command::Recipes(args) => recipes::run(args),
        Command::Show(args) => show::run(args),
        Command::Check(args) => check::run(args),
        Command::Checksums(args) => checksums::run(args),
        Command::Digest(args) => digest::run(args),
        Command::Run(args) => run::run(args),
        Command::Runs(args) => runs::run(args),
        Command::Clean(args) => clean::run(args),
        Command::Verdict(args) => verdict::run(args),
        Command::History(args) => history::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Report(args) => report::run(args),
        Command::Share(args) => share::run(args),
        Command::Community(args) => community::run(args),
        Command::Logout(args) => logout::run(args),
        Command::Load(args) => load::run(args),
        Command::Probe(args) => probe::run(args),
        Command::Preflight(args) => preflight::run(args),
        Command::Setup(args) => setup::run(args),
        Command::Validate(args) => validate::run(args),
    }
}
