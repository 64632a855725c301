//! Sharing a report to GitHub Discussions: sign-in by the OAuth device
//! flow, the token kept in the OS keyring (or a 0600 file), a redacted
//! preview, and the discussion created over GraphQL — or, without a token,
//! a prefilled new-discussion URL. And reading everyone's shared results
//! back ([`community`]): the Discussions fetched into a cache, each post's
//! result block read as a stranger's data.
//!
//! The only crate that talks to GitHub or keeps a secret: running a recipe
//! never links it. Requests go through reqwest (rustls) on a tokio runtime
//! the [`GitHub`] client owns, so callers stay synchronous. Base URLs are
//! configurable ([`GitHub::from_env`]: `REPRISE_GITHUB_URL`,
//! `REPRISE_GITHUB_API_URL`), so tests point the client at a local server.
//!
//! ```
//! let url = reprise_share::new_discussion_url(
//!     "https://github.com", "rubys/roundhouse", "campfire-runtimes", "Reprise: a run", "# Body",
//! );
//! assert!(url.starts_with("https://github.com/rubys/roundhouse/discussions/new?category=campfire-runtimes&title=Reprise"));
//! ```

pub mod community;
mod device_flow;
mod discussions;
mod redaction;
mod token_store;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub use device_flow::{DeviceCode, Poll, request_code, sign_in};
use reprise_report::{Exporter, MarkdownExporter, Report, ReportError, ResultBlock};

pub use discussions::{
    Category, CreatedDiscussion, Target, compose_body, create_discussion, find_target, is_login,
    new_discussion_url, signed_in_as,
};
pub use redaction::Redactor;
pub use token_store::{SignOut, TokenFileProblem, TokenStore, Warning};

/// Why sharing failed.
#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    #[error("cannot reach {url}: {message}")]
    Transport { url: String, message: String },
    #[error("{url} answered {status}: {body}")]
    Status {
        url: String,
        status: u16,
        body: String,
    },
    /// What to do depends on the front end: each says it.
    #[error("GitHub refused the token (401: {0}): it is mistyped, expired or revoked")]
    Unauthorized(String),
    #[error("the sign-in code expired before it was entered; run the command again for a new code")]
    Expired,
    #[error("the sign-in was declined at GitHub")]
    Denied,
    #[error("sign-in failed: {0}")]
    DeviceFlow(String),
    #[error("no repository {0} visible to this account")]
    NoRepository(String),
    #[error("{repo} has no discussion category `{category}` (it has: {})", available.join(", "))]
    NoCategory {
        repo: String,
        category: String,
        available: Vec<String>,
    },
    #[error("GitHub GraphQL: {}", .0.join("; "))]
    GraphQl(Vec<String>),
    #[error("GitHub's API rate limit is spent{}", resets_in(*reset))]
    RateLimited {
        /// When it resets (Unix seconds), where GitHub said.
        reset: Option<u64>,
    },
    #[error(
        "the fetch stopped at its limit of {} after {pages} page{}: the {read} discussion{} read {} kept, and the rest is read next time",
        within_words(*within), plural(*pages), plural(*read), if *read == 1 { "is" } else { "are" }
    )]
    Stopped {
        /// The limit it stopped at.
        within: Duration,
        pages: usize,
        /// Discussions new or changed since the last fetch that were read.
        read: usize,
    },
    #[error("unexpected answer from {url}: {message}")]
    Unexpected { url: String, message: String },
    /// A listing that says there is a next page, with a cursor it gave
    /// before (or none): followed, it would never end.
    #[error("unexpected answer from {url}: a next page without a new cursor")]
    NoNewCursor { url: String },
    /// A token would go where it does not belong (see
    /// [`GitHub::token_destination`]); nothing was sent.
    #[error("no token is sent to {api}: {why}")]
    TokenWithheld { api: String, why: Withheld },
    #[error("keyring: {0}")]
    Keyring(String),
    #[error("the token file {} {problem}; it is not used. To fix: {fix}", file.display())]
    TokenFile {
        file: PathBuf,
        problem: TokenFileProblem,
        fix: String,
    },
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
}

