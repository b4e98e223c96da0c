//! The inputs: the filter editor, the command line and its completions, the room prompt, wide
//! text and the cursor.

use super::*;

/// Where the filter editor's input of `label` starts: its row, and the column after the label.
fn editor_input(buffer: &Buffer, label: &str) -> (u16, u16) {
    let wanted = format!("{label} ");
    (0..buffer.area.height)
        .find_map(|y| {
            let x = column_of(buffer, y, &wanted)?;
            // A label is right-aligned in twelve columns after the box's border.
            (x + label.len() as u16 == 13).then_some((y, x + wanted.len() as u16))
        })
        .unwrap_or_else(|| panic!("no input {label:?}:\n{}", screen_text(buffer)))
}

#[test]
fn the_filter_editor_shows_the_typed_text_with_the_cursor_after_it() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::EditFilters);
    for c in "weekly".chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    run(&mut m, Command::NextField);
    run(&mut m, Command::PrevField);
    let mut t = draw(&m);
    insta::assert_snapshot!("filter_editor_140x40", t.backend());
    let buffer = t.backend().buffer().clone();
    let (y, x) = editor_input(&buffer, "room");
    assert!(row_text(&buffer, y)[..].contains("room weekly"));
    let cursor = t.get_cursor_position().unwrap();
    assert_eq!(cursor, Position::new(x + "weekly".len() as u16, y));
    let focused = &buffer[(x, y)];
    assert!(
        focused.modifier.contains(Modifier::UNDERLINED),
        "{focused:?}"
    );
    // Every filter has its input.
    for label in [
        "session",
        "peer",
        "user",
        "type",
        "code",
        "error",
        "status",
        "sdk",
        "sdk_version",
        "os",
        "os_version",
        "device",
        "env",
        "role",
        "domain",
        "action",
        "room_name",
        "user_name",
        "since",
        "until",
        "search",
    ] {
        editor_input(&buffer, label);
    }
}

#[test]
fn a_filter_that_matches_nothing_says_so_and_how_to_clear_it() {
    let filter = Filter {
        search: Some("no event says this".into()),
        ..Filter::default()
    };
    let m = demo(filter, (80, 24));
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("no event matches the filters (x clears them, u takes the last change back)"),
        "{text}"
    );
    insta::assert_snapshot!("no_event_matches_80x24", t.backend());
}

#[test]
fn wide_characters_in_an_input_keep_the_cursor_after_them() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::EditFilters);
    let empty = draw(&m);
    let (y, x) = editor_input(empty.backend().buffer(), "room");
    for c in "王伟".chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    let mut typed = draw(&m);
    assert_eq!(
        editor_input(typed.backend().buffer(), "session"),
        editor_input(empty.backend().buffer(), "session")
    );
    assert_eq!(
        typed.get_cursor_position().unwrap(),
        Position::new(x + 4, y),
        "the cursor follows the two wide characters"
    );
}

#[test]
fn a_long_wide_text_scrolls_in_its_input_with_the_cursor_at_its_end() {
    let mut m = demo(Filter::default(), (100, 40));
    run(&mut m, Command::EditFilters);
    // Sixty wide characters: 120 columns, more than the input's width.
    let text = "王伟".repeat(30);
    for c in text.chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    let mut t = draw(&m);
    let (y, x) = editor_input(t.backend().buffer(), "room");
    let row = row_text(t.backend().buffer(), y);
    let cursor = t.get_cursor_position().unwrap();
    assert_eq!(cursor.y, y);
    assert!(cursor.x > x && cursor.x < 99, "{cursor:?} in {row}");
    // The end of the text is what shows, after a `…` that says its start is cut.
    let shown: String = row_cells(t.backend().buffer(), y)[x as usize..cursor.x as usize]
        .concat()
        .replace(' ', "");
    let end = shown
        .strip_prefix('…')
        .unwrap_or_else(|| panic!("{shown:?} in {row}"));
    assert!(!end.is_empty() && text.ends_with(end), "{shown:?} in {row}");
}

