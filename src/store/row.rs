//! What the store keeps of each event beside its JSON: a compact row of the fields that filters,
//! groups and the list read, and where in the JSON the text search finds what a row does not
//! hold.

use super::search::Bigrams;
use super::{AgentId, Sym};

/// `Row::ts` of an event without a readable timestamp.
pub const NO_TIME: i64 = i64::MIN;

/// `Row::terminal` values.
pub const TERMINAL_ABSENT: u8 = 0;
pub const TERMINAL_FALSE: u8 = 1;
pub const TERMINAL_TRUE: u8 = 2;

/// What the store knows of one event without re-reading its JSON.
///
/// The event's fields are public for filters, groups and views to read in their scans: the store
/// hands rows out by shared reference only, so outside it they are read, never written. Where the
/// event's JSON is, and what the text search indexed of it, are the store's own.
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// Nanoseconds since the epoch, or [`NO_TIME`].
    pub ts: i64,
    /// The event's `error_code` when `has_code` (see [`Row::error_code`]): an `i64` and a flag
    /// where an `Option<i64>` would take 16 bytes.
    code: i64,
    has_code: bool,
    /// Where the event's JSON is: `blobs[blob][offset..offset + len]`.
    pub(in crate::store) offset: u64,
    pub(in crate::store) len: u32,
    pub(in crate::store) blob: u32,
    pub kind: Sym,
    pub terminal: u8,
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
    /// The text search must read the event's whole JSON: it holds a value that could not be
    /// indexed (an escape that is not valid text, a value too far into a long event) or that
    /// was not worth keeping (a long value where long values do not repeat).
    pub(in crate::store) search_raw: bool,
    /// The located id is a canonical UUID, and the timestamp is written with digits and
    /// `T:.Z+-` only: a search text with other characters cannot be in them.
    pub(in crate::store) id_is_uuid: bool,
    pub(in crate::store) ts_is_plain: bool,
    /// The located description holds an escape.
    pub(in crate::store) description_escaped: bool,
    /// How the located timestamp is spelled from `ts`, when it is spelled the usual way: its
    /// number of fraction digits (see `spelled::timestamp_digits`). Here rather than in
    /// [`Located`]: it fits in what the row's alignment leaves free.
    pub(in crate::store) ts_digits: Option<u8>,
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

    /// The event's `error_code`, when it has one.
    pub fn error_code(&self) -> Option<i64> {
        self.has_code.then_some(self.code)
    }

    pub(in crate::store) fn set_error_code(&mut self, code: Option<i64>) {
        self.code = code.unwrap_or(0);
        self.has_code = code.is_some();
    }

    pub fn is_terminal(&self) -> Option<bool> {
        match self.terminal {
            TERMINAL_TRUE => Some(true),
            TERMINAL_FALSE => Some(false),
            _ => None,
        }
    }
}
