//! The platform's data beside the events: what an offline source held, the live answers, and the
//! live questions (a room's sessions with each query, a peer's track events when its story is
//! opened, its quality stats on a key).

use crate::related::Object;
use crate::source::related_live::{Answer, Ask};
use crate::tui::effect::Effect;
use crate::tui::model::{Asked, Beside, Model};

/// An offline source's related data, read beside its events.
pub fn loaded(model: &mut Model, objects: Vec<Object>, now: i64) {
    model.beside.add(objects, now);
}

/// A live answer.
pub fn answered(model: &mut Model, answer: Answer, now: i64) -> Vec<Effect> {
    let beside = &mut model.beside;
    match answer {
        Answer::Sessions { room_id, sessions } => {
            let asked = match sessions {
                Ok(sessions) => {
                    // Asked with each query and each follow run: the newest copy of each wins.
                    beside.renew_sessions(&room_id, sessions, now);
                    Asked::Answered
                }
                Err(why) => Asked::Failed(why),
            };
            Beside::set(&mut beside.sessions, room_id, asked);
        }
        Answer::Tracks {
            peer_id,
            events,
            whole,
            ..
        } => {
            let asked = match events {
                Ok(store) => {
                    let known = beside.track_raws.len();
                    beside
                        .track_raws
                        .extend((0..store.len()).map(|i| Box::<[u8]>::from(store.raw(i))));
                    // The same answer again (a story opened twice) adds nothing.
                    let mut seen: Vec<Box<[u8]>> = beside.track_raws.drain(..known).collect();
                    for raw in beside.track_raws.drain(..).collect::<Vec<_>>() {
                        if !seen.contains(&raw) {
                            seen.push(raw);
                        }
                    }
                    beside.track_raws = seen;
                    beside.add_tracks(crate::insight::tracks_in(&store));
                    if whole {
                        beside.tracks_whole(&peer_id);
                    }
                    Asked::Answered
                }
                Err(why) => Asked::Failed(why),
            };
            Beside::set(&mut beside.peer_tracks, peer_id, asked);
        }
        Answer::Stats {
            peer_id,
            session_id,
            stats,
        } => {
            let asked = match stats {
                Ok(stats) => {
                    beside.add(vec![Object::Stats(stats)], now);
                    Asked::Answered
                }
                Err(why) => Asked::Failed(why),
            };
            Beside::set(&mut beside.stats, (peer_id, session_id), asked);
        }
        Answer::Room { room_id, known } => match known {
            Ok(false) if !beside.rooms_unknown.contains(&room_id) => {
                beside.rooms_unknown.push(room_id);
            }
            // The empty answer stays, with why the room is not known of.
            Err(why) if !beside.rooms_untold.iter().any(|(r, _)| *r == room_id) => {
                beside.rooms_untold.push((room_id, why));
            }
            _ => {}
        },
    }
    Vec::new()
}

/// Live: whether the service knows the query's room, asked once a room's query brought no event
/// at all (a mistyped id reads as a quiet room otherwise). Asked once a room.
pub fn ask_room(model: &mut Model) -> Vec<Effect> {
    if model.session.live.is_none() || !model.events.store.is_empty() {
        return Vec::new();
    }
    let Some(room_id) = model.events.filter.room().map(str::to_string) else {
        return Vec::new();
    };
    if model.beside.rooms_asked.contains(&room_id) {
        return Vec::new();
    }
    model.beside.rooms_asked.push(room_id.clone());
    vec![Effect::Ask(Ask::Room { room_id })]
}

/// Live: the sessions of the query's room are asked for with its events (unless a question is
/// already out). Nothing offline, nor without a room.
pub fn ask_sessions(model: &mut Model) -> Vec<Effect> {
    if model.session.live.is_none() {
        return Vec::new();
    }
    let Some(room_id) = model.events.filter.room().map(str::to_string) else {
        return Vec::new();
    };
    if model.beside.sessions_asked(&room_id) == Some(&Asked::Asking) {
        return Vec::new();
    }
    Beside::set(&mut model.beside.sessions, room_id.clone(), Asked::Asking);
    vec![Effect::Ask(Ask::Sessions { room_id })]
}

/// Live: a peer's track events, asked for when its story is opened (once, unless the question
/// failed).
pub fn ask_tracks(model: &mut Model, room_id: &str, peer_id: &str) -> Vec<Effect> {
    if model.session.live.is_none() || room_id.is_empty() || peer_id.is_empty() {
        return Vec::new();
    }
    let asked = model
        .beside
        .peer_tracks
        .iter()
        .find(|(p, _)| p == peer_id)
        .map(|(_, a)| a);
    if matches!(asked, Some(Asked::Asking | Asked::Answered)) {
        return Vec::new();
    }
    Beside::set(
        &mut model.beside.peer_tracks,
        peer_id.to_string(),
        Asked::Asking,
    );
    vec![Effect::Ask(Ask::Tracks {
        room_id: room_id.to_string(),
        peer_id: peer_id.to_string(),
    })]
}

/// Live: a peer's quality stats in a session, asked for on the quality key (again after a
/// refusal: the session may have ended since). Nothing when they are at hand or on their way.
pub fn ask_stats(model: &mut Model, peer_id: &str, session_id: &str) -> Vec<Effect> {
    if model.session.live.is_none()
        || model.beside.data.stats_of(peer_id, session_id).is_some()
        || model.beside.stats_asked(peer_id, session_id) == Some(&Asked::Asking)
    {
        return Vec::new();
    }
    Beside::set(
        &mut model.beside.stats,
        (peer_id.to_string(), session_id.to_string()),
        Asked::Asking,
    );
    vec![Effect::Ask(Ask::Stats {
        peer_id: peer_id.to_string(),
        session_id: session_id.to_string(),
    })]
}
