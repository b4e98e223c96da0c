//! The platform's data beside the events, as the explorer holds it: the rooms, sessions and
//! quality stats loaded with the events (a folder, the demo) or asked of the live API, the track
//! events asked for apart from the query's, and where each live question stands.

use crate::insight::{Fetched, Outcome, TrackSeen};
use crate::related::{Object, Related};

/// Where a live question stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    Asking,
    /// The service refused, or could not be reached: its words.
    Failed(String),
    Answered,
}

/// The related data at hand, and what became of every chain by it.
#[derive(Debug, Default)]
pub struct Beside {
    pub data: Related,
    /// Track events fetched for a story, apart from the query's events, and whose were
    /// fetched whole.
    pub fetched: Fetched,
    /// Those track events as they arrived, to be saved with the events.
    pub track_raws: Vec<Box<[u8]>>,
    /// The moment the data was read: an active session is known until then.
    pub now: i64,
    /// Moves on whenever the data changes, for the views derived from it.
    pub version: u64,
    /// Live: the questions asked of the sessions of a room (by room id).
    pub sessions: Vec<(String, Asked)>,
    /// Live: the questions asked of a peer's track events (by peer id).
    pub peer_tracks: Vec<(String, Asked)>,
    /// Live: the questions asked of a peer's stats in a session (by peer and session id).
    pub stats: Vec<((String, String), Asked)>,
    /// Live: the rooms asked about after a query of theirs brought no event, and those the
    /// service said it has no room of.
    pub rooms_asked: Vec<String>,
    pub rooms_unknown: Vec<String>,
    /// Live: the rooms asked about that the service did not say it has or not, with why (its
    /// refusal in its words, or no answer).
    pub rooms_untold: Vec<(String, String)>,
    /// For each loaded event in a chain, its chain's number and outcome, and the versions of
    /// the store and of this data it was told for.
    outcomes: Option<Outcomes>,
}

/// What became of every chain of the loaded events.
#[derive(Debug, Default)]
pub struct Outcomes {
    pub by_event: Vec<Option<(u32, Outcome)>>,
    store: u64,
    version: u64,
}

impl Beside {
    /// Adds objects read or fetched; returns how many were new. The verdicts are told again
    /// when one was new or replaced a copy held (a session's later copy, from another file).
    pub fn add(&mut self, objects: Vec<Object>, now: i64) -> usize {
        let (added, replaced) = self.data.add_counting(objects);
        self.now = self.now.max(now);
        if added + replaced > 0 {
            self.version += 1;
        }
        added
    }

    /// Takes in a room's sessions asked of the service again (see [`Related::renew_sessions`]),
    /// as of `now`. The verdicts are told again when a session changed, or when time went on
    /// while a session is active (it is known up to now).
    pub fn renew_sessions(
        &mut self,
        room_id: &str,
        sessions: Vec<crate::related::Session>,
        now: i64,
    ) {
        let mut changed = self.data.renew_sessions(sessions);
        if !self.fetched.sessions.iter().any(|r| r == room_id) {
            self.fetched.sessions.push(room_id.to_string());
            changed += 1;
        }
        let later = now > self.now;
        self.now = self.now.max(now);
        let active = self.data.sessions.iter().any(|s| s.active == Some(true));
        if changed > 0 || (later && active) {
            self.version += 1;
        }
    }

    /// Adds track events fetched apart from the store's.
    pub fn add_tracks(&mut self, tracks: Vec<TrackSeen>) {
        let fetched = &mut self.fetched.tracks;
        let before = fetched.len();
        for t in tracks {
            if !fetched.contains(&t) {
                fetched.push(t);
            }
        }
        if fetched.len() != before {
            fetched.sort_by_key(|t| t.at);
            self.version += 1;
        }
    }

    /// Records that every track event of `peer_id` in its room was fetched.
    pub fn tracks_whole(&mut self, peer_id: &str) {
        if !self.fetched.is_whole(peer_id) {
            self.fetched.whole.push(peer_id.to_string());
            self.version += 1;
        }
    }

    /// Whether there is anything a verdict can rest on besides the errors.
    pub fn is_empty(&self) -> bool {
        self.data.sessions.is_empty()
            && self.fetched.tracks.is_empty()
            && self.fetched.whole.is_empty()
            && self.fetched.sessions.is_empty()
            && self.data.stats.is_empty()
    }

    /// Where a live question about a room's sessions stands, if it was asked.
    pub fn sessions_asked(&self, room_id: &str) -> Option<&Asked> {
        self.sessions
            .iter()
            .find(|(r, _)| r == room_id)
            .map(|(_, a)| a)
    }

    /// Where a live question about a peer's stats stands, if it was asked.
    pub fn stats_asked(&self, peer_id: &str, session_id: &str) -> Option<&Asked> {
        self.stats
            .iter()
            .find(|((p, s), _)| p == peer_id && s == session_id)
            .map(|(_, a)| a)
    }

    /// Records where a question stands.
    pub fn set<K: PartialEq>(list: &mut Vec<(K, Asked)>, key: K, asked: Asked) {
        match list.iter_mut().find(|(k, _)| *k == key) {
            Some((_, a)) => *a = asked,
            None => list.push((key, asked)),
        }
    }

    /// The outcome of every chain, told again when the store or this data changed.
    pub fn outcomes(&mut self, store: &crate::store::Store, store_generation: u64) -> &Outcomes {
        let current = self
            .outcomes
            .as_ref()
            .is_some_and(|o| o.store == store_generation && o.version == self.version);
        if !current {
            self.outcomes = Some(Outcomes {
                by_event: crate::insight::outcomes(store, &self.data, &self.fetched, self.now),
                store: store_generation,
                version: self.version,
            });
        }
        self.outcomes.get_or_insert_with(Outcomes::default)
    }
}
