//! Which of a store's symbols name something: an empty `peer_id` or `room_id` names no peer or
//! room, as an absent one does (events of different people can carry an empty peer id). The
//! chains and the groups' PEERS and ROOMS read ids through it.

use crate::store::{Store, Sym};

/// The symbol of `""` in a store, if it holds one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Named(Option<Sym>);

impl Named {
    pub(super) fn of(store: &Store) -> Named {
        Named(store.strings().lookup(""))
    }

    /// `sym`, or [`Sym::NONE`] when it is the empty string.
    pub(super) fn or_none(self, sym: Sym) -> Sym {
        if Some(sym) == self.0 { Sym::NONE } else { sym }
    }

    /// Whether `sym` names something: neither absent nor empty.
    pub(super) fn names(self, sym: Sym) -> bool {
        !sym.is_none() && Some(sym) != self.0
    }

    /// `sym` when it names something.
    pub(super) fn named(self, sym: Sym) -> Option<Sym> {
        self.names(sym).then_some(sym)
    }
}
