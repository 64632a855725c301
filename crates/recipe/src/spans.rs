//! Where each value of a recipe was written, so a check on the parsed
//! recipe (a port, a count, a path) points at that value and not at the
//! name of the table it sits in.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One step of a path into the document: a key or an array index.
pub(crate) enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'a> From<&'a str> for Seg<'a> {
    fn from(key: &'a str) -> Self {
        Seg::Key(key)
    }
}

impl From<usize> for Seg<'_> {
    fn from(index: usize) -> Self {
        Seg::Index(index)
    }
}

/// `at!(spans, "workload", 2, "connections")`: the span of that value.
macro_rules! at {
    ($spans:expr, $($seg:expr),+ $(,)?) => {
        $spans.at(&[$($crate::spans::Seg::from($seg)),+])
    };
}
pub(crate) use at;

/// The parsed document, kept for its spans.
pub(crate) struct Spans<'i> {
    root: Spanned<DeTable<'i>>,
}

impl<'i> Spans<'i> {
    pub fn new(root: Spanned<DeTable<'i>>) -> Self {
        Spans { root }
    }

    /// The byte range of the value at `path`, when the recipe wrote one there.
    pub fn at(&self, path: &[Seg<'_>]) -> Option<Range<usize>> {
        self.value(path).map(Spanned::span)
    }

    /// The byte range of the last key of `path` (a key of an `env` table,
    /// say), when the recipe wrote one there.
    pub fn key_at(&self, path: &[Seg<'_>]) -> Option<Range<usize>> {
        let (Seg::Key(key), parent) = path.split_last()? else {
            return None;
        };
        let table = if parent.is_empty() {
            self.root.get_ref()
        } else {
            self.value(parent)?.get_ref().as_table()?
        };
        table.get_key_value(*key).map(|(k, _)| k.span())
    }

    fn value(&self, path: &[Seg<'_>]) -> Option<&Spanned<DeValue<'i>>> {
        let (Seg::Key(first), rest) = path.split_first()? else {
            return None;
        };
        let mut value = self.root.get_ref().get(*first)?;
        for seg in rest {
            value = match seg {
                Seg::Key(key) => value.get_ref().get(*key)?,
                Seg::Index(i) => value.get_ref().get(*i)?,
            };
        }
        Some(value)
    }
}

/// `key_at!(spans, "lane", 0, "env", "PORT")`: the span of that key.
macro_rules! key_at {
    ($spans:expr, $($seg:expr),+ $(,)?) => {
        $spans.key_at(&[$($crate::spans::Seg::from($seg)),+])
    };
}
pub(crate) use key_at;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_values_in_tables_arrays_and_inline_tables() {
        let text = "[[w]]\nn = 1\n[[w]]\nn = 2\nm = { k = [7, 8] }\n";
        let spans = Spans::new(DeTable::parse(text).unwrap());
        let span = at!(spans, "w", 1, "n").unwrap();
        assert_eq!(&text[span], "2");
        let span = at!(spans, "w", 1, "m", "k", 1).unwrap();
        assert_eq!(&text[span], "8");
        assert!(at!(spans, "w", 2, "n").is_none());
        assert!(at!(spans, "w", 0, "m").is_none());
        let span = key_at!(spans, "w", 1, "m", "k").unwrap();
        assert_eq!(&text[span], "k");
    }
}
