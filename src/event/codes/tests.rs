use serde_json::json;

use super::*;

/// An event of `code` (when given) from an agent with these fields.
fn event(code: Option<i64>, name: Option<&str>, agent: serde_json::Value) -> Event {
    let mut data = json!({"error_message": "the message", "agent": agent});
    if let Some(code) = code {
        data["error_code"] = json!(code);
    }
    if let Some(name) = name {
        data["error_name"] = json!(name);
    }
    let e = json!({"type": "client.publish.failed", "data": data});
    Event::parse(e.to_string().as_bytes()).unwrap()
}

fn web_event(code: i64, name: &str) -> Event {
    event(
        Some(code),
        Some(name),
        json!({"sdk": "web", "os": "web_Mac_OS"}),
    )
}

/// The platform whose tables end with `table`, the native SDK not known.
fn platform_of_table(table: Table) -> Platform {
    match table {
        Table::General => Platform::Web,
        Table::Android => Platform::Android,
        Table::Ios => Platform::Ios,
        Table::Flutter => Platform::Flutter(None),
        Table::ReactNative => Platform::ReactNative(None),
    }
}

/// Every code a row's code column holds; `None` for a code passed through from the server.
fn codes_of(row: &Row) -> Vec<Option<i64>> {
    row.codes
        .iter()
        .flat_map(|c| match *c {
            Code::One(c) => vec![Some(c)],
            Code::Span(lo, hi) => (lo..=hi).map(Some).collect(),
            Code::FromServer => vec![None],
        })
        .collect()
}

fn meaning(platform: Platform, code: i64) -> (Table, &'static Row, bool) {
    match explain(platform, code).answer {
        Answer::Meaning {
            table,
            row,
            fallback,
        } => (table, row, fallback),
        other => panic!("{code} on {platform:?}: {other:?}"),
    }
}

#[test]
fn every_table_holds_the_rows_counted_in_the_spec() {
    // Rows of the spec's tables (shared/spec/error-codes.md), header excluded:
    // 2.1 web / general 63, 2.2 Android 57, 2.3 iOS 28, 2.4 Flutter 11, 2.5 React Native 22.
    let counts: Vec<(Table, usize)> = Table::ALL.iter().map(|t| (*t, t.rows().len())).collect();
    assert_eq!(
        counts,
        [
            (Table::General, 63),
            (Table::Android, 57),
            (Table::Ios, 28),
            (Table::Flutter, 11),
            (Table::ReactNative, 22),
        ]
    );
    // Section 3: 33 rows of codes, two of which hold two codes (3016 and 3017; 4007 and 4008).
    assert_eq!(DIFFERS_BY_PLATFORM.len(), 35);
}

#[test]
fn every_code_of_every_row_is_found_under_its_platform() {
    for table in Table::ALL {
        let platform = platform_of_table(table);
        for row in table.rows() {
            let name = row.names.first().copied();
            for code in codes_of(row) {
                // A row of a code passed through from the server is found by its name, whatever
                // the code.
                let code = code.unwrap_or(987_654);
                let (t, r) = match answer(platform, code, name) {
                    Answer::Meaning {
                        table,
                        row,
                        fallback: false,
                    }
                    | Answer::NoMeaning { table, row } => (table, row),
                    other => panic!("{code} of the {table:?} table: {other:?}"),
                };
                if row.refers == Some(Refers::Android) {
                    // "as Android": the Android row of the code answers.
                    assert_eq!((t, r.holds(code)), (Table::Android, 2), "{code}");
                } else {
                    assert_eq!(t, table, "{code}");
                    // A row that holds the code in a span yields to one that names it.
                    assert!(
                        std::ptr::eq(r, row) || (row.holds(code) == 1 && r.holds(code) == 2),
                        "{code} of the {table:?} table found {r:?}"
                    );
                }
                let no_meaning = matches!(answer(platform, code, name), Answer::NoMeaning { .. });
                assert_eq!(no_meaning, r.kind == Kind::NoMeaning, "{code}");
            }
        }
    }
}

