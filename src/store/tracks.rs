//! The rows of the track events, and those of each user: what a peer's verdict reads besides
//! its own rows (its own track events and its user's), without going through every row.

use super::Sym;
use super::chains::{Chains, Hashed};

/// The rows of the track events that have a time, in load order, and for each user, theirs as
/// a list through them.
#[derive(Debug, Default)]
pub(super) struct Tracks {
    /// The rows, in load order.
    rows: Vec<u32>,
    /// The places in `rows` of each user's track events. Their last places are kept in a map:
    /// few of a store's strings are users with track events, and a list by symbol would take
    /// four bytes for each string (2.9 million at five million generated events).
    users: Chains<Hashed>,
}

impl Tracks {
    /// Adds `row`, a track event of `user` (`Sym::NONE` for none), after every row added.
    pub(super) fn push(&mut self, row: u32, user: Sym) {
        self.rows.push(row);
        self.users.push(user);
    }

    /// The rows, in load order.
    pub(super) fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// The rows of `user`'s track events, in load order; none for `Sym::NONE`.
    pub(super) fn of_user(&self, user: Sym) -> Vec<u32> {
        let mut rows = self.users.of(user);
        for at in &mut rows {
            *at = self.rows[*at as usize];
        }
        rows
    }
}

#[cfg(test)]
impl Tracks {
    /// The bytes its rows, its lists through them and its users' last places hold.
    pub(super) fn heap(&self) -> super::footprint::Bytes {
        use super::footprint::Bytes;
        Bytes::of(&self.rows)
            + Bytes::of(&self.users.previous)
            + Bytes::hashed::<(Sym, u32)>(self.users.last.capacity())
    }
}
