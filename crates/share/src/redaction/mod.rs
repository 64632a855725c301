//! What is taken out of a report before it is shared: the machine's host
//! names and domains, user names, home paths, e-mail, IP and MAC addresses,
//! and credentials inside URLs (loopback stays: it says nothing about the
//! machine).
//!
//! What to redact is learnt from the run first ([`Redactor::for_report`]:
//! what its fingerprint and `env.json` recorded, the paths and owner of its
//! run folder or results) and then from the sharing process (its user, home
//! and host files), and both sets are redacted: sharing under `sudo` still
//! hides the real user's name and paths. Patterns that need no learning
//! (addresses, URL credentials, any `/home/NAME`) are applied to every text.

mod learn;
mod patterns;
mod secrets;
mod withheld;

pub(crate) use withheld::withheld;

/// `text` with every piece of `secrets`, in any of its forms, replaced by
/// `[token]`, and nothing else changed: for a stranger's text read from a
/// server that was sent them (a discussion's title and body).
pub(crate) fn without_secrets(text: &str, secrets: &[&str]) -> String {
    let secrets: Vec<String> = secrets.iter().map(|s| s.to_string()).collect();
    secrets::redact(text, &secrets)
}

use std::cmp::Reverse;

use reprise_report::Report;
use serde_json::Value;

/// Replaces identifying strings in text.
#[derive(Clone, Debug)]
pub struct Redactor {
    /// Host names, short and fully qualified; matched case-insensitively.
    hostnames: Vec<String>,
    /// The machine's DNS domains (its FQDN's, its search domains).
    domains: Vec<String>,
    /// Matched on word boundaries, case as given (Unix names are).
    users: Vec<String>,
    /// Home folders, matched on path-segment boundaries.
    homes: Vec<String>,
    /// Secrets this process sent (a token): replaced wherever they appear,
    /// whatever their shape.
    secrets: Vec<String>,
    /// Whether to redact IP addresses.
    pub ips: bool,
}

impl Default for Redactor {
    fn default() -> Redactor {
        Redactor::new()
    }
}

impl Redactor {
    /// Redacts only what needs no learning (addresses, URL credentials,
    /// `/home/NAME` paths) until told more with the `learn_*` methods.
    pub fn new() -> Redactor {
        Redactor {
            hostnames: Vec::new(),
            domains: Vec::new(),
            users: Vec::new(),
            homes: Vec::new(),
            secrets: Vec::new(),
            ips: true,
        }
    }

    /// Everything a report's run recorded about its machine, its run
    /// folder's paths and owner, and this process's user and host.
    pub fn for_report(report: &Report) -> Redactor {
        let mut r = Redactor::new();
        r.learn_recorded(&report.environment.fingerprint);
        r.learn_recorded(&report.environment.bench_env);
        if let Some(origin) = &report.run.origin {
            r.learn_paths(origin);
            for path in learn::absolute_paths(origin) {
                r.learn_owner(&path);
            }
        }
        r.learn_process();
        r
    }

    /// A fingerprint's host, user and home, and this process's.
    pub fn from_fingerprint(fingerprint: &Value) -> Redactor {
        let mut r = Redactor::new();
        r.learn_recorded(fingerprint);
        r.learn_process();
        r
    }

    /// The host names, short and fully qualified, that are replaced.
    pub fn hostnames(&self) -> &[String] {
        &self.hostnames
    }

    /// The machine's domains that are replaced.
    pub fn domains(&self) -> &[String] {
        &self.domains
    }

    pub fn users(&self) -> &[String] {
        &self.users
    }

    pub fn homes(&self) -> &[String] {
        &self.homes
    }

    /// A host name to redact; a fully qualified one also gives its short
    /// name and its domain.
    pub fn add_hostname(&mut self, name: &str) {
        let name = name.trim().trim_end_matches('.');
        if learn::is_loopback_name(name) || name.parse::<std::net::IpAddr>().is_ok() {
            return;
        }
        push(&mut self.hostnames, name);
        if let Some((short, domain)) = name.split_once('.') {
            push(&mut self.hostnames, short);
            self.add_domain(domain);
        }
    }

    /// A DNS domain to redact. Single labels (`lan`, `local`) are left:
    /// they name no one and would mangle ordinary words.
    pub fn add_domain(&mut self, domain: &str) {
        let domain = domain.trim().trim_matches('.');
        if domain.contains('.') && !learn::is_loopback_name(domain) {
            push(&mut self.domains, domain);
        }
    }