#[test]
fn the_command_line_shows_its_completions_above_it() {
    let mut m = demo(Filter::default(), (100, 30));
    run(&mut m, Command::OpenCommandLine);
    for c in "room ".chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    run(&mut m, Command::NextField);
    let mut t = draw(&m);
    insta::assert_snapshot!("command_line_completing_100x30", t.backend());
    let buffer = t.backend().buffer();
    let line = row_text(buffer, 29);
    // The most common room first; the others on the line above.
    assert!(line.starts_with(":room "), "{line}");
    let first = line[6..].split_whitespace().next().unwrap();
    assert!(
        row_text(buffer, 28).starts_with(&format!(" {first}  ")),
        "{}",
        row_text(buffer, 28)
    );
    let cursor = t.get_cursor_position().unwrap();
    assert_eq!(cursor.y, 29);
    assert_eq!(
        cursor.x as usize,
        1 + line[1..]
            .trim_end()
            .split("   ")
            .next()
            .unwrap()
            .chars()
            .count()
    );
}

/// A live explorer with no room: the room prompt, as it opens.
fn live_without_a_room(size: (u16, u16)) -> Model {
    let url = "https://api.100ms.live";
    let mut m = Model::new(
        SourceLabel::Live { url: url.into() },
        Filter::default(),
        size.0,
        size.1,
    );
    let mut live = callscope::tui::model::Live::new(url.into());
    live.rooms_used = vec![callscope::tui::rooms_used::UsedRoom {
        id: "6733c0ffee0000000000beef".into(),
        name: Some("support-escalations".into()),
        base_url: url.into(),
        used_at: 1_763_400_000,
    }];
    m.session.live = Some(live);
    m.session.load = callscope::tui::model::LoadState::Idle;
    let mut effects = callscope::tui::update::new_query(&mut m);
    effects.extend(callscope::tui::update::live::ask_room(&mut m));
    assert_eq!(effects, [callscope::tui::update::Effect::RecentRooms]);
    m
}

#[test]
fn the_room_prompt_offers_the_rooms_of_recent_sessions_and_those_used_before() {
    let mut m = live_without_a_room((120, 24));
    let at = |t: &str| callscope::time::parse_rfc3339_nanos(t);
    let recent =
        |id: &str, name: Option<&str>, started: &str, ended: Option<&str>, peers, sessions| {
            callscope::source::recent::RecentRoom {
                id: id.into(),
                name: name.map(str::to_string),
                started: at(started),
                ended: ended.and_then(at),
                active: ended.is_none(),
                peers,
                sessions,
            }
        };
    update(
        &mut m,
        Action::RecentRooms(Ok(vec![
            recent(
                "673a1f2c9e4b8d0a5c7e3f21",
                Some("weekly-allhands"),
                "2026-11-18T10:02:00Z",
                None,
                14,
                1,
            ),
            recent(
                "65af97002889d74ef8d1e18f",
                None,
                "2026-11-18T08:00:00Z",
                Some("2026-11-18T08:41:10Z"),
                1,
                3,
            ),
        ])),
    );
    run(&mut m, Command::Down);
    insta::assert_snapshot!("room_prompt", draw(&m).backend());
    // In local time (`L` pressed before), the rooms' times are local, and say so.
    m.panes.zone = callscope::time::Zone::Fixed(5 * 3600 + 30 * 60);
    let text = screen_text(draw(&m).backend().buffer());
    for local in [
        "2026-11-18 15:32 UTC+05:30, running now",
        "2026-11-18 13:30–14:11 UTC+05:30",
        "last loaded 2025-11-17 22:50 UTC+05:30",
    ] {
        assert!(text.contains(local), "{local:?} missing:\n{text}");
    }
    // While the sessions are asked for, and when they cannot be.
    let m = live_without_a_room((120, 24));
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("asking the sessions endpoint…"), "{text}");
    assert!(text.contains("no room chosen"), "{text}");
    // Closed, the empty list says why it is empty and how to choose.
    let mut closed = live_without_a_room((120, 24));
    run(&mut closed, Command::Cancel);
    let text = screen_text(draw(&closed).backend().buffer());
    assert!(
        text.contains("no events loaded: no room chosen (the live API answers one room at"),
        "{text}"
    );
    let mut m = live_without_a_room((120, 24));
    update(
        &mut m,
        Action::RecentRooms(Err(
            "cannot list the recent sessions: HTTP 403: Forbidden".into()
        )),
    );
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("cannot list the recent sessions: HTTP 403"),
        "{text}"
    );
    assert!(text.contains("support-escalations"), "{text}");
    // A name two rooms have: both offered, first, with what tells them apart.
    for c in "allhands".chars() {
        update(
            &mut m,
            Action::Input(TermEvent::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            ))),
        );
    }
    run(&mut m, Command::Apply);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("looking up the room named \"allhands\"…"),
        "{text}"
    );
    let room = |id: &str, created: &str| {
        callscope::related::Room::parse(&format!(
            r#"{{"id":"{id}","name":"allhands","enabled":true,"created_at":"{created}"}}"#
        ))
        .unwrap()
    };
    update(
        &mut m,
        Action::RoomLookedUp {
            name: "allhands".into(),
            result: Ok(callscope::source::api::rooms::Named::Several(vec![
                room("65af97002889d74ef8d1e18f", "2025-01-05T10:00:00Z"),
                room("65af97002889d74ef8d1e190", "2026-03-01T10:00:00Z"),
            ])),
        },
    );
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("2 rooms are named \"allhands\": choose the one you mean"),
        "{text}"
    );
    let found = text
        .split("Rooms found")
        .nth(1)
        .expect("the rooms found are listed");
    assert!(
        found.contains("▶ allhands")
            && found.contains("created 2025-01-05")
            && found.contains("65af97002889d74ef8d1e190"),
        "{text}"
    );
}

