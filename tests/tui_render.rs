//! The explorer's screens, drawn on a test terminal of fixed size: snapshots of what a person sees,
//! and the styled buffer where colour carries meaning.

use callscope::event::{EventType, Field};
use callscope::filter::{Filter, TimeBound};
use callscope::source::DumpProblem;
use callscope::store::Batch;
use callscope::tui::action::{Action, Command};
use callscope::tui::keymap::{BINDINGS, Keymap, Mode};
use callscope::tui::model::{Model, SourceLabel};
use callscope::tui::panels::detail;
use callscope::tui::update::update;
use callscope::tui::view::theme::Theme;
use callscope::tui::view::view;
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Position;
use ratatui::style::{Color, Modifier};
use serde_json::{Value, json};

/// The room of the demo's join storm.
const STORM_ROOM_ID: &str = "673a1f2c9e4b8d0a5c7e3f21";

/// A batch of these events, one per line of one buffer.
fn batch(events: &[Value]) -> Batch {
    Batch::of_objects(events.iter().map(|e| e.to_string())).expect("a test event is a JSON object")
}

fn loaded(source: SourceLabel, filter: Filter, size: (u16, u16), batches: Vec<Batch>) -> Model {
    let mut m = Model::new(source, filter, size.0, size.1);
    for b in batches {
        update(&mut m, Action::BatchLoaded(b));
    }
    update(
        &mut m,
        Action::LoadFinished {
            problems: Vec::new(),
        },
    );
    m
}

/// A join failure in room `r` at time `ts`.
fn join_at(id: &str, ts: &str) -> Value {
    json!({"id": id, "type": "client.join.failed", "timestamp": ts, "data": {"room_id": "r", "error_code": 500, "error_name": "ServerErrors"}})
}

/// The explorer on these events alone, at this size.
fn of_events(size: (u16, u16), events: &[Value]) -> Model {
    loaded(
        SourceLabel::Demo,
        Filter::default(),
        size,
        vec![batch(events)],
    )
}

/// The demo as the explorer loads it: its events, then the related data beside them (rooms,
/// sessions, quality stats).
fn demo(filter: Filter, size: (u16, u16)) -> Model {
    let mut m = loaded(
        SourceLabel::Demo,
        filter,
        size,
        vec![callscope::source::demo::load()],
    );
    let objects = callscope::source::demo::related().into_objects().collect();
    update(&mut m, Action::RelatedLoaded { objects, now: 0 });
    m
}

fn run(m: &mut Model, c: Command) {
    update(m, Action::Command(c));
}

fn draw(m: &Model) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(m.screen.width, m.screen.height)).unwrap();
    t.draw(|f| view(m, f)).unwrap();
    t
}

/// The detail pane alone, as wide as the pane is in the model's layout and exactly as tall as
/// its content.
fn draw_detail(m: &Model) -> Terminal<TestBackend> {
    let width = callscope::tui::view::layout::areas(m.screen.width, m.screen.height)
        .detail
        .width;
    let render = |height| {
        let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
        t.draw(|f| detail::draw(m, f, f.area())).unwrap();
        t
    };
    let tall = render(400);
    let buffer = tall.backend().buffer();
    let used = (0..buffer.area.height)
        .rev()
        .find(|&y| row_text(buffer, y).trim_start_matches('│').trim() != "")
        .expect("the pane draws its border");
    assert!(
        used + 1 < buffer.area.height,
        "the detail pane is longer than 400 rows"
    );
    render(used + 1)
}

