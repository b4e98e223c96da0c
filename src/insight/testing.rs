//! Small stores for the unit tests of this module.

use serde_json::{Value, json};

use crate::store::{Batch, Store};

/// 2026-11-18T11:00:00Z in nanoseconds.
pub const T0: i64 = 1_794_999_600_000_000_000;
pub const SEC: i64 = 1_000_000_000;

/// An error event `secs` seconds after [`T0`], of type alias `ty` (`join`, `publish`...), with the
/// action the spec observed for it.
pub fn ev(n: u32, secs: i64, ty: &str, peer: &str, terminal: bool) -> Value {
    let t = crate::event::EventType::from_arg(ty).unwrap();
    json!({
        "version": "2.0",
        "id": format!("00000000-0000-4000-8000-{n:012x}"),
        "timestamp": crate::time::format_nanos(T0 + secs * SEC),
        "type": t.name(),
        "data": {
            "room_id": "room-1",
            "peer_id": peer,
            "error_code": 500,
            "error_name": "ServerErrors",
            "is_terminal": terminal,
            "action": t.expected_action().unwrap_or(""),
        }
    })
}

/// A store of the events, loaded as one NDJSON dump.
pub fn store(events: &[Value]) -> Store {
    let mut store = Store::new();
    store.merge(Batch::of_objects(events.iter().map(|e| e.to_string())).unwrap());
    store
}

/// Every event shown, in load order.
pub fn all(store: &Store) -> Vec<u32> {
    (0..store.len() as u32).collect()
}

/// `events` events of the demo generator from `seed`, loaded as one NDJSON dump.
pub fn generated(events: usize, seed: u64) -> Store {
    let mut store = Store::new();
    store.merge(Batch::of_objects(crate::generator::ndjson_lines(events, seed)).unwrap());
    store
}

/// The demo dataset, loaded.
pub fn demo() -> Store {
    let mut store = Store::new();
    store.merge(crate::source::demo::load());
    store
}
