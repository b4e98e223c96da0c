//! A fast, exact path for selecting events from line-delimited dumps (one event object per line,
//! the shape `callscope list --format ndjson` and most exports write).
//!
//! Only lines that could match are parsed: a line must hold the literal JSON text of each id filter
//! (and of one of the types), unless it holds an escape (`\`), since an escape could spell a value
//! differently. Every line's top-level `id` is still read, so that de-duplication (the first copy
//! of an id wins) stays exactly that of the full path.

use std::sync::Arc;

use memchr::memmem::Finder;
use rustc_hash::FxHashSet;

use crate::filter::Filter;
use crate::store::{BatchBuilder, Blob, IdKey, Store};

/// Whether a file looks line-delimited: its first non-blank line is one complete JSON object.
pub fn looks_line_delimited(bytes: &[u8]) -> bool {
    let first = bytes
        .split(|&b| b == b'\n')
        .map(trim)
        .find(|l| !l.is_empty());
    match first {
        Some(line) => {
            line.first() == Some(&b'{')
                && line.last() == Some(&b'}')
                && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
        }
        None => false,
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &line[start..end]
}

/// The literal texts a matching line must contain.
struct Prefilter {
    /// At least one of these (the selected types), when types are filtered.
    any_of: Vec<Finder<'static>>,
    /// Every one of these (the id filters).
    all_of: Vec<Finder<'static>>,
}

impl Prefilter {
    fn new(filter: &Filter) -> Prefilter {
        let literal = |s: &str| {
            let quoted = serde_json::to_string(s).unwrap_or_default();
            Finder::new(quoted.as_bytes()).into_owned()
        };
        Prefilter {
            any_of: filter.types.iter().map(|t| literal(t.name())).collect(),
            all_of: [&filter.room, &filter.session, &filter.peer, &filter.user]
                .into_iter()
                .flatten()
                .map(|v| literal(v))
                .collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.any_of.is_empty() && self.all_of.is_empty()
    }

    /// Whether the line may match: false only when it certainly cannot.
    fn may_match(&self, line: &[u8]) -> bool {
        let literal_ok = (self.any_of.is_empty() || self.any_of.iter().any(|f| f.find(line).is_some()))
            && self.all_of.iter().all(|f| f.find(line).is_some());
        literal_ok || memchr::memchr(b'\\', line).is_some()
    }
}

/// Why the fast path handed over to the full one.
#[derive(Debug, PartialEq, Eq)]
pub struct NotLineDelimited;

/// Selects the events of line-delimited `blobs` (in order) that match `filter`: a store of the
/// candidate lines and the indices of those that match, in input order, de-duplicated as the full
/// path does. Fails (and the caller uses the full path) when a line is not an event object with a
/// plain string id.
pub fn select(blobs: Vec<Arc<Blob>>, filter: &Filter) -> Result<(Store, Vec<u32>), NotLineDelimited> {
    let pre = Prefilter::new(filter);
    let mut seen: FxHashSet<IdKey> = FxHashSet::default();
    let mut store = Store::new();
    for blob in blobs {
        let mut builder = BatchBuilder::new(Arc::clone(&blob));
        let bytes: &[u8] = &blob;
        let mut start = 0;
        while start < bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            let line_start = start;
            start = end + 1;
            let line = &bytes[line_start..end];
            let lead = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let line = &line[lead..];
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if line[0] != b'{' {
                return Err(NotLineDelimited);
            }
            // A line without a plain top-level id (an envelope, an odd event) goes the full way.
            let Some(id) = top_level_id(line) else {
                return Err(NotLineDelimited);
            };
            if !seen.insert(IdKey::of(Some(id))) || !(pre.is_empty() || pre.may_match(line)) {
                continue;
            }
            let obj_start = line_start + lead;
            let obj_end = obj_start + trim(line).len();
            if builder.push(obj_start, obj_end).is_err() {
                return Err(NotLineDelimited);
            }
        }
        store.merge(builder.finish());
    }
    // The store holds candidates only; the filter decides.
    let rows = store.filter(filter);
    Ok((store, rows))
}

/// The top-level `id` of a one-line JSON object, when it is a plain string (no escapes). `None`
/// when it is absent, not a string, escaped, or the line cannot be read this way.
fn top_level_id(line: &[u8]) -> Option<&str> {
    let mut i = 1;
    loop {
        i = skip_ws(line, i);
        match line.get(i)? {
            b'}' => return None,
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(line, i)?;
        let key = &line[i + 1..key_end - 1];
        i = skip_ws(line, key_end);
        if line.get(i)? != &b':' {
            return None;
        }
        i = skip_ws(line, i + 1);
        if key == b"id" {
            if line.get(i)? != &b'"' {
                return None;
            }
            let end = string_end(line, i)?;
            let value = &line[i + 1..end - 1];
            if memchr::memchr(b'\\', value).is_some() {
                return None;
            }
            return std::str::from_utf8(value).ok();
        }
        i = skip_value(line, i)?;
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// One past the closing quote of the string opening at `start`.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        let off = memchr::memchr2(b'"', b'\\', &b[i..])?;
        if b[i + off] == b'\\' {
            i += off + 2;
        } else {
            return Some(i + off + 1);
        }
    }
}

/// One past the end of the value starting at `start`.
fn skip_value(b: &[u8], start: usize) -> Option<usize> {
    match b.get(start)? {
        b'"' => string_end(b, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            while i < b.len() {
                match b[i] {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = start;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']') && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_top_level_id_wherever_it_stands() {
        assert_eq!(top_level_id(br#"{"version":"2.0","id":"abc","data":{"id":"x"}}"#), Some("abc"));
        assert_eq!(top_level_id(br#"{"data":{"id":"x","a":[1,{"b":"}"}]},"id":"late"}"#), Some("late"));
        assert_eq!(top_level_id(br#"{"data":{"id":"x"}}"#), None);
        assert_eq!(top_level_id(br#"{"id":"a\u0062"}"#), None);
        assert_eq!(top_level_id(br#"{"id":7,"x":1}"#), None);
    }

    #[test]
    fn a_line_with_an_escape_may_always_match() {
        let f = Filter {
            room: Some("r1".into()),
            ..Filter::default()
        };
        let pre = Prefilter::new(&f);
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"r1"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"\u0072\u0031"}}"#));
    }
}
