//! `reprise recipes`: the recipes, one line each.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_session::LoadedRecipe;
use reprise_session::recipes::running;
use reprise_session::views::RecipeCard;

use crate::table::Table;

#[derive(ClapArgs)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    let library = match session.library() {
        Ok(l) => l,
        Err(e) => {
            say!(
                "error: cannot read {}: {e}",
                super::shown_path(&session.catalog.recipes_dir())
            );
            return ExitCode::from(super::BAD_INPUT);
        }
    };
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
    for loaded in &library.recipes {
        let LoadedRecipe {
            recipe, checksum, ..
        } = loaded;
        // The Library's card: the same counts the app shows.
        let card = RecipeCard::of(&session, loaded);
        let runnable = running(&card.lanes);
        table.row(vec![
            recipe.id().to_string(),
            truncate(&recipe.post.title, 48),
            recipe.post.date.clone(),
            recipe.steps.len().to_string(),
            recipe.figures.len().to_string(),
            recipe.claims.len().to_string(),
            format!("{}/{}", card.runs_here, card.runnable),
            checksum.word().to_string(),
        ]);
        json.push(serde_json::json!({
            "id": recipe.id(), "title": recipe.post.title, "author": recipe.post.author,
            "date": recipe.post.date, "file": recipe.file, "steps": recipe.steps.len(),
            "figures": recipe.figures.len(), "claims": recipe.claims.len(),
            "lanes": recipe.lanes.len(), "lanes_runnable_here": runnable, "checksum": checksum,
        }));
    }
    for problem in &library.problems {
        table.row(vec![
            problem.id.clone(),
            "(invalid: see `reprise check`)".into(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            session.catalog.checksum_status(&problem.file).word().into(),
        ]);
        json.push(serde_json::json!({ "id": problem.id, "file": problem.file, "invalid": true }));
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    } else {
        print!("{}", table.render(0));
    }
    if library.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::BAD_INPUT)
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
