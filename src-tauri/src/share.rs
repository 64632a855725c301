//! Sharing from the app, through the session API as `reprise share` does
//! it: the redacted preview, where to post (chosen in the page and kept),
//! the report saved to a file, GitHub's device flow (the code shown in the
//! page, the app waiting for the person to enter it), and the post. Without
//! a sign-in the page opens the preview's prefilled link with
//! [`crate::commands::open_link`].

use std::sync::{Arc, Mutex};

use reprise_session::Session;
use reprise_share::DeviceCode;

use crate::commands::{Answer, error};
use crate::views::*;

/// The device code a sign-in is waiting on.
#[derive(Clone, Default)]
pub struct PendingSignIn(Arc<Mutex<Option<DeviceCode>>>);

/// What sharing `run` would post, redacted, and the Markdown Copy gives.
pub fn preview(session: &Session, run: &str) -> Answer<ShareView> {
    let preview = shared(session, run)?;
    Ok(ShareView {
        markdown: preview.markdown(),
        preview,
    })
}

/// The redacted preview Save writes and Post posts.
fn shared(session: &Session, run: &str) -> Answer<SharePreview> {
    session.share_preview(run, None, None, true).map_err(error)
}

pub fn status(session: &Session) -> Answer<ShareStatus> {
    session.share_status().map_err(error)
}

/// Keeps `repo` (OWNER/NAME, checked) as where to post; answers the status
/// with it.
pub fn choose_repo(session: &Session, repo: &str) -> Answer<ShareStatus> {
    session.choose_repo(repo).map_err(error)?;
    status(session)
}

/// Writes the run's redacted report (Markdown, as previewed) to the data
/// dir's `shares/RUN.md`; answers where.
pub fn save(session: &Session, run: &str) -> Answer<String> {
    let preview = shared(session, run)?;
    let file = session.save_share(&preview, None).map_err(error)?;
    Ok(file.display().to_string())
}

/// Asks GitHub for a device code for the person to enter.
pub fn begin_sign_in(session: &Session, pending: &PendingSignIn) -> Answer<SignInCode> {
    let code = session.begin_sign_in().map_err(error)?;
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
    session: &Session,
    pending: &PendingSignIn,
    sleep: &mut dyn FnMut(std::time::Duration),
) -> Answer<String> {
    let code = pending
        .0
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
        .ok_or_else(|| CommandError {
            kind: ErrorKind::Share,
            message: "no sign-in is waiting".into(),
            hint: "Press “Sign in to GitHub” first.".into(),
        })?;
    let (store, _) = session.finish_sign_in(&code, sleep).map_err(error)?;
    Ok(store)
}

/// Posts the run's redacted report, exactly as previewed.
pub fn submit(session: &Session, run: &str) -> Answer<CreatedDiscussion> {
    let preview = shared(session, run)?;
    session.submit(&preview).map_err(error)
}
