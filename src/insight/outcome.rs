//! A peer's story told to its end: each retry chain with its verdict (did the peer get through,
//! and on what evidence), the peer's track events beside its errors, and its network around each
//! failure when its quality stats are at hand. The explorer's story view and `callscope story`
//! both tell this.

use super::chains::{Chain, Story, every_chain, story};
use super::quality::{Summary, around};
use super::verdict::{
    Attempt, Failing, Fetched, Outcome, RoomSessions, TrackSeen, Verdict, outcome_in, verdict,
};
use crate::related::{Related, Session};
use crate::store::{Store, Sym};
use crate::time::Zone;

/// A peer's story with the outcome of each chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Told {
    pub story: Story,
    /// For each chain of `story.chains`, its verdict.
    pub verdicts: Vec<Verdict>,
    /// For each chain, the peer's network around its last failure, when stats are at hand.
    pub quality: Vec<Option<Summary>>,
    /// The track events of the peer (and of the same user in its rooms), in time order.
    pub tracks: Vec<TrackSeen>,
}

/// Tells the story of `peer` from every loaded event and the related data at hand, its times
/// of day in UTC.
pub fn tell(store: &Store, related: &Related, peer: Sym, now: i64) -> Told {
    tell_with(store, related, &Fetched::default(), peer, now, Zone::Utc)
}

/// [`tell`], with track events fetched apart from the store's (a live explorer asks for a
/// peer's track events when its story is opened): those of the story's peer join its own. The
/// verdicts and network lines name times of day in `zone`.
pub fn tell_with(
    store: &Store,
    related: &Related,
    fetched: &Fetched,
    peer: Sym,
    now: i64,
    zone: Zone,
) -> Told {
    let story = story(store, peer);
    let mut tracks = tracks_of(store, &story);
    if !story.peer.is_none() {
        let peer_id = store.str(story.peer);
        for t in fetched.tracks.iter().filter(|t| t.peer_id == peer_id) {
            if !tracks.contains(t) {
                tracks.push(t.clone());
            }
        }
        tracks.sort_by_key(|t| t.at);
    }
    let mut verdicts = Vec::with_capacity(story.chains.len());
    let mut quality = Vec::with_capacity(story.chains.len());
    for chain in &story.chains {
        let failing = fetched.of(failing_of(store, chain));
        let v = verdict(&failing, related, &tracks, now, zone);
        // The session of the failure: the events', else the one the verdict found.
        let session = chain
            .events
            .iter()
            .rev()
            .map(|&i| store.row(i as usize).session_id)
            .find(|s| !s.is_none())
            .map(|s| store.str(s).to_string())
            .or_else(|| v.session_id.clone());
        let subscribing = chain.action_name(store) == "SUBSCRIBE";
        quality.push(
            session
                .and_then(|s| related.stats_of(failing.peer_id, &s))
                .map(|stats| around(stats, chain.last, subscribing, zone)),
        );
        verdicts.push(v);
    }
    Told {
        story,
        verdicts,
        quality,
        tracks,
    }
}

/// Who failed, where and when, for a chain's verdict: read off its first error.
pub fn failing_of<'a>(store: &'a Store, chain: &Chain) -> Failing<'a> {
    failing_at(store, chain.events[0] as usize, chain.first, chain.last)
}

/// [`failing_of`] the chain whose first error is the event at `i`, failing from `first` to
/// `last`.
fn failing_at(store: &Store, i: usize, first: i64, last: i64) -> Failing<'_> {
    let row = store.row(i);
    let text = |sym: Sym| (!sym.is_none()).then(|| store.str(sym));
    // The chain's action, or its type when its errors carry none.
    let action = if row.action.is_none() {
        row.kind
    } else {
        row.action
    };
    Failing {
        peer_id: store.str(row.peer_id),
        user_id: text(row.user_id),
        room_id: text(row.room_id).unwrap_or(""),
        attempt: Attempt::of(store.str(action)),
        first,
        last,
        tracks_whole: false,
        sessions_asked: false,
    }
}

