//! Did they get through? The verdict of a retry chain, from the platform's own data beside the
//! errors: the room's sessions (who joined, when, until when) and the peer's track events (a
//! track is proof the peer was in the call). Never a success without evidence, and the evidence
//! is named; where the data to tell is missing, the verdict says which data and how to get it.
//!
//! The rules, for a chain of peer P (user U) in room R, failing from `first` to `last`, looked at
//! over its window `first ..= last + CHAIN_GAP`. A peer of U other than P counts only as a later
//! one: a peer the sessions or its track events show in R before `first` is the same person on
//! another device, and tells nothing of P. A track event is evidence when it adds or updates a
//! track: tracks are removed as a peer leaves.
//! - **join and connect** (actions JOIN and INIT): *got through* when P, or a later peer of U,
//!   joined a session of R within the window (joined at or after `first`: a join before the first
//!   failure is an earlier call, as a reused peer id would show), or published a track within it;
//!   *never got in* when R's sessions are known over the whole window and hold no such join; else
//!   *unknown*.
//! - **disconnects** (RECONNECT_SIGNAL): *reconnected* when P, or a later peer of U, joined again
//!   within the window or published a track after `first`, or P stayed in the session a minute
//!   past `last` (as far as the session is known: an active one up to now, for saved data up to
//!   the latest time it holds); *left for good* when R's sessions are known over the window and
//!   show P leaving within that minute, with no join after; else *unknown*.
//! - **publish**: *got through* when P, or a later peer of U, published a track within the
//!   window; *left* when the sessions show P leaving within the window without one, and track
//!   events of P are loaded (where none is, their absence tells nothing); else *unknown*.
//! - Other actions: *unknown*, saying that no data tells.

mod sessions;
mod words;

pub use sessions::{RoomSessions, known_span};

use super::chains::CHAIN_GAP;
use crate::related::{Related, Session, SessionPeer};
use crate::time::Zone;
use sessions::Join;

const S: i64 = 1_000_000_000;

/// How long after a disconnect a peer still in the session counts as having stayed.
pub const STAYED: i64 = 60 * S;

/// What became of a chain's attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    GotThrough,
    NeverGotIn,
    Reconnected,
    Left,
    Unknown,
}

impl Outcome {
    /// The name in JSON (`got_through`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::GotThrough => "got_through",
            Outcome::NeverGotIn => "never_got_in",
            Outcome::Reconnected => "reconnected",
            Outcome::Left => "left",
            Outcome::Unknown => "unknown",
        }
    }

    /// In words, for people.
    pub fn words(self) -> &'static str {
        match self {
            Outcome::GotThrough => "got through",
            Outcome::NeverGotIn => "never got in",
            Outcome::Reconnected => "reconnected",
            Outcome::Left => "left for good",
            Outcome::Unknown => "unknown",
        }
    }

    /// Whether the outcome is a success the data proves.
    pub fn succeeded(self) -> bool {
        matches!(self, Outcome::GotThrough | Outcome::Reconnected)
    }
}

/// A chain's verdict and what it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// The evidence, named ("joined session 63f7… at 10:02:07, left 10:25:40"); for an unknown
    /// outcome, which data is missing and how to get it.
    pub evidence: String,
    /// The session the evidence is in, if any.
    pub session_id: Option<String>,
    pub joined_at: Option<i64>,
    pub left_at: Option<i64>,
}

/// What a chain is about, as the verdict reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// Getting into the call: JOIN, or the connection before it (INIT).
    Join,
    /// Staying in it after the signalling connection dropped (RECONNECT_SIGNAL).
    Disconnect,
    Publish,
    Other,
}

impl Attempt {
    /// The attempt of a chain's action (or, without one, of its type).
    pub fn of(action: &str) -> Attempt {
        match action {
            "JOIN" | "INIT" | "client.join.failed" | "client.connect.failed" => Attempt::Join,
            "RECONNECT_SIGNAL" | "client.disconnected" => Attempt::Disconnect,
            "PUBLISH" | "client.publish.failed" => Attempt::Publish,
            _ => Attempt::Other,
        }
    }
}

