//! A dump that is one envelope (`{"limit":..,"events":[...]}`, as `list --format json` and the
//! explorer's save write it), read by the fast path as NDJSON is: its events array is cut into
//! pieces at event boundaries, each piece is walked on a core of its own by its structure alone,
//! and every event found is handed to the same first pass a line is.
//!
//! A cut is a guess (an object that follows `},`), checked once every piece is walked: each piece
//! must end exactly where the next was cut, between two events of the array. When one does not
//! (a cut fell in a string), the array is walked again from its start on one core. Only an
//! envelope the full way reads the same is read here: one object, its keys plain (no escape), one
//! `events` key whose value is an array of objects, no `type` key, every other value one JSON
//! value, nothing but whitespace after it. Anything else hands the file to the full way.

use super::NotLineDelimited;
use super::check::is_one_json_value;
use super::walk::{skip_container, skip_value, string_end};

/// JSON's whitespace (not the form feed ASCII also counts).
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

/// Where the events of an envelope start (just after the `[` of its `events` array), when
/// `bytes` open as one: an object whose members before `events` are plain keys (no escape, no
/// `type`) with sound values.
pub(in crate::source) fn events_array(bytes: &[u8]) -> Option<usize> {
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        let (key, value) = member(bytes, i)?;
        if key == b"events" {
            return (bytes.get(value) == Some(&b'[')).then_some(value + 1);
        }
        let end = sound_value(bytes, value)?;
        i = skip_ws(bytes, end);
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i += 1;
    }
}

/// The key of the member that starts at `i` (whitespace before it allowed), and where its value
/// starts; `None` when it is not a plain key or is `type`.
fn member(bytes: &[u8], i: usize) -> Option<(&[u8], usize)> {
    let i = skip_ws(bytes, i);
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let key_end = string_end(bytes, i)?;
    let key = &bytes[i + 1..key_end - 1];
    if memchr::memchr(b'\\', key).is_some() || key == b"type" {
        return None;
    }
    let colon = skip_ws(bytes, key_end);
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    Some((key, skip_ws(bytes, colon + 1)))
}

/// One past the value that starts at `i`, when it is one well-formed JSON value.
fn sound_value(bytes: &[u8], i: usize) -> Option<usize> {
    let end = skip_value(bytes, i)?;
    (end > i && is_one_json_value(&bytes[i..end])).then_some(end)
}

/// Whether what follows the `]` of the events array at `close` ends the envelope soundly: other
/// plain members (none named `events` or `type`), the closing brace, then only whitespace.
pub(in crate::source) fn ends_soundly(bytes: &[u8], close: usize) -> bool {
    let mut i = skip_ws(bytes, close + 1);
    loop {
        match bytes.get(i) {
            Some(b'}') => return skip_ws(bytes, i + 1) == bytes.len(),
            Some(b',') => {}
            _ => return false,
        }
        let Some((key, value)) = member(bytes, i + 1) else {
            return false;
        };
        if key == b"events" {
            return false;
        }
        let Some(end) = sound_value(bytes, value) else {
            return false;
        };
        i = skip_ws(bytes, end);
    }
}

/// Where the walk of a piece of the events array ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::source) enum PieceEnd {
    /// At the start of the next event, the first at or past the piece's end, after a comma.
    Next(usize),
    /// At the `]` that closes the array.
    Closed(usize),
}

/// Walks the events of the array from `from`, where an event starts (or, when `first`, where
/// the array's content starts and it may be empty), handing each event's span to `event`, up to
/// the first event that starts at or past `to`.
///
/// The span of an event on a line of its own is a guess, which `event` may take and the reading
/// after it proves: a span that is not the whole event is not one whole JSON value, and is
/// refused by the first pass (an event has one `"id"`, a span over two holds two), by the check
/// of the spans it does not parse, or by the parse of those it does, which hands the file to the
/// full way. Spans each one JSON value, commas between them and the `]` after the last can only
/// be the array's events, as JSON is read one way only.
pub(in crate::source) fn walk_events(
    bytes: &[u8],
    from: usize,
    to: usize,
    first: bool,
    event: &mut dyn FnMut(usize, usize) -> Result<(), NotLineDelimited>,
) -> Result<PieceEnd, NotLineDelimited> {
    let mut i = skip_ws(bytes, from);
    if first && bytes.get(i) == Some(&b']') {
        return Ok(PieceEnd::Closed(i));
    }
    let mut guessing = true;
    loop {
        if bytes.get(i) != Some(&b'{') {
            return Err(NotLineDelimited);
        }
        let guess = if guessing {
            line_end_guess(bytes, i)
        } else {
            None
        };
        let end = match guess {
            // An envelope written one event a line (as callscope writes one): the event is
            // taken to end at its line's last `}`, where another event or the array's end
            // follows, which spares walking it. What is read of the span proves the guess
            // (see above).
            Some(guess) if event(i, guess).is_ok() => guess,
            guess => {
                // A layout the guesses do not fit (events over several lines or several on
                // one): the rest of the piece is walked, rather than each line looked through
                // again to its end.
                guessing = false;
                let end = skip_container(bytes, i).ok_or(NotLineDelimited)?;
                if guess == Some(end) {
                    return Err(NotLineDelimited);
                }
                event(i, end)?;
                end
            }
        };
        i = skip_ws(bytes, end);
        match bytes.get(i) {
            Some(b',') => {
                i = skip_ws(bytes, i + 1);
                if i >= to {
                    return Ok(PieceEnd::Next(i));
                }
            }
            Some(b']') => return Ok(PieceEnd::Closed(i)),
            _ => return Err(NotLineDelimited),
        }
    }
}

