//! `reprise recipes`: the recipes, one line each.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_recipe::ChecksumStatus;

use crate::table::Table;

#[derive(ClapArgs)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let catalog = super::catalog();
    let files = match catalog.files() {
        Ok(f) => f,
        Err(e) => {
            eprintln!(
                "error: cannot read {}: {e}",
                catalog.recipes_dir().display()
            );
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    let checksums = catalog.checksums().unwrap_or_default();
    let mut table = Table::new(&[
        "id",
        "post",
        "date",
        "steps",
        "figures",
        "claims",
        "lanes runnable",
        "checksum",
    ]);
    let mut json = Vec::new();
    let mut invalid = 0;
    for file in &files {
        let status = match catalog.status(&checksums, file) {
            Ok(ChecksumStatus::Matches) => "ok",
            Ok(ChecksumStatus::Modified { .. }) => "MODIFIED",
            Ok(ChecksumStatus::Unlisted) => "unlisted",
            Err(_) => "unreadable",
        };
        match reprise_recipe::load(file) {
            Ok(recipe) => {
                let runnable = super::runnable_lanes(&recipe);
                let total = recipe.lanes.iter().filter(|l| l.is_runnable()).count();
                table.row(vec![
                    recipe.id().to_string(),
                    truncate(&recipe.post.title, 48),
                    recipe.post.date.clone(),
                    recipe.steps.len().to_string(),
                    recipe.figures.len().to_string(),
                    recipe.claims.len().to_string(),
                    format!("{}/{}", runnable.len(), total),
                    status.to_string(),
                ]);
                json.push(serde_json::json!({
                    "id": recipe.id(), "title": recipe.post.title, "author": recipe.post.author,
                    "date": recipe.post.date, "file": file, "steps": recipe.steps.len(),
                    "figures": recipe.figures.len(), "claims": recipe.claims.len(),
                    "lanes": recipe.lanes.len(), "lanes_runnable_here": runnable, "checksum": status,
                }));
            }
            Err(_) => {
                invalid += 1;
                let id = file
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                table.row(vec![
                    id.clone(),
                    "(invalid: see `reprise check`)".into(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    status.into(),
                ]);
                json.push(serde_json::json!({ "id": id, "file": file, "invalid": true, "checksum": status }));
            }
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    } else {
        print!("{}", table.render(0));
    }
    if invalid > 0 {
        ExitCode::from(super::BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max - 1).collect();
        format!("{cut}…")
    }
}
