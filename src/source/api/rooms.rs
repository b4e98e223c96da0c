//! Rooms, as the rooms endpoint lists them (`GET /v2/rooms?name=N`, paged by `last`): how a room
//! named in a ticket ("weekly-allhands") becomes the `room_id` the events endpoint requires.

use serde::Deserialize;

use super::{Api, FetchError};
pub use crate::related::Room;
use crate::source::token::Token;

pub const ROOMS_PATH: &str = "/v2/rooms";

/// A page of the rooms endpoint.
#[derive(Debug, Deserialize)]
struct RoomsPage<'a> {
    #[serde(default, borrow)]
    data: Option<Vec<&'a serde_json::value::RawValue>>,
    #[serde(default)]
    last: Option<String>,
}

/// How many pages of rooms a lookup reads at most: a name matches a handful of rooms, not
/// thousands, and a server that keeps handing out cursors must not keep the lookup going.
const MOST_PAGES: usize = 20;

/// Whether a `--room` value is a room id rather than a name: the service's ids are 24 lowercase
/// hexadecimal digits.
pub fn looks_like_room_id(value: &str) -> bool {
    value.len() == 24
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Api {
    /// The rooms the rooms endpoint lists for `name` (`enabled` as given, the service's default
    /// when `None`), every page of them.
    pub async fn rooms_named(
        &self,
        token: &Token,
        name: &str,
        enabled: Option<bool>,
    ) -> Result<Vec<Room>, FetchError> {
        let mut rooms = Vec::new();
        let mut start: Option<String> = None;
        for _ in 0..MOST_PAGES {
            let mut params = vec![("name", name.to_string()), ("limit", "100".to_string())];
            if let Some(enabled) = enabled {
                params.push(("enabled", enabled.to_string()));
            }
            if let Some(start) = &start {
                params.push(("start", start.clone()));
            }
            let (body, target) = self.get(ROOMS_PATH, &params, token).await?;
            let page: RoomsPage = serde_json::from_slice(&body).map_err(|e| {
                tracing::warn!(url = %target, error = %e, "bad rooms page");
                FetchError::BadPage(format!("not a list of rooms: {e}"))
            })?;
            let data = page.data.unwrap_or_default();
            // A page shorter than asked for is the last one.
            let full = data.len() >= 100;
            for raw in data {
                rooms.push(
                    Room::parse(raw.get())
                        .map_err(|e| FetchError::BadPage(format!("not a room: {e}")))?,
                );
            }
            match page.last.filter(|l| !l.is_empty()) {
                Some(last) if full && start.as_deref() != Some(last.as_str()) => {
                    start = Some(last);
                }
                _ => break,
            }
        }
        Ok(rooms)
    }
}

impl Api {
    /// The room with this id (`GET /v2/rooms/<id>`), `None` when the server knows no such room:
    /// a 404 (the reference documents no error of this endpoint, and "Room not found" as a 404
    /// of the room codes endpoints). A 400 is the error it is (a token's shape, a parameter
    /// refused), not an answer about the room.
    pub async fn room(&self, token: &Token, id: &str) -> Result<Option<Room>, FetchError> {
        let path = format!("{ROOMS_PATH}/{}", url_segment(id));
        match self.get(&path, &[], token).await {
            Ok((body, _)) => Room::parse(&String::from_utf8_lossy(&body))
                .map(Some)
                .map_err(|e| FetchError::BadPage(format!("not a room: {e}"))),
            Err(e) if e.status() == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A path segment with everything but unreserved characters percent-encoded.
fn url_segment(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

/// What a name turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// Exactly one room has the name.
    One(Room),
    /// No room has it; these have names that contain it, for a hint.
    None { near: Vec<Room> },
    /// Several rooms have it.
    Several(Vec<Room>),
}

/// Reads the rooms a lookup listed for `name`: the rooms whose name is exactly it (the endpoint
/// may also list rooms whose names only contain it).
pub fn named(name: &str, rooms: Vec<Room>) -> Named {
    let (exact, near): (Vec<Room>, Vec<Room>) = rooms.into_iter().partition(|r| r.name == name);
    match exact.len() {
        0 => Named::None { near },
        1 => Named::One(exact.into_iter().next().expect("one room")),
        _ => Named::Several(exact),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(id: &str, name: &str) -> Room {
        Room::parse(&format!(
            r#"{{"id":"{id}","name":"{name}","enabled":true,"created_at":"2026-01-05T10:00:00Z"}}"#
        ))
        .unwrap()
    }

    #[test]
    fn ids_are_told_from_names() {
        assert!(looks_like_room_id("65af97002889d74ef8d1e18f"));
        assert!(!looks_like_room_id("65AF97002889D74EF8D1E18F"));
        assert!(!looks_like_room_id("weekly-allhands"));
        assert!(!looks_like_room_id("65af97002889d74ef8d1e18"));
    }

    #[test]
    fn only_an_exact_name_is_taken_and_several_are_said() {
        let a = room("65af97002889d74ef8d1e18f", "weekly-allhands");
        let b = room("65af97002889d74ef8d1e190", "weekly-allhands-old");
        assert_eq!(
            named("weekly-allhands", vec![a.clone(), b.clone()]),
            Named::One(a.clone())
        );
        assert_eq!(
            named("weekly", vec![a.clone(), b.clone()]),
            Named::None {
                near: vec![a.clone(), b.clone()]
            }
        );
        let twin = room("65af97002889d74ef8d1e191", "weekly-allhands");
        assert_eq!(
            named("weekly-allhands", vec![a.clone(), twin.clone()]),
            Named::Several(vec![a.clone(), twin])
        );
        assert_eq!(
            a.line(),
            "weekly-allhands (65af97002889d74ef8d1e18f, enabled, created 2026-01-05)"
        );
    }

    #[test]
    fn a_rooms_page_reads_as_the_reference_writes_it() {
        let body = br#"{"limit":10,"data":[{"id":"6","name":"n","enabled":true,"description":"d","customer_id":"c","template_id":"t","region":"in","created_at":"2026-01-05T10:00:00Z","updated_at":"2026-01-05T10:00:00Z","large_room":false}],"last":"6"}"#;
        let page: RoomsPage = serde_json::from_slice(body).unwrap();
        assert_eq!(Room::parse(page.data.unwrap()[0].get()).unwrap().name, "n");
        let empty: RoomsPage = serde_json::from_slice(br#"{"limit":10,"data":null}"#).unwrap();
        assert!(empty.data.is_none());
    }
}
