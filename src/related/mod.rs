//! The platform's data beside the error events, which says what the events cannot: rooms (how a
//! name becomes an id), sessions (who was in the call, from when to when) and peer quality stats
//! (a peer's network as time series). Read leniently, as the service documents them
//! (spec/api-facts.md, "Related endpoints"); each object keeps the JSON it arrived in, so that it
//! is saved again as it was.

mod quality;
mod room;
mod session;
mod sniff;

pub use quality::{Metric, PeerStats, Series, Side, TrackSeries};
pub use room::Room;
pub use session::{Session, SessionPeer};
pub use sniff::{Sniffed, sniff};

use std::collections::HashSet;

use serde_json::value::RawValue;

/// One object of the related data, recognised by its content.
#[derive(Debug, Clone)]
pub enum Object {
    Room(Room),
    Session(Session),
    Stats(PeerStats),
}

/// What a JSON value is, when it is related data: a list response (`{"limit", "data", "last"}`)
/// of rooms or sessions, one room, one session, one peer's stats, or an array of those. `None`
/// for anything else (an event, an envelope of events): the caller reads it as it reads events.
/// Read a level at a time, the values below left as written until an object is read whole: a
/// folder's 130 MB of sessions read into `serde_json::Value` first, written out again and read
/// once more took seconds beside the events' load.
pub fn recognise(raw: &RawValue) -> Option<Result<Vec<Object>, String>> {
    if raw.get().trim_start().starts_with('[') {
        let items: Vec<&RawValue> = serde_json::from_str(raw.get()).ok()?;
        return objects_of(&items);
    }
    let map = members(raw)?;
    if let Some(kind) = kind_of(&map) {
        return Some(
            object_of(raw, kind)
                .map(|o| vec![o])
                .map_err(|e| format!("{kind}: {e}")),
        );
    }
    // A list response: `data` holds rooms or sessions (or nothing, or null).
    if map.contains_key("events") {
        return None;
    }
    let data = map.get("data")?.get().trim();
    if data == "null" {
        return Some(Ok(Vec::new()));
    }
    if !data.starts_with('[') {
        return None;
    }
    let items: Vec<&RawValue> = serde_json::from_str(data).ok()?;
    if items.is_empty() {
        // An empty list of rooms or sessions: nothing to read, and no event either.
        return map.contains_key("last").then_some(Ok(Vec::new()));
    }
    objects_of(&items)
}

/// An object's members, their values as written; `None` for a value that is not an object.
type Members<'a> = rustc_hash::FxHashMap<String, &'a RawValue>;

fn members(raw: &RawValue) -> Option<Members<'_>> {
    serde_json::from_str(raw.get()).ok()
}

/// The objects of a list, when every item is related data and there is one at least.
fn objects_of(items: &[&RawValue]) -> Option<Result<Vec<Object>, String>> {
    let kinds: Vec<&'static str> = items
        .iter()
        .map(|item| members(item).as_ref().and_then(kind_of))
        .collect::<Option<_>>()?;
    if kinds.is_empty() {
        return None;
    }
    Some(
        items
            .iter()
            .zip(kinds)
            .map(|(item, kind)| object_of(item, kind))
            .collect(),
    )
}

/// Every related object of a file's bytes: one response, an array of objects, or several values
/// one after another (NDJSON). Anything that is not related data is an error naming its line.
pub fn read_all(bytes: &[u8]) -> Result<Vec<Object>, String> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut objects = Vec::new();
    let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<&RawValue>();
    while let Some(value) = values.next() {
        let at = values.byte_offset();
        let raw = value.map_err(|e| format!("line {} column {}: {e}", e.line(), e.column()))?;
        let line = 1 + bytes[..at.min(bytes.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        match recognise(raw) {
            Some(Ok(found)) => objects.extend(found),
            Some(Err(e)) => return Err(format!("near line {line}: {e}")),
            None => {
                return Err(format!(
                    "near line {line}: not a room, a session or a peer's quality stats, in a file \
                     of them"
                ));
            }
        }
    }
    Ok(objects)
}

/// Which related object an object of these members is, by the fields only it has.
fn kind_of(map: &Members) -> Option<&'static str> {
    let has = |k: &str| map.contains_key(k);
    if has("publisher") || has("subscriber") {
        return (has("peer_id") && has("session_id")).then_some("peer stats");
    }
    if has("peers") && has("room_id") && has("id") {
        return Some("session");
    }
    // A room has an id and a name, and none of an event's or a session's fields.
    if has("id")
        && has("name")
        && !has("type")
        && !has("data")
        && !has("room_id")
        && (has("enabled") || has("template_id") || has("customer_id") || has("region"))
    {
        return Some("room");
    }
    None
}

