//! `GET /v2/rooms` and `GET /v2/rooms/{id}` over what serve holds, paged as the hosted API pages
//! them (`limit` 10..100, `start` = the previous page's `last`). The rooms are those the served
//! events name, each with the id and name the events give it: what the events do not say
//! (whether a room is enabled, its template) is left out rather than made up.

use super::problem::Problem;
use crate::related::Related;
use crate::store::{Store, Sym};

pub const ROOMS_PATH: &str = "/v2/rooms";
pub const ROOM_PATH: &str = "/v2/rooms/{id}";

const DEFAULT_LIMIT: usize = 10;

/// The rooms serve knows, in the order their events were first loaded.
#[derive(Debug, Default)]
pub struct Rooms {
    rooms: Vec<serde_json::Value>,
}

impl Rooms {
    /// The rooms serve holds: those of the related data as they were read, then those only the
    /// events name.
    pub fn of(related: &Related, store: &Store) -> Rooms {
        let mut rooms: Vec<serde_json::Value> = related
            .rooms
            .iter()
            .filter_map(|r| serde_json::from_str(&r.raw).ok())
            .collect();
        for room in Rooms::of_events(store).rooms {
            if !rooms.iter().any(|r| Self::id_of(r) == Self::id_of(&room)) {
                rooms.push(room);
            }
        }
        Rooms { rooms }
    }

    /// The rooms the events of `store` name: each room id with the first room name seen for it.
    pub fn of_events(store: &Store) -> Rooms {
        let mut seen: Vec<(Sym, Sym)> = Vec::new();
        let mut index = rustc_hash::FxHashMap::default();
        for row in store.rows() {
            let id = row.room_id;
            if id.is_none() {
                continue;
            }
            match index.get(&id) {
                None => {
                    index.insert(id, seen.len());
                    seen.push((id, row.room_name));
                }
                Some(&k) => {
                    if seen[k].1.is_none() {
                        seen[k].1 = row.room_name;
                    }
                }
            }
        }
        let rooms = seen
            .into_iter()
            .map(|(id, name)| {
                let mut room = serde_json::Map::new();
                room.insert("id".into(), store.str(id).into());
                if !name.is_none() {
                    room.insert("name".into(), store.str(name).into());
                }
                serde_json::Value::Object(room)
            })
            .collect();
        Rooms { rooms }
    }

    fn id_of(room: &serde_json::Value) -> &str {
        room.get("id").and_then(|v| v.as_str()).unwrap_or("")
    }

    /// A page of the rooms matching the query (`name`, `enabled`), after `start`.
    pub fn list(&self, pairs: &[(String, String)]) -> Result<Vec<u8>, Problem> {
        let mut name = None;
        let mut enabled = None;
        let mut limit = DEFAULT_LIMIT;
        let mut start = None;
        for (key, value) in pairs {
            match key.as_str() {
                "name" if !value.is_empty() => name = Some(value.as_str()),
                "enabled" if !value.is_empty() => {
                    enabled = Some(match value.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => return Err(Problem::bad_request("enabled must be true or false")),
                    })
                }
                "limit" if !value.is_empty() => {
                    limit = value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (10..=100).contains(n))
                        .ok_or_else(|| {
                            Problem::bad_request("limit must be an integer from 10 to 100")
                        })?;
                }
                "start" if !value.is_empty() => start = Some(value.as_str()),
                _ => {}
            }
        }
        let matching: Vec<&serde_json::Value> = self
            .rooms
            .iter()
            .filter(|r| name.is_none_or(|n| r.get("name").and_then(|v| v.as_str()) == Some(n)))
            // What the events do not say counts as enabled: a room with events was used.
            .filter(|r| {
                enabled.is_none_or(|want| {
                    r.get("enabled").and_then(|v| v.as_bool()).unwrap_or(true) == want
                })
            })
            .collect();
        let from = match start {
            None => 0,
            Some(id) => matching
                .iter()
                .position(|r| Self::id_of(r) == id)
                .map(|k| k + 1)
                .ok_or_else(|| Problem::bad_request("invalid start: no room has that id"))?,
        };
        let page: Vec<&serde_json::Value> =
            matching.iter().skip(from).take(limit).copied().collect();
        let mut body = serde_json::json!({ "limit": limit, "data": page });
        if let Some(last) = page.last() {
            body["last"] = Self::id_of(last).into();
        }
        Ok(body.to_string().into_bytes())
    }

    /// One room, by id.
    pub fn get(&self, id: &str) -> Result<Vec<u8>, Problem> {
        self.rooms
            .iter()
            .find(|r| Self::id_of(r) == id)
            .map(|r| r.to_string().into_bytes())
            .ok_or_else(|| Problem::not_found(format!("no room has the id {id}")))
    }
}
