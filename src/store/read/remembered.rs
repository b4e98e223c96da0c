//! Objects and arrays that repeat from event to event, read once per batch: an event's
//! `data.agent` (one per device and SDK build) and the objects and arrays nested in its `data`
//! (a peer's devices, its track settings). A later event holding the very same bytes in the same
//! place takes what was found in them the first time. Where they do not repeat (an agent with a
//! build number of its own, keys written in a new order per event), a batch soon stops looking
//! (see [`Memo::note`]).
//!
//! A value is looked up by its first [`PREFIX`] bytes, then compared whole. A JSON object or
//! array ends where its own bytes say, so text that starts with the bytes of a value read before
//! holds exactly that value there.

use std::hash::BuildHasher;
use std::ops::Range;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::store::{AgentId, Sym};

/// Values shorter than this are not remembered (they cost little to read), and longer ones are
/// looked up by this many first bytes.
pub const PREFIX: usize = 64;

/// At most this many values of a kind are remembered per batch; later ones are read each time.
const MAX: usize = 4096;

/// A memo is judged on the first this many values looked for (see [`Memo::note`]).
const TRIAL: u32 = 512;

/// Whether looking values up pays, judged on the first of them looked for: when fewer than one
/// in eight was found, values of this kind vary from event to event, and looking for them and
/// remembering them would only cost time (and fill the cache with what is never read again).
#[derive(Debug)]
pub struct Trial {
    /// How many values it is judged on.
    over: u32,
    /// Values looked for, and how many of them were found, until the trial is over.
    looked: u32,
    found: u32,
    off: bool,
}

impl Trial {
    pub const fn new(over: u32) -> Trial {
        Trial {
            over,
            looked: 0,
            found: 0,
            off: false,
        }
    }

    /// Notes whether a value looked for was found; at the end of the trial, turns itself off
    /// when fewer than one in eight was.
    pub fn note(&mut self, found: bool) {
        if self.looked >= self.over {
            return;
        }
        self.looked += 1;
        self.found += u32::from(found);
        if self.looked == self.over && self.found * 8 < self.over {
            self.off = true;
        }
    }

    /// Given up: values are no longer looked for nor remembered.
    pub fn is_off(&self) -> bool {
        self.off
    }

    /// Whether nothing was looked for yet.
    pub fn is_untried(&self) -> bool {
        self.looked == 0
    }

    /// Starts the trial again.
    pub fn clear(&mut self) {
        *self = Trial::new(self.over);
    }
}

/// Distinct values of one kind, each with what was found in it.
#[derive(Debug)]
pub struct Memo<T> {
    table: HashTable<u32>,
    list: Vec<(Box<[u8]>, T)>,
    trial: Trial,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            table: HashTable::new(),
            list: Vec::new(),
            trial: Trial::new(TRIAL),
        }
    }
}

fn hash(b: &[u8]) -> u64 {
    FxBuildHasher.hash_one(&b[..PREFIX])
}

impl<T> Memo<T> {
    /// Forgets every value and the trial, keeping the memory for the next ones.
    pub fn clear(&mut self) {
        self.table.clear();
        self.list.clear();
        self.trial.clear();
    }

    /// The value remembered that `rest` starts with: its number and length. `None` once the
    /// memo is off, even for a value remembered before.
    pub fn find(&self, rest: &[u8]) -> Option<(u32, usize)> {
        if self.trial.is_off() || self.list.is_empty() || rest.len() < PREFIX {
            return None;
        }
        let list = &self.list;
        self.table
            .find(hash(rest), |&k| rest.starts_with(&list[k as usize].0))
            .map(|&k| (k, list[k as usize].0.len()))
    }

    /// Remembers the value whose bytes are `bytes`, with what `found` finds in it (nothing is
    /// remembered when it finds `None`); its number, that of an equal value remembered before,
    /// or `None` (always, once the memo is off).
    pub fn insert(&mut self, bytes: &[u8], found: impl FnOnce() -> Option<T>) -> Option<u32> {
        if self.trial.is_off() || bytes.len() < PREFIX {
            return None;
        }
        let h = hash(bytes);
        let list = &self.list;
        if let Some(&k) = self.table.find(h, |&k| *list[k as usize].0 == *bytes) {
            return Some(k);
        }
        if self.list.len() >= MAX {
            return None;
        }
        let value = found()?;
        let k = self.list.len() as u32;
        self.list.push((Box::from(bytes), value));
        let list = &self.list;
        self.table
            .insert_unique(h, k, |&j| hash(&list[j as usize].0));
        Some(k)
    }

