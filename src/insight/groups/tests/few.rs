//! A grouping of few groups, counted in one pass with each event's group in a byte, is the
//! grouping in lists; more groups, or events out of load order, are put in lists.

use super::*;
use crate::insight::groups::few::FEW;

/// Everything a grouping shows, sparklines of several widths included.
fn shown_of(s: &Store, g: &Groups) -> Vec<(Group, Vec<u32>, Vec<Vec<u32>>)> {
    (0..g.len())
        .map(|k| {
            let sparklines = [1, 3, 7, 16].map(|b| g.sparkline(s, k, b)).to_vec();
            (g.group(k), g.members(k).to_vec(), sparklines)
        })
        .collect()
}

#[test]
fn few_groups_counted_in_one_pass_are_the_groups_put_in_lists() {
    let mut taken = 0;
    for s in [odd_store(), demo(), generated(4_000, 9)] {
        let every = all(&s);
        let thirds: Vec<u32> = every.iter().copied().filter(|i| i % 3 != 0).collect();
        let late: Vec<u32> = every[every.len() / 3..].to_vec();
        for shown in [&every, &thirds, &late, &every[..1], &every[..0]] {
            for key in GroupKey::ALL {
                for sort in GroupSort::ALL {
                    let lists = Groups::in_lists(Groups::default(), &s, shown, key, sort, 1);
                    for parts in [1, 2, 3, 7] {
                        let g =
                            Groups::recompute_in(Groups::default(), &s, shown, key, sort, parts);
                        let case =
                            format!("{key:?} {sort:?}, {} shown, {parts} parts", shown.len());
                        assert_eq!(g.span, lists.span, "{case}");
                        assert_eq!(shown_of(&s, &g), shown_of(&s, &lists), "{case}");
                        if g.few.is_some() {
                            taken += 1;
                            assert!(g.members.is_empty() && g.facts.is_empty(), "{case}");
                        } else {
                            // Only these keys, more groups than a mark has bits, or too few
                            // events shown for the pass over the store, make lists.
                            assert!(
                                matches!(key, GroupKey::Peer | GroupKey::Room)
                                    || lists.len() > FEW
                                    || shown.len() * 4 < s.len(),
                                "{case}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(taken > 500, "{taken}");
}

#[test]
fn a_view_of_a_small_part_of_the_store_is_put_in_lists() {
    // The one pass costs what the store does: for a room's events among millions, the lists
    // cost what the shown events do.
    let s = generated(4_000, 9);
    let every = all(&s);
    let quarter = s.len().div_ceil(4);
    for (shown, one_pass) in [
        (&every[..quarter - 1], false),
        (&every[..quarter], true),
        (&every[..], true),
    ] {
        let g = Groups::compute(&s, shown, GroupKey::Error, GroupSort::Count);
        let lists = Groups::in_lists(
            Groups::default(),
            &s,
            shown,
            GroupKey::Error,
            GroupSort::Count,
            1,
        );
        assert_eq!(
            g.few.is_some(),
            one_pass,
            "{} of {} shown",
            shown.len(),
            s.len()
        );
        assert_eq!(shown_of(&s, &g), shown_of(&s, &lists));
    }
}

#[test]
fn more_groups_than_a_mark_has_bits_are_put_in_lists() {
    // Roles met late: every slice has counted events before the groups grow too many.
    let events: Vec<_> = (0..400u32)
        .map(|n| {
            let role = if n < 300 { n % 3 } else { n % 45 };
            with(
                ev(n, i64::from(n), "join", &format!("p{}", n % 7), n % 2 == 0),
                |d| d["role"] = json!(format!("role-{role}")),
            )
        })
        .collect();
    let s = store(&events);
    let every = all(&s);
    for parts in [1, 2, 4] {
        let g = Groups::recompute_in(
            Groups::default(),
            &s,
            &every,
            GroupKey::Role,
            GroupSort::Count,
            parts,
        );
        assert!(g.few.is_none());
        assert_eq!(g.len(), 45);
        let lists = Groups::in_lists(
            Groups::default(),
            &s,
            &every,
            GroupKey::Role,
            GroupSort::Count,
            1,
        );
        assert_eq!(shown_of(&s, &g), shown_of(&s, &lists), "{parts} parts");
    }
    // As many groups as bits: one pass still.
    let fits: Vec<u32> = (0..400)
        .filter(|&n| n < 300 || (3..32).contains(&(n % 45)))
        .take(300 + 29)
        .collect();
    let g = Groups::recompute_in(
        Groups::default(),
        &s,
        &fits,
        GroupKey::Role,
        GroupSort::Count,
        2,
    );
    assert_eq!(g.len(), FEW);
    assert!(g.few.is_some());
    // One more group than bits: lists.
    let one_more: Vec<u32> = (0..400)
        .filter(|&n| n < 300 || (3..33).contains(&(n % 45)))
        .take(300 + 30)
        .collect();
    for parts in [1, 2] {
        let g = Groups::recompute_in(
            Groups::default(),
            &s,
            &one_more,
            GroupKey::Role,
            GroupSort::Count,
            parts,
        );
        assert_eq!(g.len(), FEW + 1);
        assert!(g.few.is_none(), "{parts} parts");
    }
}

#[test]
fn events_out_of_load_order_are_put_in_lists_in_their_order() {
    let s = demo();
    let mut shown = all(&s);
    shown.swap(10, 500);
    for parts in [1, 2] {
        let g = Groups::recompute_in(
            Groups::default(),
            &s,
            &shown,
            GroupKey::Error,
            GroupSort::Count,
            parts,
        );
        assert!(g.few.is_none(), "{parts} parts");
        let lists = Groups::in_lists(
            Groups::default(),
            &s,
            &shown,
            GroupKey::Error,
            GroupSort::Count,
            1,
        );
        assert_eq!(shown_of(&s, &g), shown_of(&s, &lists));
    }
}

#[test]
fn few_groups_keep_every_sparkline_of_a_width_from_one_count() {
    let s = demo();
    let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
    assert!(g.few.is_some() && g.len() > 1);
    let kept = |g: &Groups| g.sparklines.0.lock().unwrap().len();
    let first = g.sparkline(&s, 0, 8);
    assert_eq!(first.iter().sum::<u32>(), g.group(0).count);
    assert_eq!(kept(&g), g.len());
    assert_eq!(g.sparkline(&s, 1, 8).iter().sum::<u32>(), g.group(1).count);
    assert_eq!(kept(&g), g.len());
    g.sparkline(&s, 0, 5);
    assert_eq!(kept(&g), 2 * g.len());
}

mod asked_in_any_order {
    use proptest::prelude::*;

    use super::*;

    fn store() -> &'static Store {
        static STORE: std::sync::OnceLock<Store> = std::sync::OnceLock::new();
        STORE.get_or_init(|| generated(3_000, 5))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A grouping of few groups makes the first group's events asked for alone, and every
        /// other group's at the second: whatever group is asked for first, and in whatever
        /// order the rest, each group's events are those the lists by group hold, and each
        /// list is made at its length.
        #[test]
        fn each_groups_events_are_those_of_the_lists(
            key in prop::sample::select(vec![
                GroupKey::Error, GroupKey::Sdk, GroupKey::Os, GroupKey::Role, GroupKey::Env,
            ]),
            skip in 1u32..5,
            asked in prop::collection::vec(any::<prop::sample::Index>(), 1..12),
            parts in 1usize..4,
        ) {
            let s = store();
            // Every event, or all but every `skip`th (still over a quarter of the store).
            let shown: Vec<u32> = all(s)
                .into_iter()
                .filter(|i| skip == 1 || !i.is_multiple_of(skip))
                .collect();
            let lists = Groups::in_lists(Groups::default(), s, &shown, key, GroupSort::Count, 1);
            let g = Groups::recompute_in(Groups::default(), s, &shown, key, GroupSort::Count, parts);
            let few = g.few.as_ref().expect("few groups are counted in one pass");
            prop_assert_eq!(g.len(), lists.len());
            let lists_made = || few.members.iter().filter(|m| m.get().is_some()).count();
            prop_assert_eq!(lists_made(), 0, "lists made before any was asked for");
            let mut first = None;
            let mut another_asked = false;
            for k in asked.iter().map(|a| a.index(g.len())).chain(0..g.len()) {
                prop_assert_eq!(g.members(k), lists.members(k), "group {}", k);
                let p = g.order[k] as usize;
                let made = few.members[p].get().expect("made once asked for");
                prop_assert_eq!(made.capacity(), made.len(), "group {}", k);
                // The first group asked for is made alone, every other once another is asked for.
                another_asked |= *first.get_or_insert(p) != p;
                let want = if another_asked { g.len() } else { 1 };
                prop_assert_eq!(lists_made(), want, "after group {}", k);
            }
        }
    }
}
