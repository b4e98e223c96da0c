//! The platform's data beside the events: what a live explorer asks for, when, and what the
//! answers change.

use super::*;
use crate::insight::Outcome;
use crate::related::{PeerStats, Session};
use crate::source::related_live::{Answer, Ask};
use crate::store::Store;
use crate::tui::model::Asked;

/// One join failure of peer-0 in room-a (session session-room-a) at 10:00:00, as a live
/// query's answer on room-a.
fn live_join() -> Model {
    let mut m = loaded(&[event(0, JOIN, "room-a", false)]);
    let mut live = crate::tui::model::Live::new("http://127.0.0.1:1".into());
    live.fetch = Fetch::Done;
    live.complete = true;
    live.next = Some(String::new());
    m.session.live = Some(live);
    m.events.filter = Filter::default().with(Field::Room, "room-a");
    m
}

fn session_with(peer: &str, joined: &str, left: &str) -> Session {
    Session::parse(
        &json!({
            "id": "session-room-a", "room_id": "room-a", "active": false,
            "created_at": "2026-11-18T09:00:00Z", "updated_at": left,
            "peers": {peer: {"id": peer, "joined_at": joined, "left_at": left}}
        })
        .to_string(),
    )
    .unwrap()
}

fn asks(effects: &[Effect]) -> Vec<Ask> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Ask(ask) => Some(ask.clone()),
            _ => None,
        })
        .collect()
}

fn story_verdicts(m: &Model) -> Vec<Outcome> {
    super::story_of(m)
        .unwrap()
        .verdicts
        .iter()
        .map(|v| v.outcome)
        .collect()
}

