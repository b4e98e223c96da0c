//! The numbers of each event as written (`4006`, `-1`, `2.5e3`), for the text search: a search
//! for `4006` finds the events whose `error_code` is 4006, as it finds a string holding it.
//!
//! The rows hold the error code, but an event may hold any number anywhere (`retries_join`, a
//! video's width), so the numbers are read off each event's JSON. That is a walk of the whole
//! dump, done once, the first time a search text could be part of a number, and then only for
//! the events added since: each event keeps the number of its set of number texts, and the
//! texts repeat (codes, counts), so a search looks at each distinct text once.

use rayon::prelude::*;

use crate::store::{Interner, Store, Sym, SymSets};

/// Below this many events the numbers are read on one thread.
const PARALLEL_FROM: usize = 20_000;

/// Calls `f` with the text of each number of the valid JSON document `raw`, as written: a run
/// of `-+.eE` and digits that starts with `-` or a digit outside a string.
pub fn for_each_number(raw: &[u8], mut f: impl FnMut(&[u8])) {
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'"' => {
                i = after_string(raw, i);
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < raw.len() && is_number_byte(raw[i]) {
                    i += 1;
                }
                f(&raw[start..i]);
            }
            _ => i += 1,
        }
    }
}

/// Where the JSON string whose opening quote is at `start` ends: after its closing quote (the
/// end of `raw` when there is none). Most strings of an event are keys and short values, which
/// this passes sixteen bytes at a time: reading every event's numbers ahead is mostly this.
#[inline]
fn after_string(raw: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    loop {
        match quote_or_backslash(raw, i) {
            // An escape: the byte after the backslash is not the string's end.
            Some(at) if raw[at] == b'\\' => i = at + 2,
            Some(at) => return at + 1,
            None => return raw.len(),
        }
    }
}

