use serde_json::json;

use super::*;
use crate::insight::testing::{SEC, T0, all, demo, ev, generated, store};

fn with(mut e: serde_json::Value, f: impl FnOnce(&mut serde_json::Value)) -> serde_json::Value {
    f(&mut e["data"]);
    e
}

#[test]
fn errors_are_grouped_by_type_code_and_name_with_their_counts() {
    let events = vec![
        ev(1, 0, "join", "p1", false),
        ev(2, 10, "join", "p1", true),
        ev(3, 20, "join", "p2", false),
        with(ev(4, 30, "join", "p3", false), |d| {
            d["room_id"] = json!("room-2")
        }),
        with(ev(5, 5, "publish", "p1", false), |d| {
            d["error_code"] = json!(4006);
            d["error_name"] = json!("ICEDisconnected");
        }),
    ];
    let s = store(&events);
    let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
    assert_eq!(g.len(), 2);
    let join = g.group(0);
    assert_eq!(join.label(&s, GroupKey::Error), "join 500 ServerErrors");
    assert_eq!(
        (join.count, join.finals, join.peers, join.rooms),
        (4, 1, 3, 2)
    );
    assert_eq!(join.first_seen, Some(T0));
    assert_eq!(join.last_seen, Some(T0 + 30 * SEC));
    assert_eq!(join.final_share(), 0.25);
    assert_eq!(g.members(0), [0, 1, 2, 3]);
    assert_eq!(g.members(1), [4]);
    assert_eq!(
        g.group(1).parts(&s, GroupKey::Error),
        [
            Part::Text("client.publish.failed"),
            Part::Code(4006),
            Part::Text("ICEDisconnected")
        ]
    );
    assert_eq!(g.span, Some((T0, T0 + 30 * SEC)));
}

#[test]
fn only_the_shown_events_are_grouped() {
    let s = store(&[ev(1, 0, "join", "p1", false), ev(2, 1, "join", "p2", true)]);
    let g = Groups::compute(&s, &[1], GroupKey::Error, GroupSort::Count);
    assert_eq!(
        (g.group(0).count, g.group(0).finals, g.group(0).peers),
        (1, 1, 1)
    );
    let none = Groups::compute(&s, &[], GroupKey::Error, GroupSort::Count);
    assert!(none.is_empty() && none.span.is_none());
}

#[test]
fn absent_fields_make_a_group_of_their_own_and_count_no_peer() {
    let events = vec![
        with(ev(1, 0, "join", "p1", false), |d| {
            d.as_object_mut().unwrap().remove("peer_id");
            d.as_object_mut().unwrap().remove("room_id");
        }),
        with(ev(2, 0, "join", "p1", false), |d| d["role"] = json!("host")),
    ];
    let s = store(&events);
    let g = Groups::compute(&s, &all(&s), GroupKey::Role, GroupSort::Count);
    assert_eq!(g.len(), 2);
    let absent = g.group(g.position(&GroupKey::Role.value_of(&s, s.row(0))).unwrap());
    assert_eq!(absent.label(&s, GroupKey::Role), "(none)");
    assert_eq!(absent.parts(&s, GroupKey::Role), [Part::Absent]);
    assert_eq!((absent.peers, absent.rooms), (0, 0));
    // Equal counts: a present value sorts before the absent one.
    assert_eq!(g.group(0).label(&s, GroupKey::Role), "host");
}

#[test]
fn rooms_and_peers_are_named_by_their_first_name_met() {
    let events = vec![
        with(ev(1, 0, "join", "p1", false), |d| {
            d["user_name"] = json!("Ada")
        }),
        with(ev(2, 0, "join", "p1", false), |d| {
            d["user_name"] = json!("Ada L");
            d["room_name"] = json!("standup");
        }),
    ];
    let s = store(&events);
    let peers = Groups::compute(&s, &all(&s), GroupKey::Peer, GroupSort::Count);
    assert_eq!(peers.group(0).label(&s, GroupKey::Peer), "Ada (p1)");
    let rooms = Groups::compute(&s, &all(&s), GroupKey::Room, GroupSort::Count);
    assert_eq!(
        rooms.group(0).parts(&s, GroupKey::Room),
        [Part::Text("room-1"), Part::Text("standup")]
    );
    assert_eq!(rooms.group(0).count, 2);
}