    /// Takes what an event's reading met where this memo's values are looked for: notes in the
    /// trial whether it was known, and remembers a value read in full, with what `found` finds
    /// in it (given where it stands in `raw`, the event's text), as [`Memo::insert`] does. The
    /// value's number either way, or `None` for a value read and not remembered.
    pub fn meet(
        &mut self,
        met: &Met,
        raw: &[u8],
        found: impl FnOnce(&Range<usize>) -> Option<T>,
    ) -> Option<u32> {
        match met {
            Met::Known(k) => {
                self.note(true);
                Some(*k)
            }
            Met::Read(span) => {
                self.note(false);
                self.insert(&raw[span.clone()], || found(span))
            }
        }
    }

    /// Notes whether a value looked for was found. A memo that finds fewer than one value in
    /// eight of the first [`TRIAL`] looked for turns itself off (see [`Trial`]): from then on
    /// it finds and remembers nothing, and each value is read in full.
    pub fn note(&mut self, found: bool) {
        self.trial.note(found);
    }

    /// Whether nothing is remembered and the trial is not begun.
    fn is_empty(&self) -> bool {
        self.list.is_empty() && self.trial.is_untried()
    }

    /// Whether the memo gave up (see [`Memo::note`]).
    #[cfg(test)]
    pub fn is_off(&self) -> bool {
        self.trial.is_off()
    }

    pub fn get(&self, k: u32) -> &T {
        &self.list[k as usize].1
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.list.len()
    }
}

/// What one distinct agent object gives a row, its symbols in the batch's interner.
#[derive(Debug, Clone)]
pub struct KnownAgent {
    /// Its fields, as the batch's agent.
    pub agent: AgentId,
    /// The agent's own `domain`: the row's when `data` has none.
    pub domain: Sym,
    /// Its other string values (the framework, its version...), for the text search.
    pub others: Vec<Sym>,
}

/// The values a batch remembers: with each agent object, what it gives (a row's symbols, by
/// default), and with each other object or array of `data`, what is kept of it (its strings'
/// symbols, for the text search, by default).
#[derive(Debug)]
pub struct Remembered<A = KnownAgent, V = Vec<Sym>> {
    pub agents: Memo<A>,
    /// Objects and arrays under a key of `data` that no row field holds.
    pub values: Memo<V>,
}

impl<A, V> Default for Remembered<A, V> {
    fn default() -> Self {
        Remembered {
            agents: Memo::default(),
            values: Memo::default(),
        }
    }
}

impl<A, V> Remembered<A, V> {
    /// Whether no value is remembered and no trial begun.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty() && self.values.is_empty()
    }

    /// Forgets every value (they name the strings of a batch), keeping the memory.
    pub fn clear(&mut self) {
        self.agents.clear();
        self.values.clear();
    }
}

/// A value the plain reader met where remembered values are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Met {
    /// The same bytes as remembered value number `.0`: skipped.
    Known(u32),
    /// Read in full; the value is `text[range]`.
    Read(Range<usize>),
}

/// The values an event's plain reading met, in order.
#[derive(Debug, Default)]
pub struct Seen {
    pub agent: Option<Met>,
    pub values: Vec<Met>,
}

