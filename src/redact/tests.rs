use super::*;

fn addresses(s: &str) -> Vec<String> {
    find_addresses(s)
        .into_iter()
        .map(|(a, b, _)| s[a..b].to_string())
        .collect()
}

#[test]
fn addresses_are_found_in_candidates_and_text() {
    assert_eq!(
        addresses(
            "candidate:842163049 1 udp 1677729535 203.0.113.7 61213 typ srflx raddr 10.0.0.5 rport 61213"
        ),
        vec!["203.0.113.7", "10.0.0.5"]
    );
    assert_eq!(
        addresses("to 10.0.0.5:61213, [2001:db8::1]:443 and fe80::1%eth0; ::ffff:192.0.2.1."),
        vec!["10.0.0.5", "2001:db8::1", "fe80::1", "::ffff:192.0.2.1"]
    );
    assert_eq!(
        addresses("http://192.168.1.20:8080/path"),
        vec!["192.168.1.20"]
    );
    for none in [
        "2024-11-18T10:02:03.000123456Z",
        "sdk_version:1.9.12,os_version:17.5",
        "v1.2.3.4x",
        "aa:bb:cc:dd:ee:ff",
        "Class::method",
        "a :: b",
        "3e9fcd85-0a6b-4c4d-9e5f-8b9c0d1e2f3a",
        "1677729535",
    ] {
        assert!(addresses(none).is_empty(), "{none}: {:?}", addresses(none));
    }
}

#[test]
fn the_same_address_gets_the_same_pseudonym_and_keeps_its_kind() {
    let mut r = Redactor::new([]);
    let a = r.text("raddr 10.0.0.5 and 203.0.113.7").into_owned();
    let b = r.text("203.0.113.7 then 10.0.0.5").into_owned();
    assert_eq!(a, "raddr 198.19.0.1 and 198.18.0.1");
    assert_eq!(b, "198.18.0.1 then 198.19.0.1");
    assert_eq!(r.text("[2001:db8::7]:443"), "[2001:db8:1::1]:443");
}

#[test]
fn pseudonyms_never_equal_an_input_address() {
    let mut r = Redactor::new([]);
    r.note_addresses("198.18.0.1 and 198.18.0.2 are real here");
    assert_eq!(r.text("8.8.8.8"), "198.18.0.3");
}

#[test]
fn names_and_ids_are_replaced_as_whole_words_whatever_their_case() {
    let mut r = Redactor::new([("Ann Lee", true), ("usr_7b2c", false), ("Ann", true)]);
    assert_eq!(r.text("Ann Lee"), "user-0001");
    assert_eq!(
        r.text("ann lee left; ANN stayed"),
        "user-0001 left; user-0002 stayed"
    );
    assert_eq!(r.text("Annabel and usr_7b2cd"), "Annabel and usr_7b2cd");
    assert_eq!(r.text("peer of usr_7b2c."), "peer of uid-0001.");
    assert!(matches!(r.text("nothing here"), Cow::Borrowed(_)));
}

#[test]
fn names_whose_lowercase_is_longer_are_found_too() {
    let mut r = Redactor::new([("İlker Aydın", true)]);
    assert_eq!(
        r.text("İLKER Aydın and İlker AydıN left"),
        "user-0001 and user-0001 left"
    );
    assert_eq!(r.text("by i̇lker aydın"), "by user-0001");
}

#[test]
fn a_pseudonym_is_never_an_input_name() {
    let mut r = Redactor::new([("user-0001", true), ("Bob", true)]);
    assert_eq!(r.text("user-0001"), "user-0002");
    assert_eq!(r.text("Bob"), "user-0003");
}

#[test]
fn events_keep_every_other_byte() {
    let raw = br#"{ "id" : "x", "n": 1.50, "esc": "a\/b \u00e9",
  "data": {"user_name": "Ann", "user_id": "u1", "msg": "Ann at 10.0.0.5", "Ann": true}}"#;
    let mut r = Redactor::new([("Ann", true), ("u1", false)]);
    let out = String::from_utf8(r.event(raw)).unwrap();
    assert_eq!(
        out,
        r#"{ "id" : "x", "n": 1.50, "esc": "a\/b \u00e9",
  "data": {"user_name": "user-0001", "user_id": "uid-0001", "msg": "user-0001 at 198.19.0.1", "Ann": true}}"#
    );
}

#[test]
fn escaped_strings_are_read_before_they_are_searched() {
    let raw = br#"{"m":"Luc\u00eda at 10.0.0.\u0035\n"}"#;
    let mut r = Redactor::new([("Lucía", true)]);
    let out = r.event(raw);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["m"], "user-0001 at 198.19.0.1\n");
}

#[test]
fn values_are_replaced_only_whole_and_numbered_after_the_identities() {
    let mut r = Redactor::with_values(
        [("Ann", true), ("u1", false)],
        [("Beam Recorder", true), ("beam", false), ("Ann", true)],
    );
    assert_eq!(r.text("Ann"), "user-0001");
    assert_eq!(r.text("beam"), "uid-0002");
    assert_eq!(r.text("BEAM"), "uid-0002");
    assert_eq!(r.text("Beam Recorder"), "user-0002");
    // Inside a longer value a value is a word like any other: the event's type stays.
    assert_eq!(r.text("beam.recording.success"), "beam.recording.success");
    assert_eq!(
        r.text("Ann met Beam Recorder"),
        "user-0001 met Beam Recorder"
    );
    // For the related data, which holds none of the events' words, they are words too.
    r.find_values_as_words();
    assert_eq!(r.text("Ann met Beam Recorder"), "user-0001 met user-0002");
    assert_eq!(
        r.text("beam.recording.success"),
        "uid-0002.recording.success"
    );
}
