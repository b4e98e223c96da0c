//! Finds an ASCII text in bytes, the case of ASCII letters ignored, without lowercasing the bytes:
//! two of the text's bytes, chosen to be rare, are compared with sixteen places of the bytes at a
//! time, or thirty-two where the processor has AVX2 (a letter with its 0x20 bit set, as both its
//! cases have it), and only where both match is the whole text compared. This is the packed
//! pair prefilter of `memchr::memmem`, made blind to case.

use memchr::arch::all::packedpair::Pair;

/// An ASCII text to find, any case.
#[derive(Debug, Clone)]
// Elsewhere than on x86_64 none is made (see `Caseless::new`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub struct Caseless {
    /// The text, lowercased.
    lower: Box<[u8]>,
    /// Where the two bytes compared first stand in the text.
    at: [usize; 2],
    /// Those bytes, lowercased.
    bytes: [u8; 2],
    /// 0x20 for a letter (a byte of the haystack is compared with that bit set), else 0.
    fold: [u8; 2],
}

impl Caseless {
    /// A finder of `text`; `None` unless it is ASCII and at least two bytes long, and on
    /// processors other than x86_64 (where the caller's finder, `memchr`'s, is vectorised and
    /// this one would not be).
    pub fn new(text: &str) -> Option<Caseless> {
        if !text.is_ascii() || !cfg!(target_arch = "x86_64") {
            return None;
        }
        let lower: Box<[u8]> = text.bytes().map(|b| b.to_ascii_lowercase()).collect();
        let pair = Pair::new(&lower)?;
        let at = [usize::from(pair.index1()), usize::from(pair.index2())];
        let bytes = at.map(|i| lower[i]);
        let fold = bytes.map(|b| if b.is_ascii_lowercase() { 0x20 } else { 0 });
        Some(Caseless {
            lower,
            at,
            bytes,
            fold,
        })
    }

    /// Whether `hay` holds the text, in any case of its ASCII letters.
    pub fn is_in(&self, hay: &[u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, just checked.
            return unsafe { self.is_in_avx2(hay) };
        }
        self.is_in_from(hay, 0)
    }

    /// [`Caseless::is_in`], thirty-two places at a time, then as [`Caseless::is_in_from`].
    ///
    /// # Safety
    ///
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn is_in_avx2(&self, hay: &[u8]) -> bool {
        use std::arch::x86_64::{
            _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
            _mm256_or_si256, _mm256_set1_epi8,
        };
        let Some(last) = hay.len().checked_sub(self.lower.len()) else {
            return false;
        };
        let [a, b] = self.at;
        let fold = self.fold.map(|f| _mm256_set1_epi8(f as i8));
        let bytes = self.bytes.map(|b| _mm256_set1_epi8(b as i8));
        let mut start = 0;
        // The bytes loaded, `start + a..start + a + 32` and the same from `start + b`, end
        // within `hay`: `a` and `b` are places in the text, which ends by `last + len`.
        while start + 32 <= last + 1 {
            debug_assert!(start + a.max(b) + 32 <= hay.len());
            // SAFETY: the loads are within `hay` (above; an unaligned load has no other
            // requirement), and the caller vouches for AVX2.
            let places = unsafe {
                let x = _mm256_loadu_si256(hay.as_ptr().add(start + a).cast());
                let y = _mm256_loadu_si256(hay.as_ptr().add(start + b).cast());
                let x = _mm256_cmpeq_epi8(_mm256_or_si256(x, fold[0]), bytes[0]);
                let y = _mm256_cmpeq_epi8(_mm256_or_si256(y, fold[1]), bytes[1]);
                _mm256_movemask_epi8(_mm256_and_si256(x, y)) as u32
            };
            if self.is_at_any(hay, start, places) {
                return true;
            }
            start += 32;
        }
        self.is_in_from(hay, start)
    }

