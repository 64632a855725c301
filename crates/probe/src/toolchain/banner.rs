//! Version banners: the first line a toolchain prints when asked its version,
//! turned into a product and version.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// What a version banner says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Banner {
    /// `Ruby`, `JRuby`, `TruffleRuby`, `OpenJDK`, `Bundler`, …
    pub product: String,
    /// The product's own version, e.g. `10.1.1.0` for JRuby.
    pub version: String,
    /// The Ruby language version a JRuby or TruffleRuby implements.
    pub ruby_compat: Option<String>,
    /// The Java runtime JRuby runs on, e.g. `25.0.1+8-LTS`.
    pub java: Option<String>,
    /// TruffleRuby: native image (true) or on a JVM (false).
    pub native: Option<bool>,
    /// CRuby: whether the banner shows `+YJIT`.
    pub yjit: Option<bool>,
}

impl Banner {
    /// The Java major version JRuby runs on (`25.0.1+8-LTS` → 25).
    pub fn java_major(&self) -> Option<u32> {
        self.java.as_deref().and_then(java_major)
    }

    /// A short human description, e.g. `JRuby 10.1.1.0 (Ruby 3.4.2) on Java 25`.
    pub fn describe(&self) -> String {
        let mut out = format!("{} {}", self.product, self.version);
        if let Some(r) = &self.ruby_compat {
            out.push_str(&format!(" (Ruby {r})"));
        }
        if let Some(major) = self.java_major() {
            out.push_str(&format!(" on Java {major}"));
        }
        match self.native {
            Some(true) => out.push_str(", native"),
            Some(false) => out.push_str(", JVM"),
            None => {}
        }
        if self.yjit == Some(true) {
            out.push_str(" +YJIT");
        }
        out
    }
}

/// The major version of a Java version string (`1.8.0_392` → 8, `25.0.1` → 25).
pub fn java_major(version: &str) -> Option<u32> {
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        parts.next()?.parse().ok()
    } else {
        Some(first)
    }
}

static JRUBY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^jruby (\d+(?:\.\d+)*)(?: \(([\d.]+)\))?(?:.*? on (\d[^\s]*))?")
        .expect("valid regex")
});
static TRUFFLERUBY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^truffleruby (\d+(?:\.\d+)*)[^,\s]*,? like ruby ([\d.]+)(.*)$")
        .expect("valid regex")
});
static RUBY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ruby (\d+(?:\.\d+)*)").expect("valid regex"));
static JAVA: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^(openjdk|java) version "([^"]+)""#).expect("valid regex"));
static DOTTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[^\w.])v?(\d+(?:\.\d+)+)").expect("valid regex"));

/// The product name a tool's banner stands for when it has no distinctive shape.
fn plain_product(tool: &str) -> &str {
    match tool {
        "bundle" => "Bundler",
        "gem" => "RubyGems",
        "node" => "Node.js",
        "sqlite3" => "SQLite",
        "podman" => "Podman",
        "docker" => "Docker",
        other => other,
    }
}

/// Parses one banner line printed by `tool`. Ruby-family banners are
/// recognised by their shape whatever the tool's name (a `ruby` on PATH may
/// be TruffleRuby).
pub fn parse(tool: &str, line: &str) -> Option<Banner> {
    let line = line.trim();
    if let Some(c) = JRUBY.captures(line) {
        return Some(Banner {
            product: "JRuby".into(),
            version: c[1].to_string(),
            ruby_compat: c.get(2).map(|m| m.as_str().to_string()),
            java: c.get(3).map(|m| m.as_str().to_string()),
            ..Banner::default()
        });
    }
    if let Some(c) = TRUFFLERUBY.captures(line) {
        let rest = c[3].to_string();
        return Some(Banner {
            product: "TruffleRuby".into(),
            version: c[1].to_string(),
            ruby_compat: Some(c[2].to_string()),
            native: if rest.contains("Native") {
                Some(true)
            } else if rest.contains("JVM") {
                Some(false)
            } else {
                None
            },
            ..Banner::default()
        });
    }
    if let Some(c) = RUBY.captures(line) {
        return Some(Banner {
            product: "Ruby".into(),
            version: c[1].to_string(),
            yjit: Some(line.contains("+YJIT")),
            ..Banner::default()
        });
    }
    if let Some(c) = JAVA.captures(line) {
        return Some(Banner {
            product: if &c[1] == "openjdk" {
                "OpenJDK"
            } else {
                "Java"
            }
            .into(),
            version: c[2].to_string(),
            ..Banner::default()
        });
    }
    if matches!(tool, "ruby" | "jruby" | "truffleruby" | "java") {
        return None;
    }
    let c = DOTTED.captures(line)?;
    Some(Banner {
        product: plain_product(tool).to_string(),
        version: c[1].to_string(),
        ..Banner::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_banners_give_their_dotted_version() {
        let cases = [
            ("rustc", "rustc 1.95.0 (59807616e 2026-04-14)", "1.95.0"),
            ("node", "v20.20.2", "20.20.2"),
            ("git", "git version 2.47.3", "2.47.3"),
            ("sqlite3", "3.40.1 2022-12-28 14:03:47 df5c253c", "3.40.1"),
            (
                "wrk",
                "wrk 4.1.0 [epoll] Copyright (C) 2012 Will Glozer",
                "4.1.0",
            ),
            ("docker", "Docker version 28.2.2, build e6534b4", "28.2.2"),
            ("bundle", "Bundler version 2.6.9", "2.6.9"),
            ("mise", "2026.1.4 linux-x64 (2026-01-20)", "2026.1.4"),
        ];
        for (tool, line, version) in cases {
            assert_eq!(
                parse(tool, line).map(|b| b.version).as_deref(),
                Some(version),
                "{line}"
            );
        }
        assert_eq!(
            parse("docker", "Docker version 28.2.2").unwrap().product,
            "Docker"
        );
    }

    #[test]
    fn debian_ruby_drops_its_patchlevel() {
        let b = parse(
            "ruby",
            "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]",
        )
        .unwrap();
        assert_eq!(
            (b.product.as_str(), b.version.as_str(), b.yjit),
            ("Ruby", "3.1.2", Some(false))
        );
        let b = parse("jruby", "jruby 9.3.9.0 (2.6.8) 2022-10-24 537cab8 OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1 on 17.0.15+6-Debian-1deb12u1 +jit [x86_64-linux]").unwrap();
        assert_eq!(b.describe(), "JRuby 9.3.9.0 (Ruby 2.6.8) on Java 17");
    }

    #[test]
    fn a_ruby_banner_without_a_version_is_not_a_version() {
        assert_eq!(parse("ruby", "ruby: command not found"), None);
        assert_eq!(parse("java", "Error: could not find libjava.so"), None);
    }

    #[test]
    fn java_majors_read_old_and_new_schemes() {
        assert_eq!(java_major("1.8.0_392"), Some(8));
        assert_eq!(java_major("25.0.1+8-LTS"), Some(25));
        assert_eq!(java_major("17"), Some(17));
    }
}