/// The text of row `y`, one entry per cell (the cell after a wide character holds a hidden space).
fn row_cells(buffer: &Buffer, y: u16) -> Vec<&str> {
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

fn row_text(buffer: &Buffer, y: u16) -> String {
    row_cells(buffer, y).concat()
}

fn screen_text(buffer: &Buffer) -> String {
    (0..buffer.area.height)
        .map(|y| row_text(buffer, y))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The column where `needle` starts in row `y`.
fn column_of(buffer: &Buffer, y: u16, needle: &str) -> Option<u16> {
    let cells = row_cells(buffer, y);
    (0..cells.len())
        .find(|&x| cells[x..].concat().starts_with(needle))
        .map(|x| x as u16)
}

/// The row holding the list's column titles.
fn list_header_row(buffer: &Buffer) -> u16 {
    (0..buffer.area.height)
        .find(|&y| row_text(buffer, y).contains("TIME (UTC)   TYPE"))
        .expect("the list shows its column titles")
}

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

/// The detail pane of the only event of an explorer, its wrapped rows joined into one text.
fn detail_text_of(event: Value) -> String {
    let mut m = of_events((140, 40), &[event]);
    run(&mut m, Command::FocusDetail);
    let t = draw_detail(&m);
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
    assert!(web.contains("table: web table"), "{web}");
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
        fallback.contains("table: Android table; general table for this code"),
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
fn the_help_lists_every_binding_of_the_key_table() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleHelp);
    let t = draw(&m);
    insta::assert_snapshot!("help_140x40", t.backend());
    // The overlay may need scrolling: gather every line it shows on the way down.
    let mut seen = overlay_text(t.backend().buffer());
    for _ in 0..BINDINGS.len() + callscope::tui::panels::command::COMMANDS.len() {
        run(&mut m, Command::Down);
        seen.push(' ');
        seen.push_str(&overlay_text(draw(&m).backend().buffer()));
    }
    let seen = words(&seen);
    for b in m.config.keymap.bindings() {
        assert!(
            seen.contains(&words(b.help())),
            "the help lacks {:?}",
            b.help()
        );
        let keys = b.keys_label();
        assert!(seen.contains(&keys), "the help lacks the keys {keys:?}");
    }
}

/// The text inside the help overlay (centred, 76 columns at most, framed), its rows joined.
fn overlay_text(buffer: &Buffer) -> String {
    let width = 76.min(buffer.area.width);
    let left = (buffer.area.width - width) / 2 + 1;
    (0..buffer.area.height)
        .map(|y| {
            (left..left + width - 2)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A text's words with one space between each: a wrapped line reads as the line.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_help_at_80x24_wraps_what_does_not_fit_below_its_start_and_its_last_line_is_whole() {
    let mut m = demo(Filter::default(), (80, 24));
    run(&mut m, Command::ToggleHelp);
    insta::assert_snapshot!("help_80x24", draw(&m).backend());
    for _ in 0..200 {
        run(&mut m, Command::Down);
    }
    let t = draw(&m);
    insta::assert_snapshot!("help_80x24_end", t.backend());
    // Up to the overlay's bottom border.
    let text = words(&overlay_text(t.backend().buffer()));
    let last = text.trim_end_matches(['─', ' ']);
    assert!(
        last.ends_with(
            "A click selects a row or focuses a pane; the wheel scrolls the pane under the pointer."
        ),
        "{last}"
    );
}

#[test]
fn the_help_of_a_small_terminal_reaches_every_binding_by_scrolling() {
    let mut m = demo(Filter::default(), (80, 24));
    run(&mut m, Command::ToggleHelp);
    let mut seen = String::new();
    for _ in 0..=BINDINGS.len() + callscope::tui::panels::command::COMMANDS.len() + 20 {
        seen.push(' ');
        seen.push_str(&overlay_text(draw(&m).backend().buffer()));
        run(&mut m, Command::Down);
    }
    let seen = words(&seen);
    for b in BINDINGS {
        assert!(seen.contains(&words(b.help)), "the help lacks {:?}", b.help);
    }
}

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
    // Every filter of the command line has its input.
    for label in [
        "session",
        "peer",
        "user",
        "type",
        "code",
        "sdk",
        "sdk_version",
        "os",
        "device",
        "env",
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
fn a_load_problem_is_shown_in_the_header_with_the_count_of_the_others() {
    let events = vec![json!({
        "version": "2.0",
        "id": "9a3e1c5f-0000-4000-8000-000000000001",
        "timestamp": "2026-11-18T10:02:03.000123456Z",
        "type": "client.publish.failed",
        "data": {"room_id": "r1", "room_name": "standup", "user_name": "Ana", "peer_id": "p1",
                 "error_code": 3001, "error_name": "CantAccessCaptureDevice", "is_terminal": true,
                 "action": "PUBLISH"}
    })];
    let source = SourceLabel::Files {
        count: 2,
        first: "incident/page1.json".into(),
    };
    let mut m = Model::new(source, Filter::default(), 100, 16);
    update(&mut m, Action::BatchLoaded(batch(&events)));
    let problems = vec![
        DumpProblem {
            path: "incident/page2.json".into(),
            position: Some((3, 17)),
            message: "expected `,` or `}`; the 12 events before it were read".into(),
        },
        DumpProblem {
            path: "incident/page3.json".into(),
            position: None,
            message: "No such file or directory".into(),
        },
    ];
    update(&mut m, Action::LoadFinished { problems });
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains(
            "⚠ 2 load problems (P lists in full): incident/page2.json:3:17: expected `,` or `}`"
        ),
        "{text}"
    );
    let y = (0..4)
        .find(|&y| row_text(t.backend().buffer(), y).contains('⚠'))
        .unwrap();
    let x = column_of(t.backend().buffer(), y, "incident").unwrap();
    assert_eq!(t.backend().buffer()[(x, y)].fg, Color::Red);
    insta::assert_snapshot!("load_problem_100x16", t.backend());
    // P lists every problem in full, with its place.
    run(&mut m, Command::ShowProblems);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("incident/page2.json:3:17: expected `,` or `}`; the 12 events before it"),
        "{text}"
    );
    assert!(
        text.contains("incident/page3.json: No such file or directory"),
        "{text}"
    );
    insta::assert_snapshot!("load_problems_listed_100x16", t.backend());
}

#[test]
fn status_cells_are_red_and_bold_for_final_and_green_for_retried() {
    let m = demo(Filter::default(), (140, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "STATUS").unwrap();
    let (mut finals, mut retried) = (0, 0);
    // The first event row is selected (reversed); the others carry only their own style.
    for y in header + 2..buffer.area.height - 1 {
        let cell = &buffer[(x, y)];
        let word: String = row_cells(buffer, y)[x as usize..x as usize + 7].concat();
        match word.trim() {
            "final" => {
                finals += 1;
                assert_eq!(cell.fg, Color::Red, "row {y}");
                assert!(cell.modifier.contains(Modifier::BOLD), "row {y}");
            }
            "retried" => {
                retried += 1;
                assert_eq!(cell.fg, Color::Green, "row {y}");
                assert!(!cell.modifier.contains(Modifier::BOLD), "row {y}");
            }
            // Another family of events: no retry status.
            "-" => {}
            other => panic!("row {y}: status {other:?}"),
        }
    }
    assert!(
        finals > 0 && retried > 0,
        "{finals} final, {retried} retried"
    );
}

#[test]
fn the_selected_row_is_reversed_and_keeps_its_status_colour() {
    let m = demo(Filter::default(), (140, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "STATUS").unwrap();
    let cell = &buffer[(x, header + 1)];
    let status = match m.events.store.row(0).is_terminal() {
        Some(true) => Color::Red,
        Some(false) => Color::Green,
        None => panic!("the demo opens on an error event"),
    };
    assert!(cell.modifier.contains(Modifier::REVERSED));
    assert_eq!(cell.fg, status);
    assert!(
        !buffer[(x, header + 2)]
            .modifier
            .contains(Modifier::REVERSED)
    );
}

#[test]
fn type_cells_have_the_colour_of_their_type() {
    let m = demo(Filter::default(), (140, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "TYPE").unwrap();
    let mut seen = Vec::new();
    for y in header + 1..buffer.area.height - 1 {
        let word: String = row_cells(buffer, y)[x as usize..x as usize + 10].concat();
        let Some(kind) = EventType::KNOWN
            .into_iter()
            .find(|k| k.short() == word.trim())
        else {
            // Another family of events, named by its own type.
            assert!(
                word.starts_with("track.") || word.starts_with("beam."),
                "row {y}: type {word:?}"
            );
            continue;
        };
        assert_eq!(
            buffer[(x, y)].fg,
            Theme::default().event_type(&kind).fg.unwrap(),
            "row {y}"
        );
        if !seen.contains(&kind) {
            seen.push(kind);
        }
    }
    assert!(seen.len() >= 4, "{seen:?}");
    let distinct: std::collections::HashSet<_> = EventType::KNOWN
        .iter()
        .map(|k| Theme::default().event_type(k).fg)
        .collect();
    assert_eq!(distinct.len(), 5, "each known type has its own colour");
}

#[test]
fn under_no_color_the_type_toggles_read_by_their_marks_alone() {
    let mut m = demo(Filter::default(), (80, 24));
    m.config.theme = Theme::named(None, true).unwrap();
    // No type chosen: every type is shown, and marked so.
    let header = |m: &Model| {
        screen_text(draw(m).backend().buffer())
            .lines()
            .take(4)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        header(&m).contains(
            " types [x]1 publish [x]2 subscribe [x]3 join [x]4 disconnected [x]5 connect"
        ),
        "{}",
        header(&m)
    );
    run(&mut m, Command::ToggleJoin);
    run(&mut m, Command::TogglePublish);
    let t = draw(&m);
    let text = header(&m);
    assert!(
        text.contains(
            " types [x]1 publish [ ]2 subscribe [x]3 join [ ]4 disconnected [ ]5 connect"
        ),
        "{text}"
    );
    // The marks carry it: no colour anywhere on the line.
    let buffer = t.backend().buffer();
    for x in 0..buffer.area.width {
        assert_eq!(buffer[(x, 1)].fg, Color::Reset, "column {x}");
    }
    insta::assert_snapshot!("types_no_color_80x24", t.backend());
}

#[test]
fn the_header_marks_the_selected_types_and_strikes_out_the_others() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleJoin);
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let join = column_of(buffer, 1, "3 join").unwrap();
    assert!(row_text(buffer, 1).contains("[x]3 join"));
    assert!(row_text(buffer, 1).contains("[ ]1 publish"));
    assert_eq!(buffer[(join, 1)].fg, Color::Yellow);
    assert!(buffer[(join, 1)].modifier.contains(Modifier::BOLD));
    let publish = column_of(buffer, 1, "1 publish").unwrap();
    assert!(
        buffer[(publish, 1)]
            .modifier
            .contains(Modifier::CROSSED_OUT)
    );
}

#[test]
fn the_five_types_all_on_say_that_the_other_families_are_hidden() {
    let mut m = demo(Filter::default(), (140, 40));
    let line = |m: &Model| {
        screen_text(draw(m).backend().buffer())
            .lines()
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert!(!line(&m).contains("others hidden"), "{}", line(&m));
    for toggle in Command::TYPE_TOGGLES {
        run(&mut m, toggle);
    }
    let all_five = line(&m);
    assert!(all_five.contains("others hidden"), "{all_five}");
    // The five types and their marks fit an 80-column screen; the retry status is among the
    // filters, on the next line.
    let mut narrow = demo(Filter::default(), (80, 24));
    run(&mut narrow, Command::ToggleJoin);
    run(&mut narrow, Command::CycleTerminal);
    assert!(line(&narrow).contains("[x]3 join"), "{}", line(&narrow));
    assert!(line(&narrow).contains("[ ]5 connect"), "{}", line(&narrow));
    let filters = screen_text(draw(&narrow).backend().buffer())
        .lines()
        .nth(2)
        .unwrap()
        .to_string();
    assert!(filters.contains("│ filters final only"), "{filters}");
    // And the counts agree: the demo's track and recording events are not shown.
    let others = m.events.store.len() - m.events.shown.len();
    assert!(others > 0);
    for toggle in Command::TYPE_TOGGLES {
        run(&mut m, toggle);
    }
    assert!(!line(&m).contains("others hidden"), "{}", line(&m));
    assert_eq!(m.events.shown.len(), m.events.store.len());
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

/// An event whose strings try to drive the terminal.
fn hostile_event() -> Value {
    let evil = "\u{1b}[2J\u{1b}]0;pwned\u{7}\r\u{202e}evil\u{8}\u{9b}31m\u{2066}\ttab\nline";
    json!({
        "version": "2.0\u{1b}[5m",
        "id": "6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a1b",
        "timestamp": "2026-11-18T11:30:00.999999999Z",
        "type": "client.subscribe.failed",
        "data": {
            "user_id": format!("usr{evil}"),
            "user_name": format!("Mallory{evil}"),
            "peer_id": format!("peer{evil}"),
            "room_id": "6735e0b1c4a92f5d18e3b7a1",
            "session_id": "673b1f2e9c4d5a6b7c8d9e0f",
            "room_name": format!("weekly{evil}"),
            "role": format!("guest{evil}"),
            "error_code": 4006,
            "error_name": format!("ICE{evil}"),
            "error_message": format!("boom {evil}"),
            "error_description": format!("desc {evil}"),
            "is_terminal": true,
            "action": format!("SUBSCRIBE{evil}"),
            format!("extra{evil}"): format!("value{evil}"),
            "agent": {
                "sdk": format!("web{evil}"),
                "sdk_version": "0.12.3",
                "os": format!("Linux{evil}"),
                "os_version": "6.8",
                "string": format!("sdk:web{evil},env:prod{evil},{evil}"),
            }
        }
    })
}

fn assert_no_control_character(buffer: &Buffer, context: &str) {
    let bidi = |c: char| matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            assert!(
                !symbol.chars().any(|c| c.is_control() || bidi(c)),
                "{context}: cell ({x}, {y}) holds {symbol:?}"
            );
        }
    }
}

#[test]
fn a_hostile_event_draws_no_control_character_anywhere() {
    let mut other = hostile_event();
    other["type"] = json!("track.add.success\u{1b}[1m\u{7}");
    other["id"] = json!("6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a1c");
    let source = SourceLabel::Files {
        count: 1,
        first: "dump\u{1b}]0;title\u{7}\u{202e}.json".into(),
    };
    let filter = Filter {
        search: Some("boom".into()),
        ..Filter::default()
    };
    for size in [(140, 40), (80, 24), (60, 50)] {
        let mut m = loaded(
            source.clone(),
            filter.clone(),
            size,
            vec![batch(&[hostile_event(), other.clone()])],
        );
        update(
            &mut m,
            Action::LoadFinished {
                problems: vec![DumpProblem {
                    path: "dump\u{1b}[2J.json".into(),
                    position: Some((1, 2)),
                    message: "bad\u{7}\u{202e}".into(),
                }],
            },
        );
        assert_eq!(m.events.shown.len(), 2);
        for step in 0..2 {
            let context = format!("{size:?}, event {step}");
            assert_no_control_character(draw(&m).backend().buffer(), &context);
            assert_no_control_character(draw_detail(&m).backend().buffer(), &context);
            run(&mut m, Command::FocusDetail);
            run(&mut m, Command::Bottom);
            assert_no_control_character(draw(&m).backend().buffer(), &context);
            run(&mut m, Command::FocusList);
            run(&mut m, Command::Down);
        }
        run(&mut m, Command::EditSearch);
        let key = KeyEvent::new(KeyCode::Char('\u{1b}'), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
        assert_no_control_character(draw(&m).backend().buffer(), &format!("{size:?}, editor"));
    }
}

/// Conjoining Hangul jamo, which terminals draw at widths of their own: a run of leading
/// consonants is one cell pair in a terminal that clusters graphemes and a pair per consonant in
/// one that does not, so the cells between are left stale in one of them.
fn jamo_event() -> Value {
    let run = "\u{1100}".repeat(12);
    // 한국 as decomposed jamo (as macOS writes names), and a vowel after a syllable.
    let decomposed = "\u{1112}\u{1161}\u{11ab}\u{1100}\u{116e}\u{11a8}";
    json!({
        "version": "2.0",
        "id": "6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a2b",
        "timestamp": "2026-11-18T11:30:00Z",
        "type": "client.join.failed",
        "data": {
            "user_name": format!("{decomposed} {run}"),
            "peer_id": format!("peer{run}"),
            "room_id": "6735e0b1c4a92f5d18e3b7a1",
            "room_name": format!("{run}가\u{1161}{run}"),
            "error_code": 4006,
            "error_name": format!("E{run}"),
            "error_message": format!("boom {run}{decomposed}"),
            "is_terminal": true,
            "agent": { "sdk": format!("web{run}"), "os": "Linux" }
        }
    })
}

#[test]
fn conjoining_jamo_reach_no_cell_and_decomposed_syllables_show_composed() {
    let is_jamo = |c: char| matches!(c, '\u{1100}'..='\u{11ff}' | '\u{a960}'..='\u{a97f}' | '\u{d7b0}'..='\u{d7ff}');
    for size in [(140, 40), (80, 24)] {
        let mut m = loaded(
            SourceLabel::Demo,
            Filter::default(),
            size,
            vec![batch(&[jamo_event()])],
        );
        let mut screens = Vec::new();
        screens.push(draw(&m).backend().buffer().clone());
        screens.push(draw_detail(&m).backend().buffer().clone());
        run(&mut m, Command::FocusDetail);
        run(&mut m, Command::Bottom);
        screens.push(draw(&m).backend().buffer().clone());
        for (k, buffer) in screens.iter().enumerate() {
            for y in 0..buffer.area.height {
                for x in 0..buffer.area.width {
                    let symbol = buffer[(x, y)].symbol();
                    assert!(
                        !symbol.chars().any(is_jamo),
                        "{size:?} screen {k}: cell ({x}, {y}) holds {symbol:?}"
                    );
                }
            }
        }
        // Each syllable in a cell, two cells wide.
        let detail = &screens[1];
        let composed = (0..detail.area.height).any(|y| {
            (0..detail.area.width.saturating_sub(2))
                .any(|x| detail[(x, y)].symbol() == "한" && detail[(x + 2, y)].symbol() == "국")
        });
        assert!(composed, "{}", screen_text(detail));
    }
}

#[test]
fn a_hostile_event_shows_its_control_characters_as_visible_symbols() {
    let m = loaded(
        SourceLabel::Demo,
        Filter::default(),
        (140, 40),
        vec![batch(&[hostile_event()])],
    );
    let t = draw_detail(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("boom ␛[2J␛]0;pwned␇␍�evil␈"), "{text}");
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
    // Forty wide characters: eighty columns, more than the input's width.
    let text = "王伟".repeat(20);
    for c in text.chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
    }
    let mut t = draw(&m);
    let (y, x) = editor_input(t.backend().buffer(), "room");
    let row = row_text(t.backend().buffer(), y);
    let cursor = t.get_cursor_position().unwrap();
    assert_eq!(cursor.y, y);
    assert!(cursor.x > x && cursor.x < 78, "{cursor:?} in {row}");
    // The end of the text is what shows.
    let shown: String = row_cells(t.backend().buffer(), y)[x as usize..cursor.x as usize]
        .concat()
        .replace(' ', "");
    assert!(
        !shown.is_empty() && text.ends_with(&shown),
        "{shown:?} in {row}"
    );
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
fn the_groups_view_shows_the_storm_on_top_with_its_facets() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ShowGroups);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("groups by error"), "{text}");
    assert!(text.contains("join 500 ServerErrors"), "{text}");
    assert!(text.contains("facets of join 500 ServerErrors"), "{text}");
    insta::assert_snapshot!("groups_by_error_140x40", t.backend());
}

#[test]
fn a_narrow_groups_view_gives_up_columns_before_the_groups_names() {
    // Two errors of one type are told apart by their whole names (a short screen shows the
    // first of them only).
    let names = [
        "disconnected 1003 WebSocketConnectionLost",
        "disconnected 1006 AbnormalClose",
    ];
    for (width, height, shown) in [(140, 40, 2), (80, 24, 2), (60, 15, 1)] {
        let mut m = demo(Filter::default(), (width, height));
        run(&mut m, Command::ShowGroups);
        let text = screen_text(draw(&m).backend().buffer());
        for name in &names[..shown] {
            assert!(text.contains(name), "{width}x{height}: {name}\n{text}");
        }
        assert!(text.contains("COUNT") && text.contains("FINAL"), "{text}");
        // The sparkline is the first to go, the peers and rooms reached the last.
        assert!(!text.contains("OVER TIME"), "{width}x{height}\n{text}");
        if width >= 140 {
            assert!(text.contains("PEERS") && text.contains("ROOMS"), "{text}");
        }
    }
    // With the related data at hand, the share of chains that got through gives way after the
    // sparkline and the first time.
    let mut m = demo(Filter::default(), (240, 40));
    run(&mut m, Command::ShowGroups);
    let text = screen_text(draw(&m).backend().buffer());
    for title in [
        "FINAL%",
        "GOT THROUGH",
        "PEERS",
        "ROOMS",
        "FIRST",
        "LAST",
        "OVER TIME",
    ] {
        assert!(text.contains(title), "a wide screen shows {title}:\n{text}");
    }
}

/// The line of the screen that starts with `start` (a table's column titles), up to the pane
/// beside the table.
fn left_of_pane(m: &Model, start: &str) -> String {
    let text = screen_text(draw(m).backend().buffer());
    let line = text
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}:\n{text}"));
    line.split('│').next().unwrap_or_default().to_string()
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
fn the_groups_views_columns_stay_put_while_it_scrolls() {
    // Errors with short names, many events each, then errors with long names, fewer: scrolled
    // to, the long names must not reshape the table.
    let mut events = Vec::new();
    for k in 0..120 {
        let name = if k < 60 {
            format!("E{k}")
        } else {
            format!("AVeryLongErrorNameThatKeepsGoing{k}")
        };
        for n in 0..(200 - k) {
            events.push(json!({
                "id": format!("e{k}-{n}"),
                "type": "client.join.failed",
                "timestamp": "2026-11-18T10:00:00Z",
                "data": {"error_code": 1000 + k, "error_name": name, "room_id": "r"}
            }));
        }
    }
    let mut m = loaded(
        SourceLabel::Demo,
        Filter::default(),
        (140, 40),
        vec![batch(&events)],
    );
    run(&mut m, Command::ShowGroups);
    // The facets pane beside it follows the selected group.
    let header = |m: &Model| left_of_pane(m, "GROUP");
    let top = header(&m);
    assert!(top.contains("COUNT"), "{top}");
    for _ in 0..8 {
        run(&mut m, Command::PageDown);
        assert_eq!(header(&m), top);
    }
    run(&mut m, Command::Bottom);
    assert_eq!(header(&m), top);
}

/// The filter on Priya Raman, the demo's peer whose publishing gives up.
fn peer_priya() -> Filter {
    Filter::default().with(Field::Peer, callscope::generator::PRIYA_PEER_ID)
}

#[test]
fn a_peers_story_shows_its_chain_and_how_it_ended() {
    let mut m = demo(peer_priya(), (140, 40));
    run(&mut m, Command::ShowStory);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("story of Priya Raman"), "{text}");
    assert!(text.contains("PUBLISH: 10 failed attempts"), "{text}");
    assert!(text.contains("gave up: final error at"), "{text}");
    // The track events beside the chain have types that end in ".success"; the story itself
    // never claims one.
    let told = text.replace(".success", "");
    for word in ["succeeded", "recovered", "success"] {
        assert!(!told.contains(word), "the story claims {word}: {text}");
    }
    insta::assert_snapshot!("story_priya_140x40", t.backend());
    // On a narrower screen the end of each line goes, never whether the attempt was final.
    let mut m = demo(peer_priya(), (100, 40));
    run(&mut m, Command::ShowStory);
    let text = screen_text(draw(&m).backend().buffer());
    let attempts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("   2026-") && l.contains(" publish "))
        .collect();
    assert!(!attempts.is_empty(), "{text}");
    for line in attempts {
        assert!(
            line.contains(" retried ") || line.contains(" final "),
            "{line}"
        );
    }
}

