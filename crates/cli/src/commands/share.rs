//! `reprise share RUN`: post a stored run's report to GitHub Discussions —
//! a redacted preview first, sign-in by the device flow where needed — or,
//! without a token, print a prefilled new-discussion URL and write the
//! report to a file to paste.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_recipe::shown::escaped;
use reprise_session::Session;

#[derive(ClapArgs)]
pub struct Args {
    /// A run id from `reprise history`.
    run: String,
    /// The repository to post in, OWNER/NAME (default:
    /// $REPRISE_DISCUSSIONS_REPO, else the one chosen last in the app).
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
    /// Read a GitHub token from standard input and keep it (in the OS
    /// keyring where there is one) for this and later posts; never printed.
    #[arg(long)]
    token_stdin: bool,
}

fn fail(e: impl std::fmt::Display) -> ExitCode {
    say!("error: {e}");
    ExitCode::FAILURE
}

pub fn run(args: Args) -> ExitCode {
    let mut session = super::session();
    if let Some(client_id) = &args.client_id {
        session.share.client_id = Some(client_id.clone());
    }
    let bad_input = |e: reprise_session::SessionError| {
        say!("error: {e}");
        ExitCode::from(super::BAD_INPUT)
    };
    let post_to = match session.post_to(args.repo.as_deref()) {
        Ok(to) => to,
        Err(e) => return bad_input(e),
    };
    let preview = match session.share_preview(
        &args.run,
        post_to.as_ref().map(|to| to.repo.as_str()),
        args.category.as_deref(),
        !args.no_redact,
    ) {
        Ok(p) => p,
        Err(e) => return bad_input(e),
    };
    let Some(post_to) = post_to else {
        say!(
            "error: say where to post: --repo OWNER/NAME (or set REPRISE_DISCUSSIONS_REPO, or choose one in the app)"
        );
        return ExitCode::from(super::BAD_INPUT);
    };
    let repo = post_to.repo;
    println!("Posting to {repo} ({}).", post_to.from.words());

    println!(
        "This is exactly what will be posted to {repo}, category `{}`",
        preview.category
    );
    if preview.redacted {
        println!(
            "(host and domain names, user names, home paths, e-mail, IP and MAC addresses and credentials in URLs redacted; --no-redact to keep them):"
        );
    }
    println!(
        "\n--- title ---\n{}\n--- body ---\n{}--- end ---\n",
        preview.title, preview.body
    );

    let file = match session.save_share(&preview, args.output.as_deref()) {
        Ok(file) => file,
        Err(e) => return fail(e),
    };
    println!("The report is also in {}", super::shown_path(&file));

    if args.token_stdin {
        let mut pasted = String::new();
        if let Err(e) = std::io::stdin().lock().read_line(&mut pasted) {
            return fail(e);
        }
        match session.keep_token(&pasted) {
            Ok(kept) => println!(
                "The token signs in as {}; it is kept in {}.",
                kept.login
                    .as_deref()
                    .unwrap_or("an account GitHub did not name"),
                kept.store
            ),
            Err(e) => return bad_input(e),
        }
    }
    let signed_in = match session.token_and_source() {
        Ok(t) => t.map(|(_, from)| from),
        Err(e) => return fail(e),
    };
    match signed_in {
        Some(from) => println!("Signed in to GitHub with {}.", from.words()),
        None if session.share.client_id.is_some() => {
            if let Err(e) = device_sign_in(&session) {
                say!("error: {e}");
            }
        }
        None => println!(
            "Not signed in to GitHub: set GH_TOKEN, sign in the GitHub CLI (gh auth login), or pass a token with --token-stdin."
        ),
    }
    if !matches!(session.token(), Ok(Some(_))) {
        println!(
            "\nOpen this page to post it yourself{}:\n{}",
            if preview.body_in_link {
                String::new()
            } else {
                format!(
                    " (paste the body from {}: it is too long for a link)",
                    super::shown_path(&file)
                )
            },
            preview.prefilled_url.unwrap_or_default()
        );
        return ExitCode::SUCCESS;
    }
    if !args.yes && !confirm() {
        println!("Not posted.");
        return ExitCode::FAILURE;
    }
    match session.submit(&preview) {
        Ok(d) => {
            println!("Posted: {}", d.url);
            ExitCode::SUCCESS
        }
        Err(e) => {
            let code = fail(&e);
            if e.is_token_refused() {
                say!(
                    "Sign in again: `reprise logout`, then `reprise share {}` (or pass a new token with --token-stdin); or post it yourself from {}",
                    preview.run,
                    preview.prefilled_url.as_deref().unwrap_or_default()
                );
            }
            code
        }
    }
}

/// Signs in by GitHub's device flow, showing the code to enter.
pub(crate) fn device_sign_in(session: &Session) -> Result<(), reprise_session::SessionError> {
    let code = session.begin_sign_in()?;
    // A server's text: escaped here too, whatever checked it before.
    println!(
        "\nTo sign in, open {} and enter the code {}",
        escaped(&code.verification_uri),
        escaped(&code.user_code)
    );
    println!(
        "Waiting (the code expires in {} minutes)...",
        code.expires_in / 60
    );
    let kept = session.finish_sign_in(&code, &mut std::thread::sleep)?;
    if let Some(w) = &kept.warning {
        say!("warning: {}", w.0);
    }
    match &kept.login {
        Some(login) => println!("Signed in as {login}; the token is kept in {}.", kept.store),
        None => println!("Signed in; the token is kept in {}.", kept.store),
    }
    Ok(())
}

fn confirm() -> bool {
    if !std::io::stdin().is_terminal() {
        say!("Not a terminal: pass --yes to post without asking.");
        return false;
    }
    print!("Post this? [y/N] ");
    let _ = std::io::stdout().flush();
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    matches!(line.trim(), "y" | "Y" | "yes")
}
