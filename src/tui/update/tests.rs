use std::sync::Arc;

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

use super::*;
use crate::filter::Filter;
use crate::source::DumpProblem;
use crate::store::{Batch, BatchBuilder, Blob};
use crate::tui::model::{Selection, SourceLabel};
use crate::tui::view::layout::areas;

/// A batch of these events, one per line of one buffer.
fn batch(events: &[serde_json::Value]) -> Batch {
    Batch::of_objects(events.iter().map(|e| e.to_string())).expect("a test event is a JSON object")
}

/// An event of one of the five types; `n` makes the id, the time and the peer.
fn event(n: u32, kind: &str, room: &str, terminal: bool) -> serde_json::Value {
    json!({
        "version": "2.0",
        "id": format!("00000000-0000-4000-8000-{n:012x}"),
        "timestamp": format!("2026-11-18T10:{:02}:{:02}.000000001Z", n / 60 % 60, n % 60),
        "type": kind,
        "data": {
            "room_id": room,
            "room_name": format!("name-{room}"),
            "session_id": format!("session-{room}"),
            "peer_id": format!("peer-{n}"),
            "user_id": format!("user-{n}"),
            "user_name": format!("User {n}"),
            "error_code": 4005,
            "error_name": "ICEFailure",
            "error_message": format!("message {n}"),
            "is_terminal": terminal,
            "action": "JOIN",
        }
    })
}

const JOIN: &str = "client.join.failed";
const PUBLISH: &str = "client.publish.failed";
const SUBSCRIBE: &str = "client.subscribe.failed";

/// Ten events: 0..=9, joins at even numbers, publishes at odd ones; rooms alternate every two;
/// final when `n % 3 == 0`.
fn ten() -> Vec<serde_json::Value> {
    (0..10)
        .map(|n| {
            let kind = if n % 2 == 0 { JOIN } else { PUBLISH };
            let room = if n / 2 % 2 == 0 { "room-a" } else { "room-b" };
            event(n, kind, room, n % 3 == 0)
        })
        .collect()
}

fn model(width: u16, height: u16) -> Model {
    Model::new(SourceLabel::Demo, Filter::default(), width, height)
}

fn loaded(events: &[serde_json::Value]) -> Model {
    let mut m = model(140, 40);
    update(&mut m, Action::BatchLoaded(batch(events)));
    update(
        &mut m,
        Action::LoadFinished {
            problems: Vec::new(),
        },
    );
    m
}

fn demo(width: u16, height: u16) -> Model {
    let mut m = model(width, height);
    update(&mut m, Action::BatchLoaded(crate::source::demo::load()));
    update(
        &mut m,
        Action::LoadFinished {
            problems: Vec::new(),
        },
    );
    m
}

fn run(m: &mut Model, c: Command) -> Vec<Effect> {
    update(m, Action::Command(c))
}

fn type_text(m: &mut Model, text: &str) {
    for c in text.chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert!(update(m, Action::Input(TermEvent::Key(key))).is_empty());
    }
}

fn press(m: &mut Model, code: KeyCode, modifiers: KeyModifiers) {
    update(
        m,
        Action::Input(TermEvent::Key(KeyEvent::new(code, modifiers))),
    );
}

/// The `n` of every shown event, read back from its user id.
fn shown_numbers(m: &Model) -> Vec<u32> {
    m.shown
        .iter()
        .map(|&i| {
            let user = m.store.str(m.store.row(i as usize).user_id);
            user.trim_start_matches("user-").parse().unwrap()
        })
        .collect()
}

fn selected_number(m: &Model) -> Option<u32> {
    let i = m.selected_event()?;
    let user = m.store.str(m.store.row(i).user_id);
    Some(user.trim_start_matches("user-").parse().unwrap())
}

fn select(m: &mut Model, n: u32) {
    run(m, Command::Top);
    while selected_number(m) != Some(n) {
        let before = m.selection.selected;
        run(m, Command::Down);
        assert_ne!(before, m.selection.selected, "event {n} is not shown");
    }
}

fn assert_selection_visible(m: &Model) {
    // A terminal too small for any row still keeps the selection at the top of the list.
    let height = list_height(m).max(1);
    let s = &m.selection;
    assert!(
        s.offset <= s.selected && s.selected < s.offset + height,
        "selected {} outside rows {}..{}",
        s.selected,
        s.offset,
        s.offset + height
    );
}

#[test]
fn a_new_model_is_loading_and_shows_nothing() {
    let m = model(80, 24);
    assert_eq!(m.load, LoadState::Loading);
    assert!(m.shown.is_empty());
    assert_eq!(m.selected_event(), None);
    assert_eq!(m.mode, Mode::List);
}

#[test]
fn the_demo_batch_shows_every_event_and_finishing_makes_the_loader_idle() {
    let mut m = model(140, 40);
    // Freed memory is kept for the next batch while loading...
    assert!(update(&mut m, Action::BatchLoaded(crate::source::demo::load())).is_empty());
    assert_eq!(m.load, LoadState::Loading);
    assert_eq!(m.store.len(), 2400);
    assert_eq!(m.shown.len(), 2400);
    assert_eq!(m.selected_event(), Some(0));
    assert_eq!(m.after.as_ref().map(|(i, _)| *i), Some(0));
    // ...and goes back to the system once loading is done.
    assert!(matches!(
        update(
            &mut m,
            Action::LoadFinished {
                problems: Vec::new()
            }
        )
        .as_slice(),
        [Effect::ReleaseMemory]
    ));
    assert_eq!(m.load, LoadState::Idle);
    assert!(m.problems.is_empty());
}

#[test]
fn loaded_batches_append_only_the_events_that_match_the_filter() {
    let events = ten();
    let filter = Filter {
        types: vec![EventType::Join],
        ..Filter::default()
    };
    let mut m = Model::new(SourceLabel::Demo, filter, 140, 40);
    update(&mut m, Action::BatchLoaded(batch(&events[..5])));
    assert_eq!(shown_numbers(&m), [0, 2, 4]);
    update(&mut m, Action::BatchLoaded(batch(&events[5..])));
    assert_eq!(m.store.len(), 10);
    assert_eq!(shown_numbers(&m), [0, 2, 4, 6, 8]);
}

#[test]
fn a_batch_keeps_the_selected_event_selected() {
    let events = ten();
    let mut m = model(140, 40);
    update(&mut m, Action::BatchLoaded(batch(&events[..5])));
    select(&mut m, 3);
    update(&mut m, Action::BatchLoaded(batch(&events[5..])));
    assert_eq!(selected_number(&m), Some(3));
}

#[test]
fn an_event_loaded_twice_is_shown_once() {
    let events = ten();
    let mut m = model(140, 40);
    update(&mut m, Action::BatchLoaded(batch(&events[..6])));
    update(&mut m, Action::BatchLoaded(batch(&events[4..])));
    assert_eq!(shown_numbers(&m), (0..10).collect::<Vec<_>>());
    assert_eq!(m.store.duplicates(), 2);
}

