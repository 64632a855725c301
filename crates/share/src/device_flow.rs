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
    /// Seconds until the code expires.
    pub expires_in: u64,
    /// Seconds to wait between polls.
    pub interval: u64,
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
    )?;
    if let Some(error) = value["error"].as_str() {
        return Err(ShareError::DeviceFlow(describe(error, &value, &[])));
    }
    // serde's message quotes what it could not read: the answer's text.
    serde_json::from_value(value).map_err(|e| ShareError::Unexpected {
        url,
        message: crate::answer_text(&e.to_string(), &[]),
    })
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
    )?;
    if let Some(token) = value["access_token"].as_str() {
        return Ok(Poll::Token(token.to_string()));
    }
    match value["error"].as_str() {
        Some("authorization_pending") => Ok(Poll::Pending),
        // GitHub adds 5 seconds and says the new interval.
        Some("slow_down") => Ok(Poll::SlowDown {
            interval: value["interval"].as_u64().unwrap_or(code.interval + 5),
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
/// passes between polls (`std::thread::sleep` in use).
pub fn sign_in(
    github: &GitHub,
    client_id: &str,
    code: &DeviceCode,
    wait: &mut dyn FnMut(Duration),
) -> Result<String, ShareError> {
    let mut interval = code.interval.max(1);
    let mut waited = 0;
    loop {
        if waited >= code.expires_in {
            return Err(ShareError::Expired);
        }
        wait(Duration::from_secs(interval));
        waited += interval;
        match poll_once(github, client_id, code)? {
            Poll::Token(token) => return Ok(token),
            Poll::Pending => {}
            Poll::SlowDown { interval: next } => interval = next.max(interval + 1),
        }
    }
}