/// The first quote or backslash of `raw` from `from` on.
#[cfg(target_arch = "x86_64")]
#[inline]
fn quote_or_backslash(raw: &[u8], from: usize) -> Option<usize> {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut i = from;
    while i + 16 <= raw.len() {
        // SAFETY: SSE2 is part of every x86_64 processor; the load reads `i..i + 16`, within
        // `raw` (an unaligned load has no other requirement).
        let found = unsafe {
            let bytes = _mm_loadu_si128(raw.as_ptr().add(i).cast());
            let quotes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8));
            let backslashes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
            _mm_movemask_epi8(_mm_or_si128(quotes, backslashes)) as u32
        };
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize);
        }
        i += 16;
    }
    let i = i.min(raw.len());
    raw[i..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\')
        .map(|k| i + k)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn quote_or_backslash(raw: &[u8], from: usize) -> Option<usize> {
    let from = from.min(raw.len());
    memchr::memchr2(b'"', b'\\', &raw[from..]).map(|k| from + k)
}

/// A byte a JSON number may hold.
pub fn is_number_byte(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// The number texts of the first `rows` events of a store, and the set of them each holds.
#[derive(Debug, Default)]
pub struct NumberIndex {
    texts: Interner,
    sets: SymSets,
    /// For each event indexed, the number of its set in `sets` (0: it holds no number).
    of_row: Vec<u32>,
}

/// What one slice of the events holds, read on a thread of its own: its own texts and sets,
/// renumbered when they join the index.
#[derive(Default)]
struct Part {
    texts: Interner,
    sets: SymSets,
    of_row: Vec<u32>,
}

impl Part {
    /// The numbers of the events whose JSON `raws` gives, in order.
    fn read<'a>(raws: impl Iterator<Item = &'a [u8]>) -> Part {
        let mut part = Part::default();
        let mut set = Vec::new();
        for raw in raws {
            set.clear();
            for_each_number(raw, |text| {
                // Every byte of a number is ASCII.
                if let Ok(text) = std::str::from_utf8(text) {
                    set.push(part.texts.intern(text));
                }
            });
            set.sort_unstable();
            set.dedup();
            part.of_row.push(part.sets.intern(&set));
        }
        part
    }
}

/// What reading the numbers of a store's events takes, apart from the store: its bytes and
/// where each event is in them, so that they can be read on a thread of their own while the
/// store goes on being used (see [`Store::number_work`]), into the store's own index.
#[derive(Debug)]
pub struct NumberWork {
    /// The store's index, which a search extends too.
    pub(in crate::store) index: std::sync::Arc<std::sync::Mutex<NumberIndex>>,
    pub(in crate::store) blobs: Vec<std::sync::Arc<crate::store::Blob>>,
    /// The first event to read: those before were read when the work was made.
    pub(in crate::store) from: usize,
    /// Where each event's JSON is, from event `from` on.
    pub(in crate::store) places: super::Places,
}

/// How many events the reading ahead reads between two looks at the store's index.
const AHEAD_STEP: usize = 65_536;

/// The fewest events a slice of a step is read on a thread of its own for.
const LEAST_SLICE: usize = 4_096;

impl NumberWork {
    /// Reads the numbers of the events it was made for that the store's index does not cover
    /// yet into it. It is meant for a thread of its own at a low priority, and leaves the pool
    /// to the work a key asks for: each step is cut into slices, one for this thread and one
    /// for each of threads it starts, as many as the pool has, which take its priority. The
    /// index is held only to take each step in: a search that needs it meanwhile takes it,
    /// reads what is left itself, and this stops. It says whether to go on with the store's
    /// next events: not when the store is gone, nor when a slice's thread failed (a search then
    /// reads what is left itself).
    pub fn read(self) -> bool {
        let threads = rayon::current_num_threads();
        self.read_on(threads, || {})
    }

    /// [`NumberWork::read`] on `threads` threads; `step_read` is called once each step is read,
    /// before it is taken into the index.
    fn read_on(self, threads: usize, step_read: impl Fn()) -> bool {
        let raw = |place: super::Place| {
            let start = place.start as usize;
            &self.blobs[place.blob as usize][start..start + place.len as usize]
        };
        let to = self.from + self.places.len();
        let lock = || self.index.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let from = lock().len();
            if std::sync::Arc::strong_count(&self.index) == 1 {
                return false;
            }
            if from < self.from || from >= to {
                return true;
            }
            let step = AHEAD_STEP.min(to - from);
            let each = step.div_ceil(threads.max(1)).max(LEAST_SLICE);
            let parts: Option<Vec<Part>> = std::thread::scope(|scope| {
                let slice = |at: usize| {
                    let places = self.places.from(from - self.from + at);
                    let places = places.take(each.min(step - at));
                    move || Part::read(places.map(raw))
                };
                // Every slice but the first on a thread of its own; the first on this one, and
                // any whose thread could not be started.
                let others: Vec<_> = (each..step)
                    .step_by(each)
                    .map(|at| {
                        std::thread::Builder::new()
                            .name("numbers".to_string())
                            .spawn_scoped(scope, slice(at))
                            .map_err(|_| at)
                    })
                    .collect();
                let first = slice(0)();
                // Every thread joined before any is judged: one that failed fails the step.
                let others: Vec<Option<Part>> = others
                    .into_iter()
                    .map(|other| match other {
                        Ok(thread) => thread.join().ok(),
                        Err(at) => Some(slice(at)()),
                    })
                    .collect();
                std::iter::once(Some(first)).chain(others).collect()
            });
            let Some(parts) = parts else {
                return false;
            };
            step_read();
            let mut index = lock();
            if index.len() != from {
                // A search read them meanwhile.
                return true;
            }
            index.join(parts);
        }
    }
}

#[cfg(test)]
impl NumberIndex {
    /// The bytes it holds.
    pub(in crate::store) fn heap(&self) -> crate::store::footprint::Bytes {
        let [a, b, c] = self.texts.heap();
        let [d, e, f] = self.sets.heap();
        a + b + c + d + e + f + crate::store::footprint::Bytes::of(&self.of_row)
    }
}

