//! A search text, prepared once, and how it is found: in one string, in the strings and the
//! numbers as written of an event's JSON (keys excluded) walked without building a tree
//! (`4006` finds the events of code 4006), or in every interned string at once.

use super::bigrams::Bigrams;
use super::caseless::Caseless;
use crate::store::Interner;
use crate::store::read::walk::for_each_string;

/// How many bytes of the interned strings a search lowercases at a time.
const LOWERED_BLOCK: usize = 64 * 1024;

/// From this many bytes of interned strings on, they are searched on every thread of the pool.
const PARALLEL_BYTES: usize = 1 << 20;

/// The number of the string (of those ending at `ends`, ascending) that holds byte `at`, at or
/// after string `from`: the strings from there are passed over in growing steps, then the last
/// step is halved. A find in strings that follow each other is then a few looks at `ends`, where
/// a search of them all is twenty-odd scattered over megabytes.
fn string_holding(ends: &[usize], from: usize, at: usize) -> usize {
    // Every string before `lo` ends at or before `at`.
    let (mut lo, mut hi, mut step) = (from, from, 1);
    while hi < ends.len() && ends[hi] <= at {
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    let hi = hi.min(ends.len());
    lo + ends[lo..hi].partition_point(|&end| end <= at)
}

/// A search text, prepared once.
#[derive(Debug, Clone)]
pub struct Needle {
    pub(super) lower: String,
    pub(super) ascii: bool,
    /// The text can be part of a canonical UUID, of a timestamp written with `is_time_char`s.
    pub(super) id_like: bool,
    pub(super) time_like: bool,
    /// The text holds an `i` or a `k`, which İ and K (KELVIN SIGN) lowercase into.
    has_i_or_k: bool,
    /// The pairs of characters of an ASCII text.
    pub(super) bigrams: Bigrams,
    /// The text holds no ASCII letter: it is found in any case as it is.
    caseless: bool,
    /// The text can be part of a number as written (digits, `-+.eE`).
    number_like: bool,
    /// For an ASCII text: finds it in lowercased bytes.
    lower_finder: Option<memchr::memmem::Finder<'static>>,
    /// For an ASCII text of two bytes or more: a vectorised, ASCII-case-insensitive finder
    /// that refuses most events without walking their JSON.
    finder: Option<Caseless>,
}

impl PartialEq for Needle {
    fn eq(&self, other: &Needle) -> bool {
        self.lower == other.lower
    }
}

impl Eq for Needle {}

impl Needle {
    pub fn new(text: &str) -> Needle {
        let ascii = text.is_ascii();
        let finder = Caseless::new(text);
        let lower = text.to_lowercase();
        Needle {
            id_like: lower
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b'-')),
            time_like: lower.bytes().all(is_time_char),
            has_i_or_k: lower.contains(['i', 'k']),
            bigrams: Bigrams::of(lower.as_bytes()),
            caseless: !lower.bytes().any(|b| b.is_ascii_alphabetic()),
            number_like: !lower.is_empty() && lower.bytes().all(super::numbers::is_number_byte),
            lower_finder: ascii.then(|| memchr::memmem::Finder::new(lower.as_bytes()).into_owned()),
            lower,
            ascii,
            finder,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }

    /// Whether the text can be part of a number as written: only then are numbers searched.
    pub fn is_number_like(&self) -> bool {
        self.number_like
    }

    /// Whether a number's text (as written, ASCII) holds the text.
    pub fn matches_number(&self, text: &[u8]) -> bool {
        self.number_like && contains_ascii_ci(text, self.lower.as_bytes())
    }

    /// Whether one string matches.
    pub fn matches_str(&self, s: &str) -> bool {
        if self.lower.is_empty() {
            return true;
        }
        if s.is_ascii() && self.ascii {
            return contains_ascii_ci(s.as_bytes(), self.lower.as_bytes());
        }
        s.to_lowercase().contains(&self.lower)
    }

    /// False when no string of the JSON text `raw` can hold the text, read off the bytes alone:
    /// a value can only hold it if the bytes do, unless an escape or one of the two characters
    /// whose lowercase is ASCII (KELVIN SIGN, U+212A, and I WITH DOT ABOVE, U+0130) hides it, for
    /// a text with a `k` or an `i`. Those characters themselves are looked for, not any
    /// character sharing their lead bytes: names written in other scripts, and punctuation such
    /// as `’` and `—`, hold those bytes often.
    pub fn may_be_in(&self, raw: &[u8]) -> bool {
        if self.lower.is_empty() || !self.ascii {
            return true;
        }
        if self.contains_ascii_ci(raw) || memchr::memchr(b'\\', raw).is_some() {
            return true;
        }
        let holds = |c: char| memchr::memmem::find(raw, c.encode_utf8(&mut [0; 4]).as_bytes());
        self.has_i_or_k
            && memchr::memchr2(0xC4, 0xE2, raw).is_some()
            && (holds('\u{212A}').is_some() || holds('\u{0130}').is_some())
    }

    /// Whether any string value, or any number as written, of the JSON document `raw` matches.
    /// `raw` must be valid JSON (everything in the store was parsed when it was loaded).
    pub fn matches_json(&self, raw: &[u8]) -> bool {
        if self.lower.is_empty() {
            return true;
        }
        if !self.may_be_in(raw) {
            return false;
        }
        let mut found = false;
        for_each_string(raw, |_, _, start, end, escaped| {
            if !found && self.matches_quoted(&raw[start..end], escaped) {
                found = true;
            }
        });
        if !found && self.number_like {
            super::numbers::for_each_number(raw, |text| {
                found = found || self.matches_number(text);
            });
        }
        found
    }

    /// Whether a JSON string (quotes included) matches.
    pub fn matches_bytes(&self, quoted: &[u8]) -> bool {
        let escaped = memchr::memchr(b'\\', &quoted[1..quoted.len() - 1]).is_some();
        self.matches_quoted(quoted, escaped)
    }

    /// Whether a JSON string (quotes included) matches, knowing whether it holds an escape.
    pub fn matches_quoted(&self, quoted: &[u8], escaped: bool) -> bool {
        let inner = &quoted[1..quoted.len() - 1];
        if self.ascii && !escaped {
            // ASCII text found in the bytes is found in the string: lowercasing never turns
            // other characters into ASCII but for the two `matches_json` names, which only
            // matter to a text with an `i` or a `k`.
            if self.contains_ascii_ci(inner) {
                return true;
            }
            if !self.has_i_or_k || memchr::memchr2(0xC4, 0xE2, inner).is_none() {
                return false;
            }
        }
        if escaped {
            return serde_json::from_slice::<String>(quoted)
                .map(|s| self.matches_str(&s))
                .unwrap_or(false);
        }
        match std::str::from_utf8(inner) {
            Ok(s) => self.matches_str(s),
            Err(_) => false,
        }
    }
}

