//! Sharing a stored run: exactly what would be posted (redacted unless the
//! person says otherwise, as Markdown and rendered), a prefilled
//! new-discussion link that fits in a browser, the report saved to a file,
//! where to post (chosen once and kept), GitHub's device-flow sign-in, and
//! the post — one way for the CLI and the app.

use std::path::{Path, PathBuf};
use std::time::Duration;

use reprise_engine::os::workdir::WorkDirError;
use reprise_report::Exporter;
use reprise_share::{
    CreatedDiscussion, DeviceCode, GitHub, Post, Redactor, SignOut, TokenStore, Warning,
    create_discussion, find_target, new_discussion_url, prepare, request_code, sign_in,
};
use serde::Serialize;
use ts_rs::TS;

use crate::{Session, SessionError};

/// Longer links are cut by browsers and servers; the body is left out then.
const MAX_LINK: usize = 8000;

/// The file in the data dir that keeps the repository chosen to post in.
const REPO_FILE: &str = "discussions-repo";

/// The account the kept token signs in as (GitHub's `viewer`, asked when it
/// was kept): a login, not a secret, so the app can name it without asking
/// GitHub each time.
const LOGIN_FILE: &str = "github-login";

/// A token kept at sign-in: where, and the account it signs in as.
#[derive(Clone, Debug)]
pub struct KeptToken {
    /// Where it is kept, in words.
    pub store: String,
    /// The account, where GitHub named it.
    pub login: Option<String>,
    /// Where the store is a file.
    pub warning: Option<Warning>,
}

/// `OWNER/NAME` as GitHub allows them (an owner of letters, digits and
/// inner hyphens, up to 39; a name of letters, digits, `.`, `_`, `-`),
/// trimmed; anything else is refused with how to write it.
pub fn check_repo(text: &str) -> Result<String, SessionError> {
    let repo = text.trim();
    let bad = || SessionError::BadRepository(repo.to_string());
    let (owner, name) = repo.split_once('/').ok_or_else(bad)?;
    let owner_ok = !owner.is_empty()
        && owner.len() <= 39
        && !owner.starts_with('-')
        && !owner.ends_with('-')
        && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let name_ok = !name.is_empty()
        && name.len() <= 100
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    match owner_ok && name_ok {
        true => Ok(repo.to_string()),
        false => Err(bad()),
    }
}

/// The repository a post goes to, and what chose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostTo {
    /// OWNER/NAME.
    pub repo: String,
    pub from: RepoFrom,
}

/// What chose the repository to post in, first to last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RepoFrom {
    /// Asked for this post (`reprise share --repo`).
    Asked,
    /// `REPRISE_DISCUSSIONS_REPO`.
    Environment,
    /// Chosen in the app's Share page, kept in the data dir.
    Chosen,
}

impl RepoFrom {
    /// Where it came from, as `posting to OWNER/NAME (…)` says it.
    pub fn words(self) -> &'static str {
        match self {
            RepoFrom::Asked => "from --repo",
            RepoFrom::Environment => "from REPRISE_DISCUSSIONS_REPO",
            RepoFrom::Chosen => "chosen in the app",
        }
    }
}

/// Where to sign in and post.
#[derive(Clone, Debug)]
pub struct ShareSettings {
    pub github: GitHub,
    /// The GitHub OAuth app to sign in with (`REPRISE_GITHUB_CLIENT_ID`).
    pub client_id: Option<String>,
    /// Where to post, OWNER/NAME (`REPRISE_DISCUSSIONS_REPO`).
    pub repo: Option<String>,
    /// Where the token is kept; chosen on first use when not set.
    pub token_store: Option<TokenStore>,
    /// A token the environment gives (`GH_TOKEN`, else `GITHUB_TOKEN`).
    pub env_token: Option<String>,
    /// Whether to ask the GitHub CLI for its token (`gh auth token`) where
    /// `gh` is installed and signed in.
    pub ask_gh: bool,
}

impl ShareSettings {
    /// github.com (or `REPRISE_GITHUB_URL` / `REPRISE_GITHUB_API_URL`), and
    /// the client id and repository the environment names.
    pub fn from_env() -> ShareSettings {
        let var = |name| std::env::var(name).ok().filter(|v| !v.is_empty());
        ShareSettings {
            github: GitHub::from_env(),
            client_id: var("REPRISE_GITHUB_CLIENT_ID"),
            repo: var("REPRISE_DISCUSSIONS_REPO"),
            token_store: None,
            env_token: var("GH_TOKEN").or_else(|| var("GITHUB_TOKEN")),
            ask_gh: true,
        }
    }
}