/// What `read` found in each piece of the events array that opens at `open`, cut into about `n`
/// pieces and read in parallel, in order; `read(from, to, first)` walks one piece with
/// [`walk_events`] and says where it ended. When a piece does not end where the next was cut (a
/// cut fell in a string), the array is read again as one piece. Fails when the array or the rest
/// of the envelope is not sound.
pub(super) fn read_in_pieces<T: Send>(
    bytes: &[u8],
    open: usize,
    n: usize,
    read: impl Fn(usize, usize, bool) -> Result<(T, PieceEnd), NotLineDelimited> + Sync,
) -> Result<Vec<T>, NotLineDelimited> {
    let cuts = cuts(bytes, open, n);
    let pieces: Vec<(usize, usize)> = cuts
        .iter()
        .enumerate()
        .map(|(k, &a)| (a, cuts.get(k + 1).copied().unwrap_or(bytes.len())))
        .collect();
    let mut found = Vec::with_capacity(pieces.len());
    let mut close = None;
    for (k, part) in super::parallel(&pieces, |&(a, z)| read(a, z, a == open))
        .into_iter()
        .enumerate()
    {
        let last = k + 1 == pieces.len();
        match part {
            Ok((t, PieceEnd::Next(at))) if !last && at == pieces[k + 1].0 => found.push(t),
            Ok((t, PieceEnd::Closed(at))) if last => {
                found.push(t);
                close = Some(at);
            }
            // The first piece starts where the array does: what stops it is damage.
            Err(e) if k == 0 => return Err(e),
            _ => break,
        }
    }
    let close = match close {
        Some(close) => close,
        None => {
            found.clear();
            let (t, end) = read(open, bytes.len(), true)?;
            found.push(t);
            match end {
                PieceEnd::Closed(close) => close,
                PieceEnd::Next(_) => return Err(NotLineDelimited),
            }
        }
    };
    if !ends_soundly(bytes, close) {
        return Err(NotLineDelimited);
    }
    Ok(found)
}

/// One past the last `}` of the line that `start` is on, when the line ends with it (a comma
/// after it, and whitespace, aside) and another event or the end of the array follows.
fn line_end_guess(bytes: &[u8], start: usize) -> Option<usize> {
    let newline = start + memchr::memchr(b'\n', &bytes[start..])?;
    let mut end = newline;
    while end > start && is_ws(bytes[end - 1]) {
        end -= 1;
    }
    if end > start && bytes[end - 1] == b',' {
        end -= 1;
        while end > start && is_ws(bytes[end - 1]) {
            end -= 1;
        }
    }
    if end <= start + 1 || bytes[end - 1] != b'}' {
        return None;
    }
    // What follows: another event, after a comma, or the end of the array.
    let next = skip_ws(bytes, end);
    let follows = match bytes.get(next) {
        Some(b',') => bytes.get(skip_ws(bytes, next + 1)) == Some(&b'{'),
        Some(b']') => true,
        _ => false,
    };
    follows.then_some(end)
}

/// Where to cut the events array that starts at `open` into about `n` pieces: `open`, then the
/// start of an object that follows `},` past each `n`th of the bytes. A guess: a cut in a string
/// is found out by [`walk_events`].
pub(in crate::source) fn cuts(bytes: &[u8], open: usize, n: usize) -> Vec<usize> {
    let mut cuts = vec![open];
    let len = bytes.len().saturating_sub(open);
    for k in 1..n {
        let target = (open + len * k / n).max(cuts[cuts.len() - 1] + 1);
        if let Some(cut) = event_start_after(bytes, target) {
            cuts.push(cut);
        }
    }
    cuts.dedup();
    cuts
}

/// The first `{` at or after `from` that follows a comma after a `}` (whitespace aside): one that
/// starts a line, as each event does in an envelope written one event a line, when there is one
/// (an event's own objects and arrays rarely start a line), else any.
fn event_start_after(bytes: &[u8], from: usize) -> Option<usize> {
    let line_starts = memchr::memmem::find_iter(&bytes[from..], b"\n{").map(|i| from + i + 1);
    for brace in line_starts.take(64) {
        if follows_an_event(bytes, brace) {
            return Some(brace);
        }
    }
    let mut at = from;
    while at < bytes.len() {
        let brace = at + memchr::memchr(b'{', &bytes[at..])?;
        if follows_an_event(bytes, brace) {
            return Some(brace);
        }
        at = brace + 1;
    }
    None
}

