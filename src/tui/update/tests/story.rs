//! A peer's story: its lines, its clicks and wheel, what `Y` copies in it.

use super::*;

/// The demo with Priya's story open.
fn priya_story() -> Model {
    let mut m = demo(140, 40);
    let priya = m
        .events
        .store
        .strings()
        .lookup(crate::generator::PRIYA_PEER_ID)
        .unwrap();
    m.events.selection.selected = m
        .events
        .shown
        .iter()
        .position(|&i| m.events.store.row(i as usize).peer_id == priya)
        .unwrap();
    run(&mut m, Command::ShowStory);
    m
}

#[test]
fn the_story_of_a_peer_holds_every_loaded_event_of_that_peer() {
    let mut m = demo(140, 40);
    let priya = m
        .events
        .store
        .strings()
        .lookup(crate::generator::PRIYA_PEER_ID)
        .unwrap();
    let k = m
        .events
        .shown
        .iter()
        .position(|&i| m.events.store.row(i as usize).peer_id == priya)
        .unwrap();
    m.events.selection.selected = k;
    run(&mut m, Command::ShowStory);
    assert_eq!(m.focus.mode(), Mode::Story);
    let story = story_of(&m).unwrap();
    // Her errors as events, her track events as track lines (dimmed context) holding theirs.
    let events = story
        .lines
        .iter()
        .filter(|l| {
            matches!(
                l,
                crate::tui::panels::story::StoryLine::Event(_)
                    | crate::tui::panels::story::StoryLine::Track { event: Some(_), .. }
            )
        })
        .count();
    let loaded = m
        .events
        .store
        .rows()
        .iter()
        .filter(|r| r.peer_id == priya)
        .count();
    assert_eq!(events, loaded);
    assert_eq!(story.story.chains.len(), 1);
    assert!(story.story.chains[0].ending.gave_up());
    // The detail pane follows the story's selection.
    run(&mut m, Command::Down);
    assert!(
        m.focused_event()
            .is_some_and(|i| m.events.store.row(i).peer_id == priya)
    );
    run(&mut m, Command::Cancel);
    assert!(story_of(&m).is_none());
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn a_click_on_a_story_line_selects_it_and_the_wheel_moves_through_the_story() {
    let mut m = priya_story();
    let list = areas(140, 40).list;
    let first = list.y + crate::tui::view::layout::STORY_FIRST_ROW;
    let offset = story_of(&m).unwrap().offset;
    click(&mut m, list.x + 4, first + 3);
    let s = story_of(&m).unwrap();
    assert_eq!(s.selected, offset + 3);
    assert_eq!(m.focus.mode(), Mode::Story);
    let selected = s.selected;
    wheel_at(&mut m, list.x + 4, first + 3, true);
    assert_eq!(story_of(&m).unwrap().selected, selected + 3);
    wheel_at(&mut m, list.x + 4, first + 3, false);
    assert_eq!(story_of(&m).unwrap().selected, selected);
    assert!(
        m.focused_event().is_some(),
        "the detail pane shows the line's event"
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
        serde_json::from_slice::<serde_json::Value>(m.events.store.raw(i)).unwrap()
    );
}

#[test]
fn groups_opened_from_a_story_take_its_place_and_close_to_the_list() {
    let mut m = priya_story();
    run(&mut m, Command::ShowGroups);
    assert_eq!(m.focus.mode(), Mode::Groups);
    assert!(story_of(&m).is_none());
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(story_of(&m).is_none(), "no story is left over the list");
}

#[test]
fn local_time_tells_an_open_storys_verdicts_and_the_detail_panes_again_in_the_zone() {
    let mut m = priya_story();
    // On her chain's line: the detail pane shows its first failure, with the chain's verdict.
    run(&mut m, Command::Top);
    let evidence = |m: &Model| story_of(m).unwrap().verdicts[0].evidence.clone();
    let in_detail = |m: &Model| m.panes.detail.verdict.as_ref().unwrap().1.evidence.clone();
    // The story's verdict and the detail pane's say the failures' span as `span`.
    let both_say = |m: &Model, span: &str| {
        assert!(evidence(m).contains(span), "{}", evidence(m));
        assert!(in_detail(m).contains(span), "{}", in_detail(m));
    };
    assert!(
        evidence(&m).contains("from 11:41:07 to 11:52:50"),
        "{}",
        evidence(&m)
    );
    let selected = story_of(&m).unwrap().selected;
    m.config.local_zone = crate::time::Zone::Fixed(3600);
    run(&mut m, Command::ToggleLocalTime);
    both_say(&m, "from 12:41:07 to 12:52:50");
    assert_eq!(story_of(&m).unwrap().selected, selected, "the line stays");
    run(&mut m, Command::ToggleLocalTime);
    both_say(&m, "from 11:41:07 to 11:52:50");
}