#[test]
fn the_first_name_met_names_the_group_however_the_events_are_cut_into_slices() {
    // Peer p1 has no name in its first events, then two; room-1 likewise.
    let named = |n: u32, user: Option<&str>| {
        with(ev(n, n.into(), "join", "p1", false), |d| {
            if let Some(user) = user {
                d["user_name"] = json!(user);
                d["room_name"] = json!(format!("room of {user}"));
            }
        })
    };
    let firsts = [
        // Met in the second of three slices, or in the first of two.
        [
            None,
            None,
            Some("Ada"),
            Some("Ada"),
            Some("Bea"),
            Some("Bea"),
        ],
        // Met in the last slice only, whatever the cut.
        [None, None, None, None, None, Some("Bea")],
    ];
    for names in firsts {
        let events: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(n, user)| named(n as u32, *user))
            .collect();
        let s = store(&events);
        let first = names.iter().flatten().next().unwrap();
        for parts in [1, 2, 3, 6] {
            let peers = Groups::recompute_in(
                Groups::default(),
                &s,
                &all(&s),
                GroupKey::Peer,
                GroupSort::Count,
                parts,
            );
            assert_eq!(
                peers.group(0).label(&s, GroupKey::Peer),
                format!("{first} (p1)"),
                "in {parts}"
            );
            let rooms = Groups::recompute_in(
                Groups::default(),
                &s,
                &all(&s),
                GroupKey::Room,
                GroupSort::Count,
                parts,
            );
            let room = format!("room of {first}");
            assert_eq!(
                rooms.group(0).parts(&s, GroupKey::Room),
                [Part::Text("room-1"), Part::Text(&room)],
                "in {parts}"
            );
        }
    }
}

#[test]
fn sorting_by_last_seen_puts_the_latest_group_first() {
    let events = vec![
        ev(1, 0, "join", "p1", false),
        ev(2, 1, "join", "p1", false),
        ev(3, 50, "connect", "p2", false),
    ];
    let s = store(&events);
    let mut g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
    assert_eq!(g.group(0).count, 2);
    g.sort(&s, GroupSort::Last);
    assert_eq!(g.group(0).count, 1);
    assert_eq!(g.group(0).last_seen, Some(T0 + 50 * SEC));
    // Members follow their group through a sort.
    assert_eq!(g.members(0), [2]);
}

#[test]
fn a_group_without_a_time_is_the_least_recent() {
    let untimed = |n| {
        let mut e = ev(n, 0, "publish", "p1", false);
        e.as_object_mut().unwrap().remove("timestamp");
        e
    };
    let s = store(&[
        untimed(1),
        untimed(4),
        ev(2, -5, "join", "p1", false),
        ev(3, 9, "connect", "p1", false),
    ]);
    let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Last);
    let order: Vec<(u32, Option<i64>)> = g.iter().map(|g| (g.count, g.last_seen)).collect();
    assert_eq!(
        order,
        [(1, Some(T0 + 9 * SEC)), (1, Some(T0 - 5 * SEC)), (2, None)]
    );
    assert_eq!(g.group(2).first_seen, None);
    assert_eq!(g.sparkline(2, 3), [0, 0, 0]);
    assert_eq!(g.span, Some((T0 - 5 * SEC, T0 + 9 * SEC)));
}

#[test]
fn sparklines_span_every_shown_event() {
    let events = vec![
        ev(1, 0, "join", "p1", false),
        ev(2, 1, "join", "p1", false),
        ev(3, 99, "join", "p1", false),
        ev(4, 100, "connect", "p2", false),
    ];
    let s = store(&events);
    let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
    assert_eq!(g.sparkline(0, 4), [2, 0, 0, 1]);
    assert_eq!(g.sparkline(1, 4), [0, 0, 0, 1]);
    assert_eq!(g.sparkline(0, 1), [3]);
    assert!(g.sparkline(0, 0).is_empty());
    let total: u32 = g.sparkline(0, 7).iter().sum();
    assert_eq!(total, 3);
}

