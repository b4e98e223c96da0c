//! The platform's data beside the events (rooms, sessions, peers' quality stats), redacted with
//! the events' pseudonyms. A session names its peers and their user ids, keyed by the peer ids
//! the events keep: left real, they would undo every pseudonym of the events. Redacted by the
//! same [`Redactor`], a session's peer gets the name and user id its events get, so that a
//! verdict read from the redacted data is the one read from the real.

use super::Redactor;
use crate::related::{PeerStats, Related, Room, Session};
use crate::store::{Batch, Store};

impl Redactor {
    /// A redactor for the events `rows` of a store and the related data beside them. The
    /// events' names and ids come first, so that they get the pseudonyms they get alone, and
    /// are found wherever they stand as words; then those of the sessions' peers that no event
    /// names, replaced where a value is one of them whole (see [`Redactor::with_values`]). No
    /// pseudonym is an address of either.
    pub fn for_rows_and_related(store: &Store, rows: &[u32], related: &Related) -> Redactor {
        let peers = related.sessions.iter().flat_map(|s| &s.peers);
        let of_peers = peers.flat_map(|p| {
            [
                p.name.as_deref().map(|name| (name, true)),
                p.user_id.as_deref().map(|id| (id, false)),
            ]
            .into_iter()
            .flatten()
        });
        let mut redactor = Redactor::with_values(identities_of(store, rows), of_peers);
        redactor.note_rows(store, rows);
        for raw in raws_of(related) {
            redactor.note_addresses(raw);
        }
        redactor
    }

    /// The related data, each object's JSON redacted and read again (a redacted session is
    /// still a session: only string values change). It holds none of the events' vocabulary, so
    /// the values are found in it wherever they stand as words, as the identities are (a
    /// peer's name in a session's free text included); redact the events first, and the same
    /// pseudonyms of people and addresses follow here.
    pub fn related(mut self, related: &Related) -> Result<Related, String> {
        self.find_values_as_words();
        let rooms = related
            .rooms
            .iter()
            .map(|r| Room::parse(&self.json(&r.raw)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot redact a room: {e}"))?;
        let sessions = related
            .sessions
            .iter()
            .map(|s| Session::parse(&self.json(&s.raw)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot redact a session: {e}"))?;
        let stats = related
            .stats
            .iter()
            .map(|s| PeerStats::parse(&self.json(&s.raw)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot redact a peer's quality stats: {e}"))?;
        Ok(Related {
            rooms,
            sessions,
            stats,
        })
    }

    /// A JSON text with every string value redacted.
    fn json(&mut self, raw: &str) -> String {
        // Only whole string values are replaced, each by a String: the text stays UTF-8.
        String::from_utf8_lossy(&self.event(raw.as_bytes())).into_owned()
    }
}

/// The user names and user ids of the events `rows`, in order (`true` for a name).
pub(super) fn identities_of<'s>(
    store: &'s Store,
    rows: &'s [u32],
) -> impl Iterator<Item = (&'s str, bool)> + 's {
    rows.iter().flat_map(move |&i| {
        let row = store.row(i as usize);
        [
            (store.str(row.user_name), true),
            (store.str(row.user_id), false),
        ]
    })
}

/// The JSON of every room, session and peer's stats.
fn raws_of(related: &Related) -> impl Iterator<Item = &str> {
    let rooms = related.rooms.iter().map(|r| r.raw.as_str());
    let sessions = related.sessions.iter().map(|s| s.raw.as_str());
    rooms
        .chain(sessions)
        .chain(related.stats.iter().map(|s| s.raw.as_str()))
}

/// The events `rows` of a store and the related data beside them, redacted with one set of
/// pseudonyms: the events in a store of their own (its row k is `rows[k]`).
pub fn redacted_with_related(
    store: &Store,
    rows: &[u32],
    related: &Related,
) -> Result<(Store, Related), String> {
    let mut redactor = Redactor::for_rows_and_related(store, rows, related);
    // The events first: the related data finds more in its texts (see Redactor::related).
    let events = super::store_of(&mut redactor, store, rows)?;
    let related = redactor.related(related)?;
    Ok((events, related))
}

/// [`redacted_with_related`] for events given as JSON objects rather than as rows of a store (a
/// save of the explorer adds the track events fetched beside its store).
pub fn redacted_objects_with_related<'a>(
    events: impl IntoIterator<Item = &'a [u8]>,
    related: &Related,
) -> Result<(Store, Related), String> {
    let batch =
        Batch::of_objects(events).map_err(|e| format!("cannot read an event again: {e}"))?;
    let mut store = Store::new();
    store.merge(batch);
    let rows: Vec<u32> = (0..store.len() as u32).collect();
    redacted_with_related(&store, &rows, related)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::related::Object;

    const EVENT: &str = r#"{"id":"e1","timestamp":"2026-11-18T10:00:00Z","type":"client.join.failed","data":{"peer_id":"p1","user_id":"usr_ann","user_name":"Ann Lee","room_id":"r1","error_message":"from 203.0.113.7"}}"#;
    const BEAM: &str = r#"{"id":"e2","timestamp":"2026-11-18T10:00:01Z","type":"beam.recording.success","data":{"room_id":"r1","recording_path":"s3://b/beam/r1.mp4"}}"#;
    const SESSION: &str = r#"{"id":"s1","room_id":"r1","active":false,"created_at":"2026-11-18T09:59:00Z","peers":{"p1":{"id":"p1","name":"Ann Lee","user_id":"usr_ann","joined_at":"2026-11-18T10:00:05Z"},"p2":{"id":"p2","name":"Bo","user_id":"beam","joined_at":"2026-11-18T09:59:00Z","note":"Bo at 203.0.113.7"}}}"#;

    fn related() -> Related {
        let mut related = Related::default();
        related.add([Object::Session(Session::parse(SESSION).unwrap())]);
        related
    }

    #[test]
    fn a_sessions_peers_read_as_their_events_and_only_pseudonyms_are_left() {
        let (events, related) =
            redacted_objects_with_related([EVENT.as_bytes(), BEAM.as_bytes()], &related()).unwrap();
        let event: serde_json::Value = serde_json::from_slice(events.raw(0)).unwrap();
        let peers = &related.sessions[0].peers;
        let ann = peers.iter().find(|p| p.id == "p1").unwrap();
        assert_eq!(event["data"]["user_name"], "user-0001");
        assert_eq!(ann.name.as_deref(), Some("user-0001"));
        assert_eq!(ann.user_id.as_deref(), Some("uid-0001"));
        // A peer no event names gets pseudonyms of its own; an address, the events' one.
        let bo = peers.iter().find(|p| p.id == "p2").unwrap();
        assert_eq!(bo.name.as_deref(), Some("user-0002"));
        assert_eq!(bo.user_id.as_deref(), Some("uid-0002"));
        let raw = &related.sessions[0].raw;
        assert!(raw.contains(r#""note":"user-0002 at 198.18.0.1""#), "{raw}");
        assert_eq!(event["data"]["error_message"], "from 198.18.0.1");
        for real in ["Ann Lee", "usr_ann", "Bo", "beam", "203.0.113.7"] {
            assert!(!raw.contains(real), "{real} in {raw}");
        }
        // The recorder's user id is no word of the events' own vocabulary.
        assert_eq!(std::str::from_utf8(events.raw(1)), Ok(BEAM));
        // The redacted session is still read as one, its times as they were.
        assert_eq!(related.sessions[0].started(), related_started());
    }

    fn related_started() -> Option<i64> {
        related().sessions[0].started()
    }
}
