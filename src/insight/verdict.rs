//! Did they get through? The verdict of a retry chain, from the platform's own data beside the
//! errors: the room's sessions (who joined, when, until when) and the peer's track events (a
//! track is proof the peer was in the call). Never a success without evidence, and the evidence
//! is named; where the data to tell is missing, the verdict says which data and how to get it.
//!
//! The rules, for a chain of peer P (user U) in room R, failing from `first` to `last`, looked at
//! over its window `first ..= last + CHAIN_GAP`:
//! - **join and connect** (actions JOIN and INIT): *got through* when P, or a peer of U, joined a
//!   session of R within the window (joined at or after `first`: a join before the first failure
//!   is an earlier call, as a reused peer id would show), or published a track within it; *never
//!   got in* when R's sessions are known over the whole window and hold no such join; else
//!   *unknown*.
//! - **disconnects** (RECONNECT_SIGNAL): *reconnected* when P, or a peer of U, joined again
//!   within the window, published a track after `first`, or stayed in the session a minute past
//!   `last`; *left for good* when R's sessions are known over the window and show P leaving
//!   within that minute, with no join after; else *unknown*.
//! - **publish**: *got through* when P published a track within the window; *left* when the
//!   sessions show P leaving within the window without one, and track events of P are loaded
//!   (where none is, their absence tells nothing); else *unknown*.
//! - Other actions: *unknown*, saying that no data tells.

use super::chains::{CHAIN_GAP, duration_words};
use crate::related::{Related, Session, SessionPeer};
use crate::time::Zone;

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

impl Verdict {
    fn unknown(evidence: String) -> Verdict {
        Verdict {
            outcome: Outcome::Unknown,
            evidence,
            session_id: None,
            joined_at: None,
            left_at: None,
        }
    }
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

/// One join of a room's sessions: its place among them (to keep their order), the session,
/// the peer and when it joined.
type Join<'a> = (usize, &'a Session, &'a SessionPeer, i64);

/// A room's sessions read once for the verdicts of many of its chains: the span they are known
/// over, and their joins by peer id and by user id.
#[derive(Debug, Default)]
pub struct RoomSessions<'a> {
    known: Option<(i64, i64)>,
    by_peer: rustc_hash::FxHashMap<&'a str, Vec<Join<'a>>>,
    by_user: rustc_hash::FxHashMap<&'a str, Vec<Join<'a>>>,
}

