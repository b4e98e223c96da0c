//! Pseudonyms for what identifies people in events, for demos and for sharing dumps: IP
//! addresses (in ICE candidates and in any other string value), user names and user ids.
//!
//! Within one output the same value always gets the same pseudonym, so patterns survive (one
//! user failing in five rooms still shows as one user). Pseudonyms are handed out in order of
//! first appearance and never equal a value of the input. Only string values change, and only
//! where they hold something identifying: keys, numbers, whitespace and the spelling of every other
//! string stay byte for byte.
//!
//! IPv4 addresses become addresses of the benchmarking range 198.18.0.0/15 (198.18.x.y for a
//! public address, 198.19.x.y for a private, loopback or link-local one, so that a host candidate
//! still reads as one); IPv6 addresses become 2001:db8:1::n or 2001:db8:2::n likewise. A version
//! that reads like an address (`"os_version":"10.0.1.2"`, or `os_version:10.0.1.2` in an agent
//! string) is a version, and stays. User names
//! become `user-0001`..., user ids `uid-0001`..., wherever they appear as whole words (a name inside
//! an error description included), whatever their case.
//!
//! The rooms, sessions and quality stats beside the events are redacted by the same redactor
//! ([`redacted_with_related`]): a session's peer reads as its events do.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::io::{self, Write};
use std::net::IpAddr;

mod addresses;
mod related;

use crate::output::Format;
use crate::store::{Batch, Store};
pub use addresses::find_addresses;
use addresses::{pool_of, pseudonym_address};
pub use related::{redacted_objects_with_related, redacted_with_related};

/// Replaces what identifies people, consistently across every event it is given.
pub struct Redactor {
    /// Lowercased identity -> pseudonym.
    identities: HashMap<String, String>,
    /// Any identity found as a word (not those replaced only as whole values) with a letter or
    /// digit in it, lowercase, longest first. It runs over lowercased text: a plain literal set matches many times faster than a case-insensitive one.
    pattern: Option<regex::Regex>,
    /// Identities' shortest and longest lengths in bytes (lowercased), to skip lookups.
    lengths: (usize, usize),
    ips: HashMap<IpAddr, IpAddr>,
    /// Addresses of the input: a pseudonym must not be one of them.
    taken_ips: HashSet<IpAddr>,
    /// Pseudonyms handed out so far per pool (see [`Pool`]).
    counters: [u64; 4],
    /// Each string's redaction (None: unchanged). Strings repeat a great deal across events
    /// (agents, messages, room names), and a string's redaction never changes once made.
    done: HashMap<Box<str>, Option<Box<str>>>,
}

/// How many distinct strings [`Redactor::text`] remembers before it starts afresh.
const REMEMBERED: usize = 1 << 20;

#[derive(Clone, Copy)]
enum Kind {
    Name,
    Id,
}

/// Where an address's pseudonym comes from: the family, and whether the address is public.
#[derive(Clone, Copy)]
enum Pool {
    PublicV4 = 0,
    LocalV4 = 1,
    PublicV6 = 2,
    LocalV6 = 3,
}

