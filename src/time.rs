//! Timestamps as integer nanoseconds since the Unix epoch, and the `--since`/`--until` forms; and
//! [`Lap`], the milliseconds of the steps of a piece of work, for the trace log.

use chrono::{DateTime, SecondsFormat, TimeZone, Utc};

const S: i64 = 1_000_000_000;

/// Parses an RFC 3339 timestamp (the events' `timestamp`) to nanoseconds since the epoch,
/// keeping every fractional digit up to nanoseconds.
pub fn parse_rfc3339_nanos(s: &str) -> Option<i64> {
    plain_utc_nanos(s.as_bytes()).or_else(|| chrono_nanos(s))
}

/// [`parse_rfc3339_nanos`] of a timestamp given as bytes, which need not be UTF-8.
pub fn parse_rfc3339_nanos_bytes(b: &[u8]) -> Option<i64> {
    plain_utc_nanos(b).or_else(|| chrono_nanos(std::str::from_utf8(b).ok()?))
}

/// Any RFC 3339 writing, read by chrono.
fn chrono_nanos(s: &str) -> Option<i64> {
    DateTime::parse_from_rfc3339(s.trim())
        .ok()?
        .timestamp_nanos_opt()
}

/// A timestamp written as the service writes them, `YYYY-MM-DDTHH:MM:SS` and up to nine
/// fraction digits in UTC (`Z`), read directly: a million of them cost chrono's general parser
/// a noticeable part of a large dump's load. `None` for any other writing, which chrono reads
/// (or refuses): other separators and offsets, leap seconds, more digits, years before 1970 or
/// after 2199.
fn plain_utc_nanos(b: &[u8]) -> Option<i64> {
    if b.len() < 20 {
        return None;
    }
    let digit = |i: usize| {
        let d = b[i].wrapping_sub(b'0');
        (d < 10).then_some(i64::from(d))
    };
    let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if separators.iter().any(|&(i, c)| b[i] != c) {
        return None;
    }
    let year = two(0)? * 100 + two(2)?;
    let (month, day) = (two(5)?, two(8)?);
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    if !(1970..2200).contains(&year)
        || !(1..=12).contains(&month)
        || !(1..=days_in_month(year, month)).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut i = 19;
    let mut fraction = 0;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while let Some(d) = b.get(i).and_then(|_| digit(i)) {
            if i - start < 9 {
                fraction = fraction * 10 + d;
            }
            i += 1;
        }
        let digits = i - start;
        if !(1..=9).contains(&digits) {
            return None;
        }
        fraction *= 10i64.pow(9 - digits as u32);
    }
    if b.get(i) != Some(&b'Z') || i + 1 != b.len() {
        return None;
    }
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second;
    Some(seconds * 1_000_000_000 + fraction)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar, counted in eras of 400
/// years that start on March 1st (so that a leap day ends its year).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Formats nanoseconds since the epoch as RFC 3339 UTC with nine fractional digits.
pub fn format_nanos(ns: i64) -> String {
    DateTime::<Utc>::from_timestamp_nanos(ns).to_rfc3339_opts(SecondsFormat::Nanos, true)
}

/// Where times are shown: in UTC, in the system's local time, or at a fixed offset from UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Utc,
    /// The system's time zone (`TZ`, else the system's setting), its offset taken at each time
    /// shown (summer time included).
    System,
    /// This many seconds east of UTC.
    Fixed(i32),
}

impl Zone {
    /// The offset from UTC at `ns`, in seconds east.
    pub fn offset_at(self, ns: i64) -> i32 {
        use chrono::Offset;
        match self {
            Zone::Utc => 0,
            Zone::Fixed(seconds) => seconds,
            Zone::System => {
                let at = DateTime::<Utc>::from_timestamp_nanos(ns).naive_utc();
                chrono::Local
                    .offset_from_utc_datetime(&at)
                    .fix()
                    .local_minus_utc()
            }
        }
    }

    /// `ns` moved by the zone's offset: formatted as UTC, it reads as the zone's wall clock.
    pub fn shift(self, ns: i64) -> i64 {
        if ns == i64::MIN {
            return ns;
        }
        ns.saturating_add(i64::from(self.offset_at(ns)) * 1_000_000_000)
    }

    /// The time of day of `ns` in the zone, `11:06:02`. (Worked out from the seconds of the
    /// day: chrono's formatting took a sixth of the work of every chain's verdict, which names
    /// several times.)
    pub fn clock(self, ns: i64) -> String {
        let day = self.shift(ns).div_euclid(S).rem_euclid(86_400);
        format!("{:02}:{:02}:{:02}", day / 3600, day % 3600 / 60, day % 60)
    }

    /// `UTC`, or the offset at `ns` as `UTC+05:30`.
    pub fn label(self, ns: i64) -> String {
        if self == Zone::Utc {
            return "UTC".to_string();
        }
        let offset = self.offset_at(ns);
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.unsigned_abs() / 60;
        format!("UTC{sign}{:02}:{:02}", minutes / 60, minutes % 60)
    }
}

/// The list's time column: date and time to the millisecond, UTC.
pub fn format_short(ns: i64) -> String {
    DateTime::<Utc>::from_timestamp_nanos(ns)
        .format("%Y-%m-%d %H:%M:%S%.3f")
        .to_string()
}

