//! Finding every event object in a dump's bytes, whatever its shape: lines of events, an
//! envelope, an array of envelopes or of events, several values one after another; what is
//! damaged is told at its byte offset, and the events around it are kept.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::mark_len;

/// Reads a line-delimited file: each line that is an event object is read in a single pass; any
/// other line (an envelope, an array, damage) goes through [`scan`], which knows every shape.
pub(super) fn scan_lines(
    bytes: &[u8],
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    let envelope_key = memchr::memmem::Finder::new(b"\"events\"");
    // A byte order mark is not part of the first line.
    let mut start = mark_len(bytes);
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line_start = start;
        start = end + 1;
        let line = &bytes[line_start..end];
        let lead = line.iter().take_while(|b| is_json_ws(**b)).count();
        let trail = line[lead..]
            .iter()
            .rev()
            .take_while(|b| is_json_ws(**b))
            .count();
        let (s, e) = (line_start + lead, end - trail);
        if s >= e {
            continue;
        }
        let text = &bytes[s..e];
        if text[0] == b'{' && envelope_key.find(text).is_none() && event(s, e).is_ok() {
            continue;
        }
        // Anything else is read the thorough way: a line that is one whole value (an envelope, an
        // array) by itself, else the rest of the file (damage, or a value spread over lines).
        let whole = serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok();
        let rest = if whole { text } else { &bytes[s..] };
        let mut found = Vec::new();
        scan(rest, &mut |a, b| event(s + a, s + b), &mut found);
        errors.extend(found.into_iter().map(|x| ScanError {
            offset: s + x.offset,
            message: x.message,
        }));
        if !whole {
            return;
        }
    }
}

/// The damage [`scan`] meets first in `bytes`, a file's first bytes only, when it is there: where
/// the first value stops being JSON before the bytes end, said as `scan` says it when it stops
/// there. `None` when the value is JSON as far as the bytes go, or whole.
pub(super) fn damage_in_first_bytes(bytes: &[u8]) -> Option<ScanError> {
    let pos = mark_len(bytes);
    let rest = &bytes[pos..];
    let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<IgnoredAny>();
    match values.next() {
        Some(Err(e)) if !e.is_eof() => Some(ScanError {
            offset: (pos + offset_of_line_col(rest, e.line(), e.column())).min(bytes.len()),
            message: describe_json_error(&e),
        }),
        _ => None,
    }
}

/// A problem at a byte offset of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    pub offset: usize,
    pub message: String,
}

/// Finds every event object in `bytes`, calling `event(start, end)` for each, in order. Damage is
/// pushed to `errors` with its byte offset; scanning resumes on the next line when the damage is
/// confined to one line (line-delimited dumps), and stops otherwise.
pub fn scan(
    bytes: &[u8],
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    if looks_binary(bytes) {
        errors.push(ScanError {
            offset: 0,
            message: "this is not a JSON dump: it holds binary data".into(),
        });
        return;
    }
    // A UTF-8 byte order mark, as some editors write, is not JSON.
    let mut pos = mark_len(bytes);
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<&RawValue>();
        let value_start = pos + skip_ws(rest, 0);
        match stream.next() {
            None => return,
            Some(Ok(raw)) => {
                let start = offset_in(bytes, raw.get().as_bytes());
                let end = start + raw.get().len();
                visit_top(bytes, start, end, event, errors);
                pos += stream.byte_offset();
                continue;
            }
            Some(Err(e)) => {
                let at = if e.is_eof() {
                    bytes.len()
                } else {
                    (pos + offset_of_line_col(rest, e.line(), e.column())).min(bytes.len())
                };
                // Salvage the complete events of a damaged array or envelope.
                salvage(bytes, value_start, event, errors);
                // Resume on the next line when the damage is confined to the value's first line,
                // or when that line is a cut record of a line-delimited dump (the parser ran on
                // into the next line, which holds a whole object of its own).
                let first = value_start.min(at);
                let next = memchr::memchr(b'\n', &bytes[first..]).map(|nl| first + nl + 1);
                let resume = next.filter(|&next| {
                    next > at
                        || (!is_lone_bracket(&bytes[first..next]) && starts_a_record(bytes, next))
                });
                match resume {
                    Some(next) if next <= at => {
                        // Point at the end of the cut line, not at the sound line after it.
                        let end = if bytes[..next - 1].ends_with(b"\r") {
                            next - 2
                        } else {
                            next - 1
                        };
                        errors.push(ScanError {
                            offset: end,
                            message: format!(
                                "the line ends before its JSON value does: it is cut short ({})",
                                bare_json_error(&e)
                            ),
                        });
                    }
                    _ => errors.push(ScanError {
                        offset: at,
                        message: describe_json_error(&e),
                    }),
                }
                match resume {
                    Some(next) => pos = next,
                    None => return,
                }
            }
        }
    }
}

