//! [`OrderIndex::arrange_around`] against the plain filter of the order and search for the
//! anchor, over every order, any members and any anchor.

use std::sync::OnceLock;

use proptest::prelude::*;

use super::*;

/// A store with events out of time order and some without a time, made once.
fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(|| crate::insight::testing::generated(300, 7))
}

/// What `arrange_around` gives, found plainly: the ordered rows that are members, and the
/// place among them of the first one at or after the anchor in the order.
fn plainly(all: &[u32], member: &[bool], anchor: Option<u32>) -> (Vec<u32>, Option<usize>) {
    let kept: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&i| member[i as usize])
        .collect();
    let from = anchor.map_or(Some(0), |a| all.iter().position(|&i| i == a));
    let at = from.and_then(|from| {
        let first = all[from..].iter().find(|&&i| member[i as usize])?;
        kept.iter().position(|i| i == first)
    });
    (kept, at)
}

proptest! {
    #[test]
    fn the_members_around_an_anchor_are_the_plain_filter_of_the_order(
        kept_one_in in 1u32..6,
        seed in any::<u64>(),
        anchor in proptest::option::of(0u32..300),
        held in proptest::collection::vec(any::<u32>(), 0..400),
        key in 0..SortKey::ALL.len(),
        newest_first in any::<bool>(),
    ) {
        let s = store();
        let order = Order { key: SortKey::ALL[key], newest_first };
        // Members drawn from the seed, roughly one row in `kept_one_in`, in any order.
        let mut state = seed | 1;
        let mut member = vec![false; s.len()];
        let mut members = Vec::new();
        for i in (0..s.len() as u32).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if (state % u64::from(kept_one_in)) == 0 {
                member[i as usize] = true;
                members.push(i);
            }
        }
        let mut index = OrderIndex::default();
        index.extend(s);
        let all = index.ordered(s, order).to_vec();
        let mut out = held;
        let at = index.arrange_around(s, order, &members, anchor, &mut out);
        let (kept, plain_at) = plainly(&all, &member, anchor);
        prop_assert_eq!(&out, &kept);
        prop_assert_eq!(at, plain_at);
    }
}