#[test]
fn sparklines_over_centuries_bucket_as_the_exact_formula_does() {
    // About 440 years: at 16 buckets, the product of the span and the bucket count needs
    // more than 64 bits; at 1 bucket it does not.
    let secs = [
        -7_000_000_000,
        -6_999_999_999,
        -1,
        0,
        3_141_592_653,
        7_000_000_000,
    ];
    let events: Vec<_> = (0..secs.len())
        .map(|n| ev(n as u32, secs[n], "join", "p1", false))
        .collect();
    let s = store(&events);
    let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
    let (lo, hi) = g.span.unwrap();
    assert_eq!(
        (lo, hi),
        (T0 - 7_000_000_000 * SEC, T0 + 7_000_000_000 * SEC)
    );
    for buckets in [1, 3, 16, 1000] {
        let mut want = vec![0u32; buckets];
        for t in secs.map(|x| T0 + x * SEC) {
            let width = i128::from(hi) - i128::from(lo) + 1;
            want[((i128::from(t) - i128::from(lo)) * buckets as i128 / width) as usize] += 1;
        }
        assert_eq!(g.sparkline(0, buckets), want, "{buckets} buckets");
    }
}

#[test]
fn every_key_groups_the_demo_without_losing_an_event() {
    let s = demo();
    let shown = all(&s);
    for key in GroupKey::ALL {
        let g = Groups::compute(&s, &shown, key, GroupSort::Count);
        let total: u32 = g.iter().map(|g| g.count).sum();
        assert_eq!(total as usize, s.len(), "{key:?}");
        let sorted: Vec<Group> = g.iter().collect();
        assert!(
            sorted.windows(2).all(|w| w[0].count >= w[1].count),
            "{key:?}"
        );
        for (k, group) in sorted.iter().enumerate() {
            assert!(
                g.members(k)
                    .iter()
                    .all(|&i| group.value.matches(key, &s, s.row(i as usize)))
            );
        }
        // Ties are in the order of the keys' strings.
        for w in sorted.windows(2) {
            if w[0].count == w[1].count {
                assert!(
                    compare_values(&s, &w[0].value, &w[1].value).is_le(),
                    "{key:?}"
                );
            }
        }
    }
}

/// The groups sorted one comparison at a time, by the rules [`Groups::sort`] documents.
fn sorted_plainly(s: &Store, g: &Groups, sort: GroupSort) -> Vec<Group> {
    let mut groups: Vec<Group> = g.iter().collect();
    groups.sort_by(|a, b| {
        let by_last = match sort {
            GroupSort::Count => std::cmp::Ordering::Equal,
            // Latest first, a group without a time last.
            GroupSort::Last => match (a.last_seen, b.last_seen) {
                (Some(x), Some(y)) => y.cmp(&x),
                (x, y) => y.is_some().cmp(&x.is_some()),
            },
        };
        by_last
            .then(b.count.cmp(&a.count))
            .then_with(|| compare_values(s, &a.value, &b.value))
    });
    groups
}

#[test]
fn both_sorts_order_the_groups_as_comparing_them_one_by_one_does() {
    // Many groups tied on time and count, some without a time, names sharing long prefixes.
    let mut events: Vec<serde_json::Value> = (0..40u32)
        .map(|n| {
            let mut e = ev(
                n,
                i64::from(n % 3),
                "join",
                &format!("peer-{}", n % 7),
                false,
            );
            e["data"]["role"] = json!(format!("role-with-a-long-prefix-{}", n % 11));
            if n % 5 == 0 {
                e.as_object_mut().unwrap().remove("timestamp");
            }
            e
        })
        .collect();
    events.extend((0..9).map(|n| ev(100 + n, 2, "publish", "peer-x", n % 2 == 0)));
    for s in [store(&events), demo()] {
        let shown = all(&s);
        for key in GroupKey::ALL {
            for sort in [GroupSort::Count, GroupSort::Last] {
                let mut g = Groups::compute(&s, &shown, key, sort);
                let got: Vec<Group> = g.iter().collect();
                assert_eq!(got, sorted_plainly(&s, &g, sort), "{key:?} {sort:?}");
                // Sorted again the other way and back: the same order.
                let other = match sort {
                    GroupSort::Count => GroupSort::Last,
                    GroupSort::Last => GroupSort::Count,
                };
                g.sort(&s, other);
                assert_eq!(g.iter().collect::<Vec<_>>(), sorted_plainly(&s, &g, other));
                g.sort(&s, sort);
                assert_eq!(g.iter().collect::<Vec<_>>(), got, "{key:?} {sort:?}");
            }
        }
    }
}

