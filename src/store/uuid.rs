//! Canonical UUIDs read eight digits at a time: every event of the service has one as its id, so
//! this runs once or twice per event read.

/// Parses exactly `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex, so that two ids map to
/// the same key only when their strings are equal.
pub fn parse_uuid(b: &[u8]) -> Option<u128> {
    let b: &[u8; 36] = b.try_into().ok()?;
    if b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
        return None;
    }
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(b[at..at + 4].try_into().expect("four")));
    let groups = [
        word(0),
        half(9) | half(14) << 32,
        half(19) | half(24) << 32,
        word(28),
    ];
    let mut v = 0u128;
    for g in groups {
        v = v << 32 | u128::from(hex8(g)?);
    }
    Some(v)
}

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// The high bit of each byte of `x` (all below 0x80) that is at least `lo`: with the high bit
/// set first, subtracting `lo` cannot borrow from the next byte.
fn at_least(x: u64, lo: u8) -> u64 {
    ((x | HIGH) - ONES * u64::from(lo)) & HIGH
}

/// The eight lowercase hex digits packed in `x` (the first in the lowest byte) as a number;
/// `None` when a byte is not one.
fn hex8(x: u64) -> Option<u32> {
    let within = |lo: u8, hi: u8| at_least(x, lo) & !at_least(x, hi + 1);
    let digit = within(b'0', b'9') | within(b'a', b'f');
    if x & HIGH != 0 || digit != HIGH {
        return None;
    }
    // '0'..'9' are 0x30..0x39 and 'a'..'f' are 0x61..0x66: the low four bits, plus 9 for letters.
    let n = (x & (ONES * 0x0F)) + ((x >> 6) & ONES) * 9;
    // Pairs of digits into bytes, pairs of bytes into sixteen bits, then the two halves.
    let n = ((n << 4) | (n >> 8)) & 0x00FF_00FF_00FF_00FF;
    let n = ((n << 8) | (n >> 16)) & 0x0000_FFFF_0000_FFFF;
    Some((((n << 16) | (n >> 32)) & 0xFFFF_FFFF) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reading, digit by digit.
    fn reference(b: &[u8]) -> Option<u128> {
        if b.len() != 36 {
            return None;
        }
        let mut v = 0u128;
        for (i, &c) in b.iter().enumerate() {
            if matches!(i, 8 | 13 | 18 | 23) {
                if c != b'-' {
                    return None;
                }
                continue;
            }
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                _ => return None,
            };
            v = v << 4 | u128::from(d);
        }
        Some(v)
    }

    #[test]
    fn reads_canonical_uuids_digit_for_digit() {
        let id = "a6e7ce20-68c4-4e68-be09-6ff5e1b8b9eb";
        assert_eq!(
            parse_uuid(id.as_bytes()),
            Some(0xa6e7ce20_68c4_4e68_be09_6ff5e1b8b9eb)
        );
        assert_eq!(parse_uuid(b"00000000-0000-0000-0000-000000000000"), Some(0));
        assert_eq!(
            parse_uuid(b"ffffffff-ffff-ffff-ffff-ffffffffffff"),
            Some(u128::MAX)
        );
    }

    #[test]
    fn every_byte_in_every_place_is_judged_as_the_plain_reading_judges_it() {
        let id = b"0123abcd-ef45-6789-a0b1-c2d3e4f5a6b7";
        assert_eq!(parse_uuid(id), reference(id));
        for i in 0..id.len() {
            for byte in 0..=255u8 {
                let mut m = *id;
                m[i] = byte;
                assert_eq!(parse_uuid(&m), reference(&m), "byte {byte:#x} at {i}");
            }
        }
        for bad in [
            &id[..35],
            b"0123abcd-ef45-6789-a0b1-c2d3e4f5a6b7a",
            b"0123ABCD-ef45-6789-a0b1-c2d3e4f5a6b7",
        ] {
            assert_eq!(parse_uuid(bad), None);
        }
    }
}