impl Redactor {
    /// A redactor for these user names and user ids (the first appearance of each, in order,
    /// decides its number). Addresses need no list: each is found where it appears.
    pub fn new<'a>(identities: impl IntoIterator<Item = (&'a str, bool)>) -> Redactor {
        Redactor::with_values(identities, [])
    }

    /// A redactor for `identities`, found wherever they stand as words (as [`Redactor::new`]'s),
    /// and for `values`, replaced only where a string value is one of them whole: the names and
    /// ids that no event holds (a session's other peers), which may be words of the events' own
    /// vocabulary (the recording bot's user id `beam` begins `beam.recording.success`). The
    /// identities are numbered first, then the values.
    pub fn with_values<'a>(
        identities: impl IntoIterator<Item = (&'a str, bool)>,
        values: impl IntoIterator<Item = (&'a str, bool)>,
    ) -> Redactor {
        let mut ordered: Vec<(String, Kind)> = Vec::new();
        let mut seen = HashSet::new();
        let mut words = HashSet::new();
        let tagged = identities
            .into_iter()
            .map(|(text, is_name)| (text, is_name, true))
            .chain(
                values
                    .into_iter()
                    .map(|(text, is_name)| (text, is_name, false)),
            );
        for (text, is_name, anywhere) in tagged {
            if text.trim().is_empty() {
                continue;
            }
            let key = text.to_lowercase();
            if seen.insert(key.clone()) {
                if anywhere {
                    words.insert(key.clone());
                }
                ordered.push((key, if is_name { Kind::Name } else { Kind::Id }));
            }
        }
        let mut identities = HashMap::with_capacity(ordered.len());
        let (mut names, mut ids) = (0u64, 0u64);
        for (key, kind) in &ordered {
            let pseudonym = loop {
                let candidate = match kind {
                    Kind::Name => {
                        names += 1;
                        format!("user-{names:04}")
                    }
                    Kind::Id => {
                        ids += 1;
                        format!("uid-{ids:04}")
                    }
                };
                if !seen.contains(&candidate) {
                    break candidate;
                }
            };
            identities.insert(key.clone(), pseudonym);
        }
        let lengths = (
            identities.keys().map(String::len).min().unwrap_or(0),
            identities.keys().map(String::len).max().unwrap_or(0),
        );
        Redactor {
            pattern: pattern_of(words.iter()),
            identities,
            lengths,
            ips: HashMap::new(),
            taken_ips: HashSet::new(),
            counters: [0; 4],
            done: HashMap::new(),
        }
    }

    /// A redactor for the events `rows` of a store: their user names and ids, and every address
    /// in them kept out of the pseudonyms.
    pub fn for_rows(store: &Store, rows: &[u32]) -> Redactor {
        let mut redactor = Redactor::new(related::identities_of(store, rows));
        redactor.note_rows(store, rows);
        redactor
    }

    /// Marks the addresses in the events `rows` of a store as the input's.
    fn note_rows(&mut self, store: &Store, rows: &[u32]) {
        for &i in rows {
            if let Ok(text) = std::str::from_utf8(store.raw(i as usize)) {
                self.note_addresses(text);
            }
        }
    }

    /// From now on the values given to [`Redactor::with_values`] are found wherever they stand
    /// as words, as the identities are; what was redacted before is redacted again as it comes.
    fn find_values_as_words(&mut self) {
        self.pattern = pattern_of(self.identities.keys());
        self.done.clear();
    }

    /// Marks the addresses in a text as the input's, so that no pseudonym equals one of them.
    pub fn note_addresses(&mut self, text: &str) {
        for (_, _, ip) in find_addresses(text) {
            self.taken_ips.insert(ip);
        }
    }

    /// One string value, redacted (borrowed when nothing in it identifies anyone).
    pub fn text<'t>(&mut self, s: &'t str) -> Cow<'t, str> {
        if let Some(done) = self.done.get(s) {
            return match done {
                None => Cow::Borrowed(s),
                Some(new) => Cow::Owned(new.to_string()),
            };
        }
        let result = self.fresh(s);
        if self.done.len() >= REMEMBERED {
            self.done.clear();
        }
        let remembered = match &result {
            Cow::Borrowed(_) => None,
            Cow::Owned(new) => Some(Box::from(new.as_str())),
        };
        self.done.insert(Box::from(s), remembered);
        result
    }

    fn fresh<'t>(&mut self, s: &'t str) -> Cow<'t, str> {
        let lower = Lowered::of(s);
        if !self.identities.is_empty()
            && (self.lengths.0..=self.lengths.1).contains(&lower.text.len())
        {
            // A value that is an identity as a whole (a punctuation-only name included).
            if let Some(p) = self.identities.get(lower.text.as_ref()) {
                return Cow::Owned(p.clone());
            }
        }
        let named = self.replace_identities(s, &lower);
        let found = find_addresses(&named);
        if found.is_empty() {
            return named;
        }
        let mut out = String::with_capacity(named.len());
        let mut copied = 0;
        for (start, end, ip) in found {
            out.push_str(&named[copied..start]);
            out.push_str(&self.address(ip).to_string());
            copied = end;
        }
        out.push_str(&named[copied..]);
        Cow::Owned(out)
    }

    /// Replaces the identities in `s`, found in its lowercase `lower`.
    fn replace_identities<'t>(&self, s: &'t str, lower: &Lowered<'_>) -> Cow<'t, str> {
        let Some(pattern) = &self.pattern else {
            return Cow::Borrowed(s);
        };
        let mut out = String::new();
        let mut copied = 0;
        let mut at = 0;
        let haystack = lower.text.as_ref();
        while at <= haystack.len() {
            let Some(m) = pattern.find_at(haystack, at) else {
                break;
            };
            let span = lower.original(m.start()).zip(lower.original(m.end()));
            match span {
                Some((start, end)) if whole_word(s, start, end) => {
                    let pseudonym = self
                        .identities
                        .get(m.as_str())
                        .map_or("user-redacted", String::as_str);
                    out.push_str(&s[copied..start]);
                    out.push_str(pseudonym);
                    copied = end;
                    at = m.end().max(m.start() + 1);
                }
                _ => {
                    // A shorter identity may still start inside this match: look again one
                    // character further on.
                    at = m.start()
                        + haystack[m.start()..]
                            .chars()
                            .next()
                            .map_or(1, char::len_utf8);
                }
            }
        }
        if copied == 0 {
            return Cow::Borrowed(s);
        }
        out.push_str(&s[copied..]);
        Cow::Owned(out)
    }

    /// The pseudonym of an address.
    pub fn address(&mut self, ip: IpAddr) -> IpAddr {
        if let Some(p) = self.ips.get(&ip) {
            return *p;
        }
        let pool = pool_of(ip);
        let pseudonym = loop {
            let n = &mut self.counters[pool as usize];
            *n += 1;
            let candidate = pseudonym_address(pool, *n);
            if !self.taken_ips.contains(&candidate) && candidate != ip {
                break candidate;
            }
        };
        self.ips.insert(ip, pseudonym);
        pseudonym
    }

    /// An event's JSON with every string value redacted; everything else is copied as it was.
    /// The input must be valid JSON (as every event of a store is).
    pub fn event(&mut self, raw: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(raw.len() + 16);
        let mut copied = 0;
        let mut i = 0;
        // The last key read, with its quotes.
        let mut key = 0..0;
        while i < raw.len() {
            if raw[i] != b'"' {
                i += 1;
                continue;
            }
            let end = string_end(raw, i);
            let mut after = end;
            while after < raw.len() && raw[after].is_ascii_whitespace() {
                after += 1;
            }
            let is_key = raw.get(after) == Some(&b':');
            if is_key {
                key = i..end;
            } else if let Some(value) = decode(&raw[i..end])
                && !is_version(&raw[key.clone()], &value)
                && let Cow::Owned(new) = self.text(&value)
            {
                out.extend_from_slice(&raw[copied..i]);
                // Writing a String as JSON cannot fail.
                let _ = serde_json::to_writer(&mut out, &new);
                copied = end;
            }
            i = end;
        }
        out.extend_from_slice(&raw[copied..]);
        out
    }
}

