//! Rows: the fields filters and the list need, read exactly from the bytes kept as read, absent
//! or mistyped fields, a peer's and the track rows, codes at their limits, room reserved ahead.

use super::*;

#[test]
fn raw_bytes_are_kept_exactly_as_read() {
    let mut store = Store::new();
    let pretty = "{\n  \"id\": \"x1\",\n  \"n\": 1.50,\n  \"big\": 12345678901234567890,\n  \"e\": 1e3,\n  \"esc\": \"\\u001b\\u00e9\"\n}";
    let blob = format!("[{pretty}]");
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(blob.clone().into_bytes())));
    builder.push(1, 1 + pretty.len()).unwrap();
    store.merge(builder.finish());
    store.merge(batch(QUIRKS));
    assert_eq!(store.raw(0), pretty.as_bytes());
    for (k, line) in QUIRKS.lines().enumerate() {
        assert_eq!(store.raw(k + 1), line.as_bytes());
    }
    assert_eq!(store.event(0).id(), Some("x1"));
    assert_eq!(store.event(0).object()["esc"], "\u{1b}é");
}

#[test]
fn rows_hold_the_fields_filters_and_the_list_need() {
    let mut store = Store::new();
    store.merge(batch(QUIRKS));
    let s = |sym| store.str(sym).to_string();
    let r = store.row(0);
    assert_eq!(r.ts, 1_731_928_800 * 1_000_000_000 + 123_456_789);
    assert_eq!(
        Some(r.ts),
        parse_rfc3339_nanos("2024-11-18T11:20:00.123456789Z")
    );
    assert_eq!(s(r.kind), "client.publish.failed");
    assert_eq!(r.error_code(), Some(4006));
    assert_eq!(r.is_terminal(), Some(false));
    assert_eq!(s(r.room_id), "6735e0b1c4a92f5d18e3b7a1");
    assert_eq!(s(r.room_name), "weekly-standup");
    assert_eq!(s(r.session_id), "673b1f2e9c4d5a6b7c8d9e0f");
    assert_eq!(s(r.peer_id), "0b6c9a52-7d3e-4f1a-8b2c-5e6f7a8b9c0d");
    assert_eq!(s(r.user_id), "usr_8c1f2a90");
    assert_eq!(s(r.user_name), "Amara Okafor");
    assert_eq!(s(r.role), "host");
    assert_eq!(s(r.error_name), "ICEDisconnected");
    assert_eq!(s(r.error_message), "[PUBLISH]: ICE Connection Disconnected");
    assert_eq!(s(r.action), "PUBLISH");
    assert_eq!(s(r.domain), "prod-in2.100ms.live");
    let a = store.agent(r);
    assert_eq!(s(a.sdk), "web");
    assert_eq!(s(a.sdk_version), "0.12.3");
    assert_eq!(s(a.os), "macOS");
    assert_eq!(s(a.os_version), "14.6.1");
    assert_eq!(s(a.device_model), "Chrome 130");
    assert_eq!(s(a.env), "prod");

    let r = store.row(1);
    assert_eq!(r.ts % 1_000_000_000, 7);
    assert_eq!(r.is_terminal(), Some(true));
    assert!(r.session_id.is_none(), "a null session_id is absent");
    assert_eq!(s(store.agent(r).device_model), "iPhone14,2");
    assert_eq!(s(r.domain), "prod-in2.100ms.live");
}

