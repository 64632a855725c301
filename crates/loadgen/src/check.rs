//! Response checks: what a response must look like to count, and its fingerprint.
//!
//! The fingerprint (status, tag count, bytes, SHA-256) is what the published
//! harness recorded once per endpoint per lane; the same functions check every
//! (or every n-th) response under load, so there is one definition of each.

use serde::{Deserialize, Serialize};

/// Expectations on a response; `None` means "not checked".
///
/// Status is always checked for being 2xx; `status` narrows it to one code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseChecks {
    pub status: Option<u16>,
    /// Number of tags, as counted by [`count_tags`].
    pub tags: Option<u64>,
    /// Body length in bytes.
    pub bytes: Option<u64>,
    /// Lowercase hex SHA-256 of the body.
    pub sha256: Option<String>,
    /// A substring the body must contain.
    pub contains: Option<String>,
}

impl ResponseChecks {
    /// Whether any expectation needs the body's content (not just its length).
    pub fn needs_body(&self) -> bool {
        self.tags.is_some() || self.sha256.is_some() || self.contains.is_some()
    }

    /// Whether anything beyond "status is 2xx" is checked.
    pub fn is_empty(&self) -> bool {
        self == &ResponseChecks::default()
    }
}

/// Which responses the body expectations are applied to. Status is checked on every response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "kind", content = "n")]
pub enum CheckSample {
    /// Every response.
    #[default]
    Every,
    /// The first response on each connection, then one in every n.
    OneIn(u32),
}

impl CheckSample {
    /// Whether the response numbered `index` (0-based, per connection) is checked.
    pub fn selects(self, index: u64) -> bool {
        match self {
            CheckSample::Every => true,
            CheckSample::OneIn(n) => n <= 1 || index.is_multiple_of(u64::from(n)),
        }
    }
}

/// What one response looked like: the record lanes are compared on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseFingerprint {
    pub status: u16,
    pub tags: u64,
    pub bytes: u64,
    pub sha256: String,
}

impl ResponseFingerprint {
    /// Fingerprints a response from its status and whole body.
    pub fn of(status: u16, body: &[u8]) -> ResponseFingerprint {
        ResponseFingerprint {
            status,
            tags: count_tags(body),
            bytes: body.len() as u64,
            sha256: sha256_hex(body),
        }
    }
}

/// Why a response failed its checks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CheckFailure {
    #[error("status {actual} is not 2xx")]
    NotSuccess { actual: u16 },
    #[error("status {actual}, expected {expected}")]
    Status { expected: u16, actual: u16 },
    #[error("{actual} tags, expected {expected}")]
    Tags { expected: u64, actual: u64 },
    #[error("{actual} bytes, expected {expected}")]
    Bytes { expected: u64, actual: u64 },
    #[error("body SHA-256 {actual}, expected {expected}")]
    Sha256 { expected: String, actual: String },
    #[error("body does not contain {expected:?}")]
    Contains { expected: String },
}

/// Checks one response against `checks`, computing only what they need.
///
/// `body_len` is the body's length; `body` is its content, required when
/// [`ResponseChecks::needs_body`] (pass `None` to check status and length only).
pub fn check_response(
    checks: &ResponseChecks,
    status: u16,
    body_len: u64,
    body: Option<&[u8]>,
) -> Result<(), CheckFailure> {
    if !(200..300).contains(&status) {
        return Err(CheckFailure::NotSuccess { actual: status });
    }
    if let Some(expected) = checks.status
        && expected != status
    {
        return Err(CheckFailure::Status {
            expected,
            actual: status,
        });
    }
    if let Some(expected) = checks.bytes
        && expected != body_len
    {
        return Err(CheckFailure::Bytes {
            expected,
            actual: body_len,
        });
    }
    let Some(body) = body else { return Ok(()) };
    if let Some(expected) = checks.tags {
        let actual = count_tags(body);
        if actual != expected {
            return Err(CheckFailure::Tags { expected, actual });
        }
    }
    if let Some(expected) = &checks.sha256 {
        let actual = sha256_hex(body);
        if !actual.eq_ignore_ascii_case(expected) {
            return Err(CheckFailure::Sha256 {
                expected: expected.clone(),
                actual,
            });
        }
    }
    if let Some(expected) = &checks.contains
        && !contains(body, expected.as_bytes())
    {
        return Err(CheckFailure::Contains {
            expected: expected.clone(),
        });
    }
    Ok(())
}

/// Counts tags the way the published harness did: matches of the regex
/// `<([a-zA-Z][-a-zA-Z0-9]*)`. A match cannot contain another `<`, so the count
/// is the number of `<` directly followed by an ASCII letter.
pub fn count_tags(body: &[u8]) -> u64 {
    body.windows(2)
        .filter(|w| w[0] == b'<' && w[1].is_ascii_alphabetic())
        .count() as u64
}

pub use reprise_recipe::sha256_hex;

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_count_matches_the_harness_regex() {
        let re = regex::bytes::Regex::new("<([a-zA-Z][-a-zA-Z0-9]*)").unwrap();
        for body in [
            &b"<html><body><p>hi</p><br/><a-b1 x><1><<div>< span></body></html>"[..],
            b"",
            b"<",
            b"<a",
            b"a<b<c<<<d>",
            b"<!doctype html><x-y-z>",
        ] {
            assert_eq!(
                count_tags(body),
                re.find_iter(body).count() as u64,
                "{body:?}"
            );
        }
    }

    #[test]
    fn sha256_is_lowercase_hex_of_the_body() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn non_2xx_fails_even_without_expectations() {
        let checks = ResponseChecks::default();
        assert_eq!(check_response(&checks, 200, 0, None), Ok(()));
        assert_eq!(
            check_response(&checks, 500, 0, None),
            Err(CheckFailure::NotSuccess { actual: 500 })
        );
    }

    #[test]
    fn each_expectation_is_reported_when_it_fails() {
        let body = b"<p>hello</p>";
        let ok = ResponseChecks {
            status: Some(200),
            tags: Some(1),
            bytes: Some(12),
            sha256: Some(sha256_hex(body).to_uppercase()),
            contains: Some("hello".into()),
        };
        assert_eq!(check_response(&ok, 200, 12, Some(body)), Ok(()));
        let tags = ResponseChecks {
            tags: Some(2),
            ..ok.clone()
        };
        assert_eq!(
            check_response(&tags, 200, 12, Some(body)),
            Err(CheckFailure::Tags {
                expected: 2,
                actual: 1
            })
        );
        let missing = ResponseChecks {
            contains: Some("bye".into()),
            ..ok.clone()
        };
        assert!(matches!(
            check_response(&missing, 200, 12, Some(body)),
            Err(CheckFailure::Contains { .. })
        ));
        let status = ResponseChecks {
            status: Some(201),
            ..ok
        };
        assert_eq!(
            check_response(&status, 200, 12, Some(body)),
            Err(CheckFailure::Status {
                expected: 201,
                actual: 200
            })
        );
    }

    #[test]
    fn one_in_n_samples_the_first_response_and_every_nth() {
        let picked: Vec<u64> = (0..10)
            .filter(|&i| CheckSample::OneIn(4).selects(i))
            .collect();
        assert_eq!(picked, [0, 4, 8]);
        assert!((0..5).all(|i| CheckSample::Every.selects(i)));
    }
}
