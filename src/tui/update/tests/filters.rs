//! The filter keys of the list: the type toggles, the retry status, clearing.

use super::*;

#[test]
fn toggling_a_type_shows_only_that_type_and_toggling_it_again_shows_all() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ToggleJoin);
    assert_eq!(m.events.filter.types, [EventType::Join]);
    assert_eq!(shown_numbers(&m), [0, 2, 4, 6, 8]);
    run(&mut m, Command::TogglePublish);
    assert_eq!(m.events.filter.types, [EventType::Publish, EventType::Join]);
    assert_eq!(shown_numbers(&m), (0..10).collect::<Vec<_>>());
    run(&mut m, Command::ToggleJoin);
    assert_eq!(shown_numbers(&m), [1, 3, 5, 7, 9]);
    run(&mut m, Command::TogglePublish);
    assert!(m.events.filter.types.is_empty());
    assert_eq!(m.events.shown.len(), 10);
}

#[test]
fn each_digit_toggles_its_own_type() {
    for (k, t) in EventType::KNOWN.iter().enumerate() {
        let mut m = loaded(&ten());
        let toggle = Command::TYPE_TOGGLES[k];
        assert_eq!(toggle.toggled_type(), Some(k));
        run(&mut m, toggle);
        assert_eq!(m.events.filter.types, std::slice::from_ref(t));
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
    assert_eq!(m.events.selection.selected, 3);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(selected_number(&m), Some(6));
    assert_eq!(m.events.selection.selected, 6);
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
    assert_eq!(m.focus.mode(), Mode::Detail);
    run(&mut m, Command::ToggleSubscribe);
    assert!(m.events.shown.is_empty());
    assert_eq!(m.selected_event(), None);
    assert_eq!(m.panes.detail.after, None);
    assert_eq!(m.focus.mode(), Mode::List);
    for c in [
        Command::Down,
        Command::PageDown,
        Command::Bottom,
        Command::Top,
    ] {
        run(&mut m, c);
        assert_eq!(m.events.selection, Selection::default());
    }
    run(&mut m, Command::FocusDetail);
    assert_eq!(
        m.focus.mode(),
        Mode::List,
        "there is no event to show in the detail pane"
    );
}

#[test]
fn t_cycles_the_retry_status_through_final_retried_and_all() {
    let mut m = loaded(&ten());
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.events.filter.terminal, Some(true));
    assert_eq!(shown_numbers(&m), [0, 3, 6, 9]);
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.events.filter.terminal, Some(false));
    assert_eq!(shown_numbers(&m), [1, 2, 4, 5, 7, 8]);
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.events.filter.terminal, None);
    assert_eq!(m.events.shown.len(), 10);
}

#[test]
fn clear_filters_shows_every_event_again() {
    let mut m = loaded(&ten());
    run(&mut m, Command::TogglePublish);
    run(&mut m, Command::CycleTerminal);
    m.events.filter.set(Field::Room, Some("room-b".into()));
    m.events.filter.set(Field::Code, Some("4005".into()));
    refilter(&mut m);
    assert_eq!(shown_numbers(&m), [3]);
    run(&mut m, Command::ClearFilters);
    assert_eq!(m.events.filter, Filter::default());
    assert_eq!(m.events.shown.len(), 10);
    assert_eq!(selected_number(&m), Some(3));
}
