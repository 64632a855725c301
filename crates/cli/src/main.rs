//! `reprise`: reproduce a published benchmark result on this machine.
//!
//! Every subcommand lives in its own module under `commands/` and is a thin
//! caller of the library crates; nothing here holds logic the desktop app
//! would need too.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;

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
    /// Generate HTTP load against one URL and report throughput and latency.
    Load(commands::load::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Load(args) => commands::load::run(args),
    }
}