/// The object of `kind` that `raw` is, keeping its JSON as written; one written over several
/// lines is kept on one, as a line of an NDJSON file must be.
fn object_of(raw: &RawValue, kind: &str) -> Result<Object, String> {
    let one_line;
    let mut text = raw.get();
    if text.contains(['\n', '\r']) {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        one_line = value.to_string();
        text = &one_line;
    }
    match kind {
        "peer stats" => PeerStats::parse(text).map(Object::Stats),
        "session" => Session::parse(text).map(Object::Session),
        "room" => Room::parse(text).map(Object::Room),
        _ => Err("not a room, a session or a peer's stats".into()),
    }
}

/// The rooms, peers and sessions a set of events names: what of the related data is theirs
/// ([`Related::of_events`]).
#[derive(Debug, Clone, Default)]
pub struct Named<'a> {
    rooms: HashSet<&'a str>,
    peers: HashSet<&'a str>,
    sessions: HashSet<&'a str>,
}

impl<'a> Named<'a> {
    /// Adds an event's room, peer and session (an empty one names nothing).
    pub fn add(&mut self, room: Option<&'a str>, peer: Option<&'a str>, session: Option<&'a str>) {
        for (value, set) in [
            (room, &mut self.rooms),
            (peer, &mut self.peers),
            (session, &mut self.sessions),
        ] {
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                set.insert(v);
            }
        }
    }
}

/// The related data loaded or fetched so far, each object once: the first copy read wins, as
/// for events, except for a session, whose copy that knows more (ended where the other is
/// active, or naming a later time) wins.
#[derive(Debug, Clone, Default)]
pub struct Related {
    pub rooms: Vec<Room>,
    pub sessions: Vec<Session>,
    pub stats: Vec<PeerStats>,
}

/// Marks the sessions among `objects` as read from a saved file (see [`Session::as_saved`]):
/// an active one is known up to the latest time it names, each by its own, so that a file saved
/// later does not stretch one saved earlier.
pub fn as_saved(objects: &mut [Object]) {
    for object in objects {
        if let Object::Session(s) = object {
            s.as_saved();
        }
    }
}

