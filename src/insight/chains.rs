//! A peer's story: every loaded event of one peer in time order, its errors folded into retry
//! chains per action, each told in words that claim no more than the events show. The API reports
//! failures only, never successes, so a chain that stops without a final error only says that no
//! later error was loaded.
//!
//! The rules:
//! - A chain holds errors of one peer and one action (the `action` field, or the event type when
//!   the action is absent), taken in time order (equal times in load order). Chains of different
//!   actions run side by side.
//! - A final error (`is_terminal` true) ends its chain: the SDK said it made no more retries, so
//!   the next error of the same action starts a new chain.
//! - A quiet spell longer than [`CHAIN_GAP`] also ends a chain: SDK retries follow each other
//!   within seconds to a couple of minutes, so an error that long after is a new try by the
//!   user (a rejoin, a reload), not one more retry.
//! - An error in another room than the one before it also ends a chain, as does one naming no
//!   room after errors that name one (or the other way round; an empty `room_id` names none):
//!   its verdict is read from one room's sessions.
//! - An empty `peer_id` names no peer: events of different people can carry one.
//! - Only the five client error types form chains; events of other families (track, recording)
//!   report successes, and events without a time cannot be placed. Both stay in the story's list.

use rustc_hash::FxHashMap;

use super::Kinds;
use super::named::Named;
use crate::store::{NO_TIME, Row, Store, Sym};
use crate::time::Zone;

const S: i64 = 1_000_000_000;

/// The longest quiet spell inside one chain: 10 minutes.
pub const CHAIN_GAP: i64 = 10 * 60 * S;

/// How a chain ended, as far as the loaded events show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Its last error is final; `next` is when the next chain of the same action starts, if any.
    GaveUp { at: i64, next: Option<i64> },
    /// Its last error is not final and no later error of the same action was loaded.
    NoLaterError,
    /// Its last error is not final, and the next error of the same action came more than
    /// [`CHAIN_GAP`] later, at `next`, starting a new chain.
    Quiet { next: i64 },
    /// Its last error is not final, and the next error of the same action came within
    /// [`CHAIN_GAP`] but in another room (or naming no room, or one where these name none),
    /// at `next`, starting a new chain.
    Moved { next: i64, to: Elsewhere },
}

/// Where the error that starts the next chain was, against the room of a chain that
/// [`Ending::Moved`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elsewhere {
    /// Both name a room: two different ones.
    Other,
    /// The chain names a room; the next error names none.
    Unnamed,
    /// The chain names no room; the next error names one.
    Named,
}

impl Elsewhere {
    /// Of a chain whose errors name `room` (`None` for no room) and the next error's `next`.
    fn of(room: Option<Sym>, next: Option<Sym>) -> Elsewhere {
        match (room, next) {
            (Some(_), None) => Elsewhere::Unnamed,
            (None, Some(_)) => Elsewhere::Named,
            _ => Elsewhere::Other,
        }
    }

    /// Where the chain had no later error, and where the next one was: `("in this room",
    /// "is in another room")`.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            Elsewhere::Other => ("in this room", "is in another room"),
            Elsewhere::Unnamed => ("in this room", "names no room"),
            Elsewhere::Named => ("naming no room", "names a room"),
        }
    }
}

impl Ending {
    /// In words, its times of day in `zone`, e.g. `gave up: final error at 11:06:02`.
    pub fn words(&self, zone: Zone) -> String {
        match *self {
            Ending::GaveUp { at, next: None } => {
                format!("gave up: final error at {}", zone.clock(at))
            }
            Ending::GaveUp { at, next: Some(n) } => format!(
                "gave up: final error at {}; a new chain for this action began at {}",
                zone.clock(at),
                zone.clock(n)
            ),
            Ending::NoLaterError => {
                "no later error for this action among the loaded events".to_string()
            }
            Ending::Quiet { next } => format!(
                "no later error for this action within {} min; the next one, at {}, starts a new chain",
                CHAIN_GAP / (60 * S),
                zone.clock(next)
            ),
            Ending::Moved { next, to } => {
                let (here, there) = to.words();
                format!(
                    "no later error for this action {here}; the next one, at {}, {there} and \
                     starts a new chain",
                    zone.clock(next)
                )
            }
        }
    }

