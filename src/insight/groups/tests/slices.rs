//! A grouping cut into slices on threads, or made in the memory of another, is the plain
//! grouping of its events.

use super::*;

#[test]
fn a_grouping_cut_into_slices_on_threads_is_the_grouping_made_in_one() {
    let s = demo();
    let every = all(&s);
    let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
    let few: Vec<u32> = every.iter().copied().take(5).collect();
    // The second half alone: its slices do not start where a grouping of all would.
    let late: Vec<u32> = every[every.len() / 2..].to_vec();
    for shown in [&every, &odd, &few, &late, &vec![]] {
        for key in GroupKey::ALL {
            for sort in [GroupSort::Count, GroupSort::Last] {
                let one = Groups::recompute_in(Groups::default(), &s, shown, key, sort, 1);
                let mut many = Groups::default();
                for parts in [2, 3, 8, 40] {
                    many = Groups::recompute_in(many, &s, shown, key, sort, parts);
                    let case = format!("{key:?} {sort:?} over {} in {parts}", shown.len());
                    assert_eq!(many.span, one.span, "{case}");
                    assert_eq!(seen(&s, &many), seen(&s, &one), "{case}");
                }
            }
        }
    }
    // Every key over every event, cut in two, has groups met by both slices and groups met
    // by one only, with names met first in either.
    let half = every.len() / 2;
    let met = |range: std::ops::Range<usize>| -> std::collections::HashSet<_> {
        every[range]
            .iter()
            .map(|&i| s.row(i as usize).peer_id)
            .collect()
    };
    let (a, b) = (met(0..half), met(half..every.len()));
    assert!(a.intersection(&b).count() > 0 && b.difference(&a).count() > 0);
}

#[test]
fn runs_of_groups_split_the_events_about_evenly_and_never_cut_a_group() {
    // The runs as (first group, past the last group).
    let runs = |counts: &[u32], parts: usize| -> Vec<(usize, usize)> {
        let sums: Vec<Sums> = counts
            .iter()
            .map(|&count| Sums {
                count,
                finals: 0,
                display: Sym::NONE,
            })
            .collect();
        runs_of(&sums, parts)
            .into_iter()
            .map(|r| (r.start, r.end))
            .collect()
    };
    assert_eq!(runs(&[], 4), [(0, 0)]);
    assert_eq!(runs(&[5, 5, 5, 5], 1), [(0, 4)]);
    assert_eq!(runs(&[5, 5, 5, 5], 2), [(0, 2), (2, 4)]);
    assert_eq!(runs(&[5, 5, 5, 5], 4), [(0, 1), (1, 2), (2, 3), (3, 4)]);
    assert_eq!(runs(&[5, 5, 5, 5], 8), [(0, 1), (1, 2), (2, 3), (3, 4)]);
    assert_eq!(runs(&[90, 5, 5], 2), [(0, 1), (1, 3)]);
    assert_eq!(runs(&[5, 5, 90], 2), [(0, 3)]);
    assert_eq!(runs(&[1, 1, 1, 1, 1, 1, 1], 3), [(0, 3), (3, 5), (5, 7)]);
}

/// Everything a grouping shows: its groups, and each one's events and sparkline.
fn seen(s: &Store, g: &Groups) -> Vec<(Group, Vec<u32>, Vec<u32>)> {
    (0..g.len())
        .map(|k| (g.group(k), g.members(k).to_vec(), g.sparkline(s, k, 7)))
        .collect()
}

