//! `reprise logout`: forget the GitHub token in every store it may be in.

use std::process::ExitCode;

use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    let out = super::session().sign_out();
    for store in &out.removed {
        println!("Signed out: the token is gone from {store}.");
    }
    if out.removed.is_empty() && out.failed.is_empty() {
        println!("No token was stored ({}).", out.empty.join(", "));
    }
    for store in &out.unreachable {
        say!(
            "note: could not reach {store}; a token kept there from a session that had it is still there (run `reprise logout` in that session)"
        );
    }
    for failure in &out.failed {
        say!("error: the token is still in {failure}");
    }
    if out.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
