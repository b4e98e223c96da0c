//! A verdict's evidence in words: what was found, named with its session, its times of day in
//! the zone asked for, and for an unknown outcome, which data is missing and how to get it.

use super::{Failing, Found, Outcome, TrackSeen, Unknown, Verdict};
use crate::insight::chains::{CHAIN_GAP, duration_words};
use crate::related::{Session, SessionPeer};
use crate::time::Zone;

impl Found<'_, '_> {
    /// The verdict, its evidence written: `known` is the span the room's sessions are known
    /// over.
    pub(super) fn verdict(
        &self,
        failing: &Failing,
        known: Option<(i64, i64)>,
        now: i64,
        zone: Zone,
    ) -> Verdict {
        let clock = |ns: i64| zone.clock(ns);
        let window_end = failing.last.saturating_add(CHAIN_GAP);
        let outcome = self.outcome();
        let evidence = |evidence: String| Verdict {
            outcome,
            evidence,
            session_id: None,
            joined_at: None,
            left_at: None,
        };
        match *self {
            Found::Joined {
                outcome,
                session,
                peer,
                joined,
            } => joined_verdict(outcome, failing, session, peer, joined, zone),
            Found::Track { track, .. } => evidence(track_words(track, zone)),
            Found::NeverGotIn => evidence(format!(
                "no {} joined a session of room {} from {} to {} (its sessions are known over \
                 that time)",
                who(failing),
                failing.room_id,
                clock(failing.first),
                clock(window_end)
            )),
            Found::LeftForGood {
                session,
                joined,
                left,
            } => Verdict {
                session_id: Some(session.id.clone()),
                joined_at: Some(joined),
                left_at: Some(left),
                ..evidence(format!(
                    "left session {} at {}, {} after the first disconnect; no join of the {} \
                     until {}",
                    short(&session.id),
                    clock(left),
                    duration_words(left - failing.first),
                    who(failing),
                    clock(window_end)
                ))
            },
            Found::LeftUnpublished {
                session,
                joined,
                left,
                loaded,
            } => Verdict {
                session_id: Some(session.id.clone()),
                joined_at: Some(joined),
                left_at: Some(left),
                ..evidence(format!(
                    "left session {} at {} with no track published after the first failure{}{}",
                    short(&session.id),
                    clock(left),
                    if loaded == 0 { ": " } else { " " },
                    among(loaded),
                ))
            },
            Found::Unknown(Unknown::Sessions) => {
                evidence(missing(failing, known, window_end, now, zone))
            }
            Found::Unknown(Unknown::Publish {
                left,
                loaded,
                whole,
                covered,
            }) => {
                let tracks = if loaded == 0 && whole {
                    format!(
                        "no track published from {} to {}: {}",
                        clock(failing.first),
                        clock(window_end),
                        among(loaded)
                    )
                } else if loaded == 0 {
                    "no track event of the peer is loaded: ask for the track events of its \
                     session"
                        .to_string()
                } else {
                    format!(
                        "no track published from {} to {} {}",
                        clock(failing.first),
                        clock(window_end),
                        among(loaded)
                    )
                };
                evidence(match left {
                    Some((session, at)) => {
                        format!(
                            "left session {} at {}; {tracks}",
                            short(&session.id),
                            clock(at)
                        )
                    }
                    None if covered => tracks,
                    None => format!(
                        "{tracks}; {}",
                        missing(failing, known, window_end, now, zone)
                    ),
                })
            }
            Found::Unknown(Unknown::Action) => evidence(
                "no data the platform keeps tells whether this action succeeded later".into(),
            ),
        }
    }
}

/// What the peer's loaded track events were looked among.
fn among(loaded: usize) -> String {
    if loaded == 0 {
        "the service holds no track event of the peer in the room".to_string()
    } else {
        format!(
            "among the peer's {}",
            crate::text::plural(loaded, "loaded track event", "loaded track events")
        )
    }
}

/// Which of the room's sessions are missing to tell, and how to get them.
fn missing(
    failing: &Failing,
    known: Option<(i64, i64)>,
    window_end: i64,
    now: i64,
    zone: Zone,
) -> String {
    if failing.room_id.is_empty() {
        return "the errors name no room, so no room's sessions can tell".to_string();
    }
    let Some((from, to)) = known else {
        return match failing.sessions_asked {
            true => format!("the service lists no session of room {}", failing.room_id),
            false => format!(
                "no session data for room {}: fetch it live, or add the room's sessions response \
                 to the folder",
                failing.room_id
            ),
        };
    };
    // Times of more than one day read with their dates, not as a span backwards.
    let times = [from, to, failing.first, window_end];
    let day = |ns: i64| zone.shift(ns).div_euclid(86_400 * 1_000_000_000);
    let said = |ns: i64| match times.iter().all(|&t| day(t) == day(from)) {
        true => zone.clock(ns),
        false => crate::time::format_short(zone.shift(ns))[..19].to_string(),
    };
    let (room, span) = (failing.room_id, (said(from), said(to)));
    let over = (said(failing.first), said(window_end));
    match failing.sessions_asked {
        // Live, the service was asked before the ten minutes were over.
        true if window_end > now => format!(
            "the sessions of room {room} are known from {} to {}, not over {} to {}: ask the \
             service again after {}",
            span.0, span.1, over.0, over.1, over.1
        ),
        // Asked after: what it listed is what it holds (of its newest sessions).
        true => format!(
            "the sessions the service lists of room {room} run from {} to {}, not over {} to {}",
            span.0, span.1, over.0, over.1
        ),
        false => format!(
            "the sessions of room {room} are known from {} to {}, not over {} to {}: fetch them \
             live, or add the sessions of that time to the folder",
            span.0, span.1, over.0, over.1
        ),
    }
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

fn track_words(track: &TrackSeen, zone: Zone) -> String {
    format!(
        "{} at {} ({})",
        track.words(),
        zone.clock(track.at),
        track.kind
    )
}

/// An id's first eight characters, `63f73bf0…`.
fn short(id: &str) -> String {
    match id.char_indices().nth(8) {
        Some((at, _)) => format!("{}…", &id[..at]),
        None => id.to_string(),
    }
}
