//! The rooms of recent sessions, for a person who has not named one: the sessions endpoint lists
//! the sessions of every room, newest first; each room is offered once, with its newest session
//! (when it ran, how many peers joined) and how many of the listed sessions it had.

use std::collections::HashMap;

use super::api::sessions::SessionQuery;
use super::live::Connection;
use super::worker;
use crate::related::Session;

/// Sessions asked for, of those running and of those ended each: one page of each.
pub const SESSIONS_ASKED: usize = 100;
/// Rooms offered at most.
pub const MOST_ROOMS: usize = 12;

/// A room with a recent session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentRoom {
    pub id: String,
    /// The room's name, when known (the rooms endpoint, or a room used before).
    pub name: Option<String>,
    /// When its newest session began (nanoseconds since the epoch).
    pub started: Option<i64>,
    /// When its newest session ended, when it has and the session says so.
    pub ended: Option<i64>,
    /// Its newest session is still running.
    pub active: bool,
    /// Peers that joined its newest session.
    pub peers: usize,
    /// Its sessions among those listed.
    pub sessions: usize,
}

/// The rooms of `sessions`, each once with its newest session, newest first; at most `most`.
/// A session listed twice (by the running and the ended queries alike) counts once.
pub fn rooms_of(sessions: &[Session], most: usize) -> Vec<RecentRoom> {
    let mut seen = std::collections::HashSet::new();
    let mut sorted: Vec<&Session> = sessions.iter().filter(|s| seen.insert(&s.id)).collect();
    // Newest first; a session whose start is unreadable goes last.
    sorted.sort_by_key(|s| std::cmp::Reverse(s.started().unwrap_or(i64::MIN)));
    let mut rooms: Vec<RecentRoom> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for s in sorted {
        if s.room_id.is_empty() {
            continue;
        }
        if let Some(&k) = index.get(s.room_id.as_str()) {
            rooms[k].sessions += 1;
            continue;
        }
        index.insert(&s.room_id, rooms.len());
        let active = s.active == Some(true);
        rooms.push(RecentRoom {
            id: s.room_id.clone(),
            name: None,
            started: s.started(),
            ended: if active { None } else { s.known_until(0) },
            active,
            peers: s.peers.len(),
            sessions: 1,
        });
    }
    rooms.truncate(most);
    rooms
}

/// The rooms of the newest sessions (running and ended), named: by `known` (id to name, the
/// rooms used before) or else by the rooms endpoint. A room whose name cannot be had is offered
/// by its id. Fails only when the sessions cannot be listed.
pub async fn recent_rooms(
    connection: &Connection,
    known: &HashMap<String, String>,
) -> Result<Vec<RecentRoom>, String> {
    let tokens = std::sync::Mutex::new(connection.tokens.clone());
    let pause = worker::Pause::default();
    let mut sessions = Vec::new();
    for active in [true, false] {
        let query = SessionQuery {
            active: Some(active),
            most: SESSIONS_ASKED,
            ..SessionQuery::default()
        };
        let found = worker::retrying(
            &tokens,
            &pause,
            |token| {
                let query = query.clone();
                async move { connection.api.sessions(&token, &query).await }
            },
            |retry| tracing::info!(reason = %retry.reason, "retrying the sessions"),
        )
        .await
        .map_err(|e| {
            connection.names.rename(&format!(
                "cannot list the recent sessions: {}",
                e.describe()
            ))
        })?;
        sessions.extend(found);
    }
    let mut rooms = rooms_of(&sessions, MOST_ROOMS);
    let lookups = rooms.iter().map(|room| {
        let known = known.get(&room.id).cloned();
        let (tokens, pause) = (&tokens, &pause);
        async move {
            if known.is_some() {
                return known;
            }
            let found = worker::retrying(
                tokens,
                pause,
                |token| async move { connection.api.room(&token, &room.id).await },
                |_| {},
            )
            .await;
            match found {
                Ok(Some(r)) if !r.name.is_empty() => Some(r.name),
                Ok(_) => None,
                Err(e) => {
                    tracing::info!(room = %room.id, error = %e.describe(), "no name for a room");
                    None
                }
            }
        }
    });
    let names = futures::future::join_all(lookups).await;
    for (room, name) in rooms.iter_mut().zip(names) {
        room.name = name;
    }
    Ok(rooms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: &str, room: &str, created: &str, active: bool, peers: usize) -> Session {
        let peers: Vec<String> = (0..peers)
            .map(|k| format!(r#""p{k}":{{"id":"p{k}","left_at":"2026-11-18T11:00:00Z"}}"#))
            .collect();
        Session::parse(&format!(
            r#"{{"id":"{id}","room_id":"{room}","active":{active},"created_at":"{created}","updated_at":"2026-11-18T10:30:00Z","peers":{{{}}}}}"#,
            peers.join(",")
        ))
        .unwrap()
    }

    #[test]
    fn each_room_is_offered_once_with_its_newest_session_newest_room_first() {
        let sessions = vec![
            session("s1", "a", "2026-11-18T08:00:00Z", false, 2),
            session("s2", "b", "2026-11-18T09:00:00Z", true, 5),
            session("s3", "a", "2026-11-18T10:00:00Z", false, 3),
            session("s4", "c", "2026-11-17T10:00:00Z", false, 1),
            // Listed again: counted once.
            session("s3", "a", "2026-11-18T10:00:00Z", false, 3),
        ];
        let rooms = rooms_of(&sessions, 10);
        let ids: Vec<&str> = rooms.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!((rooms[0].sessions, rooms[0].peers), (2, 3));
        assert!(!rooms[0].active);
        assert_eq!(
            rooms[0].ended,
            crate::time::parse_rfc3339_nanos("2026-11-18T11:00:00Z")
        );
        assert!(rooms[1].active && rooms[1].ended.is_none());
        assert_eq!(rooms_of(&sessions, 2).len(), 2);
    }
}
