//! What the store keeps of each event beside its JSON: a compact row of the fields that filters,
//! groups and the list read, and where in the JSON the text search finds what a row does not
//! hold.

use super::search::Bigrams;
use super::{AgentId, Sym};

/// `Row::ts` of an event without a readable timestamp.
pub const NO_TIME: i64 = i64::MIN;

/// The bits of `Row::flags`: the event's own (`error_code` present, `is_terminal`), and what the
/// text search knows of the strings the row locates. One `u16` where a `bool` each and an
/// `Option<u8>` took eight bytes, which left the row 8 bytes longer than its fields.
mod flag {
    /// The event has an `error_code` (see `Row::error_code`).
    pub const HAS_CODE: u16 = 1 << 0;
    /// `is_terminal` is present (`TERMINAL` holds its value).
    pub const HAS_TERMINAL: u16 = 1 << 1;
    pub const TERMINAL: u16 = 1 << 2;
    pub const SEARCH_RAW: u16 = 1 << 3;
    pub const ID_IS_UUID: u16 = 1 << 4;
    pub const TS_IS_PLAIN: u16 = 1 << 5;
    pub const DESCRIPTION_ESCAPED: u16 = 1 << 6;
    /// `ts_digits + 1` in four bits from here, 0 for none.
    pub const TS_DIGITS_SHIFT: u32 = 7;
    pub const TS_DIGITS: u16 = 0b1111 << TS_DIGITS_SHIFT;
}

/// The most fraction digits `Row::ts_digits` keeps (four bits hold it plus one; a timestamp is
/// spelled with at most nine).
const TS_DIGITS_MAX: u8 = 14;

/// What the store knows of one event without re-reading its JSON.
///
/// The event's fields are public for filters, groups and views to read in their scans: the store
/// hands rows out by shared reference only, so outside it they are read, never written. Where the
/// event's JSON is, and what the text search indexed of it, are the store's own.
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// Nanoseconds since the epoch, or [`NO_TIME`].
    pub ts: i64,
    /// The event's `error_code` when the flags say it has one (see [`Row::error_code`]): an
    /// `i64` and a bit where an `Option<i64>` would take 16 bytes. Every `i64` is a code, 0 and
    /// the limits included.
    code: i64,
    /// Where the event's JSON is: `blobs[blob][offset..offset + len]`.
    pub(in crate::store) offset: u64,
    pub(in crate::store) len: u32,
    pub(in crate::store) blob: u32,
    pub kind: Sym,
    pub room_id: Sym,
    pub room_name: Sym,
    pub session_id: Sym,
    pub peer_id: Sym,
    pub user_id: Sym,
    pub user_name: Sym,
    pub role: Sym,
    pub error_name: Sym,
    /// `Sym::NONE` for a long message where long values do not repeat: only the search reads
    /// it, and reads that event's JSON instead (`search_raw`).
    pub error_message: Sym,
    pub action: Sym,
    pub domain: Sym,
    /// The fields of the event's `data.agent`, kept once per distinct agent in the store
    /// (read them with [`super::Store::agent`]).
    pub agent: AgentId,
    /// The event's other string values, as a set in [`super::Store::sets`] (for the text search).
    pub(in crate::store) others: u32,
    /// Where the quoted `id`, `timestamp` and `data.error_description` strings stand in the
    /// event's JSON: values too varied to intern, which the text search reads in place.
    pub(in crate::store) id_at: Span,
    pub(in crate::store) ts_at: Span,
    pub(in crate::store) description_at: Span,
    /// The bits of `flag`, read and written through the methods named after them.
    flags: u16,
}

/// What the text search knows of the three strings a row locates in place, which spares it
/// reading them from the dump. Kept beside the rows, not in them: only a search reads it, and
/// the scans of filters and groups stay as short as the rows.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::store) struct Located {
    /// The id's sixteen bytes when it is a canonical UUID (`Row::id_is_uuid`): the search
    /// spells it out again.
    pub id_uuid: [u8; 16],
    /// The pairs of characters of the description, which rule most search texts out without
    /// reading it (`Bigrams::ALL` when they cannot be trusted to).
    pub description_bigrams: Bigrams,
}

/// A string's place within its event's JSON; a length of 0 means none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::store) struct Span {
    at: u16,
    len: u16,
}

impl Span {
    /// The span of `start..end`, `None` when it does not fit.
    pub fn new(start: usize, end: usize) -> Option<Span> {
        Some(Span {
            at: u16::try_from(start).ok()?,
            len: u16::try_from(end - start).ok()?,
        })
    }

    pub fn is_none(self) -> bool {
        self.len == 0
    }

    /// Where it starts in the event's JSON.
    pub fn start(self) -> usize {
        self.at as usize
    }

