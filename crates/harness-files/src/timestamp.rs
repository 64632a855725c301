//! UTC calendar times as the harness's files and Reprise's run folders
//! write them, from seconds since the Unix epoch (no time-zone database:
//! everything is UTC).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch, now.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `2026-09-22T04:00:00Z` (env.json's `captured_at`, the history's times).
pub fn iso8601_utc(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d, h, min, s) = civil(secs);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}Z")
}

/// Now, as [`iso8601_utc`].
pub fn utc_now() -> String {
    iso8601_utc(SystemTime::now())
}

/// [`iso8601_utc`] of seconds since the epoch.
pub fn iso8601_utc_secs(secs: u64) -> String {
    iso8601_utc(UNIX_EPOCH + Duration::from_secs(secs))
}

/// `20261201-041637` (run folder names).
pub fn compact_utc(secs: u64) -> String {
    let (y, m, d, h, min, s) = civil(secs);
    format!("{y:04}{m:02}{d:02}-{h:02}{min:02}{s:02}")
}

/// Seconds since the epoch to (year, month, day, hour, minute, second),
/// proleptic Gregorian (Howard Hinnant's days-to-civil).
fn civil(secs: u64) -> (i64, u32, u32, u64, u64, u64) {
    let z = (secs / 86_400) as i64 + 719_468;
    let rem = secs % 86_400;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rem / 3600, rem / 60 % 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_calendar_times() {
        assert_eq!(iso8601_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601_utc_secs(1_790_050_000), "2026-09-22T04:06:40Z");
        assert_eq!(iso8601_utc_secs(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(compact_utc(0), "19700101-000000");
        // 2026-12-01 04:16:37 UTC, as `date -u -d @1796098597` says
        assert_eq!(compact_utc(1_796_098_597), "20261201-041637");
        assert_eq!(compact_utc(951_782_400), "20000229-000000");
    }
}
