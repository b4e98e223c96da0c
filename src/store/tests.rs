use std::sync::Arc;

use super::batch::LONG_TRIAL;
use super::*;
use crate::event::Field;
use crate::generator::ndjson_lines as generated_lines;
use crate::time::parse_rfc3339_nanos;

const QUIRKS: &str = include_str!("../../tests/fixtures/quirks.ndjson");
const HOSTILE: &str = include_str!("../../tests/fixtures/hostile.ndjson");

/// A batch of the JSON objects in `text`, one per line (blank lines skipped), read from one
/// owned blob as a dump would be.
fn batch(text: &str) -> Batch {
    filled(BatchBuilder::new(blob_of(text)), text).finish()
}

fn blob_of(text: &str) -> Arc<Blob> {
    Arc::new(Blob::Owned(text.as_bytes().to_vec()))
}

/// `builder`, whose blob holds `text`, with the JSON objects in `text` pushed, one per line.
fn filled(mut builder: BatchBuilder, text: &str) -> BatchBuilder {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if !trimmed.trim().is_empty() {
            builder.push(start, start + trimmed.len()).unwrap();
        }
        start += line.len();
    }
    builder
}

/// An event line with the given id, description and room.
fn event(id: &str, description: &str, room: &str) -> String {
    format!(
        r#"{{"version":"2.0","id":"{id}","timestamp":"2024-11-18T10:00:00.000000001Z","type":"client.join.failed","data":{{"room_id":"{room}","peer_id":"p-{id}","error_code":500,"error_name":"ServerErrors","error_description":"{description}","is_terminal":true,"action":"JOIN"}}}}"#
    )
}