impl Seen {
    pub fn clear(&mut self) {
        self.agent = None;
        self.values.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(tail: &str) -> String {
        format!(
            r#"{{"sdk":"web","sdk_version":"0.11.7","device_model":"Edge 130","os":"macOS"{tail}}}"#
        )
    }

    #[test]
    fn a_value_is_found_by_its_exact_bytes_at_the_start_of_what_follows() {
        let mut memo = Memo::<u32>::default();
        let a = object("");
        assert_eq!(memo.find(a.as_bytes()), None);
        assert_eq!(memo.insert(a.as_bytes(), || Some(1)), Some(0));
        let rest = format!(r#"{a},"domain":"d"}}}}"#);
        assert_eq!(memo.find(rest.as_bytes()), Some((0, a.len())));
        assert_eq!(*memo.get(0), 1);
        // Other bytes after the same first ones, or too few: not the same value.
        assert_eq!(memo.find(object(r#","os_version":"15""#).as_bytes()), None);
        assert_eq!(memo.find(&a.as_bytes()[..a.len() - 1]), None);
        // The same bytes again keep their first number; others sharing the prefix get theirs.
        assert_eq!(memo.insert(a.as_bytes(), || Some(2)), Some(0));
        let b = object(r#","os_version":"15""#);
        assert_eq!(memo.insert(b.as_bytes(), || Some(3)), Some(1));
        assert_eq!(memo.find(format!("{b}]").as_bytes()), Some((1, b.len())));
        assert_eq!(memo.find(format!("{a}]").as_bytes()), Some((0, a.len())));
    }

    #[test]
    fn short_values_and_values_found_wanting_are_not_remembered() {
        let mut memo = Memo::<u32>::default();
        assert_eq!(memo.insert(br#"{"s":"ok"}"#, || Some(1)), None);
        let a = object("");
        assert_eq!(memo.insert(a.as_bytes(), || None), None);
        assert_eq!(memo.find(a.as_bytes()), None);
    }

    #[test]
    fn a_memo_that_finds_too_little_in_its_trial_stops_looking_and_remembering() {
        let a = object("");
        let b = object(r#","os_version":"15""#);
        // One value in eight found: kept.
        let mut kept = Memo::<u32>::default();
        kept.insert(a.as_bytes(), || Some(1));
        for n in 0..TRIAL {
            kept.note(n % 8 == 0);
        }
        assert_eq!(kept.find(a.as_bytes()), Some((0, a.len())));
        assert_eq!(kept.insert(b.as_bytes(), || Some(2)), Some(1));
        // One fewer: given up, and for good, however many are found later.
        let mut given_up = Memo::<u32>::default();
        given_up.insert(a.as_bytes(), || Some(1));
        for n in 0..TRIAL {
            given_up.note(n % 8 == 0 && n > 0);
        }
        for _ in 0..TRIAL {
            given_up.note(true);
        }
        assert_eq!(given_up.find(a.as_bytes()), None);
        assert_eq!(given_up.insert(b.as_bytes(), || Some(2)), None);
        assert_eq!(given_up.len(), 1);
    }

    #[test]
    fn what_a_reading_met_is_noted_and_a_value_read_in_full_remembered_from_where_it_stands() {
        let a = object("");
        let event = format!(r#"{{"agent":{a}}}"#);
        let span = 9..9 + a.len();
        let mut memo = Memo::<u32>::default();
        // Read in full: `found` is given where it stands, and it is remembered by its bytes.
        let found = |at: &Range<usize>| (*at == span).then_some(7);
        assert_eq!(
            memo.meet(&Met::Read(span.clone()), event.as_bytes(), found),
            Some(0)
        );
        assert_eq!(memo.find(&event.as_bytes()[9..]), Some((0, a.len())));
        assert_eq!(*memo.get(0), 7);
        // Known: its number, nothing read.
        assert_eq!(
            memo.meet(&Met::Known(0), event.as_bytes(), |_| Some(8)),
            Some(0)
        );
        assert_eq!(memo.len(), 1);
        // Read, and found wanting: not remembered.
        let b = object(r#","os_version":"15""#);
        assert_eq!(
            memo.meet(&Met::Read(0..b.len()), b.as_bytes(), |_| None),
            None
        );
        assert_eq!(memo.find(b.as_bytes()), None);
        // Each is noted in the trial: one found in three, so far.
        for n in 3..TRIAL {
            memo.note(n % 8 == 0);
        }
        assert!(
            !memo.is_off(),
            "one found in eight or more keeps the memo on"
        );
        let mut wanting = Memo::<u32>::default();
        for _ in 0..TRIAL {
            wanting.meet(&Met::Read(0..b.len()), b.as_bytes(), |_| None);
        }
        assert!(
            wanting.is_off(),
            "every value read in full: the memo gives up"
        );
    }

    #[test]
    fn a_trial_given_up_starts_again_when_cleared() {
        let mut trial = Trial::new(16);
        for n in 0..16 {
            assert!(!trial.is_off());
            trial.note(n == 0);
        }
        assert!(trial.is_off());
        trial.clear();
        assert!(!trial.is_off());
        for n in 0..16 {
            trial.note(n % 8 == 0);
        }
        assert!(!trial.is_off());
    }

    #[test]
    fn no_more_than_the_limit_are_remembered() {
        let mut memo = Memo::<u32>::default();
        for n in 0..MAX {
            let bytes = object(&format!(r#","n":{n}"#));
            assert_eq!(memo.insert(bytes.as_bytes(), || Some(1)), Some(n as u32));
        }
        let over = object(r#","n":"over""#);
        assert_eq!(memo.insert(over.as_bytes(), || Some(1)), None);
        let known = object(r#","n":17"#);
        assert_eq!(memo.insert(known.as_bytes(), || Some(1)), Some(17));
        assert_eq!(memo.find(known.as_bytes()), Some((17, known.len())));
    }
}
