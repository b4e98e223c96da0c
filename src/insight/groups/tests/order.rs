//! The groups' order and sparklines: by last seen, timeless groups last, both sorts as one-by-
//! one comparison, ranks as the strings, sparklines over every shown event and any span.

use super::*;

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
    assert_eq!(g.sparkline(&s, 2, 3), [0, 0, 0]);
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
    assert_eq!(g.sparkline(&s, 0, 4), [2, 0, 0, 1]);
    assert_eq!(g.sparkline(&s, 1, 4), [0, 0, 0, 1]);
    assert_eq!(g.sparkline(&s, 0, 1), [3]);
    assert!(g.sparkline(&s, 0, 0).is_empty());
    let total: u32 = g.sparkline(&s, 0, 7).iter().sum();
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
        assert_eq!(g.sparkline(&s, 0, buckets), want, "{buckets} buckets");
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
    // By peer: groups in lists, each group's sparkline counted alone.
    let mut g = Groups::compute(&s, &all(&s), GroupKey::Peer, GroupSort::Count);
    assert!(g.few.is_none());
    assert!(g.iter().all(|g| g.count >= KEPT_SPARKLINE_FROM));
    let kept = |g: &Groups| g.sparklines.0.lock().unwrap().len();
    let first = g.sparkline(&s, 0, 8);
    assert_eq!(first.iter().sum::<u32>(), g.group(0).count);
    assert_eq!(kept(&g), 1);
    assert_eq!(g.sparkline(&s, 0, 8), first, "kept");
    assert_eq!(kept(&g), 1);
    g.sort(&s, GroupSort::Last);
    assert_eq!(kept(&g), 1, "kept by the group, not by its position");
    assert_eq!(g.group(1).count as usize, big + 10);
    assert_eq!(g.sparkline(&s, 1, 8), first, "the same group, moved");
    assert_eq!(kept(&g), 1);
    let publishes = g.sparkline(&s, 0, 8);
    assert_eq!(publishes.iter().sum::<u32>(), g.group(0).count);
    assert_ne!(publishes, first);
    assert_eq!(kept(&g), 2);
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