fn descriptions(store: &Store) -> Vec<String> {
    (0..store.len())
        .map(|i| {
            store
                .event(i)
                .data_str("error_description")
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

const A: &str = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
const B: &str = "1f2a3b4c-5d6e-4f7a-9b0c-1d2e3f4a5b6c";
const C: &str = "2a3b4c5d-6e7f-4a8b-8c9d-2e3f4a5b6c7d";

#[test]
fn merging_pages_drops_events_already_loaded_and_keeps_the_first_copy() {
    let mut store = Store::new();
    let page1 = format!("{}\n{}\n", event(A, "a1", "r1"), event(B, "b first", "r1"));
    let page2 = format!("{}\n{}\n", event(B, "b second", "r2"), event(C, "c1", "r2"));
    let m1 = store.merge(batch(&page1));
    assert_eq!(
        m1,
        Merged {
            first: 0,
            added: 2,
            duplicates: 0
        }
    );
    let m2 = store.merge(batch(&page2));
    assert_eq!(
        m2,
        Merged {
            first: 2,
            added: 1,
            duplicates: 1
        }
    );
    assert_eq!(store.len(), 3);
    assert_eq!(store.duplicates(), 1);
    assert_eq!(descriptions(&store), ["a1", "b first", "c1"]);
    assert_eq!(store.str(store.row(1).room_id), "r1");
    assert_eq!(store.str(store.row(2).room_id), "r2");
}

#[test]
fn duplicates_inside_one_batch_are_dropped_too() {
    let mut store = Store::new();
    let text = format!(
        "{}\n{}\n{}\n",
        event(A, "one", "r"),
        event(A, "two", "r"),
        event(B, "three", "r")
    );
    let m = store.merge(batch(&text));
    assert_eq!(m.added, 2);
    assert_eq!(m.duplicates, 1);
    assert_eq!(descriptions(&store), ["one", "three"]);
}

#[test]
fn the_same_page_merged_twice_adds_nothing_the_second_time() {
    let mut store = Store::new();
    let text = format!("{}\n{}\n", event(A, "a", "r"), event(B, "b", "r"));
    store.merge(batch(&text));
    let again = store.merge(batch(&text));
    assert_eq!(
        again,
        Merged {
            first: 2,
            added: 0,
            duplicates: 2
        }
    );
    assert_eq!(store.len(), 2);
}

#[test]
fn ids_are_equal_only_when_their_strings_are() {
    let mut store = Store::new();
    let upper = A.to_uppercase();
    let text = [
        event(A, "lower", "r"),
        event(&upper, "upper", "r"),
        event("evt-17", "text id", "r"),
        event("evt-17", "text id again", "r"),
        event("evt-17 ", "text id with a space", "r"),
    ]
    .join("\n");
    store.merge(batch(&text));
    assert_eq!(
        descriptions(&store),
        ["lower", "upper", "text id", "text id with a space"]
    );
    assert_eq!(IdKey::of(Some(A)), IdKey::of(Some(A)));
    assert_ne!(IdKey::of(Some(A)), IdKey::of(Some(&upper)));
    assert_eq!(IdKey::of(None), IdKey::Absent);
}

#[test]
fn events_without_an_id_are_all_kept() {
    let mut store = Store::new();
    let no_id = r#"{"type":"client.join.failed","data":{"room_id":"r"}}"#;
    let numeric_id = r#"{"id":17,"type":"client.join.failed","data":{"room_id":"r"}}"#;
    store.merge(batch(&format!("{no_id}\n{no_id}\n{numeric_id}\n")));
    store.merge(batch(&format!("{no_id}\n")));
    assert_eq!(store.len(), 4);
    assert_eq!(store.duplicates(), 0);
}

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
fn repeated_strings_are_interned_once_across_batches() {
    let mut store = Store::new();
    store.merge(batch(&event(A, "a", "room-1")));
    let before = store.strings().len();
    store.merge(batch(&event(B, "b", "room-1")));
    assert_eq!(store.row(0).room_id, store.row(1).room_id);
    assert_eq!(store.row(0).kind, store.row(1).kind);
    assert_eq!(store.row(0).error_name, store.row(1).error_name);
    assert_ne!(store.row(0).peer_id, store.row(1).peer_id);
    assert_eq!(
        store.strings().len(),
        before + 1,
        "only the new peer id is a new string"
    );
    assert_eq!(store.strings().lookup("room-1"), Some(store.row(1).room_id));
    assert_eq!(store.strings().lookup("never seen"), None);
    assert_eq!(store.str(Sym::NONE), "");
}

#[test]
fn strings_are_stored_unescaped_and_unsanitised() {
    let mut store = Store::new();
    store.merge(batch(HOSTILE));
    let r = store.row(0);
    assert_eq!(store.str(r.user_name), "Mallory\u{1b}[31m\u{202e}RED");
    assert_eq!(
        store.str(r.error_message),
        "\u{1b}[2J\u{1b}]0;pwned\u{7} \u{202e}evil, \"quoted\"\nsecond line"
    );
    assert_eq!(store.raw(0), HOSTILE.trim_end().as_bytes());
}

#[test]
fn an_empty_store_and_an_empty_batch() {
    let mut store = Store::new();
    assert!(store.is_empty());
    let empty = batch("");
    assert!(empty.is_empty());
    assert_eq!(
        store.merge(empty),
        Merged {
            first: 0,
            added: 0,
            duplicates: 0
        }
    );
    assert!(store.is_empty());
    assert!(store.filter(&crate::filter::Filter::default()).is_empty());
}

#[test]
fn a_batch_refuses_a_span_that_is_not_json() {
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(b"{\"id\":\"a\"} nope".to_vec())));
    assert!(builder.push(11, 15).is_err());
    assert!(builder.push(0, 10).is_ok());
    assert_eq!(builder.len(), 1);
}

/// Events that index differently from the generator's: duplicated keys with other values, an
/// escaped key, escaped values, an escape that is not text, nested values, a description too far
/// into its event to be located, values in arrays.
fn tricky_events() -> Vec<String> {
    let far = format!(
        r#"{{"id":"far","pad":"{}","data":{{"error_description":"Beyond The Reach","room_id":"r1"}}}}"#,
        "p".repeat(70_000)
    );
    vec![
        r#"{"id":"dup","type":"client.join.failed","data":{"room_id":"first-room","room_id":"second-room","agent":{"os":"Plan9","os":"Haiku"}}}"#.to_string(),
        r#"{"id":"esc-key","d\u0061ta":{"room_id":"hidden-room","user_name":"Zoë"}}"#.to_string(),
        r#"{"id":"esc-val","type":"client.\u006aoin.failed","data":{"room_id":"r\u00f6\u00f6m","error_description":"line\nbreak \"Quoted\" Ωmega","user_name":"O\u212a"}}"#.to_string(),
        r#"{"id":"not-text","data":{"note":"a \ud800 b","room_id":"r2"}}"#.to_string(),
        r#"{"id":"nested","data":{"tracks":[{"kind":"video","label":"Front Camera"},"loose"],"agent":{"sdk":"ios","extra":{"chip":"A17 Pro"}},"domain":"d.example"}}"#.to_string(),
        r#"{"id":"agent-domain","data":{"domain":"data.example","agent":{"domain":"agent.example","string":"sdk:web,env:qa"}}}"#.to_string(),
        r#"{"data":{"error_description":"no id at all","description":"x"},"timestamp":"not a time","timestamp":"2024-01-01T00:00:00Z"}"#.to_string(),
        far,
        r#"{"id":"esc-agent","data":{"agent":{"string":"sdk:w\u0065b,env:st\u0061ge"}}}"#.to_string(),
        r#"{"id":"dup-agent","data":{"agent":{"string":"a1","string":"b2"}}}"#.to_string(),
        r#"{"id":"num-agent","data":{"agent":{"string":5,"sdk":"x"}}}"#.to_string(),
        r#"{"id":"str-agent","data":{"agent":"plain agent"}}"#.to_string(),
    ]
}

/// Search texts drawn from the events' own values (whole, a middle slice, another case), their
/// keys, and some that appear nowhere.
fn needles_of(lines: &[String]) -> Vec<String> {
    fn strings(v: &serde_json::Value, keys: &mut Vec<String>, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, keys, out)),
            serde_json::Value::Object(o) => {
                for (k, x) in o {
                    keys.push(k.clone());
                    strings(x, keys, out);
                }
            }
            _ => {}
        }
    }
    let mut values = Vec::new();
    let mut keys = Vec::new();
    for line in lines {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            strings(&v, &mut keys, &mut values);
        }
    }
    let mut out: Vec<String> = [
        "500",
        "2024-11",
        "T10:",
        "Z",
        "4c5d",
        "-",
        "ice",
        "Plan9",
        "haiku",
        "second-room",
        "first-room",
        "hidden",
        "RÖÖM",
        "ok",
        "\"quoted\"",
        "ΩMEGA",
        "front camera",
        "loose",
        "A17",
        "agent.example",
        "env:qa",
        "reach",
        "nowhere at all",
        "room_id",
        "data",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for v in values {
        let chars: Vec<char> = v.chars().collect();
        let mid = chars.len() / 2;
        out.push(
            chars[mid.saturating_sub(2)..(mid + 2).min(chars.len())]
                .iter()
                .collect(),
        );
        out.push(v.to_uppercase());
        out.push(v);
    }
    out.extend(keys);
    out.retain(|n| !n.is_empty() && n.len() < 200);
    out.sort();
    out.dedup();
    out
}