/// Why a token is not sent to the configured API host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withheld {
    /// Plain http to a host that is not this machine's loopback.
    NotHttps,
    /// A host that is neither the web host nor its `api.` host.
    NotTheWebHostsApi,
}

impl std::fmt::Display for Withheld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Withheld::NotHttps => "it is not https (only a loopback address may be plain http)",
            Withheld::NotTheWebHostsApi => {
                "it is not the API of the web host Reprise signs in at (that host itself, or api. and that host: set REPRISE_GITHUB_URL and REPRISE_GITHUB_API_URL as a pair)"
            }
        })
    }
}

/// The host of an address as the URL parser reads it (lowercased, an IPv6
/// address without its brackets): `github.com` of `https://github.com/`,
/// `::1` of `http://[::1]:8080`; `None` where there is none.
pub fn host_of(url: &str) -> Option<String> {
    reqwest::Url::parse(url).ok().as_ref().and_then(url_host)
}

fn url_host(url: &reqwest::Url) -> Option<String> {
    let host = url.host_str()?;
    Some(
        host.trim_start_matches('[')
            .trim_end_matches(']')
            .to_string(),
    )
}

fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `2 minutes`, `90 seconds`.
fn within_words(within: Duration) -> String {
    let secs = within.as_secs();
    match secs {
        _ if within.subsec_nanos() != 0 => format!("{} ms", within.as_millis()),
        s if s >= 60 && s % 60 == 0 => {
            format!("{} minute{}", s / 60, plural((s / 60) as usize))
        }
        s => format!("{s} second{}", plural(s as usize)),
    }
}

/// When a rate limit resets, from now: ` (it resets in 12 minutes)`.
fn resets_in(reset: Option<u64>) -> String {
    match reset {
        Some(at) => {
            let minutes = at.saturating_sub(community::now()).div_ceil(60);
            format!(
                " (it resets in {minutes} minute{})",
                if minutes == 1 { "" } else { "s" }
            )
        }
        None => String::new(),
    }
}

/// Where GitHub is (the web host for the device flow and new-discussion
/// pages, the API host for GraphQL), and the client that talks to it.
#[derive(Clone, Debug)]
pub struct GitHub {
    pub web: String,
    pub api: String,
    /// How long a fetch of a repository's Discussions may take in all
    /// ([`community::FETCH_WITHIN`] unless said otherwise).
    pub fetch_within: Duration,
    /// The HTTP client and its runtime, made at the first request: making
    /// the client loads the system's root certificates, which took 22 ms
    /// of every `reprise` command's 26 (a debug build), asking GitHub or not.
    transport: Arc<OnceLock<Transport>>,
}

/// What talks to GitHub: the client and the runtime its requests run on.
#[derive(Debug)]
struct Transport {
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
}

impl GitHub {
    pub fn new(web: &str, api: &str) -> GitHub {
        GitHub {
            web: web.trim_end_matches('/').to_string(),
            api: api.trim_end_matches('/').to_string(),
            fetch_within: community::FETCH_WITHIN,
            transport: Arc::default(),
        }
    }

    /// The client and its runtime, made once. Making a client fails only
    /// without a TLS backend, which this crate always compiles in; the
    /// runtime only without threads.
    fn transport(&self) -> &Transport {
        self.transport.get_or_init(|| {
            // reqwest's rustls on ring, the workspace's one crypto provider
            // (an error only says one is installed already).
            let _ = rustls::crypto::ring::default_provider().install_default();
            Transport {
                client: reqwest::Client::builder()
                    .timeout(Duration::from_secs(30))
                    .user_agent("reprise")
                    .build()
                    .expect("reqwest client with rustls"),
                runtime: tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a current-thread tokio runtime"),
            }
        })
    }

