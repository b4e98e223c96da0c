//! Where each event's JSON is, for the reading of their numbers ahead of a search on a thread of
//! its own (see [`super::NumberWork`]): five bytes an event (its length, and the bytes between it
//! and the event before, which are few in a dump read in order) where its blob, start and length
//! took twelve, 57 MiB at five million events held beside the store while they are read.

/// Every this many events the start of one is kept whole, so that the place of any event is found
/// by walking from one kept whole at most this many events.
const WHOLE_EVERY: usize = 4096;

/// A gap that says the event's start is kept whole.
const FAR: u8 = u8::MAX;

/// The places of a run of events, in order.
#[derive(Debug, Default)]
pub(in crate::store) struct Places {
    /// Each event's length.
    lens: Vec<u32>,
    /// For each event, the bytes between the end of the event before and its start, or [`FAR`]
    /// when its blob and start are in `whole`.
    gaps: Vec<u8>,
    /// The events whose blob and start are kept whole, ascending: the first, the first of each
    /// blob, every [`WHOLE_EVERY`]th, and those far from the event before (or before it).
    whole: Vec<(usize, u32, u64)>,
    /// The blob of the last event and where it ends.
    end: Option<(u32, u64)>,
}

/// One event's place: its blob, where its JSON starts in it and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::store) struct Place {
    pub blob: u32,
    pub start: u64,
    pub len: u32,
}

impl Places {
    pub fn with_capacity(n: usize) -> Places {
        Places {
            lens: Vec::with_capacity(n),
            gaps: Vec::with_capacity(n),
            ..Places::default()
        }
    }

    pub fn len(&self) -> usize {
        self.lens.len()
    }

    /// Adds the next event's place.
    pub fn push(&mut self, place: Place) {
        let k = self.lens.len();
        let gap = self
            .end
            .filter(|&(blob, _)| blob == place.blob && !k.is_multiple_of(WHOLE_EVERY))
            .and_then(|(_, end)| place.start.checked_sub(end))
            .filter(|&gap| gap < u64::from(FAR));
        match gap {
            Some(gap) => self.gaps.push(gap as u8),
            None => {
                self.gaps.push(FAR);
                self.whole.push((k, place.blob, place.start));
            }
        }
        self.lens.push(place.len);
        self.end = Some((place.blob, place.start + u64::from(place.len)));
    }

    /// The places of the events from the `from`th on, in order.
    pub fn from(&self, from: usize) -> impl Iterator<Item = Place> + '_ {
        // The last event at or before `from` whose place is kept whole (the first one is).
        let w = self
            .whole
            .partition_point(|&(k, _, _)| k <= from)
            .saturating_sub(1);
        let first = self.whole.get(w).map_or(0, |&(k, _, _)| k);
        let mut whole = self.whole[w.min(self.whole.len())..].iter();
        let mut end = (0u32, 0u64);
        (first..self.lens.len())
            .map(move |k| {
                let len = self.lens[k];
                let (blob, start) = match self.gaps[k] {
                    FAR => {
                        let &(_, blob, start) = whole.next().expect("a place kept whole");
                        (blob, start)
                    }
                    gap => (end.0, end.1 + u64::from(gap)),
                };
                end = (blob, start + u64::from(len));
                Place { blob, start, len }
            })
            .skip(from - first)
    }
}

#[cfg(test)]
impl Places {
    /// The bytes it holds.
    pub fn heap(&self) -> crate::store::footprint::Bytes {
        use crate::store::footprint::Bytes;
        Bytes::of(&self.lens) + Bytes::of(&self.gaps) + Bytes::of(&self.whole)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(places: &[Place]) -> Places {
        let mut kept = Places::with_capacity(places.len());
        for &p in places {
            kept.push(p);
        }
        kept
    }

    /// Every start read back from every event on.
    fn assert_read_back(places: &[Place]) {
        let kept = kept(places);
        assert_eq!(kept.len(), places.len());
        for from in 0..=places.len() {
            let read: Vec<Place> = kept.from(from).collect();
            assert_eq!(read, places[from..], "from {from}");
        }
    }

    #[test]
    fn every_place_reads_back_from_any_event_on() {
        // Gaps of every size about the one a byte holds, blobs that change and come back, starts
        // past 4 GiB, events of length 0 and longer than a gap, and a start before the end of
        // the event before.
        let mut places = Vec::new();
        let mut start = 0u64;
        for (i, gap) in [0u64, 1, 2, 253, 254, 255, 256, 1000, 1 << 33, 0, 1]
            .into_iter()
            .cycle()
            .take(600)
            .enumerate()
        {
            let blob = (i / 97 % 3) as u32;
            let len = (i as u32 * 37) % 700;
            start += gap;
            places.push(Place { blob, start, len });
            start += u64::from(len);
            if i % 50 == 49 {
                start = start.saturating_sub(900);
            }
        }
        assert_read_back(&places);
    }

    #[test]
    fn events_past_many_kept_whole_read_back() {
        let places: Vec<Place> = (0..3 * WHOLE_EVERY as u64 + 5)
            .map(|i| Place {
                blob: 0,
                start: i * 101,
                len: 100,
            })
            .collect();
        let kept = kept(&places);
        assert_eq!(kept.whole.len(), 4, "one kept whole every {WHOLE_EVERY}");
        for from in [
            0,
            1,
            WHOLE_EVERY - 1,
            WHOLE_EVERY,
            WHOLE_EVERY + 1,
            places.len() - 1,
        ] {
            assert_eq!(kept.from(from).collect::<Vec<_>>(), places[from..]);
        }
        assert_eq!(kept.from(places.len()).count(), 0);
    }

    #[test]
    fn no_places_read_back_as_none() {
        assert_read_back(&[]);
        let places = [Place {
            blob: 7,
            start: u64::MAX - 10,
            len: 10,
        }];
        assert_read_back(&places);
    }
}