#[test]
fn a_wrapper_on_a_known_native_sdk_reads_the_native_table_first() {
    for native in [Native::Android, Native::Ios] {
        let native_table = Table::of_native(native);
        for platform in [
            Platform::Flutter(Some(native)),
            Platform::ReactNative(Some(native)),
        ] {
            for row in native_table.rows() {
                for code in codes_of(row).into_iter().flatten() {
                    let e = explain(platform, code);
                    assert_eq!(e.table(), Some(native_table), "{code} on {platform:?}");
                    assert!(e.row().unwrap().holds(code) > 0);
                }
            }
        }
    }
    let e = explain(Platform::Flutter(Some(Native::Ios)), 1003);
    assert_eq!(e.row().unwrap().names, ["websocketConnectionLost"]);
    assert_eq!(e.source(), "iOS table (Flutter on iOS)");
    let e = explain(Platform::Flutter(None), 1003);
    assert_eq!(e.row().unwrap().names, ["WebSocketConnectionLost"]);
    assert_eq!(e.source(), "Android table, as the Flutter table says");
    // A wrapper's own error is told from the SDK's of the same code by its name.
    let own = answer(
        Platform::Flutter(Some(Native::Android)),
        6004,
        Some("Room code null error"),
    );
    assert!(
        matches!(own, Answer::Meaning { table: Table::Flutter, row, .. } if row.what.contains("plugin's own"))
    );
    let sdk = answer(
        Platform::Flutter(Some(Native::Android)),
        6004,
        Some("JsonParsingFailed"),
    );
    assert!(matches!(
        sdk,
        Answer::Meaning {
            table: Table::Android,
            ..
        }
    ));
    // A wrapper's row of one native SDK holds on that one only.
    let e = explain(Platform::ReactNative(Some(Native::Android)), 103);
    assert_eq!(e.table(), Some(Table::ReactNative));
    assert!(explain(Platform::ReactNative(Some(Native::Ios)), 103).is_unknown());
    assert_eq!(
        explain(Platform::ReactNative(Some(Native::Ios)), 7000).table(),
        Some(Table::ReactNative)
    );
}

#[test]
fn a_code_missing_from_the_platforms_table_falls_back_to_the_general_one() {
    let (table, row, fallback) = meaning(Platform::Ios, 500);
    assert_eq!(
        (table, row.what, fallback),
        (Table::General, "Server-side failure.", true)
    );
    assert_eq!(
        explain(Platform::Ios, 500).source(),
        "iOS table; general table for this code"
    );
    let (table, row, fallback) = meaning(Platform::Android, 3009);
    assert_eq!(
        (table, row.names, fallback),
        (Table::General, &["OverConstrained"][..], true)
    );
    assert_eq!(
        explain(Platform::Android, 3009).source(),
        "Android table; general table for this code"
    );
    assert_eq!(
        explain(Platform::Flutter(Some(Native::Android)), 6011).source(),
        "Android and Flutter tables; general table for this code"
    );
    let (table, _, fallback) = meaning(Platform::Unknown, 2003);
    assert_eq!((table, fallback), (Table::General, true));
    assert_eq!(
        explain(Platform::Unknown, 2003).source(),
        "platform not known; general table for this code"
    );
    // The platform's own row comes first: Android's 500, not web's.
    let (table, row, fallback) = meaning(Platform::Android, 500);
    assert_eq!(
        (table, row.what, fallback),
        (Table::Android, "Docs: general server error.", false)
    );
    // On web, the web table is the only one, and is named so.
    assert_eq!(explain(Platform::Web, 500).source(), "web table");
}

#[test]
fn a_code_whose_meaning_differs_by_platform_is_never_borrowed_from_another() {
    let platforms = [
        Platform::Android,
        Platform::Ios,
        Platform::Flutter(Some(Native::Android)),
        Platform::Flutter(Some(Native::Ios)),
        Platform::ReactNative(Some(Native::Android)),
        Platform::ReactNative(Some(Native::Ios)),
        Platform::Unknown,
    ];
    for platform in platforms {
        for &code in DIFFERS_BY_PLATFORM {
            if let Answer::Meaning { table, .. } = explain(platform, code).answer {
                assert!(
                    tables_of(platform).contains(&table),
                    "{code} on {platform:?} was read in the {table:?} table"
                );
            }
        }
    }
    // Android defines no 4006: web's "ICE disconnected" is not its meaning there.
    let e = explain(Platform::Android, 4006);
    assert_eq!(e.answer, Answer::Unknown(Unknown::DiffersByPlatform));
    assert!(e.source().contains("not borrowed"), "{}", e.source());
    // Nor is web's "current tab not shared" iOS's 3012, or web's http page iOS's 6010.
    assert!(explain(Platform::Ios, 3012).is_unknown());
    assert!(explain(Platform::Ios, 6010).is_unknown());
    assert!(explain(Platform::Android, 1006).is_unknown());
    // Android's screen-share permission is not Flutter-on-iOS's 3017.
    assert!(explain(Platform::Flutter(Some(Native::Ios)), 3017).is_unknown());
    // React Native on Android: the RN docs copy web's autoplay wording for 3008; it is said to
    // be no meaning, and the iOS meaning holds on iOS only.
    let e = explain(Platform::ReactNative(Some(Native::Android)), 3008);
    assert!(matches!(
        e.answer,
        Answer::NoMeaning {
            table: Table::ReactNative,
            ..
        }
    ));
    assert!(e.is_unknown());
    let (table, row, _) = meaning(Platform::ReactNative(Some(Native::Ios)), 3008);
    assert_eq!(
        (table, row.names),
        (Table::Ios, &["audiovideoSubsystemFailure"][..])
    );
    // A platform's own meaning wins over web's.
    assert_eq!(
        meaning(Platform::Android, 2002).1.names,
        ["InvalidEndpointURL"]
    );
    assert_eq!(meaning(Platform::Web, 2002).1.names, ["InitError"]);
    assert!(
        meaning(Platform::Android, 6008)
            .1
            .what
            .contains("peer is null")
    );
    assert_eq!(meaning(Platform::Web, 6008).1.names, ["InvalidRole"]);
    // With the platform not known, such a code has no meaning at all.
    let e = explain(Platform::Unknown, 3008);
    assert_eq!(e.answer, Answer::Unknown(Unknown::DiffersByPlatform));
}

