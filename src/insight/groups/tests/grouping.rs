//! What is grouped and how groups are named: by type, code and name with counts, shown events
//! only, absent fields a group of their own, names first met, every key losing no event.

use super::*;

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