/// What became of every chain of the loaded events: for each event in a chain, the chain's
/// number (unique among all peers) and its outcome; `None` for an event in no chain. The chains
/// of every peer are found at once (`every_chain`) and their verdicts found on the threads of
/// rayon's pool (a chain's verdict needs nothing of another's); the track events of the store are read once and indexed by room, then by peer
/// and by user, and each room's sessions are indexed once, so that the groups view can count a
/// share per group. Chains are numbered in the order of their peers' symbols, then of their
/// actions' symbols.
pub fn outcomes(
    store: &Store,
    related: &Related,
    fetched: &Fetched,
    now: i64,
) -> Vec<Option<(u32, Outcome)>> {
    use rayon::prelude::*;
    let rows = store.rows();
    // A verdict reads a track event's time, kind, peer, user and room: its media and source,
    // read from the event's JSON, only name it in words.
    let mut all: Vec<TrackSeen> = all_tracks(store)
        .filter_map(|i| track_seen_in_row(store, i))
        .collect();
    all.extend(fetched.tracks.iter().cloned());
    all.sort_by(|a, b| (a.at, &a.room_id).cmp(&(b.at, &b.room_id)));
    let tracks = RoomTracks::of(&all);
    let kinds = super::Kinds::of(store);
    let every = every_chain(store, &kinds);
    // Each room's sessions read once, for all its chains: the sessions sorted out by room in
    // one pass (a pass over every session for each room took seconds at thousands of rooms).
    let mut sessions_by_room: rustc_hash::FxHashMap<&str, Vec<&Session>> = Default::default();
    for s in &related.sessions {
        sessions_by_room.entry(&s.room_id).or_default().push(s);
    }
    let sessions_of = |id: &str| sessions_by_room.get(id).map_or(&[][..], Vec::as_slice);
    let mut room_ids: Vec<Sym> = rows.iter().map(|r| r.room_id).collect();
    room_ids.sort();
    room_ids.dedup();
    let rooms: rustc_hash::FxHashMap<&str, RoomSessions> = room_ids
        .par_iter()
        .map(|&r| {
            let id = if r.is_none() { "" } else { store.str(r) };
            (id, RoomSessions::new(sessions_of(id), now))
        })
        .collect();
    let told: Vec<Outcome> = every
        .chains
        .par_iter()
        .map(|run| {
            let first = every.events[run.start as usize] as usize;
            let last = every.events[run.end as usize - 1] as usize;
            let failing = failing_at(store, first, rows[first].ts, rows[last].ts);
            let failing = fetched.of(failing);
            let theirs = tracks.theirs(&failing);
            // Only the outcome is kept: the evidence is not written.
            match rooms.get(failing.room_id) {
                Some(room) => outcome_in(&failing, room, &theirs, now),
                None => {
                    let room = RoomSessions::new(sessions_of(failing.room_id), now);
                    outcome_in(&failing, &room, &theirs, now)
                }
            }
        })
        .collect();
    let mut table = vec![None; rows.len()];
    for (number, (run, outcome)) in every.chains.into_iter().zip(told).enumerate() {
        for &e in &every.events[run.start as usize..run.end as usize] {
            table[e as usize] = Some((number as u32, outcome));
        }
    }
    table
}

/// Track events (in time order) indexed by room, then by peer id and by user id: the only ones
/// a chain's verdict looks at are those of its room and of its peer or its user.
struct RoomTracks<'a> {
    all: &'a [TrackSeen],
    by_room: rustc_hash::FxHashMap<&'a str, Theirs<'a>>,
}

#[derive(Default)]
struct Theirs<'a> {
    by_peer: rustc_hash::FxHashMap<&'a str, Vec<usize>>,
    by_user: rustc_hash::FxHashMap<&'a str, Vec<usize>>,
}

