//! Identifiers that remember where they were written, so a bad reference
//! can be reported at the reference and not at the end of the file.

use std::fmt;
use std::ops::{Deref, Range};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An identifier from a recipe (a step id, a lane name, a figure id, …) with
/// the byte span it was written at.
#[derive(Clone, Debug, Eq)]
pub struct Name {
    value: String,
    span: Range<usize>,
}

impl Name {
    pub fn new(value: impl Into<String>, span: Range<usize>) -> Self {
        Name {
            value: value.into(),
            span,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// Byte range in the recipe file.
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.value
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.value == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.value == *other
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.value)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.value)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let spanned = toml::Spanned::<String>::deserialize(d)?;
        let span = spanned.span();
        let value = spanned.into_inner();
        if value.is_empty() {
            return Err(serde::de::Error::custom("a name cannot be empty"));
        }
        Ok(Name { value, span })
    }
}