/// Where the token a request carries comes from, in the order they are
/// tried: no registered OAuth app is needed for any but the device flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenFrom {
    /// `GH_TOKEN` or `GITHUB_TOKEN`.
    Environment,
    /// The GitHub CLI's (`gh auth token`), where `gh` is signed in.
    GitHubCli,
    /// Kept at sign-in: a pasted token or the device flow's.
    Kept,
}

impl TokenFrom {
    pub fn words(self) -> &'static str {
        match self {
            TokenFrom::Environment => "GH_TOKEN / GITHUB_TOKEN",
            TokenFrom::GitHubCli => "the GitHub CLI (gh auth token)",
            TokenFrom::Kept => "the token kept at sign-in",
        }
    }
}

/// What a token must look like to be kept: GitHub's tokens are 20 to 255
/// visible ASCII characters, no spaces.
fn check_token(text: &str) -> Result<String, SessionError> {
    let token = text.trim();
    let ok = (20..=255).contains(&token.len()) && token.chars().all(|c| c.is_ascii_graphic());
    match ok {
        true => Ok(token.to_string()),
        false => Err(SessionError::BadToken),
    }
}

/// The GitHub CLI's token for `host`, where `gh` is installed and signed in
/// there; nothing when it is not (within 5 s).
fn gh_token(host: &str) -> Option<String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new("gh")
        .args(["auth", "token", "--hostname", host])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let until = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(_)) | Err(_) => return None,
            Ok(None) if std::time::Instant::now() >= until => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    check_token(&out).ok()
}

/// Exactly what would be posted, and where.
#[derive(Clone, Debug, Serialize, TS)]
pub struct SharePreview {
    pub run: String,
    /// OWNER/NAME, where one is known.
    pub repo: Option<String>,
    /// The discussion category: the recipe's id unless said otherwise.
    pub category: String,
    pub title: String,
    pub body: String,
    /// The same report as a self-contained HTML page (the report crate's,
    /// no scripts), redacted as the body is: what the preview shows.
    pub html: String,
    /// Whether host and domain names, user names, home paths, addresses and
    /// credentials in URLs were redacted.
    pub redacted: bool,
    /// What was replaced: the host, domain and user names learnt from the
    /// run's records, its folder and the sharing process.
    pub redacted_names: Vec<String>,
    /// A GitHub new-discussion page with the category, title and body
    /// filled in (the body left out where the link would be too long),
    /// where a repository is known.
    pub prefilled_url: Option<String>,
    /// Whether the body fits in `prefilled_url`.
    pub body_in_link: bool,
    /// The title, a blank line and the body: what Copy gives and Save
    /// writes, made here so Copy, Save and Post cannot drift.
    pub markdown: String,
}

/// The part of GitHub's device code a person sees: the code to enter, where
/// to enter it, and for how long it holds.
#[derive(Clone, Debug, Serialize, TS)]
pub struct SignInCode {
    pub user_code: String,
    pub verification_uri: String,
    /// Seconds until the code expires.
    pub expires_in: u64,
}

impl SignInCode {
    pub fn of(code: &DeviceCode) -> SignInCode {
        SignInCode {
            user_code: code.user_code.clone(),
            verification_uri: code.verification_uri.clone(),
            expires_in: code.expires_in,
        }
    }
}

/// Whether the person can post, and where.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ShareStatus {
    pub signed_in: bool,
    /// Where the token comes from, when there is one, in words:
    /// `GH_TOKEN / GITHUB_TOKEN`, `the token kept at sign-in`.
    pub signed_in_with: Option<String>,
    /// The account the kept token signs in as, as GitHub named it when it
    /// was kept (nothing for the environment's or gh's token).
    pub login: Option<String>,
    /// Whether the token is one Reprise keeps, which signing out forgets
    /// (the environment's and gh's are not Reprise's to forget).
    pub can_sign_out: bool,
    /// Whether an OAuth app is configured for the device flow.
    pub can_sign_in: bool,
    pub repo: Option<String>,
    /// What chose `repo`: where it is the environment, a choice in the app
    /// would not count.
    pub repo_from: Option<RepoFrom>,
    /// Where the token is (or would be) kept.
    pub token_store: String,
}