/// Classifies one complete top-level value: an envelope, an array (of envelopes or events), or an
/// event.
fn visit_top(
    bytes: &[u8],
    start: usize,
    end: usize,
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    let value = &bytes[start..end];
    match value.first() {
        Some(b'{') => visit_object(bytes, start, end, event, errors),
        Some(b'[') => match serde_json::from_slice::<Vec<&RawValue>>(value) {
            Ok(items) => {
                for item in items {
                    let s = offset_in(bytes, item.get().as_bytes());
                    let e = s + item.get().len();
                    if bytes[s] == b'{' {
                        visit_object(bytes, s, e, event, errors);
                    } else {
                        errors.push(not_an_object(s, bytes[s]));
                    }
                }
            }
            Err(e) => errors.push(ScanError {
                offset: start,
                message: describe_json_error(&e),
            }),
        },
        Some(&b) => errors.push(not_an_object(start, b)),
        None => {}
    }
}

/// An object is an envelope when it has an `events` array and no `type`; otherwise an event.
fn visit_object(
    bytes: &[u8],
    start: usize,
    end: usize,
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    let value = &bytes[start..end];
    let shape =
        serde_json::from_slice::<Shape>(value).unwrap_or(Shape::Event { events_found: None });
    match shape {
        Shape::Envelope(items) => {
            for item in items {
                let s = offset_in(bytes, item.get().as_bytes());
                let e = s + item.get().len();
                if bytes[s] == b'{' {
                    if let Err(message) = event(s, e) {
                        errors.push(ScanError { offset: s, message });
                    }
                } else {
                    errors.push(not_an_object(s, bytes[s]));
                }
            }
        }
        Shape::Event { events_found } => {
            if let Err(message) = event(start, end) {
                let message = match events_found {
                    // Meant as an envelope, most likely: said so, rather than "not an event".
                    Some(found) if message.starts_with("not an event") => format!(
                        "\"events\" is {found}, not an array: an envelope holds its events in an \
                         \"events\" array, as the events endpoint answers (nor is this object an \
                         event: it has no id, type or timestamp string, and no data object)"
                    ),
                    _ => message,
                };
                errors.push(ScanError {
                    offset: start,
                    message,
                });
            }
        }
    }
}

/// After a top-level value failed to parse, re-reads it element by element so that the events
/// complete before the damage are kept.
fn salvage(
    bytes: &[u8],
    start: usize,
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    if start >= bytes.len() || !matches!(bytes[start], b'{' | b'[') {
        return;
    }
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(&bytes[start..]);
    let _ = SalvageSeed {
        base: bytes,
        found: &mut found,
        depth: 0,
    }
    .deserialize(&mut de);
    for (s, e) in found {
        visit_object(bytes, s, e, event, errors);
    }
}

/// Collects the spans of complete objects inside arrays and inside an envelope's `events`, up to
/// where the input breaks.
struct SalvageSeed<'a, 'b> {
    base: &'a [u8],
    found: &'b mut Vec<(usize, usize)>,
    depth: u8,
}

