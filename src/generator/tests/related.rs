//! The related data agrees with the events: every session and room named is listed, stays do
//! not overlap, track events and quality stats fall inside their peer's stay, reproducibly for
//! any seed and size.

use super::*;

const ROOM_KEYS: &[&str] = &[
    "id",
    "name",
    "enabled",
    "description",
    "customer_id",
    "recording_source_template",
    "template_id",
    "template",
    "region",
    "created_at",
    "key",
    "updated_at",
    "large_room",
    "max_duration_seconds",
];
const SESSION_KEYS: &[&str] = &[
    "id",
    "room_id",
    "customer_id",
    "active",
    "peers",
    "created_at",
    "updated_at",
];
const SESSION_PEER_KEYS: &[&str] = &[
    "id",
    "session_id",
    "name",
    "role",
    "user_id",
    "joined_at",
    "left_at",
];

/// `keys` holds `expected` in that order, and nothing else but `extra`.
fn assert_keys(v: &Value, expected: &[&str], extra: &[&str]) {
    let got = keys(v);
    let known: Vec<&str> = got
        .iter()
        .copied()
        .filter(|k| expected.contains(k))
        .collect();
    assert_eq!(known, expected, "in {v}");
    for k in got {
        assert!(expected.contains(&k) || extra.contains(&k), "{k} in {v}");
    }
}