impl Session {
    /// What posting `run` would post to `repo` (default: [`Session::post_to`]'s) in
    /// `category` (default: the recipe's id), redacted unless `redact` is false.
    pub fn share_preview(
        &self,
        run: &str,
        repo: Option<&str>,
        category: Option<&str>,
        redact: bool,
    ) -> Result<SharePreview, SessionError> {
        let report = self.report(run)?;
        // What the run recorded and where it ran, not only who shares it.
        let redactor = redact.then(|| Redactor::for_report(&report));
        let post = prepare(&report, redactor.as_ref())?;
        let html =
            String::from_utf8_lossy(&reprise_report::HtmlExporter.render(&report)?).into_owned();
        let html = match &redactor {
            Some(r) => r.redact(&html),
            None => html,
        };
        let repo = self.post_to(repo)?.map(|to| to.repo);
        let category = category.map_or_else(|| report.run.recipe.clone(), str::to_string);
        let link = repo
            .as_deref()
            .map(|repo| self.prefilled_link(repo, &category, &post));
        let mut redacted_names = Vec::new();
        if let Some(r) = &redactor {
            redacted_names.extend(r.hostnames().iter().cloned());
            redacted_names.extend(r.domains().iter().cloned());
            redacted_names.extend(r.users().iter().cloned());
        }
        Ok(SharePreview {
            run: report.run.id.clone(),
            repo,
            category,
            markdown: format!("{}\n\n{}", post.title, post.body),
            title: post.title,
            body: post.body,
            html,
            redacted: redactor.is_some(),
            redacted_names,
            body_in_link: link.as_ref().is_some_and(|(_, whole)| *whole),
            prefilled_url: link.map(|(url, _)| url),
        })
    }

    /// A prefilled link, and whether it carries the body: without it when
    /// the link would be too long for a browser.
    fn prefilled_link(&self, repo: &str, category: &str, post: &Post) -> (String, bool) {
        let web = &self.share.github.web;
        let url = new_discussion_url(web, repo, category, &post.title, &post.body);
        if url.len() <= MAX_LINK {
            return (url, true);
        }
        let short = "The full report did not fit in a link; paste it here from the saved report.";
        (
            new_discussion_url(web, repo, category, &post.title, short),
            false,
        )
    }

    /// Where the token is kept, and a warning when that is a file.
    pub fn token_store(&self) -> (TokenStore, Option<Warning>) {
        match &self.share.token_store {
            Some(store) => (store.clone(), None),
            None => TokenStore::choose(&self.data.root),
        }
    }

    /// Forgets the token in every store (the keyring and the token file, and
    /// the store the settings name), whichever was chosen at sign-in: what
    /// each held, and any that could not be cleared.
    pub fn sign_out(&self) -> SignOut {
        let mut stores = TokenStore::all(&self.data.root);
        if let Some(store) = &self.share.token_store
            && !stores.contains(store)
        {
            stores.push(store.clone());
        }
        let out = TokenStore::sign_out(&stores);
        if out.complete() {
            let _ = std::fs::remove_file(self.data.root.join(LOGIN_FILE));
        }
        out
    }

    /// The GitHub token requests carry, if there is one.
    pub fn token(&self) -> Result<Option<String>, SessionError> {
        Ok(self.token_and_source()?.map(|(token, _)| token))
    }

    /// The token and where it came from, in this order: the environment
    /// (`GH_TOKEN`, `GITHUB_TOKEN`), the GitHub CLI where it is signed in to
    /// the web host (gh names a host by its web host, and a token goes only
    /// to that host's own API: [`reprise_share::GitHub::token_destination`]),
    /// the token kept at sign-in (pasted or the device flow's).
    pub fn token_and_source(&self) -> Result<Option<(String, TokenFrom)>, SessionError> {
        if let Some(token) = self
            .share
            .env_token
            .as_deref()
            .and_then(|t| check_token(t).ok())
        {
            return Ok(Some((token, TokenFrom::Environment)));
        }
        if self.share.ask_gh
            && let Some(host) = reprise_share::host_of(&self.share.github.web)
            && let Some(token) = gh_token(&host)
        {
            return Ok(Some((token, TokenFrom::GitHubCli)));
        }
        Ok(self
            .token_store()
            .0
            .load()?
            .map(|token| (token, TokenFrom::Kept)))
    }

    /// Keeps a token the reader pasted (checked for a token's shape, never
    /// printed) where the device flow's would be kept; answers where.
    /// It is kept only once GitHub names the account it signs in as: a
    /// mistyped, expired or made-up token is refused here, not at the first
    /// post.
    pub fn keep_token(&self, pasted: &str) -> Result<KeptToken, SessionError> {
        let token = check_token(pasted)?;
        let login = reprise_share::signed_in_as(&self.share.github, &token)?;
        self.keep(&token, Some(login))
    }

    /// Keeps `token` (and the account it signs in as, where known) where
    /// the settings or the machine choose.
    fn keep(&self, token: &str, login: Option<String>) -> Result<KeptToken, SessionError> {
        let (store, warning) = self.token_store();
        store.save(token)?;
        let file = self.data.root.join(LOGIN_FILE);
        let remembered = match &login {
            Some(login) => std::fs::create_dir_all(&self.data.root)
                .and_then(|()| std::fs::write(&file, format!("{login}\n"))),
            None => std::fs::remove_file(&file).or_else(|e| match e.kind() {
                std::io::ErrorKind::NotFound => Ok(()),
                _ => Err(e),
            }),
        };
        remembered.map_err(|source| WorkDirError::Io { path: file, source })?;
        Ok(KeptToken {
            store: store.describe(),
            login,
            warning,
        })
    }