/// The day of an instant, UTC: `2026-11-18`.
pub fn format_day(ns: i64) -> String {
    DateTime::<Utc>::from_timestamp_nanos(ns)
        .format("%Y-%m-%d")
        .to_string()
}

/// The time of day of an instant, UTC, to the millisecond: `08:01:01.574`.
pub fn format_clock(ns: i64) -> String {
    DateTime::<Utc>::from_timestamp_nanos(ns)
        .format("%H:%M:%S%.3f")
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

/// The milliseconds between one call of [`Lap::split`] and the next, for the trace log.
pub struct Lap(std::time::Instant);

impl Lap {
    pub fn new(from: std::time::Instant) -> Lap {
        Lap(from)
    }

    /// The milliseconds since the last lap (or the start), starting the next.
    pub fn split(&mut self) -> f64 {
        let now = std::time::Instant::now();
        let ms = (now - self.0).as_secs_f64() * 1e3;
        self.0 = now;
        ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_shifts_times_by_its_offset_and_names_it() {
        let t = parse_rfc3339_nanos("2026-11-18T08:01:02.258Z").unwrap();
        let india = Zone::Fixed(5 * 3600 + 30 * 60);
        assert_eq!(format_short(india.shift(t)), "2026-11-18 13:31:02.258");
        assert_eq!(india.label(t), "UTC+05:30");
        assert_eq!(Zone::Fixed(-4 * 3600).label(t), "UTC-04:00");
        assert_eq!(Zone::Utc.shift(t), t);
        assert_eq!(Zone::Utc.label(t), "UTC");
        assert_eq!(india.shift(i64::MIN), i64::MIN, "no time stays no time");
    }

    #[test]
    fn the_clock_reads_as_chrono_formats_it_before_and_after_1970_in_a_zone() {
        for ns in [
            0,
            1,
            -1,
            S - 1,
            86_399 * S + 999_999_999,
            1_763_460_362 * S + 5,
            -86_401 * S,
            -S / 2,
            i64::MIN,
            i64::MAX,
        ] {
            let chrono = |offset: i32| {
                let zone = chrono::FixedOffset::east_opt(offset).unwrap();
                DateTime::<Utc>::from_timestamp_nanos(ns)
                    .with_timezone(&zone)
                    .format("%H:%M:%S")
                    .to_string()
            };
            assert_eq!(Zone::Utc.clock(ns), chrono(0), "{ns}");
            // The ends of time stay where they are, as `shift` keeps them.
            if ns != i64::MIN && ns != i64::MAX {
                for offset in [19_800, -4 * 3600, 45 * 60] {
                    assert_eq!(
                        Zone::Fixed(offset).clock(ns),
                        chrono(offset),
                        "{ns} {offset}"
                    );
                }
            }
        }
    }

    #[test]
    fn timestamps_read_directly_read_as_chrono_reads_them() {
        use rand::{Rng, SeedableRng};
        let chrono_nanos = |s: &str| {
            DateTime::parse_from_rfc3339(s.trim())
                .ok()
                .and_then(|t| t.timestamp_nanos_opt())
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3339);
        let mut direct = 0;
        for _ in 0..200_000 {
            let fraction = match rng.random_range(0..12) {
                0 => String::new(),
                11 => ".".into(),
                n => format!(".{:0n$}", rng.random_range(0..10u64.pow(n.min(10) as u32))),
            };
            let end = ["Z", "Z", "Z", "z", "+00:00", "-07:30", "", "Z "][rng.random_range(0..8)];
            let text = format!(
                "{:04}-{:02}-{:02}{}{:02}:{:02}:{:02}{fraction}{end}",
                rng.random_range(1965..2205),
                rng.random_range(0..14),
                rng.random_range(0..33),
                ["T", "T", "t", " "][rng.random_range(0..4)],
                rng.random_range(0..25),
                rng.random_range(0..61),
                rng.random_range(0..62),
            );
            let expected = chrono_nanos(&text);
            assert_eq!(parse_rfc3339_nanos(&text), expected, "{text}");
            assert_eq!(parse_rfc3339_nanos_bytes(text.as_bytes()), expected);
            direct += usize::from(plain_utc_nanos(text.as_bytes()).is_some());
        }
        assert!(direct > 10_000, "{direct} read directly");
        // Every day of the years around the leap rules, at the day's ends.
        for year in [1970, 1999, 2000, 2023, 2024, 2100, 2199] {
            for month in 1..=12 {
                for day in 1..=31 {
                    for time in ["00:00:00Z", "23:59:59.999999999Z"] {
                        let text = format!("{year}-{month:02}-{day:02}T{time}");
                        assert_eq!(parse_rfc3339_nanos(&text), chrono_nanos(&text), "{text}");
                    }
                }
            }
        }
        // Long enough for the direct reading to look at every byte.
        assert_eq!(
            parse_rfc3339_nanos_bytes(b"2026-11-18T10:00:00.\xffZ"),
            None
        );
        assert_eq!(parse_rfc3339_nanos_bytes(b"2026-11-18T10:00:0\xffZ"), None);
    }

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
