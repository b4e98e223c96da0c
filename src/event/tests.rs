use serde_json::Value;

use super::*;

const PUBLISH: &str = include_str!("../../tests/fixtures/publish.json");
const SUBSCRIBE: &str = include_str!("../../tests/fixtures/subscribe.json");
const JOIN: &str = include_str!("../../tests/fixtures/join.json");
const DISCONNECTED: &str = include_str!("../../tests/fixtures/disconnected.json");
const CONNECT: &str = include_str!("../../tests/fixtures/connect.json");
const TRACK: &str = include_str!("../../tests/fixtures/track.json");
const QUIRKS: &str = include_str!("../../tests/fixtures/quirks.ndjson");

/// The first event of an envelope fixture, as the bytes of its JSON object.
fn first_event(envelope: &str) -> Event {
    let v: Value = serde_json::from_str(envelope).unwrap();
    let raw = serde_json::to_vec(&v["events"][0]).unwrap();
    Event::parse(&raw).unwrap()
}

fn quirks_line(n: usize) -> &'static str {
    QUIRKS.lines().nth(n).unwrap()
}

#[test]
fn a_publish_failure_reads_through_its_accessors() {
    let e = first_event(PUBLISH);
    assert_eq!(e.id(), Some("5f0a1b7e-3c2d-4e8f-9a10-2b3c4d5e6f70"));
    assert_eq!(e.version(), Some("2.0"));
    assert_eq!(e.timestamp(), Some("2024-11-18T10:15:42.123456789Z"));
    assert_eq!(e.type_name(), "client.publish.failed");
    assert_eq!(e.event_type(), EventType::Publish);
    assert_eq!(e.error_code(), Some(4006));
    assert_eq!(e.is_terminal(), Some(true));
    assert_eq!(e.data_str("room_id"), Some("6735e0b1c4a92f5d18e3b7a1"));
    assert_eq!(e.data_str("session_id"), Some("673b1f2e9c4d5a6b7c8d9e0f"));
    assert_eq!(e.data_str("domain"), Some("prod-in2.100ms.live"));
    assert_eq!(e.data_str("action"), e.event_type().expected_action());
    assert_eq!(e.agent_str("sdk"), Some("web"));
    assert_eq!(e.agent_str("os_version"), Some("14.6.1"));
    let audio = e.data_value("audio").unwrap();
    assert_eq!(audio["codec"], "opus");
    let devices = e.data_value("devices").unwrap();
    assert_eq!(devices["videoInput"][0]["label"], "FaceTime HD Camera");
    assert!(e.unknown_fields().is_empty());
    assert!(e.unknown_data_fields().is_empty());
    assert!(e.unknown_agent_fields().is_empty());
}

#[test]
fn a_subscribe_failure_is_retried_and_has_its_own_type() {
    let e = first_event(SUBSCRIBE);
    assert_eq!(e.event_type(), EventType::Subscribe);
    assert_eq!(e.is_terminal(), Some(false));
    assert_eq!(e.data_str("action"), Some("SUBSCRIBE"));
    assert_eq!(e.data_value("audio"), None);
}

#[test]
fn a_join_failure_carries_retries_join_as_a_number() {
    let e = first_event(JOIN);
    assert_eq!(e.event_type(), EventType::Join);
    assert_eq!(e.error_code(), Some(500));
    assert_eq!(
        e.data_value("retries_join").and_then(Value::as_i64),
        Some(3)
    );
    assert!(e.unknown_data_fields().is_empty());
}

#[test]
fn a_disconnection_without_session_id_reads_the_session_as_absent() {
    let e = first_event(DISCONNECTED);
    assert_eq!(e.event_type(), EventType::Disconnected);
    assert_eq!(e.data_str("session_id"), None);
    assert_eq!(e.data_str("transport_state"), Some("Preview"));
    assert_eq!(e.data_str("room_name"), Some("weekly-standup"));
}