/// On a terminal too short for every input, the box scrolls to the focused one: what is typed
/// there shows, with the cursor after it.
#[test]
fn the_filter_editor_on_a_short_terminal_shows_the_input_being_typed_into() {
    for (width, height) in [(60, 20), (100, 20), (80, 12)] {
        let mut m = demo(Filter::default(), (width, height));
        run(&mut m, Command::EditFilters);
        // The last input: the search.
        run(&mut m, Command::PrevField);
        for c in "hello".chars() {
            let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
            update(&mut m, Action::Input(TermEvent::Key(key)));
        }
        let mut t = draw(&m);
        let buffer = t.backend().buffer().clone();
        let (y, x) = editor_input(&buffer, "search");
        assert!(
            row_text(&buffer, y).contains("search hello"),
            "{width}x{height}"
        );
        let cursor = t.get_cursor_position().unwrap();
        assert_eq!(cursor, Position::new(x + 5, y), "{width}x{height}");
    }
}

/// The demo with filters of every kind the box did not show once: a role and an error from `:`,
/// final errors only, and a group hidden whole from the groups view.
fn demo_with_every_kind_of_filter(size: (u16, u16)) -> Model {
    let mut m = demo(Filter::default(), size);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::HideValue);
    run(&mut m, Command::Cancel);
    for line in ["role viewer-realtime", "os_version 17.1"] {
        run(&mut m, Command::OpenCommandLine);
        update(&mut m, Action::Input(TermEvent::Paste(line.into())));
        run(&mut m, Command::Apply);
    }
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.events.filter.hidden.len(), 1);
    m
}

#[test]
fn the_filter_editor_shows_every_filter_in_force_and_a_hidden_group_last() {
    let mut m = demo_with_every_kind_of_filter((140, 40));
    run(&mut m, Command::EditFilters);
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let text = screen_text(buffer);
    for (label, value) in [
        ("role", "viewer-realtime"),
        ("os_version", "17.1"),
        ("status", "final"),
        ("hidden", "type=client.join.failed, code=500"),
    ] {
        let (y, _) = editor_input(buffer, label);
        assert!(
            row_text(buffer, y).contains(&format!("{label} {value}")),
            "{label}:\n{text}"
        );
    }
    assert!(text.contains("emptied, they show again"), "{text}");
    insta::assert_snapshot!("filter_editor_every_kind_140x40", t.backend());
}

