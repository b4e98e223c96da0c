//! The rows of the track events, and those of each user: what a peer's verdict reads besides
//! its own rows (its own track events and its user's), without going through every row.

use rustc_hash::FxHashMap;

use super::Sym;

/// The rows of the track events that have a time, in load order, and for each user, theirs as
/// a list through them.
#[derive(Debug, Default)]
pub(super) struct Tracks {
    /// The rows, in load order.
    rows: Vec<u32>,
    /// The place in `rows` of each user's last track event.
    last_of_user: FxHashMap<Sym, u32>,
    /// For each place in `rows`, the place of the same user's track event before it
    /// (`u32::MAX` for none, and for an event without a user).
    previous_of_user: Vec<u32>,
}

impl Tracks {
    /// Adds `row`, a track event of `user` (`Sym::NONE` for none), after every row added.
    pub(super) fn push(&mut self, row: u32, user: Sym) {
        let at = u32::try_from(self.rows.len()).expect("fewer than 2^32 track events");
        let previous = if user.is_none() {
            u32::MAX
        } else {
            self.last_of_user.insert(user, at).unwrap_or(u32::MAX)
        };
        self.rows.push(row);
        self.previous_of_user.push(previous);
    }

    /// The rows, in load order.
    pub(super) fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// The rows of `user`'s track events, in load order; none for `Sym::NONE`.
    pub(super) fn of_user(&self, user: Sym) -> Vec<u32> {
        let mut rows = Vec::new();
        let mut at = match self.last_of_user.get(&user) {
            Some(&at) if !user.is_none() => at,
            _ => u32::MAX,
        };
        while at != u32::MAX {
            rows.push(self.rows[at as usize]);
            at = self.previous_of_user[at as usize];
        }
        rows.reverse();
        rows
    }
}

#[cfg(test)]
impl Tracks {
    /// The bytes its rows, its lists through them and its users' last places hold.
    pub(super) fn heap(&self) -> super::footprint::Bytes {
        use super::footprint::Bytes;
        Bytes::of(&self.rows)
            + Bytes::of(&self.previous_of_user)
            + Bytes::hashed::<(Sym, u32)>(self.last_of_user.capacity())
    }
}
