//! Interning: strings once across batches, unescaped; shared agents and nested values read as
//! if each event had its own, whatever the order of their keys.

use super::*;

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
