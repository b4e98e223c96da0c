//! The rooms used before, remembered in the state folder (`~/.local/state/callscope/rooms.json`)
//! for the room prompt: each room whose events were loaded, with its name and the API it was
//! read from, newest first. A missing or unreadable file is no rooms, never a failure.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file's name in the state folder.
pub const FILE_NAME: &str = "rooms.json";
/// Rooms remembered at most, every API's together.
pub const MOST: usize = 50;

/// A room whose events were loaded once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsedRoom {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The API it was read from: a room id means nothing to another.
    pub base_url: String,
    /// When its events were last loaded (seconds since the epoch).
    #[serde(default)]
    pub used_at: i64,
}

/// Where the rooms are remembered, when the system has a state folder.
pub fn path() -> Option<PathBuf> {
    crate::folders::state().map(|dir| dir.join(FILE_NAME))
}

/// The rooms remembered in `path`, newest first; none when the file is missing or unreadable
/// (said in the log).
pub fn read(path: &Path) -> Vec<UsedRoom> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "cannot read the rooms used before");
            return Vec::new();
        }
    };
    match serde_json::from_slice::<Vec<UsedRoom>>(&bytes) {
        Ok(mut rooms) => {
            rooms.sort_by_key(|r| std::cmp::Reverse(r.used_at));
            rooms
        }
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "the rooms used before are not readable; starting afresh");
            Vec::new()
        }
    }
}

/// `room` first among `rooms`, replacing its earlier entry (same id, same API); at most
/// [`MOST`] kept.
pub fn add(rooms: &mut Vec<UsedRoom>, room: UsedRoom) {
    rooms.retain(|r| !(r.id == room.id && r.base_url == room.base_url));
    rooms.insert(0, room);
    rooms.truncate(MOST);
}

/// Adds `room` to the rooms remembered in `path` (read again first: another explorer may have
/// added some), and writes them back atomically.
pub fn remember(path: &Path, room: UsedRoom) -> std::io::Result<()> {
    let mut rooms = read(path);
    add(&mut rooms, room);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::output::write_atomically(path, |out| {
        serde_json::to_writer_pretty(&mut *out, &rooms).map_err(std::io::Error::other)?;
        out.write_all(b"\n")
    })
}

/// The rooms used before with this API, newest first.
pub fn of_api<'a>(rooms: &'a [UsedRoom], base_url: &'a str) -> impl Iterator<Item = &'a UsedRoom> {
    rooms.iter().filter(move |r| r.base_url == base_url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(id: &str, url: &str, at: i64) -> UsedRoom {
        UsedRoom {
            id: id.into(),
            name: Some(format!("room {id}")),
            base_url: url.into(),
            used_at: at,
        }
    }

    #[test]
    fn a_room_used_again_moves_first_and_the_file_keeps_every_apis_rooms() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state").join(FILE_NAME);
        assert!(read(&path).is_empty(), "no file: no rooms");
        remember(&path, used("a", "http://x", 1)).unwrap();
        remember(&path, used("b", "http://x", 2)).unwrap();
        remember(&path, used("a", "http://y", 3)).unwrap();
        remember(&path, used("a", "http://x", 4)).unwrap();
        let rooms = read(&path);
        let seen: Vec<(&str, &str)> = rooms
            .iter()
            .map(|r| (r.id.as_str(), r.base_url.as_str()))
            .collect();
        assert_eq!(
            seen,
            [("a", "http://x"), ("a", "http://y"), ("b", "http://x")]
        );
        let of_x: Vec<&str> = of_api(&rooms, "http://x").map(|r| r.id.as_str()).collect();
        assert_eq!(of_x, ["a", "b"]);
    }

    #[test]
    fn an_unreadable_file_is_no_rooms_and_is_replaced_by_the_next_room() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "not json").unwrap();
        assert!(read(&path).is_empty());
        remember(&path, used("a", "http://x", 1)).unwrap();
        assert_eq!(read(&path), [used("a", "http://x", 1)]);
    }

    #[test]
    fn at_most_so_many_rooms_are_kept() {
        let mut rooms = Vec::new();
        for k in 0..(MOST as i64 + 5) {
            add(&mut rooms, used(&k.to_string(), "u", k));
        }
        assert_eq!(rooms.len(), MOST);
        assert_eq!(rooms[0].id, (MOST + 4).to_string());
    }
}
