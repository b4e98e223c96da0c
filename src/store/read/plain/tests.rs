use super::*;
use crate::store::read::walk::strings_of;

/// What the thorough reader and the walk find: the probe (as text) and the strings.
fn thorough(text: &str) -> Option<(String, Vec<StrAt>)> {
    let probe = Probe::read_thoroughly(text.as_bytes()).ok()?;
    let mut strings = Vec::new();
    strings_of(text.as_bytes(), &mut strings);
    Some((format!("{probe:?}"), strings))
}

fn plain(text: &str) -> Option<(String, Vec<StrAt>)> {
    let mut strings = Vec::new();
    let probe = read(text, Some(&mut strings))?;
    Some((format!("{probe:?}"), strings))
}

/// Whatever the plain reader reads is valid JSON, read as the thorough reader reads it.
fn agrees(text: &str) -> bool {
    let Some(fast) = plain(text) else {
        return false;
    };
    assert!(
        serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(),
        "read as plain, but not JSON: {text}"
    );
    assert_eq!(Some(&fast), thorough(text).as_ref(), "{text}");
    true
}

fn generated(events: usize) -> Vec<String> {
    let mut out = Vec::new();
    crate::generator::write_ndjson(&mut out, events, 7).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_string_stops_at_the_first_quote_backslash_or_control_character_wherever_it_is() {
    // Fillers of every kind a string holds, UTF-8's high bytes among them.
    let fillers = [b'a', b' ', b'~', 0x7f, 0x80, 0xC3, 0xE2, 0xFF, 0x20, b'/'];
    for len in 0..48 {
        for k in 0..fillers.len() {
            let b: Vec<u8> = (0..len)
                .map(|j| fillers[(j * k + k) % fillers.len()])
                .collect();
            for from in 0..=len {
                assert_eq!(next_stop(&b, from), len, "none in {b:?} from {from}");
            }
            for at in 0..len {
                for stop in [b'"', b'\\', 0x00, 0x0a, 0x1f] {
                    let mut m = b.clone();
                    m[at] = stop;
                    for from in 0..=at {
                        assert_eq!(next_stop(&m, from), at, "{m:?} from {from}");
                    }
                    assert_eq!(next_stop(&m, at + 1), len, "{m:?} past it");
                }
            }
        }
    }
}

#[test]
fn generated_events_are_plain_and_read_as_the_thorough_reader_reads_them() {
    for line in generated(300) {
        assert!(agrees(&line), "not read as plain: {line}");
    }
}

#[test]
fn valid_events_of_other_shapes_read_the_same_when_plain() {
    let plain_cases = [
        r#"{}"#,
        r#" { "id" : "a" , "data" : { } } "#,
        "{\"id\":\"a\",\n\t\"data\":{\"room_id\":\"r\"}\r\n}",
        r#"{"data":{"agent":{},"error_code":-0,"is_terminal":null}}"#,
        r#"{"data":{"error_code":123456789012345678,"is_terminal":false}}"#,
        r#"{"x":[1,-2.5e+3,0.0,1E9,true,false,null,"s",[],{},[{"data":{"room_id":"deep"}}]]}"#,
        r#"{"data":{"n":{"agent":{"os":"not the agent"}},"room_id":"r","extra":"e\"q\u00e9"}}"#,
        r#"{"agent":{"os":"top-level agent"},"type":"t","data":{"x":"1","x":"2"}}"#,
        r#"{"data":{"error_description":"a \\ b \/ \b\f\n\r\t","agent":{"string":"sdk:web,env:qa","dev":"z"}}}"#,
        r#"{"id":"é佐藤","data":{"user_name":"Zoë 佐藤"}}"#,
        r#"{"data":{"domain":"d","agent":{"domain":"a"}}}"#,
        r#"{"data":{"room_id":"r\u0041"}}"#,
        r#"{"id":"\u00e9","type":"client.\u006aoin.failed","data":{"user_name":"Zo\u00eb \"Q\"","agent":{"os":"Mac\u00a0OS","string":"env:q\u0061"}}}"#,
        r#"{"data":{"user_name":"\ud83d\ude00 \/ \\"}}"#,
    ];
    for text in plain_cases {
        assert!(agrees(text), "not read as plain: {text}");
    }
    // Left to the thorough reader: what it reads differently from the common shape.
    let thorough_cases = [
        r#"{"id":"a","id":"b"}"#,
        r#"{"data":{"room_id":"a","room_id":"b"}}"#,
        r#"{"data":{"agent":{"os":"a"},"agent":{"os":"b"}}}"#,
        r#"{"data":{},"data":{}}"#,
        r#"{"d\u0061ta":{"room_id":"r"}}"#,
        r#"{"data":{"room_id":7}}"#,
        r#"{"data":{"room_id":null}}"#,
        r#"{"data":{"error_code":500.0}}"#,
        r#"{"data":{"error_code":1e3}}"#,
        r#"{"data":{"error_code":"500"}}"#,
        r#"{"data":{"error_code":12345678901234567890}}"#,
        r#"{"data":{"is_terminal":1}}"#,
        r#"{"data":[1]}"#,
        r#"{"data":{"agent":"web"}}"#,
    ];
    for text in thorough_cases {
        assert!(plain(text).is_none(), "read as plain: {text}");
        assert!(thorough(text).is_some(), "{text}");
    }
    // A known field that is no text (half a surrogate pair) is not read as plain.
    assert!(plain(r#"{"data":{"room_id":"a\ud800"}}"#).is_none());
    // Not an event at all: both refuse it.
    assert!(plain(r#"[{"id":"a"}]"#).is_none());
    assert!(thorough(r#"[{"id":"a"}]"#).is_none());
    let deep = format!("{{\"x\":{}{}}}", "[".repeat(150), "]".repeat(150));
    assert!(plain(&deep).is_none());
}

#[test]
fn no_damaged_event_is_read_as_plain() {
    let mut events = vec![
        r#"{"id":"e1","x":[1,-2.5e+3,{"k":"v\"w\u00e9"},true,null],"data":{"room_id":"r","error_code":500,"is_terminal":false,"agent":{"os":"x"}},"t":"z"}"#.to_string(),
    ];
    events.extend(generated(1));
    let bytes = b"\"\\{}[]:,0-.eE+ tfnu/a\x01\x1f";
    let mut read = 0;
    for event in &events {
        let b = event.as_bytes();
        let mut check = |m: Vec<u8>| {
            if let Ok(text) = std::str::from_utf8(&m)
                && agrees(text)
            {
                read += 1;
            }
        };
        for i in 0..b.len() {
            for &x in bytes {
                let mut m = b.to_vec();
                m[i] = x;
                check(m);
                let mut m = b.to_vec();
                m.insert(i, x);
                check(m);
            }
            let mut m = b.to_vec();
            m.remove(i);
            check(m);
            check(b[..i].to_vec());
        }
    }
    // Many changes leave valid JSON (a letter in a string); those must have been read.
    assert!(read > 1000, "{read}");
}
