//! The groups view: its keys, its order, its clicks and wheel, Enter on a group.

use super::*;

#[test]
fn enter_on_a_group_shows_its_events_and_backspace_restores_the_filter_before() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    assert_eq!(m.focus.mode(), Mode::Groups);
    let top = m.focus.groups().unwrap().groups.group(0);
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::List);
    assert_eq!(m.events.shown.len(), top.count as usize);
    let key = crate::insight::GroupKey::Error;
    assert!(m.events.shown.iter().all(|&i| top.value.matches(
        key,
        &m.events.store,
        m.events.store.row(i as usize)
    )));
    run(&mut m, Command::PopFilter);
    assert_eq!(m.events.shown.len(), m.events.store.len());
    assert!(m.events.filter.conditions.is_empty());
}

#[test]
fn the_groups_key_and_order_can_be_switched() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::NextGroupKey);
    let g = m.focus.groups().unwrap();
    assert_eq!(g.key, crate::insight::GroupKey::Sdk);
    let counts: Vec<u32> = g.groups.iter().map(|g| g.count).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "sorted by count");
    run(&mut m, Command::ToggleGroupSort);
    let g = m.focus.groups().unwrap();
    let last: Vec<i64> = g
        .groups
        .iter()
        .map(|g| g.last_seen.unwrap_or(i64::MIN))
        .collect();
    assert!(last.windows(2).all(|w| w[0] >= w[1]), "sorted by last seen");
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(m.focus.groups().is_none());
}

#[test]
fn the_selected_group_stays_selected_when_the_order_changes() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    // Group by peer: many groups, ordered differently by count and by last seen.
    run(&mut m, Command::PrevGroupKey);
    assert_eq!(
        m.focus.groups().unwrap().key,
        crate::insight::GroupKey::Peer
    );
    // Mid-screen: a row that scrolling alone would not keep the selection on.
    for _ in 0..50 {
        run(&mut m, Command::Down);
    }
    for _ in 0..10 {
        run(&mut m, Command::Up);
    }
    let page = list_height(&m);
    let at = |m: &Model| {
        let g = m.focus.groups().unwrap();
        (g.groups.group(g.selected).value, g.selected, g.offset)
    };
    let (value, first, offset) = at(&m);
    let row = first - offset;
    assert!(row > 0 && row + 1 < page, "row {row} of {page}");
    let groups = m.focus.groups().unwrap().groups.len();
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
    use crate::insight::{GroupKey, GroupSort};
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::PrevGroupKey);
    let page = list_height(&m);
    // A group on the first screen by last seen that sorts among the last by count.
    run(&mut m, Command::ToggleGroupSort);
    let by_count = crate::insight::Groups::compute(
        &m.events.store,
        &m.events.shown,
        GroupKey::Peer,
        GroupSort::Count,
    );
    let g = m.focus.groups().unwrap();
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
    let g = m.focus.groups().unwrap();
    assert!(g.selected >= len - page / 2);
    assert_eq!(g.offset, len - page, "the last page, full");
}

#[test]
fn a_click_on_a_group_selects_it_and_the_wheel_moves_through_the_groups() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let list = areas(140, 40).list;
    click(&mut m, list.x + 4, list_row((140, 40), 2));
    assert_eq!(m.focus.groups().unwrap().selected, 2);
    assert_eq!(m.focus.mode(), Mode::Groups);
    assert_eq!(
        m.events.selection.selected, 0,
        "the hidden list does not move"
    );
    wheel_at(&mut m, list.x + 4, list.y + 5, true);
    assert_eq!(m.focus.groups().unwrap().selected, 5);
    wheel_at(&mut m, list.x + 4, list.y + 5, false);
    wheel_at(&mut m, list.x + 4, list.y + 5, false);
    assert_eq!(m.focus.groups().unwrap().selected, 0);
    assert_eq!(m.events.selection.selected, 0);
}