#[test]
fn a_filter_on_a_room_not_loaded_yet_shows_its_events_when_they_arrive() {
    let filter = Filter {
        room: Some("room-late".into()),
        ..Filter::default()
    };
    let mut m = Model::new(SourceLabel::Demo, filter, 140, 40);
    update(&mut m, Action::BatchLoaded(batch(&ten())));
    assert!(m.shown.is_empty());
    update(
        &mut m,
        Action::BatchLoaded(batch(&[event(20, JOIN, "room-late", true)])),
    );
    assert_eq!(shown_numbers(&m), [20]);
}

#[test]
fn toggling_a_type_shows_only_that_type_and_toggling_it_again_shows_all() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ToggleJoin);
    assert_eq!(m.filter.types, [EventType::Join]);
    assert_eq!(shown_numbers(&m), [0, 2, 4, 6, 8]);
    run(&mut m, Command::TogglePublish);
    assert_eq!(m.filter.types, [EventType::Publish, EventType::Join]);
    assert_eq!(shown_numbers(&m), (0..10).collect::<Vec<_>>());
    run(&mut m, Command::ToggleJoin);
    assert_eq!(shown_numbers(&m), [1, 3, 5, 7, 9]);
    run(&mut m, Command::TogglePublish);
    assert!(m.filter.types.is_empty());
    assert_eq!(m.shown.len(), 10);
}

#[test]
fn each_digit_toggles_its_own_type() {
    for (k, t) in EventType::KNOWN.iter().enumerate() {
        let mut m = loaded(&ten());
        let toggle = Command::TYPE_TOGGLES[k];
        assert_eq!(toggle.toggled_type(), Some(k));
        run(&mut m, toggle);
        assert_eq!(m.filter.types, std::slice::from_ref(t));
    }
    assert_eq!(
        Command::TYPE_TOGGLES.len(),
        EventType::KNOWN.len(),
        "there is no sixth type to toggle"
    );
    assert_eq!(Command::Quit.toggled_type(), None);
}

#[test]
fn toggling_a_type_keeps_the_selected_event_when_it_is_still_shown() {
    let mut m = loaded(&ten());
    select(&mut m, 6);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(selected_number(&m), Some(6));
    assert_eq!(m.selection.selected, 3);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(selected_number(&m), Some(6));
    assert_eq!(m.selection.selected, 6);
}

#[test]
fn toggling_a_type_that_hides_the_selected_event_selects_the_next_shown_one() {
    let mut m = loaded(&ten());
    select(&mut m, 5);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(selected_number(&m), Some(6));
    select(&mut m, 8);
    run(&mut m, Command::ToggleJoin);
    run(&mut m, Command::TogglePublish);
    assert_eq!(selected_number(&m), Some(9));
    // Nothing shown after the hidden event: the last shown one.
    let mut m = loaded(&ten());
    select(&mut m, 9);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(selected_number(&m), Some(8));
}

#[test]
fn a_filter_that_hides_every_event_leaves_no_selection_and_the_list_focused() {
    let mut m = loaded(&ten());
    run(&mut m, Command::FocusDetail);
    assert_eq!(m.mode, Mode::Detail);
    run(&mut m, Command::ToggleSubscribe);
    assert!(m.shown.is_empty());
    assert_eq!(m.selected_event(), None);
    assert_eq!(m.after, None);
    assert_eq!(m.mode, Mode::List);
    for c in [
        Command::Down,
        Command::PageDown,
        Command::Bottom,
        Command::Top,
    ] {
        run(&mut m, c);
        assert_eq!(m.selection, Selection::default());
    }
    run(&mut m, Command::FocusDetail);
    assert_eq!(
        m.mode,
        Mode::List,
        "there is no event to show in the detail pane"
    );
}

#[test]
fn t_cycles_the_retry_status_through_final_retried_and_all() {
    let mut m = loaded(&ten());
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.filter.terminal, Some(true));
    assert_eq!(shown_numbers(&m), [0, 3, 6, 9]);
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.filter.terminal, Some(false));
    assert_eq!(shown_numbers(&m), [1, 2, 4, 5, 7, 8]);
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.filter.terminal, None);
    assert_eq!(m.shown.len(), 10);
}

#[test]
fn editing_filters_starts_at_the_room_input_and_search_at_the_search_input() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    assert_eq!(m.mode, Mode::Editing);
    assert_eq!(m.editor.as_ref().unwrap().focus, 0);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::EditSearch);
    assert_eq!(m.mode, Mode::Editing);
    assert_eq!(m.editor.as_ref().unwrap().focus, SEARCH_FIELD);
}

#[test]
fn typed_room_and_search_apply_as_filters() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    type_text(&mut m, "room-b");
    for _ in 0..SEARCH_FIELD {
        run(&mut m, Command::NextField);
    }
    type_text(&mut m, "MESSAGE 7");
    assert_eq!(m.filter, Filter::default(), "nothing applies before Enter");
    assert_eq!(m.shown.len(), 10);
    run(&mut m, Command::Apply);
    assert_eq!(m.mode, Mode::List);
    assert!(m.editor.is_none());
    assert_eq!(m.filter.room.as_deref(), Some("room-b"));
    assert_eq!(m.filter.search.as_deref(), Some("MESSAGE 7"));
    assert_eq!(shown_numbers(&m), [7]);
}

#[test]
fn session_peer_and_user_inputs_apply_as_their_filters() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    run(&mut m, Command::NextField);
    type_text(&mut m, "session-room-a");
    run(&mut m, Command::NextField);
    type_text(&mut m, "peer-4");
    run(&mut m, Command::NextField);
    type_text(&mut m, "user-4");
    run(&mut m, Command::Apply);
    assert_eq!(m.filter.session.as_deref(), Some("session-room-a"));
    assert_eq!(m.filter.peer.as_deref(), Some("peer-4"));
    assert_eq!(m.filter.user.as_deref(), Some("user-4"));
    assert_eq!(shown_numbers(&m), [4]);
}

#[test]
fn the_inputs_start_with_the_current_filters_and_an_emptied_input_clears_its_filter() {
    let mut m = loaded(&ten());
    m.filter.room = Some("room-a".into());
    m.filter.search = Some("message".into());
    refilter(&mut m);
    run(&mut m, Command::EditFilters);
    let editor = m.editor.as_ref().unwrap();
    assert_eq!(editor.inputs[0].value(), "room-a");
    assert_eq!(editor.inputs[SEARCH_FIELD].value(), "message");
    press(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    assert_eq!(m.editor.as_ref().unwrap().inputs[0].value(), "");
    run(&mut m, Command::Apply);
    assert_eq!(m.filter.room, None);
    assert_eq!(m.filter.search.as_deref(), Some("message"));
    assert_eq!(m.shown.len(), 10);
}

#[test]
fn backspace_and_cursor_keys_edit_the_focused_input() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditSearch);
    type_text(&mut m, "mesage");
    for _ in 0..3 {
        press(&mut m, KeyCode::Left, KeyModifiers::NONE);
    }
    type_text(&mut m, "s");
    press(&mut m, KeyCode::End, KeyModifiers::NONE);
    press(&mut m, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(
        m.editor.as_ref().unwrap().inputs[SEARCH_FIELD].value(),
        "messag"
    );
}

