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
