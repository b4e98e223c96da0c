//! The related data as the service's own documentation shows it (tests/fixtures/related holds its
//! samples), and what is not related data.

use super::*;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/related/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(text: &str) -> Option<Result<Vec<Object>, String>> {
    let raw: Box<RawValue> = serde_json::from_str(text).unwrap();
    recognise(&raw)
}

#[test]
fn the_documented_samples_are_recognised_by_their_content() {
    let rooms = read(&fixture("rooms-list.json")).unwrap().unwrap();
    assert!(rooms.len() >= 2);
    assert!(rooms.iter().all(|o| matches!(o, Object::Room(_))));
    let one = read(&fixture("room-get.json")).unwrap().unwrap();
    assert!(matches!(&one[..], [Object::Room(r)] if !r.id.is_empty()));

    let sessions = read(&fixture("sessions-list.json")).unwrap().unwrap();
    assert!(!sessions.is_empty());
    let Object::Session(first) = &sessions[0] else {
        panic!("{:?}", sessions[0]);
    };
    assert!(!first.peers.is_empty());
    assert!(first.peers.iter().all(|p| p.joined().is_some()));
    let one = read(&fixture("session-get.json")).unwrap().unwrap();
    let Object::Session(s) = &one[0] else {
        panic!()
    };
    assert_eq!(s.peers[0].id, "2d873b0a-c2c9-41dc-ac72-c6ea9b2f2cc3");
    assert_eq!(s.peers[0].user_id.as_deref(), Some("Batch1-student"));
    assert!(s.peers[0].left() > s.peers[0].joined());

    let stats = read(&fixture("peer-stats.json")).unwrap().unwrap();
    let Object::Stats(st) = &stats[0] else {
        panic!()
    };
    // Three published video layers and tracks (h, m and a screen), one audio track.
    assert_eq!(st.publisher.video.len(), 3);
    let names: Vec<String> = st.tracks().map(|(_, kind, t)| t.name(kind)).collect();
    assert!(
        names.contains(&"video h".to_string()) && names.contains(&"screen".to_string()),
        "{names:?}"
    );
    let h = &st.publisher.video[0].time_series;
    assert_eq!(
        h.points(Metric::PacketLoss),
        [(1738843560000, 0.3), (1738843570000, 0.2)]
    );
    // A null is a gap, not a zero; a metric the track has not is empty.
    let sub = &st.subscriber.video[0].time_series;
    assert!(sub.points(Metric::Bitrate).is_empty());
    assert_eq!(sub.points(Metric::Fps), [(1738843560000, 15.0)]);
    assert!(sub.points(Metric::Jitter).is_empty());
}

#[test]
fn events_and_envelopes_are_not_related_data() {
    for text in [
        r#"{"version":"2.0","id":"e1","type":"client.join.failed","data":{"room_id":"r"}}"#,
        r#"{"limit":1,"total":1,"next":"","events":[]}"#,
        r#"[{"id":"e1","type":"track.add.success","data":{}}]"#,
        r#"{"code":400,"message":"Bad Request","details":["room_id is required"]}"#,
        r#"{"id":"x","name":"y"}"#,
        r#"[]"#,
    ] {
        assert!(read(text).is_none(), "{text}");
    }
}