#[test]
fn inputs_cycle_forward_and_backward() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    run(&mut m, Command::PrevField);
    assert_eq!(m.editor.as_ref().unwrap().focus, FIELDS.len() - 1);
    run(&mut m, Command::NextField);
    assert_eq!(m.editor.as_ref().unwrap().focus, 0);
    run(&mut m, Command::NextField);
    type_text(&mut m, "s");
    assert_eq!(m.editor.as_ref().unwrap().inputs[1].value(), "s");
    assert_eq!(m.editor.as_ref().unwrap().inputs[0].value(), "");
}

#[test]
fn an_input_trims_spaces_and_blank_means_no_filter() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    type_text(&mut m, "  room-a ");
    run(&mut m, Command::NextField);
    type_text(&mut m, "   ");
    run(&mut m, Command::Apply);
    assert_eq!(m.filter.room.as_deref(), Some("room-a"));
    assert_eq!(m.filter.session, None);
}

#[test]
fn cancel_leaves_the_filters_and_the_shown_events_unchanged() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ToggleJoin);
    select(&mut m, 4);
    let filter = m.filter.clone();
    let shown = m.shown.clone();
    run(&mut m, Command::EditFilters);
    type_text(&mut m, "room-b");
    run(&mut m, Command::NextField);
    type_text(&mut m, "x");
    run(&mut m, Command::Cancel);
    assert_eq!(m.mode, Mode::List);
    assert!(m.editor.is_none());
    assert_eq!(m.filter, filter);
    assert_eq!(m.shown, shown);
    assert_eq!(selected_number(&m), Some(4));
    // The next edit starts from the filters, not from the cancelled text.
    run(&mut m, Command::EditFilters);
    assert_eq!(m.editor.as_ref().unwrap().inputs[0].value(), "");
}

#[test]
fn typing_outside_an_input_changes_nothing() {
    let mut m = loaded(&ten());
    type_text(&mut m, "room");
    assert!(m.editor.is_none());
    assert_eq!(m.filter, Filter::default());
}

#[test]
fn clear_filters_shows_every_event_again() {
    let mut m = loaded(&ten());
    run(&mut m, Command::TogglePublish);
    run(&mut m, Command::CycleTerminal);
    m.filter.room = Some("room-b".into());
    m.filter.code = Some(4005);
    refilter(&mut m);
    assert_eq!(shown_numbers(&m), [3]);
    run(&mut m, Command::ClearFilters);
    assert_eq!(m.filter, Filter::default());
    assert_eq!(m.shown.len(), 10);
    assert_eq!(selected_number(&m), Some(3));
}

#[test]
fn paging_moves_by_the_list_height_and_stops_at_both_ends() {
    let mut m = demo(140, 40);
    let page = list_height(&m);
    assert_eq!(page, areas(140, 40).list.height as usize - 2);
    run(&mut m, Command::PageDown);
    assert_eq!(m.selection.selected, page);
    run(&mut m, Command::PageDown);
    assert_eq!(m.selection.selected, 2 * page);
    assert_selection_visible(&m);
    run(&mut m, Command::PageUp);
    assert_eq!(m.selection.selected, page);
    run(&mut m, Command::PageUp);
    run(&mut m, Command::PageUp);
    assert_eq!(m.selection, Selection::default());
    run(&mut m, Command::Up);
    assert_eq!(m.selection.selected, 0);
    run(&mut m, Command::Bottom);
    assert_eq!(m.selection.selected, 2399);
    assert_eq!(m.selection.offset, 2400 - page);
    run(&mut m, Command::Down);
    run(&mut m, Command::PageDown);
    assert_eq!(m.selection.selected, 2399);
    run(&mut m, Command::Top);
    assert_eq!(m.selection, Selection::default());
}

#[test]
fn moving_the_selection_follows_it_with_the_list() {
    let mut m = demo(80, 24);
    let height = list_height(&m);
    for _ in 0..height {
        run(&mut m, Command::Down);
    }
    assert_eq!(m.selection.selected, height);
    assert_eq!(m.selection.offset, 1);
    for _ in 1..height {
        run(&mut m, Command::Up);
    }
    assert_eq!(
        m.selection,
        Selection {
            selected: 1,
            offset: 1
        }
    );
    run(&mut m, Command::Up);
    assert_eq!(m.selection, Selection::default());
}

#[test]
fn the_selection_stays_visible_when_the_terminal_shrinks_or_grows() {
    let mut m = demo(140, 40);
    for _ in 0..5 {
        run(&mut m, Command::PageDown);
    }
    let selected = m.selection.selected;
    for (w, h) in [(80, 24), (80, 12), (200, 60), (60, 8), (140, 40)] {
        update(
            &mut m,
            Action::Resize {
                width: w,
                height: h,
            },
        );
        assert_eq!((m.width, m.height), (w, h));
        assert_eq!(m.selection.selected, selected);
        assert_selection_visible(&m);
    }
    // At the end of the list, growing the terminal shows more rows above instead of empty ones.
    run(&mut m, Command::Bottom);
    update(
        &mut m,
        Action::Resize {
            width: 140,
            height: 60,
        },
    );
    assert_eq!(m.selection.offset, 2400 - list_height(&m));
}

#[test]
fn the_wheel_over_the_list_moves_the_selection() {
    let mut m = demo(140, 40);
    let list = areas(140, 40).list;
    update(
        &mut m,
        Action::Wheel {
            column: list.x + 5,
            row: list.y + 5,
            down: true,
        },
    );
    assert_eq!(m.selection.selected, 3);
    assert_eq!(m.detail_scroll, 0);
    update(
        &mut m,
        Action::Wheel {
            column: list.x + 5,
            row: list.y + 5,
            down: false,
        },
    );
    update(
        &mut m,
        Action::Wheel {
            column: list.x + 5,
            row: list.y + 5,
            down: false,
        },
    );
    assert_eq!(m.selection.selected, 0);
}

