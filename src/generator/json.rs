//! Byte-level writers for the pieces of an event line.
//!
//! A million events must render in a few seconds, so lines are assembled from these small writers
//! into one reused buffer instead of going through `format!` or a serde value per event.

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The calendar day every generated timestamp falls on; fixed so that output never depends on the clock.
pub(super) const DATE_PREFIX: &[u8] = b"2026-11-18T";
/// 2026-11-18T00:00:00Z as Unix seconds, for fields that carry epoch times.
pub(super) const DAY_EPOCH_SECS: u64 = 1_794_960_000;

pub(super) const NS: u64 = 1_000_000_000;

pub(super) fn push_escaped(buf: &mut Vec<u8>, s: &[u8]) {
    buf.push(b'"');
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1f => b"",
            _ => continue,
        };
        buf.extend_from_slice(&s[start..i]);
        if esc.is_empty() {
            buf.extend_from_slice(b"\\u00");
            buf.push(HEX[usize::from(b >> 4)]);
            buf.push(HEX[usize::from(b & 0xf)]);
        } else {
            buf.extend_from_slice(esc);
        }
        start = i + 1;
    }
    buf.extend_from_slice(&s[start..]);
    buf.push(b'"');
}

/// `,"key":"value"` with the value escaped; most optional and common fields are written this way.
pub(super) fn push_field(buf: &mut Vec<u8>, key: &str, value: &str) {
    buf.extend_from_slice(b",\"");
    buf.extend_from_slice(key.as_bytes());
    buf.extend_from_slice(b"\":");
    push_escaped(buf, value.as_bytes());
}

pub(super) fn push_u64(buf: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

fn push_padded(buf: &mut Vec<u8>, n: u64, width: usize) {
    let mut digits = [b'0'; 9];
    let mut n = n;
    for slot in digits[..width].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    buf.extend_from_slice(&digits[..width]);
}

pub(super) fn push_hex(buf: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        buf.push(HEX[usize::from(b >> 4)]);
        buf.push(HEX[usize::from(b & 0xf)]);
    }
}

pub(super) fn hex_string(bytes: &[u8]) -> String {
    let mut v = Vec::with_capacity(bytes.len() * 2);
    push_hex(&mut v, bytes);
    v.into_iter().map(char::from).collect()
}

pub(super) fn push_uuid(buf: &mut Vec<u8>, id: &[u8; 16]) {
    for (i, chunk) in [&id[0..4], &id[4..6], &id[6..8], &id[8..10], &id[10..16]]
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            buf.push(b'-');
        }
        push_hex(buf, chunk);
    }
}

/// RFC 3339 in UTC with exactly nine fraction digits; `t` is nanoseconds since midnight of the fixed day.
pub(super) fn push_time(buf: &mut Vec<u8>, t: u64) {
    push_time_to(buf, t, 9);
}

/// RFC 3339 in UTC with milliseconds, as the sessions and rooms endpoints write times; `t` as in
/// [`push_time`], cut (not rounded) to the millisecond.
pub(super) fn push_time_ms(buf: &mut Vec<u8>, t: u64) {
    push_time_to(buf, t, 3);
}

/// RFC 3339 in UTC with `digits` fraction digits (1 to 9), the nanoseconds cut to them; `t` as in
/// [`push_time`].
fn push_time_to(buf: &mut Vec<u8>, t: u64, digits: u32) {
    let secs = t / NS;
    buf.extend_from_slice(DATE_PREFIX);
    push_padded(buf, secs / 3600, 2);
    buf.push(b':');
    push_padded(buf, secs / 60 % 60, 2);
    buf.push(b':');
    push_padded(buf, secs % 60, 2);
    buf.push(b'.');
    push_padded(buf, t % NS / 10u64.pow(9 - digits), digits as usize);
    buf.push(b'Z');
}

/// Unix milliseconds of `t` (nanoseconds since midnight of the fixed day).
pub(super) fn unix_ms(t: u64) -> u64 {
    DAY_EPOCH_SECS * 1000 + t / 1_000_000
}

/// `n / 10^places` as a JSON number without trailing zeros: 1230 with 2 places is `12.3`.
pub(super) fn push_fixed(buf: &mut Vec<u8>, n: u64, places: u32) {
    let scale = 10u64.pow(places);
    push_u64(buf, n / scale);
    let mut fraction = n % scale;
    if fraction == 0 {
        return;
    }
    let mut width = places as usize;
    while fraction.is_multiple_of(10) {
        fraction /= 10;
        width -= 1;
    }
    buf.push(b'.');
    push_padded(buf, fraction, width);
}

/// A 24-hex id in the style of the service's ids: creation time in seconds, then random bytes.
pub(super) fn object_id(unix_secs: u64, random: [u8; 8]) -> String {
    let mut bytes = [0u8; 12];
    bytes[..4].copy_from_slice(&(unix_secs as u32).to_be_bytes());
    bytes[4..].copy_from_slice(&random);
    hex_string(&bytes)
}

/// Precomputed `"value"` for text that repeats on many lines (names, ids).
pub(super) fn quoted(s: &str) -> Box<[u8]> {
    let mut v = Vec::with_capacity(s.len() + 2);
    push_escaped(&mut v, s.as_bytes());
    v.into_boxed_slice()
}
