//! A room's sessions as the verdicts read them: the span they are known over, and their joins
//! by peer and by user, indexed once for all the room's chains.

use std::borrow::Cow;

use crate::related::{Session, SessionPeer};

/// One join of a room's sessions: its place among them (to keep their order), the session,
/// the peer and when it joined.
pub(super) type Join<'a> = (usize, &'a Session, &'a SessionPeer, i64);

/// A room's sessions read once for the verdicts of many of its chains: the span they are known
/// over, and their joins by peer id and by user id.
#[derive(Debug, Default)]
pub struct RoomSessions<'a> {
    pub(super) known: Option<(i64, i64)>,
    by_peer: Grouped<'a>,
    by_user: Grouped<'a>,
}

/// Joins grouped by a key, each group in the sessions' order: a group's number by key, and the
/// joins of each group side by side in one list. A map of a list a key took a fifth of the
/// outcomes' time at a million events, most of it in allocating and freeing the lists.
#[derive(Debug, Default)]
struct Grouped<'a> {
    group_of: rustc_hash::FxHashMap<&'a str, u32>,
    /// Where each group's joins begin in `joins`, and after the last, where they end.
    starts: Vec<u32>,
    joins: Vec<Join<'a>>,
}

impl<'a> Grouped<'a> {
    /// `joins`, each with its key, grouped by key.
    fn of(keyed: &[(&'a str, Join<'a>)]) -> Grouped<'a> {
        let mut group_of: rustc_hash::FxHashMap<&'a str, u32> =
            rustc_hash::FxHashMap::with_capacity_and_hasher(keyed.len(), Default::default());
        let mut counts: Vec<u32> = Vec::new();
        let groups: Vec<u32> = keyed
            .iter()
            .map(|(key, _)| {
                let g = *group_of.entry(key).or_insert_with(|| {
                    counts.push(0);
                    counts.len() as u32 - 1
                });
                counts[g as usize] += 1;
                g
            })
            .collect();
        let mut starts = Vec::with_capacity(counts.len() + 1);
        let mut at = 0;
        for n in &counts {
            starts.push(at);
            at += n;
        }
        starts.push(at);
        // The joins by group, in order within each: sorted by group, then by place.
        let mut order: Vec<u64> = groups
            .iter()
            .enumerate()
            .map(|(i, &g)| (u64::from(g) << 32) | i as u64)
            .collect();
        order.sort_unstable();
        let joins = order
            .iter()
            .map(|&o| keyed[(o & u64::from(u32::MAX)) as usize].1)
            .collect();
        Grouped {
            group_of,
            starts,
            joins,
        }
    }

    /// The joins of `key`, in order.
    fn get(&self, key: &str) -> &[Join<'a>] {
        match self.group_of.get(key) {
            Some(&g) => {
                let (from, to) = (self.starts[g as usize], self.starts[g as usize + 1]);
                &self.joins[from as usize..to as usize]
            }
            None => &[],
        }
    }
}

impl<'a> RoomSessions<'a> {
    /// Every join of `sessions`, a room's sessions in their order, for the verdicts of all its
    /// chains.
    pub fn new(sessions: &[&'a Session], now: i64) -> RoomSessions<'a> {
        RoomSessions::of(sessions.iter().copied(), now, |_| true)
    }

    /// The joins of a room's `sessions` that `keep` keeps: those of one failing peer and its
    /// user, for a single verdict, without indexing the others.
    pub(super) fn of(
        sessions: impl Iterator<Item = &'a Session> + Clone,
        now: i64,
        keep: impl Fn(&SessionPeer) -> bool,
    ) -> RoomSessions<'a> {
        let known = known_span(sessions.clone(), now);
        let (mut by_peer, mut by_user) = (Vec::new(), Vec::new());
        let peers = sessions.flat_map(|s| s.peers.iter().map(move |p| (s, p)));
        for (k, (s, p)) in peers.enumerate() {
            if !keep(p) {
                continue;
            }
            let Some(joined) = p.joined() else { continue };
            by_peer.push((p.id.as_str(), (k, s, p, joined)));
            if let Some(u) = p.user_id.as_deref().filter(|u| !u.is_empty()) {
                by_user.push((u, (k, s, p, joined)));
            }
        }
        RoomSessions {
            known,
            by_peer: Grouped::of(&by_peer),
            by_user: Grouped::of(&by_user),
        }
    }

    /// The joins of the peer, or of a peer of the user, in the sessions' order, each once.
    /// Borrowed where one of the two holds them all, as for most chains.
    pub(super) fn joins(&self, peer_id: &str, user_id: Option<&str>) -> Cow<'_, [Join<'a>]> {
        let of_peer = self.by_peer.get(peer_id);
        let of_user = user_id
            .filter(|u| !u.is_empty())
            .map_or(&[][..], |u| self.by_user.get(u));
        if of_user.is_empty() {
            return Cow::Borrowed(of_peer);
        }
        // The peer's joins under the same user are among the user's already: told by their
        // places (both in order), not by reading each peer's user, far off in memory.
        let mut places = of_user.iter().map(|j| j.0);
        if of_peer.iter().all(|j| places.any(|k| k == j.0)) {
            return Cow::Borrowed(of_user);
        }
        let mut joins = [of_peer, of_user].concat();
        joins.sort_by_key(|j| j.0);
        joins.dedup_by_key(|j| j.0);
        Cow::Owned(joins)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`RoomSessions::joins`] the plain way: the peer's and the user's joins put together,
    /// in the sessions' order, each once.
    fn joins_plainly<'a>(
        room: &RoomSessions<'a>,
        peer_id: &str,
        user_id: Option<&str>,
    ) -> Vec<usize> {
        let mut joins: Vec<Join<'a>> = room.by_peer.get(peer_id).to_vec();
        if let Some(u) = user_id.filter(|u| !u.is_empty()) {
            joins.extend(room.by_user.get(u).iter().copied());
        }
        let mut places: Vec<usize> = joins.iter().map(|j| j.0).collect();
        places.sort_unstable();
        places.dedup();
        places
    }

    #[test]
    fn a_peers_joins_are_its_own_and_its_users_in_order_each_once() {
        let related = crate::source::demo::related();
        let mut rooms: Vec<&str> = related
            .sessions
            .iter()
            .map(|s| s.room_id.as_str())
            .collect();
        rooms.sort_unstable();
        rooms.dedup();
        let (mut asked, mut borrowed, mut merged) = (0, 0, 0);
        for id in rooms {
            let sessions: Vec<&Session> = related.sessions_of(id).collect();
            let room = RoomSessions::new(&sessions, 0);
            let peers = sessions.iter().flat_map(|s| &s.peers);
            // Each peer with its own user, with another peer's user, and with none.
            for (p, other) in peers
                .clone()
                .zip(peers.clone().skip(1).chain(peers.clone()))
            {
                for user in [p.user_id.as_deref(), other.user_id.as_deref(), None] {
                    let joins = room.joins(&p.id, user);
                    let places: Vec<usize> = joins.iter().map(|j| j.0).collect();
                    assert_eq!(
                        places,
                        joins_plainly(&room, &p.id, user),
                        "{} {user:?}",
                        p.id
                    );
                    asked += 1;
                    match joins {
                        Cow::Borrowed(_) => borrowed += 1,
                        Cow::Owned(_) => merged += 1,
                    }
                }
            }
        }
        assert!(
            asked > 100 && borrowed > 10 && merged > 10,
            "{asked} {borrowed} {merged}"
        );
    }
}
