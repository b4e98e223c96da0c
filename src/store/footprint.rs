//! What each of the store's structures holds in memory, for the accounting of its size per event
//! (see `scale.rs`).

/// Bytes a structure's buffers hold: those in use, and those allocated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::store) struct Bytes {
    pub used: usize,
    pub allocated: usize,
}

impl Bytes {
    /// A vector's items and its capacity.
    pub fn of<T>(v: &Vec<T>) -> Bytes {
        let size = std::mem::size_of::<T>();
        Bytes {
            used: v.len() * size,
            allocated: v.capacity() * size,
        }
    }

    /// A table whose every slot is written when it is made: all of it is in use.
    pub fn table<T>(v: &Vec<T>) -> Bytes {
        let allocated = v.capacity() * std::mem::size_of::<T>();
        Bytes {
            used: allocated,
            allocated,
        }
    }

    /// A hash set or map of `capacity` entries of `T` (one control byte each besides).
    pub fn hashed<T>(capacity: usize) -> Bytes {
        let allocated = capacity * (std::mem::size_of::<T>() + 1);
        Bytes {
            used: allocated,
            allocated,
        }
    }
}

impl std::ops::Add for Bytes {
    type Output = Bytes;
    fn add(self, other: Bytes) -> Bytes {
        Bytes {
            used: self.used + other.used,
            allocated: self.allocated + other.allocated,
        }
    }
}

impl std::iter::Sum for Bytes {
    fn sum<I: Iterator<Item = Bytes>>(iter: I) -> Bytes {
        iter.fold(Bytes::default(), |a, b| a + b)
    }
}

impl super::Store {
    /// Each structure of the store, by name, with the bytes it holds.
    pub(in crate::store) fn footprint(&self) -> Vec<(&'static str, Bytes)> {
        let numbers = self.numbers.lock().unwrap_or_else(|e| e.into_inner());
        let [text, ends, table] = self.strings.heap();
        let sets: Bytes = self.sets.heap().into_iter().sum();
        vec![
            ("rows", Bytes::of(&self.rows)),
            ("located", self.located.heap()),
            ("type and final of each row", self.briefs.heap()),
            ("ids", self.ids.heap()),
            (
                "peer index",
                Bytes::table(&self.peers.last.0) + Bytes::of(&self.peers.previous),
            ),
            ("track rows", self.tracks.heap()),
            ("strings: their text", text),
            ("strings: where each ends", ends),
            ("strings: their table", table),
            ("sets of others", sets),
            ("agents", self.agents.heap()),
            ("numbers index", numbers.heap()),
            ("blobs", Bytes::of(&self.blobs)),
        ]
    }
}
