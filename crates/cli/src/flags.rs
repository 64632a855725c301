//! Flag values that are numbers with a meaning: parsed once, at the edge, so
//! no command sees a NaN, an infinity or a negative time, and no duration a
//! command builds can overflow or panic.

use std::time::Duration;

use reprise_recipe::shown::escaped;
use reprise_recipe::{Span, SpanError};

/// A duration flag: the recipes' grammar (`20s`, `500ms`, `2m`, `1h`), or
/// a plain number of seconds (`10`, `2.5`), bounded one way whatever its
/// unit (at most a year, as a recipe's spans are: [`Span::of_seconds`]).
/// NaN, infinite, negative and too long are refused with the reason.
pub fn duration(text: &str) -> Result<Duration, SpanError> {
    match text.trim().parse::<f64>() {
        Ok(seconds) => Span::of_seconds(seconds, text),
        Err(_) => text.parse::<Span>(),
    }
    .map(Span::as_duration)
}

/// A rate flag: a finite number of requests per second above zero.
pub fn rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 => Ok(rate),
        Ok(_) => Err(format!(
            "`{}` is not a rate: it must be a finite number above zero",
            escaped(text)
        )),
        Err(_) => Err(format!("`{}` is not a number", escaped(text))),
    }
}

/// A duration as the recipes write it.
pub fn format_duration(d: Duration) -> String {
    Span(d).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_written_as_recipes_write_them_or_in_seconds() {
        assert_eq!(duration("20s"), Ok(Duration::from_secs(20)));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(duration("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(duration("0"), Ok(Duration::ZERO));
        assert!(duration("5 parsecs").is_err());
        assert!(duration("s").is_err());
        assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
        assert_eq!(format_duration(Duration::from_secs(120)), "2m");
    }

    #[test]
    fn nan_infinite_negative_and_huge_durations_are_refused_not_a_panic() {
        for bad in [
            "nan", "NaN", "inf", "-inf", "infinity", "-1", "-0.5", "1e300", "-5s", "1e300h",
        ] {
            assert!(duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn plain_seconds_are_bounded_as_every_unit_is() {
        // A year (8784 h) in each unit passes; a little more is refused, as
        // `--budget 1e19` (which overflowed a deadline) is.
        for ok in ["31622400", "31622400s", "527040m", "8784h", "31622400000ms"] {
            assert_eq!(duration(ok), Ok(Duration::from_secs(31_622_400)), "{ok}");
        }
        for long in [
            "31622401",
            "1e19",
            "1e18",
            "18446744073709551616",
            "31622401s",
            "527041m",
            "8785h",
            "31622400001ms",
        ] {
            let e = duration(long).unwrap_err();
            assert!(matches!(e, SpanError::TooLong(_)), "{long}: {e}");
        }
        assert!(duration("-0").is_ok());
        assert!(
            duration("\u{1b}[2J")
                .unwrap_err()
                .to_string()
                .contains("\\u{1b}")
        );
    }

    #[test]
    fn a_rate_is_a_finite_positive_number() {
        assert_eq!(rate("1000"), Ok(1000.0));
        assert_eq!(rate("1e308"), Ok(1e308));
        for bad in ["0", "-1", "nan", "inf", "fast"] {
            assert!(rate(bad).is_err(), "{bad}");
        }
    }
}
