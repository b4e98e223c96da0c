//! The filters: max, types and their aliases, ids, terminal, retried and code, search, since
//! and until.

use super::*;

fn select(pred: impl Fn(&Value) -> bool) -> Vec<Value> {
    reference().into_iter().filter(|e| pred(e)).collect()
}

#[test]
fn max_keeps_the_first_n_matching_events() {
    let all = reference();
    assert_eq!(parse_lines(&list_all(&["--max", "3"])), all[..3]);
    assert_eq!(list_all(&["--max", "0"]), "");
    assert_eq!(parse_lines(&list_all(&["--max", "100"])), all);
    let joins: Vec<Value> = select(|e| e["type"] == "client.join.failed");
    assert_eq!(
        parse_lines(&list_all(&["--type", "join", "--max", "2"])),
        joins[..2]
    );
}

#[test]
fn type_filters_take_aliases_full_names_and_repeats() {
    let of = |types: &[&str]| select(|e| types.contains(&e["type"].as_str().unwrap()));
    for (alias, name) in [
        ("publish", "client.publish.failed"),
        ("subscribe", "client.subscribe.failed"),
        ("join", "client.join.failed"),
        ("disconnected", "client.disconnected"),
        ("connect", "client.connect.failed"),
    ] {
        let expected = of(&[name]);
        assert!(!expected.is_empty(), "{name}");
        assert_eq!(
            parse_lines(&list_all(&["--type", alias])),
            expected,
            "{alias}"
        );
        assert_eq!(
            parse_lines(&list_all(&["--type", name])),
            expected,
            "{name}"
        );
    }
    let both = of(&["client.join.failed", "client.connect.failed"]);
    assert_eq!(
        parse_lines(&list_all(&[
            "--type",
            "join",
            "--type",
            "client.connect.failed"
        ])),
        both
    );
    assert_eq!(parse_lines(&list_all(&["--type", "connect,join"])), both);
    assert_eq!(
        parse_lines(&list_all(&["--type", "track.add.success"])),
        of(&["track.add.success"])
    );
}

#[test]
fn id_filters_select_exact_ids() {
    for (flag, field, value) in [
        ("--room", "room_id", "6735e0b1c4a92f5d18e3b7a1"),
        ("--room", "room_id", "671f3c2a9e8d7b6a5c4d3e2f"),
        ("--session", "session_id", "673b20aa9c4d5a6b7c8d9e10"),
        ("--peer", "peer_id", "1c7dab63-8e4f-4a2b-9c3d-6f7a8b9c0d1e"),
        ("--user", "user_id", "usr_7b2c4d93"),
    ] {
        let expected = select(|e| data(e, field) == value);
        assert!(!expected.is_empty(), "{flag} {value}");
        assert_eq!(
            parse_lines(&list_all(&[flag, value])),
            expected,
            "{flag} {value}"
        );
    }
    let expected = select(|e| {
        data(e, "room_id") == "6735e0b1c4a92f5d18e3b7a1" && data(e, "user_id") == "usr_8c1f2a90"
    });
    assert_eq!(expected.len(), 3);
    assert_eq!(
        parse_lines(&list_all(&[
            "--room",
            "6735e0b1c4a92f5d18e3b7a1",
            "--user",
            "usr_8c1f2a90"
        ])),
        expected
    );
}

#[test]
fn terminal_retried_and_code_filters() {
    let terminal = select(|e| data(e, "is_terminal") == true);
    let retried = select(|e| data(e, "is_terminal") == false);
    assert_eq!(parse_lines(&list_all(&["--terminal"])), terminal);
    assert_eq!(parse_lines(&list_all(&["--retried"])), retried);
    assert_eq!(
        terminal.len() + retried.len(),
        11,
        "the track event says neither"
    );
    for code in ["4006", "500", "1003", "2003"] {
        let expected = select(|e| *data(e, "error_code") == code.parse::<i64>().unwrap());
        assert!(!expected.is_empty());
        assert_eq!(
            parse_lines(&list_all(&["--code", code])),
            expected,
            "{code}"
        );
    }
    let final_joins = select(|e| data(e, "is_terminal") == true && data(e, "error_code") == 500);
    assert_eq!(
        parse_lines(&list_all(&[
            "--terminal",
            "--code",
            "500",
            "--type",
            "join"
        ])),
        final_joins
    );
}