#[test]
fn the_timeline_strip_draws_the_storm_as_the_tallest_column() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleTimeline);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("timeline UTC · 5m per bar"), "{text}");
    insta::assert_snapshot!("timeline_140x40", t.backend());
}

#[test]
fn the_timeline_draws_its_bars_on_an_80_by_24_terminal_and_shorter_ones() {
    // Down to 15 lines, where the list's half of the screen is too short for the strip and the
    // detail below gives up lines to it; side by side, the list's column is tall enough.
    for (width, height) in [(80, 24), (100, 20), (80, 17), (80, 15), (140, 15)] {
        let mut m = demo(Filter::default(), (width, height));
        run(&mut m, Command::ToggleTimeline);
        let text = screen_text(draw(&m).backend().buffer());
        assert!(text.contains("timeline UTC ·"), "{text}");
        assert!(
            text.chars().any(|c| ('▁'..='█').contains(&c)),
            "{width}x{height}: no bar drawn:\n{text}"
        );
        // The list keeps rows of its own.
        let areas = callscope::tui::view::layout::areas_with(width, height, true);
        assert!(areas.list.height >= 3, "{areas:?}");
    }
}

#[test]
fn a_timeline_with_too_few_lines_to_draw_says_so() {
    for size in [(80, 9), (140, 11), (140, 8), (140, 6)] {
        let mut m = demo(Filter::default(), size);
        run(&mut m, Command::ToggleTimeline);
        let text = screen_text(draw(&m).backend().buffer());
        assert!(
            text.contains("timeline · too few lines to draw: make the terminal taller"),
            "{size:?}:\n{text}"
        );
    }
}

