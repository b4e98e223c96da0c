//! Looking an event's code up: its platform from the agent, the native table under a wrapper,
//! the general fallback, never another platform's meaning, unknown and malformed codes.

use super::*;

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
    assert_eq!(
        e.read_in().as_deref(),
        Some("the Android SDK's table, as the Flutter SDK's table says")
    );
    let e = explain(Platform::Flutter(Some(Native::Ios)), 1003);
    assert_eq!(
        e.read_in().as_deref(),
        Some("the iOS SDK's table (Flutter on iOS)")
    );
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
    assert_eq!(
        explain(Platform::Web, 500).read_in().as_deref(),
        Some("the web SDK's table")
    );
    assert_eq!(explain(Platform::Web, 9999).read_in(), None);
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