    pub fn gave_up(&self) -> bool {
        matches!(self, Ending::GaveUp { .. })
    }
}

/// Consecutive errors of one peer and one action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    /// The `action` of its errors; `Sym::NONE` when they have none (the chain is then one of
    /// their type).
    pub action: Sym,
    /// The type of its first error.
    pub kind: Sym,
    /// Store indices, in time order.
    pub events: Vec<u32>,
    /// Nanoseconds of its first and last error.
    pub first: i64,
    pub last: i64,
    pub ending: Ending,
}

impl Chain {
    /// Every error is one failed attempt: the API reports nothing else.
    pub fn attempts(&self) -> usize {
        self.events.len()
    }

    pub fn duration(&self) -> i64 {
        self.last - self.first
    }

    /// The action's name, or the type's when the errors carry no action.
    pub fn action_name<'a>(&self, store: &'a Store) -> &'a str {
        if self.action.is_none() {
            store.str(self.kind)
        } else {
            store.str(self.action)
        }
    }

    /// One line, its times of day in `zone`: `PUBLISH: 10 failed attempts over 1m 43s; gave
    /// up: final error at 11:42:50`.
    pub fn summary(&self, store: &Store, zone: Zone) -> String {
        let n = self.attempts();
        let attempts = if n == 1 {
            "1 failed attempt".to_string()
        } else {
            format!(
                "{n} failed attempts over {}",
                duration_words(self.duration())
            )
        };
        format!(
            "{}: {attempts}; {}",
            self.action_name(store),
            self.ending.words(zone)
        )
    }
}

/// Every loaded event of one peer, and its errors' chains.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Story {
    pub peer: Sym,
    /// Store indices: the events with a time in time order (equal times in load order), then
    /// those without one in load order.
    pub events: Vec<u32>,
    /// For each of `events`, the position of its chain in `chains`; `None` for events that are
    /// in no chain.
    pub chain_of: Vec<Option<u32>>,
    /// In order of their first error.
    pub chains: Vec<Chain>,
}

impl Story {
    /// How many of the peer's chains ended with a final error.
    pub fn gave_up(&self) -> usize {
        self.chains.iter().filter(|c| c.ending.gave_up()).count()
    }
}

/// Why an event is in no chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outside {
    /// Not one of the five client error types.
    NotAnError,
    NoPeer,
    NoTime,
}

impl Outside {
    pub fn words(self) -> &'static str {
        match self {
            Outside::NotAnError => "not one of the five error types: part of no retry chain",
            Outside::NoPeer => "no peer_id: later errors cannot be linked to this one",
            Outside::NoTime => "no readable timestamp: the event cannot be placed in a chain",
        }
    }
}

/// One event's chain, and where in it the event is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainAt {
    pub chain: Chain,
    /// 0 for the chain's first error.
    pub position: usize,
}

/// The story of a peer, from every loaded event (not only the shown ones). Events without a
/// `peer_id`, or with an empty one, belong to no peer: the story of `Sym::NONE` or of `""` is
/// empty.
pub fn story(store: &Store, peer: Sym) -> Story {
    if !Named::of(store).names(peer) {
        return Story::default();
    }
    let rows = store.rows();
    let mut events = store.rows_of_peer(peer);
    // Untimed events sort last: NO_TIME is i64::MIN, so they are keyed apart.
    events.sort_by_key(|&i| {
        let ts = rows[i as usize].ts;
        (ts == NO_TIME, ts, i)
    });
    let (chains, chain_of) = fold(store, &Kinds::of(store), &events);
    Story {
        peer,
        events,
        chain_of,
        chains,
    }
}

/// Every chain of every peer, found at once: the store's errors with a peer and a time, sorted
/// by peer, action, time and load order, so that each chain is a run of `events`.
#[derive(Debug, Default)]
pub struct EveryChain {
    /// Store indices, each chain's in time order, one chain after another.
    pub events: Vec<u32>,
    /// Each chain's run of `events`.
    pub chains: Vec<std::ops::Range<u32>>,
}

