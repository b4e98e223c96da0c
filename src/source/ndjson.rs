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

/// Trims JSON's whitespace (space, tab, CR, LF; not the form feed ASCII also counts).
fn trim(line: &[u8]) -> &[u8] {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let start = line.iter().position(|b| !ws(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    &line[start..end]
}

/// The literal texts a matching line must contain (a value equal to a filter's is written either
/// as those bytes or with an escape).
struct Prefilter {
    /// At least one of these (the selected types), when types are filtered.
    any_of: Vec<Finder<'static>>,
    /// Every one of these (the id filters).
    all_of: Vec<Finder<'static>>,
    /// Finds the escapes that could spell one of the values differently: `\u` when no value
    /// holds a character JSON may also escape otherwise (`"`, `\`, `/`, controls), else any `\`.
    escape: Finder<'static>,
}

impl Prefilter {
    fn new(filter: &Filter) -> Prefilter {
        let literal = |s: &str| {
            let quoted = serde_json::to_string(s).unwrap_or_default();
            Finder::new(quoted.as_bytes()).into_owned()
        };
        let values: Vec<&str> = filter
            .types
            .iter()
            .map(|t| t.name())
            .chain(
                [&filter.room, &filter.session, &filter.peer, &filter.user]
                    .into_iter()
                    .flatten()
                    .map(String::as_str),
            )
            .collect();
        let plain = values.iter().all(|v| {
            !v.chars()
                .any(|c| matches!(c, '"' | '\\' | '/') || c.is_control())
        });
        Prefilter {
            any_of: filter.types.iter().map(|t| literal(t.name())).collect(),
            all_of: [&filter.room, &filter.session, &filter.peer, &filter.user]
                .into_iter()
                .flatten()
                .map(|v| literal(v))
                .collect(),
            escape: Finder::new(if plain { &b"\\u"[..] } else { &b"\\"[..] }).into_owned(),
        }
    }

    fn is_empty(&self) -> bool {
        self.any_of.is_empty() && self.all_of.is_empty()
    }

    /// Whether the line may match: false only when it certainly cannot.
    fn may_match(&self, line: &[u8]) -> bool {
        let literal_ok = (self.any_of.is_empty()
            || self.any_of.iter().any(|f| f.find(line).is_some()))
            && self.all_of.iter().all(|f| f.find(line).is_some());
        literal_ok || self.escape.find(line).is_some()
    }
}

/// Why the fast path handed over to the full one.
#[derive(Debug, PartialEq, Eq)]
pub struct NotLineDelimited;

/// What the first pass learns of one line.
struct LineInfo {
    start: usize,
    end: usize,
    id: IdKey,
    candidate: bool,
}

/// Selects the events of line-delimited `blobs` (in order) that match `filter`: a store of the
/// candidate lines and the indices of those that match, in input order, de-duplicated as the full
/// path does. Fails (and the caller uses the full path) when a line is not an event object with a
/// plain string id.
///
/// Three passes: every line's id and whether it may match (in parallel, one slice of the file per
/// core); de-duplication in input order; then only the candidates are parsed (in parallel).
pub fn select(
    blobs: Vec<Arc<Blob>>,
    filter: &Filter,
) -> Result<(Store, Vec<u32>), NotLineDelimited> {
    let pre = Prefilter::new(filter);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let mut seen: FxHashSet<IdKey> = FxHashSet::default();
    let mut store = Store::new();
    for blob in blobs {
        let bytes: &[u8] = &blob;
        let slices = split_at_lines(bytes, threads);
        let infos: Vec<Vec<LineInfo>> = parallel(&slices, |&(a, b)| read_lines(bytes, a, b, &pre))
            .into_iter()
            .collect::<Result<_, _>>()?;
        seen.reserve(infos.iter().map(Vec::len).sum());
        let mut candidates: Vec<(usize, usize)> = Vec::new();
        for info in infos.into_iter().flatten() {
            if seen.insert(info.id) && info.candidate {
                candidates.push((info.start, info.end));
            }
        }
        let chunk = candidates.len().div_ceil(threads).max(1);
        let parts: Vec<&[(usize, usize)]> = candidates.chunks(chunk).collect();
        let batches = parallel(&parts, |part| {
            let mut builder = BatchBuilder::new(Arc::clone(&blob));
            for &(a, b) in *part {
                builder.push(a, b).map_err(|_| NotLineDelimited)?;
            }
            Ok(builder.finish())
        });
        for batch in batches {
            store.merge(batch?);
        }
    }
    // The store holds candidates only; the filter decides.
    let rows = store.filter(filter);
    Ok((store, rows))
}

/// Runs `f` on each item on its own thread, returning the results in order.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() <= 1 {
        return items.iter().map(&f).collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = items.iter().map(|item| scope.spawn(|| f(item))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Cuts `bytes` into about `n` slices that end at line ends.
pub(crate) fn split_at_lines(bytes: &[u8], n: usize) -> Vec<(usize, usize)> {
    let mut slices = Vec::new();
    let mut start = 0;
    for k in 1..=n {
        if start >= bytes.len() {
            break;
        }
        let target = (bytes.len() * k / n).max(start);
        let end = if k == n {
            bytes.len()
        } else {
            memchr::memchr(b'\n', &bytes[target..]).map_or(bytes.len(), |i| target + i + 1)
        };
        slices.push((start, end));
        start = end;
    }
    slices
}

/// The first pass over the lines of `bytes[from..to]`.
fn read_lines(
    bytes: &[u8],
    from: usize,
    to: usize,
    pre: &Prefilter,
) -> Result<Vec<LineInfo>, NotLineDelimited> {
    let mut out = Vec::with_capacity((to - from) / 1024 + 1);
    let mut start = from;
    while start < to {
        let end = memchr::memchr(b'\n', &bytes[start..to]).map_or(to, |i| start + i);
        let line_start = start;
        start = end + 1;
        let line = &bytes[line_start..end];
        let trimmed = trim(line);
        let lead = trimmed.as_ptr() as usize - line.as_ptr() as usize;
        let line = trimmed;
        if line.is_empty() {
            continue;
        }
        if line[0] != b'{' {
            return Err(NotLineDelimited);
        }
        // A line without a plain top-level id (an envelope, an odd event) goes the full way.
        let id = top_level_id(line)
            .and_then(IdKey::of_bytes)
            .ok_or(NotLineDelimited)?;
        let a = line_start + lead;
        out.push(LineInfo {
            start: a,
            end: a + line.len(),
            id,
            candidate: pre.is_empty() || pre.may_match(line),
        });
    }
    Ok(out)
}

/// The top-level `id` of a one-line JSON object (its bytes), when it is a plain string (no
/// escapes). `None` when it is absent, not a string, escaped, or the line cannot be read this way.
fn top_level_id(line: &[u8]) -> Option<&[u8]> {
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
            return Some(value);
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
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']') && !b[i].is_ascii_whitespace()
            {
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
        assert_eq!(
            top_level_id(br#"{"version":"2.0","id":"abc","data":{"id":"x"}}"#),
            Some(&b"abc"[..])
        );
        assert_eq!(
            top_level_id(br#"{"data":{"id":"x","a":[1,{"b":"}"}]},"id":"late"}"#),
            Some(&b"late"[..])
        );
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
        // An escaped quote cannot spell a value that holds no quote.
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","m":"say \"hi\""}}"#));
        let slash = Prefilter::new(&Filter {
            room: Some("a/b".into()),
            ..Filter::default()
        });
        assert!(slash.may_match(br#"{"data":{"room_id":"a\/b"}}"#));
    }
}