/// Whether any string value (not key) of `v`, or any number as written, contains `needle`,
/// ignoring case.
fn has_text(v: &Value, needle: &str) -> bool {
    match v {
        Value::String(s) => s.to_lowercase().contains(&needle.to_lowercase()),
        Value::Number(n) => n
            .to_string()
            .to_lowercase()
            .contains(&needle.to_lowercase()),
        Value::Array(items) => items.iter().any(|i| has_text(i, needle)),
        Value::Object(o) => o.values().any(|i| has_text(i, needle)),
        _ => false,
    }
}

#[test]
fn search_matches_string_values_ignoring_case() {
    for needle in [
        "ice connection",
        "PIXEL 7, pro",
        "lucía",
        "PWNED",
        "math-tutoring",
        "meet.example.com:443",
    ] {
        let expected = select(|e| has_text(e, needle));
        assert!(!expected.is_empty(), "{needle}");
        assert_eq!(
            parse_lines(&list_all(&["--search", needle])),
            expected,
            "{needle}"
        );
    }
    for absent in ["error_description", "second copy"] {
        assert_eq!(list_all(&["--search", absent]), "", "{absent}");
    }
}

#[test]
fn search_finds_numbers_as_written_so_a_code_finds_every_event_of_that_code() {
    let with_code = select(|e| *data(e, "error_code") == 4006);
    let found = parse_lines(&list_all(&["--search", "4006"]));
    assert_eq!(found, select(|e| has_text(e, "4006")));
    assert!(
        with_code.iter().all(|e| found.contains(e)),
        "every event of code 4006 is found"
    );
    assert!(!with_code.is_empty());
    // A part of a number, and numbers other than the code.
    for needle in ["00", "12345678901234567890"] {
        assert_eq!(
            parse_lines(&list_all(&[&format!("--search={needle}")])),
            select(|e| has_text(e, needle)),
            "{needle}"
        );
    }
}

#[test]
fn since_and_until_take_rfc3339_times() {
    let between = |a: &str, b: &str| select(|e| ts(e) >= a && ts(e) <= b);
    let expected = between(
        "2024-11-18T10:15:42.123456789Z",
        "2024-11-18T11:00:01.200000000Z",
    );
    assert_eq!(expected.len(), 6);
    assert_eq!(
        parse_lines(&list_all(&[
            "--since",
            "2024-11-18T10:15:42.123456789Z",
            "--until",
            "2024-11-18T11:00:01.2Z"
        ])),
        expected
    );
    assert_eq!(
        parse_lines(&list_all(&[
            "--since",
            "2024-11-18T12:15:42.123456789+02:00"
        ])),
        select(|e| ts(e) >= "2024-11-18T10:15:42.123456789Z")
    );
    assert_eq!(
        parse_lines(&list_all(&["--until", "2024-11-18T10:20:00Z"])),
        select(|e| ts(e) <= "2024-11-18T10:20:00Z")
    );
}

#[test]
fn since_and_until_take_durations_back_from_now() {
    let all = reference();
    // The fixtures are from November 2024.
    assert_eq!(parse_lines(&list_all(&["--since", "36500d"])), all);
    assert_eq!(parse_lines(&list_all(&["--until", "1h"])), all);
    // Nothing, and the time the events span said beside it.
    for range in [["--since", "90m"], ["--until", "36500d"]] {
        callscope()
            .arg("list")
            .arg(fixtures_dir())
            .args(range)
            .args(["--format", "ndjson"])
            .assert()
            .success()
            .stdout("")
            .stderr(predicate::str::contains("the events read span 2024-11-18"));
    }
    assert_eq!(
        parse_lines(&list_all(&["--since", "5200w", "--until", "2s"])),
        all
    );
}

#[test]
fn zero_matches_exit_0_with_empty_output() {
    for args in [
        &["--room", "no-such-room"][..],
        &["--type", "connect", "--retried"],
        &["--code", "9999"],
        &["--search", "nothing like this"],
    ] {
        assert_eq!(list_all(args), "", "{args:?}");
    }
}

#[test]
fn a_pasted_id_with_spaces_around_it_is_the_id() {
    let exact = common::list_ndjson(["--demo", "--room", "673a1f2c9e4b8d0a5c7e3f21"]);
    assert!(!exact.is_empty());
    let pasted = common::list_ndjson(["--demo", "--room", " 673a1f2c9e4b8d0a5c7e3f21\n"]);
    assert_eq!(pasted, exact);
}
