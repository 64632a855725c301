//! Sharing from the app: GitHub's device flow (the code shown in the page,
//! the app waiting for the person to enter it), then the redacted report
//! posted to the repository's Discussions — all through reprise-report's
//! share module, as `reprise share` does it.

use std::sync::{Arc, Mutex};

use reprise_report::share::{
    DeviceCode, GitHub, Redactor, TokenStore, create_discussion, find_target, prepare,
    request_code, sign_in,
};

use crate::commands::{Shell, load_report};
use crate::views::*;

/// Where to sign in and post.
#[derive(Clone)]
pub struct ShareConfig {
    pub github: GitHub,
    /// The GitHub OAuth app to sign in with (`REPRISE_GITHUB_CLIENT_ID`).
    pub client_id: Option<String>,
    /// Where to post, OWNER/NAME (`REPRISE_DISCUSSIONS_REPO`).
    pub repo: Option<String>,
    /// Where the token is kept; chosen on first use when not set.
    pub token_store: Option<TokenStore>,
}

impl ShareConfig {
    pub fn from_env() -> ShareConfig {
        ShareConfig {
            github: GitHub::from_env(),
            client_id: std::env::var("REPRISE_GITHUB_CLIENT_ID").ok(),
            repo: std::env::var("REPRISE_DISCUSSIONS_REPO").ok(),
            token_store: None,
        }
    }
}

/// The device code a sign-in is waiting on.
#[derive(Clone, Default)]
pub struct PendingSignIn(Arc<Mutex<Option<DeviceCode>>>);

fn error(kind: &str, message: impl ToString, hint: &str) -> CommandError {
    CommandError {
        kind: kind.into(),
        message: message.to_string(),
        hint: hint.into(),
    }
}

fn store(shell: &Shell) -> TokenStore {
    shell
        .share
        .token_store
        .clone()
        .unwrap_or_else(|| TokenStore::choose(&shell.data_dir).0)
}

fn token(shell: &Shell) -> Result<Option<String>, CommandError> {
    store(shell).load().map_err(|e| {
        error(
            "share",
            e,
            "The token store could not be read; `reprise logout` clears it.",
        )
    })
}

pub fn status(shell: &Shell) -> Result<ShareStatus, CommandError> {
    Ok(ShareStatus {
        signed_in: token(shell)?.is_some(),
        can_sign_in: shell.share.client_id.is_some(),
        repo: shell.share.repo.clone(),
        token_store: store(shell).describe(),
    })
}

/// Asks GitHub for a device code for the person to enter.
pub fn begin_sign_in(shell: &Shell, pending: &PendingSignIn) -> Result<SignInCode, CommandError> {
    let client_id = shell.share.client_id.as_deref().ok_or_else(|| {
        error(
            "share",
            "no GitHub OAuth app is configured",
            "Set REPRISE_GITHUB_CLIENT_ID to the OAuth app's client id and restart the app, or post with the prefilled link.",
        )
    })?;
    let code = request_code(&shell.share.github, client_id, "public_repo").map_err(|e| {
        error(
            "share",
            e,
            "Check the network and the OAuth app's client id, then try again.",
        )
    })?;
    let shown = SignInCode {
        user_code: code.user_code.clone(),
        verification_uri: code.verification_uri.clone(),
        expires_in: code.expires_in,
    };
    *pending.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(code);
    Ok(shown)
}

/// Waits until the person has entered the code (or it expires), then keeps
/// the token. Answers where it was kept.
pub fn finish_sign_in(
    shell: &Shell,
    pending: &PendingSignIn,
    sleep: &mut dyn FnMut(std::time::Duration),
) -> Result<String, CommandError> {
    let code = pending
        .0
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
        .ok_or_else(|| {
            error(
                "share",
                "no sign-in is waiting",
                "Press “Sign in to GitHub” first.",
            )
        })?;
    let client_id = shell.share.client_id.as_deref().unwrap_or_default();
    let token = sign_in(&shell.share.github, client_id, &code, sleep)
        .map_err(|e| error("share", e, "Sign in again: a new code will be shown."))?;
    let store = store(shell);
    store.save(&token).map_err(|e| {
        error(
            "share",
            e,
            "The token could not be kept; check the data dir's permissions.",
        )
    })?;
    Ok(store.describe())
}

/// Posts the run's redacted report; answers the discussion's link.
pub fn submit(shell: &Shell, run: &str) -> Result<Submitted, CommandError> {
    let report = load_report(shell, run)?;
    let repo = shell.share.repo.as_deref().ok_or_else(|| {
        error(
            "share",
            "no repository to post in",
            "Set REPRISE_DISCUSSIONS_REPO=owner/name and restart the app.",
        )
    })?;
    let token = token(shell)?.ok_or_else(|| {
        error(
            "share",
            "not signed in to GitHub",
            "Sign in to GitHub first.",
        )
    })?;
    let redactor = Redactor::from_fingerprint(&report.environment.fingerprint);
    let post = prepare(&report, Some(&redactor))
        .map_err(|e| error("share", e, "`reprise report` shows the same error."))?;
    let github = &shell.share.github;
    let created = find_target(github, &token, repo, &report.run.recipe)
        .and_then(|target| create_discussion(github, &token, &target, &post.title, &post.body))
        .map_err(|e| error("share", e, "Check the repository, its Discussions category for this recipe, and the token (`reprise logout` to sign in again)."))?;
    Ok(Submitted { url: created.url })
}