#[test]
fn a_timeline_bucket_of_days_names_the_day_it_ends_on() {
    let mut m = of_events(
        (80, 24),
        &[
            join_at("a", "2026-01-01T10:00:00Z"),
            join_at("b", "2026-06-01T10:00:00Z"),
            join_at("c", "2026-11-18T10:00:00Z"),
        ],
    );
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Top);
    let text = screen_text(draw(&m).backend().buffer());
    let line = text
        .lines()
        .find(|l| l.contains(" to ") && l.contains("event"))
        .unwrap_or_else(|| panic!("no bucket line:\n{text}"));
    // Both ends carry their date: the bucket spans several days.
    let (start, end) = line.trim().split_once(" to ").unwrap();
    assert!(start.starts_with("20") && end.starts_with("20"), "{line}");
    assert_ne!(start[..10], end[..10], "{line}");
}

/// The model with the config's `[keys]` applied, as the explorer starts with them.
fn with_keys(mut m: Model, keys: &[(&str, &[&str])]) -> Model {
    let keys = keys
        .iter()
        .map(|(a, k)| (a.to_string(), k.iter().map(|k| k.to_string()).collect()))
        .collect();
    m.config.keymap = Keymap::with_overrides(&keys, &Default::default()).unwrap();
    m
}

/// Every help line, scrolled through from top to bottom.
fn whole_help(m: &mut Model) -> String {
    run(m, Command::ToggleHelp);
    let mut seen = String::new();
    for _ in 0..=BINDINGS.len() + callscope::tui::panels::command::COMMANDS.len() + 20 {
        seen.push_str(&screen_text(draw(m).backend().buffer()));
        run(m, Command::Down);
    }
    run(m, Command::ToggleHelp);
    seen
}