impl NumberIndex {
    /// Reads the numbers of the events the index does not cover yet.
    /// From [`PARALLEL_FROM`] events on, they are read on every thread of the pool.
    pub fn extend(&mut self, store: &Store) {
        let from = self.of_row.len();
        let to = store.len();
        let len = to.saturating_sub(from);
        if len == 0 {
            return;
        }
        let parts = if len >= PARALLEL_FROM {
            rayon::current_num_threads()
        } else {
            1
        };
        let step = len.div_ceil(parts);
        let read: Vec<Part> = (from..to)
            .step_by(step)
            .map(|start| start..(start + step).min(to))
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|r| Part::read(r.map(|i| store.raw(i))))
            .collect();
        self.join(read);
    }

    /// How many events the index covers: the first ones of its store.
    pub fn len(&self) -> usize {
        self.of_row.len()
    }

    /// Takes in the parts read of the events after those it covers, in order.
    fn join(&mut self, read: Vec<Part>) {
        self.of_row
            .reserve(read.iter().map(|p| p.of_row.len()).sum());
        let mut set = Vec::new();
        for part in read {
            let remap = self.texts.intern_all(&part.texts);
            let sets: Vec<u32> = part
                .sets
                .sets_from(0)
                .map(|s| {
                    set.clear();
                    set.extend(s.iter().map(|sym| remap[sym.0 as usize]));
                    set.sort_unstable();
                    set.dedup();
                    self.sets.intern(&set)
                })
                .collect();
            self.of_row
                .extend(part.of_row.iter().map(|&n| sets[n as usize]));
        }
    }

    /// For each indexed event, whether one of its numbers' texts passes `holds`, as bits (event
    /// `i` is bit `i % 64` of word `i / 64`).
    pub fn rows_where(&self, holds: impl Fn(&str) -> bool) -> Vec<u64> {
        let texts: Vec<bool> = std::iter::once(false)
            .chain(self.texts.strings_from(1).map(&holds))
            .collect();
        let sets: Vec<bool> = self
            .sets
            .sets_from(0)
            .map(|s| s.iter().any(|sym: &Sym| texts[sym.0 as usize]))
            .collect();
        let mut bits = vec![0u64; self.of_row.len().div_ceil(64)];
        // A word of bits for each 64 events, in parts of whole words on the pool's threads.
        let words = bits.len().div_ceil(rayon::current_num_threads()).max(1);
        bits.par_chunks_mut(words)
            .zip(self.of_row.par_chunks(words * 64))
            .for_each(|(bits, rows)| {
                for (word, rows) in bits.iter_mut().zip(rows.chunks(64)) {
                    for (b, &n) in rows.iter().enumerate() {
                        *word |= u64::from(sets[n as usize]) << b;
                    }
                }
            });
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(json: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_number(json.as_bytes(), |n| {
            out.push(String::from_utf8(n.to_vec()).unwrap())
        });
        out
    }

    #[test]
    fn numbers_are_read_as_written_and_never_inside_strings() {
        assert_eq!(
            numbers(
                r#"{"a":4006,"b":"x:12 \"3\"","c":[-1,2.5e3,0],"d":{"e":1E+2},"t":true,"n":null}"#
            ),
            ["4006", "-1", "2.5e3", "0", "1E+2"]
        );
        assert_eq!(numbers(r#"{"k\"1":2}"#), ["2"]);
    }

    /// The numbers of `raw` read a byte at a time, strings skipped a byte at a time.
    fn numbers_a_byte_at_a_time(raw: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < raw.len() {
            match raw[i] {
                b'"' => {
                    i += 1;
                    while i < raw.len() && raw[i] != b'"' {
                        i += if raw[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < raw.len() && is_number_byte(raw[i]) {
                        i += 1;
                    }
                    out.push(raw[start..i].to_vec());
                }
                _ => i += 1,
            }
        }
        out
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        // Strings of quotes, backslashes, digits, signs and letters of other scripts, as long as
        // a key or far past sixteen bytes.
        let text = proptest::collection::vec(
            prop_oneof![
                Just("\"".to_string()),
                Just("\\".to_string()),
                Just("\\\"".to_string()),
                Just("-1".to_string()),
                Just("4006".to_string()),
                Just("é".to_string()),
                Just(" ".to_string()),
                "[a-z0-9]{1,20}",
            ],
            0..12,
        )
        .prop_map(|parts| parts.concat());
        let leaf = prop_oneof![
            text.clone().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(serde_json::Value::from),
            any::<bool>().prop_map(serde_json::Value::from),
            Just(serde_json::Value::Null),
        ];
        leaf.prop_recursive(3, 40, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
                proptest::collection::vec((text.clone(), inner), 0..6).prop_map(|members| {
                    serde_json::Value::Object(members.into_iter().collect())
                }),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn strings_passed_sixteen_bytes_at_a_time_leave_the_numbers_read_a_byte_at_a_time(
            value in json_value(),
            pretty in proptest::bool::ANY,
        ) {
            let raw = if pretty {
                serde_json::to_vec_pretty(&value).unwrap()
            } else {
                serde_json::to_vec(&value).unwrap()
            };
            let mut read = Vec::new();
            for_each_number(&raw, |n| read.push(n.to_vec()));
            proptest::prop_assert_eq!(read, numbers_a_byte_at_a_time(&raw));
        }
    }

    #[test]
    fn a_string_ends_at_its_first_unescaped_quote_wherever_it_stands() {
        // Quotes and escapes at every place around the sixteen bytes read at a time.
        for len in 0..40usize {
            // An escaped quote from `at` (the two bytes within the string).
            for at in 0..len.saturating_sub(1) {
                let mut inner = vec![b'x'; len];
                inner[at] = b'\\';
                inner[at + 1] = b'"';
                let raw = [b"\"".as_slice(), &inner, b"\",7]"].concat();
                let end = after_string(&raw, 0);
                assert_eq!(end, len + 2, "{len} bytes, an escape at {at}");
                let mut read = Vec::new();
                for_each_number(&raw, |n| read.push(n.to_vec()));
                assert_eq!(read, [b"7".to_vec()], "{len} bytes, an escape at {at}");
            }
        }
        // Unclosed: to the end.
        assert_eq!(after_string(b"\"abc", 0), 4);
        assert_eq!(after_string(b"\"abc\\", 0), 5);
    }

    #[test]
    fn each_event_finds_the_numbers_it_holds_and_only_those() {
        let lines = [
            r#"{"id":"a","data":{"error_code":4006,"retries_join":3}}"#,
            r#"{"id":"b","data":{"error_code":4006}}"#,
            r#"{"id":"c","data":{"error_message":"4006"}}"#,
            r#"{"id":"d","data":{"error_code":500,"retries_join":34006}}"#,
        ];
        let mut store = Store::new();
        store.merge(crate::store::Batch::of_objects(lines.iter().map(|l| l.to_string())).unwrap());
        let mut index = NumberIndex::default();
        index.extend(&store);
        assert_eq!(index.of_row.len(), 4);
        let bits = index.rows_where(|t| t.contains("4006"));
        assert_eq!(bits, [0b1011]);
        let bits = index.rows_where(|t| t == "3");
        assert_eq!(bits, [0b0001]);
        // Events added later are read when the index is extended, and only those.
        store.merge(
            crate::store::Batch::of_objects([r#"{"id":"e","data":{"n":[3]}}"#.to_string()])
                .unwrap(),
        );
        index.extend(&store);
        assert_eq!(index.rows_where(|t| t == "3"), [0b10001]);
    }

    #[test]
    fn the_bits_of_many_events_are_each_events_own_on_every_thread() {
        // Events in several words of bits and parts of words, some numbers in few of them.
        let lines: Vec<String> = (0..1_000)
            .map(|n| format!(r#"{{"id":"{n}","data":{{"n":{},"m":{}}}}}"#, n % 7, n % 130))
            .collect();
        let store = store_of(&lines.iter().map(String::as_str).collect::<Vec<_>>());
        let mut index = NumberIndex::default();
        index.extend(&store);
        // Three threads, whatever the machine's: 16 words in parts of 6, 6 and 4.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (text, holds) in [("3", 3), ("129", 129), ("6", 6)] {
            let bits = pool.install(|| index.rows_where(|t| t == text));
            assert_eq!(bits.len(), 1_000usize.div_ceil(64));
            for i in 0..1_000 {
                let want = i % 7 == holds || i % 130 == holds;
                assert_eq!(
                    bits[i / 64] & (1 << (i % 64)) != 0,
                    want,
                    "{text} in event {i}"
                );
            }
        }
    }

    /// Every number-like search text the tests ask about, and what a store finds for each.
    fn found(store: &Store) -> Vec<Vec<u32>> {
        found_of(store, &["3", "4006", "400", "5", "-1", "2.5"])
    }

    /// What a store finds for each of `texts`.
    fn found_of(store: &Store, texts: &[&str]) -> Vec<Vec<u32>> {
        texts
            .iter()
            .map(|t| {
                let filter = crate::filter::Filter {
                    search: Some(t.to_string()),
                    ..Default::default()
                };
                store.filter(&filter)
            })
            .collect()
    }

    fn store_of(lines: &[impl AsRef<str>]) -> Store {
        let mut store = Store::new();
        store.merge(
            crate::store::Batch::of_objects(lines.iter().map(|l| l.as_ref().to_string())).unwrap(),
        );
        store
    }

    /// A step and ten more events, event `n` holding the number `n % modulo` and, as its id, the
    /// string `n`.
    fn numbered(modulo: usize) -> Vec<String> {
        (0..AHEAD_STEP + 10)
            .map(|n| format!(r#"{{"id":"{n}","data":{{"n":{}}}}}"#, n % modulo))
            .collect()
    }

    const LINES: [&str; 4] = [
        r#"{"id":"a","data":{"error_code":4006,"retries_join":3}}"#,
        r#"{"id":"b","data":{"error_code":4006,"w":[-1,2.5e3]}}"#,
        r#"{"id":"c","data":{"error_message":"4006"}}"#,
        r#"{"id":"d","data":{"error_code":500,"retries_join":34006}}"#,
    ];

    #[test]
    fn numbers_read_ahead_find_what_the_search_reading_them_finds() {
        let mut plain = store_of(&LINES);
        let mut ahead = store_of(&LINES);
        ahead
            .number_work(usize::MAX)
            .expect("nothing read yet")
            .read();
        assert_eq!(ahead.numbers_read(), 4);
        assert!(ahead.number_work(usize::MAX).is_none(), "read once only");
        assert_eq!(found(&ahead), found(&plain));
        assert_eq!(found(&ahead)[0], [0, 1, 3]);
        assert_eq!(found(&ahead)[1], [0, 1, 2, 3]);
        // Events loaded after: the search reads their numbers, as it would have.
        let more = r#"{"id":"e","data":{"n":[3, 4006]}}"#.to_string();
        for store in [&mut plain, &mut ahead] {
            store.merge(crate::store::Batch::of_objects([more.clone()]).unwrap());
        }
        assert_eq!(found(&ahead), found(&plain));
        assert_eq!(found(&ahead)[0], [0, 1, 3, 4]);
    }

    #[test]
    fn reading_ahead_stops_where_a_search_read_them_and_goes_on_after_more_events() {
        let lines = numbered(usize::MAX);
        let mut store = store_of(&lines);
        let work = store.number_work(usize::MAX).unwrap();
        // A search first: it reads every event's numbers; reading ahead then adds nothing.
        let expected = found(&store);
        work.read();
        assert_eq!(store.numbers_read(), store.len());
        assert_eq!(found(&store), expected);
        // More events, read ahead a step at a time, and then by the search.
        store.merge(
            crate::store::Batch::of_objects(
                (0..AHEAD_STEP + 5).map(|n| format!(r#"{{"id":"x{n}","data":{{"n":{n}}}}}"#)),
            )
            .unwrap(),
        );
        let plain = {
            let mut plain = store_of(&lines);
            plain.merge(
                crate::store::Batch::of_objects(
                    (0..AHEAD_STEP + 5).map(|n| format!(r#"{{"id":"x{n}","data":{{"n":{n}}}}}"#)),
                )
                .unwrap(),
            );
            found(&plain)
        };
        store.number_work(usize::MAX).unwrap().read();
        assert_eq!(store.numbers_read(), store.len());
        assert_eq!(found(&store), plain);
    }

    #[test]
    fn numbers_read_ahead_on_several_threads_find_what_the_search_reading_them_finds() {
        // A step in three slices, the last shorter (21,846, 21,846 and 21,844 events), then a
        // step of ten, too few to cut.
        let lines = numbered(7_000);
        let (ahead, plain) = (store_of(&lines), store_of(&lines));
        assert!(ahead.number_work(usize::MAX).unwrap().read_on(3, || {}));
        assert_eq!(ahead.numbers_read(), ahead.len());
        let texts = ["6999", "13", "0"];
        let (found_ahead, found_plain) = (found_of(&ahead, &texts), found_of(&plain, &texts));
        for (text, (a, p)) in texts.iter().zip(found_ahead.iter().zip(&found_plain)) {
            let differ = a.iter().zip(p).position(|(x, y)| x != y);
            assert!(
                a.len() == p.len() && differ.is_none(),
                "{text}: {} against {} events, first apart at {differ:?}",
                a.len(),
                p.len()
            );
        }
        // Events 27,999 and 48,999, in the second and third slices, hold the number 6999 and no
        // string holding it.
        for i in [27_999, 48_999] {
            assert!(found_ahead[0].contains(&i), "{i}");
        }
    }

    #[test]
    fn a_search_taking_the_numbers_mid_step_keeps_them_and_the_step_is_dropped() {
        let lines = numbered(7_000);
        let ahead = store_of(&lines);
        let plain = found(&store_of(&lines));
        let work = ahead.number_work(usize::MAX).unwrap();
        let searched = std::cell::OnceCell::new();
        // The first step read, a search comes before it is taken in.
        let going_on = work.read_on(2, || {
            searched.get_or_init(|| found(&ahead));
        });
        assert!(going_on, "the store is there");
        assert_eq!(ahead.numbers_read(), ahead.len());
        assert_eq!(searched.get().expect("searched"), &plain);
        assert_eq!(found(&ahead), plain);
    }

    #[test]
    fn numbers_read_ahead_a_part_at_a_time_find_what_the_search_reading_them_finds() {
        let lines = numbered(5_000);
        let mut store = Store::new();
        for part in lines.chunks(1_000) {
            store.merge(crate::store::Batch::of_objects(part).unwrap());
        }
        let plain = store_of(&lines);
        // Parts of 30,000 events, then of one (asked for none: one).
        let mut read = Vec::new();
        while let Some(work) = store.number_work(if read.len() < 2 { 30_000 } else { 0 }) {
            assert!(work.read(), "the store is there");
            read.push(store.numbers_read());
            if read.len() == 5 {
                break;
            }
        }
        assert_eq!(read, [30_000, 60_000, 60_001, 60_002, 60_003]);
        while let Some(work) = store.number_work(AHEAD_STEP) {
            assert!(work.read());
        }
        // No more after the last.
        assert_eq!(store.numbers_read(), store.len());
        assert!(store.number_work(usize::MAX).is_none());
        assert_eq!(found(&store), found(&plain));
        // Work made for a store dropped since says so.
        let gone = store_of(&LINES);
        let work = gone.number_work(2).unwrap();
        drop(gone);
        assert!(!work.read(), "the store is gone");
    }
}
