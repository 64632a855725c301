//! What is taken out of a report before it is shared: host names, user
//! names, home paths and IP addresses (loopback stays: it says nothing
//! about the machine).

use regex::Regex;
use serde_json::Value;

/// Replaces identifying strings in text.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    hostnames: Vec<String>,
    users: Vec<String>,
    homes: Vec<String>,
    /// Whether to redact IP addresses.
    pub ips: bool,
}

fn push(list: &mut Vec<String>, value: &str) {
    let value = value.trim();
    if value.len() >= 2 && !list.iter().any(|v| v == value) {
        list.push(value.to_string());
    }
}

/// Every string value in `v` under a key named one of `keys`, at any depth.
fn strings_under(v: &Value, keys: &[&str], out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                if keys.contains(&k.as_str())
                    && let Some(s) = child.as_str()
                {
                    push(out, s);
                }
                strings_under(child, keys, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| strings_under(i, keys, out)),
        _ => {}
    }
}

impl Redactor {
    /// Learns what to redact from a machine fingerprint (keys such as
    /// `hostname`, `user`, `home`) and from this process's environment.
    pub fn from_fingerprint(fingerprint: &Value) -> Redactor {
        let mut r = Redactor {
            ips: true,
            ..Redactor::default()
        };
        strings_under(
            fingerprint,
            &["hostname", "nodename", "host_name"],
            &mut r.hostnames,
        );
        strings_under(
            fingerprint,
            &["user", "username", "user_name", "login"],
            &mut r.users,
        );
        strings_under(fingerprint, &["home", "home_dir"], &mut r.homes);
        for var in ["HOSTNAME"] {
            if let Ok(v) = std::env::var(var) {
                push(&mut r.hostnames, &v);
            }
        }
        if let Ok(h) = std::fs::read_to_string("/etc/hostname") {
            push(&mut r.hostnames, &h);
        }
        for var in ["USER", "LOGNAME"] {
            if let Ok(v) = std::env::var(var) {
                push(&mut r.users, &v);
            }
        }
        if let Ok(v) = std::env::var("HOME") {
            // `/` or `/root` as a home says nothing worth hiding, and
            // replacing it would mangle every path.
            if v.len() > 1 {
                push(&mut r.homes, &v);
            }
        }
        let users = r.users.clone();
        for u in users {
            push(&mut r.homes, &format!("/home/{u}"));
            push(&mut r.homes, &format!("/Users/{u}"));
        }
        r
    }

    pub fn hostnames(&self) -> &[String] {
        &self.hostnames
    }

    pub fn users(&self) -> &[String] {
        &self.users
    }

    /// The text with every known identifier replaced by a placeholder.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        // Longest first, so `/home/alice/x` goes before `alice`.
        let mut homes = self.homes.clone();
        homes.sort_by_key(|h| std::cmp::Reverse(h.len()));
        for home in &homes {
            out = out.replace(home.as_str(), "~");
        }
        for (list, placeholder) in [(&self.hostnames, "[hostname]"), (&self.users, "[user]")] {
            for value in list {
                if let Ok(re) = Regex::new(&format!(r"\b{}\b", regex::escape(value))) {
                    out = re.replace_all(&out, placeholder).into_owned();
                }
            }
        }
        if self.ips {
            out = redact_ips(&out);
        }
        out
    }
}

fn redact_ips(text: &str) -> String {
    // Compiled per call: sharing is rare and the patterns are constant.
    let v4 = Regex::new(r"\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b")
        .expect("a constant pattern");
    let text = v4.replace_all(text, |c: &regex::Captures| {
        let ip = &c[0];
        if ip.starts_with("127.") || ip == "0.0.0.0" {
            ip.to_string()
        } else {
            "[ip]".to_string()
        }
    });
    // IPv6: a run of hex digits and colons not glued to a word before it
    // (so `std::fmt` is left alone) that parses as an address.
    let v6 = Regex::new(r"(^|[^0-9A-Za-z_:])([0-9A-Fa-f:]{2,39})").expect("a constant pattern");
    v6.replace_all(&text, |c: &regex::Captures| {
        let candidate = &c[2];
        match candidate.parse::<std::net::Ipv6Addr>() {
            Ok(ip) if !ip.is_loopback() && !ip.is_unspecified() => format!("{}[ip]", &c[1]),
            _ => c[0].to_string(),
        }
    })
    .into_owned()
}