#[test]
fn absent_and_mistyped_fields_leave_rows_empty_rather_than_failing() {
    let mut store = Store::new();
    let text = [
        r#"{"id":"t1","timestamp":"2024-11-18T11:10:00.4Z","type":"track.add.success","data":{"room_id":"r","track_id":"k"}}"#,
        r#"{"id":"x1","timestamp":"yesterday","type":"client.connect.failed","data":{"error_code":"2003","is_terminal":"true","room_id":42,"agent":"flutter"}}"#,
        r#"{"id":"x2"}"#,
        r#"{"id":"x3","data":{"error_code":500.0,"agent":{"string":"sdk:ios,env:qa"}}}"#,
        r#"{"id":"x4","data":{"error_code":0}}"#,
        r#"{"id":"x5","data":{"error_code":-9223372036854775808}}"#,
    ]
    .join("\n");
    store.merge(batch(&text));
    assert_eq!(store.len(), 6);
    let t = store.row(0);
    assert_eq!(store.str(t.kind), "track.add.success");
    assert_eq!(t.is_terminal(), None);
    assert_eq!(t.error_code(), None);
    assert_eq!(t.ts % 1_000_000_000, 400_000_000);
    let x = store.row(1);
    assert_eq!(x.ts, NO_TIME);
    assert_eq!(x.error_code(), None);
    assert_eq!(x.is_terminal(), None);
    assert!(x.room_id.is_none() && store.agent(x).sdk.is_none() && store.agent(x).env.is_none());
    let bare = store.row(2);
    assert!(bare.kind.is_none() && bare.room_id.is_none());
    assert_eq!(bare.ts, NO_TIME);
    let x3 = store.row(3);
    assert_eq!(x3.error_code(), Some(500));
    // An agent with a string alone: its other fields read as absent.
    let a3 = store.agent(x3);
    assert_eq!(store.str(a3.env), "qa");
    assert_eq!(store.str(a3.string), "sdk:ios,env:qa");
    assert!(a3.sdk.is_none() && a3.sdk_version.is_none() && a3.device_model.is_none());
    assert!(a3.os.is_none() && a3.os_version.is_none());
    assert!(store.text(x3, Field::Sdk).is_none());
    assert_eq!(store.str(store.text(x3, Field::Env)), "qa");
    // A code of zero, or the least there is, is a code, not its absence.
    assert_eq!(store.row(4).error_code(), Some(0));
    assert_eq!(store.row(5).error_code(), Some(i64::MIN));
}

#[test]
fn a_batch_refuses_a_span_that_is_not_json() {
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(b"{\"id\":\"a\"} nope".to_vec())));
    assert!(builder.push(11, 15).is_err());
    assert!(builder.push(0, 10).is_ok());
    assert_eq!(builder.len(), 1);
}

#[test]
fn the_rows_of_a_peer_are_every_row_with_its_peer_in_load_order() {
    let lines = generated_lines(600, 4);
    let mut store = Store::new();
    // Two batches, the second repeating some events of the first (dropped as duplicates).
    store.merge(batch(&(lines[..400].join("\n") + "\n")));
    store.merge(batch(&(lines[300..].join("\n") + "\n")));
    assert_eq!(store.len(), 600);
    let mut peers: Vec<Sym> = store.rows().iter().map(|r| r.peer_id).collect();
    peers.sort();
    peers.dedup();
    assert!(peers.len() > 20, "{} peers", peers.len());
    for peer in peers {
        let scanned: Vec<u32> = (0..store.len() as u32)
            .filter(|&i| store.row(i as usize).peer_id == peer && !peer.is_none())
            .collect();
        assert_eq!(store.rows_of_peer(peer), scanned);
    }
}

#[test]
fn the_track_rows_are_every_timed_track_event_in_load_order_across_batches() {
    let mut lines = generated_lines(600, 4);
    // A track event without a time, and types that only look like a track event's.
    lines.insert(
        100,
        r#"{"id":"t-no-time","type":"track.add.success","data":{"peer_id":"p"}}"#.to_string(),
    );
    lines.insert(
        200,
        r#"{"id":"t-other","timestamp":"2024-11-18T10:00:00Z","type":"tracks.add","data":{}}"#
            .to_string(),
    );
    lines.insert(
        300,
        r#"{"id":"t-upper","timestamp":"2024-11-18T10:00:00Z","type":"Track.add","data":{}}"#
            .to_string(),
    );
    let mut store = Store::new();
    // Two batches, the second repeating some events of the first (dropped as duplicates).
    store.merge(batch(&(lines[..400].join("\n") + "\n")));
    store.merge(batch(&(lines[300..].join("\n") + "\n")));
    assert_eq!(store.len(), lines.len());
    let scanned: Vec<u32> = (0..store.len() as u32)
        .filter(|&i| {
            let row = store.row(i as usize);
            row.ts != NO_TIME && store.str(row.kind).starts_with("track.")
        })
        .collect();
    assert!(scanned.len() > 10, "{} track events", scanned.len());
    assert_eq!(store.track_rows(), scanned);
    // Each user's among them, and none for no user.
    let mut users: Vec<Sym> = scanned
        .iter()
        .map(|&i| store.row(i as usize).user_id)
        .collect();
    users.sort();
    users.dedup();
    let mut more_than_one = 0;
    for user in users {
        let theirs: Vec<u32> = scanned
            .iter()
            .copied()
            .filter(|&i| !user.is_none() && store.row(i as usize).user_id == user)
            .collect();
        more_than_one += usize::from(theirs.len() > 1);
        assert_eq!(
            store.track_rows_of_user(user),
            theirs,
            "{}",
            store.str(user)
        );
    }
    assert!(
        more_than_one > 3,
        "{more_than_one} users of several track events"
    );
    assert!(store.track_rows_of_user(Sym::NONE).is_empty());
}