#[test]
fn live_a_query_asks_for_its_rooms_sessions_and_their_answer_tells_the_verdict() {
    let mut m = live_join();
    let effects = run(&mut m, Command::Rerun);
    assert_eq!(
        asks(&effects),
        [Ask::Sessions {
            room_id: "room-a".into()
        }]
    );
    // While the question is out, running the query again does not ask twice.
    assert!(asks(&run(&mut m, Command::Rerun)).is_empty());
    run(&mut m, Command::ShowStory);
    assert_eq!(story_verdicts(&m), [Outcome::Unknown]);
    // The sessions arrive: the open story is told again, on that evidence.
    let answer = Answer::Sessions {
        room_id: "room-a".into(),
        sessions: Ok(vec![session_with(
            "peer-0",
            "2026-11-18T10:00:30Z",
            "2026-11-18T10:20:00Z",
        )]),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    assert_eq!(
        m.beside.sessions_asked("room-a"),
        Some(&crate::tui::model::Asked::Answered)
    );
    assert_eq!(story_verdicts(&m), [Outcome::GotThrough]);
    let v = &super::story_of(&m).unwrap().verdicts[0];
    assert!(
        v.evidence
            .starts_with("joined session session-… at 10:00:30 (29s after the first failure)"),
        "{}",
        v.evidence
    );
}

#[test]
fn live_a_refused_sessions_question_leaves_the_verdict_unknown_and_is_asked_again() {
    let mut m = live_join();
    run(&mut m, Command::Rerun);
    let answer = Answer::Sessions {
        room_id: "room-a".into(),
        sessions: Err("HTTP 403: forbidden".into()),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    assert_eq!(
        m.beside.sessions_asked("room-a"),
        Some(&Asked::Failed("HTTP 403: forbidden".into()))
    );
    run(&mut m, Command::ShowStory);
    assert_eq!(story_verdicts(&m), [Outcome::Unknown]);
    run(&mut m, Command::Cancel);
    assert_eq!(asks(&run(&mut m, Command::Rerun)).len(), 1);
}

#[test]
fn live_opening_a_story_asks_once_for_the_peers_track_events_which_join_the_story() {
    let mut m = live_join();
    let effects = run(&mut m, Command::ShowStory);
    assert_eq!(
        asks(&effects),
        [Ask::Tracks {
            room_id: "room-a".into(),
            peer_id: "peer-0".into()
        }]
    );
    run(&mut m, Command::Cancel);
    assert!(asks(&run(&mut m, Command::ShowStory)).is_empty());
    // A track published after the failure: proof the peer got in.
    let mut store = Store::new();
    store.merge(batch(&[json!({
        "id": "t1", "timestamp": "2026-11-18T10:00:40Z", "type": "track.add.success",
        "data": {"room_id": "room-a", "peer_id": "peer-0", "type": "video", "source": "regular"}
    })]));
    let answer = Answer::Tracks {
        room_id: "room-a".into(),
        peer_id: "peer-0".into(),
        events: Ok(Box::new(store)),
        whole: true,
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    let story = super::story_of(&m).unwrap();
    assert_eq!(story.tracks.len(), 1);
    assert_eq!(story_verdicts(&m), [Outcome::GotThrough]);
    assert_eq!(
        story.verdicts[0].evidence,
        "published video at 10:00:40 (track.add.success)"
    );
    // The same answer again adds nothing.
    assert_eq!(m.beside.track_raws.len(), 1);
}

/// A publish failure of peer-0 in room-a at 10:00:00, live, with the room's session known
/// from 09:00 to 11:00: peer-0 left at 10:00:05.
fn live_publish_then_left() -> Model {
    let mut publish = event(0, PUBLISH, "room-a", false);
    publish["data"]["action"] = json!("PUBLISH");
    let mut m = loaded(&[publish]);
    let mut live = crate::tui::model::Live::new("http://127.0.0.1:1".into());
    live.fetch = Fetch::Done;
    live.complete = true;
    m.session.live = Some(live);
    m.events.filter = Filter::default().with(Field::Room, "room-a");
    let answer = Answer::Sessions {
        room_id: "room-a".into(),
        sessions: Ok(vec![
            Session::parse(
                &json!({
                    "id": "session-room-a", "room_id": "room-a", "active": false,
                    "created_at": "2026-11-18T09:00:00Z", "updated_at": "2026-11-18T11:00:00Z",
                    "peers": {"peer-0": {
                        "id": "peer-0", "joined_at": "2026-11-18T09:59:00Z",
                        "left_at": "2026-11-18T10:00:05Z"
                    }}
                })
                .to_string(),
            )
            .unwrap(),
        ]),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    m
}

#[test]
fn live_track_events_fetched_whole_and_none_tell_a_publish_left_without_a_track() {
    for whole in [true, false] {
        let mut m = live_publish_then_left();
        run(&mut m, Command::ShowStory);
        let answer = Answer::Tracks {
            room_id: "room-a".into(),
            peer_id: "peer-0".into(),
            events: Ok(Box::new(Store::new())),
            whole,
        };
        update(&mut m, Action::Answered { answer, now: 0 });
        let evidence = super::story_of(&m).unwrap().verdicts[0].evidence.clone();
        // The groups' count of chains that got through reads the same outcome.
        let store = &m.events.store;
        let generation = m.events.generation.store;
        let grouped = m.beside.outcomes(store, generation).by_event[0].map(|(_, o)| o);
        if whole {
            assert_eq!(story_verdicts(&m), [Outcome::Left]);
            assert_eq!(grouped, Some(Outcome::Left));
            assert!(
                evidence.ends_with(
                    "with no track published after the first failure: the service holds no \
                     track event of the peer in the room"
                ),
                "{evidence}"
            );
        } else {
            // Some pages were left unread: the absence says nothing.
            assert_eq!(story_verdicts(&m), [Outcome::Unknown]);
            assert_eq!(grouped, Some(Outcome::Unknown));
            assert!(
                evidence.ends_with("ask for the track events of its session"),
                "{evidence}"
            );
        }
    }
}

#[test]
fn m_asks_for_the_stats_live_keeps_a_refusal_to_show_and_r_asks_again() {
    let mut m = live_join();
    let effects = run(&mut m, Command::ShowQuality);
    assert_eq!(m.focus.mode(), Mode::Quality);
    let ask = Ask::Stats {
        peer_id: "peer-0".into(),
        session_id: "session-room-a".into(),
    };
    assert_eq!(asks(&effects), std::slice::from_ref(&ask));
    // While it is out, R asks nothing more.
    assert!(asks(&run(&mut m, Command::Rerun)).is_empty());
    let refusal =
        "HTTP 400: the session is still active: quality stats are available after it ends";
    let answer = Answer::Stats {
        peer_id: "peer-0".into(),
        session_id: "session-room-a".into(),
        stats: Err(refusal.into()),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    assert_eq!(
        m.beside.stats_asked("peer-0", "session-room-a"),
        Some(&Asked::Failed(refusal.into()))
    );
    assert_eq!(asks(&run(&mut m, Command::Rerun)), [ask]);
    // The stats come: they are at hand, and nothing more is asked.
    let stats = PeerStats::parse(
        &json!({"peer_id": "peer-0", "session_id": "session-room-a", "publisher": {}, "subscriber": {}})
            .to_string(),
    )
    .unwrap();
    let answer = Answer::Stats {
        peer_id: "peer-0".into(),
        session_id: "session-room-a".into(),
        stats: Ok(stats),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    assert!(m.beside.data.stats_of("peer-0", "session-room-a").is_some());
    assert!(asks(&run(&mut m, Command::Rerun)).is_empty());
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn offline_nothing_is_asked_and_m_opens_on_what_is_loaded() {
    let mut m = loaded(&[event(0, JOIN, "room-a", false)]);
    assert!(asks(&run(&mut m, Command::ShowStory)).is_empty());
    run(&mut m, Command::Cancel);
    assert!(asks(&run(&mut m, Command::ShowQuality)).is_empty());
    assert_eq!(m.focus.mode(), Mode::Quality);
    // R says there is no service to ask.
    run(&mut m, Command::Rerun);
    assert_eq!(
        m.status.as_deref(),
        Some("these stats come from files: there is no service to ask")
    );
}

#[test]
fn the_network_view_covers_the_panes_clicks_and_the_wheel_change_nothing_beneath() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ShowQuality);
    assert_eq!(m.focus.mode(), Mode::Quality);
    let list = areas(140, 40).list;
    update(
        &mut m,
        Action::Click {
            column: list.x + 2,
            row: list.y + 4,
        },
    );
    wheel_at(&mut m, list.x + 2, list.y + 4, true);
    assert_eq!(m.focus.mode(), Mode::Quality);
    assert_eq!(m.events.selection.selected, 0);
}

#[test]
fn s_offers_a_folder_when_related_data_is_at_hand_and_a_file_otherwise() {
    let path_of = |m: &Model| match &m.focus {
        Focus::SavePath(prompt) => prompt.path.value().to_string(),
        other => panic!("{:?}", other.mode()),
    };
    let mut m = loaded(&ten());
    run(&mut m, Command::SaveShown);
    assert!(path_of(&m).ends_with(".json"), "{}", path_of(&m));
    run(&mut m, Command::Cancel);
    let session = session_with("peer-0", "2026-11-18T10:00:30Z", "2026-11-18T10:20:00Z");
    update(
        &mut m,
        Action::RelatedLoaded {
            objects: vec![crate::related::Object::Session(session)],
            now: 0,
        },
    );
    run(&mut m, Command::SaveShown);
    assert!(path_of(&m).ends_with('/'), "{}", path_of(&m));
}

#[test]
fn live_sessions_asked_again_replace_their_old_copies_and_follow_asks_with_each_run() {
    let mut m = live_join();
    run(&mut m, Command::ToggleFollow);
    // Each run of follow mode asks for the room's sessions with the events.
    let effects = update(&mut m, Action::FollowTick);
    assert_eq!(
        asks(&effects),
        [Ask::Sessions {
            room_id: "room-a".into()
        }]
    );
    let at = |t: &str| crate::time::parse_rfc3339_nanos(&format!("2026-11-18T{t}Z")).unwrap();
    // The room's session, still going: as it stood at 10:20, and as it stands at 10:21.
    let going = |peers: serde_json::Value| {
        Session::parse(
            &json!({
                "id": "session-room-a", "room_id": "room-a", "active": true,
                "created_at": "2026-11-18T09:00:00Z", "updated_at": "2026-11-18T10:20:00Z",
                "peers": peers
            })
            .to_string(),
        )
        .unwrap()
    };
    let someone = json!({"id": "someone", "joined_at": "2026-11-18T09:10:00Z"});
    let without_peer_0 = || Answer::Sessions {
        room_id: "room-a".into(),
        sessions: Ok(vec![going(json!({ "someone": someone }))]),
    };
    // At 10:05 the ten minutes after the failure are not over: not known yet.
    let answer = without_peer_0();
    update(
        &mut m,
        Action::Answered {
            answer,
            now: at("10:05:00"),
        },
    );
    run(&mut m, Command::ShowStory);
    assert_eq!(story_verdicts(&m), [Outcome::Unknown]);
    // The same answer at 10:20: the session, still going, is known up to then.
    let answer = without_peer_0();
    update(
        &mut m,
        Action::Answered {
            answer,
            now: at("10:20:00"),
        },
    );
    assert_eq!(story_verdicts(&m), [Outcome::NeverGotIn]);
    // Asked again, the same session lists peer-0, who joined at 10:00:10: the newer copy is
    // the one read.
    let peer = json!({"id": "peer-0", "joined_at": "2026-11-18T10:00:10Z"});
    let answer = Answer::Sessions {
        room_id: "room-a".into(),
        sessions: Ok(vec![going(json!({ "someone": someone, "peer-0": peer }))]),
    };
    update(
        &mut m,
        Action::Answered {
            answer,
            now: at("10:21:00"),
        },
    );
    assert_eq!(m.beside.data.sessions.len(), 1);
    assert_eq!(story_verdicts(&m), [Outcome::GotThrough]);
}

#[test]
fn live_a_query_of_a_room_that_brings_nothing_asks_whether_the_service_knows_the_room() {
    // A query of a room, answered with no page at all: the room itself is asked about, once.
    let mut m = model(120, 30);
    m.session.load = crate::tui::model::LoadState::Idle;
    let mut live = crate::tui::model::Live::new("http://127.0.0.1:1".into());
    live.replacing = true;
    m.session.live = Some(live);
    m.events.filter = Filter::default().with(Field::Room, "6735e0b1c4a92f5d18e3b7a9");
    let query = m.session.live.as_ref().unwrap().query;
    let finished = |m: &mut Model| {
        update(
            m,
            Action::Live(crate::source::worker::Report::Finished { query }),
        )
    };
    assert_eq!(
        asks(&finished(&mut m)),
        [Ask::Room {
            room_id: "6735e0b1c4a92f5d18e3b7a9".into()
        }]
    );
    assert!(asks(&finished(&mut m)).is_empty(), "asked once");
    let answer = Answer::Room {
        room_id: "6735e0b1c4a92f5d18e3b7a9".into(),
        known: Ok(false),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    let screen = screen_text(&m);
    assert!(
        screen.contains("no events loaded: the service has no room of id 6735e0b1c4a92f5d18e3b7a9"),
        "{screen}"
    );
    // A query that brought events asks nothing.
    let mut m = live_join();
    assert!(asks(&finished(&mut m)).is_empty());
}

#[test]
fn live_a_refused_question_about_the_room_is_said_with_its_words_and_not_as_no_such_room() {
    let mut m = model(200, 30);
    m.session.load = crate::tui::model::LoadState::Idle;
    let mut live = crate::tui::model::Live::new("http://127.0.0.1:1".into());
    live.fetch = Fetch::Done;
    m.session.live = Some(live);
    m.events.filter = Filter::default().with(Field::Room, "6735e0b1c4a92f5d18e3b7a9");
    let answer = Answer::Room {
        room_id: "6735e0b1c4a92f5d18e3b7a9".into(),
        known: Err("HTTP 400: Bad Request (room_id is required)".into()),
    };
    update(&mut m, Action::Answered { answer, now: 0 });
    let screen = screen_text(&m);
    // The list's width wraps the details onto the next line.
    assert!(
        screen.contains(
            "no events loaded; the service did not say whether it has a room of id \
             6735e0b1c4a92f5d18e3b7a9: HTTP 400: Bad Request"
        ) && screen.contains("(room_id is required)"),
        "{screen}"
    );
    assert!(!screen.contains("has no room"), "{screen}");
}

/// A folder holding two saves of one session, read file by file: the later copy replaces the
/// stale one and the verdicts are told again (their cache is keyed by the data's version),
/// though no session was new.
#[test]
fn a_later_copy_of_a_session_from_another_file_tells_the_verdicts_again() {
    let copy = |active: bool| {
        let raw = format!(
            r#"{{"id":"s1","room_id":"room-a","active":{active},"created_at":"2026-11-18T10:00:00Z"}}"#
        );
        crate::related::Object::Session(Session::parse(&raw).unwrap())
    };
    let mut beside = crate::tui::model::Beside::default();
    assert_eq!(beside.add(vec![copy(true)], 0), 1);
    let version = beside.version;
    assert_eq!(beside.add(vec![copy(false)], 0), 0, "no session is new");
    assert!(beside.version > version, "the verdicts are told again");
    assert_eq!(beside.data.sessions[0].active, Some(false));
    // A copy that knows no more changes nothing.
    let version = beside.version;
    beside.add(vec![copy(true)], 0);
    assert_eq!(beside.version, version);
}
