//! Flag values that are numbers with a meaning: parsed once, at the edge, so
//! no command sees a NaN, an infinity or a negative time, and no duration a
//! command builds can overflow or panic.

use std::time::Duration;

use reprise_recipe::Span;

/// A duration flag: the recipes' grammar (`20s`, `500ms`, `2m`, `1h`), or
/// a plain number of seconds (`10`, `2.5`). NaN, infinite, negative and
/// too long are refused with the reason.
pub fn duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_nan() || seconds.is_infinite() => Err(format!(
            "`{text}` is not a duration; expected seconds (e.g. 10) or e.g. 500ms, 20s, 2m"
        )),
        Ok(seconds) if seconds < 0.0 => Err(format!("`{text}` is negative")),
        Ok(seconds) => Duration::try_from_secs_f64(seconds)
            .map_err(|_| format!("`{text}` is too long to be a duration")),
        Err(_) => text.parse::<Span>().map(Span::as_duration),
    }
}

/// A rate flag: a finite number of requests per second above zero.
pub fn rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 => Ok(rate),
        Ok(_) => Err(format!(
            "`{text}` is not a rate: it must be a finite number above zero"
        )),
        Err(_) => Err(format!("`{text}` is not a number")),
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
    fn a_rate_is_a_finite_positive_number() {
        assert_eq!(rate("1000"), Ok(1000.0));
        assert_eq!(rate("1e308"), Ok(1e308));
        for bad in ["0", "-1", "nan", "inf", "fast"] {
            assert!(rate(bad).is_err(), "{bad}");
        }
    }
}
