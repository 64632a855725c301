//! `reprise report RUN [--format md|html|json] [-o FILE] [--harness DIR]`:
//! render a stored run, and export the harness's files; `--verdicts`: only
//! its verdicts, as the run ended with them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_report::Format;
use reprise_session::harness_files;

#[derive(ClapArgs)]
pub struct Args {
    /// A run id from `reprise history`.
    run: String,
    /// md (GitHub-flavoured Markdown), html (self-contained page) or json.
    #[arg(long, default_value = "md")]
    format: Format,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Also write the harness's summary.json, per-run.json and env.json into this directory.
    #[arg(long)]
    harness: Option<PathBuf>,
    /// Print only its verdicts, as the run ended with them: a row per
    /// claim with its verdict, and each reason once.
    #[arg(long, conflicts_with_all = ["format", "output"])]
    verdicts: bool,
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    if let Err(code) = super::history::open(&session) {
        return code;
    }
    // The session's report: with the machine and recipe digest its
    // machine-readable result carries.
    let report = match session.report(&args.run) {
        Ok(r) => r,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    if let Some(dir) = &args.harness {
        if let Err(e) = harness_files::export(&report, dir) {
            say!("error: {e}");
            return ExitCode::FAILURE;
        }
        say!(
            "wrote summary.json, per-run.json and env.json to {}",
            super::shown_path(dir)
        );
    }
    if args.verdicts {
        print!(
            "{}",
            crate::output::verdicts(&report, crate::output::colour())
        );
        return ExitCode::SUCCESS;
    }
    write_report(&report, args.format, args.output.as_deref())
}

/// Renders a report to a file, or to standard output.
pub fn write_report(
    report: &reprise_report::Report,
    format: Format,
    output: Option<&std::path::Path>,
) -> ExitCode {
    let bytes = match format.exporter().render(report) {
        Ok(b) => b,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match output {
        Some(file) => match std::fs::write(file, bytes) {
            Ok(()) => {
                say!("wrote {}", super::shown_path(file));
                ExitCode::SUCCESS
            }
            Err(e) => {
                say!("error: {}: {e}", file.display());
                ExitCode::FAILURE
            }
        },
        None => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&bytes);
            ExitCode::SUCCESS
        }
    }
}