    /// Whether `value` is the very text between its quotes in the event's JSON `raw` (not
    /// only equal to it: the same bytes in memory).
    pub fn holds(self, raw: &[u8], value: &[u8]) -> bool {
        self.of(raw)
            .and_then(|quoted| quoted.get(1..quoted.len().checked_sub(1)?))
            .is_some_and(|inner| {
                std::ptr::eq(inner.as_ptr(), value.as_ptr()) && inner.len() == value.len()
            })
    }

    /// Its bytes in the event's JSON `raw`.
    pub fn of(self, raw: &[u8]) -> Option<&[u8]> {
        let start = self.at as usize;
        (self.len > 0).then(|| raw.get(start..start + self.len as usize))?
    }
}

impl Row {
    /// The interned string fields other than `kind`, for remapping (the agent's are its
    /// agent's).
    pub(super) fn syms_mut(&mut self) -> [&mut Sym; 11] {
        [
            &mut self.room_id,
            &mut self.room_name,
            &mut self.session_id,
            &mut self.peer_id,
            &mut self.user_id,
            &mut self.user_name,
            &mut self.role,
            &mut self.error_name,
            &mut self.error_message,
            &mut self.action,
            &mut self.domain,
        ]
    }

    /// The interned string fields that hold a value of the event as it was written, but for
    /// its agent's (see [`super::Agent::value_syms`]; `kind` is apart).
    pub fn value_syms(&self) -> [Sym; 11] {
        [
            self.room_id,
            self.room_name,
            self.session_id,
            self.peer_id,
            self.user_id,
            self.user_name,
            self.role,
            self.error_name,
            self.error_message,
            self.action,
            self.domain,
        ]
    }

    fn flag(&self, bit: u16) -> bool {
        self.flags & bit != 0
    }

    fn set_flag(&mut self, bit: u16, on: bool) {
        if on {
            self.flags |= bit;
        } else {
            self.flags &= !bit;
        }
    }

    /// The event's `error_code`, when it has one.
    pub fn error_code(&self) -> Option<i64> {
        self.flag(flag::HAS_CODE).then_some(self.code)
    }

    pub(in crate::store) fn set_error_code(&mut self, code: Option<i64>) {
        self.code = code.unwrap_or(0);
        self.set_flag(flag::HAS_CODE, code.is_some());
    }

    /// The event's `is_terminal`, when it has one.
    pub fn is_terminal(&self) -> Option<bool> {
        self.flag(flag::HAS_TERMINAL)
            .then(|| self.flag(flag::TERMINAL))
    }

    pub(in crate::store) fn set_terminal(&mut self, terminal: Option<bool>) {
        self.set_flag(flag::HAS_TERMINAL, terminal.is_some());
        self.set_flag(flag::TERMINAL, terminal == Some(true));
    }

    /// The text search must read the event's whole JSON: it holds a value that could not be
    /// indexed (an escape that is not valid text, a value too far into a long event) or that
    /// was not worth keeping (a long value where long values do not repeat).
    pub(in crate::store) fn search_raw(&self) -> bool {
        self.flag(flag::SEARCH_RAW)
    }

    pub(in crate::store) fn set_search_raw(&mut self, on: bool) {
        self.set_flag(flag::SEARCH_RAW, on);
    }

    /// The located id is a canonical UUID: a search text with other characters cannot be in
    /// it.
    pub(in crate::store) fn id_is_uuid(&self) -> bool {
        self.flag(flag::ID_IS_UUID)
    }

    pub(in crate::store) fn set_id_is_uuid(&mut self, on: bool) {
        self.set_flag(flag::ID_IS_UUID, on);
    }

    /// The located timestamp is written with digits and `T:.Z+-` only: a search text with
    /// other characters cannot be in it.
    pub(in crate::store) fn ts_is_plain(&self) -> bool {
        self.flag(flag::TS_IS_PLAIN)
    }

    pub(in crate::store) fn set_ts_is_plain(&mut self, on: bool) {
        self.set_flag(flag::TS_IS_PLAIN, on);
    }

    /// The located description holds an escape.
    pub(in crate::store) fn description_escaped(&self) -> bool {
        self.flag(flag::DESCRIPTION_ESCAPED)
    }

    pub(in crate::store) fn set_description_escaped(&mut self, on: bool) {
        self.set_flag(flag::DESCRIPTION_ESCAPED, on);
    }

    /// How the located timestamp is spelled from `ts`, when it is spelled the usual way: its
    /// number of fraction digits (see `spelled::timestamp_digits`).
    pub(in crate::store) fn ts_digits(&self) -> Option<u8> {
        let kept = (self.flags & flag::TS_DIGITS) >> flag::TS_DIGITS_SHIFT;
        (kept > 0).then(|| kept as u8 - 1)
    }

