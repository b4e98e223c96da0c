//! A dataset written as a folder: the events and the related data beside them, each kind in a
//! file of its own, so that the folder opens again as one dataset, and as nothing but what was
//! written into it.

use std::io;
use std::path::{Path, PathBuf};

use super::{write_atomically, write_compact};

/// The files a folder dump holds: the events, then each kind of related data that is at hand.
pub const FOLDER_EVENTS: &str = "events.ndjson";
pub const FOLDER_ROOMS: &str = "rooms.json";
pub const FOLDER_SESSIONS: &str = "sessions.json";
pub const FOLDER_STATS: &str = "peer-stats.ndjson";
/// Every file a folder dump may hold, in the order they are written.
pub const FOLDER_FILES: [&str; 4] = [FOLDER_EVENTS, FOLDER_ROOMS, FOLDER_SESSIONS, FOLDER_STATS];

/// How many of the other files a refusal names; the rest are counted.
const NAMED: usize = 5;

/// The files of `dir` that callscope reads as part of a dataset there (see
/// [`crate::source::dump::folder_files`]), other than those a folder dump holds: left beside a
/// dataset written there, they would be read as part of it. None when `dir` is not there.
pub fn others_read(dir: &Path) -> Vec<PathBuf> {
    let Ok(files) = crate::source::dump::folder_files(dir) else {
        return Vec::new();
    };
    files
        .into_iter()
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str());
            !name.is_some_and(|n| FOLDER_FILES.contains(&n))
        })
        .collect()
}

/// A refusal to write a dataset into `dir` while other files callscope reads are there: they
/// are named, and left alone (they may be the very dumps being read).
pub fn refuse_others(dir: &Path) -> Result<(), String> {
    let others = others_read(dir);
    if others.is_empty() {
        return Ok(());
    }
    let mut names: Vec<String> = others
        .iter()
        .take(NAMED)
        .map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            crate::text::for_terminal(&name).into_owned()
        })
        .collect();
    if others.len() > NAMED {
        names.push(format!("{} more", others.len() - NAMED));
    }
    Err(format!(
        "{} holds {}, which callscope would read as part of the dataset written there: move {} \
         out, or write into another folder",
        crate::text::for_terminal(&dir.display().to_string()),
        names.join(", "),
        if others.len() == 1 { "it" } else { "them" }
    ))
}

/// A refusal to write a dataset into `dir` while it is being read: one of `sources` (the paths
/// named to read, `-` for stdin aside) is that folder, or a file in it. The dataset written
/// would take the place of what was read there, a filtered part of it perhaps. `None` when no
/// source is there.
pub fn refuse_reading(dir: &Path, sources: &[String]) -> Result<(), String> {
    let Ok(target) = dir.canonicalize() else {
        // Not there yet: nothing is read from it.
        return Ok(());
    };
    let read_there = sources.iter().filter(|s| *s != "-").find(|source| {
        let Ok(path) = Path::new(source.as_str()).canonicalize() else {
            return false;
        };
        path == target || (path.is_file() && path.parent() == Some(target.as_path()))
    });
    match read_there {
        None => Ok(()),
        Some(source) => Err(format!(
            "cannot write into {}: it is being read ({}), and the dataset written would take \
             the place of what is read; write into another folder",
            crate::text::for_terminal(&dir.display().to_string()),
            crate::text::for_terminal(source),
        )),
    }
}

/// The rooms, peers and sessions the events `rows` of a store name: what of the related data
/// goes with them ([`crate::related::Related::of_events`]).
pub fn named_by<'a>(store: &'a crate::store::Store, rows: &[u32]) -> crate::related::Named<'a> {
    let mut named = crate::related::Named::default();
    for &i in rows {
        let row = store.row(i as usize);
        let text = |s: crate::store::Sym| (!s.is_none()).then(|| store.str(s));
        named.add(text(row.room_id), text(row.peer_id), text(row.session_id));
    }
    named
}

