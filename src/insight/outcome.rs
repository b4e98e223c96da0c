//! A peer's story told to its end: each retry chain with its verdict (did the peer get through,
//! and on what evidence), the peer's track events beside its errors, and its network around each
//! failure when its quality stats are at hand. The explorer's story view and `callscope story`
//! both tell this.

use super::chains::{Story, story};
use super::quality::{Summary, around};
use super::verdict::{Attempt, Failing, TrackSeen, Verdict, verdict};
use crate::event::Field;
use crate::related::Related;
use crate::store::{NO_TIME, Store, Sym};

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

/// Tells the story of `peer` from every loaded event and the related data at hand.
pub fn tell(store: &Store, related: &Related, peer: Sym, now: i64) -> Told {
    let story = story(store, peer);
    let tracks = tracks_of(store, &story);
    let mut verdicts = Vec::with_capacity(story.chains.len());
    let mut quality = Vec::with_capacity(story.chains.len());
    for chain in &story.chains {
        let first = store.row(chain.events[0] as usize);
        let text = |sym: Sym| (!sym.is_none()).then(|| store.str(sym));
        let failing = Failing {
            peer_id: store.str(first.text(Field::Peer)),
            user_id: text(first.text(Field::User)),
            room_id: text(first.text(Field::Room)).unwrap_or(""),
            attempt: Attempt::of(chain.action_name(store)),
            first: chain.first,
            last: chain.last,
        };
        let v = verdict(&failing, related, &tracks, now);
        // The session of the failure: the events', else the one the verdict found.
        let session = chain
            .events
            .iter()
            .rev()
            .map(|&i| store.row(i as usize).text(Field::Session))
            .find(|s| !s.is_none())
            .map(|s| store.str(s).to_string())
            .or_else(|| v.session_id.clone());
        let subscribing = chain.action_name(store) == "SUBSCRIBE";
        quality.push(
            session
                .and_then(|s| related.stats_of(failing.peer_id, &s))
                .map(|stats| around(stats, chain.last, subscribing)),
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

/// The track events of the story's peer, and of the same user in the rooms of its errors.
fn tracks_of(store: &Store, story: &Story) -> Vec<TrackSeen> {
    let rows = store.rows();
    let mut users: Vec<(Sym, Sym)> = story
        .events
        .iter()
        .map(|&i| &rows[i as usize])
        .filter(|r| !r.text(Field::User).is_none())
        .map(|r| (r.text(Field::User), r.text(Field::Room)))
        .collect();
    users.sort();
    users.dedup();
    let is_track = |kind: Sym| store.str(kind).starts_with("track.");
    let mut seen = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row.ts == NO_TIME || !is_track(row.kind) {
            continue;
        }
        let mine = row.text(Field::Peer) == story.peer && !story.peer.is_none();
        let same_user = users
            .iter()
            .any(|&(u, r)| row.text(Field::User) == u && row.text(Field::Room) == r);
        if !mine && !same_user {
            continue;
        }
        let event = store.event(i);
        let text = |sym: Sym| (!sym.is_none()).then(|| store.str(sym).to_string());
        seen.push(TrackSeen {
            at: row.ts,
            peer_id: store.str(row.text(Field::Peer)).to_string(),
            user_id: text(row.text(Field::User)),
            room_id: store.str(row.text(Field::Room)).to_string(),
            kind: store.str(row.kind).to_string(),
            media: event.data_str("type").map(str::to_string),
            source: event.data_str("source").map(str::to_string),
        });
    }
    seen.sort_by_key(|t| t.at);
    seen
}