#[test]
fn a_batch_of_objects_keeps_each_as_given_and_refuses_what_is_not_json() {
    let objects = [r#"{"id":"a","type":"x"}"#, r#"{ "id" : "b" }"#];
    let mut store = Store::new();
    store.merge(Batch::of_objects(objects).unwrap());
    assert_eq!(store.raw(0), objects[0].as_bytes());
    assert_eq!(store.raw(1), objects[1].as_bytes());
    assert!(Batch::of_objects([r#"{"id":"a"}"#, "{\"id\":"]).is_err());
    for not_an_object in ["[1]", r#"["a","b"]"#, "\"text\"", "5", "null"] {
        assert!(
            Batch::of_objects([not_an_object]).is_err(),
            "{not_an_object} read as an event"
        );
    }
}

#[test]
fn room_is_reserved_for_the_rest_of_a_file_but_not_on_a_wild_guess() {
    // A first batch of small events at the start of a large file (the rest, here, is blank).
    let small: String = (0..100).map(|i| format!("{{\"id\":\"e{i}\"}}\n")).collect();
    let mut bytes = small.clone().into_bytes();
    bytes.resize(8 << 20, b' ');
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(bytes)));
    let mut start = 0;
    for line in small.lines() {
        builder.push(start, start + line.len()).unwrap();
        start += line.len() + 1;
    }
    let mut store = Store::new();
    store.merge(builder.finish());
    assert_eq!(store.len(), 100);
    // The file's size over these events' would guess some 800,000 events.
    assert!(store.rows.capacity() <= 400, "{}", store.rows.capacity());
    // A file of events like its first batch's is reserved for at once.
    let lines: String = (0..5000)
        .map(|i| format!("{{\"id\":\"f{i:04}\"}}\n"))
        .collect();
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(lines.clone().into_bytes())));
    let mut start = 0;
    for line in lines.lines().take(1000) {
        builder.push(start, start + line.len()).unwrap();
        start += line.len() + 1;
    }
    let mut store = Store::new();
    store.merge(builder.finish());
    assert!(store.rows.capacity() >= 4000, "{}", store.rows.capacity());
    // Past a fair sample (20,000 events), the guess is trusted whole: the rows never grow again
    // while the rest of the file is merged, batch after batch (trusted up to four times the
    // first batch only, they would grow at 100,000).
    let lines: String = (0..200_000)
        .map(|i| format!("{{\"id\":\"{i:08x}-0000-4000-8000-{i:012x}\"}}\n"))
        .collect();
    let blob = Arc::new(Blob::Owned(lines.clone().into_bytes()));
    let mut store = Store::new();
    let mut start = 0;
    let mut capacities = Vec::new();
    for chunk in lines.lines().collect::<Vec<_>>().chunks(25_000) {
        let mut builder = BatchBuilder::new(Arc::clone(&blob));
        for line in chunk {
            builder.push(start, start + line.len()).unwrap();
            start += line.len() + 1;
        }
        store.merge(builder.finish());
        capacities.push(store.rows.capacity());
    }
    assert_eq!(store.len(), 200_000);
    assert!(capacities[0] >= 200_000, "{capacities:?}");
    assert!(
        capacities.iter().all(|&c| c == capacities[0]),
        "{capacities:?}"
    );
    // The ids are still each kept once.
    let again = lines.lines().take(30_000).collect::<Vec<_>>().join("\n");
    let merged = store.merge(batch(&again));
    assert_eq!((merged.added, merged.duplicates), (0, 30_000));
}

