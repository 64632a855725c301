//! What is redacted by its shape alone, whoever the machine is: credentials
//! in URLs, access tokens, e-mail, IP and MAC addresses, home folders.

use std::sync::LazyLock;

use regex::{Captures, Regex};

fn pattern(re: &str) -> Regex {
    Regex::new(re).expect("a constant pattern")
}

/// `scheme://user:password@host` and `scheme://token@host`: the user
/// information of a URL, whatever it holds.
static URL_USERINFO: LazyLock<Regex> =
    LazyLock::new(|| pattern(r#"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s@"'<>\\]+@"#));

/// A query or fragment parameter that carries a credential.
static QUERY_SECRET: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r#"(?i)([?&#;](?:access_token|refresh_token|id_token|token|private_token|auth_token|auth|api_key|apikey|key|password|passwd|pwd|secret|client_secret|code|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&#\s"'<>\\]+"#,
    )
});

/// GitHub's token formats, AWS access key ids (long-term `AKIA…`, temporary
/// `ASIA…`), Slack tokens (`xoxb-…`, `xoxp-…`, …), an `Authorization`
/// header and a bearer token.
static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,})\b|(?i:\b(authorization:\s*)\S+(?:[ \t]+[A-Za-z0-9._~+/=-]{8,})?|\b(bearer\s+)[A-Za-z0-9._~+/=-]{16,})",
    )
});

/// An e-mail address, and a `:` right after it (`git@host:owner/repo` is
/// an SSH remote, not an address).
static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)\b[a-z0-9._%+-]+@((?:[a-z0-9-]+\.)+[a-z]{2,})\b(:?)"));

/// `aa:bb:cc:dd:ee:ff`, `aa-bb-…`, `aabb.ccdd.eeff`.
static MAC: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})\b")
});

/// A home folder and the name it is under: `/home/NAME`, `/Users/NAME`
/// (not glued to a word before it, so `/mnt/home/x` is left) or
/// `C:\Users\NAME` (also with JSON's doubled backslashes).
static HOME: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r#"(^|[^A-Za-z0-9._-])((?:/home|/Users)/|(?i:[a-z]:(?:\\\\|\\)users(?:\\\\|\\)))([^/\\\s"'`<>:;,()\[\]{}|*?=&#!]+)"#,
    )
});

static IPV4: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b")
});

/// A run of hex digits and colons not glued to a word before it (so
/// `std::fmt` is left alone); kept only if it parses as an address.
static IPV6: LazyLock<Regex> = LazyLock::new(|| pattern(r"(^|[^0-9A-Za-z_:])([0-9A-Fa-f:]{2,39})"));

/// Folder names under `/Users` that are no one's.
const SHARED_HOMES: &[&str] = &["Shared", "Public", "Default", "All Users"];

pub(super) fn url_credentials(text: &str) -> String {
    let text = URL_USERINFO.replace_all(text, "${1}[credentials]@");
    QUERY_SECRET
        .replace_all(&text, "${1}[redacted]")
        .into_owned()
}

pub(super) fn tokens(text: &str) -> String {
    TOKEN
        .replace_all(text, |c: &Captures| match c.get(1).or_else(|| c.get(2)) {
            Some(prefix) => format!("{}[redacted]", prefix.as_str()),
            None => "[token]".to_string(),
        })
        .into_owned()
}

pub(super) fn emails(text: &str) -> String {
    EMAIL
        .replace_all(text, |c: &Captures| {
            let domain = c[1].to_ascii_lowercase();
            // SSH remotes, and the reserved names test fixtures use.
            let reserved = [".test", ".example", ".invalid", ".localhost"]
                .iter()
                .any(|tld| domain.ends_with(tld))
                || ["example.com", "example.org", "example.net"].contains(&domain.as_str());
            if !c[2].is_empty() || reserved {
                c[0].to_string()
            } else {
                "[email]".to_string()
            }
        })
        .into_owned()
}

pub(super) fn macs(text: &str) -> String {
    MAC.replace_all(text, "[mac]").into_owned()
}

/// Every home folder in `text` as `~`.
pub(super) fn home_paths(text: &str) -> String {
    HOME.replace_all(text, |c: &Captures| {
        if SHARED_HOMES.contains(&&c[3]) {
            c[0].to_string()
        } else {
            format!("{}~", &c[1])
        }
    })
    .into_owned()
}

/// The home folders in `text`, each with the user it is named after.
pub(super) fn homes_in(text: &str) -> Vec<(String, String)> {
    HOME.captures_iter(text)
        .filter(|c| !SHARED_HOMES.contains(&&c[3]))
        .map(|c| (format!("{}{}", &c[2], &c[3]), c[3].to_string()))
        .collect()
}

pub(super) fn ips(text: &str) -> String {
    let text = IPV4.replace_all(text, |c: &Captures| {
        let ip = &c[0];
        if ip.starts_with("127.") || ip == "0.0.0.0" {
            ip.to_string()
        } else {
            "[ip]".to_string()
        }
    });
    IPV6.replace_all(&text, |c: &Captures| {
        match c[2].parse::<std::net::Ipv6Addr>() {
            Ok(ip) if !ip.is_loopback() && !ip.is_unspecified() => format!("{}[ip]", &c[1]),
            _ => c[0].to_string(),
        }
    })
    .into_owned()
}