#[test]
fn a_connect_failure_lacks_the_four_optional_fields() {
    let e = first_event(CONNECT);
    assert_eq!(e.event_type(), EventType::Connect);
    for field in ["session_id", "room_name", "template_id", "role"] {
        assert_eq!(e.data_value(field), None, "{field}");
    }
    assert_eq!(e.data_str("transport_state"), Some("Connecting"));
    assert_eq!(e.data_str("endpoint"), Some(""));
    assert_eq!(e.error_code(), Some(2003));
    assert!(e.unknown_data_fields().is_empty());
}

#[test]
fn accessors_answer_none_for_fields_of_another_json_type() {
    let e = Event::parse(
        br#"{"id":7,"timestamp":null,"data":{"error_code":"500","is_terminal":"true","room_id":["r"],"agent":"web"}}"#,
    )
    .unwrap();
    assert_eq!(e.id(), None);
    assert_eq!(e.timestamp(), None);
    assert_eq!(e.type_name(), "");
    assert_eq!(e.error_code(), None);
    assert_eq!(e.is_terminal(), None);
    assert_eq!(e.data_str("room_id"), None);
    assert!(e.data_value("room_id").is_some());
    assert_eq!(e.agent(), None);
    assert_eq!(e.agent_str("sdk"), None);
    assert!(e.agent_pairs().is_empty());

    let no_data = Event::parse(br#"{"id":"x","type":"client.join.failed","data":[1,2]}"#).unwrap();
    assert_eq!(no_data.data(), None);
    assert_eq!(no_data.data_str("room_id"), None);
    assert!(no_data.unknown_data_fields().is_empty());
}

#[test]
fn only_json_objects_parse_as_events() {
    for raw in [&b"[1]"[..], b"\"text\"", b"42", b"null", b"true", b"{", b""] {
        assert!(
            Event::parse(raw).is_err(),
            "{:?}",
            String::from_utf8_lossy(raw)
        );
    }
    assert!(Event::parse(b"{}").is_ok());
}

#[test]
fn null_fields_are_kept_and_read_as_absent_strings() {
    let e = Event::parse(quirks_line(1).as_bytes()).unwrap();
    assert_eq!(e.data_value("session_id"), Some(&Value::Null));
    assert_eq!(e.data_str("session_id"), None);
    assert!(e.unknown_data_fields().is_empty());
    let q = Event::parse(quirks_line(0).as_bytes()).unwrap();
    assert_eq!(q.agent().unwrap().get("gpu"), Some(&Value::Null));
}

#[test]
fn an_event_reserialises_byte_for_byte_numbers_and_order_included() {
    let line = quirks_line(1);
    let e = Event::parse(line.as_bytes()).unwrap();
    assert_eq!(serde_json::to_string(e.object()).unwrap(), line);

    let e = Event::parse(quirks_line(0).as_bytes()).unwrap();
    let keys: Vec<&str> = e.object().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "version",
            "id",
            "timestamp",
            "type",
            "sequence",
            "ingest",
            "data"
        ]
    );
    assert_eq!(
        value_text(&e.data_value("audio").unwrap()["volume"]),
        "1.50"
    );
    assert_eq!(
        value_text(&e.data_value("network").unwrap()["rtt_ms"]),
        "1.50"
    );
    assert_eq!(
        e.data_value("audio").unwrap()["maxBitrate"].as_f64(),
        Some(1000.0)
    );
    assert_eq!(value_text(&e.object()["sequence"]), "12345678901234567890");
    assert_eq!(e.timestamp(), Some("2024-11-18T11:20:00.123456789Z"));
}