#[test]
fn an_array_and_a_null_list_are_read_too() {
    let sessions = format!(
        "[{},{}]",
        fixture("session-get.json"),
        r#"{"id":"s2","room_id":"r","peers":[{"id":"p","joined_at":"2026-11-18T10:00:00Z"}]}"#
    );
    let read_back = read(&sessions).unwrap().unwrap();
    assert_eq!(read_back.len(), 2);
    let Object::Session(s2) = &read_back[1] else {
        panic!()
    };
    assert_eq!(s2.peers[0].id, "p");
    assert!(
        read(r#"{"limit":10,"data":null}"#)
            .unwrap()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn related_data_is_kept_once_by_its_id() {
    let mut related = Related::default();
    let objects = || read(&fixture("sessions-list.json")).unwrap().unwrap();
    let n = objects().len();
    assert_eq!(related.add(objects()), n);
    assert_eq!(related.add(objects()), 0);
    assert_eq!(related.sessions.len(), n);
    assert!(
        related.sessions[0].raw.contains("peers"),
        "the JSON as it arrived"
    );
}

/// Files saved at different times hold a session as it was then: the copy that knows more
/// of it (ended, or naming a later time) is kept, whichever is read first, so that a stale
/// active copy does not make a peer who left look still in the call.
#[test]
fn a_sessions_copy_that_knows_more_replaces_a_stale_one_in_either_order() {
    let session = |active: bool, left: Option<&str>| {
        let left = left.map_or(String::new(), |t| format!(r#","left_at":"{t}""#));
        let raw = format!(
            r#"{{"id":"s1","room_id":"r1","active":{active},"created_at":"2026-11-18T10:00:00Z","peers":{{"p1":{{"id":"p1","joined_at":"2026-11-18T10:01:00Z"{left}}}}}}}"#
        );
        Object::Session(Session::parse(&raw).unwrap())
    };
    let stale = || session(true, None);
    let ended = || session(false, Some("2026-11-18T10:30:00Z"));
    for order in [[stale(), ended()], [ended(), stale()]] {
        let mut related = Related::default();
        assert_eq!(related.add(order), 1, "one session");
        assert_eq!(related.sessions.len(), 1);
        let kept = &related.sessions[0];
        assert_eq!(kept.active, Some(false));
        assert_eq!(
            kept.peers[0].left_at.as_deref(),
            Some("2026-11-18T10:30:00Z")
        );
    }
    // Both active, or one not saying whether it is: the one naming the later time is kept,
    // in either order.
    let later = || session(true, None);
    for earlier in [
        r#"{"id":"s1","room_id":"r1","active":true,"created_at":"2026-11-18T10:00:00Z"}"#,
        r#"{"id":"s1","room_id":"r1","created_at":"2026-11-18T10:00:00Z"}"#,
    ] {
        let earlier = || Object::Session(Session::parse(earlier).unwrap());
        for order in [[later(), earlier()], [earlier(), later()]] {
            let mut related = Related::default();
            related.add(order);
            let kept = &related.sessions[0];
            assert_eq!(kept.peers.len(), 1, "the copy that saw the join");
        }
    }
}

/// Each object's JSON: as written when it is on one line (escapes and spacing kept), and on one
/// line when it was written over several (the documented samples are pretty-printed), the same
/// value either way.
#[test]
fn each_object_keeps_its_json_on_one_line() {
    let raws = |objects: Vec<Object>| -> Vec<String> {
        objects
            .into_iter()
            .map(|o| match o {
                Object::Room(r) => r.raw,
                Object::Session(s) => s.raw,
                Object::Stats(s) => s.raw,
            })
            .collect()
    };
    for name in ["rooms-list.json", "sessions-list.json", "session-get.json"] {
        let text = fixture(name);
        assert!(text.trim().contains('\n'), "{name} is pretty-printed");
        let found = raws(read(&text).unwrap().unwrap());
        let whole: serde_json::Value = serde_json::from_str(&text).unwrap();
        let values: Vec<serde_json::Value> = match whole.get("data") {
            Some(serde_json::Value::Array(items)) => items.clone(),
            _ => vec![whole],
        };
        assert_eq!(found.len(), values.len(), "{name}");
        for (raw, value) in found.iter().zip(&values) {
            assert!(!raw.contains(['\n', '\r']), "{name}: {raw}");
            assert_eq!(
                &serde_json::from_str::<serde_json::Value>(raw).unwrap(),
                value
            );
        }
    }
    let line = r#"{"id": "6a1", "name": "caf\u00e9",  "enabled": true}"#;
    assert_eq!(raws(read(line).unwrap().unwrap()), [line]);
}
