//! The bundled demo dataset, made by `callscope demo-data --out DIR` with the generator's demo
//! parameters and compressed with `gzip -9 -n` (a test keeps each file equal to the generator's):
//! `assets/demo.ndjson.gz` holds the events; beside them, what the platform's other endpoints say
//! about the same rooms, sessions and peers: `assets/demo-rooms.json.gz` (one response of the
//! rooms endpoint), `assets/demo-sessions.json.gz` (one response of the sessions endpoint holding
//! every room's sessions) and `assets/demo-peer-stats.ndjson.gz` (one response of the peer quality
//! stats endpoint a line).

use std::sync::Arc;

use super::dump::{self, DumpFile};
use crate::store::{Batch, Blob};

/// The gzipped NDJSON of the demo's events, built into the binary so `--demo` works anywhere.
pub const DEMO_GZ: &[u8] = include_bytes!("../../assets/demo.ndjson.gz");
/// The gzipped rooms response.
pub const ROOMS_GZ: &[u8] = include_bytes!("../../assets/demo-rooms.json.gz");
/// The gzipped sessions response.
pub const SESSIONS_GZ: &[u8] = include_bytes!("../../assets/demo-sessions.json.gz");
/// The gzipped peer quality stats responses, one a line.
pub const PEER_STATS_GZ: &[u8] = include_bytes!("../../assets/demo-peer-stats.ndjson.gz");

/// How the demo is named in headers and messages.
pub const DEMO_NAME: &str = "demo dataset";

fn gunzip(packed: &[u8]) -> Vec<u8> {
    let mut decoder = flate2::read::GzDecoder::new(packed);
    let mut bytes = Vec::new();
    // The assets are part of the binary and checked by the tests; a failure here is a build defect.
    std::io::Read::read_to_end(&mut decoder, &mut bytes)
        .expect("the bundled demo dataset is valid gzip");
    bytes
}

/// The demo's events, NDJSON.
pub fn events_ndjson() -> Vec<u8> {
    gunzip(DEMO_GZ)
}

/// The demo's rooms: one response of `GET /v2/rooms`, `{"limit","data":[room...],"last"}`.
pub fn rooms_json() -> Vec<u8> {
    gunzip(ROOMS_GZ)
}

/// The demo's sessions: one response of `GET /v2/sessions`, `{"limit","data":[session...],"last"}`,
/// holding the sessions of every room, newest first.
pub fn sessions_json() -> Vec<u8> {
    gunzip(SESSIONS_GZ)
}

/// The demo's peer quality stats: one response of `GET /v2/analytics/peer-stats` a line.
pub fn peer_stats_ndjson() -> Vec<u8> {
    gunzip(PEER_STATS_GZ)
}

/// Reads the demo dataset into one batch.
pub fn load() -> Batch {
    let (batch, problems) = dump::read_file(DumpFile {
        path: DEMO_NAME.into(),
        blob: Arc::new(Blob::Owned(events_ndjson())),
    });
    debug_assert!(problems.is_empty(), "{problems:?}");
    batch
}

/// The demo's related data: its rooms, their sessions, and the quality stats of the peers its
/// stories need.
pub fn related() -> crate::related::Related {
    let mut related = crate::related::Related::default();
    for bytes in [rooms_json(), sessions_json(), peer_stats_ndjson()] {
        // The assets are part of the binary and checked by the tests.
        let objects = crate::related::read_all(&bytes).expect("the demo's related data reads");
        related.add(objects);
    }
    related
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Value> {
        std::str::from_utf8(bytes)
            .expect("UTF-8")
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON value a line"))
            .collect()
    }

    #[test]
    fn the_related_data_is_bundled_and_names_the_demos_rooms() {
        let events = lines(&events_ndjson());
        let rooms: Value = serde_json::from_slice(&rooms_json()).expect("one JSON value");
        let sessions: Value = serde_json::from_slice(&sessions_json()).expect("one JSON value");
        let stats = lines(&peer_stats_ndjson());
        let room_ids: Vec<&str> = rooms["data"]
            .as_array()
            .expect("rooms")
            .iter()
            .map(|r| r["id"].as_str().expect("an id"))
            .collect();
        assert!(
            events
                .iter()
                .all(|e| { room_ids.contains(&e["data"]["room_id"].as_str().expect("a room id")) })
        );
        assert!(!sessions["data"].as_array().expect("sessions").is_empty());
        assert!(stats.iter().all(|s| s["peer_id"].is_string()));
        assert!(!stats.is_empty());
    }
}