#[test]
fn unknown_fields_are_listed_at_every_level_in_the_order_sent() {
    let e = Event::parse(quirks_line(0).as_bytes()).unwrap();
    let names = |fields: Vec<(&str, &Value)>| {
        fields
            .into_iter()
            .map(|(k, _)| k.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(e.unknown_fields()), ["sequence", "ingest"]);
    assert_eq!(names(e.unknown_data_fields()), ["network"]);
    assert_eq!(names(e.unknown_agent_fields()), ["cpu_cores", "gpu"]);
    let agent_unknown = e.unknown_agent_fields();
    assert_eq!(agent_unknown[1].1, &Value::Null);
    assert_eq!(value_text(agent_unknown[0].1), "8");
}

#[test]
fn an_event_of_another_family_is_kept_generic() {
    let e = first_event(TRACK);
    assert_eq!(e.event_type(), EventType::Other("track.add.success".into()));
    assert!(!e.event_type().is_known());
    assert_eq!(e.event_type().expected_action(), None);
    assert_eq!(e.event_type().name(), "track.add.success");
    assert_eq!(e.error_code(), None);
    assert_eq!(e.is_terminal(), None);
    assert_eq!(
        e.data_str("track_id"),
        Some("b7c2e1f4-3a5d-4c8e-9f0a-1b2c3d4e5f60")
    );
    let data = e.unknown_data_fields();
    let names: Vec<&str> = data.iter().map(|(k, _)| *k).collect();
    assert_eq!(names.len(), e.data().unwrap().len());
    assert!(names.contains(&"room_id") && names.contains(&"type") && names.contains(&"mute"));
}

#[test]
fn the_agent_string_decodes_into_its_pairs_env_included() {
    let e = first_event(PUBLISH);
    let pairs = e.agent_pairs();
    let keys: Vec<&str> = pairs.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "sdk",
            "sdk_version",
            "device_model",
            "os",
            "os_version",
            "is_prebuilt",
            "framework",
            "framework_version",
            "framework_sdk_version",
            "domain",
            "env"
        ]
    );
    assert_eq!(agent_value(&pairs, "env"), Some("prod"));
    assert_eq!(agent_value(&pairs, "device_model"), Some("Chrome 130"));
    assert_eq!(agent_value(&pairs, "absent"), None);
}

#[test]
fn agent_values_may_hold_colons_and_commas() {
    let pairs = first_event(JOIN).agent_pairs();
    assert_eq!(agent_value(&pairs, "device_model"), Some("Pixel 7, Pro"));
    assert_eq!(
        agent_value(&pairs, "domain"),
        Some("https://meet.example.com:443")
    );
    assert_eq!(agent_value(&pairs, "env"), Some("qa"));
    assert_eq!(agent_value(&pairs, "framework_version"), Some(""));

    let pairs = first_event(CONNECT).agent_pairs();
    assert_eq!(agent_value(&pairs, "device_model"), Some("iPhone14,2"));
    assert_eq!(agent_value(&pairs, "domain"), Some(""));
    assert_eq!(pairs.len(), 11);

    let pairs = decode_agent_string("started:10:04:05,model:Galaxy S23, Ultra, 5G,env:prod");
    assert_eq!(
        pairs,
        [
            AgentPair {
                key: "started".into(),
                value: "10:04:05".into()
            },
            AgentPair {
                key: "model".into(),
                value: "Galaxy S23, Ultra, 5G".into()
            },
            AgentPair {
                key: "env".into(),
                value: "prod".into()
            },
        ]
    );
}

#[test]
fn an_agent_string_without_keys_is_kept_not_dropped() {
    assert!(decode_agent_string("").is_empty());
    assert_eq!(
        decode_agent_string("Mozilla/5.0 (X11; Linux x86_64),env:prod"),
        [
            AgentPair {
                key: String::new(),
                value: "Mozilla/5.0 (X11; Linux x86_64)".into()
            },
            AgentPair {
                key: "env".into(),
                value: "prod".into()
            },
        ]
    );
    let pairs = decode_agent_string("sdk:web,,env:prod,");
    assert_eq!(agent_value(&pairs, "sdk"), Some("web,"));
    assert_eq!(agent_value(&pairs, "env"), Some("prod,"));
}