#[test]
fn the_groups_are_counted_again_when_events_arrive_with_the_help_over_them() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::Down);
    run(&mut m, Command::ToggleHelp);
    let total = |m: &Model| {
        let g = m.focus.groups().expect("the groups beneath the help");
        g.groups.iter().map(|g| g.count).sum::<u32>()
    };
    assert_eq!(total(&m), 10);
    update(
        &mut m,
        Action::BatchLoaded(batch(&[event(20, JOIN, "room-a", true)])),
    );
    assert_eq!(total(&m), 11);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.focus.mode(), Mode::Groups);
    assert_eq!(
        m.focus.groups().unwrap().selected,
        1,
        "the help gives the groups back where they were"
    );
}

#[test]
fn a_command_the_groups_view_has_no_use_for_changes_nothing() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let filter = m.events.filter.clone();
    for c in [
        Command::SaveShown,
        Command::ClearFilters,
        Command::Left,
        Command::NextField,
        Command::Yes,
    ] {
        assert!(run(&mut m, c).is_empty(), "{c:?}");
        assert_eq!(m.focus.mode(), Mode::Groups, "{c:?}");
        // Said in the status line.
        let said = m.status.clone().unwrap_or_default();
        assert!(
            said.ends_with("does nothing in the groups view (? lists the keys that do)"),
            "{c:?}: {said}"
        );
    }
    assert_eq!(m.events.filter, filter);
}

/// The groups the view shows, and the groups of the shown events counted afresh.
fn groups_and_afresh(
    m: &Model,
) -> (
    Vec<crate::insight::Group>,
    Vec<crate::insight::Group>,
    crate::insight::GroupKey,
) {
    let g = m.focus.groups().unwrap();
    let fresh = crate::insight::Groups::compute(&m.events.store, &m.events.matching, g.key, g.sort);
    (g.groups.iter().collect(), fresh.iter().collect(), g.key)
}

#[test]
fn each_key_in_turn_counts_what_a_grouping_afresh_counts_after_a_filter_and_new_events() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let check = |m: &mut Model, c: Command| {
        run(m, c);
        let (shown, fresh, key) = groups_and_afresh(m);
        assert_eq!(shown, fresh, "{key:?}");
    };
    // Every key, both ways round: the peer and the room from what the key before kept.
    for _ in 0..crate::insight::GroupKey::ALL.len() {
        check(&mut m, Command::NextGroupKey);
    }
    check(&mut m, Command::PrevGroupKey);
    check(&mut m, Command::PrevGroupKey);
    // Fewer events shown: the next key counts them, not those the last one kept.
    run(&mut m, Command::Cancel);
    run(&mut m, Command::CycleTerminal);
    assert!(m.events.matching.len() < m.events.store.len());
    run(&mut m, Command::ShowGroups);
    for _ in 0..crate::insight::GroupKey::ALL.len() {
        check(&mut m, Command::PrevGroupKey);
    }
    // Events that arrive while the view is open, then another key.
    update(
        &mut m,
        Action::BatchLoaded(batch(&[
            event(900_001, JOIN, "room-new", true),
            event(900_002, JOIN, "room-new", true),
        ])),
    );
    let (shown, fresh, _) = groups_and_afresh(&m);
    assert_eq!(shown, fresh, "refreshed");
    check(&mut m, Command::PrevGroupKey);
    check(&mut m, Command::PrevGroupKey);
}

#[test]
fn after_enter_on_a_group_the_type_keys_start_from_its_type() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    // The demo's largest group: joins refused with 500 ServerErrors.
    run(&mut m, Command::Apply);
    let joins = m.events.shown.clone();
    for t in &EventType::KNOWN {
        assert_eq!(m.events.filter.has_type(t), *t == EventType::Join, "{t:?}");
    }
    // Publish failures are added to the joins, not asked of them.
    run(&mut m, Command::TogglePublish);
    assert_eq!(m.events.shown, joins);
    assert_eq!(m.events.filter.types, [EventType::Publish, EventType::Join]);
    // Back: the group's filter as it was.
    run(&mut m, Command::PopFilter);
    run(&mut m, Command::ToggleJoin);
    // The group's one type turned off: every type, the group's other conditions kept.
    assert!(m.events.filter.types.is_empty());
    assert!(EventType::KNOWN.iter().all(|t| m.events.filter.has_type(t)));
    let fields: Vec<Field> = m.events.filter.conditions.iter().map(|c| c.field).collect();
    assert_eq!(fields, [Field::Code, Field::ErrorName]);
}
