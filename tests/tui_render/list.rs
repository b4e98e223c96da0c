//! The list and the layout of the panes: first screens, narrow and tiny terminals, columns,
//! days and zones, finds.

use super::*;

#[test]
fn the_demo_opens_on_its_first_events_with_the_first_one_detailed() {
    let m = demo(Filter::default(), (140, 40));
    insta::assert_snapshot!("demo_first_screen_140x40", draw(&m).backend());
}

#[test]
fn a_narrow_terminal_puts_the_detail_pane_under_the_list() {
    let m = demo(Filter::default(), (80, 24));
    insta::assert_snapshot!("demo_first_screen_80x24", draw(&m).backend());
}

#[test]
fn the_list_says_it_is_loading_before_the_first_events_arrive() {
    let m = Model::new(SourceLabel::Demo, Filter::default(), 80, 24);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("0 shown / 0 loaded │ loading…"), "{text}");
    assert!(text.contains(" loading…"), "{text}");
}

#[test]
fn tiny_terminals_draw_every_mode_without_failing() {
    for size in [(1, 1), (10, 3), (20, 6), (40, 10), (109, 12), (110, 12)] {
        let mut m = demo(Filter::default(), size);
        draw(&m);
        for c in [
            Command::PageDown,
            Command::FocusDetail,
            Command::Bottom,
            Command::Up,
            Command::ToggleHelp,
            Command::Down,
            Command::ToggleHelp,
            Command::EditSearch,
        ] {
            run(&mut m, c);
            draw(&m);
        }
        let key = KeyEvent::new(KeyCode::Char('王'), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
        draw(&m);
        // The other views and prompts, each opened from the list.
        for opens in [
            &[Command::Find][..],
            &[Command::OpenCommandLine, Command::NextField],
            &[Command::ShowJson, Command::Down],
            &[Command::ZoomList],
            &[Command::ZoomDetail, Command::Down],
            &[Command::ToggleFacets, Command::Down],
            &[Command::ShowGroups, Command::ToggleFacets],
        ] {
            run(&mut m, Command::Cancel);
            m.focus = callscope::tui::panels::Focus::List;
            m.panes.zoom = Default::default();
            for &c in opens {
                run(&mut m, c);
                draw(&m);
            }
            update(&mut m, Action::Input(TermEvent::Key(key)));
            draw(&m);
        }
    }
}

#[test]
fn with_a_room_filter_the_list_shows_the_sdk_in_the_rooms_place() {
    let list_header = |m: &Model| left_of_pane(m, "TIME");
    let all = demo(Filter::default(), (140, 40));
    let header = list_header(&all);
    assert!(
        header.contains("ROOM") && !header.contains("SDK"),
        "{header}"
    );
    let room = Filter {
        ..Filter::default()
    }
    .with(Field::Room, STORM_ROOM_ID);
    let one_room = demo(room, (140, 40));
    let header = list_header(&one_room);
    assert!(
        !header.contains("ROOM") && header.contains("SDK"),
        "{header}"
    );
    let text = screen_text(draw(&one_room).backend().buffer());
    assert!(text.contains("web 0.1"), "the rows hold the SDK:\n{text}");
}

#[test]
fn a_wide_list_shows_names_whole_and_a_cut_one_ends_in_an_ellipsis() {
    let wide = screen_text(draw(&demo(Filter::default(), (260, 30))).backend().buffer());
    for whole in [
        "interview-panel-backend",
        "08:01:01.574 connect    2003 EndpointUnreachable        retried 69d3a65cda4e373bd35cd4e2 ",
    ] {
        assert!(wide.contains(whole), "{whole}:\n{wide}");
    }
    // On a 140-column screen the room is cut, and says so.
    let narrow = screen_text(draw(&demo(Filter::default(), (140, 40))).backend().buffer());
    assert!(!narrow.contains("interview-panel-backend"), "{narrow}");
    assert!(narrow.contains("interview-pan… "), "{narrow}");
}

#[test]
fn events_of_several_days_show_their_day_in_the_time_column() {
    let m = of_events(
        (140, 20),
        &[
            join_at("a", "2026-11-18T00:01:00Z"),
            join_at("b", "2026-11-20T00:01:00Z"),
        ],
    );
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("11-18 00:01:00 "), "{text}");
    assert!(text.contains("11-20 00:01:00 "), "{text}");
}

/// Where `text` is drawn on row `y`, if it is: its cells.
fn cells_of(buffer: &Buffer, y: u16, text: &str) -> Option<Vec<ratatui::buffer::Cell>> {
    let x = column_of(buffer, y, text)?;
    Some(
        (x..x + text.chars().count() as u16)
            .map(|x| buffer[(x, y)].clone())
            .collect(),
    )
}

#[test]
fn a_find_highlights_its_text_in_the_list_and_the_detail_pane() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::Find);
    for c in "4006".chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    let t = draw(&m);
    insta::assert_snapshot!("find_4006_typed_140x40", t.backend());
    run(&mut m, Command::Apply);
    let t = draw(&m);
    insta::assert_snapshot!("find_4006_140x40", t.backend());
    let buffer = t.backend().buffer();
    let hit = Theme::default().find_hit();
    let first = list_header_row(buffer) + 1;
    // Every row of code 4006 has its code drawn as a hit; the others do not.
    let mut rows = 0;
    for y in first..40 {
        let code_cells = cells_of(buffer, y, " 4006 ");
        if let Some(cells) = code_cells {
            rows += 1;
            for c in &cells[1..5] {
                assert_eq!(c.bg, hit.bg.unwrap(), "row {y}: {}", row_text(buffer, y));
            }
        }
    }
    assert!(rows >= 2, "{}", screen_text(buffer));
    // The detail pane shows the selected event (of code 4006) with its code marked.
    let y = (0..40)
        .find(|&y| row_text(buffer, y).contains("code: 4006"))
        .expect("the code in the detail pane");
    let cells = cells_of(buffer, y, "4006").unwrap();
    assert!(cells.iter().all(|c| c.bg == hit.bg.unwrap()));
    let label = cells_of(buffer, y, "code:").unwrap();
    assert!(label.iter().all(|c| c.bg != hit.bg.unwrap()));
}