    /// Whether the text starts at `start` or after in `hay`: sixteen places at a time, then one.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    fn is_in_from(&self, hay: &[u8], mut start: usize) -> bool {
        let Some(last) = hay.len().checked_sub(self.lower.len()) else {
            return false;
        };
        #[cfg(target_arch = "x86_64")]
        while start + 16 <= last + 1 {
            if self.is_at_any(hay, start, self.candidates_16(hay, start)) {
                return true;
            }
            start += 16;
        }
        (start..=last).any(|at| self.is_at(hay, at))
    }

    /// Whether the text stands at `start + k` in `hay` for a bit `k` set in `places`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn is_at_any(&self, hay: &[u8], start: usize, mut places: u32) -> bool {
        while places != 0 {
            if self.is_at(hay, start + places.trailing_zeros() as usize) {
                return true;
            }
            places &= places - 1;
        }
        false
    }

    /// Whether the text stands at `at` in `hay` (which holds its length from there).
    fn is_at(&self, hay: &[u8], at: usize) -> bool {
        hay[at..at + self.lower.len()]
            .iter()
            .zip(&self.lower)
            .all(|(h, n)| h.to_ascii_lowercase() == *n)
    }

    /// A bit for each of the sixteen places from `start` where both bytes of the pair match:
    /// `hay` must hold sixteen bytes from `start` plus each byte's place in the text.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn candidates_16(&self, hay: &[u8], start: usize) -> u32 {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        let [a, b] = self.at;
        assert!(start + 16 + a.max(b) <= hay.len());
        // SAFETY: SSE2 is part of every x86_64 processor, and the bytes loaded,
        // `start + a..start + a + 16` and the same from `start + b`, are within `hay` (checked
        // above; an unaligned load has no other requirement).
        unsafe {
            let match_at = |i: usize, k: usize| {
                let x = _mm_loadu_si128(hay.as_ptr().add(start + i).cast());
                let folded = _mm_or_si128(x, _mm_set1_epi8(self.fold[k] as i8));
                _mm_cmpeq_epi8(folded, _mm_set1_epi8(self.bytes[k] as i8))
            };
            _mm_movemask_epi8(_mm_and_si128(match_at(a, 0), match_at(b, 1))) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the finder must answer: the plain definition.
    fn plainly(hay: &[u8], text: &str) -> bool {
        let lower = text.to_ascii_lowercase();
        hay.windows(lower.len())
            .any(|w| w.to_ascii_lowercase() == lower.as_bytes())
    }

    /// The finder's answer, which the way of a processor without AVX2 must give too.
    fn found(finder: &Caseless, hay: &[u8]) -> bool {
        let answer = finder.is_in(hay);
        assert_eq!(
            finder.is_in_from(hay, 0),
            answer,
            "without AVX2, in {hay:?}"
        );
        answer
    }

    #[test]
    fn finds_the_text_in_any_case_at_every_place_and_nowhere_else() {
        let texts = [
            "sfu-prod-in2-07",
            "Timeout",
            "ab",
            "a-",
            "07",
            "ZZ",
            "x@`{[",
        ];
        // Fillers that differ from letters by the 0x20 bit only, and bytes past ASCII.
        let fillers = b"aAzZ@`[{-07 \xC4\xE2\"\\";
        for text in texts {
            let finder = Caseless::new(text).unwrap();
            for len in 0..60 {
                for k in 0..fillers.len() {
                    let hay: Vec<u8> = (0..len)
                        .map(|j| fillers[(j * 7 + k * 3) % fillers.len()])
                        .collect();
                    assert_eq!(
                        found(&finder, &hay),
                        plainly(&hay, text),
                        "{text} in {hay:?}"
                    );
                    // The text placed in a few of them, everywhere.
                    if k > 2 {
                        continue;
                    }
                    for at in 0..=len.saturating_sub(text.len()) {
                        if at + text.len() > len {
                            break;
                        }
                        for case in [text.to_uppercase(), text.to_lowercase(), text.to_string()] {
                            let mut with = hay.clone();
                            with[at..at + text.len()].copy_from_slice(case.as_bytes());
                            assert!(found(&finder, &with), "{case} at {at} of {with:?}");
                            // One byte changed (its 0x20 bit is no case for a non-letter).
                            for i in 0..text.len() {
                                let mut off = with.clone();
                                off[at + i] ^= 0x20;
                                assert_eq!(
                                    found(&finder, &off),
                                    plainly(&off, text),
                                    "{text} in {off:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn long_texts_are_found_in_long_haystacks_as_plainly() {
        // Haystacks of many thirty-two-byte steps, texts longer than a step, the text planted
        // in a random case at random places, and bytes of the text's own in the filler.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut answers = [0; 2];
        for text in [
            "Upstream connect timeout after 4014 ms",
            "aa",
            "a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a",
            &"x0".repeat(150),
        ] {
            let finder = Caseless::new(text).unwrap();
            let alphabet: Vec<u8> = text.bytes().chain(*b"-0aAzZ@` ").collect();
            for _ in 0..400 {
                let len = next(400);
                let mut hay: Vec<u8> = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
                if len >= text.len() && next(2) == 0 {
                    let at = next(len - text.len() + 1);
                    for (k, b) in text.bytes().enumerate() {
                        hay[at + k] = if next(2) == 0 {
                            b.to_ascii_uppercase()
                        } else {
                            b
                        };
                    }
                    if next(2) == 0 {
                        hay[at + next(text.len())] ^= 0x01;
                    }
                }
                let answer = plainly(&hay, text);
                assert_eq!(found(&finder, &hay), answer, "{text} in {hay:?}");
                answers[usize::from(answer)] += 1;
            }
        }
        // Both answers, often.
        assert!(answers.iter().all(|&n| n > 300), "{answers:?}");
    }

    #[test]
    fn a_text_of_one_byte_or_beyond_ascii_has_no_finder() {
        assert!(Caseless::new("a").is_none());
        assert!(Caseless::new("").is_none());
        assert!(Caseless::new("café").is_none());
    }
}