impl<'a> RoomSessions<'a> {
    /// Every join of `sessions`, a room's sessions in their order, for the verdicts of all its
    /// chains.
    pub fn new(sessions: &[&'a Session], now: i64) -> RoomSessions<'a> {
        RoomSessions::of(sessions.iter().copied(), now, |_| true)
    }

    /// The joins of a room's `sessions` that `keep` keeps: those of one failing peer and its
    /// user, for a single verdict, without indexing the others.
    fn of(
        sessions: impl Iterator<Item = &'a Session> + Clone,
        now: i64,
        keep: impl Fn(&SessionPeer) -> bool,
    ) -> RoomSessions<'a> {
        let mut room = RoomSessions {
            known: known_span(sessions.clone(), now),
            ..RoomSessions::default()
        };
        let peers = sessions.flat_map(|s| s.peers.iter().map(move |p| (s, p)));
        for (k, (s, p)) in peers.enumerate() {
            if !keep(p) {
                continue;
            }
            let Some(joined) = p.joined() else { continue };
            room.by_peer
                .entry(p.id.as_str())
                .or_default()
                .push((k, s, p, joined));
            if let Some(u) = p.user_id.as_deref().filter(|u| !u.is_empty()) {
                room.by_user.entry(u).or_default().push((k, s, p, joined));
            }
        }
        room
    }

    /// The joins of the peer, or of a peer of the user, in the sessions' order.
    fn joins(
        &self,
        peer_id: &str,
        user_id: Option<&str>,
    ) -> Vec<(&'a Session, &'a SessionPeer, i64)> {
        let mut joins: Vec<Join<'a>> = self.by_peer.get(peer_id).cloned().unwrap_or_default();
        if let Some(more) = user_id
            .filter(|u| !u.is_empty())
            .and_then(|u| self.by_user.get(u))
        {
            joins.extend(more.iter().copied());
            joins.sort_by_key(|j| j.0);
            joins.dedup_by_key(|j| j.0);
        }
        joins.into_iter().map(|(_, s, p, j)| (s, p, j)).collect()
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
    verdict_in(failing, &room, tracks, now, zone)
}

/// [`verdict`], with the room's sessions read once for many chains.
pub fn verdict_in(
    failing: &Failing,
    room: &RoomSessions,
    tracks: &[TrackSeen],
    now: i64,
    zone: Zone,
) -> Verdict {
    let clock = |ns: i64| zone.clock(ns);
    let window_end = failing.last.saturating_add(CHAIN_GAP);
    let known = room.known;
    let covered = known.is_some_and(|(from, to)| from <= failing.first && window_end <= to);
    let same = |peer_id: &str, user_id: Option<&str>| {
        peer_id == failing.peer_id
            || failing
                .user_id
                .is_some_and(|u| !u.is_empty() && user_id == Some(u))
    };
    let joins = room.joins(failing.peer_id, failing.user_id);
    let later_join = joins
        .iter()
        .filter(|(_, _, j)| *j >= failing.first && *j <= window_end)
        .min_by_key(|(_, _, j)| *j);
    let track_after = |from: i64, adds_only: bool| {
        tracks
            .iter()
            .filter(|t| t.room_id == failing.room_id && same(&t.peer_id, t.user_id.as_deref()))
            .filter(|t| !adds_only || t.kind != "track.remove.success")
            .filter(|t| t.at >= from && t.at <= window_end)
            .min_by_key(|t| t.at)
    };
    let missing = || {
        match known {
            None if failing.sessions_asked => {
                format!("the service lists no session of room {}", failing.room_id)
            }
            None => format!(
                "no session data for room {}: fetch it live, or add the room's sessions \
                 response to the folder",
                failing.room_id
            ),
            Some((from, to)) => {
                // Times of more than one day read with their dates, not as a span backwards.
                let times = [from, to, failing.first, window_end];
                let day = |ns: i64| zone.shift(ns).div_euclid(86_400 * 1_000_000_000);
                let said = |ns: i64| match times.iter().all(|&t| day(t) == day(from)) {
                    true => clock(ns),
                    false => crate::time::format_short(zone.shift(ns))[..19].to_string(),
                };
                let (room, span) = (failing.room_id, (said(from), said(to)));
                let over = (said(failing.first), said(window_end));
                match failing.sessions_asked {
                    // Live, the service was asked before the ten minutes were over.
                    true if window_end > now => format!(
                        "the sessions of room {room} are known from {} to {}, not over {} to \
                         {}: ask the service again after {}",
                        span.0, span.1, over.0, over.1, over.1
                    ),
                    // Asked after: what it listed is what it holds (of its newest sessions).
                    true => format!(
                        "the sessions the service lists of room {room} run from {} to {}, not \
                         over {} to {}",
                        span.0, span.1, over.0, over.1
                    ),
                    false => format!(
                        "the sessions of room {room} are known from {} to {}, not over {} to \
                         {}: fetch them live, or add the sessions of that time to the folder",
                        span.0, span.1, over.0, over.1
                    ),
                }
            }
        }
    };
    match failing.attempt {
        Attempt::Join => {
            if let Some((session, peer, joined)) = later_join {
                return joined_verdict(Outcome::GotThrough, failing, session, peer, *joined, zone);
            }
            if let Some(track) = track_after(failing.first, true) {
                return track_verdict(Outcome::GotThrough, track, zone);
            }
            if covered {
                return Verdict {
                    outcome: Outcome::NeverGotIn,
                    evidence: format!(
                        "no {} joined a session of room {} from {} to {} (its sessions are known \
                         over that time)",
                        who(failing),
                        failing.room_id,
                        clock(failing.first),
                        clock(window_end)
                    ),
                    session_id: None,
                    joined_at: None,
                    left_at: None,
                };
            }
            Verdict::unknown(missing())
        }
        Attempt::Disconnect => {
            if let Some((session, peer, joined)) = later_join {
                return joined_verdict(Outcome::Reconnected, failing, session, peer, *joined, zone);
            }
            if let Some(track) = track_after(failing.first, false) {
                return track_verdict(Outcome::Reconnected, track, zone);
            }
            // The stay in the session the disconnect happened in.
            let stay = joins
                .iter()
                .filter(|(_, _, j)| *j <= failing.first)
                .filter(|(_, p, _)| p.left().is_none_or(|l| l >= failing.first))
                .max_by_key(|(_, _, j)| *j);
            if let Some((session, peer, joined)) = stay {
                let left = peer.left();
                let stayed = match left {
                    None => {
                        session.active == Some(true)
                            || session
                                .known_until(now)
                                .is_some_and(|u| u > failing.last + STAYED)
                    }
                    Some(l) => l > failing.last + STAYED,
                };
                if stayed {
                    return joined_verdict(
                        Outcome::Reconnected,
                        failing,
                        session,
                        peer,
                        *joined,
                        zone,
                    );
                }
                if covered && let Some(l) = left {
                    return Verdict {
                        outcome: Outcome::Left,
                        evidence: format!(
                            "left session {} at {}, {} after the first disconnect; no join of \
                             the {} until {}",
                            short(&session.id),
                            clock(l),
                            duration_words(l - failing.first),
                            who(failing),
                            clock(window_end)
                        ),
                        session_id: Some(session.id.clone()),
                        joined_at: Some(*joined),
                        left_at: Some(l),
                    };
                }
            }
            Verdict::unknown(missing())
        }
        Attempt::Publish => {
            if let Some(track) = track_after(failing.first, true) {
                return track_verdict(Outcome::GotThrough, track, zone);
            }
            // No track published is told only by the peer's own track events: where none of
            // them is loaded, their absence says nothing.
            let loaded = tracks
                .iter()
                .filter(|t| t.room_id == failing.room_id && same(&t.peer_id, t.user_id.as_deref()))
                .count();
            let left = joins
                .iter()
                .filter(|(_, p, j)| {
                    *j <= failing.last
                        && p.left()
                            .is_some_and(|l| l >= failing.first && l <= window_end)
                })
                .max_by_key(|(_, _, j)| *j)
                .filter(|_| covered);
            // The peer's own track events fetched whole tell of that peer alone: a later peer
            // of the same user in the window, whose track events were not asked for, may have
            // published.
            let rejoined = joins.iter().any(|(_, p, j)| {
                p.id != failing.peer_id && *j >= failing.first && *j <= window_end
            });
            let whole = failing.tracks_whole && !rejoined;
            let among = if loaded == 0 {
                "the service holds no track event of the peer in the room".to_string()
            } else {
                format!(
                    "among the peer's {}",
                    crate::text::plural(loaded, "loaded track event", "loaded track events")
                )
            };
            if (loaded > 0 || whole)
                && let Some((session, peer, joined)) = left
            {
                let l = peer.left().unwrap_or(failing.last);
                return Verdict {
                    outcome: Outcome::Left,
                    evidence: format!(
                        "left session {} at {} with no track published after the first \
                         failure{}{among}",
                        short(&session.id),
                        clock(l),
                        if loaded == 0 { ": " } else { " " },
                    ),
                    session_id: Some(session.id.clone()),
                    joined_at: Some(*joined),
                    left_at: Some(l),
                };
            }
            let tracks = if loaded == 0 && whole {
                format!(
                    "no track published from {} to {}: {among}",
                    clock(failing.first),
                    clock(window_end)
                )
            } else if loaded == 0 {
                "no track event of the peer is loaded: ask for the track events of its session"
                    .to_string()
            } else {
                format!(
                    "no track published from {} to {} {among}",
                    clock(failing.first),
                    clock(window_end)
                )
            };
            Verdict::unknown(match left {
                Some((session, peer, _)) => format!(
                    "left session {} at {}; {tracks}",
                    short(&session.id),
                    clock(peer.left().unwrap_or(failing.last))
                ),
                None if covered => tracks,
                None => format!("{tracks}; {}", missing()),
            })
        }
        Attempt::Other => Verdict::unknown(
            "no data the platform keeps tells whether this action succeeded later".into(),
        ),
    }
}

/// The span a room's `sessions` are known over: from the first's start to the last's end
/// (now, for an active one). The sessions endpoint lists a room's sessions without gaps, so
/// within the span a join not listed did not happen.
pub fn known_span<'a>(
    sessions: impl IntoIterator<Item = &'a Session>,
    now: i64,
) -> Option<(i64, i64)> {
    let mut span: Option<(i64, i64)> = None;
    for s in sessions {
        let Some(from) = s
            .started()
            .or_else(|| s.peers.iter().filter_map(SessionPeer::joined).min())
        else {
            continue;
        };
        let to = s.known_until(now).unwrap_or(from);
        span = Some(match span {
            None => (from, to),
            Some((a, b)) => (a.min(from), b.max(to)),
        });
    }
    span
}

fn who(failing: &Failing) -> String {
    match failing.user_id {
        Some(u) if !u.is_empty() => format!("peer of user {u}"),
        _ => format!("peer {}", short(failing.peer_id)),
    }
}

fn joined_verdict(
    outcome: Outcome,
    failing: &Failing,
    session: &Session,
    peer: &SessionPeer,
    joined: i64,
    zone: Zone,
) -> Verdict {
    let clock = |ns: i64| zone.clock(ns);
    let as_peer = if peer.id == failing.peer_id {
        String::new()
    } else {
        format!(" as peer {} (same user)", short(&peer.id))
    };
    let left = peer.left();
    let stay = match left {
        Some(l) => format!(", left {} (after {})", clock(l), duration_words(l - joined)),
        None => ", still in the call when the session was last seen".to_string(),
    };
    let when = if joined >= failing.first {
        format!(
            "{} after the first failure",
            duration_words(joined - failing.first)
        )
    } else {
        "before the disconnect".to_string()
    };
    Verdict {
        outcome,
        evidence: format!(
            "joined session {} at {}{as_peer} ({when}){stay}",
            short(&session.id),
            clock(joined)
        ),
        session_id: Some(session.id.clone()),
        joined_at: Some(joined),
        left_at: left,
    }
}

fn track_verdict(outcome: Outcome, track: &TrackSeen, zone: Zone) -> Verdict {
    Verdict {
        outcome,
        evidence: format!(
            "{} at {} ({})",
            track.words(),
            zone.clock(track.at),
            track.kind
        ),
        session_id: None,
        joined_at: None,
        left_at: None,
    }
}

/// An id's first eight characters, `63f73bf0…`.
fn short(id: &str) -> String {
    match id.char_indices().nth(8) {
        Some((at, _)) => format!("{}…", &id[..at]),
        None => id.to_string(),
    }
}

#[cfg(test)]
mod tests;
