//! Reads an event of the common shape in one validating pass over its JSON: the fields of a
//! [`Probe`] and the place of every string value, as serde's reader and [`strings_of`] would find
//! them together, at a fraction of their cost.
//!
//! "The common shape" is what the service sends: keys without escapes, each known field at most
//! once, known string fields holding text (escapes are unescaped, but one that leaves half a
//! surrogate pair is no text), `data` and `data.agent` objects, `error_code` a plain integer,
//! `is_terminal` a boolean or null. For anything else (and for JSON that is not valid) [`read`]
//! answers `None`, and the caller reads the event the thorough way.
//!
//! [`strings_of`]: super::walk::strings_of

use std::borrow::Cow;

use super::probe::{AgentProbe, DataProbe, LBool, LInt, LStr, Probe};
use super::remembered::{Memo, Met, PREFIX, Remembered, Seen};
use super::walk::{Field, StrAt};

/// Nesting deeper than this is left to the thorough reader (serde's limit is 128).
const MAX_DEPTH: u32 = 100;

/// The probe of the JSON object `text`, with each string value appended to `strings` when given;
/// `None` when `text` is not an event of the common shape (see the module's documentation).
/// `strings` may hold a partial walk after `None`.
pub fn read<'a>(text: &'a str, strings: Option<&mut Vec<StrAt>>) -> Option<Probe<'a>> {
    let mut probe = Probe::default();
    read_into::<(), ()>(text, strings, None, &mut probe)?;
    Some(probe)
}

/// As [`read`], into `probe` (which must be empty, and may hold part of the event after `None`:
/// filled in place, a probe of some hundred bytes is not copied on its way out), and the
/// `data.agent` object and the objects and arrays under other keys of `data` are looked for
/// among `remembered` values, and those found are skipped: their strings are not noted, and a
/// skipped agent leaves the probe's agent empty. `seen` (cleared first) says which values were
/// skipped and where the others stand. A remembered value's bytes were read before in the same
/// place, so they are valid there.
pub fn read_into<'a, A, V>(
    text: &'a str,
    strings: Option<&mut Vec<StrAt>>,
    remembered: Option<(&Remembered<A, V>, &mut Seen)>,
    probe: &mut Probe<'a>,
) -> Option<()> {
    let mut r = Reader {
        b: text.as_bytes(),
        i: 0,
        depth: 0,
        strings,
        remembered,
    };
    if let Some((_, seen)) = &mut r.remembered {
        seen.clear();
    }
    r.ws();
    if r.peek()? != b'{' {
        return None;
    }
    r.event(probe)?;
    r.ws();
    (r.i == r.b.len()).then_some(())
}

struct Reader<'a, 's, A, V> {
    b: &'a [u8],
    i: usize,
    depth: u32,
    strings: Option<&'s mut Vec<StrAt>>,
    remembered: Option<(&'s Remembered<A, V>, &'s mut Seen)>,
}

/// Sets a known string field; `None` when it was set already.
fn set<'a>(slot: &mut LStr<'a>, value: Cow<'a, [u8]>) -> Option<()> {
    if slot.0.is_some() {
        return None;
    }
    slot.0 = Some(value);
    Some(())
}

/// Marks a field seen; `None` when it was seen already.
fn first(seen: &mut u32, bit: u32) -> Option<()> {
    let mask = 1 << bit;
    if *seen & mask != 0 {
        return None;
    }
    *seen |= mask;
    Some(())
}

