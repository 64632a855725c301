//! Toolchain versions and the requirements recipes place on them.
//!
//! Versions here are dotted numbers of any length (`4.0.5`, `10.1.1.0`, `25`),
//! not semver: JRuby has four components and Java often one.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A dotted numeric version such as `10.1.1.0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Version(pub Vec<u64>);

impl Version {
    /// Compares component by component, missing components counting as 0.
    fn compare(&self, other: &Version) -> Ordering {
        let n = self.0.len().max(other.0.len());
        (0..n)
            .map(|i| {
                let a = self.0.get(i).copied().unwrap_or(0);
                let b = other.0.get(i).copied().unwrap_or(0);
                a.cmp(&b)
            })
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    }

    /// True when `self` starts with every component of `prefix`.
    fn starts_with(&self, prefix: &Version) -> bool {
        prefix
            .0
            .iter()
            .enumerate()
            .all(|(i, c)| self.0.get(i) == Some(c))
    }
}

impl FromStr for Version {
    type Err = String;

    /// Reads the leading dotted number: `25.0.1+8-LTS` gives 25.0.1.
    fn from_str(text: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        for piece in text.trim().split('.') {
            let digits: String = piece.chars().take_while(|c| c.is_ascii_digit()).collect();
            if digits.is_empty() {
                break;
            }
            parts.push(
                digits
                    .parse()
                    .map_err(|_| format!("`{text}`: component too large"))?,
            );
            if digits.len() != piece.len() {
                break;
            }
        }
        if parts.is_empty() {
            return Err(format!(
                "`{text}` is not a version; expected digits such as 4.0.5"
            ));
        }
        Ok(Version(parts))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&parts.join("."))
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// `=4.0` or a bare `4.0`: the version starts with these components.
    Exact,
    Greater,
    GreaterEq,
    Less,
    LessEq,
}

/// A version requirement: `*`, `4.0.5`, `=4.0.5`, `>=3.1`, `>=3.1, <4`, `4.0.*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionReq {
    text: String,
    comparators: Vec<(Op, Version)>,
}

impl VersionReq {
    pub fn any() -> Self {
        VersionReq {
            text: "*".into(),
            comparators: Vec::new(),
        }
    }

    /// Whether any version will do (`*`): nothing pinned.
    pub fn is_any(&self) -> bool {
        self.comparators.is_empty()
    }

    pub fn matches(&self, version: &Version) -> bool {
        self.comparators.iter().all(|(op, want)| match op {
            Op::Exact => version.starts_with(want),
            Op::Greater => version.compare(want) == Ordering::Greater,
            Op::GreaterEq => version.compare(want) != Ordering::Less,
            Op::Less => version.compare(want) == Ordering::Less,
            Op::LessEq => version.compare(want) != Ordering::Greater,
        })
    }

    /// The exact version asked for, when the requirement names one (used to
    /// suggest an install command such as `mise install ruby@4.0.5`).
    pub fn exact(&self) -> Option<&Version> {
        match self.comparators.as_slice() {
            [(Op::Exact, v)] => Some(v),
            _ => None,
        }
    }
}

impl FromStr for VersionReq {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let trimmed = text.trim();
        if trimmed == "*" || trimmed.is_empty() {
            return Ok(VersionReq::any());
        }
        let mut comparators = Vec::new();
        for part in trimmed.split(',') {
            let part = part.trim();
            let (op, rest) = [
                (">=", Op::GreaterEq),
                ("<=", Op::LessEq),
                (">", Op::Greater),
                ("<", Op::Less),
                ("=", Op::Exact),
            ]
            .iter()
            .find_map(|(sym, op)| part.strip_prefix(sym).map(|rest| (*op, rest.trim())))
            .unwrap_or((Op::Exact, part));
            let rest = rest.strip_suffix(".*").unwrap_or(rest);
            let version: Version = rest.parse().map_err(|e| {
                format!("{e} (in requirement `{text}`; expected e.g. `4.0.5`, `>=3.1`, `>=3.1, <4`, `*`)")
            })?;
            if version.to_string() != rest {
                return Err(format!(
                    "`{part}` is not a version comparison; expected e.g. `4.0.5`, `>=3.1`, `>=3.1, <4`, `*`"
                ));
            }
            comparators.push((op, version));
        }
        Ok(VersionReq {
            text: trimmed.to_string(),
            comparators,
        })
    }
}

impl fmt::Display for VersionReq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for VersionReq {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for VersionReq {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        text.parse().unwrap()
    }

    fn req(text: &str) -> VersionReq {
        text.parse().unwrap()
    }

    #[test]
    fn versions_read_the_leading_dotted_number() {
        assert_eq!(v("10.1.1.0"), Version(vec![10, 1, 1, 0]));
        assert_eq!(v("25.0.1+8-LTS"), Version(vec![25, 0, 1]));
        assert_eq!(v("3.1.2p20"), Version(vec![3, 1, 2]));
        assert!("jruby".parse::<Version>().is_err());
    }

    #[test]
    fn exact_requirements_match_by_prefix() {
        assert!(req("4.0.5").matches(&v("4.0.5")));
        assert!(!req("=4.0.5").matches(&v("4.0.6")));
        assert!(req("25").matches(&v("25.0.1")));
        assert!(req("4.0.*").matches(&v("4.0.9")));
        assert!(!req("10.1.1.0").matches(&v("9.3.9.0")));
        assert_eq!(req("=4.0.5").exact(), Some(&v("4.0.5")));
    }

    #[test]
    fn ranges_compare_numerically() {
        let r = req(">=3.1, <4");
        assert!(r.matches(&v("3.1")));
        assert!(r.matches(&v("3.10.0")));
        assert!(!r.matches(&v("4.0.0")));
        assert!(!r.matches(&v("3.0.9")));
        assert!(req("*").matches(&v("1")));
        assert!(req(">9").matches(&v("10")));
    }

    #[test]
    fn malformed_requirements_are_refused() {
        assert!("latest".parse::<VersionReq>().is_err());
        assert!(">=3.x".parse::<VersionReq>().is_err());
    }
}