#[test]
fn remapped_keys_show_in_the_help_and_the_hint_bar_and_the_old_keys_do_not() {
    let mut m = with_keys(
        demo(Filter::default(), (140, 40)),
        &[
            ("quit", &["Q", "ctrl-q"]),
            ("groups", &["f5"]),
            ("clear_filters", &["X"]),
        ],
    );
    let t = draw(&m);
    let hints = row_text(t.backend().buffer(), 39);
    // Ctrl-C quits whatever quit is bound to.
    assert!(hints.contains("Q/Ctrl-Q/Ctrl-C quit"), "{hints}");
    assert!(hints.contains("F5 groups"), "{hints}");
    assert!(!hints.contains("q/Ctrl-C"), "{hints}");
    let help = whole_help(&mut m);
    assert!(help.contains("Q/Ctrl-Q/Ctrl-C       quit"), "{help}");
    assert!(
        help.contains("F5                    group the shown events"),
        "{help}"
    );
    assert!(
        help.contains("X                     clear the filters set here"),
        "{help}"
    );
    assert!(!help.contains("q/Ctrl-C"), "{help}");
    // In a filter input a letter is text: quit keeps only its Ctrl keys there.
    assert!(help.contains("Ctrl-Q/Ctrl-C         quit"), "{help}");
}

#[test]
fn hints_written_into_titles_and_messages_name_the_keys_in_force() {
    let remapped: &[(&str, &[&str])] = &[
        ("clear_filters", &["X"]),
        ("next_group_key", &["K"]),
        ("cancel", &["ctrl-g"]),
        ("mark", &["m"]),
        ("left", &["H"]),
        ("right", &["L"]),
    ];
    let nothing = Filter {
        search: Some("no event says this".into()),
        ..Filter::default()
    };
    let m = with_keys(demo(nothing, (140, 40)), remapped);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("(X clears them, "), "{text}");

    let mut m = with_keys(demo(Filter::default(), (140, 40)), remapped);
    run(&mut m, Command::ShowGroups);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("K: key, o: sort, Enter: its events"),
        "{text}"
    );
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ToggleTimeline);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("H/L move, m: mark, Enter: show · T/Esc: close"),
        "{text}"
    );
}

/// The screens a session passes through: list, detail, help, filter editor, groups, story,
/// timeline with facets, and a status message.
fn every_screen(mut m: Model, mut each: impl FnMut(&str, &Buffer)) {
    let mut look = |m: &Model, what: &str| each(what, draw(m).backend().buffer());
    look(&m, "list");
    run(&mut m, Command::FocusDetail);
    look(&m, "detail");
    run(&mut m, Command::ToggleHelp);
    look(&m, "help");
    run(&mut m, Command::ToggleHelp);
    run(&mut m, Command::FocusList);
    run(&mut m, Command::TogglePublish);
    run(&mut m, Command::CycleTerminal);
    run(&mut m, Command::EditFilters);
    look(&m, "filter editor");
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowGroups);
    look(&m, "groups");
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowStory);
    look(&m, "story");
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ToggleFacets);
    run(&mut m, Command::ToggleTimeline);
    look(&m, "timeline and facets");
    update(&mut m, Action::Saved(Err("disk full".into())));
    look(&m, "status");
    let mut problem = Model::new(
        SourceLabel::Demo,
        Filter::default(),
        m.screen.width,
        m.screen.height,
    );
    problem.config.theme = m.config.theme.clone();
    update(
        &mut problem,
        Action::LoadFinished {
            problems: vec![DumpProblem {
                path: "x.json".into(),
                position: None,
                message: "unreadable".into(),
            }],
        },
    );
    look(&problem, "load problem");
}

#[test]
fn with_no_color_every_cell_is_drawn_in_the_terminals_own_colours() {
    let mut m = demo(Filter::default(), (140, 40));
    m.config.theme = Theme::named(None, true).unwrap();
    let mut screens = 0;
    every_screen(m, |what, buffer| {
        screens += 1;
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                let cell = &buffer[(x, y)];
                assert_eq!(
                    (cell.fg, cell.bg),
                    (Color::Reset, Color::Reset),
                    "{what}: cell ({x}, {y}) {:?}",
                    cell.symbol()
                );
            }
        }
    });
    assert_eq!(screens, 9);
}

#[test]
fn without_colour_final_and_the_selection_still_stand_out_by_bold_and_reverse() {
    let mut m = demo(Filter::default(), (140, 40));
    m.config.theme = Theme::mono();
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "STATUS").unwrap();
    assert!(
        buffer[(x, header + 1)]
            .modifier
            .contains(Modifier::REVERSED)
    );
    for y in header + 2..buffer.area.height - 1 {
        let word: String = row_cells(buffer, y)[x as usize..x as usize + 7].concat();
        let bold = buffer[(x, y)].modifier.contains(Modifier::BOLD);
        assert_eq!(bold, word.trim() == "final", "row {y}: {word:?}");
    }
    let publish = column_of(buffer, 1, "1 publish").unwrap();
    assert!(buffer[(publish, 1)].modifier.contains(Modifier::BOLD));
}

#[test]
fn every_theme_draws_in_the_sixteen_named_colours_and_body_text_in_the_default_one() {
    for name in callscope::tui::view::theme::NAMES {
        let mut m = demo(Filter::default(), (140, 40));
        m.config.theme = Theme::named(Some(name), false).unwrap();
        every_screen(m, |what, buffer| {
            for y in 0..buffer.area.height {
                for x in 0..buffer.area.width {
                    let cell = &buffer[(x, y)];
                    for c in [cell.fg, cell.bg] {
                        assert!(
                            !matches!(c, Color::Rgb(..) | Color::Indexed(_) | Color::DarkGray),
                            "{name}, {what}: cell ({x}, {y}) is {c:?}"
                        );
                    }
                    assert_eq!(cell.bg, Color::Reset, "{name}, {what}: ({x}, {y})");
                }
            }
        });
        let m = demo(Filter::default(), (140, 40));
        let buffer = draw(&m).backend().buffer().clone();
        let header = list_header_row(&buffer);
        let x = column_of(&buffer, header, "ERROR").unwrap();
        assert_eq!(
            buffer[(x, header + 2)].fg,
            Color::Reset,
            "{name}: the error names are body text"
        );
    }
}

#[test]
fn the_help_mentions_the_mouse_and_the_copy_keys() {
    let mut m = demo(Filter::default(), (140, 40));
    let help = whole_help(&mut m);
    assert!(
        help.contains("A click selects a row or focuses a pane"),
        "{help}"
    );
    assert!(
        help.contains("y                     copy the event's JSON"),
        "{help}"
    );
    assert_eq!(m.focus.mode(), Mode::List);
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

#[test]
fn a_live_load_that_stops_after_some_pages_says_why_on_a_line_of_its_own() {
    let mut m = demo(Filter::default(), (80, 24));
    m.session.live = Some(callscope::tui::model::Live::new(
        "http://127.0.0.1:1".into(),
    ));
    let query = m.session.live.as_ref().unwrap().query;
    let reason = "HTTP 503: upstream unavailable, try again later";
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Failed {
            query,
            message: reason.into(),
        }),
    );
    let text = screen_text(draw(&m).backend().buffer());
    let line = text.lines().nth(3).unwrap();
    assert!(
        line.contains(&format!("loading stopped: {reason}")),
        "{text}"
    );
}

