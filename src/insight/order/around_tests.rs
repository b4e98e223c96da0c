//! [`OrderIndex::arrange_around`] and [`OrderIndex::arrange_into`] against the plain filter of
//! the order and search for the anchor, over every order, any members and any anchor, in a store
//! loaded in time order (whose time order is taken as the load order) and one that is not.

use std::sync::OnceLock;

use proptest::prelude::*;

use super::*;

/// The generator's events loaded in the order of `rows` (a function of the row and the number
/// of rows).
fn reloaded(rows: impl Fn(usize, usize) -> usize) -> Store {
    let s = crate::insight::testing::generated(300, 7);
    let lines: Vec<String> = (0..s.len())
        .map(|k| String::from_utf8(s.raw(rows(k, s.len())).to_vec()).unwrap())
        .collect();
    let mut out = Store::new();
    out.merge(crate::store::Batch::of_objects(lines).unwrap());
    out
}

/// The generator's events out of time order (each seventh, round and round), made once.
fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(|| reloaded(|k, n| k * 7 % n))
}

/// The same events in time order, as the generator writes them (a dump written oldest first):
/// its time order is its load order.
fn store_in_time_order() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(|| reloaded(|k, _| k))
}

#[test]
fn a_store_loaded_in_time_order_is_told_from_one_that_is_not() {
    let mut index = OrderIndex::default();
    index.extend(store_in_time_order());
    assert!(!index.out_of_load_order);
    assert_eq!(store_in_time_order().len(), store().len());
    let mut index = OrderIndex::default();
    index.extend(store());
    assert!(index.out_of_load_order);
    // The later events loaded first, then the earlier ones: merged into the time order before
    // them, they leave the load order, and the members are arranged by the time order.
    let s = store_in_time_order();
    let lines: Vec<String> = (0..s.len())
        .map(|i| String::from_utf8(s.raw(i).to_vec()).unwrap())
        .collect();
    let mut two = Store::new();
    let mut index = OrderIndex::default();
    for part in [&lines[150..], &lines[..150]] {
        two.merge(crate::store::Batch::of_objects(part).unwrap());
        index.extend(&two);
    }
    assert!(index.out_of_load_order);
    let members: Vec<u32> = (0..two.len() as u32).step_by(3).collect();
    let mut out = Vec::new();
    index.arrange_into(&two, Order::default(), &members, &mut out);
    let member: Vec<bool> = (0..two.len()).map(|i| i % 3 == 0).collect();
    let all = index.ordered(&two, Order::default()).to_vec();
    assert_eq!(out, plainly(&all, &member, None).0);
    assert_ne!(out, members);
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
        in_time_order in any::<bool>(),
        ascending in any::<bool>(),
    ) {
        let s = if in_time_order { store_in_time_order() } else { store() };
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
        // In load order too, as a filter gives them (what the time order of a store loaded in
        // time order takes as they are).
        if ascending {
            members.reverse();
        }
        let mut index = OrderIndex::default();
        index.extend(s);
        let all = index.ordered(s, order).to_vec();
        let mut out = held.clone();
        let at = index.arrange_around(s, order, &members, anchor, &mut out);
        let (kept, plain_at) = plainly(&all, &member, anchor);
        prop_assert_eq!(&out, &kept);
        prop_assert_eq!(at, plain_at);
        let mut out = held;
        index.arrange_into(s, order, &members, &mut out);
        prop_assert_eq!(&out, &kept);
    }
}