#[test]
fn a_large_group_keeps_its_own_sparkline_when_the_groups_are_sorted_again() {
    // Joins early and many, publishes late and more recent: each order puts the other first.
    let big = KEPT_SPARKLINE_FROM as usize + 100;
    let events: Vec<_> = (0..big + 10)
        .map(|n| ev(n as u32, n as i64, "join", "p1", false))
        .chain((0..big).map(|n| {
            ev(
                (2 * big + n) as u32,
                (3 * big + n) as i64,
                "publish",
                "p2",
                false,
            )
        }))
        .collect();
    let s = store(&events);
    let mut g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
    assert!(g.iter().all(|g| g.count >= KEPT_SPARKLINE_FROM));
    let kept = |g: &Groups| g.sparklines.0.lock().unwrap().len();
    let first = g.sparkline(0, 8);
    assert_eq!(first.iter().sum::<u32>(), g.group(0).count);
    assert_eq!(kept(&g), 1);
    assert_eq!(g.sparkline(0, 8), first, "kept");
    assert_eq!(kept(&g), 1);
    g.sort(&s, GroupSort::Last);
    assert_eq!(kept(&g), 1, "kept by the group, not by its position");
    assert_eq!(g.group(1).count as usize, big + 10);
    assert_eq!(g.sparkline(1, 8), first, "the same group, moved");
    assert_eq!(kept(&g), 1);
    let publishes = g.sparkline(0, 8);
    assert_eq!(publishes.iter().sum::<u32>(), g.group(0).count);
    assert_ne!(publishes, first);
    assert_eq!(kept(&g), 2);
}

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
                    assert_eq!(seen(&many), seen(&one), "{case}");
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
fn seen(g: &Groups) -> Vec<(Group, Vec<u32>, Vec<u32>)> {
    (0..g.len())
        .map(|k| (g.group(k), g.members(k).to_vec(), g.sparkline(k, 7)))
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
            seen(&g),
            seen(&fresh),
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
    for parts in [1, 3] {
        let before = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
        let lists = (
            before.values.as_ptr(),
            before.sums.as_ptr(),
            before.seen.as_ptr(),
        );
        let again =
            Groups::recompute_in(before, &s, &every, GroupKey::Peer, GroupSort::Last, parts);
        let reused = (
            again.values.as_ptr(),
            again.sums.as_ptr(),
            again.seen.as_ptr(),
        );
        assert_eq!(reused, lists, "in {parts}");
    }
    // Marks for each run of the last grouping only, for as many strings as its store has.
    let runs = Groups::recompute_in(small, &s, &every, GroupKey::Peer, GroupSort::Count, 4);
    assert_eq!(runs.marks.len(), 4);
    let one = Groups::recompute_in(runs, &s, &few, GroupKey::Peer, GroupSort::Count, 1);
    assert_eq!(one.marks.len(), 1);
    assert_eq!(one.marks[0].peer.len(), s.strings().len());
    let tiny = store(&[ev(1, 0, "join", "p1", false)]);
    let one = Groups::recompute(one, &tiny, &all(&tiny), GroupKey::Peer, GroupSort::Count);
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
        (&odd, GroupKey::Error, 2),
        (&late, GroupKey::Room, 3),
        (&every, GroupKey::Sdk, 2),
        (&late, GroupKey::Peer, 1),
        (&every, GroupKey::Domain, 3),
        (&odd, GroupKey::Peer, 3),
    ];
    let mut g = Groups::default();
    let mut used_again = 0;
    for (shown, key, parts) in steps {
        let (members, facts) = (g.members.as_ptr(), g.facts.as_ptr());
        let kept = g.members.capacity() >= shown.len() && g.members.capacity() / 2 <= shown.len();
        g = Groups::recompute_in(g, &s, shown, key, GroupSort::Count, parts);
        let fresh = Groups::recompute_in(Groups::default(), &s, shown, key, GroupSort::Count, 1);
        let case = format!("{key:?} over {} in {parts}", shown.len());
        assert_eq!(g.span, fresh.span, "{case}");
        assert_eq!(seen(&g), seen(&fresh), "{case}");
        if kept {
            // The memory before was used again, not given back and taken anew.
            assert_eq!(
                (g.members.as_ptr(), g.facts.as_ptr()),
                (members, facts),
                "{case}"
            );
            used_again += 1;
        }
    }
    assert!(used_again >= 3, "{used_again}");
}