#[test]
fn groups_of_events_over_several_days_show_the_day_of_first_and_last_seen() {
    let mut m = of_events(
        (140, 20),
        &[
            join_at("a", "2026-11-16T08:33:08Z"),
            join_at("b", "2026-11-20T13:53:56Z"),
        ],
    );
    run(&mut m, Command::ShowGroups);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("11-16 08:33") && text.contains("11-20 13:53"),
        "{text}"
    );
}

#[test]
fn a_group_name_cut_to_its_column_ends_in_an_ellipsis() {
    let mut m = demo(Filter::default(), (100, 30));
    run(&mut m, Command::ShowGroups);
    // Grouped by peer: names followed by their ids, longer than the column.
    while !screen_text(draw(&m).backend().buffer()).contains("groups by peer") {
        run(&mut m, Command::NextGroupKey);
    }
    let text = screen_text(draw(&m).backend().buffer());
    let cut = text
        .lines()
        .filter(|l| l.contains('(') && l.contains('…'))
        .count();
    assert!(cut > 0, "{text}");
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

#[test]
fn the_help_lists_the_commands_of_the_command_line() {
    let mut m = demo(Filter::default(), (140, 40));
    let help = whole_help(&mut m);
    for spec in callscope::tui::panels::command::COMMANDS {
        assert!(help.contains(spec.usage), "the help lacks {}", spec.usage);
        assert!(help.contains(spec.help), "the help lacks {}", spec.help);
    }
}

#[test]
fn one_duplicate_and_one_group_read_in_the_singular() {
    let e = join_at("same-id", "2026-11-18T10:00:00Z");
    let m = of_events((140, 40), &[e.clone(), e]);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("1 shown / 1 loaded (1 duplicate dropped)"),
        "{text}"
    );
    let mut m = m;
    run(&mut m, Command::ShowGroups);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains(" 1 group by error"), "{text}");
    assert!(!text.contains("1 groups"), "{text}");
}

#[test]
fn the_timeline_labels_its_time_axis_fills_the_width_and_esc_closes_it() {
    for (width, height) in [(80, 24), (200, 50)] {
        let mut m = demo(Filter::default(), (width, height));
        run(&mut m, Command::ToggleTimeline);
        let t = draw(&m);
        let buffer = t.backend().buffer();
        let strip = callscope::tui::view::layout::areas_of(&m).timeline;
        // The axis: times of day under the bars, the demo's first hour first.
        let axis_row = (strip.y..strip.y + strip.height)
            .map(|y| {
                row_cells(buffer, y)[strip.x as usize..(strip.x + strip.width) as usize].concat()
            })
            .find(|row| row.trim_start().starts_with("08:00"))
            .unwrap_or_else(|| panic!("no time axis:\n{}", screen_text(buffer)));
        let labels: Vec<&str> = axis_row.split_whitespace().collect();
        assert!(labels.len() >= 3, "{axis_row}");
        for label in &labels {
            assert!(
                label.len() == 5 && label.as_bytes()[2] == b':',
                "{label:?} in {axis_row}"
            );
        }
        // Bars (or the bucket marks under them) reach the strip's last columns.
        let right = strip.x + strip.width - 1;
        let drawn =
            (strip.y + 1..strip.y + strip.height - 2).any(|y| buffer[(right, y)].symbol() != " ");
        assert!(drawn, "{width}x{height}:\n{}", screen_text(buffer));
        if (width, height) == (80, 24) {
            insta::assert_snapshot!("timeline_axis_80x24", t.backend());
        }
        // Esc closes the strip, and the keyboard is back on the list.
        let esc = TermEvent::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        let action = callscope::tui::runtime::translate(&m, esc).expect("Esc is bound");
        update(&mut m, action);
        assert!(m.panes.timeline.is_none());
        assert_eq!(m.focus.mode(), Mode::List);
    }
}

fn bound(text: &str) -> TimeBound {
    TimeBound {
        text: text.to_string(),
        nanos: callscope::time::parse_rfc3339_nanos(text).unwrap(),
    }
}

/// Søren Kowalski, a peer of the demo's join storm who got in after four failed joins.
const SOREN: &str = "67fc2ca6-0292-4826-b8f5-81a2c18e5bab";

#[test]
fn a_story_tells_each_chains_verdict_with_its_evidence_and_the_track_events_dimmed() {
    let mut m = demo(Filter::default().with(Field::Peer, SOREN), (140, 40));
    run(&mut m, Command::ShowStory);
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let text = screen_text(buffer);
    assert!(text.contains("JOIN: 4 failed attempts over 7s"), "{text}");
    // The verdict names the session, when the peer joined and when it left.
    assert!(
        text.contains("got through: joined session 6afd7544… at 10:05:10 (17s after the first"),
        "{text}"
    );
    // The track events, after the failures, dimmed: context, not errors.
    for words in ["published audio", "published video", "video stopped"] {
        let y = (0..buffer.area.height)
            .find(|&y| row_text(buffer, y).contains(words))
            .unwrap_or_else(|| panic!("no line says {words}:\n{text}"));
        let x = column_of(buffer, y, words).unwrap();
        let cell = &buffer[(x, y)];
        assert!(cell.modifier.contains(Modifier::DIM), "{words}: {cell:?}");
    }
    let last_failure = text.find("10:05:01").unwrap();
    assert!(
        text.find("published video").unwrap() > last_failure,
        "{text}"
    );
    insta::assert_snapshot!("story_verdict_tracks_140x40", t.backend());
    // The detail pane of one of the failures gives the same verdict.
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    let detail = screen_text(draw_detail(&m).backend().buffer());
    assert!(
        detail.contains("outcome: got through: joined session 6afd7544… at"),
        "{detail}"
    );
    assert!(
        detail.contains("10:05:10 (17s after the first failure), left"),
        "{detail}"
    );
}

#[test]
fn a_chain_that_never_got_in_says_over_which_time_the_sessions_hold_no_join() {
    // A peer of the storm who gave up.
    let filter = Filter {
        terminal: Some(true),
        since: Some(bound("2026-11-18T10:02:00Z")),
        ..Filter::default().with(Field::Room, STORM_ROOM_ID)
    };
    let mut m = demo(filter, (140, 40));
    run(&mut m, Command::ShowStory);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("never got in: no peer of user usr_f48f5a9373 joined a session"),
        "{text}"
    );
    // The detail pane has room for the whole evidence: the time the sessions cover.
    let detail = screen_text(draw_detail(&m).backend().buffer());
    assert!(detail.contains("from 10:02:04 to 10:12:08"), "{detail}");
    assert!(
        detail.contains("(its sessions are known over that time)"),
        "{detail}"
    );
}

#[test]
fn without_session_data_a_verdict_is_unknown_and_says_what_is_missing() {
    // The events alone, as from a dump without the sessions beside it, of a peer with no
    // track event (a track event would be evidence enough).
    let mut m = loaded(
        SourceLabel::Demo,
        Filter::default().with(Field::Peer, "449c24e1-2a4e-4651-bbea-386747122376"),
        (140, 40),
        vec![callscope::source::demo::load()],
    );
    run(&mut m, Command::ShowStory);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(!text.contains("got through:"), "{text}");
    assert!(
        text.contains("unknown: no session data for room 673a1f2c9e4b8d0a5c7e3f21: fetch it live"),
        "{text}"
    );
}