#[test]
fn type_arguments_accept_aliases_and_full_names() {
    for (arg, want) in [
        ("publish", EventType::Publish),
        ("subscribe", EventType::Subscribe),
        ("join", EventType::Join),
        ("disconnected", EventType::Disconnected),
        ("connect", EventType::Connect),
        ("JOIN", EventType::Join),
        (" connect ", EventType::Connect),
        ("client.publish.failed", EventType::Publish),
        ("client.subscribe.failed", EventType::Subscribe),
        ("client.join.failed", EventType::Join),
        ("client.disconnected", EventType::Disconnected),
        ("client.connect.failed", EventType::Connect),
        (
            "track.add.success",
            EventType::Other("track.add.success".into()),
        ),
    ] {
        assert_eq!(EventType::from_arg(arg), Ok(want), "{arg}");
    }
    for bad in ["bogus", "", "join failed", "client join"] {
        let err = EventType::from_arg(bad).unwrap_err();
        assert!(
            err.contains("publish, subscribe, join, disconnected, connect"),
            "{err}"
        );
    }
}

#[test]
fn type_names_round_trip() {
    for t in EventType::KNOWN {
        assert_eq!(EventType::from_name(t.name()), t);
        assert!(t.is_known());
        assert_eq!(EventType::from_arg(t.alias()), Ok(t.clone()));
        assert_eq!(t.to_string(), t.name());
    }
    assert_eq!(
        EventType::from_name("client.join.failed "),
        EventType::Other("client.join.failed ".into())
    );
}

#[test]
fn short_type_names_fit_ten_columns_and_a_cut_one_says_so() {
    use unicode_width::UnicodeWidthStr;
    for t in EventType::KNOWN {
        assert!(t.short().width() <= 10, "{}", t.short());
        // A known name is whole, or ends in `…`: `disconnect` would read as a name of its own.
        assert!(
            t.short() == t.alias() || t.short().ends_with('…'),
            "{}",
            t.short()
        );
    }
    assert_eq!(EventType::Disconnected.short(), "disconnec…");
    assert_eq!(
        EventType::Other("recording.success".into()).short(),
        "recording…"
    );
    assert_eq!(EventType::Other("track.add".into()).short(), "track.add");
    assert_eq!(
        EventType::Other("track.add.success".into()).short(),
        "track.add…"
    );
    assert_eq!(
        EventType::Other("événement.créé".into()).short(),
        "événement…"
    );
    // Wide characters take two columns each.
    let wide = EventType::Other("通話.参加.失敗.通知.記録.x".into());
    assert_eq!(wide.short(), "通話.参加…");
    assert!(wide.short().width() <= 10);
}

#[test]
fn value_text_prints_strings_bare_and_numbers_as_sent() {
    let v: Value = serde_json::from_str(
        r#"["a \"b\"", 1.50, 12345678901234567890, -0.0, null, true, {"k":[1]}]"#,
    )
    .unwrap();
    let texts: Vec<String> = v.as_array().unwrap().iter().map(value_text).collect();
    assert_eq!(
        texts,
        [
            "a \"b\"",
            "1.50",
            "12345678901234567890",
            "-0.0",
            "null",
            "true",
            r#"{"k":[1]}"#
        ]
    );
}

#[test]
fn a_value_read_straight_from_an_agent_string_is_the_decoded_pairs_value() {
    // Every string of up to six characters over an alphabet of keys, separators and spaces.
    let alphabet = ['e', 'n', 'v', ',', ':', ' ', 'x'];
    let mut strings = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..6 {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        strings.extend(last.iter().cloned());
    }
    strings.push("sdk:web,model:Galaxy S23, Ultra, 5G,env:prod".into());
    strings.push("x:1, env :a:b,,c,env:second".into());
    // Unicode spaces, which trimming a key removes too.
    strings.push("x:1,\u{a0}env\u{3000}:a,e:b".into());
    strings.push("\u{a0}:1,env\u{a0}:2,x:3".into());
    for s in &strings {
        let pairs = decode_agent_string(s);
        assert_eq!(
            agent_string_env(s),
            agent_value(&pairs, "env"),
            "env in {s:?}"
        );
        for key in ["env", "e", "x", "en", "model"] {
            assert_eq!(
                agent_string_value(s, key),
                agent_value(&pairs, key),
                "{key} in {s:?}"
            );
        }
    }
}