impl<'a, A, V> Reader<'a, '_, A, V> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.i += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.ws();
        (self.peek()? == byte).then(|| self.i += 1)
    }

    /// The top-level object, `{` next.
    fn event(&mut self, p: &mut Probe<'a>) -> Option<()> {
        let mut data_seen = false;
        self.members(|r, key| match Field::of_root(key) {
            Field::Id => set(&mut p.id, r.plain_string(Field::Id)?),
            Field::Timestamp => set(&mut p.timestamp, r.plain_string(Field::Timestamp)?),
            Field::Type => set(&mut p.kind, r.plain_string(Field::Type)?),
            Field::Data => {
                if std::mem::replace(&mut data_seen, true) || r.peek()? != b'{' {
                    return None;
                }
                r.data(p.data.0.insert(DataProbe::default()))
            }
            _ => r.value(Field::Other),
        })
    }

    fn data(&mut self, d: &mut DataProbe<'a>) -> Option<()> {
        let mut seen = 0u32;
        self.members(|r, key| {
            let field = Field::of_data(key);
            let slot = match field {
                Field::UserId => &mut d.user_id,
                Field::UserName => &mut d.user_name,
                Field::PeerId => &mut d.peer_id,
                Field::RoomId => &mut d.room_id,
                Field::RoomName => &mut d.room_name,
                Field::SessionId => &mut d.session_id,
                Field::Role => &mut d.role,
                Field::ErrorName => &mut d.error_name,
                Field::ErrorMessage => &mut d.error_message,
                Field::Action => &mut d.action,
                Field::Domain => &mut d.domain,
                Field::ErrorCode => {
                    first(&mut seen, 0)?;
                    d.error_code = LInt(Some(r.integer()?));
                    return Some(());
                }
                Field::IsTerminal => {
                    first(&mut seen, 1)?;
                    d.is_terminal = LBool(r.boolean()?);
                    return Some(());
                }
                Field::Agent => {
                    first(&mut seen, 2)?;
                    if r.peek()? != b'{' {
                        return None;
                    }
                    if let Some(k) = r.skip_known(|m| &m.agents) {
                        r.met(|seen| seen.agent = Some(Met::Known(k)));
                        return Some(());
                    }
                    let start = r.i;
                    r.agent(d.agent.0.insert(AgentProbe::default()))?;
                    let read = Met::Read(start..r.i);
                    r.met(|seen| seen.agent = Some(read));
                    return Some(());
                }
                _ => return r.data_value(field),
            };
            set(slot, r.plain_string(field)?)
        })
    }

    fn agent(&mut self, a: &mut AgentProbe<'a>) -> Option<()> {
        self.members(|r, key| {
            let field = Field::of_agent(key);
            let slot = match field {
                Field::Sdk => &mut a.sdk,
                Field::SdkVersion => &mut a.sdk_version,
                Field::DeviceModel => &mut a.device_model,
                Field::Os => &mut a.os,
                Field::OsVersion => &mut a.os_version,
                Field::AgentDomain => &mut a.domain,
                Field::AgentString => &mut a.string,
                _ => return r.value(Field::Other),
            };
            set(slot, r.plain_string(field)?)
        })
    }

    /// The remembered value of `memo`'s kind that stands at the cursor, skipped.
    fn skip_known<T>(&mut self, memo: impl FnOnce(&Remembered<A, V>) -> &Memo<T>) -> Option<u32> {
        let (remembered, _) = self.remembered.as_ref()?;
        let (k, len) = memo(remembered).find(&self.b[self.i..])?;
        self.i += len;
        Some(k)
    }

    /// Notes what was met, when remembered values are looked for.
    fn met(&mut self, note: impl FnOnce(&mut Seen)) {
        if let Some((_, seen)) = &mut self.remembered {
            note(seen);
        }
    }

    /// The value of a key of `data` that no field holds: an object or an array long enough to
    /// be remembered is looked for among the remembered values first.
    fn data_value(&mut self, field: Field) -> Option<()> {
        if self.remembered.is_none() || !matches!(self.peek()?, b'{' | b'[') {
            return self.value(field);
        }
        if let Some(k) = self.skip_known(|m| &m.values) {
            self.met(|seen| seen.values.push(Met::Known(k)));
            return Some(());
        }
        let start = self.i;
        self.value(field)?;
        if self.i - start >= PREFIX {
            let read = Met::Read(start..self.i);
            self.met(|seen| seen.values.push(read));
        }
        Some(())
    }

    /// Reads the object that opens at the cursor, calling `member(reader, key)` with the cursor
    /// on each member's value (which it must read).
    fn members(&mut self, mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            self.ws();
            if self.peek()? != b'"' {
                return None;
            }
            let (start, end, escaped) = self.string()?;
            // A key spelled with an escape could be any field's.
            if escaped {
                return None;
            }
            let key = &self.b[start + 1..end - 1];
            self.expect(b':')?;
            self.ws();
            member(self, key)?;
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    self.depth -= 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A known string field's value, noted as standing at `field`; `None` unless it is a string
    /// that is text (an escape may not leave half a surrogate pair).
    fn plain_string(&mut self, field: Field) -> Option<Cow<'a, [u8]>> {
        if self.peek()? != b'"' {
            return None;
        }
        let (start, end, escaped) = self.string()?;
        let value = if escaped {
            // Rare: a name written with `\u` escapes, as some JSON writers do for all but ASCII.
            let text: String = serde_json::from_slice(&self.b[start..end]).ok()?;
            Cow::Owned(text.into_bytes())
        } else {
            Cow::Borrowed(&self.b[start + 1..end - 1])
        };
        self.note(field, start, end, escaped);
        Some(value)
    }

    fn note(&mut self, field: Field, start: usize, end: usize, escaped: bool) {
        let Some(strings) = self.strings.as_deref_mut() else {
            return;
        };
        strings.push(StrAt {
            field,
            start: start as u32,
            end: end as u32,
            escaped,
        });
    }

    /// Any JSON value at the cursor; a string is noted as standing at `field`, and the values
    /// within an object or array as standing elsewhere.
    fn value(&mut self, field: Field) -> Option<()> {
        match self.peek()? {
            b'"' => {
                let (start, end, escaped) = self.string()?;
                self.note(field, start, end, escaped);
                Some(())
            }
            b'{' => self.members(|r, _| r.value(Field::Other)),
            b'[' => self.array(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number().map(drop),
        }
    }

    fn array(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        if self.peek()? != b']' {
            loop {
                self.ws();
                self.value(Field::Other)?;
                self.ws();
                match self.peek()? {
                    b',' => self.i += 1,
                    b']' => break,
                    _ => return None,
                }
            }
        }
        self.i += 1;
        self.depth -= 1;
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.b[self.i..]
            .starts_with(word)
            .then(|| self.i += word.len())
    }

    /// A JSON number at the cursor, by the grammar; answers whether it is written as an integer
    /// (no fraction, no exponent).
    fn number(&mut self) -> Option<bool> {
        let b = self.b;
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return None,
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            let digits = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == digits {
                return None;
            }
        }
        if let Some(b'e' | b'E') = b.get(i) {
            integer = false;
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let digits = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == digits {
                return None;
            }
        }
        self.i = i;
        Some(integer)
    }

    /// `error_code`: an integer written plainly that fits an `i64` (anything else is left to the
    /// thorough reader, which knows integral floats and numbers of every size).
    fn integer(&mut self) -> Option<i64> {
        let start = self.i;
        if !self.number()? {
            return None;
        }
        let digits = &self.b[start..self.i];
        // Up to 18 digits always fit.
        if digits.len() > 18 {
            return None;
        }
        std::str::from_utf8(digits).ok()?.parse().ok()
    }

    /// `is_terminal`: a boolean, or `None` for null.
    fn boolean(&mut self) -> Option<Option<bool>> {
        match self.peek()? {
            b't' => self.literal(b"true").map(|()| Some(true)),
            b'f' => self.literal(b"false").map(|()| Some(false)),
            b'n' => self.literal(b"null").map(|()| None),
            _ => None,
        }
    }

    /// The string that opens at the cursor, validated (escapes, no control characters): its
    /// start, one past its closing quote, and whether it holds an escape. Moves past it.
    #[inline]
    fn string(&mut self) -> Option<(usize, usize, bool)> {
        let b = self.b;
        let start = self.i;
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            i = next_stop(b, i);
            match *b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some((start, i + 1, escaped));
                }
                b'\\' => {
                    escaped = true;
                    match *b.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                        b'u' => {
                            let hex = b.get(i + 2..i + 6)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            i += 6;
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }
}

