//! The groups view and its facets: order, columns that stay put or give way, days, singulars,
//! shares that got through.

use super::*;

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
