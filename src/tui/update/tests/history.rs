//! The back stack of filter changes, and `x`.

use super::*;
use crate::insight::GroupKey;

#[test]
fn every_filter_change_is_taken_back_in_turn_back_to_the_groups_where_it_was_made() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleJoin);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::NextGroupKey);
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    let g = m.focus.groups().unwrap();
    assert_eq!(g.key, GroupKey::Sdk);
    let group = g.groups.group(2).label(&m.events.store, g.key);
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(m.events.filter.wanted(Field::Sdk).is_some());
    // Back to the groups by SDK, on the group opened, the join filter still in force.
    run(&mut m, Command::PopFilter);
    let g = m.focus.groups().expect("back in the groups view");
    assert_eq!(g.key, GroupKey::Sdk);
    assert_eq!(
        g.groups.group(g.selected).label(&m.events.store, g.key),
        group
    );
    assert_eq!(m.events.filter.types, [EventType::Join]);
    assert!(m.status.as_deref().unwrap().starts_with("took back: "));
    // The join filter was set in the list: taking it back goes there.
    run(&mut m, Command::PopFilter);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(m.events.filter.is_empty());
    run(&mut m, Command::PopFilter);
    assert_eq!(m.status.as_deref(), Some("no filter change to take back"));
}

#[test]
fn taking_a_filter_back_returns_to_the_event_that_was_selected() {
    let mut m = loaded(&ten());
    select(&mut m, 5);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(shown_numbers(&m), [0, 2, 4, 6, 8]);
    select(&mut m, 8);
    run(&mut m, Command::PopFilter);
    assert_eq!(selected_number(&m), Some(5));
    // A filter that changes nothing is no step.
    run(&mut m, Command::CycleTerminal);
    run(&mut m, Command::CycleTerminal);
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.events.back.len(), 3);
}

#[test]
fn a_type_key_in_the_groups_view_narrows_the_groups_and_the_view_stays() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let all: u32 = m
        .focus
        .groups()
        .unwrap()
        .groups
        .iter()
        .map(|g| g.count)
        .sum();
    run(&mut m, Command::ToggleJoin);
    assert_eq!(m.focus.mode(), Mode::Groups);
    let joins: u32 = m
        .focus
        .groups()
        .unwrap()
        .groups
        .iter()
        .map(|g| g.count)
        .sum();
    assert_eq!(joins as usize, m.events.shown.len());
    assert!(joins < all);
    run(&mut m, Command::CycleTerminal);
    assert_eq!(m.events.filter.terminal, Some(true));
    run(&mut m, Command::PopFilter);
    run(&mut m, Command::PopFilter);
    assert_eq!(m.focus.mode(), Mode::Groups);
    assert!(m.events.filter.is_empty());
}

fn started_with(filter: Filter) -> Model {
    let mut m = Model::new(SourceLabel::Demo, filter, 140, 40);
    update(&mut m, Action::BatchLoaded(batch(&ten())));
    m
}

#[test]
fn x_keeps_the_command_lines_filters_and_says_so_and_again_clears_them_too() {
    let mut m = started_with(Filter::default().with(Field::Room, "room-a"));
    run(&mut m, Command::ToggleJoin);
    run(&mut m, Command::ClearFilters);
    assert_eq!(
        m.events.filter,
        Filter::default().with(Field::Room, "room-a")
    );
    let said = m.status.clone().unwrap();
    assert!(
        said.contains("kept those of the command line and profile: room=room-a"),
        "{said}"
    );
    run(&mut m, Command::ClearFilters);
    assert!(m.events.filter.is_empty());
    assert_eq!(shown_numbers(&m).len(), 10);
    // A third x clears nothing: it does not put the command line's filters back.
    run(&mut m, Command::ClearFilters);
    assert!(m.events.filter.is_empty());
    assert_eq!(m.status.as_deref(), Some("no filter to clear"));
    // Each is a step back.
    run(&mut m, Command::PopFilter);
    assert_eq!(m.events.filter.room(), Some("room-a"));
    run(&mut m, Command::PopFilter);
    assert_eq!(m.events.filter.types, [EventType::Join]);
    // With no filter at all, x says so.
    let mut m = started_with(Filter::default());
    run(&mut m, Command::ClearFilters);
    assert_eq!(m.status.as_deref(), Some("no filter to clear"));
}

#[test]
fn x_on_a_live_source_keeps_the_room_its_queries_need() {
    let mut m = started_with(Filter::default().with(Field::Room, "room-a"));
    m.session.live = Some(crate::tui::model::Live::new("http://127.0.0.1:1".into()));
    run(&mut m, Command::ToggleJoin);
    run(&mut m, Command::ClearFilters);
    run(&mut m, Command::ClearFilters);
    assert_eq!(
        m.events.filter,
        Filter::default().with(Field::Room, "room-a")
    );
    assert!(m.status.as_deref().unwrap().contains("room=room-a"));
}