#[test]
fn the_wheel_over_the_detail_pane_scrolls_it_and_keeps_the_selection() {
    for (w, h) in [(140, 40), (80, 24)] {
        let mut m = demo(w, h);
        let detail = areas(w, h).detail;
        let (column, row) = (detail.x + 3, detail.y + 3);
        update(
            &mut m,
            Action::Wheel {
                column,
                row,
                down: true,
            },
        );
        update(
            &mut m,
            Action::Wheel {
                column,
                row,
                down: true,
            },
        );
        assert_eq!(m.detail_scroll, 6, "{w}x{h}");
        assert_eq!(m.selection.selected, 0);
        update(
            &mut m,
            Action::Wheel {
                column,
                row,
                down: false,
            },
        );
        assert_eq!(m.detail_scroll, 3);
        update(
            &mut m,
            Action::Wheel {
                column,
                row,
                down: false,
            },
        );
        update(
            &mut m,
            Action::Wheel {
                column,
                row,
                down: false,
            },
        );
        assert_eq!(m.detail_scroll, 0);
    }
}

#[test]
fn the_wheel_over_the_header_or_the_hint_bar_does_nothing() {
    let mut m = demo(140, 40);
    let a = areas(140, 40);
    update(
        &mut m,
        Action::Wheel {
            column: 3,
            row: a.header.y + 1,
            down: true,
        },
    );
    update(
        &mut m,
        Action::Wheel {
            column: 3,
            row: a.footer.y,
            down: true,
        },
    );
    assert_eq!(m.selection, Selection::default());
    assert_eq!(m.detail_scroll, 0);
}

#[test]
fn a_new_selection_starts_the_detail_pane_at_its_top() {
    let mut m = demo(140, 40);
    let detail = areas(140, 40).detail;
    update(
        &mut m,
        Action::Wheel {
            column: detail.x + 2,
            row: detail.y + 2,
            down: true,
        },
    );
    assert_eq!(m.detail_scroll, 3);
    run(&mut m, Command::Down);
    assert_eq!(m.detail_scroll, 0);
}

#[test]
fn in_the_detail_pane_the_moving_keys_scroll_it_instead_of_moving_the_selection() {
    let mut m = demo(140, 40);
    run(&mut m, Command::Down);
    run(&mut m, Command::FocusDetail);
    assert_eq!(m.mode, Mode::Detail);
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    assert_eq!(m.detail_scroll, 2);
    run(&mut m, Command::Up);
    assert_eq!(m.detail_scroll, 1);
    run(&mut m, Command::Top);
    assert_eq!(m.detail_scroll, 0);
    run(&mut m, Command::PageDown);
    assert_eq!(m.detail_scroll as usize, list_height(&m));
    assert_eq!(m.selection.selected, 1);
    run(&mut m, Command::FocusList);
    assert_eq!(m.mode, Mode::List);
    run(&mut m, Command::Down);
    assert_eq!(m.selection.selected, 2);
}

#[test]
fn after_the_end_of_the_detail_pane_one_line_up_scrolls_up_at_once() {
    for (w, h) in [(140, 40), (80, 24)] {
        let mut m = demo(w, h);
        run(&mut m, Command::Down);
        run(&mut m, Command::FocusDetail);
        run(&mut m, Command::Bottom);
        let end = m.detail_scroll;
        assert!(end > 0 && end < u16::MAX / 2, "{end}");
        assert_eq!(end, max_scroll(&m));
        run(&mut m, Command::Down);
        run(&mut m, Command::PageDown);
        assert_eq!(m.detail_scroll, end, "scrolling stops at the end");
        run(&mut m, Command::Up);
        assert_eq!(m.detail_scroll, end - 1);
        let detail = areas(w, h).detail;
        for _ in 0..100 {
            update(
                &mut m,
                Action::Wheel {
                    column: detail.x + 1,
                    row: detail.y + 1,
                    down: true,
                },
            );
        }
        assert_eq!(m.detail_scroll, end);
        update(
            &mut m,
            Action::Wheel {
                column: detail.x + 1,
                row: detail.y + 1,
                down: false,
            },
        );
        assert_eq!(m.detail_scroll, end - 3);
    }
}

#[test]
fn shrinking_the_terminal_keeps_the_detail_scroll_within_the_pane() {
    let mut m = demo(140, 40);
    run(&mut m, Command::FocusDetail);
    run(&mut m, Command::Bottom);
    update(
        &mut m,
        Action::Resize {
            width: 200,
            height: 60,
        },
    );
    assert_eq!(m.detail_scroll, max_scroll(&m));
}

#[test]
fn quit_returns_the_quit_effect_from_any_mode() {
    for setup in [
        None,
        Some(Command::FocusDetail),
        Some(Command::ToggleHelp),
        Some(Command::EditSearch),
    ] {
        let mut m = demo(80, 24);
        if let Some(c) = setup {
            run(&mut m, c);
        }
        assert_eq!(run(&mut m, Command::Quit), [Effect::Quit]);
        assert!(m.quit);
    }
}

#[test]
fn no_other_command_asks_to_quit() {
    let mut m = demo(80, 24);
    for c in [
        Command::Down,
        Command::FocusDetail,
        Command::FocusList,
        Command::ToggleSubscribe,
        Command::CycleTerminal,
        Command::ClearFilters,
        Command::ToggleHelp,
        Command::ToggleHelp,
        Command::EditFilters,
        Command::NextField,
        Command::PrevField,
        Command::Apply,
    ] {
        assert!(run(&mut m, c).is_empty(), "{c:?}");
    }
    assert!(!m.quit);
}

#[test]
fn help_opens_over_the_list_and_closes_back_to_it() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::Help);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::List);
}

#[test]
fn help_opened_from_the_detail_pane_returns_to_the_detail_pane() {
    let mut m = demo(80, 24);
    run(&mut m, Command::FocusDetail);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::Help);
    assert_eq!(m.mode_before_help, Mode::Detail);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::Detail);
}

#[test]
fn load_problems_are_kept_and_the_events_read_before_them_stay_shown() {
    let problem = |message: &str| DumpProblem {
        path: "incident.json".into(),
        position: Some((3, 17)),
        message: message.into(),
    };
    let mut m = model(140, 40);
    update(&mut m, Action::BatchLoaded(batch(&ten()[..2])));
    update(
        &mut m,
        Action::LoadFinished {
            problems: vec![problem("expected `,` or `}`")],
        },
    );
    assert_eq!(m.load, LoadState::Idle);
    assert_eq!(m.problems, [problem("expected `,` or `}`")]);
    assert_eq!(m.shown.len(), 2);
    update(
        &mut m,
        Action::LoadFinished {
            problems: vec![problem("second")],
        },
    );
    assert_eq!(
        m.problems.len(),
        2,
        "a later report adds to the earlier one"
    );
}