/// Writes events and the related data beside them into a folder that re-opens as it was: the
/// events as NDJSON, the rooms and the sessions each as one list response
/// (`{"limit","data","last"}`, as their endpoints answer), the quality stats one response a
/// line. Each file is written atomically; a kind with nothing in it is not written, and a file of
/// that name left by an earlier write is removed once the others are written, so that the folder
/// holds what was written and nothing else. Other files callscope reads in a folder stop the
/// write before it begins ([`refuse_others`]); files it never reads are left alone. Returns the
/// files written.
pub fn write_folder<'a>(
    dir: &Path,
    events: impl Iterator<Item = &'a [u8]>,
    related: &crate::related::Related,
) -> io::Result<Vec<PathBuf>> {
    refuse_others(dir).map_err(io::Error::other)?;
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let path = dir.join(FOLDER_EVENTS);
    write_atomically(&path, |out| {
        for raw in events {
            write_compact(raw, out)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    })?;
    written.push(path);
    let list = |raws: Vec<&str>, last: Option<&str>| {
        let mut body = format!("{{\"limit\":{},\"data\":[", raws.len());
        body.push_str(&raws.join(","));
        body.push(']');
        if let Some(last) = last {
            body.push_str(&format!(",\"last\":{}", serde_json::Value::from(last)));
        }
        body.push_str("}\n");
        body
    };
    if !related.rooms.is_empty() {
        let body = list(
            related.rooms.iter().map(|r| r.raw.as_str()).collect(),
            related.rooms.last().map(|r| r.id.as_str()),
        );
        let path = dir.join(FOLDER_ROOMS);
        write_atomically(&path, |out| out.write_all(body.as_bytes()))?;
        written.push(path);
    }
    if !related.sessions.is_empty() {
        let body = list(
            related.sessions.iter().map(|s| s.raw.as_str()).collect(),
            related.sessions.last().map(|s| s.id.as_str()),
        );
        let path = dir.join(FOLDER_SESSIONS);
        write_atomically(&path, |out| out.write_all(body.as_bytes()))?;
        written.push(path);
    }
    if !related.stats.is_empty() {
        let path = dir.join(FOLDER_STATS);
        write_atomically(&path, |out| {
            for s in &related.stats {
                write_compact(s.raw.as_bytes(), out)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        })?;
        written.push(path);
    }
    for name in FOLDER_FILES {
        let path = dir.join(name);
        if !written.contains(&path) && path.is_file() {
            std::fs::remove_file(&path).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot remove the earlier {name}: {e}"))
            })?;
        }
    }
    Ok(written)
}

/// What a folder written with `events` events and `related` holds, in words: `38 events, 1 room
/// and 3 sessions`. A kind of related data it holds none of is left out.
pub fn holds(events: usize, related: &crate::related::Related) -> String {
    use crate::text::plural;
    let mut parts = vec![plural(events, "event", "events")];
    for (n, one, many) in [
        (related.rooms.len(), "room", "rooms"),
        (related.sessions.len(), "session", "sessions"),
        (related.stats.len(), "peer's stats", "peers' stats"),
    ] {
        if n > 0 {
            parts.push(plural(n, one, many));
        }
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::related::Related;

    #[test]
    fn what_a_folder_holds_leaves_out_the_kinds_it_holds_none_of() {
        let mut related = Related::default();
        assert_eq!(holds(38, &related), "38 events");
        assert_eq!(holds(1, &related), "1 event");
        related.rooms = vec![crate::related::Room::parse(r#"{"id":"r1"}"#).unwrap()];
        assert_eq!(holds(38, &related), "38 events and 1 room");
        related.sessions = (1..=3)
            .map(|k| {
                let raw = format!(r#"{{"id":"s{k}","room_id":"r1"}}"#);
                crate::related::Session::parse(&raw).unwrap()
            })
            .collect();
        assert_eq!(holds(38, &related), "38 events, 1 room and 3 sessions");
        related.rooms.clear();
        assert_eq!(holds(0, &related), "0 events and 3 sessions");
    }
}