/// A character of an RFC 3339 timestamp (either case of its letters).
pub fn is_time_char(b: u8) -> bool {
    matches!(
        b,
        b'0'..=b'9' | b'T' | b't' | b'Z' | b'z' | b':' | b'.' | b'+' | b'-'
    )
}

impl Needle {
    /// For an ASCII text: which of the interned strings from number `from` on hold it. The
    /// strings lie end to end in one buffer, which is searched from end to end (a block at a
    /// time), in as many parts as the pool has threads when it is long; a find that runs from
    /// one string into the next counts for neither. A string holding one of the two characters
    /// whose lowercase is ASCII is looked at on its own.
    pub(super) fn in_strings(&self, strings: &Interner, from: usize) -> Vec<bool> {
        let (text, first, _) = strings.text_from(from);
        let parts = if text.len() - first >= PARALLEL_BYTES {
            rayon::current_num_threads()
        } else {
            1
        };
        self.in_strings_by_blocks(strings, from, LOWERED_BLOCK, parts)
    }

    /// [`Needle::in_strings`], the text searched `block` bytes (at least one) at a time, the
    /// strings cut into `parts` (at least one) of as many strings each, searched on the pool's
    /// threads.
    fn in_strings_by_blocks(
        &self,
        strings: &Interner,
        from: usize,
        block: usize,
        parts: usize,
    ) -> Vec<bool> {
        use rayon::prelude::*;
        let (text, first, ends) = strings.text_from(from);
        let step = ends.len().div_ceil(parts.max(1)).max(1);
        let found: Vec<Vec<bool>> = ends
            .par_chunks(step)
            .enumerate()
            .map(|(j, part)| {
                let start = if j == 0 { first } else { ends[j * step - 1] };
                let end = part.last().copied().unwrap_or(start);
                self.in_part(&text[..end], start, part, block)
            })
            .collect();
        found.concat()
    }

