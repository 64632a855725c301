//! `reprise community RECIPE`: everyone's results for a recipe, read back
//! from the sharing repository's Discussions — per claim, how many results
//! (one per author) reproduced it, did not, or could not say, by CPU model,
//! with this machine's latest run placed among them; the posts that cannot
//! be counted apart, with why (one whose stated outcome its own numbers do
//! not come to among them). The session reads, checks and counts; this
//! prints, every text from a post escaped.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args as ClapArgs;
use reprise_recipe::reading::value;
use reprise_recipe::shown::escaped;
use reprise_session::community::{ClaimAmong, Community, Fetch, Progress};

use crate::table::{Table, wrap};

#[derive(ClapArgs)]
pub struct Args {
    /// A recipe id (or file).
    recipe: String,
    /// The repository whose Discussions to read, OWNER/NAME (default: where
    /// `reprise share` posts: $REPRISE_DISCUSSIONS_REPO, else the one
    /// chosen in the app).
    #[arg(long)]
    repo: Option<String>,
    /// Show what the cache has, without asking GitHub.
    #[arg(long)]
    offline: bool,
    /// Sign in to GitHub first (its GraphQL API answers only signed-in
    /// requests, even for public discussions).
    #[arg(long, conflicts_with = "offline")]
    sign_in: bool,
    /// The GitHub OAuth app to sign in with (default: $REPRISE_GITHUB_CLIENT_ID).
    #[arg(long)]
    client_id: Option<String>,
    /// Print the whole result as JSON, for scripts.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let mut session = super::session();
    if let Some(client_id) = &args.client_id {
        session.share.client_id = Some(client_id.clone());
    }
    if args.sign_in && !matches!(session.token(), Ok(Some(_))) {
        if session.share.client_id.is_none() {
            say!(
                "error: no GitHub OAuth app to sign in with (--client-id or REPRISE_GITHUB_CLIENT_ID); without one: set GH_TOKEN, or sign in the GitHub CLI (`gh auth login`)"
            );
            return ExitCode::from(super::BAD_INPUT);
        }
        if let Err(e) = super::share::device_sign_in(&session) {
            say!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut said = Said::new();
    let view = session.community_with(
        &args.recipe,
        args.repo.as_deref(),
        !args.offline,
        &mut |p| said.progress(p),
    );
    said.done();
    let view = match view {
        Ok(view) => view,
        Err(e) => {
            say!("{}", super::error_text(&e));
            if matches!(e, reprise_session::SessionError::NoRepository) {
                say!("Say which: --repo OWNER/NAME (or set REPRISE_DISCUSSIONS_REPO).");
            }
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    // Nothing to show, and the reason it could not be fetched is the answer.
    let nothing = view.discussions == 0
        && matches!(
            view.fetch,
            Fetch::NotSignedIn | Fetch::Failed { .. } | Fetch::Stopped { .. }
        );
    if args.json {
        match serde_json::to_string_pretty(&view) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                say!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        print!("{}", render(&view));
    }
    if nothing {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// How far a fetch has gone, on stderr: on a terminal a line redrawn
/// after each page; elsewhere (a log, a pipe) a line every
/// [`Said::EVERY`], so that a slow fetch is never silent for long.
struct Said {
    terminal: bool,
    last: Instant,
    drawn: bool,
}

impl Said {
    const EVERY: Duration = Duration::from_secs(10);

    fn new() -> Said {
        Said {
            terminal: std::io::stderr().is_terminal(),
            last: Instant::now(),
            drawn: false,
        }
    }

    fn progress(&mut self, p: Progress) {
        let line = format!(
            "Fetching the discussions: {} page{} read, {} new or changed, {} s of at most {} s",
            p.pages,
            plural(p.pages),
            p.read,
            p.elapsed.as_secs(),
            p.within.as_secs()
        );
        if self.terminal {
            eprint!("\r\x1b[2K{line}");
            self.drawn = true;
        } else if self.last.elapsed() >= Said::EVERY {
            eprintln!("{line}");
            self.last = Instant::now();
        }
    }

    /// Clears a line redrawn on a terminal.
    fn done(&self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
        }
    }
}

/// The whole view as the terminal shows it.
fn render(view: &Community) -> String {
    let mut out = format!(
        "Everyone's results for {}, from the Discussions of {}\n",
        view.recipe, view.repo
    );
    out.push_str(&fetch_lines(view));
    if view.discussions == 0 {
        return out;
    }
    let mut counted = format!(
        "{} result{} counted (the newest post per author of this recipe version",
        view.counted,
        plural(view.counted)
    );
    if view.superseded > 0 {
        counted.push_str(&format!(
            "; {} older or repeated post{} left out",
            view.superseded,
            plural(view.superseded)
        ));
    }
    counted.push(')');
    if !view.apart.is_empty() {
        counted.push_str(&format!(
            "; {} post{} kept apart, below",
            view.apart.len(),
            plural(view.apart.len())
        ));
    }
    if view.dropped > 0 {
        counted.push_str(&format!(
            "; {} older discussions beyond the cache's bounds not read",
            view.dropped
        ));
    }
    out.push_str(&format!("{counted}.\n"));
    for claim in &view.claims {
        out.push('\n');
        out.push_str(&claim_lines(claim));
    }
    if !view.apart.is_empty() {
        out.push_str("\nKept apart (not counted):\n");
        for post in &view.apart {
            let by = post
                .author
                .as_deref()
                .map(|a| format!(" by {}", escaped(a)))
                .unwrap_or_default();
            out.push_str(&format!(
                "  #{} {}{by}: {}\n    {}\n",
                post.number,
                escaped(&post.title),
                escaped(&post.words),
                post.url
            ));
        }
    }
    if let Some(this) = &view.this_machine {
        out.push_str(&format!(
            "\nThis machine: run {} ({}{}){}.\n",
            this.run,
            escaped(this.machine.cpu.as_deref().unwrap_or("unknown CPU")),
            if this.reviewed {
                ""
            } else {
                ", not of the reviewed recipe's digest"
            },
            match this.shared_as {
                Some(n) => format!(", shared as #{n}"),
                None => ", not shared yet (`reprise share RUN`)".into(),
            }
        ));
    } else {
        out.push_str(&format!(
            "\nThis machine has no stored run of {}: `reprise run {}` makes one.\n",
            view.recipe, view.recipe
        ));
    }
    out
}

/// Whether the Discussions were fetched, and when the cache was last
/// brought up to date.
fn fetch_lines(view: &Community) -> String {
    let as_of = match &view.fetched_at {
        Some(at) => format!("as of {at}"),
        None => "nothing cached yet".into(),
    };
    let mut out = String::new();
    if let Some(why) = &view.cache_unread {
        out.push_str(&format!(
            "The cache file {why}: it was not read, and is started again.\n"
        ));
    }
    out.push_str(&match &view.fetch {
        Fetch::Fetched {
            read,
            pages,
            read_again,
        } => format!(
            "Fetched {read} new or changed discussion{} ({pages} page{}{}); {} in the cache, {as_of}.\n",
            plural(*read),
            plural(*pages),
            if *read_again {
                ", read again whole: some were deleted"
            } else {
                ""
            },
            view.discussions
        ),
        Fetch::Unchanged => format!(
            "Nothing changed on GitHub since the last fetch; {} in the cache, {as_of}.\n",
            view.discussions
        ),
        Fetch::Offline => format!(
            "Not fetched (--offline): the cache's {} discussions, {as_of}.\n",
            view.discussions
        ),
        Fetch::NotSignedIn => format!(
            "Not fetched: GitHub's GraphQL API answers only signed-in requests, even for public discussions. Showing the cache ({as_of}).\nThe discussions are public in a browser: {}\nSigned in, Reprise reads them and counts each result here, claim by claim: set GH_TOKEN, sign in the GitHub CLI (`gh auth login`), or keep a token with `reprise share RUN --token-stdin`; then run this again.\n",
            escaped(&view.discussions_url)
        ),
        Fetch::Stopped { reason, .. } => format!(
            "Not fetched in full: {}. {} in the cache, {as_of}.\n",
            escaped(reason),
            view.discussions
        ),
        Fetch::Failed { reason } => format!(
            "Not fetched: {}. Showing the cache ({as_of}).\n",
            escaped(reason)
        ),
    });
    if let Some(rate) = &view.rate {
        out.push_str(&format!(
            "GitHub's rate limit: {} requests left in this window.\n",
            rate.remaining
        ));
    }
    out
}

/// One claim: its band, its counts overall and by CPU, this machine.
fn claim_lines(claim: &ClaimAmong) -> String {
    let mut head = format!("{} ({})", claim.claim, claim.kind);
    if let Some(p) = claim.published {
        head.push_str(&format!(": published {}", value(p, &claim.unit)));
    }
    if let Some(band) = &claim.band_reading {
        head.push_str(&format!(", accepted {band}"));
    }
    let mut out = format!("{head}\n");
    if claim.points.is_empty() {
        out.push_str("  No machine's result yet.\n");
    } else {
        out.push_str(&format!(
            "  {} reproduced, {} not reproduced, {} could not say\n",
            claim.reproduced, claim.not_reproduced, claim.could_not_say
        ));
        let mut table = Table::new(&["CPU", "reproduced", "not reproduced", "could not say"]);
        for cpu in &claim.by_cpu {
            table.row(vec![
                escaped(&cpu.cpu).into_owned(),
                cpu.reproduced.to_string(),
                cpu.not_reproduced.to_string(),
                cpu.could_not_say.to_string(),
            ]);
        }
        out.push_str(&table.render(2));
    }
    if let Some(placed) = &claim.this_machine {
        out.push_str(&wrap(&format!("This machine: {}", placed.words()), 100, 2));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
