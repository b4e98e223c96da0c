//! The room prompt: a live query names a room, so with none the explorer asks for one instead of
//! sending a query the API refuses.

use super::*;
use crate::related::Room;
use crate::source::api::rooms::Named;
use crate::source::recent::RecentRoom;
use crate::tui::model::Live;
use crate::tui::panels::rooms::{Choice, Recent, RoomPrompt};
use crate::tui::rooms_used::UsedRoom;

const URL: &str = "http://127.0.0.1:1";
const ID_A: &str = "65af97002889d74ef8d1e18f";
const ID_B: &str = "65af97002889d74ef8d1e190";

/// A live explorer started with `filter`, its first query asked for as the explorer asks it.
fn live(filter: Filter, used: Vec<UsedRoom>) -> (Model, Vec<Effect>) {
    let mut m = Model::new(SourceLabel::Live { url: URL.into() }, filter, 140, 40);
    let mut state = Live::new(URL.into());
    state.rooms_used = used;
    m.session.live = Some(state);
    m.session.load = LoadState::Idle;
    let mut effects = new_query(&mut m);
    effects.extend(crate::tui::update::live::ask_room(&mut m));
    (m, effects)
}

fn prompt(m: &Model) -> &RoomPrompt {
    match &m.focus {
        Focus::Rooms(p) => p,
        other => panic!("the room prompt is not open: {:?}", other.mode()),
    }
}

fn room(id: &str, name: &str) -> Room {
    Room::parse(&format!(
        r#"{{"id":"{id}","name":"{name}","enabled":true,"created_at":"2026-01-05T10:00:00Z"}}"#
    ))
    .unwrap()
}

fn recent(id: &str, name: Option<&str>) -> RecentRoom {
    RecentRoom {
        id: id.into(),
        name: name.map(str::to_string),
        started: crate::time::parse_rfc3339_nanos("2026-11-18T10:02:00Z"),
        ended: crate::time::parse_rfc3339_nanos("2026-11-18T10:40:00Z"),
        active: false,
        peers: 12,
        sessions: 3,
    }
}

fn used(id: &str, name: &str, url: &str) -> UsedRoom {
    UsedRoom {
        id: id.into(),
        name: Some(name.into()),
        base_url: url.into(),
        used_at: 1_763_460_000,
    }
}

/// The query the effects start, if any: its filter.
fn query_of(effects: &[Effect]) -> Option<&Filter> {
    effects.iter().find_map(|e| match e {
        Effect::Worker(worker::Command::Query { filter, .. }) => Some(filter),
        _ => None,
    })
}

