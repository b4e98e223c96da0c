//! The id and timestamp of an event spelled out again from what its row holds, so that the text
//! search need not read them from the dump: a canonical UUID from its sixteen bytes, and a
//! timestamp written the usual way (`2026-11-18T08:00:20.145550777Z`, any number of fraction
//! digits) from its nanoseconds.

use std::sync::Arc;

/// The canonical text of a UUID: 36 bytes, lowercase. Written here rather than by the `uuid`
/// crate's `encode_lower`, which took 1.7 times as long (4.8 ns against 3.0, the medians of 25
/// runs over a million UUIDs): the search spells one for every row when the text could be part
/// of an id.
pub fn uuid_text(uuid: u128) -> [u8; 36] {
    let group = |k: u32| hex8((uuid >> (96 - 32 * k)) as u32);
    let (a, b, c, d) = (group(0), group(1), group(2), group(3));
    let mut out = [b'-'; 36];
    out[..8].copy_from_slice(&a);
    out[9..13].copy_from_slice(&b[..4]);
    out[14..18].copy_from_slice(&b[4..]);
    out[19..23].copy_from_slice(&c[..4]);
    out[24..28].copy_from_slice(&c[4..]);
    out[28..].copy_from_slice(&d);
    out
}

/// Eight lowercase hex digits, the most significant first.
fn hex8(v: u32) -> [u8; 8] {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    // Each nibble into a byte of its own, the first nibble in the most significant byte.
    let mut x = u64::from(v);
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    // '0' + d, and 'a' - '9' - 1 more for the digits above 9.
    let above_nine = ((x + ONES * 6) >> 4) & ONES;
    (x + ONES * u64::from(b'0') + above_nine * u64::from(b'a' - b'9' - 1)).to_be_bytes()
}

/// How a timestamp's text is spelled from its nanoseconds: `Some(d)` when `text` is exactly
/// `YYYY-MM-DDTHH:MM:SS`, then `d` fraction digits after a dot (none when `d` is 0), then `Z`.
pub fn timestamp_digits(text: &[u8], ns: i64) -> Option<u8> {
    let digits = match text.len() {
        20 => 0,
        22..=30 => text.len() - 21,
        _ => return None,
    };
    let mut buf = [0; TIMESTAMP_MAX];
    (timestamp_text(ns, digits as u8, &mut buf)? == text).then_some(digits as u8)
}

/// The longest timestamp text: nine fraction digits.
pub const TIMESTAMP_MAX: usize = 30;

/// `ns` written as [`timestamp_digits`] says, with `digits` fraction digits (at most nine);
/// `None` for a year that is not four digits long.
pub fn timestamp_text(ns: i64, digits: u8, out: &mut [u8; TIMESTAMP_MAX]) -> Option<&[u8]> {
    let (days, of_day, nanos) = split(ns);
    out[..10].copy_from_slice(&date_text(days)?);
    let len = time_text(of_day, nanos, digits, out)?;
    Some(&out[..len])
}

/// Spells timestamps for the text search, in lowercase (`t`, `z`), with the dates of the days a
/// store's events fall on spelled once: a dump's events fall on a few days, and working a date
/// out again for each event took half the time of spelling its timestamp.
#[derive(Debug, Clone, Default)]
pub struct Speller {
    /// The day of `dates[0]`.
    first: i64,
    /// `YYYY-MM-DD` of each day from `first` on.
    dates: Arc<[[u8; 10]]>,
}

/// Dates spelled ahead at most: a store whose times span more days spells the others as it
/// meets them.
const MAX_DAYS: i64 = 1 << 14;

impl Speller {
    /// A speller with the dates of the days from that of `from` to that of `to` (nanoseconds
    /// since the epoch) spelled ahead, or of the first [`MAX_DAYS`] of them.
    pub fn spanning(from: i64, to: i64) -> Speller {
        let (first, last) = (split(from).0, split(to).0);
        let days = (last - first + 1).clamp(0, MAX_DAYS);
        // Every day a time in nanoseconds can hold has a year of four digits.
        let dates = (first..first + days).filter_map(date_text).collect();
        Speller { first, dates }
    }

    /// Whether the dates spelled ahead are those of the days from that of `from` to that of
    /// `to`, as [`Speller::spanning`] spells them.
    pub fn spans(&self, from: i64, to: i64) -> bool {
        let (first, last) = (split(from).0, split(to).0);
        self.first == first && self.dates.len() as i64 == (last - first + 1).clamp(0, MAX_DAYS)
    }