/// Where the first quote, backslash or control character at or after `i` stands in `b` (its
/// length when there is none): sixteen bytes at a time, then eight, then one.
#[inline]
pub fn next_stop(b: &[u8], mut i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        while i + 16 <= b.len() {
            // SAFETY: SSE2 is part of every x86_64 processor, and the sixteen bytes loaded,
            // `i..i + 16`, are within `b` (an unaligned load has no other requirement).
            let stops = unsafe {
                let x = _mm_loadu_si128(b.as_ptr().add(i).cast());
                let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
                // x <= 0x1f, unsigned.
                let control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x);
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control))
            };
            if stops != 0 {
                return i + stops.trailing_zeros() as usize;
            }
            i += 16;
        }
    }
    next_stop_near_end(b, i)
}

/// [`next_stop`] in the last fifteen bytes of `b` (or all of them where the processor reads
/// sixteen at a time in no other way): out of line on x86_64, so that the reading of each string
/// does not set up its constants. Elsewhere it reads every string, and is left to the compiler.
#[cfg_attr(target_arch = "x86_64", cold, inline(never))]
fn next_stop_near_end(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let zero_in = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
        let quote = zero_in(x ^ (ONES * u64::from(b'"')));
        let backslash = zero_in(x ^ (ONES * u64::from(b'\\')));
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        let stops = quote | backslash | control;
        if stops != 0 {
            // The lowest flag is exact (borrows only carry upwards).
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if matches!(c, b'"' | b'\\' | 0x00..=0x1f) {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests;