    /// Which of the strings that end at `ends`, the first starting at `first` in `text` (which
    /// ends with the last), hold the text, searched `block` bytes at a time.
    fn in_part(&self, text: &[u8], first: usize, ends: &[usize], block: usize) -> Vec<bool> {
        let block = block.max(1);
        let mut found = vec![false; ends.len()];
        // Finds only move on: the string of each is looked for from that of the one before.
        let mut last = 0;
        let mut string_at = |at: usize| {
            last = string_holding(ends, last, at);
            last
        };
        let finder = self
            .lower_finder
            .as_ref()
            .expect("an ASCII text has a finder");
        let len = self.lower.len();
        // A text with letters is found in a lowercased copy, made a block at a time: a copy of
        // the whole text would be tens of megabytes of fresh pages for every search, and a block
        // stays in the cache between its lowercasing and its search. Each block reaches
        // `len - 1` bytes into the next: a find across the cut is then in the block where it
        // starts, and no find can start in that overlap.
        let mut lowered = Vec::new();
        // Where the next find may start: the strings before it are answered.
        let mut at = first;
        let mut start = first;
        while start < text.len() {
            let owned = (start + block).min(text.len());
            if at < owned {
                let end = (owned + len - 1).min(text.len());
                let hay: &[u8] = if self.caseless {
                    &text[start..end]
                } else {
                    lowered.clear();
                    lowered.extend(text[start..end].iter().map(u8::to_ascii_lowercase));
                    &lowered
                };
                while let Some(i) = finder.find(&hay[at - start..]) {
                    let found_at = at + i;
                    let k = string_at(found_at);
                    if found_at + len <= ends[k] {
                        found[k] = true;
                    }
                    // On to the next string: this one is answered, or the find ran out of it.
                    at = ends[k];
                    if at >= owned {
                        break;
                    }
                }
            }
            start = owned;
            at = at.max(start);
        }
        if self.has_i_or_k {
            let (mut k, mut at) = (0, first);
            while let Some(i) = memchr::memchr2(0xC4, 0xE2, &text[at..]) {
                k = string_holding(ends, k, at + i);
                let start = if k == 0 { first } else { ends[k - 1] };
                let s = std::str::from_utf8(&text[start..ends[k]]).unwrap_or_default();
                found[k] = found[k] || self.matches_str(s);
                at = ends[k];
            }
        }
        found
    }

    /// Whether text in ASCII lowercase holds the (ASCII) text.
    pub(super) fn in_lowercase(&self, hay: &[u8]) -> bool {
        self.lower_finder
            .as_ref()
            .is_some_and(|finder| finder.find(hay).is_some())
    }

    /// Whether the bytes hold the (ASCII) text in any case: short strings are lowercased into
    /// a buffer on the stack and searched with a vectorised finder, longer ones (an event, a
    /// description) searched in place by the caseless finder.
    fn contains_ascii_ci(&self, hay: &[u8]) -> bool {
        const SHORT: usize = 512;
        match &self.lower_finder {
            // Without letters, the case of the bytes does not matter.
            Some(finder) if self.caseless => finder.find(hay).is_some(),
            Some(finder) if hay.len() <= SHORT => {
                let mut buf = [0; SHORT];
                let lowered = &mut buf[..hay.len()];
                for (low, b) in lowered.iter_mut().zip(hay) {
                    *low = b.to_ascii_lowercase();
                }
                finder.find(lowered).is_some()
            }
            _ => match &self.finder {
                Some(finder) => finder.is_in(hay),
                None => contains_ascii_ci(hay, self.lower.as_bytes()),
            },
        }
    }
}