#[test]
fn the_story_follows_the_selected_event() {
    let chain = [
        event(1, SUBSCRIBE, "r", false),
        event(2, SUBSCRIBE, "r", false),
        event(3, SUBSCRIBE, "r", true),
    ];
    let same_peer = |mut e: serde_json::Value| {
        e["data"]["peer_id"] = json!("peer-x");
        e
    };
    let chain: Vec<_> = chain.into_iter().map(same_peer).collect();
    let mut m = loaded(&chain);
    let (i, after) = m.after.clone().unwrap();
    assert_eq!(i, 0);
    assert_eq!((after.earlier, after.later), (0, 2));
    assert!(after.final_at.is_some());
    run(&mut m, Command::Bottom);
    let (i, after) = m.after.clone().unwrap();
    assert_eq!(i, 2);
    assert_eq!((after.earlier, after.later), (2, 0));
}

#[test]
fn a_batch_arriving_later_extends_the_story_of_the_selected_event() {
    let mut first = event(1, JOIN, "r", false);
    let mut second = event(2, JOIN, "r", true);
    first["data"]["peer_id"] = json!("peer-x");
    second["data"]["peer_id"] = json!("peer-x");
    let mut m = loaded(&[first]);
    assert_eq!(m.after.as_ref().unwrap().1.later, 0);
    update(&mut m, Action::BatchLoaded(batch(&[second])));
    assert_eq!(m.after.as_ref().unwrap().1.later, 1);
}

/// A track event of the same peer as `event(n, ..)`; such events report successes, not errors.
fn track_event(n: u32, peer: &str) -> serde_json::Value {
    json!({
        "version": "2.0",
        "id": format!("00000000-0000-4000-9000-{n:012x}"),
        "timestamp": format!("2026-11-18T11:00:{:02}.000000001Z", n % 60),
        "type": "track.add.success",
        "data": {"room_id": "r", "peer_id": peer, "track_id": format!("track-{n}")}
    })
}

#[test]
fn events_outside_the_five_error_types_are_not_counted_as_errors_of_a_chain() {
    let mut join = event(1, JOIN, "r", false);
    join["data"]["peer_id"] = json!("peer-x");
    join["data"].as_object_mut().unwrap().remove("action");
    let m = loaded(&[join, track_event(2, "peer-x"), track_event(3, "peer-x")]);
    assert_eq!(m.after.as_ref().unwrap().1.later, 0, "after the join");
    let after = After::of(&m.store, 1);
    assert_eq!((after.earlier, after.later), (0, 0), "around a track event");
}

#[test]
fn an_error_at_the_same_time_loaded_earlier_counts_as_earlier() {
    let mut first = event(1, JOIN, "r", false);
    let mut second = event(2, JOIN, "r", true);
    first["data"]["peer_id"] = json!("peer-x");
    second["data"]["peer_id"] = json!("peer-x");
    second["timestamp"] = first["timestamp"].clone();
    let mut m = loaded(&[first, second]);
    assert_eq!(m.after.as_ref().unwrap().1.later, 1);
    run(&mut m, Command::Down);
    let (i, after) = m.after.clone().unwrap();
    assert_eq!(i, 1);
    assert_eq!((after.earlier, after.later), (1, 0));
}

#[test]
fn a_paste_is_typed_into_the_focused_input_without_its_control_characters() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditSearch);
    update(
        &mut m,
        Action::Input(TermEvent::Paste("ICE\nDisc\tonnected\u{1b}".into())),
    );
    let editor = m.editor.as_ref().expect("editing");
    assert_eq!(editor.inputs[SEARCH_FIELD].value(), "ICEDisconnected");
    assert_eq!(
        m.mode,
        Mode::Editing,
        "a pasted newline does not apply the filter"
    );
}

#[test]
fn enter_on_a_group_shows_its_events_and_backspace_restores_the_filter_before() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    assert_eq!(m.mode, Mode::Groups);
    let top = m.groups.as_ref().unwrap().groups.group(0);
    run(&mut m, Command::Apply);
    assert_eq!(m.mode, Mode::List);
    assert_eq!(m.shown.len(), top.count as usize);
    let key = crate::cli::GroupKey::Error;
    assert!(
        m.shown
            .iter()
            .all(|&i| top.value.matches(key, m.store.row(i as usize)))
    );
    run(&mut m, Command::PopFilter);
    assert_eq!(m.shown.len(), m.store.len());
    assert!(m.filter.group.is_none());
}

#[test]
fn the_groups_key_and_order_can_be_switched() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::NextGroupKey);
    let g = m.groups.as_ref().unwrap();
    assert_eq!(g.key, crate::cli::GroupKey::Sdk);
    let counts: Vec<u32> = g.groups.iter().map(|g| g.count).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "sorted by count");
    run(&mut m, Command::ToggleGroupSort);
    let g = m.groups.as_ref().unwrap();
    let last: Vec<i64> = g
        .groups
        .iter()
        .map(|g| g.last_seen.unwrap_or(i64::MIN))
        .collect();
    assert!(last.windows(2).all(|w| w[0] >= w[1]), "sorted by last seen");
    run(&mut m, Command::Cancel);
    assert_eq!(m.mode, Mode::List);
    assert!(m.groups.is_none());
}

#[test]
fn the_selected_group_stays_selected_when_the_order_changes() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    // Group by peer: many groups, ordered differently by count and by last seen.
    run(&mut m, Command::PrevGroupKey);
    assert_eq!(m.groups.as_ref().unwrap().key, crate::cli::GroupKey::Peer);
    // Mid-screen: a row that scrolling alone would not keep the selection on.
    for _ in 0..50 {
        run(&mut m, Command::Down);
    }
    for _ in 0..10 {
        run(&mut m, Command::Up);
    }
    let page = crate::tui::update::list_height(&m);
    let at = |m: &Model| {
        let g = m.groups.as_ref().unwrap();
        (g.groups.group(g.selected).value, g.selected, g.offset)
    };
    let (value, first, offset) = at(&m);
    let row = first - offset;
    assert!(row > 0 && row + 1 < page, "row {row} of {page}");
    let groups = m.groups.as_ref().unwrap().groups.len();
    let mut places = vec![first];
    let mut rows_kept = 0;
    for round in 0..2 {
        run(&mut m, Command::ToggleGroupSort);
        let (now, selected, offset) = at(&m);
        assert_eq!(now, value, "round {round}");
        assert!(
            offset <= selected && selected < offset + page,
            "round {round}"
        );
        // On the same row, unless that would leave rows above the first group or below the last.
        if selected >= row && selected - row + page <= groups {
            assert_eq!(
                selected - offset,
                row,
                "the same row of the screen, round {round}"
            );
            rows_kept += 1;
        }
        places.push(selected);
    }
    assert!(rows_kept > 0, "no round where the row could be kept");
    // The group moved in the other order, and back.
    assert_ne!(places[1], first);
    assert_eq!(places[2], first);
}