fn assert_search_is_exact(store: &Store, needles: &[String]) {
    for n in needles {
        let needle = Needle::new(n);
        let want: Vec<u32> = (0..store.len())
            .filter(|&i| needle.matches_json(store.raw(i)))
            .map(|i| i as u32)
            .collect();
        let filter = crate::filter::Filter {
            search: Some(n.clone()),
            ..crate::filter::Filter::default()
        };
        assert_eq!(store.filter(&filter), want, "search for {n:?}");
    }
}

#[test]
fn the_indexed_search_finds_exactly_what_reading_each_event_finds() {
    let lines = generated_and_odd(150, 9);
    let mut store = Store::new();
    // Two batches: the second's strings and sets are remapped into the store's.
    let (a, b) = lines.split_at(lines.len() / 2);
    store.merge(batch(&(a.join("\n") + "\n")));
    let needles = needles_of(&lines);
    assert!(needles.len() > 300, "{} needles", needles.len());
    // Searched once before the second batch: the answers kept for it must grow with the store.
    assert_search_is_exact(&store, &needles[..50]);
    store.merge(batch(&(b.join("\n") + "\n")));
    assert_eq!(store.len(), lines.len());
    assert_search_is_exact(&store, &needles);
}

#[test]
fn most_events_are_searched_without_reading_their_json() {
    let mut store = Store::new();
    store.merge(batch(&tricky_events().join("\n")));
    let raw_read: Vec<bool> = store.rows().iter().map(|r| r.search_raw()).collect();
    // Only the value `\ud800`, which is no text, needs the event's JSON.
    assert_eq!(
        raw_read,
        [
            false, false, false, true, false, false, false, false, false, false, false, false
        ]
    );
    let far = store.row(7);
    assert!(far.description_at.is_none(), "70 kB in: not located");
    assert!(!store.sets().get(far.others).is_empty());
}

