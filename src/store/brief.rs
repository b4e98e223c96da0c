//! Each row's type and `is_terminal` in one byte, beside the rows: a filter of types and of
//! final or retried errors (the explorer's keys 1-5 and `t`) reads five megabytes at five
//! million events where the rows themselves are half a gigabyte (a row of 104 bytes spans two or
//! three cache lines).

use rustc_hash::FxHashMap;

use super::{Row, Sym};
use crate::filter::Plan;

/// The kind number of a row whose type is not among the first [`OTHER`] types of the store:
/// the row itself tells.
const OTHER: u8 = 63;
/// Where the row's `is_terminal` starts in its byte: `0b00` none, `0b10` false, `0b11` true.
const TERMINAL_SHIFT: u32 = 6;

/// The byte of each row, and the types they number.
#[derive(Debug, Default)]
pub(super) struct Briefs {
    bytes: Vec<u8>,
    /// The types numbered, by their number.
    kinds: Vec<Sym>,
    numbers: FxHashMap<Sym, u8>,
}

impl Briefs {
    /// Notes the byte of the next row.
    pub fn push(&mut self, row: &Row) {
        let kind = match self.numbers.get(&row.kind) {
            Some(&k) => k,
            None if self.kinds.len() < usize::from(OTHER) => {
                let k = self.kinds.len() as u8;
                self.kinds.push(row.kind);
                self.numbers.insert(row.kind, k);
                k
            }
            None => OTHER,
        };
        let terminal = match row.is_terminal() {
            None => 0b00,
            Some(false) => 0b10,
            Some(true) => 0b11,
        };
        self.bytes.push(kind | terminal << TERMINAL_SHIFT);
    }

    pub fn reserve(&mut self, n: usize) {
        self.bytes.reserve(n);
    }

    /// Row `i`'s byte.
    pub fn get(&self, i: usize) -> u8 {
        self.bytes[i]
    }

    /// The bytes it holds, for the footprint of a store.
    #[cfg(test)]
    pub fn heap(&self) -> super::footprint::Bytes {
        super::footprint::Bytes::of(&self.bytes) + super::footprint::Bytes::of(&self.kinds)
    }
}

/// What a row's byte says of it under a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// It does not match: its type or its `is_terminal` is not one the plan asks for.
    Out,
    /// It matches: its type and `is_terminal` are all the plan asks about, and they pass.
    In,
    /// The row must be read through the plan.
    Read,
}

/// A plan's verdict on every byte a row can have, for a plan that asks for types or final or
/// retried errors.
#[derive(Debug)]
pub(super) struct Sieve([Verdict; 256]);

impl Sieve {
    /// The sieve of `plan` over the bytes of `briefs`; `None` when the plan asks nothing of
    /// the type nor of `is_terminal` (every byte would be read).
    pub fn of(plan: &Plan<Sym>, briefs: &Briefs) -> Option<Sieve> {
        let types = plan.types();
        let terminal = plan.terminal();
        if types.is_none() && terminal.is_none() {
            return None;
        }
        let only = plan.only_types_and_terminal();
        let mut verdicts = [Verdict::Read; 256];
        for (byte, verdict) in verdicts.iter_mut().enumerate() {
            let kind = byte as u8 & OTHER;
            let kind_passes = match types {
                None => Some(true),
                Some(_) if kind == OTHER => None,
                Some(types) => Some(
                    briefs
                        .kinds
                        .get(usize::from(kind))
                        // An event without a type has none of the types asked for.
                        .is_some_and(|k| !k.is_none() && types.contains(k)),
                ),
            };
            let has = match byte >> TERMINAL_SHIFT {
                0b00 => None,
                0b10 => Some(false),
                0b11 => Some(true),
                // No row has this byte.
                _ => continue,
            };
            let terminal_passes = terminal.is_none_or(|want| has == Some(want));
            *verdict = match kind_passes {
                Some(false) => Verdict::Out,
                _ if !terminal_passes => Verdict::Out,
                Some(true) if only => Verdict::In,
                _ => Verdict::Read,
            };
        }
        Some(Sieve(verdicts))
    }

    /// The verdict on a row of this byte.
    pub fn verdict(&self, byte: u8) -> Verdict {
        self.0[usize::from(byte)]
    }
}