#[test]
fn a_code_in_no_table_is_unknown_and_the_events_own_words_are_quoted() {
    assert_eq!(
        explain(Platform::Web, 9999).answer,
        Answer::Unknown(Unknown::NotInTables)
    );
    assert_eq!(
        explain(Platform::Android, -1).answer,
        Answer::Unknown(Unknown::NotInTables)
    );
    // The 5-digit codes are React Native's only.
    assert!(explain(Platform::Android, 40101).is_unknown());
    assert!(!explain(Platform::ReactNative(Some(Native::Android)), 40101).is_unknown());

    let e = explain_event(&web_event(9999, "Weird \"thing\""));
    let line = e.line();
    assert_eq!(
        line,
        "9999 (web): unknown code: the event says error_name \"Weird \"thing\"\", \
         error_message \"the message\""
    );
    let lines = e.lines();
    assert_eq!(lines[0].0, "means");
    assert!(
        lines[0]
            .1
            .starts_with("unknown code: the event says error_name")
    );
    assert_eq!(lines[1], ("table", "not in the web table".to_string()));

    let e = explain_event(&event(Some(9999), None, json!({"sdk": "android"})));
    assert_eq!(
        e.lines()[1].1,
        "not in the Android table nor in the general table"
    );
}

#[test]
fn an_event_without_a_code_is_an_unknown_code() {
    let e = explain_event(&event(None, Some("TypeError"), json!({"sdk": "web"})));
    assert_eq!(e.answer, Answer::Unknown(Unknown::NoCode));
    assert!(e.source().contains("plain browser error"));
    assert!(
        e.line()
            .starts_with("no code (web): unknown code: the event says error_name")
    );
}

#[test]
fn a_code_sent_as_a_float_with_no_fraction_is_that_code_and_any_other_is_not_one() {
    let with_code = |code: serde_json::Value| {
        let e = json!({"type": "client.publish.failed", "data": {"error_code": code, "agent": {"sdk": "web"}}});
        explain_event(&Event::parse(e.to_string().as_bytes()).unwrap())
    };
    let float = with_code(json!(4006.0));
    assert_eq!(
        (float.code, float.table()),
        (Some(4006), Some(Table::General))
    );
    for not_whole in [json!(4006.5), json!("4006"), json!([4006])] {
        let x = with_code(not_whole.clone());
        assert_eq!(
            x.answer,
            Answer::Unknown(Unknown::NotAWholeNumber),
            "{not_whole}"
        );
        assert_eq!(x.source(), "the error_code is not a whole number");
    }
    assert_eq!(
        with_code(json!(null)).answer,
        Answer::Unknown(Unknown::NoCode)
    );
}

#[test]
fn a_server_code_passed_through_is_said_to_be_one_and_unknown() {
    let e = explain_event(&web_event(404, "ServerErrors"));
    assert!(matches!(
        e.answer,
        Answer::NoMeaning {
            table: Table::General,
            ..
        }
    ));
    let means = &e.lines()[0].1;
    assert!(
        means.starts_with("unknown code: The SDK passes the server's code through unchanged."),
        "{means}"
    );
    assert!(means.contains("The event says error_name \"ServerErrors\""));
    // Android's layer switch copies the server's code; its name tells it.
    let e = explain_event(&event(
        Some(404),
        Some("Prefer Layer failed"),
        json!({"sdk": "android"}),
    ));
    assert_eq!(e.table(), Some(Table::Android));
    assert!(!e.is_unknown());
    // Without the name, no code is taken for a server's.
    assert!(explain(Platform::Web, 404).is_unknown());
}

