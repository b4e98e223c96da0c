//! The detail pane and the JSON tree: the fields of an event, absent ones, codes, the end of a
//! long event.

use super::*;

/// The joins of the demo's storm: the SFU failing joins in the all-hands room from 10:02.
fn join_storm_filter() -> Filter {
    let since = "2026-11-18T10:02:00Z";
    Filter {
        types: vec![EventType::Join],
        search: Some("sfu join failed".into()),
        since: Some(TimeBound {
            text: since.into(),
            nanos: callscope::time::parse_rfc3339_nanos(since).unwrap(),
        }),
        ..Filter::default()
    }
    .with(Field::Room, STORM_ROOM_ID)
}

/// Moves the selection down to the first retried event whose peer later got a final error.
fn select_first_retried_that_ends_final(m: &mut Model) {
    loop {
        let i = m.selected_event().expect("an event is selected");
        let (_, after) = m
            .panes
            .detail
            .after
            .as_ref()
            .expect("the selected event has its story");
        if m.events.store.row(i).is_terminal() == Some(false) && after.final_at.is_some() {
            return;
        }
        let before = m.events.selection.selected;
        run(m, Command::Down);
        assert_ne!(
            before, m.events.selection.selected,
            "no retried event ends final"
        );
    }
}

/// The selected event (the first connect failure): without session_id, room_name, template_id or
/// role.
fn assert_first_demo_event_lacks_session_room_name_template_and_role(m: &Model) {
    let event = m
        .events
        .store
        .event(m.selected_event().expect("an event is selected"));
    assert_eq!(event.event_type(), EventType::Connect);
    for absent in ["session_id", "room_name", "template_id", "role"] {
        assert!(event.data_value(absent).is_none(), "{absent}");
    }
}

