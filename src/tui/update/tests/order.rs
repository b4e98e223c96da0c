use super::*;
use crate::insight::{Order, SortKey};

/// Event `n` at this time.
fn at(n: u32, time: &str) -> serde_json::Value {
    let mut e = event(n, JOIN, "room-a", n.is_multiple_of(2));
    e["timestamp"] = json!(time);
    e["data"]["error_code"] = json!(4000 + n % 3);
    e
}

#[test]
fn files_read_out_of_time_order_show_in_time_order_with_the_first_event_selected() {
    let mut m = model(140, 40);
    // A late file read before an early one, as `late.ndjson early.ndjson` reads.
    update(
        &mut m,
        Action::BatchLoaded(batch(&[
            at(1, "2026-11-18T13:59:00Z"),
            at(2, "2026-11-18T14:00:00Z"),
        ])),
    );
    update(
        &mut m,
        Action::BatchLoaded(batch(&[
            at(3, "2026-11-18T08:01:00Z"),
            at(4, "2026-11-18T08:02:00Z"),
        ])),
    );
    assert_eq!(shown_numbers(&m), [3, 4, 1, 2]);
    assert_eq!(selected_number(&m), Some(3), "the top stays the top");
    run(&mut m, Command::FlipTime);
    assert_eq!(shown_numbers(&m), [2, 1, 4, 3]);
    assert_eq!(
        selected_number(&m),
        Some(2),
        "at the top, the selection stays at the top: the newest event"
    );
    // Anywhere else, the selected event stays selected.
    run(&mut m, Command::Down);
    assert_eq!(selected_number(&m), Some(1));
    run(&mut m, Command::FlipTime);
    assert_eq!(shown_numbers(&m), [3, 4, 1, 2]);
    assert_eq!(
        selected_number(&m),
        Some(1),
        "the selected event stays selected"
    );
}

#[test]
fn events_of_one_time_keep_their_load_order_in_every_order() {
    let same = "2026-11-18T10:00:00Z";
    let mut m = loaded(&[
        at(5, same),
        at(1, "2026-11-18T09:00:00Z"),
        at(6, same),
        at(7, same),
    ]);
    assert_eq!(shown_numbers(&m), [1, 5, 6, 7]);
    run(&mut m, Command::FlipTime);
    assert_eq!(shown_numbers(&m), [5, 6, 7, 1]);
    // By code (4000 + n % 3): 6 is 4000, 7 and 1 are 4001, 5 is 4002; newest first within.
    m.events.order = Order {
        key: SortKey::Time,
        newest_first: true,
    };
    run(&mut m, Command::CycleSort);
    run(&mut m, Command::CycleSort);
    assert_eq!(m.events.order.key, SortKey::Code);
    assert_eq!(shown_numbers(&m), [6, 7, 1, 5]);
    // A refresh of the same events does not move them.
    let before = shown_numbers(&m);
    update(
        &mut m,
        Action::BatchLoaded(batch(&[at(5, same), at(6, same)])),
    );
    assert_eq!(shown_numbers(&m), before);
}

#[test]
fn the_sort_cycles_through_every_key_keeping_the_selected_event_on_its_line() {
    let mut m = loaded(&ten());
    select(&mut m, 6);
    let mut seen = vec![m.events.order.key];
    for _ in 1..SortKey::ALL.len() {
        run(&mut m, Command::CycleSort);
        seen.push(m.events.order.key);
        assert_eq!(selected_number(&m), Some(6), "{:?}", m.events.order);
        assert!(
            m.status
                .as_deref()
                .is_some_and(|s| s.starts_with("sorted by ")),
            "{:?}",
            m.status
        );
    }
    assert_eq!(seen, SortKey::ALL);
    run(&mut m, Command::CycleSort);
    assert_eq!(m.events.order.key, SortKey::Time);
    // By type: publishes (odd) before joins (even), each in time order.
    m.events.order.key = SortKey::Time;
    run(&mut m, Command::CycleSort);
    assert_eq!(shown_numbers(&m), [1, 3, 5, 7, 9, 0, 2, 4, 6, 8]);
}

#[test]
fn a_filter_shows_its_events_in_the_order_in_force() {
    let mut m = loaded(&ten());
    run(&mut m, Command::FlipTime);
    run(&mut m, Command::ToggleJoin);
    assert_eq!(shown_numbers(&m), [8, 6, 4, 2, 0]);
    // The groups, the timeline and the facets count the same events, in load order.
    assert_eq!(m.events.matching.len(), 5);
    assert!(m.events.matching.is_sorted());
}

#[test]
fn a_new_order_keeps_the_selected_event_on_the_line_it_was_on() {
    let mut m = demo(140, 40);
    for _ in 0..500 {
        run(&mut m, Command::Down);
    }
    for _ in 0..7 {
        run(&mut m, Command::Up);
    }
    let selected = m.selected_event();
    let line = m.events.selection.selected - m.events.selection.offset;
    assert!(line > 0);
    for _ in 0..SortKey::ALL.len() {
        run(&mut m, Command::CycleSort);
        assert_eq!(m.selected_event(), selected);
        assert_eq!(
            m.events.selection.selected - m.events.selection.offset,
            line,
            "{:?}",
            m.events.order
        );
    }
}
