//! The values of a grouping's groups, by place: whole, or only their first string where the
//! key is one string and the groups are many (a million peers: 4 bytes a group, where a whole
//! value takes 24).

use super::*;

#[derive(Debug, Clone)]
pub(super) enum Values {
    Whole(Vec<GroupValue>),
    /// Values with no second string and no code.
    Firsts(Vec<Sym>),
}

impl Default for Values {
    fn default() -> Values {
        Values::Whole(Vec::new())
    }
}

impl Values {
    /// The value of the group at place `p`.
    pub(super) fn get(&self, p: usize) -> GroupValue {
        match self {
            Values::Whole(values) => values[p],
            Values::Firsts(firsts) => first_only(firsts[p]),
        }
    }

    /// How many values the list can hold (for tests that memory is let go).
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        match self {
            Values::Whole(values) => values.capacity(),
            Values::Firsts(firsts) => firsts.capacity(),
        }
    }

    /// Where the list is in memory (for tests that it is used again).
    #[cfg(test)]
    pub(super) fn as_ptr(&self) -> *const u8 {
        match self {
            Values::Whole(values) => values.as_ptr().cast(),
            Values::Firsts(firsts) => firsts.as_ptr().cast(),
        }
    }

    /// The [`rank`] of each value, read on every thread when they are many.
    pub(super) fn ranks(&self, store: &Store) -> Vec<u64> {
        let firsts: Vec<Sym> = match self {
            Values::Whole(values) => values.iter().map(|v| v.first).collect(),
            Values::Firsts(firsts) => return ranks_of(store, firsts),
        };
        ranks_of(store, &firsts)
    }

    /// The place of the group with this value.
    pub(super) fn position(&self, value: &GroupValue) -> Option<usize> {
        match self {
            Values::Whole(values) => values.iter().position(|v| v == value),
            Values::Firsts(firsts) => {
                if *value != first_only(value.first) {
                    return None;
                }
                firsts.iter().position(|&f| f == value.first)
            }
        }
    }

    /// The memory of whole values, as it is (none if they were not whole): the caller empties
    /// it.
    pub(super) fn into_whole(self) -> Vec<GroupValue> {
        match self {
            Values::Whole(values) => values,
            Values::Firsts(_) => Vec::new(),
        }
    }

    /// The memory of first strings, as it is (none if they were whole): the caller empties it.
    pub(super) fn into_firsts(self) -> Vec<Sym> {
        match self {
            Values::Firsts(firsts) => firsts,
            Values::Whole(_) => Vec::new(),
        }
    }
}

/// The value of a key of one string.
pub(super) fn first_only(first: Sym) -> GroupValue {
    GroupValue {
        first,
        second: Sym::NONE,
        code: None,
    }
}

fn ranks_of(store: &Store, firsts: &[Sym]) -> Vec<u64> {
    use rayon::prelude::*;
    firsts
        .par_iter()
        .with_min_len(PARALLEL_GROUPS_FROM)
        .map(|&first| rank(store, first))
        .collect()
}