#[test]
fn a_join_of_the_storm_is_detailed_with_its_retry_status_who_where_and_join_fields() {
    let mut m = demo(join_storm_filter(), (140, 40));
    assert!(m.events.shown.len() > 50, "the storm holds many joins");
    select_first_retried_that_ends_final(&mut m);
    run(&mut m, Command::FocusDetail);
    let t = draw_detail(&m);
    let text = screen_text(t.backend().buffer());
    for expected in [
        "RETRIED: not the final error",
        "attempt 1 of 3 in this chain;",
        "gave up: final",
        "type: client.join.failed",
        "room: weekly-allhands",
        "join fields",
        "retries_join:",
        "string, decoded:",
        "Raw JSON",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    insta::assert_snapshot!("detail_join_storm", t.backend());
}

#[test]
fn a_connect_lacking_session_room_name_template_and_role_says_they_are_absent() {
    let connect = Filter {
        types: vec![EventType::Connect],
        ..Filter::default()
    };
    let mut m = demo(connect, (140, 40));
    assert_first_demo_event_lacks_session_room_name_template_and_role(&m);
    run(&mut m, Command::FocusDetail);
    let t = draw_detail(&m);
    let text = screen_text(t.backend().buffer());
    for label in ["role", "room", "session", "template"] {
        assert!(
            text.contains(&format!("  {label}: (none)")),
            "{label}:\n{text}"
        );
    }
    assert!(text.contains("room id: "), "{text}");
    insta::assert_snapshot!("detail_connect_absent_fields", t.backend());
}

/// The detail pane's `chain:` sentence, its wrapped rows joined.
fn chain_sentence(m: &Model) -> String {
    let text = detail_rows_joined(m);
    let from = text.find("chain: ").expect("a chain line") + "chain: ".len();
    let to = text[from..]
        .find(" outcome:")
        .map_or(text.len(), |k| from + k);
    text[from..to].to_string()
}

#[test]
fn each_attempt_of_a_retried_chain_says_what_followed_it() {
    // Siddharth's five connect failures, the first events of the demo's connect failures
    // (another peer's failure is the second row): only the last is followed by no error.
    let connect = Filter {
        types: vec![EventType::Connect],
        ..Filter::default()
    };
    let mut m = demo(connect, (140, 40));
    let mut said = Vec::new();
    for row in 0..6 {
        if row != 1 {
            said.push(chain_sentence(&m));
        }
        run(&mut m, Command::Down);
    }
    assert_eq!(
        said,
        [
            "attempt 1 of 5 in this chain; 4 later errors follow, the next at 08:01:49; none \
             after the last, at 08:02:22, among the loaded events",
            "attempt 2 of 5 in this chain; 3 later errors follow, the next at 08:01:50; none \
             after the last, at 08:02:22, among the loaded events",
            "attempt 3 of 5 in this chain; 2 later errors follow, the next at 08:02:09; none \
             after the last, at 08:02:22, among the loaded events",
            "attempt 4 of 5 in this chain; 1 later error follows, at 08:02:22; none after it \
             among the loaded events",
            "attempt 5 of 5 in this chain; no later error for this action among the loaded \
             events",
        ]
    );
}

/// The detail pane of the only event of an explorer, its wrapped rows joined into one text.
fn detail_text_of(event: Value) -> String {
    let mut m = of_events((140, 40), &[event]);
    run(&mut m, Command::FocusDetail);
    detail_rows_joined(&m)
}

/// The detail pane as drawn, its rows (past their borders) joined into one text.
fn detail_rows_joined(m: &Model) -> String {
    let t = draw_detail(m);
    let buffer = t.backend().buffer();
    let rows: Vec<String> = (0..buffer.area.height)
        .map(|y| {
            row_text(buffer, y)
                .trim_start_matches(['┌', '│'])
                .trim()
                .to_string()
        })
        .collect();
    rows.join(" ")
}

#[test]
fn the_detail_pane_reads_the_code_in_the_table_of_the_events_platform() {
    let event = |sdk: &str, code: i64, name: &str| {
        json!({"id": "e1", "type": "client.subscribe.failed", "timestamp": "2026-11-18T10:00:00Z",
            "data": {"error_code": code, "error_name": name, "error_message": "[SUBSCRIBE]: lost",
                "is_terminal": false, "agent": {"sdk": sdk, "os": "Android"}}})
    };
    // Web's 4006 is an ICE disconnect, read in the web table.
    let web = detail_text_of(event("web", 4006, "ICEDisconnected"));
    assert!(
        web.contains("means: The media connection dropped and was not connected again within 5 s."),
        "{web}"
    );
    assert!(web.contains("read in: the web SDK's table"), "{web}");
    // Whether the SDK retries the code is the table's word on the code, labelled so: it is not
    // read as this event's retry status.
    let role = detail_text_of(event("web", 6008, "InvalidRole"));
    assert!(
        role.contains("the SDK retries this code: No. Flagged terminal."),
        "{role}"
    );
    assert!(!role.contains(" retried: "), "{role}");
    // Android defines no 4006: web's meaning is not borrowed, and the event's words are quoted.
    let android = detail_text_of(event("android", 4006, "ICEDisconnected"));
    assert!(
        android.contains(
            "means: unknown code: the event says error_name \"ICEDisconnected\", error_message \"[SUBSCRIBE]: lost\""
        ),
        "{android}"
    );
    assert!(
        android.contains("table: not in the Android table;"),
        "{android}"
    );
    assert!(!android.contains("within 5 s"), "{android}");
    // A code Android lacks but that means the same everywhere comes from the general table.
    let fallback = detail_text_of(event("android", 3009, "OverConstrained"));
    assert!(
        fallback
            .contains("read in: the general table: this code is not in the Android SDK's table"),
        "{fallback}"
    );
    // The table's name stands beside the event's when they differ.
    let renamed = detail_text_of(event("web", 1006, "AbnormalClose"));
    assert!(
        renamed.contains("name: AbnormalClose (web table: WebSocketAbnormalClose)"),
        "{renamed}"
    );
    // A code the SDK declares but did not raise is said to be so.
    let not_raised = detail_text_of(event("web", 3004, "DeviceLostMidway"));
    assert!(
        not_raised.contains("defined by the SDK but not raised in the version read"),
        "{not_raised}"
    );
}

#[test]
fn an_event_of_another_family_is_shown_field_by_field() {
    let filter = Filter {
        types: vec![EventType::Other("track.add.success".into())],
        ..Filter::default()
    };
    let mut m = demo(filter, (140, 40));
    assert!(!m.events.shown.is_empty(), "the demo holds track events");
    run(&mut m, Command::FocusDetail);
    let t = draw_detail(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("Fields (a type outside the five client errors)"),
        "{text}"
    );
    assert!(text.contains("data.track_id:"), "{text}");
    assert!(!text.contains("Who and where"), "{text}");
    insta::assert_snapshot!("detail_other_family", t.backend());
}

#[test]
fn the_end_of_the_detail_pane_shows_the_last_line_at_the_bottom_of_the_pane() {
    // On a short terminal with the timeline open, the strip takes lines from the pane too.
    for (size, timeline) in [((140, 40), false), ((80, 24), false), ((80, 19), true)] {
        let mut m = demo(Filter::default(), size);
        if timeline {
            run(&mut m, Command::ToggleTimeline);
            run(&mut m, Command::Cancel);
        }
        run(&mut m, Command::Down);
        run(&mut m, Command::FocusDetail);
        run(&mut m, Command::Bottom);
        let t = draw(&m);
        let buffer = t.backend().buffer();
        let pane = callscope::tui::view::layout::areas_of(&m).detail;
        let last = pane.bottom() - 1;
        let x = pane.x + 1;
        let row: String = row_cells(buffer, last)[x as usize..pane.right() as usize].concat();
        assert_eq!(row.trim_end(), "}", "{size:?}:\n{}", screen_text(buffer));
        let above: String = row_cells(buffer, last - 1)[x as usize..pane.right() as usize].concat();
        assert_eq!(above.trim_end(), "  }", "{size:?}");
    }
}

#[test]
fn the_json_tree_shows_the_event_field_by_field_with_the_selected_path_in_its_title() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ShowJson);
    for _ in 0..6 {
        run(&mut m, Command::Down);
    }
    let t = draw(&m);
    insta::assert_snapshot!("json_tree_140x40", t.backend());
    let text = screen_text(t.backend().buffer());
    assert!(text.contains(" .data.user_id · y value, Y path"), "{text}");
}