/// Whether a string value is a version under a key that says so (`sdk_version`, `os_version`,
/// `version`...): `10.0.1.2` there is no address, and redacting it would change what the
/// output groups by. A value with anything but letters, digits and `.-+_` is redacted as any.
fn is_version(quoted_key: &[u8], value: &str) -> bool {
    let key = quoted_key.strip_suffix(b"\"").unwrap_or(quoted_key);
    key.len() >= 7
        && key[key.len() - 7..].eq_ignore_ascii_case(b"version")
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'_'))
}

/// Whether the text before `at` is a version's key in an agent string's `key:value` list
/// (`...,os_version:10.0.1.2`): what follows is a version, not an address. Only a whole key of
/// the list counts (lowercase letters and `_`, from the list's start or a comma, ending in
/// `_version:`), so that "version: 10.0.0.5" in a message is redacted as any address.
pub(super) fn after_version_key(s: &[u8], at: usize) -> bool {
    let before = &s[..at];
    let Some(key) = before.strip_suffix(b"_version:") else {
        return false;
    };
    let start = key.iter().rposition(|&b| b == b',').map_or(0, |i| i + 1);
    let key = &key[start..];
    !key.is_empty() && key.iter().all(|&b| b.is_ascii_lowercase() || b == b'_')
}

/// The regex that finds identities, or None when there is none to find (or too many to compile,
/// then only whole values are replaced).
fn pattern_of<'a>(identities: impl Iterator<Item = &'a String>) -> Option<regex::Regex> {
    let mut words: Vec<&String> = identities
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect();
    if words.is_empty() {
        return None;
    }
    // Longest first, so that "Ann Lee" is replaced whole rather than as "Ann".
    words.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    let alternation: Vec<String> = words.iter().map(|w| regex::escape(w)).collect();
    regex::RegexBuilder::new(&alternation.join("|"))
        .size_limit(1 << 28)
        .dfa_size_limit(1 << 28)
        .build()
        .ok()
}

