//! The one source of randomness of the generator.
//!
//! Everything is derived from `ChaCha8Rng::next_u64` and `fill_bytes`, whose streams are fixed by the
//! ChaCha algorithm. rand's own range and distribution sampling is avoided on purpose: its algorithms may
//! change between releases, and the bundled demo must stay byte-identical.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone)]
pub(super) struct Dice(ChaCha8Rng);

/// The independent streams of one seed: each part of the dataset draws from its own, so that
/// adding to one part leaves the others' bytes as they were.
#[derive(Clone, Copy)]
pub(super) enum Stream {
    /// The error events: the population, the incidents, the noise and the lines' details.
    Events = 0,
    /// What happens around them: meetings, who got in and when, tracks, recordings.
    Related = 1,
    /// The values of the peer quality stats.
    Stats = 2,
}

impl Dice {
    pub(super) fn new(seed: u64) -> Self {
        Self::stream(seed, Stream::Events)
    }

    pub(super) fn stream(seed: u64, stream: Stream) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream as u64);
        Self(rng)
    }

    /// Uniform-enough in `0..n` (multiply-shift; the bias is below 2^-40 for the sizes used here).
    pub(super) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.0.next_u64()) * u128::from(n)) >> 64) as u64
    }

    pub(super) fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Inclusive on both ends, as the tables of plausible values are written that way.
    pub(super) fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    pub(super) fn weighted<'a, T>(&mut self, items: &'a [(T, u32)]) -> &'a T {
        &items[self.weighted_index(items, |(_, w)| *w)].0
    }

    pub(super) fn weighted_index<T>(&mut self, items: &[T], weight: impl Fn(&T) -> u32) -> usize {
        let total: u64 = items.iter().map(|item| u64::from(weight(item))).sum();
        let mut roll = self.below(total);
        for (i, item) in items.iter().enumerate() {
            let w = u64::from(weight(item));
            if roll < w {
                return i;
            }
            roll -= w;
        }
        items.len() - 1
    }

    pub(super) fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        self.0.fill_bytes(&mut b);
        b
    }

    pub(super) fn uuid(&mut self) -> [u8; 16] {
        *uuid::Builder::from_random_bytes(self.bytes())
            .as_uuid()
            .as_bytes()
    }
}