/// At 60x20 the box scrolls to the hidden group's input, says what is above, and cuts no line
/// without `…`.
#[test]
fn the_filter_editor_at_60_by_20_reaches_the_hidden_group_and_says_what_is_above() {
    let mut m = demo_with_every_kind_of_filter((60, 20));
    run(&mut m, Command::EditFilters);
    run(&mut m, Command::PrevField);
    let mut t = draw(&m);
    let buffer = t.backend().buffer().clone();
    let (y, x) = editor_input(&buffer, "hidden");
    let cursor = t.get_cursor_position().unwrap();
    assert_eq!(cursor.y, y);
    assert!(cursor.x > x, "the cursor at the end of the text");
    let text = screen_text(&buffer);
    assert!(text.contains("↑ ") && text.contains(" more"), "{text}");
    insta::assert_snapshot!("filter_editor_hidden_60x20", t.backend());
}

#[test]
fn the_filter_editor_covers_no_pane_in_part_at_any_size() {
    use callscope::tui::view::layout::{HEADER_HEIGHT, areas_of};
    let shapes: [&[Command]; 4] = [
        &[],
        &[Command::ToggleTimeline, Command::Cancel],
        &[Command::ZoomList],
        &[Command::ZoomDetail],
    ];
    for shape in shapes {
        for (width, height) in [
            (60, 20),
            (80, 24),
            (109, 30),
            (110, 30),
            (120, 35),
            (200, 50),
        ] {
            let mut m = demo(Filter::default(), (width, height));
            for &c in shape {
                run(&mut m, c);
            }
            run(&mut m, Command::EditFilters);
            let t = draw(&m);
            let buffer = t.backend().buffer();
            let screen = screen_text(buffer);
            let top = row_cells(buffer, HEADER_HEIGHT);
            assert!(
                row_text(buffer, HEADER_HEIGHT).starts_with("┌ filters"),
                "{shape:?} at {width}x{height}:\n{screen}"
            );
            let right = top.iter().position(|c| *c == "┐").unwrap() as u16 + 1;
            let bottom = (HEADER_HEIGHT..height)
                .find(|&y| row_cells(buffer, y)[0] == "└")
                .unwrap_or_else(|| panic!("{shape:?} at {width}x{height}:\n{screen}"));
            let a = areas_of(&m);
            for pane in [a.timeline, a.list, a.detail] {
                let covered_rows = pane.y <= bottom && pane.bottom() > HEADER_HEIGHT;
                if pane.is_empty() || !covered_rows || pane.x >= right {
                    continue;
                }
                assert!(
                    pane.right() <= right,
                    "{shape:?} at {width}x{height}: the box ends at {right}, in {pane:?}:\n{screen}"
                );
            }
        }
    }
}

#[test]
fn the_find_prompt_opened_again_counts_nothing_before_a_text_is_typed() {
    let mut m = demo(Filter::default(), (120, 30));
    let press = |m: &mut Model, code| {
        let key = TermEvent::Key(KeyEvent::new(code, KeyModifiers::NONE));
        let action = callscope::tui::runtime::translate(m, key).expect("bound");
        update(m, action);
    };
    let bottom = |m: &Model| {
        let t = draw(m);
        row_text(t.backend().buffer(), t.backend().buffer().area.height - 1)
    };
    for code in [KeyCode::Char('/'), KeyCode::Char('w'), KeyCode::Char('e')] {
        press(&mut m, code);
    }
    press(&mut m, KeyCode::Char('b'));
    assert!(bottom(&m).contains("shown"), "{}", bottom(&m));
    press(&mut m, KeyCode::Enter);
    press(&mut m, KeyCode::Char('/'));
    let line = bottom(&m);
    assert!(line.starts_with("/ "), "{line}");
    assert!(!line.contains("shown"), "{line}");
    // Typed, the count is the new text's.
    press(&mut m, KeyCode::Char('x'));
    assert!(bottom(&m).contains("shown"), "{}", bottom(&m));
}
