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
        let titles = row_of(&text, "GROUP");
        assert!(titles.contains("COUNT"), "{text}");
        // The sparkline is the first to go; the share that got through, the last, after the
        // finals.
        assert!(
            !titles.contains("FINAL ") || titles.contains("GOT THROUGH"),
            "{width}x{height}\n{text}"
        );
        if width < 140 {
            assert!(!titles.contains("OVER TIME"), "{width}x{height}\n{text}");
        } else {
            assert!(
                titles.contains("GOT THROUGH") && titles.contains("PEERS"),
                "{text}"
            );
        }
    }
    // A screen wide enough shows every column.
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
fn the_share_that_got_through_stays_and_the_title_names_what_gave_way() {
    // The storm's window as the user opens it: `--room`, `--type join`, `--since`, `--until`.
    let filter = Filter {
        since: Some(bound("2026-11-18T10:00:00Z")),
        until: Some(bound("2026-11-18T10:10:00Z")),
        types: vec![EventType::Join],
        ..Filter::default().with(Field::Room, STORM_ROOM_ID)
    };
    for width in [45, 50, 80, 110, 120, 130, 140] {
        let mut m = demo(filter.clone(), (width, 30));
        run(&mut m, Command::ShowGroups);
        let t = draw(&m);
        let text = screen_text(t.backend().buffer());
        assert!(
            text.contains("facets of join 500 ServerErrors"),
            "{width}:\n{text}"
        );
        let table = left_of_pane(&m, "GROUP");
        assert!(table.contains("GOT THROUGH"), "{width}: {table}\n{text}");
        let row = row_of(&text, "join 500 ServerErrors");
        assert!(row.contains("114/157 73%"), "{width}: {row}");
        // One room's groups each reach that room: no column says so.
        assert!(!table.contains("ROOMS"), "{width}: {table}");
        // The columns that gave way are named, each one missing from the table.
        let title = text
            .lines()
            .find(|l| l.contains("1 group by error"))
            .unwrap_or_else(|| panic!("{text}"));
        let named = title
            .split("no room for ")
            .nth(1)
            .and_then(|rest| rest.split(" · ").next())
            .unwrap_or_default();
        for column in named
            .split(", ")
            .filter(|c| !c.is_empty() && !c.ends_with('…'))
        {
            assert!(
                !table.contains(column),
                "{width}: {column} is shown: {table}"
            );
        }
        // A title cut at a narrow width names what it has room for.
        let whole = !title.contains('…');
        for column in ["FINAL%", "PEERS", "FIRST", "LAST", "OVER TIME"] {
            assert!(
                table.contains(column) || named.contains(column) || !whole,
                "{width}: {column} neither shown nor named: {title}\n{table}"
            );
        }
        if width == 110 {
            insta::assert_snapshot!("groups_storm_110x30", t.backend());
        }
    }
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

/// The room of the demo's publish failures (Priya Raman's among them).
const DESIGN_REVIEW_ID: &str = "673a1f4e2b7c9d1a0e8f5b63";

#[test]
fn a_group_whose_chains_the_track_events_at_hand_cannot_tell_gives_no_share() {
    // The room's publish failures: the demo holds track events of one of its peers with
    // publish failures (Priya Raman) only. Without a peer's track events, no chain of it is
    // said to have ended without a track: the unknown ones are counted and no share is given.
    let filter = Filter {
        types: vec![EventType::Publish],
        ..Filter::default().with(Field::Room, DESIGN_REVIEW_ID)
    };
    let mut m = demo(filter, (180, 12));
    run(&mut m, Command::ShowGroups);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    let row = row_of(&text, "publish 4006 ICEDisconnected");
    assert!(row.contains("0/16, 15 unknown"), "{row}");
    insta::assert_snapshot!("groups_publish_share_180x12", t.backend());
}

#[test]
fn without_track_events_no_publish_chain_is_said_to_have_failed() {
    // As a live query loads them: the error events and the room's sessions, no track event.
    // The sessions show peers leaving after their publish failures; that alone does not tell
    // whether they had published again.
    let lines = callscope::source::demo::events_ndjson();
    let errors: Vec<Value> = std::str::from_utf8(&lines)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"].as_str().unwrap().starts_with("client."))
        .filter(|e| e["data"]["room_id"] == DESIGN_REVIEW_ID)
        .collect();
    let mut m = loaded(
        SourceLabel::Live {
            url: "http://127.0.0.1:8080".into(),
        },
        Filter::default(),
        (180, 16),
        vec![batch(&errors)],
    );
    let objects = callscope::source::demo::related().into_objects().collect();
    update(&mut m, Action::RelatedLoaded { objects, now: 0 });
    run(&mut m, Command::ShowGroups);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    for name in ["publish 4006 ICEDisconnected", "publish 4005 ICEFailure"] {
        let row = row_of(&text, name);
        assert!(row.contains(" unknown "), "{row}");
        assert!(!row.contains("0/"), "{row}");
    }
    insta::assert_snapshot!("groups_live_without_tracks_180x16", t.backend());
}

#[test]
fn tab_leaves_the_facets_as_esc_does() {
    let press = |m: &mut Model, code| {
        let key = TermEvent::Key(KeyEvent::new(code, KeyModifiers::NONE));
        let action = callscope::tui::runtime::translate(m, key).expect("bound");
        update(m, action);
    };
    // From the list: back to it, the facets hidden again.
    let mut m = demo(Filter::default(), (120, 30));
    press(&mut m, KeyCode::Char('F'));
    assert_eq!(m.focus.mode(), Mode::Facets);
    press(&mut m, KeyCode::Tab);
    assert_eq!(m.focus.mode(), Mode::List);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(!text.contains("does nothing"), "{text}");
    assert!(!text.contains("facets of"), "{text}");
    // From the groups view: back to it.
    press(&mut m, KeyCode::Char('e'));
    press(&mut m, KeyCode::Char('F'));
    assert_eq!(m.focus.mode(), Mode::Facets);
    press(&mut m, KeyCode::Tab);
    assert_eq!(m.focus.mode(), Mode::Groups);
}
