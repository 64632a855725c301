//! GitHub's OAuth device flow: ask for a code, show it with the URL, poll
//! until the person has entered it — waiting longer when told `slow_down`,
//! stopping when the code expires or the sign-in is declined.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{GitHub, ShareError};

/// The code the person enters at `verification_uri`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceCode {
    pub device_code: String,
    pub user_code: String,
    pub verification_uri: String,
    /// Seconds until the code expires (at most [`MAX_EXPIRES_IN`]).
    #[serde(deserialize_with = "seconds")]
    pub expires_in: u64,
    /// Seconds to wait between polls (1 to [`MAX_INTERVAL`]).
    #[serde(deserialize_with = "seconds")]
    pub interval: u64,
}

/// The longest wait between polls: GitHub asks 5 seconds and adds 5 at
/// each `slow_down`; a server asking for more is not waited on longer.
pub const MAX_INTERVAL: u64 = 60;

/// The longest a code is waited on: GitHub's live 15 minutes.
pub const MAX_EXPIRES_IN: u64 = 30 * 60;

/// A number of seconds as a server may write it (`5`, `5.0`, `1e15`):
/// anything not a finite number of seconds from 0 is 0.
fn seconds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = f64::deserialize(d)?;
    Ok(if n.is_finite() && n > 0.0 {
        n.min(u64::MAX as f64) as u64
    } else {
        0
    })
}

/// What one poll of the token endpoint said.
#[derive(Clone, Debug, PartialEq)]
pub enum Poll {
    Pending,
    SlowDown { interval: u64 },
    Token(String),
}

/// Asks GitHub for a device code.
pub fn request_code(
    github: &GitHub,
    client_id: &str,
    scope: &str,
) -> Result<DeviceCode, ShareError> {
    let url = format!("{}/login/device/code", github.web);
    let value = github.post_form(
        "/login/device/code",
        &[("client_id", client_id), ("scope", scope)],
        &[],
    )?;
    if let Some(error) = value["error"].as_str() {
        return Err(ShareError::DeviceFlow(describe(error, &value, &[])));
    }
    // serde's message quotes what it could not read: the answer's text.
    let code: DeviceCode = serde_json::from_value(value).map_err(|e| ShareError::Unexpected {
        url: url.clone(),
        message: crate::answer_text(&e.to_string(), &[]),
    })?;
    checked(github, code).map_err(|message| ShareError::Unexpected { url, message })
}

/// The most a user code may be (GitHub's are `WDJB-MJHT`).
const MAX_USER_CODE: usize = 40;

/// A device code as it may be shown: the page to open an `https` URL on
/// github.com or on the configured GitHub's host (never a `javascript:`
/// URL, nor another site's sign-in page), the code to enter escaped so that
/// nothing in it acts on a terminal. Both are text from a server, printed
/// to a person who is told to trust them.
fn checked(github: &GitHub, mut code: DeviceCode) -> Result<DeviceCode, String> {
    let said = || crate::answer_text(&code.verification_uri, &[]);
    let page = reqwest::Url::parse(code.verification_uri.trim())
        .map_err(|_| format!("the sign-in page it gave is not a URL: {}", said()))?;
    let configured = reqwest::Url::parse(&github.web).ok();
    let at = |url: &reqwest::Url| {
        url.host_str()
            .map(|host| (host.to_ascii_lowercase(), url.port_or_known_default()))
    };
    let github_com = Some(("github.com".to_string(), Some(443)));
    let on_github_com = at(&page) == github_com && page.scheme() == "https";
    // The configured GitHub's own host, in the scheme the reader configured
    // (https, or http for a GitHub on this machine).
    let on_configured = configured.as_ref().is_some_and(|c| {
        at(c).is_some()
            && at(c) == at(&page)
            && (page.scheme() == "https" || (page.scheme() == "http" && c.scheme() == "http"))
    });
    if !(on_github_com || on_configured) || !page.username().is_empty() || page.password().is_some()
    {
        return Err(format!(
            "the sign-in page it gave is not a page of https://github.com or of {}: {}",
            crate::local_text(&github.web, &[]),
            said()
        ));
    }
    // The URL as parsed: controls and spaces percent-encoded.
    code.verification_uri = reprise_recipe::shown::escaped(page.as_str()).into_owned();
    code.interval = code.interval.clamp(1, MAX_INTERVAL);
    code.expires_in = code.expires_in.min(MAX_EXPIRES_IN);
    let user_code: String = code.user_code.chars().take(MAX_USER_CODE).collect();
    code.user_code = reprise_recipe::shown::escaped(user_code.trim()).into_owned();
    if code.user_code.is_empty() {
        return Err("it gave no code to enter".into());
    }
    Ok(code)
}

fn describe(error: &str, value: &serde_json::Value, sent: &[&str]) -> String {
    let said = match value["error_description"].as_str() {
        Some(d) => format!("{error}: {d}"),
        None => error.to_string(),
    };
    crate::answer_text(&said, sent)
}

/// Polls the token endpoint once.
pub fn poll_once(github: &GitHub, client_id: &str, code: &DeviceCode) -> Result<Poll, ShareError> {
    let value = github.post_form(
        "/login/oauth/access_token",
        &[
            ("client_id", client_id),
            ("device_code", &code.device_code),
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ],
        &[code.device_code.as_str()],
    )?;
    if let Some(token) = value["access_token"].as_str() {
        return Ok(Poll::Token(token.to_string()));
    }
    match value["error"].as_str() {
        Some("authorization_pending") => Ok(Poll::Pending),
        // GitHub adds 5 seconds and says the new interval.
        Some("slow_down") => Ok(Poll::SlowDown {
            interval: value["interval"]
                .as_f64()
                .filter(|n| n.is_finite() && *n >= 0.0)
                .map_or(code.interval + 5, |n| n.min(u64::MAX as f64) as u64),
        }),
        Some("expired_token") => Err(ShareError::Expired),
        Some("access_denied") => Err(ShareError::Denied),
        Some(other) => Err(ShareError::DeviceFlow(describe(
            other,
            &value,
            &[code.device_code.as_str()],
        ))),
        None => Err(ShareError::Unexpected {
            url: format!("{}/login/oauth/access_token", github.web),
            message: "neither a token nor an error".into(),
        }),
    }
}

/// Polls until a token, an error, or the code's expiry. `wait` is how time
/// passes between polls (`std::thread::sleep` in use). A wait is never
/// longer than [`MAX_INTERVAL`], however long the server asks for, nor
/// past the code's expiry (itself at most [`MAX_EXPIRES_IN`]).
pub fn sign_in(
    github: &GitHub,
    client_id: &str,
    code: &DeviceCode,
    wait: &mut dyn FnMut(Duration),
) -> Result<String, ShareError> {
    let expires_in = code.expires_in.min(MAX_EXPIRES_IN);
    let mut interval = code.interval.clamp(1, MAX_INTERVAL);
    let mut waited = 0;
    loop {
        if waited >= expires_in {
            return Err(ShareError::Expired);
        }
        let this = interval.min(expires_in - waited);
        wait(Duration::from_secs(this));
        waited += this;
        match poll_once(github, client_id, code)? {
            Poll::Token(token) => return Ok(token),
            Poll::Pending => {}
            Poll::SlowDown { interval: next } => {
                interval = next.max(interval + 1).min(MAX_INTERVAL)
            }
        }
    }
}