#[test]
fn a_group_moved_near_the_end_by_a_new_order_leaves_no_empty_rows_below_it() {
    use crate::cli::{GroupKey, GroupSort};
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::PrevGroupKey);
    let page = crate::tui::update::list_height(&m);
    // A group on the first screen by last seen that sorts among the last by count.
    run(&mut m, Command::ToggleGroupSort);
    let by_count =
        crate::insight::Groups::compute(&m.store, &m.shown, GroupKey::Peer, GroupSort::Count);
    let g = m.groups.as_ref().unwrap();
    let len = g.groups.len();
    assert!(len > 2 * page);
    let k = (0..page)
        .find(|&k| by_count.position(&g.groups.group(k).value).unwrap() >= len - page / 2)
        .expect("such a group in the demo");
    run(&mut m, Command::Top);
    for _ in 0..k {
        run(&mut m, Command::Down);
    }
    run(&mut m, Command::ToggleGroupSort);
    let g = m.groups.as_ref().unwrap();
    assert!(g.selected >= len - page / 2);
    assert_eq!(g.offset, len - page, "the last page, full");
}

#[test]
fn the_story_of_a_peer_holds_every_loaded_event_of_that_peer() {
    let mut m = demo(140, 40);
    let priya = m
        .store
        .strings()
        .lookup(crate::generator::PRIYA_PEER_ID)
        .unwrap();
    let k = m
        .shown
        .iter()
        .position(|&i| m.store.row(i as usize).peer_id == priya)
        .unwrap();
    m.selection.selected = k;
    run(&mut m, Command::ShowStory);
    assert_eq!(m.mode, Mode::Story);
    let story = m.story.as_ref().unwrap();
    let events = story
        .lines
        .iter()
        .filter(|l| matches!(l, crate::tui::model::StoryLine::Event(_)))
        .count();
    let loaded = m.store.rows().iter().filter(|r| r.peer_id == priya).count();
    assert_eq!(events, loaded);
    assert_eq!(story.story.chains.len(), 1);
    assert!(story.story.chains[0].ending.gave_up());
    // The detail pane follows the story's selection.
    run(&mut m, Command::Down);
    assert!(
        m.focused_event()
            .is_some_and(|i| m.store.row(i).peer_id == priya)
    );
    run(&mut m, Command::Cancel);
    assert!(m.story.is_none());
    assert_eq!(m.mode, Mode::List);
}

#[test]
fn a_range_picked_on_the_timeline_becomes_since_and_until() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleTimeline);
    assert_eq!(m.mode, Mode::Timeline);
    let tl = m.timeline.as_ref().unwrap();
    assert!(!tl.timeline.buckets.is_empty());
    run(&mut m, Command::Top);
    run(&mut m, Command::MarkStart);
    run(&mut m, Command::Right);
    run(&mut m, Command::Right);
    let (since, until) = {
        let tl = m.timeline.as_ref().unwrap();
        tl.timeline.range(tl.anchor.unwrap(), tl.cursor).unwrap()
    };
    run(&mut m, Command::Apply);
    assert_eq!(m.filter.since.as_ref().map(|t| t.nanos), Some(since));
    assert_eq!(m.filter.until.as_ref().map(|t| t.nanos), Some(until));
    assert!(!m.shown.is_empty());
    assert!(
        m.shown
            .iter()
            .all(|&i| (since..=until).contains(&m.store.row(i as usize).ts))
    );
    run(&mut m, Command::PopFilter);
    assert!(m.filter.since.is_none());
}

#[test]
fn the_timeline_is_counted_again_for_a_new_width() {
    let mut m = demo(40, 15);
    run(&mut m, Command::ToggleTimeline);
    let narrow = m.timeline.as_ref().unwrap().timeline.buckets.len();
    update(
        &mut m,
        Action::Resize {
            width: 140,
            height: 40,
        },
    );
    let wide = m.timeline.as_ref().unwrap().timeline.buckets.len();
    assert!(
        wide > narrow * 2,
        "{narrow} buckets at 40 columns, {wide} at 140"
    );
    // The same as opening it at that size.
    let mut fresh = demo(140, 40);
    run(&mut fresh, Command::ToggleTimeline);
    assert_eq!(
        wide,
        fresh.timeline.as_ref().unwrap().timeline.buckets.len()
    );
}

#[test]
fn a_range_marked_on_the_timeline_keeps_its_times_through_a_resize() {
    let mut m = demo(40, 15);
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Top);
    for _ in 0..10 {
        run(&mut m, Command::Right);
    }
    run(&mut m, Command::MarkStart);
    for _ in 0..5 {
        run(&mut m, Command::Right);
    }
    let at = |m: &Model| {
        let tl = m.timeline.as_ref().unwrap();
        let start = |k: usize| tl.timeline.buckets[k].start;
        (
            start(tl.anchor.unwrap()),
            start(tl.cursor),
            tl.timeline.step,
        )
    };
    let (anchor, cursor, step) = at(&m);
    update(
        &mut m,
        Action::Resize {
            width: 200,
            height: 50,
        },
    );
    // Shorter buckets now: each end is in the bucket that holds the time it was on.
    let (anchor_after, cursor_after, step_after) = at(&m);
    assert!(step_after < step, "{step} {step_after}");
    for (before, after) in [(anchor, anchor_after), (cursor, cursor_after)] {
        assert!(
            after <= before && before < after + step_after,
            "{before} {after}"
        );
    }
}

#[test]
fn follow_mode_needs_a_live_source() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleFollow);
    assert!(m.follow.is_none());
    assert!(m.status.as_deref().unwrap_or("").contains("live"));
}

#[test]
fn a_follow_tick_runs_the_query_again_keeping_what_is_loaded_and_counts_new_events() {
    let mut m = loaded(&ten());
    m.live = Some(crate::tui::model::Live::new("http://127.0.0.1:1".into()));
    // Every page of the query loaded.
    m.live.as_mut().unwrap().fetch = Fetch::Done;
    m.live.as_mut().unwrap().complete = true;
    run(&mut m, Command::ToggleFollow);
    assert!(m.follow.is_some());
    let before = m.store.len();
    let effects = update(&mut m, Action::FollowTick);
    let id = m.live.as_ref().unwrap().query;
    assert_eq!(
        effects,
        vec![
            Effect::Worker(worker::Command::Query {
                id,
                filter: m.filter.clone()
            }),
            Effect::Worker(worker::Command::LoadAll { id }),
        ]
    );
    assert_eq!(m.store.len(), before, "a refresh keeps what is loaded");
    // A page with one new event and one known one.
    let mut events = ten();
    events.truncate(1);
    events.push(event(99, "client.join.failed", "r9", false));
    let page = crate::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "n".into(),
        total: None,
    };
    update(&mut m, Action::Live(Report::Page { query: id, page }));
    assert_eq!(m.follow.as_ref().unwrap().new_events, 1);
    assert_eq!(m.store.len(), before + 1);
    // A page with nothing new does not end the refresh: the service promises no order, and
    // a later page may hold new events.
    let page = crate::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "n2".into(),
        total: None,
    };
    let effects = update(&mut m, Action::Live(Report::Page { query: id, page }));
    assert_eq!(effects, vec![]);
    assert!(m.follow.as_ref().unwrap().refreshing);
    let mut later = ten();
    later.truncate(2);
    later.push(event(98, "client.join.failed", "r9", false));
    let page = crate::source::api::Page {
        batch: Box::new(batch(&later)),
        next: String::new(),
        total: None,
    };
    update(&mut m, Action::Live(Report::Page { query: id, page }));
    update(&mut m, Action::Live(Report::Finished { query: id }));
    let follow = m.follow.as_ref().unwrap();
    assert!(!follow.refreshing);
    assert_eq!(follow.new_events, 2);
    assert_eq!(m.live.as_ref().unwrap().fetch, Fetch::Done);
    // What the refresh fetched again is no duplicate of the data.
    let live = m.live.as_ref().unwrap();
    assert_eq!(m.store.duplicates(), live.refetched);
    assert_eq!(live.refetched, 1 + 2 + 2);
}

