//! Items numbered in the order they are added, each under a key (a peer, a user), and each key's
//! items as a list through them: the last item of each key, and beside each item the one before
//! it of the same key. A key's items are read by following its list back from the last, not by
//! going through every item. Where each key's last item is kept is the user's choice
//! ([`Lasts`]): in a list by symbol when most symbols are keys, in a map when few are.

use rustc_hash::FxHashMap;

use super::Sym;

/// No item: the end of a list.
const END: u32 = u32::MAX;

/// Where the last item of each key is kept.
pub(super) trait Lasts: Default {
    /// Makes `item` the last of `key` (never `Sym::NONE`), and gives the one it follows
    /// ([`END`] for none).
    fn replace(&mut self, key: Sym, item: u32) -> u32;

    /// The last item of `key` ([`END`] for none).
    fn last(&self, key: Sym) -> u32;
}

/// In a list indexed by symbol: symbols are dense, so where most of them are keys (the peer ids
/// of every row) it costs less than a map.
#[derive(Debug, Default)]
pub(super) struct BySymbol(pub(super) Vec<u32>);

impl Lasts for BySymbol {
    fn replace(&mut self, key: Sym, item: u32) -> u32 {
        let at = key.0 as usize;
        if at >= self.0.len() {
            self.0.resize((at + 1).next_power_of_two(), END);
        }
        std::mem::replace(&mut self.0[at], item)
    }

    fn last(&self, key: Sym) -> u32 {
        self.0.get(key.0 as usize).copied().unwrap_or(END)
    }
}

/// In a hash map: where few symbols are keys (the users of track events, among millions of
/// strings), a list by symbol would be mostly empty.
pub(super) type Hashed = FxHashMap<Sym, u32>;

impl Lasts for Hashed {
    fn replace(&mut self, key: Sym, item: u32) -> u32 {
        self.insert(key, item).unwrap_or(END)
    }

    fn last(&self, key: Sym) -> u32 {
        self.get(&key).copied().unwrap_or(END)
    }
}

/// The items of each key, as lists through the items.
#[derive(Debug, Default)]
pub(super) struct Chains<L> {
    /// The last item of each key.
    pub(super) last: L,
    /// For each item, the one before it of its key ([`END`] for none, and for an item without a
    /// key).
    pub(super) previous: Vec<u32>,
}

impl<L: Lasts> Chains<L> {
    /// Adds an item of `key` (`Sym::NONE` for none) after every item added: its number is how
    /// many there were (rows and their lists are numbered in `u32` throughout the store).
    pub(super) fn push(&mut self, key: Sym) {
        let item = self.previous.len() as u32;
        let previous = if key.is_none() {
            END
        } else {
            self.last.replace(key, item)
        };
        self.previous.push(previous);
    }

    /// The items of `key`, in the order they were added; none for `Sym::NONE`.
    pub(super) fn of(&self, key: Sym) -> Vec<u32> {
        let mut items = Vec::new();
        let mut at = if key.is_none() {
            END
        } else {
            self.last.last(key)
        };
        while at != END {
            items.push(at);
            at = self.previous[at as usize];
        }
        items.reverse();
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists, whichever way the last items are kept, are each key's items in order.
    fn each_keys_items_in_order<L: Lasts>() {
        let keys = [3u32, 0, 1, 3, 200, 1, 3, 0, 200];
        let mut chains = Chains::<L>::default();
        for &k in &keys {
            chains.push(Sym(k));
        }
        for key in [0u32, 1, 3, 200, 7, 5_000] {
            let expected: Vec<u32> = if key == 0 {
                Vec::new()
            } else {
                (0..keys.len() as u32)
                    .filter(|&i| keys[i as usize] == key)
                    .collect()
            };
            assert_eq!(chains.of(Sym(key)), expected, "key {key}");
        }
    }

    #[test]
    fn each_keys_items_are_found_in_order_in_a_list_or_a_map() {
        each_keys_items_in_order::<BySymbol>();
        each_keys_items_in_order::<Hashed>();
    }
}