    /// A user name to redact (`root` is left: it names no one).
    pub fn add_user(&mut self, user: &str) {
        let user = user.trim();
        if user != "root" && !user.contains(['/', '\\']) {
            push(&mut self.users, user);
        }
    }

    /// A home folder to redact as `~` (`/` and `/root` are left: they name
    /// no one, and replacing them would mangle every path).
    pub fn add_home(&mut self, home: &str) {
        let home = home.trim().trim_end_matches(['/', '\\']);
        if !home.is_empty() && home != "/root" && (home.contains('/') || home.contains('\\')) {
            push(&mut self.homes, home);
        }
    }

    /// A secret this process sent (a token), to be taken out wherever it
    /// shows up, in whatever shape it is: split by invisible characters, in
    /// another case, a piece of it, or base64-encoded (see [`secrets`]).
    pub fn add_secret(&mut self, secret: &str) {
        // Shorter is no secret, and would take out ordinary words.
        if secret.chars().count() >= secrets::MIN_PIECE {
            push(&mut self.secrets, secret);
        }
    }

    /// The text with every known identifier replaced by a placeholder.
    pub fn redact(&self, text: &str) -> String {
        let out = secrets::redact(text, &self.secrets);
        // Credentials first: `https://user:token@host` also looks like an
        // e-mail address, which would leave `user:` behind.
        let mut out = patterns::url_credentials(&out);
        out = patterns::tokens(&out);
        out = patterns::emails(&out);
        out = self.redact_homes(&out);
        // Fully qualified names before their short names and domains.
        let mut names: Vec<(&str, &str)> = self
            .hostnames
            .iter()
            .map(|h| (h.as_str(), "[hostname]"))
            .chain(self.domains.iter().map(|d| (d.as_str(), "[domain]")))
            .collect();
        names.sort_by_key(|(name, _)| Reverse(name.len()));
        for (name, placeholder) in names {
            out = replace_bounded(&out, name, placeholder, true, is_word_char);
        }
        let mut users: Vec<&String> = self.users.iter().collect();
        users.sort_by_key(|u| Reverse(u.len()));
        for user in users {
            out = replace_bounded(&out, user, "[user]", false, is_word_char);
        }
        out = patterns::macs(&out);
        if self.ips {
            out = patterns::ips(&out);
        }
        out
    }

    /// Known homes (longest first, so `/home/alice/x` goes before a shorter
    /// one), then any `/home/NAME`, `/Users/NAME` or `C:\Users\NAME`: each
    /// only as a whole path segment, so `/home/alice2` is not `~2`.
    fn redact_homes(&self, text: &str) -> String {
        let mut homes: Vec<&String> = self.homes.iter().collect();
        homes.sort_by_key(|h| Reverse(h.len()));
        let mut out = text.to_string();
        for home in homes {
            out = replace_bounded(&out, home, "~", false, learn::continues_segment);
        }
        patterns::home_paths(&out)
    }
}

fn push(list: &mut Vec<String>, value: &str) {
    let value = value.trim();
    if value.len() >= 2 && !list.iter().any(|v| v.eq_ignore_ascii_case(value)) {
        list.push(value.to_string());
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with each occurrence of `needle` that `continues` does not glue
/// to a neighbouring character replaced by `placeholder`; ASCII case folded
/// when `fold`.
fn replace_bounded(
    text: &str,
    needle: &str,
    placeholder: &str,
    fold: bool,
    continues: fn(char) -> bool,
) -> String {
    if needle.is_empty() {
        return text.to_string();
    }
    // ASCII folding keeps byte offsets, so matches index `text` itself.
    let (hay, pat) = if fold {
        (text.to_ascii_lowercase(), needle.to_ascii_lowercase())
    } else {
        (text.to_string(), needle.to_string())
    };
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut from = 0;
    while let Some(found) = hay[from..].find(&pat) {
        let start = from + found;
        let end = start + pat.len();
        let glued = text[..start].chars().next_back().is_some_and(continues)
            || text[end..].chars().next().is_some_and(continues);
        if glued {
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        out.push_str(&text[last..start]);
        out.push_str(placeholder);
        last = end;
        from = end;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_replacement_skips_glued_matches_and_finds_later_ones() {
        assert_eq!(
            replace_bounded(
                "alice2 alice alice_x alice",
                "alice",
                "[u]",
                false,
                is_word_char
            ),
            "alice2 [u] alice_x [u]"
        );
        assert_eq!(
            replace_bounded("Box box-7 BOX.lan", "box", "[h]", true, is_word_char),
            "[h] [h]-7 [h].lan"
        );
    }
}