/// A text lowercased, and where its characters came from when lowercasing changed their length.
struct Lowered<'a> {
    text: Cow<'a, str>,
    /// (offset in `text`, offset in the original) of every character boundary, when they differ.
    bounds: Option<Vec<(usize, usize)>>,
}

impl Lowered<'_> {
    fn of(s: &str) -> Lowered<'_> {
        let unchanged = |c: char| {
            let mut l = c.to_lowercase();
            l.next() == Some(c) && l.next().is_none()
        };
        if s.chars().all(unchanged) {
            return Lowered {
                text: Cow::Borrowed(s),
                bounds: None,
            };
        }
        let mut text = String::with_capacity(s.len());
        let mut bounds = Vec::new();
        let mut same = true;
        for (at, c) in s.char_indices() {
            bounds.push((text.len(), at));
            text.extend(c.to_lowercase());
            same &= text.len() == at + c.len_utf8();
        }
        bounds.push((text.len(), s.len()));
        Lowered {
            text: Cow::Owned(text),
            bounds: (!same).then_some(bounds),
        }
    }

    /// The original offset of an offset of the lowercase text, if it is a character boundary of
    /// the original.
    fn original(&self, at: usize) -> Option<usize> {
        match &self.bounds {
            None => Some(at),
            Some(bounds) => bounds
                .binary_search_by_key(&at, |&(lower, _)| lower)
                .ok()
                .map(|i| bounds[i].1),
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `s[start..end]` stands as a word: not glued to letters or digits on a side where it
/// itself begins or ends with one.
fn whole_word(s: &str, start: usize, end: usize) -> bool {
    let inner = &s[start..end];
    let glued_before = inner.chars().next().is_some_and(is_word_char)
        && s[..start].chars().next_back().is_some_and(is_word_char);
    let glued_after = inner.chars().next_back().is_some_and(is_word_char)
        && s[end..].chars().next().is_some_and(is_word_char);
    !glued_before && !glued_after
}

/// The index just past the closing quote of the JSON string starting at `start`.
fn string_end(raw: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < raw.len() {
        match raw[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    raw.len()
}

/// A JSON string token's text.
fn decode(token: &[u8]) -> Option<Cow<'_, str>> {
    if token.len() < 2 {
        return None;
    }
    let inner = &token[1..token.len() - 1];
    if !inner.contains(&b'\\') {
        return std::str::from_utf8(inner).ok().map(Cow::Borrowed);
    }
    serde_json::from_slice::<String>(token).ok().map(Cow::Owned)
}

/// The events `rows` of a store, redacted, in a store of their own: its row k is `rows[k]`.
pub fn redacted_store(store: &Store, rows: &[u32]) -> Result<Store, String> {
    store_of(&mut Redactor::for_rows(store, rows), store, rows)
}

/// The events `rows` of a store, redacted by `redactor`, in a store of their own.
fn store_of(redactor: &mut Redactor, store: &Store, rows: &[u32]) -> Result<Store, String> {
    let batch = Batch::of_objects(rows.iter().map(|&i| redactor.event(store.raw(i as usize))))
        .map_err(|e| format!("cannot redact an event: {e}"))?;
    let mut out = Store::new();
    out.merge(batch);
    Ok(out)
}

/// [`crate::output::write_events`], redacted: what `list --redact` and a redacted save write.
pub fn write_events(
    store: &Store,
    rows: &[u32],
    format: Format,
    head: &crate::output::Head,
    out: &mut dyn Write,
) -> io::Result<()> {
    let redacted = redacted_store(store, rows).map_err(io::Error::other)?;
    let all: Vec<u32> = (0..redacted.len() as u32).collect();
    crate::output::write_events(&redacted, &all, format, head, out)
}

#[cfg(test)]
mod tests;
