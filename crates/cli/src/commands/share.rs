//! `reprise share RUN`: post a stored run's report to GitHub Discussions —
//! a redacted preview first, sign-in by the device flow where needed — or,
//! without a token, print a prefilled new-discussion URL and write the
//! report to a file to paste.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_report::history::data_dir;
use reprise_report::share::{
    self, GitHub, Redactor, ShareError, TokenStore, create_discussion, find_target,
    new_discussion_url, request_code, sign_in,
};

#[derive(ClapArgs)]
pub struct Args {
    /// A run id from `reprise history`.
    run: String,
    /// The repository to post in, OWNER/NAME (default: $REPRISE_DISCUSSIONS_REPO).
    #[arg(long)]
    repo: Option<String>,
    /// The discussion category, by name or slug (default: the recipe's id).
    #[arg(long)]
    category: Option<String>,
    /// Post host names, user names, home paths and IP addresses as they are.
    #[arg(long)]
    no_redact: bool,
    /// Post without asking after the preview.
    #[arg(long)]
    yes: bool,
    /// The GitHub OAuth app to sign in with (default: $REPRISE_GITHUB_CLIENT_ID).
    #[arg(long)]
    client_id: Option<String>,
    /// Where to write the report for pasting (default: the data dir's shares/).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::FAILURE
}

pub fn run(args: Args) -> ExitCode {
    let history = match super::history::open() {
        Ok(h) => h,
        Err(code) => return code,
    };
    let report = match history.load(&args.run) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    let Some(repo) = args
        .repo
        .clone()
        .or_else(|| std::env::var("REPRISE_DISCUSSIONS_REPO").ok())
    else {
        eprintln!("error: say where to post: --repo OWNER/NAME (or set REPRISE_DISCUSSIONS_REPO)");
        return ExitCode::from(super::BAD_INPUT);
    };
    let category = args
        .category
        .clone()
        .unwrap_or_else(|| report.run.recipe.clone());
    let redactor =
        (!args.no_redact).then(|| Redactor::from_fingerprint(&report.environment.fingerprint));
    let post = match share::prepare(&report, redactor.as_ref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };

    println!("This is exactly what will be posted to {repo}, category `{category}`");
    if redactor.is_some() {
        println!(
            "(host names, user names, home paths and IP addresses redacted; --no-redact to keep them):"
        );
    }
    println!(
        "\n--- title ---\n{}\n--- body ---\n{}--- end ---\n",
        post.title, post.body
    );

    let file = args.output.clone().unwrap_or_else(|| {
        data_dir()
            .join("shares")
            .join(format!("{}.md", report.run.id))
    });
    if let Some(dir) = file.parent()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return fail(format!("{}: {e}", dir.display()));
    }
    if let Err(e) = std::fs::write(&file, format!("{}\n\n{}", post.title, post.body)) {
        return fail(format!("{}: {e}", file.display()));
    }
    println!("The report is also in {}", file.display());

    let github = GitHub::from_env();
    let (store, warning) = TokenStore::choose(&data_dir());
    let mut token = match store.load() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if token.is_none() {
        let client_id = args
            .client_id
            .clone()
            .or_else(|| std::env::var("REPRISE_GITHUB_CLIENT_ID").ok());
        match client_id {
            Some(client_id) => match device_sign_in(&github, &client_id) {
                Ok(t) => {
                    if let Some(w) = &warning {
                        eprintln!("warning: {}", w.0);
                    }
                    if let Err(e) = store.save(&t) {
                        return fail(e);
                    }
                    println!("Signed in; the token is kept in {}.", store.describe());
                    token = Some(t);
                }
                Err(e) => {
                    eprintln!("error: {e}");
                }
            },
            None => println!(
                "Not signed in to GitHub (no token stored, and no OAuth app: --client-id or REPRISE_GITHUB_CLIENT_ID)."
            ),
        }
    }
    let Some(token) = token else {
        println!(
            "\nOpen this page to post it yourself (paste the body from {} if the page is cut short):\n{}",
            file.display(),
            prefilled_url(&github, &repo, &category, &post)
        );
        return ExitCode::SUCCESS;
    };
    if !args.yes && !confirm() {
        println!("Not posted.");
        return ExitCode::FAILURE;
    }
    let posted = find_target(&github, &token, &repo, &category)
        .and_then(|target| create_discussion(&github, &token, &target, &post.title, &post.body));
    match posted {
        Ok(d) => {
            println!("Posted: {}", d.url);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// A prefilled URL, with the body left out when the URL would be too long
/// for a browser to carry.
fn prefilled_url(github: &GitHub, repo: &str, category: &str, post: &share::Post) -> String {
    let url = new_discussion_url(&github.web, repo, category, &post.title, &post.body);
    if url.len() <= 8000 {
        return url;
    }
    let short =
        "The full report did not fit in a link; paste it here from the file `reprise share` wrote.";
    new_discussion_url(&github.web, repo, category, &post.title, short)
}

fn device_sign_in(github: &GitHub, client_id: &str) -> Result<String, ShareError> {
    let code = request_code(github, client_id, "public_repo")?;
    println!(
        "\nTo sign in, open {} and enter the code {}",
        code.verification_uri, code.user_code
    );
    println!(
        "Waiting (the code expires in {} minutes)...",
        code.expires_in / 60
    );
    sign_in(github, client_id, &code, &mut std::thread::sleep)
}

fn confirm() -> bool {
    if !std::io::stdin().is_terminal() {
        eprintln!("Not a terminal: pass --yes to post without asking.");
        return false;
    }
    print!("Post this? [y/N] ");
    let _ = std::io::stdout().flush();
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    matches!(line.trim(), "y" | "Y" | "yes")
}