/// The chains [`story`] folds for every peer, found in one sort of all the store's errors
/// rather than a story a peer: a sort and a fold each of hundreds of thousands of peers, with a
/// map and a list each, took a quarter of the outcomes' time at a million events.
pub fn every_chain(store: &Store, kinds: &Kinds) -> EveryChain {
    use rayon::prelude::*;
    let rows = store.rows();
    let named = Named::of(store);
    // Beside the sort key, what tells where a chain ends (whether an error is final, its
    // room), so that the pass over the sorted errors reads them in turn rather than each one's
    // row, far off in memory.
    // A row's place is below 2^31: a store of that many rows would need hundreds of GiB.
    const FINAL: u32 = 1 << 31;
    debug_assert!(rows.len() <= FINAL as usize);
    let mut keyed: Vec<(u64, i64, u32, u32)> = rows
        .par_iter()
        .enumerate()
        .filter(|(_, r)| named.names(r.peer_id))
        .filter(|(_, r)| r.ts != NO_TIME && kinds.is_error(r.kind))
        .map(|(i, r)| {
            let key = (u64::from(r.peer_id.0) << 32) | u64::from(chain_key(r).0);
            let room = named.named(r.room_id).map_or(u32::MAX, |s| s.0);
            let last = if r.is_terminal() == Some(true) {
                FINAL
            } else {
                0
            };
            (key, r.ts, i as u32 | last, room)
        })
        .collect();
    keyed.par_sort_unstable_by_key(|&(key, ts, i, _)| (key, ts, i & !FINAL));
    let mut chains = Vec::new();
    let mut start = 0;
    for k in 1..=keyed.len() {
        let ends = keyed.get(k).is_none_or(|&(key, ts, _, room)| {
            let (before, before_ts, b, before_room) = keyed[k - 1];
            key != before || b & FINAL != 0 || ts - before_ts > CHAIN_GAP || room != before_room
        });
        if ends {
            chains.push(start as u32..k as u32);
            start = k;
        }
    }
    EveryChain {
        events: keyed.into_iter().map(|(_, _, i, _)| i & !FINAL).collect(),
        chains,
    }
}

/// The chain of the event at `i`, or why it is in none. Reads only the errors of the same peer
/// and action, so the detail pane can ask for every selection.
pub fn chain_at(store: &Store, i: usize) -> Result<ChainAt, Outside> {
    let rows = store.rows();
    let row = &rows[i];
    let kinds = Kinds::of(store);
    if !kinds.is_error(row.kind) {
        return Err(Outside::NotAnError);
    }
    if !Named::of(store).names(row.peer_id) {
        return Err(Outside::NoPeer);
    }
    if row.ts == NO_TIME {
        return Err(Outside::NoTime);
    }
    let key = chain_key(row);
    let mut events = store.rows_of_peer(row.peer_id);
    events.retain(|&j| {
        let r = &rows[j as usize];
        chain_key(r) == key && r.ts != NO_TIME
    });
    events.sort_by_key(|&j| (rows[j as usize].ts, j));
    let (mut chains, chain_of) = fold(store, &kinds, &events);
    let at = events.iter().position(|&j| j as usize == i).unwrap_or(0);
    let c = chain_of[at].unwrap_or(0) as usize;
    let chain = chains.swap_remove(c);
    let position = chain
        .events
        .iter()
        .position(|&j| j as usize == i)
        .unwrap_or(0);
    Ok(ChainAt { chain, position })
}

/// What errors must share to be in one chain: the action, or the type when the action is absent.
fn chain_key(row: &Row) -> Sym {
    if row.action.is_none() {
        row.kind
    } else {
        row.action
    }
}