/// Whether the `{` at `brace` follows a comma after a `}` (whitespace aside).
fn follows_an_event(bytes: &[u8], brace: usize) -> bool {
    let before = |mut i: usize| {
        while i > 0 && is_ws(bytes[i - 1]) {
            i -= 1;
        }
        i.checked_sub(1)
    };
    before(brace).is_some_and(|comma| {
        bytes[comma] == b',' && before(comma).is_some_and(|close| bytes[close] == b'}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(bytes: &[u8]) -> Option<(Vec<(usize, usize)>, bool)> {
        let open = events_array(bytes)?;
        let mut found = Vec::new();
        let end = walk_events(bytes, open, bytes.len(), true, &mut |a, z| {
            found.push((a, z));
            Ok(())
        })
        .ok()?;
        let PieceEnd::Closed(close) = end else {
            return None;
        };
        Some((found, ends_soundly(bytes, close)))
    }

    #[test]
    fn an_envelope_is_read_as_the_full_way_reads_it_or_not_at_all() {
        let (found, sound) = spans(
            br#" {"limit":2,"next":"","events":[ {"id":"a"} ,{"id":"b","x":"},{"}],"total":2} "#,
        )
        .unwrap();
        assert_eq!(found.len(), 2);
        assert!(sound);
        assert_eq!(spans(br#"{"events":[]}"#), Some((vec![], true)));
        // What the full way reads otherwise, or reports: handed over.
        for text in [
            &br#"{"type":"x","events":[{"id":"a"}]}"#[..],
            br#"{"events":[{"id":"a"}],"type":"x"}"#,
            br#"{"events":[{"id":"a"}],"events":[]}"#,
            br#"{"ev\u0065nts":[{"id":"a"}]}"#,
            br#"{"events":{"id":"a"}}"#,
            br#"{"events":[{"id":"a"},7]}"#,
            br#"{"events":[{"id":"a"},]}"#,
            br#"{"events":[{"id":"a"}]}{"events":[]}"#,
            br#"{"events":[{"id":"a"}]"#,
            br#"{"limit":01,"events":[{"id":"a"}]}"#,
            b"{\"limit\":1,\x0c\"events\":[{\"id\":\"a\"}]}",
            br#"[{"id":"a"}]"#,
        ] {
            let read = spans(text);
            assert!(
                read.is_none() || read == Some((vec![], false)) || !read.unwrap().1,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }

    /// Envelopes whose strings hold what a cut looks for (`},{`), escapes and brackets, whose
    /// events share lines or spread over several, read in every number of pieces: the events are
    /// those serde_json finds, in order.
    #[test]
    fn an_envelope_read_in_pieces_gives_the_events_read_whole() {
        let tricky = [
            r#"{"id":"a","m":"},{\"x\":1},{"}"#,
            r#"{"id":"b","n":[1,{"k":"]},{"}],"e":"\\"}"#,
            r#"{"id":"c"}"#,
            // Over lines that end with `},` within it.
            "{\"id\":\"e\",\"o\":{\"k\":1},\n\"z\":[{}],\n\"y\":{}}",
            r#"{"id":"d","s":"\",{\"},\n{"}"#,
        ];
        // How often the array was read again as one piece, a cut having fallen in a string.
        let again = std::sync::atomic::AtomicUsize::new(0);
        for count in [0, 1, 2, 7, 40] {
            for layout in ["\n", "", " \r\n  "] {
                let events: Vec<String> = (0..count)
                    .map(|k| {
                        tricky[k % tricky.len()].replace("\"id\":\"", &format!("\"id\":\"{k}"))
                    })
                    .collect();
                let text = format!(
                    "{{\"limit\":{count},\"events\":[{layout}{}{layout}],\"next\":\"\"}}\n",
                    events.join(&format!(",{layout}"))
                );
                let bytes = text.as_bytes();
                let whole: serde_json::Value = serde_json::from_str(&text).unwrap();
                let want: Vec<serde_json::Value> = whole["events"].as_array().unwrap().clone();
                let open = events_array(bytes).unwrap();
                for n in 1..12 {
                    let parts = read_in_pieces(bytes, open, n, |a, z, first| {
                        if n > 1 && first && z == bytes.len() {
                            again.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        let mut found = Vec::new();
                        let end = walk_events(bytes, a, z, first, &mut |s, e| {
                            // A piece cut in a string walks other spans: it
                            // fails, as the first pass fails on them.
                            let event = serde_json::from_slice::<serde_json::Value>(&bytes[s..e]);
                            found.push(event.map_err(|_| NotLineDelimited)?);
                            Ok(())
                        })?;
                        Ok((found, end))
                    });
                    let got: Vec<serde_json::Value> =
                        parts.unwrap().into_iter().flatten().collect();
                    assert_eq!(got, want, "{n} pieces of {text}");
                }
            }
        }
        assert!(again.into_inner() > 0, "no cut fell in a string");
    }
}