#[test]
fn events_whose_agents_differ_only_in_their_string_share_their_other_values() {
    // Agents too short to be remembered: each is read in full, and its string is the row's.
    let text = [
        r#"{"id":"a","data":{"template_id":"t1","agent":{"framework":"react","string":"env:a"}}}"#,
        r#"{"id":"b","data":{"template_id":"t1","agent":{"framework":"react","string":"env:b"}}}"#,
    ]
    .join("\n");
    let mut store = Store::new();
    store.merge(batch(&text));
    let (a, b) = (store.row(0), store.row(1));
    assert_eq!(store.str(store.agent(a).string), "env:a");
    assert_eq!(store.str(store.agent(b).string), "env:b");
    assert_eq!(a.others, b.others);
    let others: Vec<&str> = store
        .sets()
        .get(a.others)
        .iter()
        .map(|&s| store.str(s))
        .collect();
    assert_eq!(others, ["t1", "react"]);
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
fn an_unindexed_store_still_searches_exactly_by_reading_each_event() {
    let unindexed = |lines: &[String]| {
        let text = lines.join("\n");
        let blob = Arc::new(Blob::Owned(text.as_bytes().to_vec()));
        let mut builder = BatchBuilder::new(blob).unindexed();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            builder.push(start, start + line.trim_end().len()).unwrap();
            start += line.len();
        }
        builder.finish()
    };
    let lines = tricky_events();
    let mut store = Store::new();
    store.merge(unindexed(&lines));
    assert!(store.rows().iter().all(|r| r.search_raw()));
    assert_search_is_exact(&store, &needles_of(&lines));
    // Indexed events after unindexed ones, and unindexed ones again: each row is searched
    // with what is known beside it, or by reading it.
    let generated = generated_lines(60, 4);
    let (a, b) = generated.split_at(30);
    store.merge(batch(&a.join("\n")));
    store.merge(unindexed(b));
    assert_eq!(store.len(), lines.len() + generated.len());
    let all: Vec<String> = lines.iter().chain(&generated).cloned().collect();
    assert_search_is_exact(&store, &needles_of(&all));
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

/// Each row of `store`, one per line of `lines` in order, holds its event's agent fields, domain,
/// `env` and room, and none needs its JSON read by the search.
fn assert_rows_hold_what_the_events_say(store: &Store, lines: &[String]) {
    assert_eq!(store.len(), lines.len());
    for (i, at) in lines.iter().enumerate() {
        let e = store.event(i);
        let row = store.row(i);
        let s = |sym| store.str(sym);
        let agent = |f| e.agent_str(f).unwrap_or("");
        let held = store.agent(row);
        assert_eq!(s(held.sdk), agent("sdk"), "{at}");
        assert_eq!(s(held.sdk_version), agent("sdk_version"), "{at}");
        assert_eq!(s(held.device_model), agent("device_model"), "{at}");
        assert_eq!(s(held.os), agent("os"), "{at}");
        assert_eq!(s(held.os_version), agent("os_version"), "{at}");
        let domain = e.data_str("domain").or(e.agent_str("domain")).unwrap_or("");
        assert_eq!(s(row.domain), domain, "{at}");
        let pairs = e.agent_pairs();
        let env = crate::event::agent_value(&pairs, "env").unwrap_or("");
        assert_eq!(s(held.env), env, "{at}");
        assert_eq!(s(held.string), agent("string"), "{at}");
        assert_eq!(s(row.room_id), e.data_str("room_id").unwrap(), "{at}");
        assert!(!row.search_raw(), "{at}");
    }
}

#[test]
fn events_sharing_an_agent_or_a_nested_value_read_as_if_each_had_its_own() {
    // Long enough to be remembered, but for the last two.
    let pad = r#""build":"2026.11.18-rc.4+sha.0c1d2e3f","#;
    let agents = [
        r#"{"sdk":"web","sdk_version":"1.2","device_model":"Firefox 130","os":"Linux","os_version":"6.8","domain":"agent.example","framework":"react","string":"sdk:web,env:qa"}"#.to_string(),
        format!(r#"{{{pad}"sdk":"ios","note":"a}}b","string":"env:dev"}}"#),
        format!(r#"{{{pad}"sdk":"ios","extra":{{"chip":"A17 Pro"}},"tags":["x","y"],"string":"env:dev"}}"#),
        format!(r#"{{{pad}"sdk":"android","label":"Caf\u00e9 K","string":"env:stage"}}"#),
        format!(r#"{{{pad}"sdk":"web","domain":"","string":""}}"#),
        r#"{"sdk":"web","domain":"short.example"}"#.to_string(),
        "{}".to_string(),
    ];
    let nested = [
        r#""devices":{"videoInput":[{"deviceId":"cam-1","label":"FaceTime HD Camera","kind":"videoinput"}]},"audio":{"codec":"opus","deviceId":"default","maxBitrate":32}"#,
        r#""devices":{"videoInput":[{"deviceId":"cam-1","label":"FaceTime HD Camera","kind":"videoinput"}]},"audio":{"codec":"opus","deviceId":"default","maxBitrate":64}"#,
        r#""tracks":[{"kind":"video","label":"Front Camera","settings":{"w":1280,"h":720}},"loose string in an array"]"#,
        r#""devices":{"audioInput":[{"label":"Jabra \u00c9volve2 65","deviceId":"d\"q","kind":"audioinput"}]}"#,
        r#""deep":[[[[{"a":[[[{"b":"bottom of a deep value, long enough to be remembered"}]]]}]]]]"#,
        r#""list":["short","also short"],"n":[1,2,3]"#,
    ];
    let mut lines = Vec::new();
    for round in 0..3 {
        for (n, agent) in agents.iter().enumerate() {
            for (m, data_domain) in [
                "",
                r#""domain":"agent.example","#,
                r#""domain":"data.example","#,
            ]
            .iter()
            .enumerate()
            {
                let values = nested[(n + m + round) % nested.len()];
                lines.push(format!(
                    r#"{{"id":"e{round}-{n}-{m}","type":"client.join.failed","data":{{{data_domain}"room_id":"r{n}",{values},"agent":{agent},"role":"host"}}}}"#
                ));
            }
        }
    }
    // Two batches: the second knows none of the first's values.
    let (a, b) = lines.split_at(lines.len() / 2);
    let mut store = Store::new();
    let first = batch(&a.join("\n"));
    // Remembered: four agents, and the nested values but the short and the escaped ones.
    assert_eq!(first.trials.remembered, (4, 3));
    store.merge(first);
    store.merge(batch(&b.join("\n")));
    assert_rows_hold_what_the_events_say(&store, &lines);
    let mut needles = needles_of(&lines);
    needles.extend(
        [
            "café k",
            "a}b",
            "A17",
            "agent.example",
            "data.example",
            "env:qa",
            "facetime",
            "ÉVOLVE",
            "d\"q",
            "bottom",
            "loose",
        ]
        .map(String::from),
    );
    assert_search_is_exact(&store, &needles);
}

#[test]
fn agents_that_never_repeat_are_read_in_full_each_time_and_as_exactly() {
    // An agent and a nested value of their own in each event, their keys in an order of their
    // own: nothing to remember, so the batch stops trying, partway through.
    let lines: Vec<String> = (0..700)
        .map(|n| {
            let fields = [
                r#""sdk":"web""#.to_string(),
                format!(r#""sdk_version":"0.{}.{n}""#, n % 7),
                r#""device_model":"Chrome 131""#.to_string(),
                format!(r#""os":"{}""#, ["macOS", "Windows", "Linux"][n % 3]),
                r#""os_version":"15.1""#.to_string(),
                r#""framework":"react""#.to_string(),
                format!(
                    r#""string":"sdk:web,sdk_version:0.{}.{n},env:{},build:{n}""#,
                    n % 7,
                    ["prod", "qa"][n % 2]
                ),
            ];
            let k = n % fields.len();
            let agent = [&fields[k..], &fields[..k]].concat().join(",");
            format!(
                r#"{{"id":"u{n}","type":"client.join.failed","data":{{"room_id":"r{}","agent":{{{agent}}},"settings":{{"label":"Camera number {n}, front facing","kind":"video","size":"1280x720"}}}}}}"#,
                n % 5
            )
        })
        .collect();
    let batch = batch(&lines.join("\n"));
    let (agents, values) = batch.trials.remembered;
    assert!(agents > 0 && agents < 600, "{agents} agents remembered");
    assert!(values > 0 && values < 600, "{values} values remembered");
    let mut store = Store::new();
    store.merge(batch);
    assert_rows_hold_what_the_events_say(&store, &lines);
    // Every fifth needle of the events' own, and those only an agent string or a nested value
    // holds.
    let mut needles: Vec<String> = needles_of(&lines).into_iter().step_by(5).collect();
    needles.extend(
        [
            "build:699",
            "build:5",
            "env:qa,build:1",
            "0.3.10,env",
            "camera number 512",
            "number 69",
            "front facing",
        ]
        .map(String::from),
    );
    assert_search_is_exact(&store, &needles);
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
fn events_whose_values_never_repeat_are_searched_as_exactly_as_those_that_do() {
    // Each event's other values are its own, 3 MB of them in all: more than a builder
    // remembers texts of (`MAX_TEXTS_OF_OTHERS`), and so few repeat that it soon stops looking
    // them up (`TEXTS_TRIAL`); every tenth event repeats the values of one read long before (of
    // event `n / 100 * 10`, itself no repeat).
    let others = |n: usize| {
        format!(
            r#""note":"unique note {n:06} {}","agent":{{"sdk":"web","string":"sdk:web,build:{n},env:qa"}}"#,
            // Shorter than `LONG_VALUE`: each is interned.
            "z".repeat(200)
        )
    };
    let lines: Vec<String> = (0..12_000)
        .map(|n| {
            let values = if n % 10 == 9 {
                others(n / 100 * 10)
            } else {
                others(n)
            };
            format!(
                r#"{{"id":"e{n}","data":{{"room_id":"r{}",{values}}}}}"#,
                n % 7
            )
        })
        .collect();
    let text = lines.join("\n");
    assert!(text.len() > 3_000_000);
    let mut store = Store::new();
    store.merge(batch(&text));
    assert_eq!(store.len(), lines.len());
    assert!(store.rows().iter().all(|r| !r.search_raw()));
    // The repeats share the set of the event they repeat, before and after the limit.
    for n in [19, 11_999] {
        assert_eq!(
            store.row(n).others,
            store.row(n / 100 * 10).others,
            "event {n}"
        );
    }
    let needles = [
        "unique note 000001 ",
        "unique note 001190 ",
        "unique note 011998",
        "build:11997,",
        "build:1190,",
        "build:1199,",
        "NOTE 00",
        "env:qa",
    ]
    .map(String::from);
    assert_search_is_exact(&store, &needles);
}

/// The total length of the strings a store holds.
fn interned_bytes(store: &Store) -> usize {
    store.strings().text_from(1).0.len()
}

/// Events each holding a stack trace of 2 kB of their own, placed by `place(n, trace)`:
/// interned, the traces would make the store nearly as large as the dump. Those of the trial
/// are interned; after it, the events' rows send the search to the dump.
fn assert_unrepeated_long_values_are_left_in_the_dump(place: impl Fn(usize, &str) -> String) {
    let trace = |n: usize| format!("trace {n:05} {}", "at frame ".repeat(220));
    let lines: Vec<String> = (0..3_000)
        .map(|n| {
            format!(
                r#"{{"id":"e{n}","data":{{"room_id":"r{}",{}}}}}"#,
                n % 7,
                place(n, &trace(n))
            )
        })
        .collect();
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    assert_eq!(store.len(), lines.len());
    let raw: Vec<usize> = (0..store.len())
        .filter(|&i| store.row(i).search_raw())
        .collect();
    assert_eq!(raw, (LONG_TRIAL as usize..lines.len()).collect::<Vec<_>>());
    assert!(
        interned_bytes(&store) < LONG_TRIAL as usize * trace(0).len() + 10_000,
        "{} bytes interned",
        interned_bytes(&store)
    );
    let needles = [
        "trace 00001 ",
        "TRACE 02999 AT",
        "trace 00255",
        "trace 00256",
        "at frame at",
        "r3",
        "camera",
        "nowhere",
    ]
    .map(String::from);
    assert_search_is_exact(&store, &needles);
}

#[test]
fn long_values_that_never_repeat_are_left_in_the_dump_and_searched_there() {
    assert_unrepeated_long_values_are_left_in_the_dump(|_, trace| format!(r#""stack":"{trace}""#));
}

#[test]
fn long_messages_that_never_repeat_are_left_in_the_dump_too() {
    // Only the search reads a row's message.
    assert_unrepeated_long_values_are_left_in_the_dump(|_, trace| {
        format!(r#""error_message":"{trace}""#)
    });
}

#[test]
fn nested_long_values_that_never_repeat_are_left_in_the_dump_too() {
    // Beside a nested value that repeats, which keeps nested values remembered: one holding
    // a long value is not.
    assert_unrepeated_long_values_are_left_in_the_dump(|n, trace| {
        format!(
            r#""devices":{{"video":"front camera","audio":"built-in microphone","n":{}}},"details":{{"stack":"{trace}","depth":12}}"#,
            n % 2
        )
    });
}

#[test]
fn a_long_value_interned_during_the_trial_is_found_after_it() {
    let trace = |n: usize| format!("trace {n:05} {}", "at frame ".repeat(40));
    let mut lines: Vec<String> = (0..400)
        .map(|n| format!(r#"{{"id":"e{n}","data":{{"stack":"{}"}}}}"#, trace(n)))
        .collect();
    // After the trial: the trace of event 5 again, then a new one.
    lines.push(format!(
        r#"{{"id":"again","data":{{"stack":"{}"}}}}"#,
        trace(5)
    ));
    lines.push(format!(
        r#"{{"id":"new","data":{{"stack":"{}"}}}}"#,
        trace(9_999)
    ));
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    let raw = |i: usize| store.row(i).search_raw();
    assert!(raw(399) && !raw(400) && raw(401));
    assert_search_is_exact(&store, &["trace 00005 ".to_string()]);
}

#[test]
fn a_long_message_that_is_no_text_is_refused_wherever_it_falls_in_a_batch() {
    // Half a surrogate pair: no text, as the store refuses it in any value a row holds.
    let bad = format!(
        r#"{{"id":"bad","data":{{"error_message":"{}\ud800"}}}}"#,
        "m".repeat(300)
    );
    let trace = |n: usize| format!("trace {n:05} {}", "at frame ".repeat(40));
    for before in [0, 300] {
        let mut lines: Vec<String> = (0..before)
            .map(|n| format!(r#"{{"id":"e{n}","data":{{"stack":"{}"}}}}"#, trace(n)))
            .collect();
        lines.push(bad.clone());
        let text = lines.join("\n");
        let mut builder = BatchBuilder::new(blob_of(&text));
        let mut start = 0;
        let mut refused = Vec::new();
        for line in &lines {
            if builder.push(start, start + line.len()).is_err() {
                refused.push(start);
            }
            start += line.len() + 1;
        }
        assert_eq!(
            refused,
            [start - bad.len() - 1],
            "after {before} long values"
        );
    }
}

#[test]
fn long_values_that_repeat_are_interned_once() {
    // Five long texts, each in a fifth of the events.
    let long = |k: usize| format!("detail {k} {}", "of a repeated value ".repeat(20));
    let lines: Vec<String> = (0..3_000)
        .map(|n| format!(r#"{{"id":"e{n}","data":{{"detail":"{}"}}}}"#, long(n % 5)))
        .collect();
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    assert!(store.rows().iter().all(|r| !r.search_raw()));
    assert!(interned_bytes(&store) < 5 * long(0).len() + 1_000);
    let needles = ["detail 3 of", "DETAIL 4", "value of a"].map(String::from);
    assert_search_is_exact(&store, &needles);
}

/// Generated events, then the quirky, hostile and tricky ones.
fn generated_and_odd(events: usize, seed: u64) -> Vec<String> {
    let mut lines = generated_lines(events, seed);
    lines.extend(QUIRKS.lines().chain(HOSTILE.lines()).map(str::to_string));
    lines.extend(tricky_events());
    lines
}

/// `json` written again with the members of each object shuffled by `seed` (keys in another
/// order, values as they were).
fn shuffled(json: &serde_json::Value, seed: &mut u64) -> String {
    match json {
        serde_json::Value::Object(map) => {
            let mut members: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap(),
                        shuffled(v, seed)
                    )
                })
                .collect();
            for i in (1..members.len()).rev() {
                // xorshift64
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                members.swap(i, (*seed % (i as u64 + 1)) as usize);
            }
            format!("{{{}}}", members.join(","))
        }
        other => other.to_string(),
    }
}

/// Generated events with the keys of each object in a new order in every event.
fn shuffled_lines(events: usize, seed: u64) -> Vec<String> {
    generated_lines(events, seed)
        .iter()
        .enumerate()
        .map(|(n, line)| shuffled(&serde_json::from_str(line).unwrap(), &mut (n as u64 + 1)))
        .collect()
}

#[test]
fn a_batch_built_on_the_buffers_of_an_earlier_one_is_the_batch_built_afresh() {
    // The earlier batch leaves strings, sets, rows, ids, remembered agents and values, decoded
    // agent strings and texts of others in the buffers, and the trials of texts and agents given
    // up (its keys come in a new order in each event); the later one shares some of its strings.
    let earlier = with_long_values(shuffled_lines(1_500, 5)).join("\n") + "\n";
    let used = filled(BatchBuilder::new(blob_of(&earlier)), &earlier);
    let lines = with_long_values(generated_and_odd(300, 6));
    let later = lines.join("\n") + "\n";
    let reused = filled(used.then(blob_of(&later)), &later).finish();
    let fresh = filled(BatchBuilder::new(blob_of(&later)), &later).finish();
    assert!(fresh.trials.remembered.0 > 0 && fresh.trials.remembered.1 > 0);
    assert!(fresh.trials.texts_looked_up);
    assert_eq!(reused.trials.remembered, fresh.trials.remembered);
    assert_eq!(reused.trials.texts_looked_up, fresh.trials.texts_looked_up);
    assert_eq!(format!("{:?}", reused.rows), format!("{:?}", fresh.rows));
    assert_eq!(reused.ids, fresh.ids);
    let strings = |b: &Batch| {
        (0..b.strings.len() as u32)
            .map(|n| b.strings.get(Sym(n)).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(strings(&reused), strings(&fresh));
    let sets = |b: &Batch| b.sets.sets_from(0).map(<[Sym]>::to_vec).collect::<Vec<_>>();
    assert_eq!(sets(&reused), sets(&fresh));
    let mut store = Store::new();
    store.merge(reused);
    assert_search_is_exact(&store, &needles_of(&lines));
}

#[test]
fn a_reading_keeps_the_buffers_of_its_merged_batches_for_its_next_builders_while_it_lasts() {
    let text = generated_lines(400, 9).join("\n") + "\n";
    let blob = blob_of(&text);
    let reading = Reading::start();
    // Two builders at once, as on two reading threads.
    let (one, two) = (
        reading.builder(Arc::clone(&blob)),
        reading.builder(Arc::clone(&blob)),
    );
    let first = filled(one, &text).finish();
    let second = filled(two, &text).finish();
    assert_eq!(reading.kept(), (0, 2), "each finished builder's tables");
    assert!(first.reading().is_some());
    assert_eq!(first.reading(), second.reading());
    let mut store = Store::new();
    store.merge(first);
    assert_eq!(reading.kept(), (1, 2), "the merged batch's buffers");
    // The next builder takes one of each, and the batch it makes is read as a fresh one.
    let third = filled(reading.builder(Arc::clone(&blob)), &text).finish();
    assert_eq!(reading.kept(), (0, 2));
    let fresh = batch(&text);
    assert_eq!(format!("{:?}", third.rows), format!("{:?}", fresh.rows));
    // A batch built once has no reading, and keeps nothing once merged.
    assert_eq!(fresh.reading(), None);
    store.merge(fresh);
    assert_eq!(reading.kept(), (0, 2));
    // Once told that no more builders come, it keeps nothing more, until one is made.
    let fourth = filled(reading.builder(Arc::clone(&blob)), &text).finish();
    let fifth = filled(reading.builder(Arc::clone(&blob)), &text).finish();
    reading.no_more_builders();
    assert_eq!(reading.kept(), (0, 0));
    store.merge(fourth);
    assert_eq!(
        reading.kept(),
        (0, 0),
        "a batch merged after gives its buffers back"
    );
    let sixth = reading.builder(Arc::clone(&blob));
    store.merge(fifth);
    assert_eq!(reading.kept(), (1, 0), "kept again once a builder is made");
    let sixth = filled(sixth, &text).finish();
    assert_eq!(
        format!("{:?}", sixth.rows),
        format!("{:?}", batch(&text).rows)
    );
    assert_eq!(reading.kept(), (1, 1));
    // Once the reading ends, its batches merged later give their buffers back to the system.
    drop(reading);
    assert_eq!(second.reading(), None);
    store.merge(second);
    store.merge(third);
    store.merge(sixth);
    assert_eq!(store.len(), 400);
}

/// `lines`, then as many events again, but no more than 300, each with a long value of its
/// own: enough to end a batch's trial of long values.
fn with_long_values(mut lines: Vec<String>) -> Vec<String> {
    let len = lines.len();
    lines.extend((0..len.min(300)).map(|k| {
        format!(
            r#"{{"id":"long-{k}-{len}","data":{{"stack":"trace {k} of {len} {}"}}}}"#,
            "at frame ".repeat(40)
        )
    }));
    lines
}

#[test]
fn the_earlier_batch_of_the_reuse_test_gives_up_its_trials() {
    let earlier = with_long_values(shuffled_lines(1_500, 5)).join("\n") + "\n";
    let b = batch(&earlier);
    // Its long values never repeat.
    assert!(!b.trials.long_values_kept);
    // Texts of other values and agents, their keys in a new order each time, seldom repeat:
    // both trials gave up, and the memo of agents keeps those of its trial (512 looked for),
    // not one for each of the 1,500 events. Nested values of a few keys take one of a few
    // orders, and still repeat often enough to be remembered.
    assert!(!b.trials.texts_looked_up);
    assert!(b.trials.memos_off.0);
    assert!(b.trials.remembered.0 <= 512, "{:?}", b.trials.remembered);
}

#[test]
fn events_whose_keys_come_in_a_new_order_each_time_read_as_exactly() {
    let lines = shuffled_lines(1_200, 12);
    let order = |line: &str| {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let keys =
            |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        (keys(&event), keys(&event["data"]))
    };
    assert_ne!(order(&lines[0]), order(&lines[1]));
    let shuffled = batch(&(lines.join("\n") + "\n"));
    // Their texts of other values seldom repeat: no longer looked up. Those of the same events
    // with their keys in one order still are.
    assert!(!shuffled.trials.texts_looked_up);
    assert!(
        batch(&(generated_lines(1_200, 12).join("\n") + "\n"))
            .trials
            .texts_looked_up
    );
    let mut store = Store::new();
    store.merge(shuffled);
    assert_rows_hold_what_the_events_say(&store, &lines);
    let needles: Vec<String> = needles_of(&lines).into_iter().step_by(40).collect();
    assert!(needles.len() > 50, "{} needles", needles.len());
    assert_search_is_exact(&store, &needles);
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