fn contains_ascii_ci(hay: &[u8], lower_needle: &[u8]) -> bool {
    if lower_needle.is_empty() {
        return true;
    }
    if hay.len() < lower_needle.len() {
        return false;
    }
    let first = lower_needle[0];
    let upper = first.to_ascii_uppercase();
    let last_start = hay.len() - lower_needle.len();
    let mut i = 0;
    while i <= last_start {
        let next = if first == upper {
            memchr::memchr(first, &hay[i..=last_start])
        } else {
            memchr::memchr2(first, upper, &hay[i..=last_start])
        };
        let Some(off) = next else {
            return false;
        };
        let at = i + off;
        if hay[at..at + lower_needle.len()]
            .iter()
            .zip(lower_needle)
            .all(|(h, n)| h.to_ascii_lowercase() == *n)
        {
            return true;
        }
        i = at + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(needle: &str, json: &str) -> bool {
        Needle::new(needle).matches_json(json.as_bytes())
    }

    #[test]
    fn the_strings_searched_end_to_end_answer_as_each_searched_alone() {
        let mut strings = Interner::default();
        let words = [
            "abc",
            "def",
            "",
            "cde",
            "ICEDisconnected",
            "o\u{212a}",
            "O",
            "K",
            "zoë",
            "İstanbul",
            "abcabc",
            "x",
            "cd",
            "",
            "e",
            "xxa1a1",
            "A1",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbabc",
            "a",
            "1",
        ];
        for w in words {
            strings.intern(w);
        }
        for text in [
            "cd", "c", "abc", "ice", "ok", "istanbul", "i", "k", "e", "x", "de", "zz", "a1", "1",
            "a1a",
        ] {
            let needle = Needle::new(text);
            for from in 1..strings.len() {
                let want: Vec<bool> = strings
                    .strings_from(from)
                    .map(|s| needle.matches_str(s))
                    .collect();
                assert_eq!(
                    needle.in_strings(&strings, from),
                    want,
                    "{text:?} from {from}"
                );
                // Blocks shorter than the text, than a string, and cut anywhere; the strings
                // in one part or cut into several, up to one a string.
                for block in 1..=9 {
                    for parts in [1, 2, 3, 5, 100] {
                        assert_eq!(
                            needle.in_strings_by_blocks(&strings, from, block, parts),
                            want,
                            "{text:?} from {from}, blocks of {block}, {parts} parts"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_string_holding_a_byte_is_found_from_any_string_before_it() {
        // Strings of 1 to 5 bytes, some empty, ending at these bytes.
        let ends = [0, 1, 1, 3, 4, 9, 9, 9, 10, 12, 17, 18, 18, 23, 24];
        for at in 0..24 {
            let plain = ends.partition_point(|&end| end <= at);
            for from in 0..=plain {
                assert_eq!(string_holding(&ends, from, at), plain, "{at} from {from}");
            }
        }
    }

    #[test]
    fn finds_text_in_values_case_insensitively() {
        assert!(m("ice", r#"{"data":{"error_name":"ICEDisconnected"}}"#));
        assert!(m("IceDis", r#"{"data":{"error_name":"ICEDisconnected"}}"#));
    }

    #[test]
    fn keys_do_not_match() {
        assert!(!m(
            "room",
            r#"{"data":{"room_id":"abc","n":[{"room_x":"zzz"}]}}"#
        ));
        assert!(m("abc", r#"{"data":{"room_id":"abc"}}"#));
    }

    #[test]
    fn values_after_arrays_and_nested_objects_are_values() {
        let json = r#"{"a":["x",{"k":"v"}],"b":"target","c":{"d":["y"]}}"#;
        assert!(m("target", json));
        assert!(!m("k", json));
        assert!(m("y", json));
    }

    #[test]
    fn numbers_are_found_as_written_and_booleans_and_keys_are_not() {
        assert!(m("500", r#"{"error_code":500,"t":true}"#));
        assert!(m("00", r#"{"error_code":500,"t":true}"#));
        assert!(m("2.5E3", r#"{"n":[1,2.5e3]}"#));
        assert!(!m("true", r#"{"error_code":500,"t":true}"#));
        assert!(!m("7", r#"{"k7":500}"#));
        assert!(!m("5000", r#"{"error_code":500}"#));
    }

    #[test]
    fn escaped_and_non_ascii_text_is_compared_unescaped() {
        assert!(m("zoë", r#"{"user_name":"Zo\u00cb"}"#));
        assert!(m("ZOË", r#"{"user_name":"zoë"}"#));
        assert!(m("a\"b", r#"{"s":"xa\"by"}"#));
        assert!(m("佐藤", r#"{"user_name":"佐藤 一"}"#));
        assert!(m("ok", "{\"s\":\"O\u{212a}\"}"));
    }
}