impl<'a> RoomTracks<'a> {
    fn of(all: &'a [TrackSeen]) -> RoomTracks<'a> {
        let mut by_room: rustc_hash::FxHashMap<&'a str, Theirs<'a>> = Default::default();
        for (k, t) in all.iter().enumerate() {
            let room = by_room.entry(t.room_id.as_str()).or_default();
            room.by_peer.entry(t.peer_id.as_str()).or_default().push(k);
            if let Some(u) = t.user_id.as_deref().filter(|u| !u.is_empty()) {
                room.by_user.entry(u).or_default().push(k);
            }
        }
        RoomTracks { all, by_room }
    }

    /// The track events of the failing peer's room that are its own or its user's, in time
    /// order, each once.
    fn theirs(&self, failing: &Failing) -> Vec<&'a TrackSeen> {
        let Some(room) = self.by_room.get(failing.room_id) else {
            return Vec::new();
        };
        let mut picked: Vec<usize> = room
            .by_peer
            .get(failing.peer_id)
            .cloned()
            .unwrap_or_default();
        if let Some(more) = failing
            .user_id
            .filter(|u| !u.is_empty())
            .and_then(|u| room.by_user.get(u))
        {
            picked.extend(more);
            picked.sort_unstable();
        }
        let mut theirs: Vec<&TrackSeen> = picked.into_iter().map(|k| &self.all[k]).collect();
        theirs.dedup();
        theirs
    }
}

/// The index of every track event of the store with a time.
fn all_tracks(store: &Store) -> impl Iterator<Item = usize> + '_ {
    store.track_rows().iter().map(|&i| i as usize)
}

/// A track event as its row tells it, without its media and source (which are read from its
/// JSON).
fn track_seen_in_row(store: &Store, i: usize) -> Option<TrackSeen> {
    let row = store.row(i);
    let text = |sym: Sym| (!sym.is_none()).then(|| store.str(sym).to_string());
    Some(TrackSeen {
        at: row.ts,
        peer_id: store.str(row.peer_id).to_string(),
        user_id: text(row.user_id),
        room_id: store.str(row.room_id).to_string(),
        kind: store.str(row.kind).to_string(),
        media: None,
        source: None,
    })
}

fn track_seen(store: &Store, i: usize) -> TrackSeen {
    let event = store.event(i);
    TrackSeen {
        media: event.data_str("type").map(str::to_string),
        source: event.data_str("source").map(str::to_string),
        ..track_seen_in_row(store, i).expect("a row")
    }
}

/// The track events among a store's events (a live answer to a question for them), in time
/// order.
pub fn tracks_in(store: &Store) -> Vec<TrackSeen> {
    let mut seen: Vec<TrackSeen> = all_tracks(store).map(|i| track_seen(store, i)).collect();
    seen.sort_by_key(|t| t.at);
    seen
}