#[test]
fn fields_of_another_type_than_the_apis_are_shown_as_sent_and_said_to_be_unread() {
    // A time as a number, a code as a string and a retry status as a string: each is shown as
    // sent and said not to be read, where "(none)" and "not reported" would deny they were sent.
    let text = detail_text_of(json!({"id": "e1", "type": "client.join.failed",
        "timestamp": 1763460000,
        "data": {"error_code": "5000", "error_name": "ServerErrors", "is_terminal": "true"}}));
    for said in [
        "retry status unreadable: is_terminal is \"true\" (a string, not true or false): not read",
        "time: 1763460000 (a number, not an RFC 3339 time): not read",
        "code: \"5000\" (a string, not an integer): not read",
    ] {
        assert!(text.contains(said), "{said:?} in {text}");
    }
    assert!(!text.contains("not reported"), "{text}");
    // A string that is not a time, and a code written with a fraction of zero, which is read.
    let text = detail_text_of(json!({"id": "e1", "type": "client.join.failed",
        "timestamp": "yesterday",
        "data": {"error_code": 5000.0, "error_name": "ServerErrors", "is_terminal": null}}));
    assert!(
        text.contains("time: \"yesterday\" (a string, not an RFC 3339 time): not read"),
        "{text}"
    );
    assert!(text.contains("code: 5000.0 "), "{text}");
    assert!(
        text.contains("retry status not reported (no is_terminal)"),
        "{text}"
    );
}

/// The lines of the detail pane that show on the screen, from its first.
fn pane_lines(m: &Model) -> Vec<String> {
    let t = draw(m);
    let buffer = t.backend().buffer();
    let pane = callscope::tui::view::layout::areas_of(m).detail;
    (pane.y + 1..pane.bottom())
        .map(|y| row_cells(buffer, y)[pane.x as usize + 1..pane.right() as usize].concat())
        .collect()
}

#[test]
fn with_the_detail_pane_alone_the_page_keys_move_a_screen() {
    let key = |code, modifiers| TermEvent::Key(KeyEvent::new(code, modifiers));
    let pages = [
        (key(KeyCode::PageDown, KeyModifiers::NONE), true),
        (key(KeyCode::Char(' '), KeyModifiers::NONE), true),
        (key(KeyCode::Char('f'), KeyModifiers::CONTROL), true),
        (key(KeyCode::PageUp, KeyModifiers::NONE), false),
        (key(KeyCode::Char('b'), KeyModifiers::CONTROL), false),
    ];
    for size in [(80, 24), (140, 40)] {
        let mut m = demo(Filter::default(), size);
        run(&mut m, Command::ZoomDetail);
        // Every line of the pane, read a line down at a time.
        let mut whole = pane_lines(&m);
        let shown = whole.len();
        loop {
            let before = pane_lines(&m);
            run(&mut m, Command::Down);
            let after = pane_lines(&m);
            if after == before {
                break;
            }
            whole.push(after.last().unwrap().clone());
        }
        assert!(whole.len() > shown + 1, "{size:?}: {} lines", whole.len());
        run(&mut m, Command::Top);
        let last_top = whole.len() - shown;
        let mut top = 0;
        for (press, down) in &pages {
            let action = callscope::tui::runtime::translate(&m, press.clone()).expect("bound");
            update(&mut m, action);
            top = if *down {
                (top + shown).min(last_top)
            } else {
                top.saturating_sub(shown)
            };
            assert_eq!(
                pane_lines(&m),
                whole[top..top + shown],
                "{size:?} after {press:?}"
            );
        }
    }
}