#[test]
fn a_grouping_made_in_the_memory_of_another_is_the_grouping_made_afresh() {
    let s = demo();
    let every = all(&s);
    let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
    let few: Vec<u32> = every.iter().copied().take(5).collect();
    // From more events to fewer and back, between keys with many groups and with few.
    let steps = [
        (&every, GroupKey::Peer, GroupSort::Count),
        (&odd, GroupKey::Error, GroupSort::Last),
        (&few, GroupKey::Room, GroupSort::Count),
        (&every, GroupKey::Sdk, GroupSort::Last),
        (&odd, GroupKey::Peer, GroupSort::Last),
    ];
    let mut g = Groups::default();
    for (step, (shown, key, sort)) in steps.into_iter().enumerate() {
        if step == 3 {
            // Marks numbered up to where the next grouping's numbers would overflow.
            for marks in &mut g.marks {
                marks.last = u32::MAX - 3;
            }
        }
        g = Groups::recompute(g, &s, shown, key, sort);
        let fresh = Groups::compute(&s, shown, key, sort);
        assert_eq!(g.key, Some(key));
        assert_eq!(g.span, fresh.span, "{key:?} over {} events", shown.len());
        assert_eq!(
            seen(&s, &g),
            seen(&s, &fresh),
            "{key:?} over {} events",
            shown.len()
        );
    }
    // A grouping of a few events does not keep the memory of a grouping of them all.
    let big = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
    // Nor a grouping with few groups the memory of one with many.
    let peers = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
    let errors = Groups::recompute(peers, &s, &every, GroupKey::Error, GroupSort::Count);
    assert!(errors.values.capacity() <= errors.len() * 2);
    assert!(errors.sums.capacity() <= errors.len() * 2);
    assert!(errors.order.capacity() <= errors.len() * 2);
    let small = Groups::recompute(big, &s, &few, GroupKey::Peer, GroupSort::Count);
    assert!(small.members.capacity() < every.len() / 2);
    assert!(small.facts.capacity() < every.len() / 2);
    assert!(small.seen.capacity() < every.len() / 2);
    assert!(small.values.capacity() <= few.len() * 2);
    assert!(small.sums.capacity() <= few.len() * 2);
    assert!(small.extents.capacity() <= few.len() * 2);
    assert!(small.ranks.capacity() <= few.len() * 2);
    assert!(small.order.capacity() <= few.len() * 2);
    // A grouping as large as the one before fills that one's lists, whatever the slices.
    for (key, parts) in [
        (GroupKey::Room, 1),
        (GroupKey::Room, 3),
        (GroupKey::Peer, 1),
        (GroupKey::Peer, 3),
    ] {
        let before = Groups::compute(&s, &every, key, GroupSort::Count);
        let lists = |g: &Groups| {
            (
                g.values.as_ptr(),
                g.sums.as_ptr(),
                g.members.as_ptr(),
                // By peer, the first pass's list is not kept (see `peers`).
                (key != GroupKey::Peer).then_some(g.seen.as_ptr()),
            )
        };
        let before_lists = lists(&before);
        let again = Groups::recompute_in(before, &s, &every, key, GroupSort::Last, parts);
        assert_eq!(lists(&again), before_lists, "{key:?} in {parts}");
        if key == GroupKey::Peer {
            assert!(again.seen.capacity() == 0 && again.facts.capacity() == 0);
        }
    }
    // Marks for each run of the last grouping only, for as many strings as its store has.
    let runs = Groups::recompute_in(small, &s, &every, GroupKey::Room, GroupSort::Count, 4);
    assert_eq!(runs.marks.len(), 4);
    let one = Groups::recompute_in(runs, &s, &few, GroupKey::Room, GroupSort::Count, 1);
    assert_eq!(one.marks.len(), 1);
    assert_eq!(one.marks[0].peer.len(), s.strings().len());
    let tiny = store(&[ev(1, 0, "join", "p1", false)]);
    let one = Groups::recompute(one, &tiny, &all(&tiny), GroupKey::Room, GroupSort::Count);
    assert_eq!(one.marks[0].peer.len(), tiny.strings().len());
}

#[test]
fn a_grouping_on_threads_in_the_memory_of_another_key_and_size_is_the_grouping_made_afresh() {
    // The lists of the grouping before are used again: nothing of what they held may show,
    // whatever that grouping's key, size and slices were.
    let s = demo();
    let every = all(&s);
    let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
    let late: Vec<u32> = every[every.len() / 3..].to_vec();
    let steps = [
        (&every, GroupKey::Peer, 3),
        (&odd, GroupKey::Room, 2),
        (&late, GroupKey::Error, 3),
        (&every, GroupKey::Room, 3),
        (&late, GroupKey::Room, 2),
        (&late, GroupKey::Peer, 2),
        (&every, GroupKey::Sdk, 2),
        (&late, GroupKey::Peer, 1),
        (&every, GroupKey::Domain, 3),
        (&every, GroupKey::Room, 3),
        (&odd, GroupKey::Room, 3),
        (&odd, GroupKey::Peer, 3),
    ];
    let mut g = Groups::default();
    let mut used_again = 0;
    for (shown, key, parts) in steps {
        let (members, facts) = (g.members.as_ptr(), g.facts.as_ptr());
        let fits = |capacity: usize| capacity >= shown.len() && capacity / 2 <= shown.len();
        let (kept, facts_kept) = (fits(g.members.capacity()), fits(g.facts.capacity()));
        g = Groups::recompute_in(g, &s, shown, key, GroupSort::Count, parts);
        let fresh = Groups::recompute_in(Groups::default(), &s, shown, key, GroupSort::Count, 1);
        let case = format!("{key:?} over {} in {parts}", shown.len());
        assert_eq!(g.span, fresh.span, "{case}");
        assert_eq!(seen(&s, &g), seen(&s, &fresh), "{case}");
        // A grouping of few groups makes no lists (see `few`).
        if kept && g.few.is_none() {
            // The memory before was used again, not given back and taken anew.
            assert_eq!(g.members.as_ptr(), members, "{case}");
            // A grouping by peer keeps no times in group order (see `peers`).
            if facts_kept && key != GroupKey::Peer {
                assert_eq!(g.facts.as_ptr(), facts, "{case}");
                used_again += 1;
            }
        }
    }
    assert!(used_again >= 2, "{used_again}");
}