    /// github.com, unless `REPRISE_GITHUB_URL` / `REPRISE_GITHUB_API_URL`
    /// say otherwise; a fetch of Discussions within
    /// `REPRISE_FETCH_WITHIN_SECONDS` where it is a whole number of seconds
    /// from 1 to a day.
    pub fn from_env() -> GitHub {
        let web =
            std::env::var("REPRISE_GITHUB_URL").unwrap_or_else(|_| "https://github.com".into());
        let api = std::env::var("REPRISE_GITHUB_API_URL")
            .unwrap_or_else(|_| "https://api.github.com".into());
        let mut github = GitHub::new(&web, &api);
        if let Some(secs) = std::env::var("REPRISE_FETCH_WITHIN_SECONDS")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|secs| (1..=86_400).contains(secs))
        {
            github.fetch_within = Duration::from_secs(secs);
        }
        github
    }

    /// Whether a token may go to the API host: over https (plain http
    /// only to this machine's loopback), and only to the web host's own API
    /// (the web host itself, as GitHub Enterprise Server serves
    /// `/api/graphql`, or `api.` and the web host, as github.com's). The
    /// token a reader signed in with at one host, or the GitHub CLI's for
    /// it, never reaches another.
    pub fn token_destination(&self) -> Result<(), ShareError> {
        let withheld = |why| ShareError::TokenWithheld {
            api: self.api.clone(),
            why,
        };
        let url = reqwest::Url::parse(&self.api).ok();
        let api = (url.as_ref())
            .and_then(url_host)
            .ok_or(withheld(Withheld::NotTheWebHostsApi))?;
        let https = url.is_some_and(|u| u.scheme() == "https");
        if !https && !is_loopback(&api) {
            return Err(withheld(Withheld::NotHttps));
        }
        let web = host_of(&self.web).ok_or(withheld(Withheld::NotTheWebHostsApi))?;
        if api != web && api.strip_prefix("api.") != Some(web.as_str()) {
            return Err(withheld(Withheld::NotTheWebHostsApi));
        }
        Ok(())
    }

    /// POSTs a form to the web host and reads a JSON answer; what of it is
    /// `secret` (a device code) is never shown from an answer.
    fn post_form(
        &self,
        path: &str,
        form: &[(&str, &str)],
        secret: &[&str],
    ) -> Result<serde_json::Value, ShareError> {
        let url = format!("{}{path}", self.web);
        let request = self
            .transport()
            .client
            .post(&url)
            .header("Accept", "application/json")
            .form(form);
        self.read_json(&url, request, secret)
    }

    /// POSTs a GraphQL query with the token.
    fn graphql(
        &self,
        token: &str,
        query: &str,
        variables: serde_json::Value,
    ) -> Result<serde_json::Value, ShareError> {
        self.token_destination()?;
        let url = format!("{}/graphql", self.api);
        let request = self
            .transport()
            .client
            .post(&url)
            .bearer_auth(token)
            .header("Accept", "application/json")
            .json(&serde_json::json!({ "query": query, "variables": variables }));
        let value = self.read_json(&url, request, &[token])?;
        if let Some(errors) = value.get("errors").and_then(|e| e.as_array())
            && !errors.is_empty()
        {
            return Err(ShareError::GraphQl(
                errors
                    .iter()
                    .map(|e| e["message"].as_str().unwrap_or("unknown error"))
                    .map(|m| answer_text(m, &[token]))
                    .collect(),
            ));
        }
        Ok(value)
    }

    /// Sends a request and reads its answer as JSON: a 401 is a refused
    /// token, any other non-2xx its status and the start of its body. What
    /// of the answer an error carries is [`answer_text`]: never what this
    /// request `sent` (a token, a device code), even where a server echoes it.
    fn read_json(
        &self,
        url: &str,
        request: reqwest::RequestBuilder,
        sent: &[&str],
    ) -> Result<serde_json::Value, ShareError> {
        let transport = |e: reqwest::Error| ShareError::Transport {
            url: url.to_string(),
            message: local_text(&e.to_string(), sent),
        };
        let (status, body) = self.transport().runtime.block_on(async {
            let response = request.send().await.map_err(transport)?;
            let status = response.status().as_u16();
            let body = response.text().await.map_err(transport)?;
            Ok::<_, ShareError>((status, body))
        })?;
        let parsed: Option<serde_json::Value> = serde_json::from_str(&body).ok();
        if status == 401 {
            let message = parsed
                .as_ref()
                .and_then(|v| v["message"].as_str())
                .unwrap_or("unauthorized");
            return Err(ShareError::Unauthorized(answer_text(message, sent)));
        }
        if !(200..300).contains(&status) {
            return Err(ShareError::Status {
                url: url.to_string(),
                status,
                body: answer_body(&body, sent),
            });
        }
        parsed.ok_or_else(|| ShareError::Unexpected {
            url: url.to_string(),
            message: format!("not JSON: {}", answer_text(&body, sent)),
        })
    }
}

