//! Saving to a folder (`s` or `S` with a path that ends with `/`, or names a folder): the events
//! and the platform's data beside them, each kind in a file of its own written atomically, as
//! `list --output DIR/` writes them, so that the folder opens again to the same verdicts.

use std::path::Path;

use super::action::Action;
use super::effect::SaveWhat;
use super::model::Model;
use crate::output::{FOLDER_EVENTS, write_folder};

/// Writes the folder at `target` (`path` as typed): the shown (or loaded) events, every track
/// event at hand (the verdicts rest on them), and the rooms, sessions and quality stats, all of
/// them redacted alike when the profile says so.
pub fn save(model: &Model, path: &str, target: &Path, what: SaveWhat, replace: bool) -> Action {
    if !replace && target.join(FOLDER_EVENTS).exists() {
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
    // The track events a verdict rests on go with the errors, whatever the filter shows.
    if what == SaveWhat::Shown {
        let mut tracks: Vec<u32> = (0..store.len() as u32)
            .filter(|&i| store.str(store.row(i as usize).kind).starts_with("track."))
            .collect();
        rows.append(&mut tracks);
        rows.sort_unstable();
        rows.dedup();
    }
    let beside = &model.beside;
    let events = rows
        .iter()
        .map(|&i| store.raw(i as usize))
        .chain(beside.track_raws.iter().map(|r| &r[..]));
    let count = rows.len() + beside.track_raws.len();
    let written = if model.config.redact {
        // Every file of the folder with one set of pseudonyms: the sessions name their peers
        // as the events do.
        match crate::redact::redacted_objects_with_related(events, &beside.data) {
            Ok((store, related)) => {
                let events = (0..store.len()).map(|i| store.raw(i));
                write_folder(target, events, &related).map(|_| (store.len(), " (redacted)"))
            }
            Err(e) => {
                return Action::Saved(Err(format!("{path}: {e}; the events are still loaded")));
            }
        }
    } else {
        write_folder(target, events, &beside.data).map(|_| (count, ""))
    };
    let related = &beside.data;
    Action::Saved(match written {
        Ok((count, redacted)) => Ok(format!(
            "saved {count} events, {} rooms, {} sessions and {} peers' stats into {path}{redacted}",
            related.rooms.len(),
            related.sessions.len(),
            related.stats.len()
        )),
        Err(e) => Err(format!("{path}: {e}; the events are still loaded")),
    })
}