#[test]
fn the_groups_view_gives_each_group_its_share_of_chains_that_got_through() {
    // The storm's window: the generator lets 114 of its 157 retrying peers into the session.
    let filter = Filter {
        since: Some(bound("2026-11-18T10:00:00Z")),
        until: Some(bound("2026-11-18T10:10:00Z")),
        types: vec![EventType::Join],
        ..Filter::default().with(Field::Room, STORM_ROOM_ID)
    };
    let mut m = demo(filter, (140, 40));
    run(&mut m, Command::ShowGroups);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("GOT THROUGH"), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("join 500 ServerErrors"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("114/157 73%"), "{row}");
    // Without related data, no share is claimed.
    let mut bare = loaded(
        SourceLabel::Demo,
        Filter::default(),
        (140, 40),
        vec![callscope::source::demo::load()],
    );
    run(&mut bare, Command::ShowGroups);
    let text = screen_text(draw(&bare).backend().buffer());
    assert!(!text.contains("GOT THROUGH"), "{text}");
}

#[test]
fn the_network_view_charts_the_peers_quality_with_its_errors_marked() {
    let mut m = demo(peer_priya(), (160, 50));
    run(&mut m, Command::ShowStory);
    // On the chain's line: the summary is told around its last failure.
    run(&mut m, Command::Top);
    run(&mut m, Command::ShowQuality);
    assert_eq!(m.focus.mode(), Mode::Quality);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("network of peer 3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863 in session"),
        "{text}"
    );
    assert!(
        text.contains("summary: packet loss rose to 32.9% by the failure at 11:42:50"),
        "{text}"
    );
    assert!(text.contains("10 error(s) marked"), "{text}");
    // Each simulcast layer a line of its own; the errors marked; what has no points said so.
    assert!(
        text.contains("publish · packet loss % ━ video h ━ video m ━ video l"),
        "{text}"
    );
    assert!(text.contains("█ errors"), "{text}");
    assert!(
        text.contains("subscribe · RTT ms: empty, no points on"),
        "{text}"
    );
    insta::assert_snapshot!("quality_priya_160x50", t.backend());
    // Esc goes back to the story, on the line it was on.
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::Story);
}

#[test]
fn the_network_view_without_stats_says_which_response_to_add() {
    let mut m = demo(Filter::default().with(Field::Peer, SOREN), (140, 40));
    run(&mut m, Command::ShowQuality);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("no quality stats of peer 67fc2ca6-0292-4826-b8f5-81a2c18e5bab in session"),
        "{text}"
    );
    assert!(
        text.contains("GET /v2/analytics/peer-stats?peer_id="),
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

/// A live explorer on a room, its first page loaded (100 of the 2,400 events the server counts),
/// the clock at `start`.
fn live_loading(start: std::time::Instant) -> Model {
    live_loading_at(start, (140, 12))
}

/// [`live_loading`] on a terminal of this size.
fn live_loading_at(start: std::time::Instant, size: (u16, u16)) -> Model {
    let url = "https://api.100ms.live";
    let mut m = Model::new(
        SourceLabel::Live { url: url.into() },
        Filter::default().with(Field::Room, STORM_ROOM_ID),
        size.0,
        size.1,
    );
    let mut live = callscope::tui::model::Live::new(url.into());
    live.clock = callscope::tui::model::Clock {
        at: start,
        unix: 1_763_460_000,
    };
    m.session.live = Some(live);
    m.session.load = callscope::tui::model::LoadState::Idle;
    let effects = callscope::tui::update::new_query(&mut m);
    // The query, and the room's sessions asked for beside it.
    assert_eq!(effects.len(), 2, "{effects:?}");
    let query = m.session.live.as_ref().unwrap().query;
    let events: Vec<Value> = (0..100)
        .map(|k| {
            let mut e = join_at(
                &format!("e{k}"),
                &format!("2026-11-18T10:{:02}:00Z", k % 60),
            );
            e["data"]["room_id"] = STORM_ROOM_ID.into();
            e["data"]["peer_id"] = format!("peer-{}", k % 4).into();
            e["data"]["is_terminal"] = (k % 3 == 0).into();
            e
        })
        .collect();
    let page = callscope::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "more".into(),
        total: Some(2_400),
    };
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Page { query, page }),
    );
    m
}

fn report(m: &mut Model, report: callscope::source::worker::Report) {
    update(m, Action::Live(report));
}

fn tick(m: &mut Model, at: std::time::Instant) {
    update(
        m,
        Action::Tick(callscope::tui::model::Clock {
            at,
            unix: 1_763_460_000,
        }),
    );
}

/// The header's four lines.
fn header_text(m: &Model) -> String {
    let text = screen_text(draw(m).backend().buffer());
    text.lines().take(4).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_stalled_request_says_how_long_it_waited_for_which_part_and_the_timeouts() {
    use callscope::source::worker::{InFlight, Report};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading(t0);
    let query = m.session.live.as_ref().unwrap().query;
    run(&mut m, Command::LoadAll);
    report(&mut m, Report::Fetching { query, page: 2 });
    report(
        &mut m,
        Report::InFlight {
            query,
            requests: vec![
                InFlight {
                    part: "the error events (error=true)".into(),
                    since: t0 + Duration::from_millis(200),
                },
                InFlight {
                    part: "the client.join.failed events".into(),
                    since: t0,
                },
            ],
        },
    );
    // Within a second: events so far against the total, and no wait said.
    tick(&mut m, t0 + Duration::from_millis(900));
    let text = header_text(&m);
    assert!(
        text.contains("100 of 2,400 loaded so far │ fetching… (loading all: A stops)"),
        "{text}"
    );
    assert!(!text.contains("page"), "page numbers give way: {text}");
    assert!(!text.contains("waiting"), "{text}");
    // Twelve seconds on: the oldest request, its part, and the timeouts.
    tick(&mut m, t0 + Duration::from_secs(12));
    insta::assert_snapshot!("live_stalled_request", header_text(&m));
    let text = header_text(&m);
    assert!(
        text.contains("waiting 12 s for the client.join.failed events (and 1 other request)"),
        "{text}"
    );
    // The request lands: nothing waits.
    report(
        &mut m,
        Report::InFlight {
            query,
            requests: Vec::new(),
        },
    );
    assert!(!header_text(&m).contains("waiting"));
}

#[test]
fn a_rate_limit_counts_down_to_the_retry_and_loading_everything_goes_on_after_it() {
    use callscope::source::worker::{InFlight, Report, Retry};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading(t0);
    let query = m.session.live.as_ref().unwrap().query;
    run(&mut m, Command::LoadAll);
    report(
        &mut m,
        Report::InFlight {
            query,
            requests: vec![InFlight {
                part: "the error events (error=true)".into(),
                since: t0,
            }],
        },
    );
    report(
        &mut m,
        Report::Retrying {
            query,
            retry: Retry {
                attempt: 2,
                wait: Duration::from_secs(90),
                asked: true,
                gives_up_in: Duration::from_secs(29 * 60),
                reason: "HTTP 429: Too Many Requests (retry after 90 seconds)".into(),
                at: t0 + Duration::from_secs(1),
            },
        },
    );
    tick(&mut m, t0 + Duration::from_secs(9));
    insta::assert_snapshot!("live_rate_limit_countdown", header_text(&m));
    let text = header_text(&m);
    assert!(text.contains("retrying in 82 s"), "{text}");
    assert!(
        text.contains("the server asked to wait 90 s: next try in 82 s; loading every page goes on after it (A stops)"),
        "{text}"
    );
    assert!(m.session.live.as_ref().unwrap().loading_all);
    // A minute on, the count goes on down.
    tick(&mut m, t0 + Duration::from_secs(70));
    assert!(header_text(&m).contains("next try in 21 s"));
    // The wait over, the new try is on its way: how long it has waited counts from the end of
    // the wait.
    tick(&mut m, t0 + Duration::from_secs(95));
    let text = header_text(&m);
    assert!(text.contains("retrying now"), "{text}");
    assert!(
        text.contains("waiting 4 s for the error events (error=true)"),
        "{text}"
    );
}

/// The lines of the screen that carry the coverage note, and the header's first line.
fn coverage_lines(m: &Model, note: &str) -> String {
    let text = screen_text(draw(m).backend().buffer());
    let mut lines = vec![text.lines().next().unwrap().trim_end().to_string()];
    lines.extend(
        text.lines()
            .skip(1)
            .filter(|l| l.contains(note))
            .map(|l| l.trim_end().to_string()),
    );
    lines.join("\n")
}

#[test]
fn with_part_of_a_live_query_loaded_every_summary_says_what_it_covers() {
    let mut m = live_loading_at(std::time::Instant::now(), (140, 40));
    let note = "100 of 2,400 loaded: A loads all";
    let header = header_text(&m);
    assert!(header.contains(&format!("100 shown / {note}")), "{header}");
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::ToggleFacets);
    let groups = coverage_lines(&m, "100 of 2,400 loaded");
    // The header, the timeline, the groups in the list's place and the facets beside them.
    assert_eq!(groups.matches("100 of 2,400 loaded").count(), 4, "{groups}");
    insta::assert_snapshot!("coverage_live_groups_facets_timeline", groups);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowStory);
    let story = coverage_lines(&m, "100 of 2,400 loaded");
    assert!(story.matches("100 of 2,400 loaded").count() >= 2, "{story}");
    // Every page loaded: no note.
    let query = m.session.live.as_ref().unwrap().query;
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Finished { query }),
    );
    let live = m.session.live.as_mut().unwrap();
    live.next = Some(String::new());
    let text = screen_text(draw(&m).backend().buffer());
    assert!(!text.contains("loads all"), "{text}");
    // A follow mode refresh pages through the query again: nothing of it is missing.
    m.session.live.as_mut().unwrap().next = Some("more".into());
    assert!(m.session.live.as_ref().unwrap().complete);
    assert!(!header_text(&m).contains("of 2,400 loaded"));
    // On a narrow terminal the header still says it where a view's title leaves no room.
    let mut m = live_loading_at(std::time::Instant::now(), (80, 24));
    run(&mut m, Command::ShowGroups);
    assert!(header_text(&m).contains("100 of 2,400 loaded"));
}

