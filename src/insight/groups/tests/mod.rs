//! Tests of grouping. The helpers the themes share are here; each module below holds the tests of
//! one theme.

use serde_json::json;

use super::*;
use crate::insight::testing::{SEC, T0, all, demo, ev, generated, store};

mod few;
mod grouping;
mod order;
mod slices;

fn with(mut e: serde_json::Value, f: impl FnOnce(&mut serde_json::Value)) -> serde_json::Value {
    f(&mut e["data"]);
    e
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

/// An empty `peer_id` or `room_id` names no peer or room: each group's PEERS and ROOMS are the
/// distinct non-empty ids among its events, on every way of counting (one pass over few groups,
/// the lists, by peer, in one part or several).
#[test]
fn an_empty_peer_or_room_id_adds_no_peer_or_room_to_a_group() {
    let mut events = Vec::new();
    for n in 0..200u32 {
        let kind = ["join", "publish", "connect"][n as usize % 3];
        let peer = match n % 4 {
            0 => String::new(),
            _ => format!("p{}", n % 7),
        };
        let mut e = ev(n, i64::from(n % 13), kind, &peer, n % 5 == 0);
        match n % 6 {
            0 => e["data"]["room_id"] = json!(""),
            1 => e["data"]["room_id"] = json!(format!("room-{}", n % 3)),
            2 => {
                e["data"].as_object_mut().unwrap().remove("room_id");
            }
            _ => {}
        }
        events.push(e);
    }
    let s = store(&events);
    let shown = all(&s);
    let distinct = |members: &[u32], of: fn(&crate::store::Row) -> Sym| {
        let mut ids: Vec<&str> = members
            .iter()
            .map(|&i| of(s.row(i as usize)))
            .filter(|sym| !sym.is_none())
            .map(|sym| s.str(sym))
            .filter(|id| !id.is_empty())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len() as u32
    };
    for key in GroupKey::ALL {
        let lists = Groups::in_lists(Groups::default(), &s, &shown, key, GroupSort::Count, 1);
        let mut ways = vec![lists];
        for parts in [1, 3] {
            ways.push(Groups::recompute_in(
                Groups::default(),
                &s,
                &shown,
                key,
                GroupSort::Count,
                parts,
            ));
        }
        for g in &ways {
            assert!(!g.is_empty(), "{key:?}");
            for k in 0..g.len() {
                let group = g.group(k);
                let members = g.members(k);
                assert_eq!(group.peers, distinct(members, |r| r.peer_id), "{key:?} {k}");
                assert_eq!(group.rooms, distinct(members, |r| r.room_id), "{key:?} {k}");
            }
        }
    }
}