/// How much of an answer an error shows.
const ANSWER_SHOWN: usize = 300;

/// How much of an answer is read for what an error shows: far more than
/// [`ANSWER_SHOWN`] characters, so that a secret spread over it by
/// invisible characters is still seen whole where it is shown.
const ANSWER_READ: usize = 64 * 1024;

/// Text from a server's answer as an error may print it: without the
/// secrets the request `sent`, redacted as shared text is (tokens,
/// `Authorization` headers, credentials in URLs, addresses), with every run
/// of it that could carry a secret in another encoding withheld
/// ([`redaction::withheld`]), cut to [`ANSWER_SHOWN`] characters, with
/// control characters escaped so that nothing in it redraws the terminal.
pub(crate) fn answer_text(text: &str, sent: &[&str]) -> String {
    said(text, sent, true)
}

/// Text this process made (a transport error, a configured URL) as an
/// error prints it: redacted and escaped as [`answer_text`], but not
/// withheld, since no server chose it.
pub(crate) fn local_text(text: &str, sent: &[&str]) -> String {
    said(text, sent, false)
}

fn said(text: &str, sent: &[&str], from_server: bool) -> String {
    let mut redactor = Redactor::new();
    for secret in sent {
        redactor.add_secret(secret);
    }
    let mut cut = ANSWER_READ.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut redacted = redactor.redact(&text[..cut]);
    if from_server {
        redacted = redaction::withheld(&redacted);
    }
    let mut shown: String = redacted.chars().take(ANSWER_SHOWN).collect();
    if shown.len() < redacted.len() || cut < text.len() {
        shown.push('…');
    }
    reprise_recipe::shown::escaped(&shown).into_owned()
}

/// What an error says of a server's answer body: never the body as it
/// came. A JSON answer says its `message` (GitHub's, decoded, so that its
/// escapes are characters) and its `documentation_url`, or the messages of
/// its GraphQL `errors`; any other body its text; each as [`answer_text`].
pub(crate) fn answer_body(body: &str, sent: &[&str]) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(body) else {
        return answer_text(body, sent);
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(message) = value["message"].as_str() {
        parts.push(answer_text(message, sent));
    }
    if let Some(errors) = value["errors"].as_array() {
        parts.extend(
            errors
                .iter()
                .take(5)
                .filter_map(|e| e["message"].as_str())
                .map(|m| answer_text(m, sent)),
        );
    }
    if parts.is_empty() {
        parts.push("a JSON answer without a message".into());
    }
    let mut said = parts.join("; ");
    if let Some(docs) = value["documentation_url"].as_str() {
        said.push_str(&format!(" (see {})", answer_text(docs, sent)));
    }
    said
}

/// Exactly what will be posted: a title and a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    pub title: String,
    pub body: String,
}

/// The discussion for a report: its Markdown (which ends with the
/// machine-readable [`ResultBlock`]), with the JSON in a collapsed block,
/// redacted when a redactor is given.
pub fn prepare(report: &Report, redactor: Option<&Redactor>) -> Result<Post, ReportError> {
    let markdown = String::from_utf8_lossy(&MarkdownExporter.render(report)?).into_owned();
    let json = serde_json::to_string_pretty(report)?;
    let title = format!("Reprise: {} ({})", report.headline(), report.tally());
    let body = compose_body(&markdown, &json);
    let Some(r) = redactor else {
        return Ok(Post { title, body });
    };
    // The block's texts are redacted one by one, so that a replaced name
    // can never break its JSON or rename a field; the rest as a whole.
    let block = ResultBlock::of(report);
    let body = match body.split_once(&block.fenced()) {
        Some((before, after)) => format!(
            "{}{}{}",
            r.redact(before),
            block.map_text(&|text| r.redact(text)).fenced(),
            r.redact(after)
        ),
        None => r.redact(&body),
    };
    Ok(Post {
        title: r.redact(&title),
        body,
    })
}