/// Who failed, where, and when: what a verdict is asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failing<'a> {
    pub peer_id: &'a str,
    /// The customer's own id of the user, when the events give one: a later peer of the same
    /// user counts as the same person getting in.
    pub user_id: Option<&'a str>,
    pub room_id: &'a str,
    pub attempt: Attempt,
    pub first: i64,
    pub last: i64,
    /// The peer's track events in its room were fetched whole from the service (a live
    /// explorer asks for them when its story is opened): none loaded then means none held.
    pub tracks_whole: bool,
    /// The room's sessions were asked of the service (live): what it lists is all it holds.
    pub sessions_asked: bool,
}

/// A track event of a peer: proof the peer was in the call at `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackSeen {
    pub at: i64,
    pub peer_id: String,
    pub user_id: Option<String>,
    pub room_id: String,
    /// `track.add.success` and the like.
    pub kind: String,
    /// `audio` or `video`, and `regular` or `screen`, as the event says.
    pub media: Option<String>,
    pub source: Option<String>,
}

/// Track events fetched apart from the store's (a live explorer asks for a peer's when its
/// story is opened), and the peers whose track events were fetched whole.
#[derive(Debug, Clone, Default)]
pub struct Fetched {
    /// In time order, each once.
    pub tracks: Vec<TrackSeen>,
    /// The peers (by id) whose track events in their room were all fetched: where none of
    /// theirs is loaded, the service holds none.
    pub whole: Vec<String>,
    /// The rooms (by id) whose sessions were asked of the service.
    pub sessions: Vec<String>,
}

impl Fetched {
    /// Whether `peer_id`'s track events were all fetched.
    pub fn is_whole(&self, peer_id: &str) -> bool {
        self.whole.iter().any(|p| p == peer_id)
    }

    /// `failing` with what was fetched of its peer and room.
    pub fn of<'a>(&self, failing: Failing<'a>) -> Failing<'a> {
        Failing {
            tracks_whole: self.is_whole(failing.peer_id),
            sessions_asked: self.sessions.iter().any(|r| r == failing.room_id),
            ..failing
        }
    }
}

impl TrackSeen {
    /// `published video`, `screen share stopped`, `muted audio` in words.
    pub fn words(&self) -> String {
        let media = match (self.source.as_deref(), self.media.as_deref()) {
            (Some("screen"), _) => "screen share".to_string(),
            (_, Some(m)) => m.to_string(),
            _ => "a track".to_string(),
        };
        match self.kind.as_str() {
            "track.add.success" => format!("published {media}"),
            "track.remove.success" => format!("{media} stopped"),
            "track.update.success" => format!("{media} updated"),
            other => format!("{other} ({media})"),
        }
    }
}

/// The verdict of one chain, from the related data and the track events at hand; its evidence
/// names times of day in `zone`.
pub fn verdict(
    failing: &Failing,
    related: &Related,
    tracks: &[TrackSeen],
    now: i64,
    zone: Zone,
) -> Verdict {
    let theirs = |p: &SessionPeer| {
        p.id == failing.peer_id
            || failing
                .user_id
                .is_some_and(|u| !u.is_empty() && p.user_id.as_deref() == Some(u))
    };
    let room = RoomSessions::of(related.sessions_of(failing.room_id), now, theirs);
    let tracks: Vec<&TrackSeen> = tracks.iter().collect();
    verdict_in(failing, &room, &tracks, now, zone)
}

/// [`verdict`], with the room's sessions read once for many chains.
pub fn verdict_in(
    failing: &Failing,
    room: &RoomSessions,
    tracks: &[&TrackSeen],
    now: i64,
    zone: Zone,
) -> Verdict {
    find(failing, room, tracks, now).verdict(failing, room.known, now, zone)
}

/// The outcome [`verdict_in`] gives, without its evidence in words: what the groups view
/// counts for every chain.
pub fn outcome_in(
    failing: &Failing,
    room: &RoomSessions,
    tracks: &[&TrackSeen],
    now: i64,
) -> Outcome {
    find(failing, room, tracks, now).outcome()
}