    /// As [`timestamp_text`], in lowercase.
    pub fn spell<'o>(
        &self,
        ns: i64,
        digits: u8,
        out: &'o mut [u8; TIMESTAMP_MAX],
    ) -> Option<&'o [u8]> {
        let (days, of_day, nanos) = split(ns);
        let ahead = usize::try_from(days.wrapping_sub(self.first)).ok();
        match ahead.and_then(|k| self.dates.get(k)) {
            Some(date) => out[..10].copy_from_slice(date),
            None => out[..10].copy_from_slice(&date_text(days)?),
        }
        let len = time_text(of_day, nanos, digits, out)?;
        out[10] = b't';
        out[len - 1] = b'z';
        Some(&out[..len])
    }
}

const NANOS: i64 = 1_000_000_000;

/// A time in nanoseconds as its day from 1970-01-01, its second of that day and its nanosecond.
fn split(ns: i64) -> (i64, i64, i64) {
    let secs = ns.div_euclid(NANOS);
    (
        secs.div_euclid(86_400),
        secs.rem_euclid(86_400),
        ns.rem_euclid(NANOS),
    )
}

/// Writes `THH:MM:SS`, then `digits` fraction digits after a dot (none when 0), then `Z`, from
/// `out[10]` on; the length of the whole text. `None` for more than nine digits.
fn time_text(of_day: i64, nanos: i64, digits: u8, out: &mut [u8; TIMESTAMP_MAX]) -> Option<usize> {
    if digits > 9 {
        return None;
    }
    // The search spells a timestamp for every event: two digits at a time, by table.
    let of_day = of_day as usize;
    out[10] = b'T';
    out[11..13].copy_from_slice(&PAIRS[of_day / 3600]);
    out[13] = b':';
    out[14..16].copy_from_slice(&PAIRS[of_day / 60 % 60]);
    out[16] = b':';
    out[17..19].copy_from_slice(&PAIRS[of_day % 60]);
    let mut len = 19;
    if digits > 0 {
        out[19] = b'.';
        len = 20 + usize::from(digits);
        let kept = nanos / 10i64.pow(9 - u32::from(digits));
        put_digits(&mut out[20..len], kept as u64);
    }
    out[len] = b'Z';
    Some(len + 1)
}

/// The two digits of each number below 100.
const PAIRS: [[u8; 2]; 100] = {
    let mut t = [[0; 2]; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    t
};

/// `YYYY-MM-DD` of a day counted from 1970-01-01; `None` for a year that is not four digits.
fn date_text(days: i64) -> Option<[u8; 10]> {
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return None;
    }
    let mut out = [b'-'; 10];
    put_digits(&mut out[..4], year as u64);
    put_digits(&mut out[5..7], month as u64);
    put_digits(&mut out[8..], day as u64);
    Some(out)
}

