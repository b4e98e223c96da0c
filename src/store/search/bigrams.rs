//! Which pairs of adjacent characters a text holds, folded into 256 bits. A search text can only
//! be in a description that holds each of its pairs, so a search rules out most descriptions by
//! their row, without reading them from the dump.
//!
//! The top [`FLAGS`] of the 256 bits are no pair's: they hold what the search notes of the row
//! beside its description's pairs (see `super::located`), so that a search reads neither.

/// The pairs of adjacent bytes of a text, each folded to one of [`PAIR_BITS`] bits. Letters are
/// folded with their other case (every byte is read with its 0x20 bit set), so the pairs of a
/// text's ASCII lowercase are among its own. The bits above are flags, which [`Bigrams::holds`]
/// does not read (no text's pairs set them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bigrams([u64; 4]);

/// How many of the 256 bits are flags rather than pairs: the top ones.
pub const FLAGS: usize = 2;

/// How many bits the pairs are folded into: a pair whose hash is a flag's bit takes a bit
/// [`FLAGS`] below it instead.
const PAIR_BITS: usize = 256 - FLAGS;

/// The multiplier of the pairs' hash.
const MUL: u32 = 0x9E37_79B1;

/// The bit of the pair `a`, `b` (each read with its 0x20 bit set): the top eight bits of a
/// 32-bit multiplicative hash of the two.
#[inline]
fn bit_of(a: u8, b: u8) -> usize {
    let pair = u32::from(u16::from_le_bytes([a | 0x20, b | 0x20]));
    (pair.wrapping_mul(MUL) >> 24) as usize
}

impl Bigrams {
    /// Holds every pair: rules nothing out. No flag is set.
    pub const ALL: Bigrams = Bigrams([u64::MAX, u64::MAX, u64::MAX, u64::MAX >> FLAGS]);

    pub fn of(text: &[u8]) -> Bigrams {
        // One byte per bit, each only ever set to 1: no pair waits for the one before it.
        let mut seen = [0u8; 256];
        let done = sixteen_pairs_at_a_time(text, &mut seen);
        for pair in text[done..].windows(2) {
            seen[bit_of(pair[0], pair[1])] = 1;
        }
        // The flags' bits are no pair's.
        for bit in PAIR_BITS..256 {
            seen[bit - FLAGS] |= std::mem::take(&mut seen[bit]);
        }
        // Eight flags of one byte each into eight bits: the multiplication moves flag `j` to
        // bit `56 + j`, and no two of them collide on the way.
        let mut bits = [0u64; 4];
        for (k, flags) in seen.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(flags.try_into().expect("eight bytes"));
            bits[k / 8] |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * (k % 8));
        }
        Bigrams(bits)
    }

    /// Whether every pair of `other` is among these (`other`'s flags aside).
    pub fn holds(&self, other: &Bigrams) -> bool {
        let pairs = |k: usize| {
            if k == 3 {
                other.0[3] & (u64::MAX >> FLAGS)
            } else {
                other.0[k]
            }
        };
        (0..4).all(|k| self.0[k] & pairs(k) == pairs(k))
    }

    /// Flag `k` (below [`FLAGS`]).
    pub fn flag(&self, k: usize) -> bool {
        debug_assert!(k < FLAGS);
        self.0[3] & (1 << (64 - FLAGS + k)) != 0
    }

    /// Sets flag `k` (below [`FLAGS`]) to `on`, the pairs left as they are.
    pub fn set_flag(&mut self, k: usize, on: bool) {
        debug_assert!(k < FLAGS);
        let bit = 1 << (64 - FLAGS + k);
        if on {
            self.0[3] |= bit;
        } else {
            self.0[3] &= !bit;
        }
    }
}

/// The bit that the pair `a`, `b` sets: its hash's, or for a flag's bit the one [`FLAGS`]
/// below.
#[cfg(test)]
fn pair_bit(a: u8, b: u8) -> usize {
    let bit = bit_of(a, b);
    if bit >= PAIR_BITS { bit - FLAGS } else { bit }
}

/// Sets the flags of the pairs that start in the first sixteen bytes, then the next sixteen,
/// while seventeen bytes are left; returns where the pairs left to the caller start.
///
/// The sixteen bits are taken out of the vector as two 64-bit words and shifted out of them, not
/// stored and read back a byte at a time: a byte read from a 16-byte store still on its way to
/// the cache cannot be forwarded from it, and each waited for the store to complete (timed
/// alone over 20,000 descriptions of a held-out dump, the pairs of one took 365 ns that way
/// against 80; in a load of that dump, this function's share of the work fell from 5.8% to
/// 3.8%).
#[cfg(target_arch = "x86_64")]
fn sixteen_pairs_at_a_time(text: &[u8], seen: &mut [u8; 256]) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_mulhi_epu16,
        _mm_mullo_epi16, _mm_or_si128, _mm_packus_epi16, _mm_set1_epi8, _mm_set1_epi16,
        _mm_srli_epi16, _mm_unpackhi_epi8, _mm_unpackhi_epi64, _mm_unpacklo_epi8,
    };
    // `bit_of`'s hash of eight pairs, each in sixteen bits: for a pair `p` below 2^16, bits 16
    // to 31 of `p * MUL` (mod 2^32) are the high sixteen bits of `p` times MUL's low half, plus
    // the low sixteen bits of `p` times MUL's high half; the hash is the top eight of them.
    // SAFETY: SSE2 is part of every x86_64 processor, and these touch no memory.
    let bits_16 = |pairs: __m128i| unsafe {
        let high = _mm_mullo_epi16(pairs, _mm_set1_epi16((MUL >> 16) as u16 as i16));
        let low = _mm_mulhi_epu16(pairs, _mm_set1_epi16(MUL as u16 as i16));
        _mm_srli_epi16(_mm_add_epi16(high, low), 8)
    };
    let mut i = 0;
    while i + 17 <= text.len() {
        // SAFETY: SSE2 is part of every x86_64 processor; the loads read `i..i + 16` and
        // `i + 1..i + 17`, both within `text` (unaligned loads have no other requirement).
        let (first_eight, last_eight) = unsafe {
            let case = _mm_set1_epi8(0x20);
            let first = _mm_or_si128(_mm_loadu_si128(text.as_ptr().add(i).cast()), case);
            let second = _mm_or_si128(_mm_loadu_si128(text.as_ptr().add(i + 1).cast()), case);
            // Each pair as the sixteen-bit number `bit_of` hashes, eight at a time.
            let low = bits_16(_mm_unpacklo_epi8(first, second));
            let high = bits_16(_mm_unpackhi_epi8(first, second));
            let hashed = _mm_packus_epi16(low, high);
            (
                _mm_cvtsi128_si64(hashed) as u64,
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(hashed, hashed)) as u64,
            )
        };
        for word in [first_eight, last_eight] {
            for k in 0..8 {
                seen[usize::from((word >> (8 * k)) as u8)] = 1;
            }
        }
        i += 16;
    }
    i
}