    /// The account the kept token signs in as, as remembered when it was
    /// kept; nothing where the file holds anything but a login.
    fn kept_login(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.data.root.join(LOGIN_FILE)).ok()?;
        let login = text.trim();
        reprise_share::is_login(login).then(|| login.to_string())
    }

    /// Where to post, and what chose it: `asked` (checked), else the
    /// settings' (`REPRISE_DISCUSSIONS_REPO`, which a person may set for
    /// one post), else the repository chosen last in the app (kept in the
    /// data dir). `None` when nothing names one.
    pub fn post_to(&self, asked: Option<&str>) -> Result<Option<PostTo>, SessionError> {
        let to = |repo: String, from| Some(PostTo { repo, from });
        if let Some(repo) = asked {
            return Ok(to(check_repo(repo)?, RepoFrom::Asked));
        }
        if let Some(repo) = &self.share.repo {
            return Ok(to(repo.clone(), RepoFrom::Environment));
        }
        Ok(std::fs::read_to_string(self.data.root.join(REPO_FILE))
            .ok()
            .and_then(|text| check_repo(&text).ok())
            .and_then(|repo| to(repo, RepoFrom::Chosen)))
    }

    /// Keeps `repo` (checked: OWNER/NAME) as where to post from now on,
    /// where `REPRISE_DISCUSSIONS_REPO` does not name another.
    pub fn choose_repo(&self, repo: &str) -> Result<String, SessionError> {
        let repo = check_repo(repo)?;
        let file = self.data.root.join(REPO_FILE);
        std::fs::create_dir_all(&self.data.root)
            .and_then(|()| std::fs::write(&file, format!("{repo}\n")))
            .map_err(|source| WorkDirError::Io { path: file, source })?;
        Ok(repo)
    }

    /// The preview's Markdown as it would be posted (the title, a blank
    /// line, the body) written to `file`, else to the data dir's
    /// `shares/RUN.md`. Answers where it went.
    pub fn save_share(
        &self,
        preview: &SharePreview,
        file: Option<&Path>,
    ) -> Result<PathBuf, SessionError> {
        let file = file.map(Path::to_path_buf).unwrap_or_else(|| {
            self.data
                .root
                .join("shares")
                .join(format!("{}.md", preview.run))
        });
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&file, &preview.markdown));
        written.map_err(|source| WorkDirError::Io {
            path: file.clone(),
            source,
        })?;
        Ok(file)
    }

    pub fn share_status(&self) -> Result<ShareStatus, SessionError> {
        let to = self.post_to(None)?;
        let from = self.token_and_source()?.map(|(_, from)| from);
        let kept = from == Some(TokenFrom::Kept);
        Ok(ShareStatus {
            signed_in: from.is_some(),
            signed_in_with: from.map(|f| f.words().to_string()),
            login: self.kept_login().filter(|_| kept),
            can_sign_out: kept,
            can_sign_in: self.share.client_id.is_some(),
            repo: to.as_ref().map(|to| to.repo.clone()),
            repo_from: to.as_ref().map(|to| to.from),
            token_store: self.token_store().0.describe(),
        })
    }

    /// Asks GitHub for a device code for the person to enter.
    pub fn begin_sign_in(&self) -> Result<DeviceCode, SessionError> {
        let client_id = self
            .share
            .client_id
            .as_deref()
            .ok_or(SessionError::NoOAuthApp)?;
        Ok(request_code(&self.share.github, client_id, "public_repo")?)
    }

    /// Waits until the person has entered the code (or it expires), then
    /// keeps the token, with the account it signs in as where GitHub names
    /// it (the token is GitHub's own answer, so it is kept either way).
    pub fn finish_sign_in(
        &self,
        code: &DeviceCode,
        wait: &mut dyn FnMut(Duration),
    ) -> Result<KeptToken, SessionError> {
        let client_id = self.share.client_id.as_deref().unwrap_or_default();
        let token = sign_in(&self.share.github, client_id, code, wait)?;
        let login = reprise_share::signed_in_as(&self.share.github, &token).ok();
        self.keep(&token, login)
    }

    /// Posts what [`Session::share_preview`] showed, with the stored token.
    pub fn submit(&self, preview: &SharePreview) -> Result<CreatedDiscussion, SessionError> {
        let repo = preview.repo.as_deref().ok_or(SessionError::NoRepository)?;
        let token = self.token()?.ok_or(SessionError::NotSignedIn)?;
        let github = &self.share.github;
        let target = find_target(github, &token, repo, &preview.category)?;
        Ok(create_discussion(
            github,
            &token,
            &target,
            &preview.title,
            &preview.body,
        )?)
    }
}