/// Fills `out` with the last digits of `value`, zeros in front.
fn put_digits(out: &mut [u8], mut value: u64) {
    for b in out.iter_mut().rev() {
        *b = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::intern::ids::canonical_uuid;
    use crate::time::parse_rfc3339_nanos;

    #[test]
    fn a_uuid_is_spelled_as_it_was_read() {
        let id = "a6e7ce20-68c4-4e68-be09-6ff5e1b8b9eb";
        let uuid = canonical_uuid(id.as_bytes()).unwrap();
        assert_eq!(&uuid_text(uuid), id.as_bytes());
        assert_eq!(&uuid_text(0), b"00000000-0000-0000-0000-000000000000");
        let all = "0123456789abcdef0123456789abcdeffedcba9876543210fedcba9876543210";
        for k in 0..32 {
            let hex = format!(
                "{}-{}-{}-{}-{}",
                &all[k..k + 8],
                &all[k + 8..k + 12],
                &all[k + 12..k + 16],
                &all[k + 16..k + 20],
                &all[k + 20..k + 32]
            );
            let uuid = canonical_uuid(hex.as_bytes()).unwrap();
            assert_eq!(&uuid_text(uuid), hex.as_bytes());
        }
    }

    #[test]
    fn timestamps_are_spelled_as_chrono_spells_them_over_the_years() {
        use chrono::{DateTime, SecondsFormat, Utc};
        let mut buf = [0; TIMESTAMP_MAX];
        // Every day that a time in nanoseconds can hold, at times of day that drift.
        let start = parse_rfc3339_nanos("1677-09-22T00:00:00Z").unwrap();
        let day = 86_400 * 1_000_000_000i64;
        let mut ns = start;
        for _ in 0..213_000 {
            ns += day + 3_723_000_017;
            let want = DateTime::<Utc>::from_timestamp_nanos(ns)
                .to_rfc3339_opts(SecondsFormat::Nanos, true);
            assert_eq!(timestamp_text(ns, 9, &mut buf).unwrap(), want.as_bytes());
        }
    }

    #[test]
    fn the_speller_spells_what_timestamp_text_spells_in_lowercase() {
        let (mut a, mut b) = ([0; TIMESTAMP_MAX], [0; TIMESTAMP_MAX]);
        let start = parse_rfc3339_nanos("1999-12-30T22:58:57.123456789Z").unwrap();
        let day = 86_400_000_000_000;
        // Dates spelled ahead for none, some or all of the days, and for none of them.
        let spellers = [
            Speller::default(),
            Speller::spanning(start + 20 * day, start + 60 * day),
            Speller::spanning(start - day, start + 200 * day),
            Speller::spanning(start + 10_000 * day, start - day),
        ];
        assert!(spellers[1].spans(start + 20 * day, start + 60 * day + 5));
        assert!(!spellers[1].spans(start + 20 * day, start + 61 * day));
        for speller in &spellers {
            for k in 0..20_000i64 {
                // Mostly within a day of the one before, now and then a jump.
                let ns = start + k * 7_654_321_987 + (k % 97) * day;
                for digits in 0..=9 {
                    let want = timestamp_text(ns, digits, &mut a)
                        .unwrap()
                        .to_ascii_lowercase();
                    assert_eq!(speller.spell(ns, digits, &mut b).unwrap(), want.as_slice());
                }
            }
            assert_eq!(speller.spell(start, 10, &mut b), None);
        }
        // Over every day a time in nanoseconds can hold, the first days are spelled ahead and
        // the others as they are met; the first and last of them, whose starts or ends it
        // cannot hold, among them.
        let speller = Speller::spanning(i64::MIN, i64::MAX);
        assert_eq!(speller.dates.len() as i64, MAX_DAYS);
        for text in [
            "1677-09-21T12:00:00.5Z",
            "1677-09-21T00:12:43.145224192Z",
            "2262-04-11T23:47:16.854775807Z",
        ] {
            let ns = parse_rfc3339_nanos(text).unwrap();
            let want = text.to_ascii_lowercase();
            let digits = timestamp_digits(text.as_bytes(), ns).unwrap();
            assert_eq!(speller.spell(ns, digits, &mut b).unwrap(), want.as_bytes());
        }
    }

    #[test]
    fn only_a_text_spelled_the_usual_way_is_known_by_its_digits() {
        let cases = [
            ("2026-11-18T08:00:20.145550777Z", Some(9)),
            ("2026-11-18T08:00:20.145Z", Some(3)),
            ("2026-11-18T08:00:20.1Z", Some(1)),
            ("2026-11-18T08:00:20Z", Some(0)),
            ("2026-11-18T08:00:20.000Z", Some(3)),
            ("1970-01-01T00:00:00Z", Some(0)),
            ("1969-12-31T23:59:59.5Z", Some(1)),
            ("2026-11-18T08:00:20.145z", None),
            ("2026-11-18t08:00:20.145Z", None),
            ("2026-11-18T08:00:20.145+00:00", None),
            ("2026-11-18T09:00:20.145+01:00", None),
            ("2026-11-18T08:00:20.Z", None),
        ];
        for (text, want) in cases {
            let ns = parse_rfc3339_nanos(text).unwrap_or(0);
            assert_eq!(timestamp_digits(text.as_bytes(), ns), want, "{text}");
        }
        // The right shape, but not the time the row holds.
        let ns = parse_rfc3339_nanos("2026-11-18T08:00:20Z").unwrap();
        assert_eq!(timestamp_digits(b"2026-11-18T08:00:21Z", ns), None);
        let mut buf = [0; TIMESTAMP_MAX];
        assert_eq!(timestamp_text(ns, 10, &mut buf), None);
    }
}
