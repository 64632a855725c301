//! `reprise checksums verify|update`: the recipes against checksums/recipes.sha256.

use std::process::ExitCode;

use clap::{Args as ClapArgs, Subcommand};
use reprise_recipe::ChecksumStatus;

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Check every recipe against the manifest (exit 1 on any difference).
    Verify,
    /// Rewrite the manifest from the recipes as they are now.
    Update,
}

pub fn run(args: Args) -> ExitCode {
    let catalog = super::session().catalog;
    let result = match args.action {
        Action::Verify => verify(&catalog),
        Action::Update => catalog.update_checksums().map(|changed| {
            if changed.is_empty() {
                println!(
                    "{} is up to date",
                    super::shown_path(&catalog.checksums_file())
                );
            }
            for path in changed {
                println!("updated  {path}");
            }
            ExitCode::SUCCESS
        }),
    };
    result.unwrap_or_else(|e| {
        say!("error: {e}");
        ExitCode::from(super::BAD_INPUT)
    })
}

fn verify(catalog: &reprise_recipe::Catalog) -> std::io::Result<ExitCode> {
    let sums = catalog.checksums()?;
    let mut failures = 0;
    let mut listed = Vec::new();
    for file in catalog.files()? {
        let path = catalog.manifest_path(&file);
        match catalog.status(&sums, &file)? {
            ChecksumStatus::Matches => println!("ok        {path}"),
            ChecksumStatus::Modified { expected, actual } => {
                failures += 1;
                println!(
                    "MODIFIED  {path}\n          expected {expected}\n          actual   {actual}"
                );
            }
            ChecksumStatus::Unlisted => {
                failures += 1;
                println!("UNLISTED  {path}");
            }
            ChecksumStatus::Unreadable { reason } => {
                failures += 1;
                println!("UNREADABLE {path}: {reason}");
            }
        }
        listed.push(path);
    }
    for path in sums.paths().filter(|p| !listed.iter().any(|l| l == p)) {
        failures += 1;
        println!("MISSING   {path}");
    }
    if failures > 0 {
        say!(
            "{} from {}; if the change is intended, run `reprise checksums update`",
            match failures {
                1 => "1 recipe differs".to_string(),
                n => format!("{n} recipes differ"),
            },
            super::shown_path(&catalog.checksums_file())
        );
        Ok(ExitCode::FAILURE)
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
