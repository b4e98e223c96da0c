//! The detail pane: its scroll, its keys and clicks, and what it says of the chain.

use super::*;

#[test]
fn the_wheel_over_the_detail_pane_scrolls_it_and_keeps_the_selection() {
    for (w, h) in [(140, 40), (80, 24)] {
        let mut m = demo(w, h);
        let detail = areas(w, h).detail;
        let (column, row) = (detail.x + 3, detail.y + 3);
        wheel_at(&mut m, column, row, true);
        wheel_at(&mut m, column, row, true);
        assert_eq!(m.panes.detail.scroll, 6, "{w}x{h}");
        assert_eq!(m.events.selection.selected, 0);
        wheel_at(&mut m, column, row, false);
        assert_eq!(m.panes.detail.scroll, 3);
        wheel_at(&mut m, column, row, false);
        wheel_at(&mut m, column, row, false);
        assert_eq!(m.panes.detail.scroll, 0);
    }
}

#[test]
fn a_new_selection_starts_the_detail_pane_at_its_top() {
    let mut m = demo(140, 40);
    let detail = areas(140, 40).detail;
    wheel_at(&mut m, detail.x + 2, detail.y + 2, true);
    assert_eq!(m.panes.detail.scroll, 3);
    run(&mut m, Command::Down);
    assert_eq!(m.panes.detail.scroll, 0);
}

#[test]
fn in_the_detail_pane_the_moving_keys_scroll_it_instead_of_moving_the_selection() {
    let mut m = demo(140, 40);
    run(&mut m, Command::Down);
    run(&mut m, Command::FocusDetail);
    assert_eq!(m.focus.mode(), Mode::Detail);
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    assert_eq!(m.panes.detail.scroll, 2);
    run(&mut m, Command::Up);
    assert_eq!(m.panes.detail.scroll, 1);
    run(&mut m, Command::Top);
    assert_eq!(m.panes.detail.scroll, 0);
    // A page is the lines the pane shows, below its top border.
    run(&mut m, Command::PageDown);
    let pane = crate::tui::view::layout::areas_of(&m).detail;
    assert_eq!(m.panes.detail.scroll, pane.height - 1);
    assert_eq!(m.events.selection.selected, 1);
    run(&mut m, Command::FocusList);
    assert_eq!(m.focus.mode(), Mode::List);
    run(&mut m, Command::Down);
    assert_eq!(m.events.selection.selected, 2);
}

#[test]
fn after_the_end_of_the_detail_pane_one_line_up_scrolls_up_at_once() {
    for (w, h) in [(140, 40), (80, 24)] {
        let mut m = demo(w, h);
        run(&mut m, Command::Down);
        run(&mut m, Command::FocusDetail);
        run(&mut m, Command::Bottom);
        let end = m.panes.detail.scroll;
        assert!(end > 0 && end < u16::MAX / 2, "{end}");
        assert_eq!(end, crate::tui::panels::detail::max_scroll(&m));
        run(&mut m, Command::Down);
        run(&mut m, Command::PageDown);
        assert_eq!(m.panes.detail.scroll, end, "scrolling stops at the end");
        run(&mut m, Command::Up);
        assert_eq!(m.panes.detail.scroll, end - 1);
        let detail = areas(w, h).detail;
        for _ in 0..100 {
            wheel_at(&mut m, detail.x + 1, detail.y + 1, true);
        }
        assert_eq!(m.panes.detail.scroll, end);
        wheel_at(&mut m, detail.x + 1, detail.y + 1, false);
        assert_eq!(m.panes.detail.scroll, end - 3);
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
    assert_eq!(
        m.panes.detail.scroll,
        crate::tui::panels::detail::max_scroll(&m)
    );
}

#[test]
fn a_click_on_the_detail_pane_focuses_it_and_a_click_on_the_list_focuses_the_list() {
    let mut m = demo(140, 40);
    let a = areas(140, 40);
    click(&mut m, a.detail.x + 5, a.detail.y + 5);
    assert_eq!(m.focus.mode(), Mode::Detail);
    assert_eq!(m.events.selection.selected, 0, "the selection stays");
    click(&mut m, a.list.x + 4, list_row((140, 40), 2));
    assert_eq!(m.focus.mode(), Mode::List);
    assert_eq!(m.events.selection.selected, 2);
}

#[test]
fn a_click_on_an_empty_detail_pane_leaves_the_keyboard_on_the_list() {
    let mut m = model(140, 40);
    let detail = areas(140, 40).detail;
    click(&mut m, detail.x + 5, detail.y + 5);
    assert_eq!(m.focus.mode(), Mode::List);
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
    let (i, after) = m.panes.detail.after.clone().unwrap();
    assert_eq!(i, 0);
    assert_eq!((after.earlier, after.later), (0, 2));
    assert!(after.final_at.is_some());
    run(&mut m, Command::Bottom);
    let (i, after) = m.panes.detail.after.clone().unwrap();
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
    assert_eq!(m.panes.detail.after.as_ref().unwrap().1.later, 0);
    update(&mut m, Action::BatchLoaded(batch(&[second])));
    assert_eq!(m.panes.detail.after.as_ref().unwrap().1.later, 1);
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
    assert_eq!(
        m.panes.detail.after.as_ref().unwrap().1.later,
        0,
        "after the join"
    );
    let after = After::of(&m.events.store, 1);
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
    assert_eq!(m.panes.detail.after.as_ref().unwrap().1.later, 1);
    run(&mut m, Command::Down);
    let (i, after) = m.panes.detail.after.clone().unwrap();
    assert_eq!(i, 1);
    assert_eq!((after.earlier, after.later), (1, 0));
}