fn click(m: &mut Model, column: u16, row: u16) -> Vec<Effect> {
    update(m, Action::Click { column, row })
}

fn wheel_at(m: &mut Model, column: u16, row: u16, down: bool) {
    update(m, Action::Wheel { column, row, down });
}

/// The screen line of the list's `k`-th visible row.
fn list_row((width, height): (u16, u16), k: u16) -> u16 {
    areas(width, height).list.y + crate::tui::view::layout::TABLE_FIRST_ROW + k
}

#[test]
fn a_click_on_a_list_row_selects_that_event() {
    for (w, h) in [(140, 40), (80, 24)] {
        let mut m = demo(w, h);
        let x = areas(w, h).list.x + 4;
        click(&mut m, x, list_row((w, h), 3));
        assert_eq!(m.selection.selected, 3, "{w}x{h}");
        assert_eq!(m.mode, Mode::List);
        run(&mut m, Command::PageDown);
        let offset = m.selection.offset;
        click(&mut m, x, list_row((w, h), 1));
        assert_eq!(m.selection.selected, offset + 1, "{w}x{h}");
    }
}

#[test]
fn a_click_below_the_last_event_or_on_the_column_titles_keeps_the_selection() {
    let mut m = loaded(&ten());
    run(&mut m, Command::Down);
    let list = areas(140, 40).list;
    click(&mut m, list.x + 4, list_row((140, 40), 20));
    assert_eq!(m.selection.selected, 1);
    click(&mut m, list.x + 4, list.y + 1);
    assert_eq!(m.selection.selected, 1);
}

#[test]
fn a_click_on_the_detail_pane_focuses_it_and_a_click_on_the_list_focuses_the_list() {
    let mut m = demo(140, 40);
    let a = areas(140, 40);
    click(&mut m, a.detail.x + 5, a.detail.y + 5);
    assert_eq!(m.mode, Mode::Detail);
    assert_eq!(m.selection.selected, 0, "the selection stays");
    click(&mut m, a.list.x + 4, list_row((140, 40), 2));
    assert_eq!(m.mode, Mode::List);
    assert_eq!(m.selection.selected, 2);
}

#[test]
fn a_click_on_an_empty_detail_pane_leaves_the_keyboard_on_the_list() {
    let mut m = model(140, 40);
    let detail = areas(140, 40).detail;
    click(&mut m, detail.x + 5, detail.y + 5);
    assert_eq!(m.mode, Mode::List);
}

#[test]
fn clicks_while_typing_or_in_the_help_change_nothing() {
    for setup in [Command::EditFilters, Command::ToggleHelp] {
        let mut m = demo(140, 40);
        run(&mut m, setup);
        let mode = m.mode;
        let list = areas(140, 40).list;
        click(&mut m, list.x + 4, list_row((140, 40), 3));
        assert_eq!(m.mode, mode, "{setup:?}");
        assert_eq!(m.selection.selected, 0, "{setup:?}");
    }
}

#[test]
fn a_click_on_a_group_selects_it_and_the_wheel_moves_through_the_groups() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let list = areas(140, 40).list;
    click(&mut m, list.x + 4, list_row((140, 40), 2));
    assert_eq!(m.groups.as_ref().unwrap().selected, 2);
    assert_eq!(m.mode, Mode::Groups);
    assert_eq!(m.selection.selected, 0, "the hidden list does not move");
    wheel_at(&mut m, list.x + 4, list.y + 5, true);
    assert_eq!(m.groups.as_ref().unwrap().selected, 5);
    wheel_at(&mut m, list.x + 4, list.y + 5, false);
    wheel_at(&mut m, list.x + 4, list.y + 5, false);
    assert_eq!(m.groups.as_ref().unwrap().selected, 0);
    assert_eq!(m.selection.selected, 0);
}

/// The demo with Priya's story open.
fn priya_story() -> Model {
    let mut m = demo(140, 40);
    let priya = m
        .store
        .strings()
        .lookup(crate::generator::PRIYA_PEER_ID)
        .unwrap();
    m.selection.selected = m
        .shown
        .iter()
        .position(|&i| m.store.row(i as usize).peer_id == priya)
        .unwrap();
    run(&mut m, Command::ShowStory);
    m
}

#[test]
fn a_click_on_a_story_line_selects_it_and_the_wheel_moves_through_the_story() {
    let mut m = priya_story();
    let list = areas(140, 40).list;
    let first = list.y + crate::tui::view::layout::STORY_FIRST_ROW;
    let offset = m.story.as_ref().unwrap().offset;
    click(&mut m, list.x + 4, first + 3);
    let s = m.story.as_ref().unwrap();
    assert_eq!(s.selected, offset + 3);
    assert_eq!(m.mode, Mode::Story);
    let selected = s.selected;
    wheel_at(&mut m, list.x + 4, first + 3, true);
    assert_eq!(m.story.as_ref().unwrap().selected, selected + 3);
    wheel_at(&mut m, list.x + 4, first + 3, false);
    assert_eq!(m.story.as_ref().unwrap().selected, selected);
    assert!(
        m.focused_event().is_some(),
        "the detail pane shows the line's event"
    );
}

#[test]
fn the_wheel_scrolls_the_help_wherever_the_pointer_is_and_stops_at_its_end() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    wheel_at(&mut m, 0, 0, true);
    assert_eq!(m.help_scroll, 3);
    let max = crate::tui::view::help::max_scroll(&m);
    assert!(max > 10, "the help is taller than a small terminal");
    for _ in 0..100 {
        wheel_at(&mut m, 40, 12, true);
    }
    assert_eq!(m.help_scroll, max);
    wheel_at(&mut m, 40, 12, false);
    assert_eq!(m.help_scroll, max - 3, "scrolling back up moves at once");
    assert_eq!(m.selection.selected, 0);
}