#[test]
fn saved_pages_of_a_larger_answer_are_marked_as_part_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let events: Vec<Value> = (0..5)
        .map(|k| join_at(&format!("e{k}"), &format!("2026-11-18T10:0{k}:00Z")))
        .collect();
    let page = |events: &[Value], next: &str| {
        json!({"limit": events.len(), "total": 2400, "next": next, "events": events}).to_string()
    };
    std::fs::write(dir.path().join("page1.json"), page(&events[..3], "c:1~a=")).unwrap();
    std::fs::write(dir.path().join("page2.json"), page(&events[3..], "c:2~b=")).unwrap();
    let saved = callscope::source::pages::of_paths([
        dir.path().join("page1.json").as_path(),
        dir.path().join("page2.json").as_path(),
    ]);
    assert_eq!((saved.pages, saved.total), (2, Some(2400)));
    let mut m = loaded(
        SourceLabel::Files {
            count: 2,
            first: "page1.json".into(),
        },
        Filter::default(),
        (140, 30),
        vec![batch(&events)],
    );
    update(&mut m, Action::SavedPages(saved));
    let note = "5 of 2,400: the saved pages hold part of their query";
    run(&mut m, Command::ShowGroups);
    let lines = coverage_lines(&m, "5 of 2,400");
    assert!(lines.contains(&format!("5 shown / {note}")), "{lines}");
    // The header, the groups and their facets.
    assert_eq!(lines.matches("5 of 2,400").count(), 3, "{lines}");
    insta::assert_snapshot!("coverage_saved_pages", lines);
    // A dump of events (no envelope) says nothing of the kind.
    std::fs::write(
        dir.path().join("events.ndjson"),
        events.iter().map(|e| format!("{e}\n")).collect::<String>(),
    )
    .unwrap();
    assert_eq!(
        callscope::source::pages::of_file(&dir.path().join("events.ndjson")),
        None
    );
}

#[test]
fn filters_too_long_for_the_header_are_cut_visibly_after_the_order_gives_way() {
    let filter = Filter::default()
        .with(callscope::event::Field::Type, "client.disconnected")
        .with(callscope::event::Field::Code, "1003")
        .with(
            callscope::event::Field::ErrorName,
            "WebSocketConnectionLost",
        )
        .with(callscope::event::Field::Sdk, "android")
        .with(callscope::event::Field::SdkVersion, "2.9.47");
    // At 80 columns the order gives way and the filters are cut, saying so.
    let m = demo(filter.clone(), (80, 30));
    let line = row_text(draw(&m).backend().buffer(), 2);
    assert!(line.starts_with(" filters "), "the order gave way: {line}");
    assert!(line.contains("… (f shows them all)"), "{line}");
    assert!(line.contains("code=1003"), "{line}");
    // At 120, once the order has given way, every filter is whole.
    let m = demo(filter.clone(), (120, 30));
    let line = row_text(draw(&m).backend().buffer(), 2);
    assert!(line.starts_with(" filters "), "the order gave way: {line}");
    assert!(line.contains("sdk_version=2.9.47"), "{line}");
    let m = demo(filter, (200, 30));
    let line = row_text(draw(&m).backend().buffer(), 2);
    assert!(line.contains("sorted by time"), "{line}");
    assert!(line.contains("sdk_version=2.9.47"), "{line}");
    assert!(!line.contains("shows them all"), "{line}");
}

#[test]
fn a_query_run_again_that_fails_says_why_while_it_waits_to_retry() {
    use callscope::source::worker::{Report, Retry};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading_at(t0, (200, 12));
    run(&mut m, Command::Rerun);
    let query = m.session.live.as_ref().unwrap().query;
    report(
        &mut m,
        Report::Retrying {
            query,
            retry: Retry {
                attempt: 1,
                wait: Duration::from_secs(8),
                asked: false,
                gives_up_in: Duration::from_secs(120),
                reason: "cannot connect to 127.0.0.1:8097: connection refused".into(),
                at: t0,
            },
        },
    );
    tick(&mut m, t0 + Duration::from_secs(2));
    let text = header_text(&m);
    assert!(
        text.contains(
            "running again, retrying in 6 s: cannot connect to 127.0.0.1:8097: connection refused"
        ),
        "{text}"
    );
}

#[test]
fn a_narrow_facets_pane_gives_its_room_to_the_values() {
    // Beside the list on a 120-column terminal, an SDK and its version read whole.
    let mut m = demo(Filter::default(), (120, 40));
    run(&mut m, Command::ToggleFacets);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("sdk ("), "{text}");
    // The facets pane is right of the last border on a line; its values follow their share.
    let values: Vec<&str> = text
        .lines()
        .filter_map(|l| l.rsplit('│').next())
        .filter(|pane| pane.contains('%'))
        .collect();
    assert!(
        values
            .iter()
            .any(|v| v.contains("web 0.12.") && !v.contains("web 0.12.…")),
        "{values:?}"
    );
}
