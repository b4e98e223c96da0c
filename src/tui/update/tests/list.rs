//! The list: loading, the selection, paging, the wheel and clicks over the list, quitting.

use super::*;

#[test]
fn a_new_model_is_loading_and_shows_nothing() {
    let m = model(80, 24);
    assert_eq!(m.session.load, LoadState::Loading);
    assert!(m.events.shown.is_empty());
    assert_eq!(m.selected_event(), None);
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn the_demo_batch_shows_every_event_and_finishing_makes_the_loader_idle() {
    let mut m = model(140, 40);
    // Freed memory is kept for the next batch while loading...
    assert!(update(&mut m, Action::BatchLoaded(crate::source::demo::load())).is_empty());
    assert_eq!(m.session.load, LoadState::Loading);
    assert_eq!(m.events.store.len(), 2400);
    assert_eq!(m.events.shown.len(), 2400);
    assert_eq!(m.selected_event(), Some(0));
    assert_eq!(m.panes.detail.after.as_ref().map(|(i, _)| *i), Some(0));
    // ...and goes back to the system once loading is done.
    assert!(matches!(
        update(
            &mut m,
            Action::LoadFinished {
                problems: Vec::new()
            }
        )
        .as_slice(),
        [Effect::ReleaseMemory, Effect::ReadNumbers]
    ));
    assert_eq!(m.session.load, LoadState::Idle);
    assert!(m.session.problems.is_empty());
}

#[test]
fn a_part_of_the_numbers_read_ahead_done_asks_for_the_next_and_changes_nothing_shown() {
    let mut m = model(140, 40);
    update(&mut m, Action::BatchLoaded(crate::source::demo::load()));
    assert!(matches!(
        update(&mut m, Action::NumbersRead).as_slice(),
        [Effect::ReadNumbers]
    ));
    // Nothing else changes.
    assert_eq!(m.events.shown.len(), 2400);
    assert_eq!(m.selected_event(), Some(0));
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
    assert_eq!(m.events.store.len(), 10);
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
    assert_eq!(m.events.store.duplicates(), 2);
}

#[test]
fn a_filter_on_a_room_not_loaded_yet_shows_its_events_when_they_arrive() {
    let filter = Filter {
        ..Filter::default()
    }
    .with(Field::Room, "room-late");
    let mut m = Model::new(SourceLabel::Demo, filter, 140, 40);
    update(&mut m, Action::BatchLoaded(batch(&ten())));
    assert!(m.events.shown.is_empty());
    update(
        &mut m,
        Action::BatchLoaded(batch(&[event(20, JOIN, "room-late", true)])),
    );
    assert_eq!(shown_numbers(&m), [20]);
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
    assert_eq!(m.session.load, LoadState::Idle);
    assert_eq!(m.session.problems, [problem("expected `,` or `}`")]);
    assert_eq!(m.events.shown.len(), 2);
    update(
        &mut m,
        Action::LoadFinished {
            problems: vec![problem("second")],
        },
    );
    assert_eq!(
        m.session.problems.len(),
        2,
        "a later report adds to the earlier one"
    );
}

#[test]
fn paging_moves_by_the_list_height_and_stops_at_both_ends() {
    let mut m = demo(140, 40);
    let page = list_height(&m);
    assert_eq!(page, areas(140, 40).list.height as usize - 2);
    run(&mut m, Command::PageDown);
    assert_eq!(m.events.selection.selected, page);
    run(&mut m, Command::PageDown);
    assert_eq!(m.events.selection.selected, 2 * page);
    assert_selection_visible(&m);
    run(&mut m, Command::PageUp);
    assert_eq!(m.events.selection.selected, page);
    run(&mut m, Command::PageUp);
    run(&mut m, Command::PageUp);
    assert_eq!(m.events.selection, Selection::default());
    run(&mut m, Command::Up);
    assert_eq!(m.events.selection.selected, 0);
    run(&mut m, Command::Bottom);
    assert_eq!(m.events.selection.selected, 2399);
    assert_eq!(m.events.selection.offset, 2400 - page);
    run(&mut m, Command::Down);
    run(&mut m, Command::PageDown);
    assert_eq!(m.events.selection.selected, 2399);
    run(&mut m, Command::Top);
    assert_eq!(m.events.selection, Selection::default());
}

#[test]
fn moving_the_selection_follows_it_with_the_list() {
    let mut m = demo(80, 24);
    let height = list_height(&m);
    for _ in 0..height {
        run(&mut m, Command::Down);
    }
    assert_eq!(m.events.selection.selected, height);
    assert_eq!(m.events.selection.offset, 1);
    for _ in 1..height {
        run(&mut m, Command::Up);
    }
    assert_eq!(
        m.events.selection,
        Selection {
            selected: 1,
            offset: 1
        }
    );
    run(&mut m, Command::Up);
    assert_eq!(m.events.selection, Selection::default());
}

#[test]
fn the_selection_stays_visible_when_the_terminal_shrinks_or_grows() {
    let mut m = demo(140, 40);
    for _ in 0..5 {
        run(&mut m, Command::PageDown);
    }
    let selected = m.events.selection.selected;
    for (w, h) in [(80, 24), (80, 12), (200, 60), (60, 8), (140, 40)] {
        update(
            &mut m,
            Action::Resize {
                width: w,
                height: h,
            },
        );
        assert_eq!((m.screen.width, m.screen.height), (w, h));
        assert_eq!(m.events.selection.selected, selected);
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
    assert_eq!(m.events.selection.offset, 2400 - list_height(&m));
}

#[test]
fn the_wheel_over_the_list_moves_the_selection() {
    let mut m = demo(140, 40);
    let list = areas(140, 40).list;
    wheel_at(&mut m, list.x + 5, list.y + 5, true);
    assert_eq!(m.events.selection.selected, 3);
    assert_eq!(m.panes.detail.scroll, 0);
    wheel_at(&mut m, list.x + 5, list.y + 5, false);
    wheel_at(&mut m, list.x + 5, list.y + 5, false);
    assert_eq!(m.events.selection.selected, 0);
}

#[test]
fn the_wheel_over_the_header_or_the_hint_bar_does_nothing() {
    let mut m = demo(140, 40);
    let a = areas(140, 40);
    wheel_at(&mut m, 3, a.header.y + 1, true);
    wheel_at(&mut m, 3, a.footer.y, true);
    assert_eq!(m.events.selection, Selection::default());
    assert_eq!(m.panes.detail.scroll, 0);
}

#[test]
fn a_click_on_a_list_row_selects_that_event() {
    for (w, h) in [(140, 40), (80, 24)] {
        let mut m = demo(w, h);
        let x = areas(w, h).list.x + 4;
        click(&mut m, x, list_row((w, h), 3));
        assert_eq!(m.events.selection.selected, 3, "{w}x{h}");
        assert_eq!(m.focus.mode(), Mode::List);
        run(&mut m, Command::PageDown);
        let offset = m.events.selection.offset;
        click(&mut m, x, list_row((w, h), 1));
        assert_eq!(m.events.selection.selected, offset + 1, "{w}x{h}");
    }
}

#[test]
fn a_click_below_the_last_event_or_on_the_column_titles_keeps_the_selection() {
    let mut m = loaded(&ten());
    run(&mut m, Command::Down);
    let list = areas(140, 40).list;
    click(&mut m, list.x + 4, list_row((140, 40), 20));
    assert_eq!(m.events.selection.selected, 1);
    click(&mut m, list.x + 4, list.y + 1);
    assert_eq!(m.events.selection.selected, 1);
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
        assert!(m.session.quit);
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
    assert!(!m.session.quit);
}