#[cfg(not(target_arch = "x86_64"))]
fn sixteen_pairs_at_a_time(_: &[u8], _: &mut [u8; 256]) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_holds_the_pairs_of_any_part_of_it_in_any_case() {
        let text = b"ICE connection state is failed: no response to STUN binding requests";
        let all = Bigrams::of(text);
        for start in 0..text.len() {
            for end in start..=text.len() {
                let part = text[start..end].to_ascii_lowercase();
                assert!(all.holds(&Bigrams::of(&part)), "{:?}", &text[start..end]);
                assert!(all.holds(&Bigrams::of(&text[start..end].to_ascii_uppercase())));
            }
        }
        assert!(Bigrams::ALL.holds(&all));
        // Flags are no pairs: a text's pairs hold whatever flags either side has.
        let mut flagged = all;
        for k in 0..FLAGS {
            assert!(!all.flag(k) && !Bigrams::ALL.flag(k));
            flagged.set_flag(k, true);
            assert!(flagged.flag(k));
            assert!(all.holds(&flagged) && flagged.holds(&all));
        }
        flagged.set_flag(0, false);
        assert!(!flagged.flag(0) && flagged.flag(FLAGS - 1));
        let mut only_a_flag = Bigrams::default();
        only_a_flag.set_flag(FLAGS - 1, true);
        assert!(
            Bigrams::default().holds(&only_a_flag),
            "no pairs, only a flag"
        );
        assert!(!only_a_flag.holds(&all), "a flag is no pair");
        // One character has no pair: nothing is ruled out.
        assert_eq!(Bigrams::of(b"z"), Bigrams::default());
        // A pair is one bit, the same wherever it stands, and in either case.
        let one = Bigrams::of(b"ab");
        assert_eq!(one.0.iter().map(|w| w.count_ones()).sum::<u32>(), 1);
        for at in 0..20 {
            let text = format!("{}AB", " ".repeat(at));
            assert!(Bigrams::of(text.as_bytes()).holds(&one), "{at}");
        }
    }

    #[test]
    fn every_pair_sets_its_own_bit_however_long_the_text() {
        // Lengths around the sixteen pairs read at a time, every byte value, both cases.
        let bytes: Vec<u8> = (0..=255u8)
            .chain(b"Hello, ICE \xc3\xa9".iter().copied())
            .collect();
        for len in 0..80 {
            for start in [0, 3, 17, 200] {
                let text: Vec<u8> = bytes
                    .iter()
                    .cycle()
                    .skip(start)
                    .take(len)
                    .copied()
                    .collect();
                let mut expected = [0u64; 4];
                for pair in text.windows(2) {
                    let bit = pair_bit(pair[0], pair[1]);
                    expected[bit / 64] |= 1 << (bit % 64);
                }
                assert_eq!(
                    Bigrams::of(&text),
                    Bigrams(expected),
                    "{len} bytes from {start}"
                );
            }
        }
    }

    #[test]
    fn no_pair_sets_a_flag_read_one_at_a_time_or_sixteen() {
        let mut on_a_flag = 0;
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                on_a_flag += usize::from(bit_of(a, b) >= PAIR_BITS);
                // Alone (one pair), and over forty bytes (sixteen pairs at a time).
                let long: Vec<u8> = [a, b].iter().copied().cycle().take(40).collect();
                for text in [&[a, b][..], &long] {
                    let pairs = Bigrams::of(text);
                    assert!((0..FLAGS).all(|k| !pairs.flag(k)), "{a} {b}");
                    assert!(pairs.holds(&Bigrams::of(&[a, b])), "{a} {b}");
                }
            }
        }
        assert!(on_a_flag > 0, "some pairs hash to a flag's bit");
    }

    #[test]
    fn most_texts_that_are_not_there_are_ruled_out() {
        let description = Bigrams::of(
            b"sfu join failed: 500 Internal Server Error from sfu-prod-in2-11 (upstream connect timeout after 4014 ms)",
        );
        let absent = [
            "websocket",
            "jwt",
            "candidate",
            "ice failed",
            "no such text",
            "zzz",
        ];
        let ruled_out = absent
            .iter()
            .filter(|t| !description.holds(&Bigrams::of(t.as_bytes())))
            .count();
        assert!(ruled_out >= 5, "{ruled_out} of {}", absent.len());
    }
}