#[test]
fn the_list_alone_and_the_detail_pane_alone_fill_the_body() {
    let mut m = demo(Filter::default(), (80, 24));
    run(&mut m, Command::ZoomList);
    let t = draw(&m);
    insta::assert_snapshot!("zoom_list_80x24", t.backend());
    let rows = screen_text(t.backend().buffer())
        .lines()
        .filter(|l| l.starts_with("08:"))
        .count();
    assert_eq!(
        rows,
        24 - 4 - 1 - 2,
        "every line of the body holds an event"
    );
    run(&mut m, Command::ZoomList);
    run(&mut m, Command::ZoomDetail);
    let t = draw(&m);
    insta::assert_snapshot!("zoom_detail_80x24", t.backend());
    let text = screen_text(t.backend().buffer());
    assert!(!text.contains("TIME (UTC)"), "{text}");
    assert!(
        text.contains("RETRIED: not the final error"),
        "the first event's detail, whole: {text}"
    );
}

#[test]
fn at_120_columns_the_list_keeps_its_user_and_names_the_columns_it_has_no_room_for() {
    let m = demo(Filter::default(), (120, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    assert!(
        row_text(buffer, header).contains("USER"),
        "{}",
        screen_text(buffer)
    );
    let title = row_text(buffer, header - 1);
    assert!(
        title.contains("no room for SDK, OS (z: list alone)"),
        "{title}"
    );
    // The list alone has room for every column.
    let mut m = m;
    run(&mut m, Command::ZoomList);
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    assert!(
        row_text(buffer, header).contains(" OS"),
        "{}",
        screen_text(buffer)
    );
    assert!(!row_text(buffer, header - 1).contains("no room"));
}

#[test]
fn local_time_shows_in_the_list_the_groups_and_the_detail_pane_and_the_header_names_the_zone() {
    let mut m = demo(Filter::default(), (140, 40));
    m.config.local_zone = callscope::time::Zone::Fixed(5 * 3600 + 30 * 60);
    run(&mut m, Command::ToggleLocalTime);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("times local, UTC+05:30"), "{text}");
    assert!(text.contains("TIME (local)"), "{text}");
    // The demo's first event is at 08:01:01.574 UTC.
    assert!(text.contains("13:31:01.574 connect"), "{text}");
    assert!(
        text.contains("time: 2026-11-18T08:01:01.574874825Z"),
        "{text}"
    );
    assert!(
        text.contains("local: 2026-11-18T13:31:01.574874825 (UTC+05:30)"),
        "{text}"
    );
    run(&mut m, Command::ToggleLocalTime);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("times UTC") && text.contains("08:01:01.574 connect"),
        "{text}"
    );
}

#[test]
fn an_empty_list_says_when_a_room_was_given_by_its_name_or_a_range_misses_every_event() {
    let filter = Filter::default().with(callscope::event::Field::Room, "weekly-allhands");
    let m = demo(filter, (140, 40));
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("the room named weekly-allhands has the id")
            && text.contains("673a1f2c9e4b8d0a5c7e3f21: :room weekly-allhands filters by it"),
        "{text}"
    );
    // Told again when the filter changes, not kept from the last empty list.
    let mut m = m;
    run(&mut m, Command::ClearFilters);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        !text.contains("the room named") && !text.contains("no event matches"),
        "{text}"
    );
    run(&mut m, Command::OpenCommandLine);
    for c in "since 2030-01-01T00:00:00Z".chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    run(&mut m, Command::Apply);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("events read span 2026-11-18T08:01:01"),
        "{text}"
    );
}

#[test]
fn sorting_by_room_keeps_each_rooms_events_together() {
    let mut m = demo(Filter::default(), (120, 30));
    for c in ":sort room".chars() {
        let key = TermEvent::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        let action = callscope::tui::runtime::translate(&m, key).expect("bound");
        update(&mut m, action);
    }
    let enter = TermEvent::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let action = callscope::tui::runtime::translate(&m, enter).expect("bound");
    update(&mut m, action);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("sorted by room"), "{text}");
    // The storm's room holds connect failures, which name no room: they stay with its other
    // events, in one run.
    let store = &m.events.store;
    let rooms: Vec<String> = m
        .events
        .shown
        .iter()
        .map(|&i| {
            let event = store.event(i as usize);
            event.data_str("room_id").unwrap_or_default().to_string()
        })
        .collect();
    let mut runs: Vec<&str> = Vec::new();
    for room in &rooms {
        if runs.last() != Some(&room.as_str()) {
            assert!(
                !runs.contains(&room.as_str()),
                "{room} in two runs: {runs:?}"
            );
            runs.push(room);
        }
    }
    assert!(runs.contains(&STORM_ROOM_ID), "{runs:?}");
}