/// Folds time-ordered events into chains; returns them and, per event, its chain.
fn fold(store: &Store, kinds: &Kinds, events: &[u32]) -> (Vec<Chain>, Vec<Option<u32>>) {
    let rows = store.rows();
    let named = Named::of(store);
    let mut chains: Vec<Chain> = Vec::new();
    // For each chain, the time of the next error of its action, and, when that came within
    // the gap in another room (or naming none), where it was.
    let mut next_of: Vec<Option<(i64, Option<Elsewhere>)>> = Vec::new();
    let mut open: FxHashMap<Sym, usize> = FxHashMap::default();
    let mut chain_of = Vec::with_capacity(events.len());
    for &i in events {
        let row = &rows[i as usize];
        if row.ts == NO_TIME || !kinds.is_error(row.kind) {
            chain_of.push(None);
            continue;
        }
        let key = chain_key(row);
        let current = open.get(&key).copied().filter(|&c| {
            let chain = &chains[c];
            let last = &rows[*chain.events.last().unwrap_or(&i) as usize];
            last.is_terminal() != Some(true)
                && row.ts - chain.last <= CHAIN_GAP
                && named.named(last.room_id) == named.named(row.room_id)
        });
        let c = match current {
            Some(c) => c,
            None => {
                if let Some(&before) = open.get(&key) {
                    let chain = &chains[before];
                    let last = &rows[*chain.events.last().unwrap_or(&i) as usize];
                    let (here, there) = (named.named(last.room_id), named.named(row.room_id));
                    let moved = (here != there && row.ts - chain.last <= CHAIN_GAP)
                        .then(|| Elsewhere::of(here, there));
                    next_of[before] = Some((row.ts, moved));
                }
                chains.push(Chain {
                    action: row.action,
                    kind: row.kind,
                    events: Vec::new(),
                    first: row.ts,
                    last: row.ts,
                    ending: Ending::NoLaterError,
                });
                next_of.push(None);
                open.insert(key, chains.len() - 1);
                chains.len() - 1
            }
        };
        chains[c].events.push(i);
        chains[c].last = row.ts;
        chain_of.push(Some(c as u32));
    }
    for (chain, next) in chains.iter_mut().zip(next_of) {
        let last = &rows[*chain.events.last().unwrap_or(&0) as usize];
        chain.ending = match next {
            _ if last.is_terminal() == Some(true) => Ending::GaveUp {
                at: chain.last,
                next: next.map(|(at, _)| at),
            },
            Some((next, Some(to))) => Ending::Moved { next, to },
            Some((next, None)) => Ending::Quiet { next },
            None => Ending::NoLaterError,
        };
    }
    (chains, chain_of)
}