fn check_rooms_and_sessions_named_by_events(r: &Related) {
    let rooms: HashMap<&str, &Value> = r.rooms["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|room| (s(room, "/id"), room))
        .collect();
    let sessions: HashMap<&str, &Value> = r.sessions().iter().map(|x| (s(x, "/id"), x)).collect();
    for v in &r.events {
        let room = s(v, "/data/room_id");
        let listed = rooms
            .get(room)
            .unwrap_or_else(|| panic!("room {room} of {v} is not listed"));
        if let Some(name) = v.pointer("/data/room_name") {
            assert_eq!(listed["name"], *name, "{v}");
        }
        if let Some(customer) = v.pointer("/data/account_id") {
            assert_eq!(listed["customer_id"], *customer, "{v}");
        }
        if let Some(id) = v.pointer("/data/session_id").and_then(Value::as_str) {
            let session = sessions
                .get(id)
                .unwrap_or_else(|| panic!("session {id} of {v} is not listed"));
            assert_eq!(s(session, "/room_id"), room, "{v}");
            assert!(at(s(session, "/created_at")) <= nanos(v), "{v}");
        }
    }
    for session in r.sessions() {
        assert!(rooms.contains_key(s(session, "/room_id")));
    }
}

fn check_sessions(r: &Related) {
    let data = r.sessions();
    assert_eq!(r.sessions["limit"].as_u64(), Some(data.len() as u64));
    assert_eq!(
        r.sessions["last"].as_str(),
        data.last().map(|x| s(x, "/id")).or(Some(""))
    );
    let mut by_room: BTreeMap<&str, Vec<(i64, Option<i64>)>> = BTreeMap::new();
    let mut last_start = i64::MAX;
    for session in data {
        assert_keys(session, SESSION_KEYS, &[]);
        let created = at(s(session, "/created_at"));
        let updated = at(s(session, "/updated_at"));
        assert!(created <= last_start, "newest first");
        last_start = created;
        let active = session["active"].as_bool().expect("a boolean");
        let peers = session["peers"].as_object().expect("an object");
        assert!(!peers.is_empty());
        let mut end = Some(created);
        for (id, p) in peers {
            assert_keys(p, &SESSION_PEER_KEYS[..6], &["left_at"]);
            assert_eq!(s(p, "/id"), id);
            assert_eq!(s(p, "/session_id"), s(session, "/id"));
            uuid::Uuid::parse_str(id).expect("a peer id is a uuid");
            let joined = at(s(p, "/joined_at"));
            assert!(created <= joined && joined <= updated, "{p}");
            match p.get("left_at") {
                Some(left) => {
                    let left = at(left.as_str().unwrap());
                    assert!(joined < left && left <= updated, "{p}");
                    end = end.map(|e| e.max(left));
                }
                None => {
                    assert!(active, "{p} has not left an ended session");
                    end = None;
                }
            }
        }
        assert_eq!(active, end.is_none(), "{}", s(session, "/id"));
        by_room
            .entry(s(session, "/room_id"))
            .or_default()
            .push((created, end));
    }
    for (room, mut sessions) in by_room {
        sessions.sort();
        for pair in sessions.windows(2) {
            let ended = pair[0]
                .1
                .unwrap_or_else(|| panic!("{room}: only the last is active"));
            assert!(ended < pair[1].0, "{room}: sessions overlap");
        }
    }
}

fn check_final_join_failures(r: &Related) {
    let stays = r.stays();
    let mut finals = 0;
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type") == "client.join.failed" && is_terminal(v))
    {
        finals += 1;
        for stay in stays.get(s(v, "/data/peer_id")).into_iter().flatten() {
            assert!(
                stay.left.is_some_and(|l| l < nanos(v)),
                "{} in session {} after its final join failure",
                s(v, "/data/peer_id"),
                stay.session
            );
        }
    }
    assert!(finals > 0 || r.events.len() < 100);
}

fn check_track_events(r: &Related) {
    let stays = r.stays();
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type").starts_with("track."))
    {
        let t = nanos(v);
        let stay = stays
            .get(s(v, "/data/peer_id"))
            .into_iter()
            .flatten()
            .find(|stay| stay.session == s(v, "/data/session_id"))
            .unwrap_or_else(|| panic!("the peer of {v} is not in its session"));
        assert!(stay.holds(t), "{v} outside the stay");
        assert_eq!(stay.room, s(v, "/data/room_id"));
        assert_eq!(stay.user, s(v, "/data/user_id"));
        // The sessions endpoint writes milliseconds, events nanoseconds.
        let joined = at(s(v, "/data/joined_at"));
        assert!((0..1_000_000).contains(&(joined - stay.joined)), "{v}");
        let started = at(s(v, "/data/started_at"));
        assert!(stay.joined < started && started <= t, "{v}");
        assert!(["audio", "video"].contains(&s(v, "/data/type")));
        assert!(["regular", "screen"].contains(&s(v, "/data/source")));
        assert!(v["data"]["mute"].is_boolean());
        if s(v, "/type") == "track.remove.success" {
            let stopped = at(s(v, "/data/stopped_at"));
            assert!(started < stopped && stopped <= t, "{v}");
        }
    }
}

fn check_recordings(r: &Related) {
    let stays = r.stays();
    let sessions: HashMap<&str, &Value> = r.sessions().iter().map(|x| (s(x, "/id"), x)).collect();
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type") == "beam.recording.success")
    {
        assert_keys(&v["data"], BEAM_KEYS, &[]);
        let session = sessions[s(v, "/data/session_id")];
        assert_eq!(s(session, "/room_id"), s(v, "/data/room_id"));
        assert_eq!(
            at(s(v, "/data/session_started_at")),
            at(s(session, "/created_at"))
        );
        let (started, stopped) = (at(s(v, "/data/started_at")), at(s(v, "/data/stopped_at")));
        assert_eq!(
            v["data"]["duration"].as_i64(),
            Some((stopped - started) / SEC_NS)
        );
        assert!(stopped < at(s(v, "/data/created_at")) && at(s(v, "/data/created_at")) < nanos(v));
        let recorder = &stays[s(v, "/data/peer_id")];
        assert!(
            recorder
                .iter()
                .any(|stay| stay.holds(started) && stay.holds(stopped)),
            "the recorder of {v} is in its session while it records"
        );
    }
}

fn check_stats(r: &Related) {
    let stays = r.stays();
    let sessions: HashMap<&str, &Value> = r.sessions().iter().map(|x| (s(x, "/id"), x)).collect();
    let mut published: HashMap<&str, HashSet<&str>> = HashMap::new();
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type").starts_with("track."))
    {
        published
            .entry(s(v, "/data/peer_id"))
            .or_default()
            .insert(s(v, "/data/track_id"));
    }
    for response in &r.stats {
        assert_keys(
            response,
            &[
                "peer_id",
                "session_id",
                "room_id",
                "publisher",
                "subscriber",
            ],
            &[],
        );
        let session = sessions[s(response, "/session_id")];
        assert_eq!(
            session["active"], false,
            "stats come after the session ended"
        );
        assert_eq!(s(session, "/room_id"), s(response, "/room_id"));
        let stay = stays[s(response, "/peer_id")]
            .iter()
            .find(|stay| stay.session == s(response, "/session_id"))
            .expect("the peer was in the session");
        let left = stay.left.expect("ended");
        let mut own = HashSet::new();
        for (side, kind) in [
            ("publisher", "video"),
            ("publisher", "audio"),
            ("subscriber", "video"),
            ("subscriber", "audio"),
        ] {
            assert_keys(&response[side], &["video", "audio"], &[]);
            for entry in response[side][kind].as_array().expect("a list") {
                let series: &[&str] = match (side, kind) {
                    ("publisher", "video") => &["bitrate", "fps", "packet_loss_percent", "rtt_ms"],
                    ("publisher", _) => &["bitrate", "packet_loss_percent", "rtt_ms", "jitter_ms"],
                    (_, "video") => &["bitrate", "fps", "freeze_count"],
                    _ => &["bitrate", "concealed_samples", "packet_loss_percent"],
                };
                let head: &[&str] = match (side, kind) {
                    ("publisher", "video") => &["track_id", "type", "rid", "time_series"],
                    (_, "video") => &["track_id", "type", "time_series"],
                    _ => &["track_id", "time_series"],
                };
                assert_keys(entry, head, &[]);
                if kind == "video" {
                    assert!(["regular", "screen"].contains(&s(entry, "/type")));
                }
                if side == "publisher" {
                    own.insert(s(entry, "/track_id"));
                    if kind == "video" {
                        assert!(
                            [json!("h"), json!("m"), json!("l"), Value::Null]
                                .contains(&entry["rid"])
                        );
                    }
                }
                let ts = &entry["time_series"];
                assert_keys(ts, &[&["timestamps"], series].concat(), &[]);
                let stamps: Vec<i64> = ts["timestamps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_i64().expect("unix ms"))
                    .collect();
                for name in series {
                    let values = ts[*name].as_array().unwrap();
                    assert_eq!(values.len(), stamps.len(), "{name} parallel to timestamps");
                    let nulls_allowed = side == "subscriber" && *name == "bitrate";
                    assert!(
                        values
                            .iter()
                            .all(|x| x.is_number() || (nulls_allowed && x.is_null())),
                        "{name}"
                    );
                }
                for pair in stamps.windows(2) {
                    assert_eq!(pair[1] - pair[0], 10_000);
                }
                for t in stamps {
                    let t = t * 1_000_000;
                    assert!(stay.joined <= t && t <= left, "a sample outside the stay");
                }
            }
        }
        if let Some(tracks) = published.get(s(response, "/peer_id")) {
            assert!(
                tracks.is_subset(&own),
                "the stats name the tracks of the track events"
            );
        }
    }
}

fn check_all(r: &Related) {
    check_rooms_and_sessions_named_by_events(r);
    check_sessions(r);
    check_final_join_failures(r);
    check_track_events(r);
    check_recordings(r);
    check_stats(r);
}

#[test]
fn every_session_and_room_an_event_names_is_listed_with_its_room() {
    check_rooms_and_sessions_named_by_events(related());
    let rooms = related().rooms["data"].as_array().unwrap();
    assert_eq!(rooms.len(), 10);
    for room in rooms {
        assert_keys(room, ROOM_KEYS, &["recording_info", "size"]);
        assert_eq!(room["enabled"], true);
    }
    assert_eq!(
        related().rooms["last"],
        rooms.last().unwrap()["id"],
        "last is the id of the last room"
    );
    assert_eq!(related().rooms["limit"], rooms.len());
}

#[test]
fn session_peers_join_before_they_leave_and_sessions_do_not_overlap() {
    check_sessions(related());
    let active = related()
        .sessions()
        .iter()
        .filter(|x| x["active"] == true)
        .count();
    assert!(
        active >= 1,
        "a meeting is still running when the data is read"
    );
}

#[test]
fn no_peer_is_in_a_session_after_its_final_join_failure() {
    check_final_join_failures(related());
}

#[test]
fn track_events_fall_inside_their_peers_stay() {
    check_track_events(related());
    check_recordings(related());
}

#[test]
fn quality_stats_follow_the_peers_stay_and_tracks() {
    check_stats(related());
    let stats = &related().stats;
    assert!(stats.len() >= 10, "{}", stats.len());
    let empty = |v: &Value, path: &str| v.pointer(path).unwrap().as_array().unwrap().is_empty();
    assert!(
        stats
            .iter()
            .any(|v| empty(v, "/publisher/video") && empty(v, "/publisher/audio")),
        "someone only watched"
    );
    assert!(
        stats.iter().any(|v| ["video", "audio"].iter().any(|k| {
            v["subscriber"][k].as_array().unwrap().iter().any(|e| {
                e["time_series"]["timestamps"]
                    .as_array()
                    .unwrap()
                    .is_empty()
            })
        })),
        "some series are empty"
    );
    assert!(
        stats
            .iter()
            .any(|v| v.to_string().contains("\"rid\":\"m\"")),
        "simulcast layers"
    );
    let storm_peers: HashSet<&str> = demo()
        .iter()
        .filter(|v| s(v, "/type") == "client.join.failed" && s(v, "/data/room_id") == STORM_ROOM_ID)
        .map(|v| s(v, "/data/peer_id"))
        .collect();
    let cluster_peers: HashSet<&str> = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/agent/sdk_version") == Some(&json!(DISCONNECT_CLUSTER_SDK_VERSION))
        })
        .map(|v| s(v, "/data/peer_id"))
        .collect();
    let with_stats = |peers: &HashSet<&str>| {
        stats
            .iter()
            .filter(|v| peers.contains(s(v, "/peer_id")))
            .count()
    };
    assert!(with_stats(&storm_peers) >= 3);
    assert!(with_stats(&cluster_peers) >= 3);
}

#[test]
fn other_seeds_and_sizes_are_as_consistent() {
    for (events, seed) in [(0, 1), (1, 2), (23, 3), (240, 4), (1001, 11), (4000, 5)] {
        let r = Related::of(events, seed);
        assert_eq!(r.events.len(), events);
        check_all(&r);
    }
}

#[test]
fn related_files_are_reproducible() {
    let a = Dataset::new(600, 9);
    let b = Dataset::new(600, 9);
    for (_, write) in ASSETS {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        write(&a, &mut x).unwrap();
        write(&b, &mut y).unwrap();
        assert_eq!(x, y);
        let mut again = Vec::new();
        write(&a, &mut again).unwrap();
        assert_eq!(x, again, "writing twice gives the same bytes");
    }
    let mut events = Vec::new();
    a.write_events(&mut events).unwrap();
    assert_eq!(
        events,
        generate(600, 9),
        "the dataset's events are write_ndjson's"
    );
}