/// The track events of the story's peer, and of the same user in the rooms of its errors.
/// Found among the peer's rows and the user's track events, not among every track event: the
/// detail pane tells the selected event's story again after each batch of a load.
fn tracks_of(store: &Store, story: &Story) -> Vec<TrackSeen> {
    let rows = store.rows();
    let mut users: Vec<(Sym, Sym)> = story
        .events
        .iter()
        .map(|&i| &rows[i as usize])
        .filter(|r| !r.user_id.is_none())
        .map(|r| (r.user_id, r.room_id))
        .collect();
    users.sort();
    users.dedup();
    let tracks = store.track_rows();
    let mut picked: Vec<u32> = store
        .rows_of_peer(story.peer)
        .into_iter()
        .filter(|i| tracks.binary_search(i).is_ok())
        .collect();
    let mut user = Sym::NONE;
    let mut theirs = Vec::new();
    for &(u, r) in &users {
        if u != user {
            user = u;
            theirs = store.track_rows_of_user(u);
        }
        picked.extend(theirs.iter().filter(|&&i| rows[i as usize].room_id == r));
    }
    // In load order, each once, as they stand among the track events.
    picked.sort_unstable();
    picked.dedup();
    let mut seen: Vec<TrackSeen> = picked
        .into_iter()
        .map(|i| track_seen(store, i as usize))
        .collect();
    seen.sort_by_key(|t| t.at);
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`tracks_of`] the plain way: every track event looked at.
    fn tracks_of_every_track(store: &Store, story: &Story) -> Vec<TrackSeen> {
        let rows = store.rows();
        let users: Vec<(Sym, Sym)> = story
            .events
            .iter()
            .map(|&i| &rows[i as usize])
            .filter(|r| !r.user_id.is_none())
            .map(|r| (r.user_id, r.room_id))
            .collect();
        let mut seen = Vec::new();
        for &i in store.track_rows() {
            let row = &rows[i as usize];
            let mine = row.peer_id == story.peer && !story.peer.is_none();
            let same_user = users
                .iter()
                .any(|&(u, r)| row.user_id == u && row.room_id == r);
            if mine || same_user {
                seen.push(track_seen(store, i as usize));
            }
        }
        seen.sort_by_key(|t| t.at);
        seen
    }

    #[test]
    fn each_peers_track_events_are_those_a_look_at_every_track_event_finds() {
        // The demo's events, and generated ones in two batches that repeat some events.
        let mut demo = Store::new();
        demo.merge(crate::source::demo::load());
        let lines = crate::generator::ndjson_lines(6_000, 7);
        let mut generated = Store::new();
        for part in [&lines[..4_000], &lines[3_000..]] {
            generated.merge(crate::store::Batch::of_objects(part).unwrap());
        }
        for store in [&demo, &generated] {
            let mut peers: Vec<Sym> = store.rows().iter().map(|r| r.peer_id).collect();
            peers.sort();
            peers.dedup();
            let (mut with_tracks, mut by_user) = (0, 0);
            for peer in peers {
                let story = story(store, peer);
                let tracks = tracks_of(store, &story);
                assert_eq!(tracks, tracks_of_every_track(store, &story), "{peer:?}");
                with_tracks += usize::from(!tracks.is_empty());
                by_user += usize::from(tracks.iter().any(|t| t.peer_id != store.str(peer)));
            }
            assert!(with_tracks >= 20, "{with_tracks} peers with track events");
            assert!(
                by_user > 3,
                "{by_user} peers with their user's track events"
            );
        }
    }

    #[test]
    fn every_chains_outcome_in_the_table_is_the_one_its_peers_story_tells() {
        let mut store = Store::new();
        store.merge(crate::source::demo::load());
        let related = crate::source::demo::related();
        let table = outcomes(&store, &related, &Fetched::default(), 0);
        let mut peers: Vec<Sym> = store.rows().iter().map(|r| r.peer_id).collect();
        peers.sort();
        peers.dedup();
        let mut chains = 0;
        let mut seen = std::collections::BTreeSet::new();
        for peer in peers.into_iter().filter(|p| !p.is_none()) {
            let told = tell(&store, &related, peer, 0);
            for (chain, v) in told.story.chains.iter().zip(&told.verdicts) {
                chains += 1;
                seen.insert(v.outcome);
                for &e in &chain.events {
                    assert_eq!(table[e as usize].map(|(_, o)| o), Some(v.outcome));
                }
            }
        }
        assert!(chains > 500, "{chains}");
        // Every outcome is among them: the table's way of finding each agrees with the story's.
        assert_eq!(seen.len(), 5, "{seen:?}");
        // Events in no chain have no outcome.
        let tracks =
            (0..store.len()).filter(|&i| store.str(store.row(i).kind).starts_with("track."));
        for i in tracks {
            assert_eq!(table[i], None);
        }
    }
}