#[test]
fn with_no_room_no_query_is_sent_and_the_prompt_asks_for_the_rooms_of_recent_sessions() {
    let (m, effects) = live(Filter::default(), Vec::new());
    assert_eq!(query_of(&effects), None, "{effects:?}");
    assert_eq!(effects, vec![Effect::RecentRooms]);
    assert_eq!(m.focus.mode(), Mode::Rooms);
    assert_eq!(m.session.live.as_ref().unwrap().fetch, Fetch::NoRoom);
    assert_eq!(prompt(&m).recent, Recent::Loading);
    // With a room, the query goes out as before and no prompt opens.
    let (m, effects) = live(Filter::default().with(Field::Room, ID_A), Vec::new());
    assert_eq!(query_of(&effects).and_then(|f| f.room()), Some(ID_A));
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn a_recent_room_chosen_with_the_arrows_starts_its_query() {
    let (mut m, _) = live(
        Filter::default(),
        vec![
            used(ID_B, "standup", URL),
            used("elsewhere", "x", "http://other"),
        ],
    );
    update(
        &mut m,
        Action::RecentRooms(Ok(vec![recent(ID_A, Some("weekly-allhands"))])),
    );
    // The recent room first, then the one used before with this API (not the other API's).
    assert_eq!(
        prompt(&m).choices(),
        [
            Choice {
                id: ID_A.into(),
                name: Some("weekly-allhands".into())
            },
            Choice {
                id: ID_B.into(),
                name: Some("standup".into())
            }
        ]
    );
    run(&mut m, Command::Down);
    assert_eq!(prompt(&m).selected, 1);
    let effects = run(&mut m, Command::Apply);
    assert_eq!(query_of(&effects).and_then(|f| f.room()), Some(ID_B));
    assert_eq!(m.events.filter.room(), Some(ID_B));
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(matches!(
        m.session.live.as_ref().unwrap().fetch,
        Fetch::Fetching { .. }
    ));
    // The choice is a filter step like any other: taking it back asks for a room again.
    let effects = run(&mut m, Command::PopFilter);
    assert_eq!(query_of(&effects), None);
    assert_eq!(m.focus.mode(), Mode::Rooms);
}

#[test]
fn a_typed_id_is_taken_as_it_is_and_a_typed_name_is_looked_up() {
    let (mut m, _) = live(Filter::default(), Vec::new());
    type_text(&mut m, ID_A);
    let effects = run(&mut m, Command::Apply);
    assert_eq!(query_of(&effects).and_then(|f| f.room()), Some(ID_A));

    let (mut m, _) = live(Filter::default(), Vec::new());
    type_text(&mut m, "weekly-allhands");
    let effects = run(&mut m, Command::Apply);
    assert_eq!(effects, vec![Effect::LookUpRoom("weekly-allhands".into())]);
    assert_eq!(
        m.focus.mode(),
        Mode::Rooms,
        "the prompt waits for the answer"
    );
    let effects = update(
        &mut m,
        Action::RoomLookedUp {
            name: "weekly-allhands".into(),
            result: Ok(Named::One(room(ID_A, "weekly-allhands"))),
        },
    );
    assert_eq!(query_of(&effects).and_then(|f| f.room()), Some(ID_A));
    assert_eq!(m.focus.mode(), Mode::List);
    assert_eq!(
        m.session.live.as_ref().unwrap().chosen,
        Some((ID_A.to_string(), Some("weekly-allhands".to_string())))
    );
}

#[test]
fn several_rooms_of_a_name_are_offered_and_none_is_said() {
    let (mut m, _) = live(Filter::default(), Vec::new());
    type_text(&mut m, "allhands");
    run(&mut m, Command::Apply);
    let effects = update(
        &mut m,
        Action::RoomLookedUp {
            name: "allhands".into(),
            result: Ok(Named::Several(vec![
                room(ID_A, "allhands"),
                room(ID_B, "allhands"),
            ])),
        },
    );
    assert!(effects.is_empty());
    let p = prompt(&m);
    assert_eq!(
        p.message.as_deref(),
        Some("2 rooms are named \"allhands\": choose the one you mean")
    );
    assert_eq!(p.choices().len(), 2);
    run(&mut m, Command::Down);
    let effects = run(&mut m, Command::Apply);
    assert_eq!(query_of(&effects).and_then(|f| f.room()), Some(ID_B));

    let (mut m, _) = live(Filter::default(), Vec::new());
    type_text(&mut m, "nosuch");
    run(&mut m, Command::Apply);
    update(
        &mut m,
        Action::RoomLookedUp {
            name: "nosuch".into(),
            result: Ok(Named::None { near: Vec::new() }),
        },
    );
    assert_eq!(
        prompt(&m).message.as_deref(),
        Some("no room is named \"nosuch\": check the name, or give the room's id")
    );
    // A failed lookup says why, and the prompt stays.
    type_text(&mut m, "x");
    run(&mut m, Command::Apply);
    update(
        &mut m,
        Action::RoomLookedUp {
            name: "nosuchx".into(),
            result: Err("cannot look up the room named \"nosuchx\": HTTP 503".into()),
        },
    );
    assert!(prompt(&m).message.as_deref().unwrap().contains("HTTP 503"));
    // An answer to a name typed before is dropped.
    update(
        &mut m,
        Action::RoomLookedUp {
            name: "nosuch".into(),
            result: Ok(Named::One(room(ID_A, "nosuch"))),
        },
    );
    assert_eq!(m.focus.mode(), Mode::Rooms);
}

#[test]
fn esc_leaves_the_prompt_saying_how_to_open_it_and_load_all_sends_nothing() {
    let (mut m, _) = live(Filter::default(), Vec::new());
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(m.status.as_deref().unwrap().contains(":room chooses one"));
    let effects = run(&mut m, Command::LoadAll);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(m.status.as_deref().unwrap().starts_with("no room chosen"));
    // `:room` with a name no loaded event gives opens the prompt and looks it up.
    run(&mut m, Command::OpenCommandLine);
    type_text(&mut m, "room weekly-allhands");
    let effects = run(&mut m, Command::Apply);
    assert_eq!(
        effects,
        vec![
            Effect::RecentRooms,
            Effect::LookUpRoom("weekly-allhands".into())
        ]
    );
    assert_eq!(prompt(&m).looking_up.as_deref(), Some("weekly-allhands"));
}

#[test]
fn a_room_is_remembered_once_its_events_load_with_the_name_they_give_it() {
    let (mut m, _) = live(Filter::default(), Vec::new());
    type_text(&mut m, "room-a");
    run(&mut m, Command::Apply);
    // Not an id: looked up; the answer names it.
    update(
        &mut m,
        Action::RoomLookedUp {
            name: "room-a".into(),
            result: Ok(Named::One(room("room-a", "chosen-name"))),
        },
    );
    let query = m.session.live.as_ref().unwrap().query;
    let page = |events: Vec<serde_json::Value>| crate::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "more".into(),
        total: Some(50),
    };
    // An empty page loads nothing: nothing is remembered.
    let effects = update(
        &mut m,
        Action::Live(Report::Page {
            query,
            page: page(Vec::new()),
        }),
    );
    assert!(!effects.iter().any(|e| matches!(e, Effect::RememberRoom(_))));
    let effects = update(
        &mut m,
        Action::Live(Report::Page {
            query,
            page: page(vec![event(1, JOIN, "room-a", false)]),
        }),
    );
    let remembered: Vec<&UsedRoom> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::RememberRoom(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(remembered.len(), 1, "{effects:?}");
    assert_eq!(remembered[0].id, "room-a");
    assert_eq!(remembered[0].name.as_deref(), Some("name-room-a"));
    assert_eq!(remembered[0].base_url, URL);
    // The next page: already remembered.
    let effects = update(
        &mut m,
        Action::Live(Report::Page {
            query,
            page: page(vec![event(2, JOIN, "room-a", false)]),
        }),
    );
    assert!(!effects.iter().any(|e| matches!(e, Effect::RememberRoom(_))));
    // The prompt of this run offers it among the rooms used before.
    let live = m.session.live.as_ref().unwrap();
    assert_eq!(live.rooms_used[0].id, "room-a");
}

#[test]
fn a_name_no_room_has_offers_the_offered_rooms_whose_names_contain_it() {
    let (mut m, _) = live(Filter::default(), vec![used(ID_B, "standup", URL)]);
    update(
        &mut m,
        Action::RecentRooms(Ok(vec![recent(ID_A, Some("weekly-allhands"))])),
    );
    type_text(&mut m, "Weekly");
    run(&mut m, Command::Apply);
    update(
        &mut m,
        Action::RoomLookedUp {
            name: "Weekly".into(),
            result: Ok(Named::None { near: Vec::new() }),
        },
    );
    let p = prompt(&m);
    assert!(
        p.message
            .as_deref()
            .unwrap()
            .contains("names that contain it"),
        "{:?}",
        p.message
    );
    assert_eq!(p.found.len(), 1);
    assert_eq!(p.found[0].id, ID_A);
    // Enter takes it.
    let effects = run(&mut m, Command::Apply);
    assert_eq!(query_of(&effects).and_then(|f| f.room()), Some(ID_A));
}
