//! Which pairs of adjacent characters a text holds, folded into 256 bits. A search text can only
//! be in a description that holds each of its pairs, so a search rules out most descriptions by
//! their row, without reading them from the dump.

/// The pairs of adjacent bytes of a text, each folded to one of 256 bits. Letters are folded
/// with their other case (every byte is read with its 0x20 bit set), so the pairs of a text's
/// ASCII lowercase are among its own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bigrams([u64; 4]);

impl Bigrams {
    /// Holds every pair: rules nothing out.
    pub const ALL: Bigrams = Bigrams([u64::MAX; 4]);

    pub fn of(text: &[u8]) -> Bigrams {
        // One byte per bit, each only ever set: no pair waits for the one before it.
        let mut seen = [0u8; 256];
        for pair in text.windows(2) {
            let pair = u32::from(u16::from_le_bytes([pair[0], pair[1]]) | 0x2020);
            // The top eight bits of a multiplicative hash of the two bytes, case folded.
            seen[(pair.wrapping_mul(0x9E37_79B1) >> 24) as usize] = 1;
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

    /// Whether every pair of `other` is among these.
    pub fn holds(&self, other: &Bigrams) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & b == *b)
    }
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