    /// Notes how the timestamp is spelled. More digits than [`TS_DIGITS_MAX`] (no timestamp
    /// has them) are noted as none: the search then reads the located timestamp, as it does
    /// for any timestamp spelled another way.
    pub(in crate::store) fn set_ts_digits(&mut self, digits: Option<u8>) {
        let kept = digits
            .filter(|&d| d <= TS_DIGITS_MAX)
            .map_or(0, |d| u16::from(d) + 1);
        self.flags = self.flags & !flag::TS_DIGITS | kept << flag::TS_DIGITS_SHIFT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything a row keeps in its flags and its code, as set.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Kept {
        code: Option<i64>,
        terminal: Option<bool>,
        search_raw: bool,
        id_is_uuid: bool,
        ts_is_plain: bool,
        description_escaped: bool,
        ts_digits: Option<u8>,
    }

    fn read(row: &Row) -> Kept {
        Kept {
            code: row.error_code(),
            terminal: row.is_terminal(),
            search_raw: row.search_raw(),
            id_is_uuid: row.id_is_uuid(),
            ts_is_plain: row.ts_is_plain(),
            description_escaped: row.description_escaped(),
            ts_digits: row.ts_digits(),
        }
    }

    /// Sets every part, in the order given or reversed.
    fn write(row: &mut Row, k: Kept, reversed: bool) {
        type Step = Box<dyn Fn(&mut Row)>;
        let mut steps: Vec<Step> = vec![
            Box::new(move |r| r.set_error_code(k.code)),
            Box::new(move |r| r.set_terminal(k.terminal)),
            Box::new(move |r| r.set_search_raw(k.search_raw)),
            Box::new(move |r| r.set_id_is_uuid(k.id_is_uuid)),
            Box::new(move |r| r.set_ts_is_plain(k.ts_is_plain)),
            Box::new(move |r| r.set_description_escaped(k.description_escaped)),
            Box::new(move |r| r.set_ts_digits(k.ts_digits)),
        ];
        if reversed {
            steps.reverse();
        }
        for step in steps {
            step(row);
        }
    }

    /// Every value each part can take that the others could disturb.
    fn every_combination() -> Vec<Kept> {
        let codes = [
            None,
            Some(0),
            Some(-1),
            Some(1),
            Some(i64::MIN),
            Some(i64::MAX),
        ];
        let terminals = [None, Some(false), Some(true)];
        let digits = (0..=TS_DIGITS_MAX).map(Some).chain([None]);
        let mut all = Vec::new();
        for code in codes {
            for terminal in terminals {
                for bits in 0..16u8 {
                    for ts_digits in digits.clone() {
                        all.push(Kept {
                            code,
                            terminal,
                            search_raw: bits & 1 != 0,
                            id_is_uuid: bits & 2 != 0,
                            ts_is_plain: bits & 4 != 0,
                            description_escaped: bits & 8 != 0,
                            ts_digits,
                        });
                    }
                }
            }
        }
        all
    }

    #[test]
    fn every_combination_of_flags_and_codes_reads_back_as_set() {
        let all = every_combination();
        // Each written on a fresh row, and over each other value (a row whose every bit is set,
        // then one whose every bit is clear), in both orders: no part spills into another, and
        // setting one clears what it held before.
        let full = Row {
            flags: u16::MAX,
            code: -1,
            ..Row::default()
        };
        for &k in &all {
            for reversed in [false, true] {
                for start in [Row::default(), full.clone()] {
                    let mut row = start;
                    write(&mut row, k, reversed);
                    assert_eq!(read(&row), k, "reversed: {reversed}");
                }
            }
        }
        // And one after another on the same row.
        let mut row = Row::default();
        for (&k, &before) in all.iter().zip(all.iter().rev()) {
            write(&mut row, before, false);
            write(&mut row, k, true);
            assert_eq!(read(&row), k);
        }
    }

    #[test]
    fn an_absent_code_is_not_code_zero_and_the_limits_are_codes() {
        let mut row = Row::default();
        assert_eq!(row.error_code(), None, "a new row has no code");
        row.set_error_code(Some(0));
        assert_eq!(row.error_code(), Some(0));
        row.set_error_code(None);
        assert_eq!(row.error_code(), None);
        for code in [i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1] {
            row.set_error_code(Some(code));
            assert_eq!(row.error_code(), Some(code));
        }
    }

    #[test]
    fn a_new_row_has_no_flag_set() {
        let row = Row::default();
        assert_eq!(
            read(&row),
            Kept {
                code: None,
                terminal: None,
                search_raw: false,
                id_is_uuid: false,
                ts_is_plain: false,
                description_escaped: false,
                ts_digits: None,
            }
        );
    }

    #[test]
    fn more_fraction_digits_than_a_row_keeps_are_noted_as_none() {
        let mut row = Row::default();
        for digits in [TS_DIGITS_MAX + 1, 20, u8::MAX] {
            row.set_ts_digits(Some(3));
            row.set_ts_digits(Some(digits));
            assert_eq!(row.ts_digits(), None, "{digits}");
        }
    }
}