#[test]
fn the_web_release_with_the_disconnects_leads_the_sdk_groups_of_disconnects() {
    let s = demo();
    let kinds = crate::insight::Kinds::of(&s);
    let shown: Vec<u32> = all(&s)
        .into_iter()
        .filter(|&i| kinds.slot(s.row(i as usize).kind) == 3)
        .collect();
    let g = Groups::compute(&s, &shown, GroupKey::Sdk, GroupSort::Count);
    assert_eq!(g.group(0).label(&s, GroupKey::Sdk), "web 0.11.4");
    assert!(g.group(0).count > 2 * g.group(1).count);
}

#[test]
fn ranks_order_as_the_strings_do() {
    let s = store(&[
        with(ev(1, 0, "join", "p1", false), |d| d["role"] = json!("host")),
        with(ev(2, 0, "join", "p2", false), |d| {
            d["role"] = json!("hostess-long-name")
        }),
        with(ev(3, 0, "join", "p3", false), |d| {
            d["role"] = json!("host-long-name-a")
        }),
        with(ev(4, 0, "join", "p4", false), |d| {
            d["role"] = json!("guest")
        }),
    ]);
    let g = Groups::compute(&s, &all(&s), GroupKey::Role, GroupSort::Count);
    let labels: Vec<String> = g.iter().map(|g| g.label(&s, GroupKey::Role)).collect();
    assert_eq!(
        labels,
        ["guest", "host", "host-long-name-a", "hostess-long-name"]
    );
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

/// Events with odd values: ids given twice (the store keeps the first copy), fields absent or
/// null, events without a time, types no key names, and peers and rooms met again much later.
fn odd_store() -> Store {
    let mut events = Vec::new();
    for n in 0..300u32 {
        let kind = ["join", "publish", "connect", "subscribe"][n as usize % 4];
        let mut e = ev(
            n,
            i64::from(n % 17),
            kind,
            &format!("p{}", n % 13),
            n % 3 == 0,
        );
        let d = &mut e["data"];
        match n % 5 {
            0 => {
                d.as_object_mut().unwrap().remove("peer_id");
            }
            1 => d["room_id"] = json!(format!("room-{}", n % 4)),
            2 => d["room_id"] = json!(null),
            _ => {}
        }
        if n % 7 == 0 {
            d.as_object_mut().unwrap().remove("is_terminal");
            d["user_name"] = json!(format!("user {}", n % 2));
            d["room_name"] = json!("named");
        }
        if n % 9 == 0 {
            d.as_object_mut().unwrap().remove("error_code");
        }
        if n % 11 == 0 {
            e.as_object_mut().unwrap().remove("timestamp");
        }
        if n % 23 == 0 {
            e["type"] = json!("webhook.unknown");
        }
        events.push(e);
    }
    for n in 0..20u32 {
        events.push(ev(n, 999, "join", "again", true));
    }
    let s = store(&events);
    assert_eq!(s.len(), 300, "the second copies are dropped");
    s
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

#[test]
fn the_sort_on_every_thread_is_the_sort_on_one() {
    for s in [odd_store(), demo(), generated(3_000, 6)] {
        let shown = all(&s);
        for key in [GroupKey::Peer, GroupKey::Error, GroupKey::Room] {
            for sort in GroupSort::ALL {
                let mut g = Groups::compute(&s, &shown, key, sort);
                let one: Vec<Group> = g.iter().collect();
                g.sort_in(&s, sort, 1);
                assert_eq!(g.iter().collect::<Vec<_>>(), one, "{key:?} {sort:?}");
                assert_eq!(one, sorted_plainly(&s, &g, sort));
            }
        }
    }
}