#[test]
fn the_tables_name_is_given_when_the_events_differs() {
    assert_eq!(
        explain_event(&web_event(4006, "ICEDisconnected")).table_name_if_differs(),
        None
    );
    assert_eq!(
        explain_event(&web_event(4006, "IceDisconnected")).table_name_if_differs(),
        Some("web table: ICEDisconnected".to_string())
    );
    let absent = event(Some(4006), None, json!({"sdk": "web"}));
    assert_eq!(
        explain_event(&absent).table_name_if_differs(),
        Some("web table: ICEDisconnected".to_string())
    );
    let ios = event(Some(4005), Some("ICEFailure"), json!({"sdk": "ios"}));
    let differs = explain_event(&ios).table_name_if_differs().unwrap();
    assert!(
        differs.starts_with("iOS table: iceFailure, the iOS case name"),
        "{differs}"
    );
    // Either of two names of a row is the table's.
    let android = event(Some(400), Some("HTTPError"), json!({"sdk": "android"}));
    assert_eq!(explain_event(&android).table_name_if_differs(), None);
    let android = event(Some(400), Some("Bad"), json!({"sdk": "android"}));
    assert_eq!(
        explain_event(&android).table_name_if_differs().unwrap(),
        "Android table: ServerErrors† or HTTPError† (ServerErrors for signalling, HTTPError for \
         HTTP calls: uncertain which)"
    );
    // A row without a name has nothing to compare.
    let docs_only = event(Some(3003), Some("Anything"), json!({"sdk": "android"}));
    assert_eq!(explain_event(&docs_only).table_name_if_differs(), None);
    // Neither has an unknown code.
    assert_eq!(
        explain_event(&web_event(9999, "X")).table_name_if_differs(),
        None
    );
}

#[test]
fn the_platform_is_read_from_the_agents_sdk_then_its_os() {
    let read = Platform::read;
    assert_eq!(read(Some("web"), Some("web_Mac_OS")), Platform::Web);
    assert_eq!(read(Some(" Android "), None), Platform::Android);
    assert_eq!(read(Some("ios"), Some("iOS")), Platform::Ios);
    assert_eq!(
        read(Some("flutter"), Some("Android")),
        Platform::Flutter(Some(Native::Android))
    );
    assert_eq!(
        read(Some("flutter"), Some("iPadOS")),
        Platform::Flutter(Some(Native::Ios))
    );
    assert_eq!(read(Some("flutter"), None), Platform::Flutter(None));
    assert_eq!(
        read(Some("react-native"), Some("ios")),
        Platform::ReactNative(Some(Native::Ios))
    );
    // Without a known sdk, the os: web_ is web, android is Android, nothing else.
    assert_eq!(read(None, Some("web_nodejs")), Platform::Web);
    assert_eq!(read(Some("unity"), Some("android")), Platform::Android);
    assert_eq!(read(None, Some("iOS")), Platform::Unknown);
    assert_eq!(read(None, None), Platform::Unknown);
    assert_eq!(read(Some(""), Some("macOS")), Platform::Unknown);
}

#[test]
fn an_events_platform_falls_back_on_its_agent_string_when_a_field_is_absent() {
    let of = |agent| Platform::of(&event(Some(1), None, agent));
    assert_eq!(
        of(json!({"sdk": "android", "os": "Android"})),
        Platform::Android
    );
    assert_eq!(
        of(json!({"string": "sdk:flutter,sdk_version:2.0,os:iOS,env:prod"})),
        Platform::Flutter(Some(Native::Ios))
    );
    assert_eq!(
        of(json!({"sdk": "", "string": "sdk:android,os:android"})),
        Platform::Android
    );
    // The field wins over the string.
    assert_eq!(
        of(json!({"sdk": "web", "string": "sdk:android"})),
        Platform::Web
    );
    assert_eq!(of(json!({"os": "web_Windows"})), Platform::Web);
    assert_eq!(of(json!({})), Platform::Unknown);
    let e = event(Some(1), None, json!(null));
    assert_eq!(Platform::of(&e), Platform::Unknown);
}

