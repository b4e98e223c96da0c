//! Saving to a folder (`s` or `S` with a path that ends with `/`, or names a folder): the events
//! and the platform's data beside them, each kind in a file of its own written atomically, as
//! `list --output DIR/` writes them, so that the folder opens again to the same verdicts.

use std::path::Path;

use super::action::Action;
use super::effect::SaveWhat;
use super::model::Model;
use crate::output::{FOLDER_FILES, refuse_others, write_folder};

/// Writes the folder at `target` (`path` as typed): the shown (or loaded) events, the track
/// events their verdicts rest on, and the rooms, sessions and quality stats that belong to them,
/// all of them redacted alike when the profile says so.
pub fn save(model: &Model, path: &str, target: &Path, what: SaveWhat, replace: bool) -> Action {
    // Other dumps there would be read with it: the folder is to hold what is saved alone.
    if let Err(why) = refuse_others(target) {
        return Action::Saved(Err(why));
    }
    // Replacing a dump saved there before replaces each of its files (those with nothing to
    // hold now are removed), after the user says so.
    if !replace && FOLDER_FILES.iter().any(|name| target.join(name).exists()) {
        return Action::SaveNeedsConfirm {
            path: path.to_string(),
            what,
        };
    }
    let store = &model.events.store;
    let mut rows: Vec<u32> = match what {
        SaveWhat::Shown => model.events.matching.clone(),
        SaveWhat::Loaded => (0..store.len() as u32).collect(),
    };
    // The track events a verdict rests on go with the errors, whatever the filter shows: those
    // of the shown events' peers and users in their rooms, as a verdict reads them (another
    // peer's would show among these when the folder is opened again).
    let beside = &model.beside;
    let mut fetched: Vec<&[u8]> = beside.track_raws.iter().map(|r| &r[..]).collect();
    if what == SaveWhat::Shown {
        let whose = Whose::of(store, &rows);
        let mut tracks: Vec<u32> = (0..store.len() as u32)
            .filter(|&i| {
                let row = store.row(i as usize);
                let text = |s: crate::store::Sym| (!s.is_none()).then(|| store.str(s));
                store.str(row.kind).starts_with("track.")
                    && whose.holds(text(row.room_id), text(row.peer_id), text(row.user_id))
            })
            .collect();
        rows.append(&mut tracks);
        rows.sort_unstable();
        rows.dedup();
        fetched.retain(|raw| {
            let Ok(e) = crate::event::Event::parse(raw) else {
                return false;
            };
            whose.holds(
                e.data_str("room_id"),
                e.data_str("peer_id"),
                e.data_str("user_id"),
            )
        });
    }
    // The rooms, sessions and stats of the events saved, and no other's (as `list --output`).
    let mut named = crate::output::named_by(store, &rows);
    let parsed: Vec<crate::event::Event> = (fetched.iter())
        .filter_map(|raw| crate::event::Event::parse(raw).ok())
        .collect();
    for e in &parsed {
        named.add(
            e.data_str("room_id"),
            e.data_str("peer_id"),
            e.data_str("session_id"),
        );
    }
    let related = beside.data.of_events(&named);
    let events = rows
        .iter()
        .map(|&i| store.raw(i as usize))
        .chain(fetched.iter().copied());
    let count = rows.len() + fetched.len();
    let written = if model.config.redact {
        // Every file of the folder with one set of pseudonyms: the sessions name their peers
        // as the events do.
        match crate::redact::redacted_objects_with_related(events, &related) {
            Ok((store, related)) => {
                let events = (0..store.len()).map(|i| store.raw(i));
                write_folder(target, events, &related).map(|_| (store.len(), " (redacted)"))
            }
            Err(e) => {
                return Action::Saved(Err(format!("{path}: {e}; the events are still loaded")));
            }
        }
    } else {
        write_folder(target, events, &related).map(|_| (count, ""))
    };
    Action::Saved(match written {
        Ok((count, redacted)) => {
            let saved = format!(
                "saved {} into {path}{redacted}",
                crate::output::holds(count, &related)
            );
            Ok(match super::save::partial_note(model, None, "a folder") {
                Some(note) => format!("{saved}: {note}"),
                None => saved,
            })
        }
        Err(e) => Err(format!("{path}: {e}; the events are still loaded")),
    })
}

/// The rooms' peers and users of a set of events: whose track events a verdict of theirs reads.
struct Whose<'a> {
    peers: std::collections::HashSet<(&'a str, &'a str)>,
    users: std::collections::HashSet<(&'a str, &'a str)>,
}

impl<'a> Whose<'a> {
    fn of(store: &'a crate::store::Store, rows: &[u32]) -> Whose<'a> {
        let mut whose = Whose {
            peers: Default::default(),
            users: Default::default(),
        };
        for &i in rows {
            let row = store.row(i as usize);
            let room = store.str(row.room_id);
            if !row.peer_id.is_none() {
                whose.peers.insert((room, store.str(row.peer_id)));
            }
            if !row.user_id.is_none() {
                whose.users.insert((room, store.str(row.user_id)));
            }
        }
        whose
    }

    /// Whether a track event of `peer` (of `user`) in `room` is one of theirs.
    fn holds(&self, room: Option<&str>, peer: Option<&str>, user: Option<&str>) -> bool {
        let room = room.unwrap_or("");
        peer.is_some_and(|p| self.peers.contains(&(room, p)))
            || user.is_some_and(|u| !u.is_empty() && self.users.contains(&(room, u)))
    }
}