impl Related {
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty() && self.sessions.is_empty() && self.stats.is_empty()
    }

    /// Adds what is not there yet: a room or session by its id, a peer's stats by peer and
    /// session. A session already there is replaced by a copy that knows more of it (files
    /// saved at different times hold it as it was then, in any order). Returns how many were
    /// new.
    pub fn add(&mut self, objects: impl IntoIterator<Item = Object>) -> usize {
        self.add_counting(objects).0
    }

    /// [`Related::add`], returning how many were new and how many replaced a copy held (what
    /// the verdicts told from the data must be told again for).
    pub fn add_counting(&mut self, objects: impl IntoIterator<Item = Object>) -> (usize, usize) {
        // The keys held, each kind's gathered once a call, when an object of it comes: a scan of
        // every object held for each one added took half a second for a folder's ten thousand
        // sessions.
        let (mut rooms, mut sessions, mut stats) = (None, None, None);
        let (mut added, mut replaced) = (0, 0);
        for object in objects {
            let new = match object {
                Object::Room(r) => push_new(&mut self.rooms, &mut rooms, r, |r| r.id.clone()),
                Object::Session(s) => {
                    let places = sessions.get_or_insert_with(|| {
                        (self.sessions.iter().enumerate())
                            .map(|(k, s)| (s.id.clone(), k))
                            .collect::<rustc_hash::FxHashMap<String, usize>>()
                    });
                    match places.get(&s.id) {
                        Some(&k) => {
                            if s.knows_more_than(&self.sessions[k]) {
                                self.sessions[k] = s;
                                replaced += 1;
                            }
                            false
                        }
                        None => {
                            places.insert(s.id.clone(), self.sessions.len());
                            self.sessions.push(s);
                            true
                        }
                    }
                }
                Object::Stats(s) => push_new(&mut self.stats, &mut stats, s, |s| {
                    (s.peer_id.clone(), s.session_id.clone())
                }),
            };
            added += usize::from(new);
        }
        (added, replaced)
    }

    /// Sessions asked for again: each replaces the copy of the same id (a session goes on, and
    /// its peers, its end and whether it is active change), and those not there are added.
    /// Returns how many were new or changed.
    pub fn renew_sessions(&mut self, sessions: Vec<Session>) -> usize {
        let mut places: rustc_hash::FxHashMap<String, usize> = (self.sessions.iter())
            .enumerate()
            .map(|(k, s)| (s.id.clone(), k))
            .collect();
        let mut changed = 0;
        for session in sessions {
            match places.get(&session.id) {
                Some(&k) if self.sessions[k] == session => {}
                Some(&k) => {
                    self.sessions[k] = session;
                    changed += 1;
                }
                None => {
                    places.insert(session.id.clone(), self.sessions.len());
                    self.sessions.push(session);
                    changed += 1;
                }
            }
        }
        changed
    }

    /// Everything of `other` not there yet, and its sessions that know more than the copies
    /// held (see [`Related::add`]).
    pub fn merge(&mut self, other: Related) -> usize {
        self.add(other.into_objects())
    }

    /// Every room, session and peer's stats, as objects: the rooms first, then the sessions,
    /// then the stats.
    pub fn into_objects(self) -> impl Iterator<Item = Object> {
        let Related {
            rooms,
            sessions,
            stats,
        } = self;
        rooms
            .into_iter()
            .map(Object::Room)
            .chain(sessions.into_iter().map(Object::Session))
            .chain(stats.into_iter().map(Object::Stats))
    }

    /// What belongs to a set of events: their rooms, those rooms' sessions, and their peers'
    /// stats in those sessions (or in a session an event names).
    pub fn of_events(&self, events: &Named) -> Related {
        let kept: Vec<Session> = (self.sessions.iter())
            .filter(|s| events.rooms.contains(s.room_id.as_str()))
            .cloned()
            .collect();
        let kept_ids: HashSet<&str> = kept.iter().map(|s| s.id.as_str()).collect();
        let in_session = |id: &str| kept_ids.contains(id) || events.sessions.contains(id);
        let stats = (self.stats.iter())
            .filter(|s| events.peers.contains(s.peer_id.as_str()) && in_session(&s.session_id))
            .cloned()
            .collect();
        Related {
            rooms: (self.rooms.iter())
                .filter(|r| events.rooms.contains(r.id.as_str()))
                .cloned()
                .collect(),
            sessions: kept,
            stats,
        }
    }

    /// The sessions of a room.
    pub fn sessions_of<'a>(
        &'a self,
        room_id: &'a str,
    ) -> impl Iterator<Item = &'a Session> + Clone + 'a {
        self.sessions.iter().filter(move |s| s.room_id == room_id)
    }

    /// A peer's stats in a session.
    pub fn stats_of(&self, peer_id: &str, session_id: &str) -> Option<&PeerStats> {
        self.stats
            .iter()
            .find(|s| s.peer_id == peer_id && s.session_id == session_id)
    }
}

/// Pushes `item` onto `list` unless an item held has its key; `keys` holds the keys of `list`,
/// gathered the first time it is needed.
fn push_new<T, K: Eq + std::hash::Hash>(
    list: &mut Vec<T>,
    keys: &mut Option<rustc_hash::FxHashSet<K>>,
    item: T,
    key: impl Fn(&T) -> K,
) -> bool {
    let keys = keys.get_or_insert_with(|| list.iter().map(&key).collect());
    if !keys.insert(key(&item)) {
        return false;
    }
    list.push(item);
    true
}

#[cfg(test)]
mod tests;