impl<'de, 'b> DeserializeSeed<'de> for SalvageSeed<'de, 'b> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'b> Visitor<'de> for SalvageSeed<'de, 'b> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array or an envelope")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            let s = offset_in(self.base, item.get().as_bytes());
            // Nothing else in an array can hold an event; its damage is reported by the caller.
            if self.base[s] == b'{' {
                self.found.push((s, s + item.get().len()));
            }
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if self.depth > 0 {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        }
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "events" {
                map.next_value_seed(SalvageSeed {
                    base: self.base,
                    found: &mut *self.found,
                    depth: self.depth + 1,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// What a JSON object is: an envelope (its events) or an event.
enum Shape<'a> {
    Envelope(Vec<&'a RawValue>),
    /// An event; `events_found` names what its `events` key holds when that is no array and
    /// nothing names a type: an envelope gone wrong, should it prove to be no event either.
    Event {
        events_found: Option<&'static str>,
    },
}

impl<'de> serde::Deserialize<'de> for Shape<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shape<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape<'de>, A::Error> {
                let mut events: Option<&'de RawValue> = None;
                let mut has_type = false;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "events" => events = Some(map.next_value()?),
                        "type" => {
                            has_type = true;
                            map.next_value::<IgnoredAny>()?;
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                match events {
                    Some(raw) if !has_type && raw.get().starts_with('[') => {
                        let items: Vec<&'de RawValue> =
                            serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
                        Ok(Shape::Envelope(items))
                    }
                    Some(raw) if !has_type => Ok(Shape::Event {
                        events_found: raw.get().bytes().next().map(json_kind),
                    }),
                    _ => Ok(Shape::Event { events_found: None }),
                }
            }
        }
        d.deserialize_map(V)
    }
}

/// What a JSON value is, told by its first byte: "a string", "an object"...
fn json_kind(first: u8) -> &'static str {
    match first {
        b'"' => "a string",
        b'[' => "an array",
        b'{' => "an object",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

fn not_an_object(offset: usize, first: u8) -> ScanError {
    let found = json_kind(first);
    ScanError {
        offset,
        message: format!("expected an event or an envelope (a JSON object), found {found}"),
    }
}

/// serde_json's message without the " at line L column C" it appends: the position is reported
/// separately.
fn bare_json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn describe_json_error(e: &serde_json::Error) -> String {
    let text = bare_json_error(e);
    if e.is_eof() {
        format!("the JSON ends too early: the file is truncated ({text})")
    } else {
        format!("invalid JSON: {text}")
    }
}

/// A NUL byte, or many control bytes, in the first few kilobytes: not a text dump.
pub(super) fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    if head.contains(&0) {
        return true;
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
        .count();
    controls > head.len() / 10 + 1
}

pub(super) fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Skips JSON whitespace (which, unlike ASCII whitespace, excludes the form feed).
fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// A line holding only `{` or `[`: the opening of a pretty-printed value, not a record.
fn is_lone_bracket(line: &[u8]) -> bool {
    let start = skip_ws(line, 0);
    let rest = &line[start..];
    matches!(rest.first(), Some(b'{' | b'[')) && skip_ws(rest, 1) == rest.len()
}

/// Whether the first non-blank line from `start` is one whole JSON object.
fn starts_a_record(bytes: &[u8], start: usize) -> bool {
    let start = skip_ws(bytes, start);
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |nl| start + nl);
    let line = &bytes[start..end];
    line.first() == Some(&b'{') && serde_json::from_slice::<IgnoredAny>(line).is_ok()
}

/// Where `inner`, a sub-slice of `outer`, starts in it.
fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    inner.as_ptr() as usize - outer.as_ptr() as usize
}

/// The byte offset of serde_json's (1-based line, column) in `bytes`.
fn offset_of_line_col(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &bytes[start..]) {
            Some(nl) => start += nl + 1,
            None => return bytes.len(),
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len())
}