#[test]
fn a_code_defined_but_not_raised_is_said_to_be_so() {
    let e = explain(Platform::Web, 3007);
    let lines = e.lines();
    assert_eq!(
        lines[0],
        (
            "means",
            "defined by the SDK but not raised in the version read (web SDK 0.15.2)".to_string()
        )
    );
    let e = explain(Platform::Web, 3004);
    assert!(e.lines().contains(&(
        "note",
        "defined by the SDK but not raised in the version read (web SDK 0.15.2)".to_string()
    )));
    assert!(
        e.line()
            .ends_with("Defined by the SDK but not raised in the version read (web SDK 0.15.2).")
    );
    // Only the web table, read in one version, says so.
    for table in Table::ALL {
        for row in table.rows() {
            if row.kind == Kind::DefinedNotRaised {
                assert_eq!(table, Table::General, "{:?}", row.codes);
            }
        }
    }
    assert!(
        !explain(Platform::Web, 4006)
            .lines()
            .iter()
            .any(|(_, l)| l.contains("not raised"))
    );
}

#[test]
fn facts_of_a_secondary_source_are_flagged_and_noted() {
    for table in Table::ALL {
        for row in table.rows() {
            let marked = [row.actions, row.what, row.check, row.retried]
                .iter()
                .any(|cell| cell.contains('†'))
                || row.mark == Mark::Secondary;
            assert_eq!(row.secondary, marked, "{:?} of {table:?}", row.codes);
            if row.secondary {
                assert!(matches!(table, Table::Android | Table::ReactNative));
            }
        }
    }
    let notes = explain(Platform::Android, 2002).lines();
    assert!(notes.contains(&(
        "note",
        "† rests on a secondary source (a decompiled copy of the Android SDK)".to_string()
    )));
    let notes = explain(Platform::Android, 6001).lines();
    assert!(
        notes
            .iter()
            .any(|(label, l)| *label == "note" && l.starts_with('‡'))
    );
    assert!(
        !explain(Platform::Web, 2002)
            .lines()
            .iter()
            .any(|(label, _)| *label == "note")
    );
}

#[test]
fn every_row_says_something_and_names_as_the_sdk_writes_them() {
    for table in Table::ALL {
        for row in table.rows() {
            assert!(!row.codes.is_empty());
            assert!(
                !row.what.is_empty() || row.kind == Kind::DefinedNotRaised,
                "{:?} of {table:?}",
                row.codes
            );
            for name in row.names {
                assert!(
                    !name.is_empty() && !name.contains(['`', '†', '‡']),
                    "{name:?}"
                );
            }
            for cell in [row.what, row.check, row.retried, row.actions] {
                assert!(!cell.contains('`') && cell.trim() == cell && cell != "—");
            }
        }
    }
}

#[test]
fn one_line_says_code_name_platform_meaning_and_retry() {
    assert_eq!(
        explain_event(&web_event(4006, "ICEDisconnected")).line(),
        "4006 ICEDisconnected (web): The media connection dropped and was not connected again \
         within 5 s. Retried by the SDK: Yes, as 4005: ICE restart for up to 60 s, then \
         terminal."
    );
    assert_eq!(
        explain(Platform::Ios, 500).line(),
        "500 ServerErrors (iOS, general table): Server-side failure. Retried by the SDK: Yes, as \
         for 429: connect and join retry for up to 60 s, other signalling requests up to 3 \
         tries. A join that still fails is marked terminal."
    );
    // The event's name is the one a list shows; the table's stands in when it has none.
    let ios = event(Some(4005), Some("ICEFailure"), json!({"sdk": "ios"}));
    assert!(
        explain_event(&ios)
            .line()
            .starts_with("4005 ICEFailure (iOS): ")
    );
    assert!(
        explain(Platform::Ios, 4005)
            .line()
            .starts_with("4005 iceFailure (iOS): ")
    );
    // A retry the sources do not show is left out of the line.
    assert_eq!(
        explain(Platform::Android, 3003).line(),
        "3003 (Android): Docs: the capture device is in use by another app."
    );
    assert_eq!(
        explain(Platform::Android, 3003).lines()[2],
        ("retried", "not shown by the sources".to_string())
    );
}

#[test]
fn the_pane_lines_of_a_fallback_say_which_tables_were_read() {
    let e = explain_event(&event(
        Some(500),
        Some("ServerErrors"),
        json!({"sdk": "ios", "os": "iOS"}),
    ));
    let labels: Vec<&str> = e.lines().iter().map(|(label, _)| *label).collect();
    assert_eq!(labels, ["means", "check", "retried", "table"]);
    assert_eq!(e.lines()[3].1, "iOS table; general table for this code");
}