/// What a grouping must give, computed the plain way: a map by value, every event read from
/// its row, and distinct peers and rooms in sets. The groups in the order of their values.
fn grouped_plainly(s: &Store, shown: &[u32], key: GroupKey) -> Vec<(Group, Vec<u32>)> {
    use std::collections::{BTreeMap, BTreeSet};
    /// A group, its events, and its distinct peers and rooms.
    type Plain = (Group, Vec<u32>, BTreeSet<Sym>, BTreeSet<Sym>);
    let mut by_value: BTreeMap<GroupValue, Plain> = BTreeMap::new();
    for &i in shown {
        let row = s.row(i as usize);
        let value = key.value_of(s, row);
        let (group, members, peers, rooms) = by_value.entry(value).or_insert_with(|| {
            let group = Group {
                value,
                display: Sym::NONE,
                count: 0,
                finals: 0,
                peers: 0,
                rooms: 0,
                first_seen: None,
                last_seen: None,
            };
            (group, Vec::new(), BTreeSet::new(), BTreeSet::new())
        });
        group.count += 1;
        group.finals += u32::from(row.is_terminal() == Some(true));
        if group.display.is_none() {
            group.display = key.display_of(row);
        }
        if row.ts != NO_TIME {
            group.first_seen = Some(group.first_seen.map_or(row.ts, |t| t.min(row.ts)));
            group.last_seen = Some(group.last_seen.map_or(row.ts, |t| t.max(row.ts)));
        }
        if !row.peer_id.is_none() {
            peers.insert(row.peer_id);
        }
        if !row.room_id.is_none() {
            rooms.insert(row.room_id);
        }
        members.push(i);
    }
    by_value
        .into_values()
        .map(|(mut group, mut members, peers, rooms)| {
            group.peers = peers.len() as u32;
            group.rooms = rooms.len() as u32;
            members.sort_unstable();
            (group, members)
        })
        .collect()
}

#[test]
fn every_grouping_is_the_plain_grouping_of_its_events() {
    for s in [odd_store(), demo(), generated(4_000, 9)] {
        let every = all(&s);
        let thirds: Vec<u32> = every.iter().copied().filter(|i| i % 3 != 0).collect();
        for shown in [&every, &thirds, &every[..1], &every[..0]] {
            for key in GroupKey::ALL {
                let expected = grouped_plainly(&s, shown, key);
                let mut g = Groups::default();
                for parts in [1, 2, 3, 7] {
                    g = Groups::recompute_in(g, &s, shown, key, GroupSort::Count, parts);
                    let mut got: Vec<(Group, Vec<u32>)> = (0..g.len())
                        .map(|k| (g.group(k), g.members(k).to_vec()))
                        .collect();
                    got.sort_by_key(|(group, _)| group.value);
                    assert_eq!(
                        got,
                        expected,
                        "{key:?}, {} shown, {parts} parts",
                        shown.len()
                    );
                }
            }
        }
    }
}

mod peers_joined {
    use proptest::prelude::*;

    use super::*;

    /// `events` events of `peers` peers (some without one), each peer's met again far apart, in
    /// two rooms now and then.
    fn many_peers(events: u32, peers: u32, seed: u64) -> Store {
        let events: Vec<serde_json::Value> = (0..events)
            .map(|n| {
                let mixed = (u64::from(n) ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 33;
                let peer = format!("peer-{}", mixed % u64::from(peers));
                let kind = ["join", "publish", "subscribe"][n as usize % 3];
                with(
                    ev(n, i64::from(n / 3), kind, &peer, mixed.is_multiple_of(3)),
                    |d| match mixed % 7 {
                        0 => d["room_id"] = json!(format!("room-{}", mixed % 2)),
                        1 => {
                            d.as_object_mut().unwrap().remove("peer_id");
                        }
                        _ => {}
                    },
                )
            })
            .collect();
        store(&events)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// The peers met by the later slices of the first pass are looked up in the first
        /// slice's on every thread before they are taken in: the grouping by peer is the plain
        /// grouping of its events, in the order of the grouping made in one slice, whatever
        /// the slices and however many of their peers the slices before met.
        #[test]
        fn a_grouping_by_peer_in_slices_is_the_grouping_in_one(
            peers in 1u32..5_000,
            seed in any::<u64>(),
            parts in 2usize..6,
            skip in 1u32..4,
        ) {
            let s = many_peers(6_000, peers, seed);
            let shown: Vec<u32> = all(&s)
                .into_iter()
                .filter(|i| skip == 1 || !i.is_multiple_of(skip))
                .collect();
            let one = Groups::recompute_in(
                Groups::default(), &s, &shown, GroupKey::Peer, GroupSort::Count, 1,
            );
            let sliced = Groups::recompute_in(
                Groups::default(), &s, &shown, GroupKey::Peer, GroupSort::Count, parts,
            );
            prop_assert_eq!(seen(&s, &sliced), seen(&s, &one));
            let mut got: Vec<(Group, Vec<u32>)> = (0..sliced.len())
                .map(|k| (sliced.group(k), sliced.members(k).to_vec()))
                .collect();
            got.sort_by_key(|(group, _)| group.value);
            prop_assert_eq!(got, grouped_plainly(&s, &shown, GroupKey::Peer));
        }
    }
}
