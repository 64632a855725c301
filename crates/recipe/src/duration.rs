//! Durations as recipes write them: `20s`, `500ms`, `2m`, `1h`, `1.5s`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A length of time written as a number and a unit (`ms`, `s`, `m`, `h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span(pub Duration);

impl Span {
    /// The longest span that parses, whatever its unit: a year (8784 h).
    pub const LONGEST: Duration = Duration::from_secs(366 * 24 * 3600);

    pub fn as_duration(self) -> Duration {
        self.0
    }
}

impl From<Duration> for Span {
    fn from(d: Duration) -> Self {
        Span(d)
    }
}

/// Why a text is not a span. Each holds the text as it is shown: escaped,
/// at most 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpanError {
    #[error("`{0}` has no unit; expected e.g. `20s`, `500ms`, `2m`")]
    NoUnit(String),
    #[error("`{0}` does not start with a number; expected e.g. `20s`")]
    NoNumber(String),
    #[error("unknown unit `{unit}` in `{text}`; expected one of ms, s, m, h")]
    UnknownUnit { unit: String, text: String },
    /// NaN or infinite.
    #[error("`{0}` is not a duration; expected e.g. `20s`, `500ms`, `2m`")]
    NotFinite(String),
    #[error("`{0}` is negative; a duration is at least 0s")]
    Negative(String),
    /// Past [`Span::LONGEST`].
    #[error("`{0}` is longer than Reprise allows; expected at most {longest}", longest = Span(Span::LONGEST))]
    TooLong(String),
    /// A number of seconds no `Duration` holds.
    #[error("`{0}` is not a duration; expected e.g. `20s`")]
    NotADuration(String),
}

impl FromStr for Span {
    type Err = SpanError;

    fn from_str(text: &str) -> Result<Self, SpanError> {
        let text = text.trim();
        let quoted = || crate::diagnostic::shown(text, 40);
        let split = text
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(|| SpanError::NoUnit(quoted()))?;
        let (number, unit) = text.split_at(split);
        let number: f64 = number.parse().map_err(|_| SpanError::NoNumber(quoted()))?;
        let seconds = match unit.trim() {
            "ms" => number / 1000.0,
            "s" => number,
            "m" | "min" => number * 60.0,
            "h" => number * 3600.0,
            other => {
                return Err(SpanError::UnknownUnit {
                    unit: crate::diagnostic::shown(other, 40),
                    text: quoted(),
                });
            }
        };
        Span::of_seconds(seconds, text)
    }
}

impl Span {
    /// `seconds` (written as `text`) as a span, bounded as every span is
    /// whatever its unit: NaN, infinite, negative and longer than a year
    /// are refused with the reason. Past a year a deadline (now plus the
    /// span) could overflow, and no benchmark step is meant to run that long.
    pub fn of_seconds(seconds: f64, text: &str) -> Result<Span, SpanError> {
        let text = crate::diagnostic::shown(text.trim(), 40);
        if !seconds.is_finite() {
            return Err(SpanError::NotFinite(text));
        }
        if seconds < 0.0 {
            return Err(SpanError::Negative(text));
        }
        if seconds > Self::LONGEST.as_secs_f64() {
            return Err(SpanError::TooLong(text));
        }
        Duration::try_from_secs_f64(seconds)
            .map(Span)
            .map_err(|_| SpanError::NotADuration(text))
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms.is_multiple_of(3_600_000) && ms > 0 {
            write!(f, "{}h", ms / 3_600_000)
        } else if ms.is_multiple_of(60_000) && ms > 0 {
            write!(f, "{}m", ms / 60_000)
        } else if ms.is_multiple_of(1000) {
            write!(f, "{}s", ms / 1000)
        } else {
            write!(f, "{ms}ms")
        }
    }
}

impl Serialize for Span {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Span {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_parse_and_print_back() {
        for (text, ms) in [
            ("20s", 20_000),
            ("500ms", 500),
            ("2m", 120_000),
            ("1.5s", 1500),
            ("1h", 3_600_000),
        ] {
            let span: Span = text.parse().unwrap();
            assert_eq!(span.0.as_millis(), ms, "{text}");
        }
        assert_eq!("120s".parse::<Span>().unwrap().to_string(), "2m");
        assert_eq!("1500ms".parse::<Span>().unwrap().to_string(), "1500ms");
    }

    #[test]
    fn missing_or_unknown_units_are_refused() {
        assert_eq!("20".parse::<Span>(), Err(SpanError::NoUnit("20".into())));
        assert_eq!(
            "20 parsecs".parse::<Span>(),
            Err(SpanError::UnknownUnit {
                unit: "parsecs".into(),
                text: "20 parsecs".into()
            })
        );
        assert!("s".parse::<Span>().is_err());
    }

    #[test]
    fn spans_too_long_for_a_deadline_are_refused_not_panicked_on() {
        for text in [
            "5124095576030432h",
            "18446744073709551615s",
            "2562047788015215h",
            "367d",
            "9999999999999999999999999999999999999999m",
            "8785h",
        ] {
            assert!(text.parse::<Span>().is_err(), "{text}");
        }
        assert!("8784h".parse::<Span>().is_ok());
        assert!("0s".parse::<Span>().is_ok());
    }
}