#[test]
fn a_row_keeps_its_agent_as_one_number_and_stays_104_bytes() {
    // A million events hold a million of each: every byte here is a megabyte there. The seven
    // fields of an event's agent are kept once per distinct agent (`Store::agent`), not in each
    // row: 136 bytes a row took a million generated events past a fifth of their dump in memory.
    // But not 128 bytes a row: reading one field of a million records 128 bytes apart took
    // twice as long as 136 bytes apart on the 2-core machine the benchmarks run on (why is not
    // established: cache sets, prefetching or memory channels), and filters and groups are such
    // scans. The flags of a row (the code's presence, `is_terminal`, what the search knows of
    // the located strings) are bits of one `u16`: as a `bool` each and an `Option<u8>` they
    // left the row at 112 bytes, 38 MiB more at five million events.
    assert_eq!(std::mem::size_of::<Row>(), 104);
    assert_eq!(std::mem::size_of::<Located>(), 48);
}

#[test]
fn the_other_values_of_an_event_are_those_no_row_field_holds() {
    // Every field a row holds, each with a value of its own, and values at other keys of each
    // level, deeper, and in arrays. The agent's domain is an other value when `data` has one.
    let event = r#"{"id":"v-id","timestamp":"2024-11-18T10:00:00Z","type":"v-type","version":"o-version","data":{"user_id":"v-user-id","user_name":"v-user-name","peer_id":"v-peer-id","room_id":"v-room-id","room_name":"v-room-name","session_id":"v-session-id","role":"v-role","error_code":7,"error_name":"v-error-name","error_message":"v-error-message","error_description":"v-description","is_terminal":true,"action":"v-action","domain":"v-domain","account_id":"o-account","tracks":[{"label":"o-label","kind":"o-video","note":"o-long enough to be remembered"},"o-loose"],"agent":{"sdk":"v-sdk","sdk_version":"v-sdk-version","device_model":"v-device-model","os":"v-os","os_version":"v-os-version","domain":"o-agent-domain","string":"v-string","framework":"o-framework"}}}"#;
    // Each read the plain way and the thorough way (a duplicated key at the end sends it there).
    let thorough = event.replacen(
        r#""type":"v-type""#,
        r#""type":"v-type","type":"v-type""#,
        1,
    );
    assert!(read::plain::read(event, None).is_some());
    assert!(read::plain::read(&thorough, None).is_none());
    for line in [event.to_string(), thorough] {
        let mut store = Store::new();
        store.merge(batch(&line));
        let row = store.row(0);
        let mut others: Vec<&str> = store
            .sets
            .get(row.others)
            .iter()
            .map(|&s| store.str(s))
            .collect();
        others.sort_unstable();
        assert_eq!(
            others,
            [
                "o-account",
                "o-agent-domain",
                "o-framework",
                "o-label",
                "o-long enough to be remembered",
                "o-loose",
                "o-version",
                "o-video",
            ],
            "{line}"
        );
        let held: Vec<&str> = (row.value_syms().into_iter())
            .chain(store.agent(row).value_syms())
            .chain([row.kind])
            .map(|s| store.str(s))
            .collect();
        assert_eq!(held.len(), 18);
        assert!(held.iter().all(|s| s.starts_with("v-")), "{held:?}");
        assert!(!row.search_raw());
    }
}

#[test]
fn codes_at_the_limits_and_every_is_terminal_are_read_back_exactly() {
    let codes = [None, Some(0), Some(-1), Some(i64::MIN), Some(i64::MAX)];
    let terminals = [None, Some(false), Some(true)];
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    for code in codes {
        for terminal in terminals {
            let mut data = serde_json::Map::new();
            if let Some(code) = code {
                data.insert("error_code".into(), code.into());
            }
            if let Some(terminal) = terminal {
                data.insert("is_terminal".into(), terminal.into());
            }
            let n = lines.len();
            lines.push(
                serde_json::json!({
                    "id": format!("e{n}"),
                    "timestamp": "2024-11-18T10:00:00.5Z",
                    "type": "client.join.failed",
                    "data": data,
                })
                .to_string(),
            );
            expected.push((code, terminal));
        }
    }
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    let read: Vec<(Option<i64>, Option<bool>)> = store
        .rows()
        .iter()
        .map(|r| (r.error_code(), r.is_terminal()))
        .collect();
    assert_eq!(read, expected);
    // The filters read them as the rows hold them.
    for terminal in [true, false] {
        let filter = Filter {
            terminal: Some(terminal),
            ..Filter::default()
        };
        let want: Vec<u32> = (0..expected.len() as u32)
            .filter(|&i| expected[i as usize].1 == Some(terminal))
            .collect();
        assert_eq!(store.filter(&filter), want, "terminal {terminal}");
    }
}
