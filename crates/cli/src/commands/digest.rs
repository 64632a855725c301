//! `reprise digest DIR [--manifest] [--check FILE]`: the tree digest of a
//! folder, its manifest in sha256sum format, or a comparison with one.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_engine::inputs::tree_digest::{Manifest, digest_tree};

#[derive(ClapArgs)]
pub struct Args {
    /// The folder to digest.
    dir: PathBuf,
    /// Print the manifest (sha256sum format) instead of the one digest.
    #[arg(long)]
    manifest: bool,
    /// Compare with a manifest file; exit 1 naming the files that differ.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let manifest = match digest_tree(&args.dir, &|_, _| {}) {
        Ok(m) => m,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    if let Some(file) = &args.check {
        let expected = match Manifest::read(file) {
            Ok(m) => m,
            Err(e) => {
                say!("error: {e}");
                return ExitCode::from(super::BAD_INPUT);
            }
        };
        let mismatch = manifest.compare(&expected);
        if !mismatch.is_empty() {
            say!(
                "{} does not match {}: {mismatch}",
                super::shown_path(&args.dir),
                super::shown_path(file)
            );
            return ExitCode::FAILURE;
        }
    }
    if args.manifest {
        print!("{}", manifest.text());
    } else {
        println!("{}  {} files", manifest.digest(), manifest.files.len());
    }
    ExitCode::SUCCESS
}