/// `0s`, `920ms`, `43s`, `1m 43s`, `2h 05m`, `3d 4h`.
pub fn duration_words(ns: i64) -> String {
    let secs = ns.max(0) / S;
    match secs {
        // Retries a fraction of a second apart: "over 0s" would read as no time at all.
        0 if ns >= 1_000_000 => format!("{}ms", ns / 1_000_000),
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m {:02}s", secs / 60, secs % 60),
        3600..86_400 => format!("{}h {:02}m", secs / 3600, secs % 3600 / 60),
        _ => format!("{}d {}h", secs / 86_400, secs % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::testing::{SEC, T0, demo, ev, store};

    const PRIYA: &str = "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863";
    const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";

    fn peer(s: &Store, id: &str) -> Sym {
        s.strings().lookup(id).unwrap()
    }

    fn endings(story: &Story) -> Vec<String> {
        story
            .chains
            .iter()
            .map(|c| c.ending.words(Zone::Utc))
            .collect()
    }

    #[test]
    fn a_final_error_ends_a_chain_and_the_next_error_starts_another() {
        let s = store(&[
            ev(1, 0, "join", "p", false),
            ev(2, 2, "join", "p", false),
            ev(3, 6, "join", "p", true),
            ev(4, 60, "join", "p", false),
        ]);
        let st = story(&s, peer(&s, "p"));
        assert_eq!(st.events, [0, 1, 2, 3]);
        assert_eq!(st.chain_of, [Some(0), Some(0), Some(0), Some(1)]);
        assert_eq!(st.chains[0].attempts(), 3);
        assert_eq!(st.chains[0].duration(), 6 * SEC);
        assert_eq!(
            st.chains[0].ending,
            Ending::GaveUp {
                at: T0 + 6 * SEC,
                next: Some(T0 + 60 * SEC)
            }
        );
        assert_eq!(
            endings(&st),
            [
                "gave up: final error at 11:00:06; a new chain for this action began at 11:01:00",
                "no later error for this action among the loaded events"
            ]
        );
        assert_eq!(
            st.chains[0].summary(&s, Zone::Utc),
            "JOIN: 3 failed attempts over 6s; gave up: final error at 11:00:06; a new chain for this action began at 11:01:00"
        );
        assert_eq!(st.gave_up(), 1);
    }

    #[test]
    fn actions_make_separate_chains_that_interleave() {
        let s = store(&[
            ev(1, 0, "publish", "p", false),
            ev(2, 1, "subscribe", "p", false),
            ev(3, 2, "publish", "p", true),
            ev(4, 3, "subscribe", "p", false),
        ]);
        let st = story(&s, peer(&s, "p"));
        assert_eq!(st.chains.len(), 2);
        assert_eq!(st.chains[0].events, [0, 2]);
        assert_eq!(st.chains[1].events, [1, 3]);
        assert_eq!(st.chains[0].action_name(&s), "PUBLISH");
        assert!(st.chains[0].ending.gave_up());
        assert_eq!(st.chains[1].ending, Ending::NoLaterError);
    }

    #[test]
    fn a_long_quiet_spell_splits_a_chain() {
        let gap = CHAIN_GAP / SEC;
        let s = store(&[
            ev(1, 0, "join", "p", false),
            ev(2, gap, "join", "p", false),
            ev(3, 2 * gap + 1, "join", "p", false),
        ]);
        let st = story(&s, peer(&s, "p"));
        assert_eq!(st.chains.len(), 2);
        assert_eq!(st.chains[0].events, [0, 1]);
        assert_eq!(
            st.chains[0].ending,
            Ending::Quiet {
                next: T0 + (2 * gap + 1) * SEC
            }
        );
        assert_eq!(
            st.chains[0].ending.words(Zone::Utc),
            "no later error for this action within 10 min; the next one, at 11:20:01, starts a new chain"
        );
    }

    #[test]
    fn the_story_is_in_time_order_and_keeps_events_outside_chains() {
        let mut untimed = ev(1, 0, "join", "p", false);
        untimed.as_object_mut().unwrap().remove("timestamp");
        let mut track = ev(2, 5, "join", "p", false);
        track["type"] = json!("track.add.success");
        let mut no_action = ev(5, 3, "join", "p", false);
        no_action["data"].as_object_mut().unwrap().remove("action");
        let s = store(&[
            untimed,
            track,
            ev(3, 9, "join", "p", false),
            ev(4, 1, "join", "p", false),
            no_action,
            ev(6, 0, "join", "other", false),
        ]);
        let st = story(&s, peer(&s, "p"));
        assert_eq!(st.events, [3, 4, 1, 2, 0]);
        assert_eq!(st.chain_of, [Some(0), Some(1), None, Some(0), None]);
        assert_eq!(st.chains[1].action_name(&s), "client.join.failed");
        assert_eq!(story(&s, Sym::NONE), Story::default());
        assert_eq!(chain_at(&s, 0), Err(Outside::NoTime));
        assert_eq!(chain_at(&s, 1), Err(Outside::NotAnError));
    }

    #[test]
    fn an_event_knows_its_place_in_its_chain() {
        let s = store(&[
            ev(1, 0, "join", "p", false),
            ev(2, 4, "join", "p", false),
            ev(3, 4, "join", "p", false),
            ev(4, 9, "join", "p", true),
            ev(5, 20, "join", "p", false),
        ]);
        let at = chain_at(&s, 2).unwrap();
        assert_eq!((at.position, at.chain.attempts()), (2, 4));
        let at = chain_at(&s, 4).unwrap();
        assert_eq!((at.position, at.chain.attempts()), (0, 1));
        let mut lone = ev(9, 0, "join", "p", false);
        lone["data"].as_object_mut().unwrap().remove("peer_id");
        assert_eq!(chain_at(&store(&[lone]), 0), Err(Outside::NoPeer));
    }

    #[test]
    fn priya_retries_publishing_ten_times_then_gives_up() {
        let s = demo();
        let st = story(&s, peer(&s, PRIYA));
        assert_eq!(st.chains.len(), 1, "{st:?}");
        let chain = &st.chains[0];
        assert_eq!(chain.attempts(), 10);
        assert_eq!(chain.action_name(&s), "PUBLISH");
        assert!(chain.ending.gave_up());
        assert!(
            chain
                .ending
                .words(Zone::Utc)
                .starts_with("gave up: final error at 11:42:"),
            "{chain:?}"
        );
        assert!(
            chain
                .summary(&s, Zone::Utc)
                .starts_with("PUBLISH: 10 failed attempts over 1m ")
        );
        for (k, &i) in chain.events.iter().enumerate() {
            let at = chain_at(&s, i as usize).unwrap();
            assert_eq!((at.position, &at.chain), (k, chain));
        }
    }

    #[test]
    fn a_storm_peer_that_retried_then_went_quiet_is_not_said_to_have_got_through() {
        let s = demo();
        let room = s.strings().lookup(STORM_ROOM).unwrap();
        let mut quiet = 0;
        let mut peers: Vec<Sym> = s
            .rows()
            .iter()
            .filter(|r| r.room_id == room)
            .map(|r| r.peer_id)
            .collect();
        peers.sort();
        peers.dedup();
        for p in peers {
            let st = story(&s, p);
            for chain in &st.chains {
                if chain.attempts() >= 2 && chain.ending == Ending::NoLaterError {
                    quiet += 1;
                    assert_eq!(
                        chain.ending.words(Zone::Utc),
                        "no later error for this action among the loaded events"
                    );
                    let last = s.row(*chain.events.last().unwrap() as usize);
                    assert_eq!(last.is_terminal(), Some(false));
                }
            }
        }
        assert!(quiet > 10, "{quiet}");
    }

    #[test]
    fn no_story_of_the_demo_claims_a_success() {
        let s = demo();
        let mut peers: Vec<Sym> = s.rows().iter().map(|r| r.peer_id).collect();
        peers.sort();
        peers.dedup();
        let mut chained = 0;
        for p in peers {
            let st = story(&s, p);
            for (k, chain) in st.chains.iter().enumerate() {
                let words = chain.summary(&s, Zone::Utc).to_lowercase();
                for claim in ["succe", "recover", "got through", "connected", "resolved"] {
                    assert!(!words.contains(claim), "{words}");
                }
                // Only the last error of a chain may be final.
                let finals: Vec<bool> = chain
                    .events
                    .iter()
                    .map(|&i| s.row(i as usize).is_terminal() == Some(true))
                    .collect();
                assert!(!finals[..finals.len() - 1].contains(&true), "{chain:?}");
                assert_eq!(chain.ending.gave_up(), finals[finals.len() - 1]);
                chained += chain.attempts();
                assert!(
                    st.chain_of.iter().filter(|&&c| c == Some(k as u32)).count()
                        == chain.attempts()
                );
            }
        }
        let kinds = Kinds::of(&s);
        let errors = s
            .rows()
            .iter()
            .filter(|r| kinds.is_error(r.kind) && !r.peer_id.is_none())
            .count();
        assert_eq!(chained, errors);
    }

    #[test]
    fn an_error_in_another_room_starts_a_new_chain_and_the_first_says_why_it_ended() {
        let mut elsewhere = ev(2, 30, "join", "p", false);
        elsewhere["data"]["room_id"] = "room-2".into();
        let s = store(&[ev(1, 0, "join", "p", false), elsewhere]);
        let st = story(&s, peer(&s, "p"));
        assert_eq!(st.chains.len(), 2);
        assert_eq!(
            st.chains[0].ending,
            Ending::Moved {
                next: T0 + 30 * SEC,
                to: Elsewhere::Other
            }
        );
        assert_eq!(
            endings(&st)[0],
            "no later error for this action in this room; the next one, at 11:00:30, is in \
             another room and starts a new chain"
        );
        let every = every_chain(&s, &Kinds::of(&s));
        assert_eq!(every.chains, vec![0..1, 1..2]);
    }

    /// An error naming no room after errors naming one (or the other way round) starts a new
    /// chain, which is said as what it is rather than as "another room"; an empty `room_id`
    /// is no room, so it stays in a chain with errors that carry none.
    #[test]
    fn an_error_naming_no_room_starts_a_new_chain_said_as_naming_no_room() {
        let mut roomless = ev(2, 30, "join", "p", false);
        roomless["data"].as_object_mut().unwrap().remove("room_id");
        let mut blank = ev(3, 40, "join", "p", false);
        blank["data"]["room_id"] = "".into();
        let s = store(&[
            ev(1, 0, "join", "p", false),
            roomless,
            blank,
            ev(4, 50, "join", "p", false),
        ]);
        let st = story(&s, peer(&s, "p"));
        assert_eq!(st.chain_of, [Some(0), Some(1), Some(1), Some(2)]);
        assert_eq!(
            endings(&st)[..2],
            [
                "no later error for this action in this room; the next one, at 11:00:30, names \
                 no room and starts a new chain",
                "no later error for this action naming no room; the next one, at 11:00:50, names \
                 a room and starts a new chain"
            ]
        );
        assert_eq!(
            every_chain(&s, &Kinds::of(&s)).chains,
            vec![0..1, 1..3, 3..4]
        );
    }

    #[test]
    fn events_with_an_empty_peer_id_are_linked_to_no_one() {
        let s = store(&[ev(1, 0, "join", "", false), ev(2, 60, "join", "", true)]);
        assert!(story(&s, peer(&s, "")).chains.is_empty());
        assert_eq!(chain_at(&s, 0), Err(Outside::NoPeer));
        assert!(every_chain(&s, &Kinds::of(&s)).chains.is_empty());
    }

    /// The chains found at once are those told a peer at a time, on the demo and on events
    /// with equal times, final errors, long gaps, untimed events and events of no peer.
    #[test]
    fn every_chain_at_once_is_every_peers_story_told_alone() {
        let mut untimed = ev(9, 3, "join", "p", false);
        untimed["timestamp"] = "not a time".into();
        let mut no_peer = ev(10, 4, "join", "p", false);
        no_peer["data"].as_object_mut().unwrap().remove("peer_id");
        let mut elsewhere = ev(11, 5, "join", "p", false);
        elsewhere["data"]["room_id"] = "room-2".into();
        let mut roomless = ev(12, 7, "join", "p", false);
        roomless["data"].as_object_mut().unwrap().remove("room_id");
        let mut blank_room = ev(13, 8, "join", "p", false);
        blank_room["data"]["room_id"] = "".into();
        let edges = store(&[
            untimed,
            no_peer,
            elsewhere,
            roomless,
            blank_room,
            ev(1, 0, "join", "p", false),
            ev(2, 0, "join", "p", false),
            ev(3, 6, "join", "p", true),
            ev(4, 6, "join", "p", false),
            ev(5, 6 + 601, "join", "p", false),
            ev(6, 6 + 601, "publish", "p", false),
            ev(7, 9, "join", "q", false),
            ev(8, 9, "join", "", false),
        ]);
        for s in [demo(), edges] {
            let kinds = Kinds::of(&s);
            let mut one_by_one: Vec<Vec<u32>> = Vec::new();
            let mut peers: Vec<Sym> = s.rows().iter().map(|r| r.peer_id).collect();
            peers.sort();
            peers.dedup();
            for p in peers {
                one_by_one.extend(story(&s, p).chains.into_iter().map(|c| c.events));
            }
            let every = every_chain(&s, &kinds);
            let mut at_once: Vec<Vec<u32>> = every
                .chains
                .iter()
                .map(|r| every.events[r.start as usize..r.end as usize].to_vec())
                .collect();
            assert!(one_by_one.len() > 3, "{}", one_by_one.len());
            one_by_one.sort();
            at_once.sort();
            assert_eq!(at_once, one_by_one);
        }
    }

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration_words(0), "0s");
        assert_eq!(duration_words(920_400_000), "920ms");
        assert_eq!(duration_words(43 * S), "43s");
        assert_eq!(duration_words(103 * S), "1m 43s");
        assert_eq!(duration_words(2 * 3600 * S + 5 * 60 * S), "2h 05m");
        assert_eq!(duration_words(3 * 86_400 * S + 4 * 3600 * S), "3d 4h");
    }
}
