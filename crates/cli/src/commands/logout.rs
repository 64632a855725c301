//! `reprise logout`: forget the GitHub token.

use std::process::ExitCode;

use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    let (store, _) = super::session().token_store();
    match store.delete() {
        Ok(true) => {
            println!("Signed out: the token is gone from {}.", store.describe());
            ExitCode::SUCCESS
        }
        Ok(false) => {
            println!("No token was stored ({}).", store.describe());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