/// What a chain's verdict rests on, found without a word written: the outcome and what its
/// evidence names. The words are written only for a verdict shown ([`Found::verdict`]).
#[derive(Debug, Clone, Copy)]
enum Found<'s, 't> {
    /// The peer, or a peer of its user, joined a session after the first failure, or stayed
    /// in the one it was disconnected from.
    Joined {
        outcome: Outcome,
        session: &'s Session,
        peer: &'s SessionPeer,
        joined: i64,
    },
    /// A track event of the peer, or of its user, after the first failure.
    Track {
        outcome: Outcome,
        track: &'t TrackSeen,
    },
    /// No join in sessions known over the whole window.
    NeverGotIn,
    /// A disconnected peer left its session within a minute, with no join after.
    LeftForGood {
        session: &'s Session,
        joined: i64,
        left: i64,
    },
    /// A peer whose publish failed left its session with no track published, among `loaded`
    /// track events of its own.
    LeftUnpublished {
        session: &'s Session,
        joined: i64,
        left: i64,
        loaded: usize,
    },
    /// Nothing tells, and why.
    Unknown(Unknown<'s>),
}

/// Why a chain's outcome is unknown.
#[derive(Debug, Clone, Copy)]
enum Unknown<'s> {
    /// The room's sessions are not known over the chain's window.
    Sessions,
    /// A failed publish: the session the peer left in the window, if the sessions show one; how
    /// many track events of the peer are loaded, whether they are all it has, and whether the
    /// sessions are known over the window.
    Publish {
        left: Option<(&'s Session, i64)>,
        loaded: usize,
        whole: bool,
        covered: bool,
    },
    /// No data the platform keeps tells of this action.
    Action,
}

impl Found<'_, '_> {
    fn outcome(&self) -> Outcome {
        match self {
            Found::Joined { outcome, .. } | Found::Track { outcome, .. } => *outcome,
            Found::NeverGotIn => Outcome::NeverGotIn,
            Found::LeftForGood { .. } | Found::LeftUnpublished { .. } => Outcome::Left,
            Found::Unknown(_) => Outcome::Unknown,
        }
    }
}

/// The rules of the module's comment, applied to one chain.
fn find<'s, 't>(
    failing: &Failing,
    room: &RoomSessions<'s>,
    tracks: &[&'t TrackSeen],
    now: i64,
) -> Found<'s, 't> {
    let window_end = failing.last.saturating_add(CHAIN_GAP);
    let covered = room
        .known
        .is_some_and(|(from, to)| from <= failing.first && window_end <= to);
    let joins = room.joins(failing.peer_id, failing.user_id);
    // Another peer of the user counts only as a later one: a peer id is one join, so a peer
    // the sessions or its track events show in the room before the first failure (the same
    // person on another device) tells nothing of this one getting in.
    // Gathered once: a user shared by many peers would make a look for each track costly.
    let mut before: Vec<&str> = joins
        .iter()
        .filter(|(_, _, p, j)| *j < failing.first && p.id != failing.peer_id)
        .map(|(_, _, p, _)| p.id.as_str())
        .chain(
            tracks
                .iter()
                .filter(|t| t.at < failing.first && t.room_id == failing.room_id)
                .filter(|t| t.peer_id != failing.peer_id)
                .map(|t| t.peer_id.as_str()),
        )
        .collect();
    before.sort_unstable();
    before.dedup();
    let earlier = |peer_id: &str| before.binary_search(&peer_id).is_ok();
    let same = |peer_id: &str, user_id: Option<&str>| {
        peer_id == failing.peer_id
            || (failing
                .user_id
                .is_some_and(|u| !u.is_empty() && user_id == Some(u))
                && !earlier(peer_id))
    };
    let later_join = joins
        .iter()
        .filter(|(_, _, p, j)| *j >= failing.first && *j <= window_end && !earlier(&p.id))
        .min_by_key(|(_, _, _, j)| *j);
    let track_after = |from: i64| {
        tracks
            .iter()
            .copied()
            .filter(|t| t.room_id == failing.room_id && same(&t.peer_id, t.user_id.as_deref()))
            .filter(|t| t.kind != "track.remove.success")
            .filter(|t| t.at >= from && t.at <= window_end)
            .min_by_key(|t| t.at)
    };
    let joined = |outcome, &(_, session, peer, joined): &Join<'s>| Found::Joined {
        outcome,
        session,
        peer,
        joined,
    };
    match failing.attempt {
        Attempt::Join => {
            if let Some(join) = later_join {
                return joined(Outcome::GotThrough, join);
            }
            if let Some(track) = track_after(failing.first) {
                return Found::Track {
                    outcome: Outcome::GotThrough,
                    track,
                };
            }
            match covered {
                true => Found::NeverGotIn,
                false => Found::Unknown(Unknown::Sessions),
            }
        }
        Attempt::Disconnect => {
            if let Some(join) = later_join {
                return joined(Outcome::Reconnected, join);
            }
            // A track removed tells nothing: tracks go as a peer leaves.
            if let Some(track) = track_after(failing.first) {
                return Found::Track {
                    outcome: Outcome::Reconnected,
                    track,
                };
            }
            // The peer's stay in the session the disconnect happened in: another peer of its
            // user staying is another device.
            let stay = joins
                .iter()
                .filter(|(_, _, p, j)| p.id == failing.peer_id && *j <= failing.first)
                .filter(|(_, _, p, _)| p.left().is_none_or(|l| l >= failing.first))
                .max_by_key(|(_, _, _, j)| *j);
            if let Some(stay @ &(_, session, peer, joined_at)) = stay {
                let left = peer.left();
                let stayed = match left {
                    // Still in the call: as far as the session is known, which for an
                    // active one is up to now, and for saved data up to what it holds.
                    None => session
                        .known_until(now)
                        .is_some_and(|u| u > failing.last + STAYED),
                    Some(l) => l > failing.last + STAYED,
                };
                if stayed {
                    return joined(Outcome::Reconnected, stay);
                }
                if covered && let Some(left) = left {
                    return Found::LeftForGood {
                        session,
                        joined: joined_at,
                        left,
                    };
                }
            }
            Found::Unknown(Unknown::Sessions)
        }
        Attempt::Publish => {
            if let Some(track) = track_after(failing.first) {
                return Found::Track {
                    outcome: Outcome::GotThrough,
                    track,
                };
            }
            // No track published is told only by the peer's own track events: where none of
            // them is loaded, their absence says nothing.
            let loaded = tracks
                .iter()
                .filter(|t| t.room_id == failing.room_id && same(&t.peer_id, t.user_id.as_deref()))
                .count();
            // The peer's own leave: another device of its user leaving says nothing of it.
            let left = joins
                .iter()
                .filter(|(_, _, p, j)| {
                    p.id == failing.peer_id
                        && *j <= failing.last
                        && p.left()
                            .is_some_and(|l| l >= failing.first && l <= window_end)
                })
                .max_by_key(|(_, _, _, j)| *j)
                .filter(|_| covered);
            // The peer's own track events fetched whole tell of that peer alone: a later peer
            // of the same user in the window, whose track events were not asked for, may have
            // published.
            let rejoined = joins.iter().any(|(_, _, p, j)| {
                p.id != failing.peer_id && *j >= failing.first && *j <= window_end
            });
            let whole = failing.tracks_whole && !rejoined;
            let left_at = |p: &SessionPeer| p.left().unwrap_or(failing.last);
            if (loaded > 0 || whole)
                && let Some(&(_, session, peer, joined)) = left
            {
                return Found::LeftUnpublished {
                    session,
                    joined,
                    left: left_at(peer),
                    loaded,
                };
            }
            Found::Unknown(Unknown::Publish {
                left: left.map(|&(_, session, peer, _)| (session, left_at(peer))),
                loaded,
                whole,
                covered,
            })
        }
        Attempt::Other => Found::Unknown(Unknown::Action),
    }
}

#[cfg(test)]
mod tests;
