//! Timestamps as integer nanoseconds since the Unix epoch, and the `--since`/`--until` forms.

use chrono::{DateTime, SecondsFormat, Utc};

/// Parses an RFC 3339 timestamp (the events' `timestamp`) to nanoseconds since the epoch,
/// keeping every fractional digit up to nanoseconds.
pub fn parse_rfc3339_nanos(s: &str) -> Option<i64> {
    let t = DateTime::parse_from_rfc3339(s.trim()).ok()?;
    t.timestamp_nanos_opt()
}

/// Formats nanoseconds since the epoch as RFC 3339 UTC with nine fractional digits.
pub fn format_nanos(ns: i64) -> String {
    DateTime::<Utc>::from_timestamp_nanos(ns).to_rfc3339_opts(SecondsFormat::Nanos, true)
}

/// The list's time column: date and time to the millisecond, UTC.
pub fn format_short(ns: i64) -> String {
    DateTime::<Utc>::from_timestamp_nanos(ns)
        .format("%Y-%m-%d %H:%M:%S%.3f")
        .to_string()
}

/// Reads a `--since`/`--until` value: RFC 3339, or a duration back from `now_ns` such as `90s`,
/// `90m`, `2h`, `3d`, `1w`.
pub fn parse_time_bound(s: &str, now_ns: i64) -> Result<i64, String> {
    let s = s.trim();
    if let Some(ns) = parse_rfc3339_nanos(s) {
        return Ok(ns);
    }
    let back = parse_duration_nanos(s).ok_or_else(|| {
        format!(
            "'{s}' is neither an RFC 3339 time (2026-11-18T10:00:00Z) nor a duration back from now (90m, 2h, 3d)"
        )
    })?;
    Ok(now_ns.saturating_sub(back))
}

/// `90s`, `90m`, `2h`, `3d`, `1w` to nanoseconds.
pub fn parse_duration_nanos(s: &str) -> Option<i64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit())?;
    let (digits, unit) = s.split_at(split);
    let n: i64 = digits.parse().ok()?;
    let unit_secs: i64 = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    n.checked_mul(unit_secs)?.checked_mul(1_000_000_000)
}

pub fn now_nanos() -> i64 {
    Utc::now().timestamp_nanos_opt().unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanoseconds_survive_parsing_and_formatting() {
        let ns = parse_rfc3339_nanos("2026-11-18T10:04:05.123456789Z").unwrap();
        assert_eq!(ns % 1_000_000_000, 123_456_789);
        assert_eq!(format_nanos(ns), "2026-11-18T10:04:05.123456789Z");
    }

    #[test]
    fn offsets_are_converted_to_utc() {
        let a = parse_rfc3339_nanos("2026-11-18T12:00:00+02:00").unwrap();
        let b = parse_rfc3339_nanos("2026-11-18T10:00:00Z").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn durations_count_back_from_now() {
        let now = parse_rfc3339_nanos("2026-11-18T10:00:00Z").unwrap();
        let t = parse_time_bound("90m", now).unwrap();
        assert_eq!(format_nanos(t), "2026-11-18T08:30:00.000000000Z");
        assert_eq!(
            parse_time_bound("3d", now).unwrap(),
            now - 3 * 86_400 * 1_000_000_000
        );
    }

    #[test]
    fn bad_bounds_say_what_is_accepted() {
        let err = parse_time_bound("yesterday", 0).unwrap_err();
        assert!(err.contains("RFC 3339") && err.contains("90m"), "{err}");
        assert!(parse_duration_nanos("5y").is_none());
        assert!(parse_duration_nanos("m").is_none());
    }
}