#[test]
fn a_click_on_the_timeline_moves_its_cursor_there_and_gives_it_the_keyboard() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Cancel);
    assert_eq!(m.mode, Mode::List);
    let strip = crate::tui::view::layout::areas_of(&m).timeline;
    click(&mut m, strip.x + 7, strip.y + 3);
    assert_eq!(m.mode, Mode::Timeline);
    assert_eq!(m.timeline.as_ref().unwrap().cursor, 7);
}

fn copied(effects: Vec<Effect>) -> (String, String) {
    match effects.as_slice() {
        [Effect::Copy { text, what }] => (text.clone(), what.clone()),
        other => panic!("expected one copy, got {other:?}"),
    }
}

#[test]
fn y_copies_the_selected_events_json_on_one_line_and_the_status_confirms() {
    let pretty = serde_json::to_string_pretty(&event(4, JOIN, "room-a", true)).unwrap();
    let mut m = model(140, 40);
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(pretty.clone().into_bytes())));
    builder.push(0, pretty.len()).unwrap();
    update(&mut m, Action::BatchLoaded(builder.finish()));
    let (text, what) = copied(run(&mut m, Command::CopyJson));
    assert!(!text.contains('\n') && !text.contains("  "), "{text}");
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, event(4, JOIN, "room-a", true));
    assert_eq!(what, format!("{} bytes of JSON", text.len()));
    update(&mut m, Action::Copied(Ok(what.clone())));
    assert_eq!(
        m.status.as_deref(),
        Some(format!("copied {what} to the clipboard").as_str())
    );
}

#[test]
fn shift_y_copies_the_event_id_and_in_a_story_the_peer_id() {
    let mut m = loaded(&ten());
    select(&mut m, 2);
    let (text, what) = copied(run(&mut m, Command::CopyId));
    assert_eq!(text, "00000000-0000-4000-8000-000000000002");
    assert_eq!(what, format!("the event id {text}"));
    let mut m = priya_story();
    let (text, what) = copied(run(&mut m, Command::CopyId));
    assert_eq!(text, crate::generator::PRIYA_PEER_ID);
    assert!(what.starts_with("the peer id "), "{what}");
    // y in a story copies the event the detail pane shows.
    let (json, _) = copied(run(&mut m, Command::CopyJson));
    let i = m.focused_event().unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&json).unwrap(),
        serde_json::from_slice::<serde_json::Value>(m.store.raw(i)).unwrap()
    );
}

#[test]
fn with_redaction_on_the_copied_json_holds_no_user_name_or_id() {
    let mut m = loaded(&ten());
    m.redact = true;
    select(&mut m, 3);
    let (text, what) = copied(run(&mut m, Command::CopyJson));
    assert!(
        !text.contains("User 3") && !text.contains("user-3"),
        "{text}"
    );
    assert!(
        text.contains("user-0001") && text.contains("uid-0001"),
        "{text}"
    );
    assert!(what.contains("redacted JSON"), "{what}");
}

#[test]
fn copying_with_nothing_selected_says_so_and_copies_nothing() {
    let mut m = model(80, 24);
    for c in [Command::CopyJson, Command::CopyId] {
        assert!(run(&mut m, c).is_empty());
        assert!(m.status.as_deref().unwrap().contains("nothing to copy"));
    }
}

#[test]
fn a_failed_copy_is_reported_in_the_status_line() {
    let mut m = demo(80, 24);
    update(&mut m, Action::Copied(Err("closed".into())));
    assert_eq!(m.status.as_deref(), Some("copy failed: closed"));
}

#[test]
fn a_failed_save_says_first_that_nothing_was_lost() {
    let mut m = demo(80, 24);
    update(
        &mut m,
        Action::Saved(Err("out.json: No space left on device (os error 28)".into())),
    );
    assert_eq!(
        m.status.as_deref(),
        Some("not saved, nothing lost: out.json: No space left on device (os error 28)")
    );
}

#[test]
fn the_replace_question_names_the_keys_in_force() {
    let mut m = demo(80, 24);
    m.keymap = crate::tui::keymap::Keymap::with_overrides(
        &[("yes".to_string(), vec!["r".to_string()])].into(),
        &Default::default(),
    )
    .unwrap();
    update(
        &mut m,
        Action::SaveNeedsConfirm {
            path: "out.json".into(),
        },
    );
    assert_eq!(
        m.status.as_deref(),
        Some("out.json exists: replace it? (r/n)")
    );
}

#[test]
fn the_facets_follow_the_selected_group_and_close_with_the_view() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let first = m
        .facet_panel
        .as_ref()
        .expect("facets of the first group")
        .title
        .clone();
    assert!(first.starts_with("facets of join 500"), "{first}");
    run(&mut m, Command::Down);
    let second = m.facet_panel.as_ref().unwrap();
    assert_ne!(second.title, first);
    let g = m.groups.as_ref().unwrap();
    let total: u32 = second.facets[0].top.iter().map(|(_, n)| n).sum();
    assert!(total <= g.groups.group(1).count && second.facets[0].total == g.groups.group(1).count);
    run(&mut m, Command::Cancel);
    assert!(m.facet_panel.is_none());
    run(&mut m, Command::ToggleFacets);
    assert_eq!(
        m.facet_panel.as_ref().unwrap().facets[0].total as usize,
        m.shown.len()
    );
}

/// One follow mode refresh that brings `events` in one page, to the query's end.
fn refresh_with(m: &mut Model, events: &[serde_json::Value]) {
    update(m, Action::FollowTick);
    let query = m.live.as_ref().unwrap().query;
    let page = crate::source::api::Page {
        batch: Box::new(batch(events)),
        next: String::new(),
        total: None,
    };
    update(m, Action::Live(Report::Page { query, page }));
    update(m, Action::Live(Report::Finished { query }));
}

#[test]
fn a_refresh_of_a_query_not_yet_loaded_whole_counts_nothing_new_then_the_next_does() {
    let mut m = loaded(&ten());
    m.live = Some(crate::tui::model::Live::new("http://127.0.0.1:1".into()));
    // One page of several loaded: what a refresh adds may be old events never loaded.
    m.live.as_mut().unwrap().next = Some("more".into());
    run(&mut m, Command::ToggleFollow);
    refresh_with(&mut m, &[event(50, "client.join.failed", "r1", false)]);
    let follow = m.follow.as_ref().unwrap();
    assert_eq!((follow.new_events, follow.new_from), (0, None));
    assert_eq!(m.store.len(), 11, "the refresh completed what is loaded");
    // Loaded whole now: the next refresh's additions are new.
    refresh_with(&mut m, &[event(51, "client.join.failed", "r1", false)]);
    let follow = m.follow.as_ref().unwrap();
    assert_eq!((follow.new_events, follow.new_from), (1, Some(11)));
}
