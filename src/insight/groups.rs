//! The shown events grouped by a key (error, SDK, OS, device, role, room, domain, env, peer).

use super::keys::{Index, compare_values, label_of, parts_of, rank};
use super::{GroupValue, Part};
use crate::cli::{GroupKey, GroupSort};
use crate::store::{NO_TIME, Store, Sym, TERMINAL_TRUE};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub value: GroupValue,
    /// The room's name (room) or the user's name (peer): the first one met among the group's
    /// events; `Sym::NONE` for the other keys.
    pub display: Sym,
    pub count: u32,
    /// How many have `is_terminal` true.
    pub finals: u32,
    /// Distinct `peer_id`s and `room_id`s; events without one add nothing.
    pub peers: u32,
    pub rooms: u32,
    /// Nanoseconds; `None` when no event of the group has a time.
    pub first_seen: Option<i64>,
    pub last_seen: Option<i64>,
    /// Where the group's events are in [`Groups::members`].
    start: u32,
    /// See [`rank`].
    rank: u64,
}

impl Group {
    fn new(value: GroupValue) -> Group {
        Group {
            value,
            display: Sym::NONE,
            count: 0,
            finals: 0,
            peers: 0,
            rooms: 0,
            first_seen: None,
            last_seen: None,
            start: 0,
            rank: 0,
        }
    }

    /// The share of final errors, 0.0 to 1.0.
    pub fn final_share(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            f64::from(self.finals) / f64::from(self.count)
        }
    }

    /// The key's fields, in [`GroupKey::fields`] order.
    pub fn parts<'a>(&self, store: &'a Store, key: GroupKey) -> Vec<Part<'a>> {
        parts_of(store, key, &self.value, self.display)
    }

    /// One line naming the group for people, e.g. `join 500 ServerErrors`, `web 0.11.4`,
    /// `Priya Raman (3f6b2a9e-…)`; `(none)` when every field is absent.
    pub fn label(&self, store: &Store, key: GroupKey) -> String {
        label_of(key, &self.parts(store, key))
    }
}

/// The groups of the shown events under one key, sorted.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    /// `None` only for `Groups::default()`, the groups of nothing.
    pub key: Option<GroupKey>,
    /// In the order of the last sort. To be read, and reordered only by [`Groups::sort`]: the
    /// sparklines kept are by position.
    pub groups: Vec<Group>,
    /// The earliest and latest time among the shown events: the span of every sparkline (to be
    /// read only, as the sparklines kept were counted over it).
    pub span: Option<(i64, i64)>,
    /// The shown indices, group after group, each group's in load order.
    members: Vec<u32>,
    /// What the counts need of each entry of `members`.
    facts: Vec<Fact>,
    /// The sparklines of large groups, once drawn (see [`Groups::sparkline`]).
    sparklines: Sparklines,
}

/// Below this many events a group's sparkline is counted again at each frame; from it on, it is
/// counted once and kept: a frame of the groups view draws a sparkline for each group it shows,
/// and for a million shown events in a few large groups, counting them all took 5 ms a frame.
const KEPT_SPARKLINE_FROM: u32 = 1024;

/// Sparklines by group and number of buckets. At most one per `KEPT_SPARKLINE_FROM` shown events
/// and bucket count is kept; a copy of the groups starts without them.
#[derive(Debug, Default)]
struct Sparklines(std::sync::Mutex<rustc_hash::FxHashMap<(usize, usize), Vec<u32>>>);

impl Clone for Sparklines {
    fn clone(&self) -> Sparklines {
        Sparklines::default()
    }
}

/// One event's time, peer and room, side by side so that filling them in group order writes one
/// place per event.
#[derive(Debug, Clone, Copy)]
struct Fact {
    ts: i64,
    peer: Sym,
    room: Sym,
}

impl Default for Fact {
    fn default() -> Fact {
        Fact {
            ts: NO_TIME,
            peer: Sym::NONE,
            room: Sym::NONE,
        }
    }
}

impl Groups {
    /// Groups the shown events (store indices, in load order) under `key`. Linear in the
    /// number of shown events, plus a sort of the groups.
    pub fn compute(store: &Store, shown: &[u32], key: GroupKey, sort: GroupSort) -> Groups {
        Groups::recompute(Groups::default(), store, shown, key, sort)
    }

    /// As [`Groups::compute`], in the memory of `old`, the grouping this one replaces: for a
    /// million shown events its lists are tens of megabytes, and memory fresh from the system
    /// costs a page fault for each of its pages.
    pub fn recompute(
        old: Groups,
        store: &Store,
        shown: &[u32],
        key: GroupKey,
        sort: GroupSort,
    ) -> Groups {
        let Groups {
            groups: old_groups,
            members,
            facts,
            ..
        } = old;
        let rows = store.rows();
        let symbols = store.strings().len();
        let mut index = Index::new(key, symbols);
        let mut acc = Accumulators::default();
        // What the later passes need of each shown event, compact and in load order: they read
        // these instead of the wide rows a second time.
        let mut gids: Vec<u32> = Vec::with_capacity(shown.len());
        let mut stamps: Vec<i64> = Vec::with_capacity(shown.len());
        let mut who: Vec<(Sym, Sym)> = Vec::with_capacity(shown.len());
        for &i in shown {
            let row = &rows[i as usize];
            let value = key.value_of(row);
            let g = index.get_or_insert(value, acc.sums.len() as u32);
            if g as usize == acc.sums.len() {
                acc.push(value);
            }
            let sums = &mut acc.sums[g as usize];
            sums.count += 1;
            sums.finals += u32::from(row.terminal == TERMINAL_TRUE);
            if sums.display.is_none() {
                sums.display = key.display_of(row);
            }
            gids.push(g);
            stamps.push(row.ts);
            who.push((row.peer_id, row.room_id));
        }
        drop(index);
        let mut groups = acc.finish_into(old_groups);

        // A counting sort by group keeps each group's events in load order.
        let mut next = 0u32;
        for group in &mut groups {
            group.start = next;
            next += group.count;
        }
        let mut fill: Vec<u32> = groups.iter().map(|g| g.start).collect();
        let mut members = reused(members, shown.len());
        members.resize(shown.len(), 0);
        let mut facts = reused(facts, shown.len());
        facts.resize(shown.len(), Fact::default());
        for (k, (&g, &i)) in gids.iter().zip(shown).enumerate() {
            let at = fill[g as usize] as usize;
            fill[g as usize] += 1;
            members[at] = i;
            facts[at] = Fact {
                ts: stamps[k],
                peer: who[k].0,
                room: who[k].1,
            };
        }
        drop((gids, stamps, who));

        // Distinct counts: with the events in group order, a symbol was already counted for this
        // group exactly when its mark holds this group's number (plus one: zero is no group, so
        // that the marks start as untouched zeroed pages). The times are read here too, in
        // order, rather than per event in the first pass, where a million groups would make
        // every event a cache miss.
        let mut peer_mark = vec![0u32; symbols];
        let mut room_mark = vec![0u32; symbols];
        for (g, group) in groups.iter_mut().enumerate() {
            let g = g as u32 + 1;
            let range = group.start as usize..(group.start + group.count) as usize;
            let (mut first, mut last) = (i64::MAX, NO_TIME);
            for &Fact { ts, peer, room } in &facts[range] {
                // NO_TIME is i64::MIN: it never raises a maximum, and is kept out of the minimum.
                last = last.max(ts);
                if ts != NO_TIME {
                    first = first.min(ts);
                }
                if !peer.is_none() && peer_mark[peer.0 as usize] != g {
                    peer_mark[peer.0 as usize] = g;
                    group.peers += 1;
                }
                if !room.is_none() && room_mark[room.0 as usize] != g {
                    room_mark[room.0 as usize] = g;
                    group.rooms += 1;
                }
            }
            if last != NO_TIME {
                group.first_seen = Some(first);
                group.last_seen = Some(last);
            }
        }

        let span = groups
            .iter()
            .filter_map(|g| g.first_seen.zip(g.last_seen))
            .reduce(|(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
        for group in &mut groups {
            group.rank = rank(store, group.value.first);
        }
        let mut out = Groups {
            key: Some(key),
            groups,
            span,
            members,
            facts,
            sparklines: Sparklines::default(),
        };
        out.sort(store, sort);
        out
    }

    pub fn len(&self) -> usize {
        self.groups.len()
    }

    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Sorts by count (largest first) or by last seen (latest first; groups without a time
    /// last); ties by the key's strings, so the order does not depend on load order.
    pub fn sort(&mut self, store: &Store, sort: GroupSort) {
        // The kept sparklines are by position.
        self.sparklines = Sparklines::default();
        // Sorting packed integer keys, then moving each group once, is far cheaper than sorting
        // the groups themselves when there are hundreds of thousands (one per peer). Each key
        // is (latest first, or 0) then (largest count first, rank, position).
        let mut order: Vec<(u64, u128)> = self
            .groups
            .iter()
            .enumerate()
            .map(|(k, g)| {
                let latest = match sort {
                    GroupSort::Count => 0,
                    // Latest first, and a group without a time after every other.
                    GroupSort::Last => g.last_seen.map_or(u64::MAX, |t| !((t as u64) ^ (1 << 63))),
                };
                let rest = (u128::from(!g.count) << 96) | (u128::from(g.rank) << 32) | k as u128;
                (latest, rest)
            })
            .collect();
        order.sort_unstable();
        // Equal ranks only say that the first eight bytes agree: read the strings there.
        let tied = |a: &(u64, u128), b: &(u64, u128)| a.0 == b.0 && a.1 >> 32 == b.1 >> 32;
        let mut start = 0;
        while start < order.len() {
            let end = start
                + order[start..]
                    .iter()
                    .take_while(|o| tied(o, &order[start]))
                    .count();
            if end - start > 1 {
                let groups = &self.groups;
                let value = |o: &(u64, u128)| &groups[o.1 as u32 as usize].value;
                order[start..end].sort_unstable_by(|a, b| {
                    compare_values(store, value(a), value(b)).then(a.1.cmp(&b.1))
                });
            }
            start = end;
        }
        let mut from: Vec<u32> = order.iter().map(|o| o.1 as u32).collect();
        drop(order);
        permute(&mut self.groups, &mut from);
    }

    /// The shown indices of group `g` (a position in `groups`), in load order: what the list
    /// narrows to when a group is chosen.
    pub fn members(&self, g: usize) -> &[u32] {
        let group = &self.groups[g];
        &self.members[group.start as usize..(group.start + group.count) as usize]
    }

    /// The events of group `g` counted over `buckets` equal slices of [`Groups::span`]; events
    /// without a time are left out. Empty when `buckets` is 0 or no shown event has a time.
    pub fn sparkline(&self, g: usize, buckets: usize) -> Vec<u32> {
        if self.groups[g].count < KEPT_SPARKLINE_FROM {
            return self.count_sparkline(g, buckets);
        }
        let mut kept = self.sparklines.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.entry((g, buckets))
            .or_insert_with(|| self.count_sparkline(g, buckets))
            .clone()
    }

    fn count_sparkline(&self, g: usize, buckets: usize) -> Vec<u32> {
        let Some((lo, hi)) = self.span.filter(|_| buckets > 0) else {
            return Vec::new();
        };
        let mut counts = vec![0u32; buckets];
        let group = &self.groups[g];
        let width = i128::from(hi) - i128::from(lo) + 1;
        for fact in &self.facts[group.start as usize..(group.start + group.count) as usize] {
            let t = fact.ts;
            if t != NO_TIME {
                let b = (i128::from(t) - i128::from(lo)) * buckets as i128 / width;
                counts[b as usize] += 1;
            }
        }
        counts
    }

    /// The position in `groups` of the group with this value.
    pub fn position(&self, value: &GroupValue) -> Option<usize> {
        self.groups.iter().position(|g| g.value == *value)
    }
}

/// `items` emptied, to hold `len` items. A list that can hold more than about twice as many is
/// let go instead, so that a grouping of a few events does not keep the memory of a grouping of
/// a million.
fn reused<T>(mut items: Vec<T>, len: usize) -> Vec<T> {
    if items.capacity() / 2 > len {
        return Vec::new();
    }
    items.clear();
    items
}

/// Reorders `items` so that `items[j]` becomes what was at `from[j]`, in place (a copy of
/// hundreds of thousands of groups would cost more than the sort). `from` is used up.
fn permute<T>(items: &mut [T], from: &mut [u32]) {
    const DONE: u32 = u32::MAX;
    for i in 0..items.len() {
        if from[i] == DONE {
            continue;
        }
        // Walk the cycle through i: each swap puts one item in its place.
        let mut j = i;
        loop {
            let k = from[j] as usize;
            from[j] = DONE;
            if k == i {
                break;
            }
            items.swap(j, k);
            j = k;
        }
    }
}

/// The sums of [`Groups::compute`]'s first pass: one small record per group, so that they stay
/// in cache even when there are a million groups.
#[derive(Default)]
struct Accumulators {
    value: Vec<GroupValue>,
    sums: Vec<Sums>,
}

#[derive(Clone, Copy)]
struct Sums {
    count: u32,
    finals: u32,
    display: Sym,
}

impl Accumulators {
    fn push(&mut self, value: GroupValue) {
        self.value.push(value);
        self.sums.push(Sums {
            count: 0,
            finals: 0,
            display: Sym::NONE,
        });
    }

    /// The groups, in the memory of `groups` (a list of groups no longer needed).
    fn finish_into(self, groups: Vec<Group>) -> Vec<Group> {
        let mut groups = reused(groups, self.value.len());
        groups.extend(
            self.value
                .into_iter()
                .zip(self.sums)
                .map(|(value, s)| Group {
                    display: s.display,
                    count: s.count,
                    finals: s.finals,
                    ..Group::new(value)
                }),
        );
        groups
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::testing::{SEC, T0, all, demo, ev, store};

    fn with(mut e: serde_json::Value, f: impl FnOnce(&mut serde_json::Value)) -> serde_json::Value {
        f(&mut e["data"]);
        e
    }

    #[test]
    fn errors_are_grouped_by_type_code_and_name_with_their_counts() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 10, "join", "p1", true),
            ev(3, 20, "join", "p2", false),
            with(ev(4, 30, "join", "p3", false), |d| {
                d["room_id"] = json!("room-2")
            }),
            with(ev(5, 5, "publish", "p1", false), |d| {
                d["error_code"] = json!(4006);
                d["error_name"] = json!("ICEDisconnected");
            }),
        ];
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert_eq!(g.len(), 2);
        let join = &g.groups[0];
        assert_eq!(join.label(&s, GroupKey::Error), "join 500 ServerErrors");
        assert_eq!(
            (join.count, join.finals, join.peers, join.rooms),
            (4, 1, 3, 2)
        );
        assert_eq!(join.first_seen, Some(T0));
        assert_eq!(join.last_seen, Some(T0 + 30 * SEC));
        assert_eq!(join.final_share(), 0.25);
        assert_eq!(g.members(0), [0, 1, 2, 3]);
        assert_eq!(g.members(1), [4]);
        assert_eq!(
            g.groups[1].parts(&s, GroupKey::Error),
            [
                Part::Text("client.publish.failed"),
                Part::Code(4006),
                Part::Text("ICEDisconnected")
            ]
        );
        assert_eq!(g.span, Some((T0, T0 + 30 * SEC)));
    }

    #[test]
    fn only_the_shown_events_are_grouped() {
        let s = store(&[ev(1, 0, "join", "p1", false), ev(2, 1, "join", "p2", true)]);
        let g = Groups::compute(&s, &[1], GroupKey::Error, GroupSort::Count);
        assert_eq!(
            (g.groups[0].count, g.groups[0].finals, g.groups[0].peers),
            (1, 1, 1)
        );
        let none = Groups::compute(&s, &[], GroupKey::Error, GroupSort::Count);
        assert!(none.is_empty() && none.span.is_none());
    }

    #[test]
    fn absent_fields_make_a_group_of_their_own_and_count_no_peer() {
        let events = vec![
            with(ev(1, 0, "join", "p1", false), |d| {
                d.as_object_mut().unwrap().remove("peer_id");
                d.as_object_mut().unwrap().remove("room_id");
            }),
            with(ev(2, 0, "join", "p1", false), |d| d["role"] = json!("host")),
        ];
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Role, GroupSort::Count);
        assert_eq!(g.len(), 2);
        let absent = &g.groups[g.position(&GroupKey::Role.value_of(s.row(0))).unwrap()];
        assert_eq!(absent.label(&s, GroupKey::Role), "(none)");
        assert_eq!(absent.parts(&s, GroupKey::Role), [Part::Absent]);
        assert_eq!((absent.peers, absent.rooms), (0, 0));
        // Equal counts: a present value sorts before the absent one.
        assert_eq!(g.groups[0].label(&s, GroupKey::Role), "host");
    }

    #[test]
    fn rooms_and_peers_are_named_by_their_first_name_met() {
        let events = vec![
            with(ev(1, 0, "join", "p1", false), |d| {
                d["user_name"] = json!("Ada")
            }),
            with(ev(2, 0, "join", "p1", false), |d| {
                d["user_name"] = json!("Ada L");
                d["room_name"] = json!("standup");
            }),
        ];
        let s = store(&events);
        let peers = Groups::compute(&s, &all(&s), GroupKey::Peer, GroupSort::Count);
        assert_eq!(peers.groups[0].label(&s, GroupKey::Peer), "Ada (p1)");
        let rooms = Groups::compute(&s, &all(&s), GroupKey::Room, GroupSort::Count);
        assert_eq!(
            rooms.groups[0].parts(&s, GroupKey::Room),
            [Part::Text("room-1"), Part::Text("standup")]
        );
        assert_eq!(rooms.groups[0].count, 2);
    }

    #[test]
    fn sorting_by_last_seen_puts_the_latest_group_first() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 1, "join", "p1", false),
            ev(3, 50, "connect", "p2", false),
        ];
        let s = store(&events);
        let mut g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert_eq!(g.groups[0].count, 2);
        g.sort(&s, GroupSort::Last);
        assert_eq!(g.groups[0].count, 1);
        assert_eq!(g.groups[0].last_seen, Some(T0 + 50 * SEC));
        // Members follow their group through a sort.
        assert_eq!(g.members(0), [2]);
    }

    #[test]
    fn a_group_without_a_time_is_the_least_recent() {
        let untimed = |n| {
            let mut e = ev(n, 0, "publish", "p1", false);
            e.as_object_mut().unwrap().remove("timestamp");
            e
        };
        let s = store(&[
            untimed(1),
            untimed(4),
            ev(2, -5, "join", "p1", false),
            ev(3, 9, "connect", "p1", false),
        ]);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Last);
        let order: Vec<(u32, Option<i64>)> =
            g.groups.iter().map(|g| (g.count, g.last_seen)).collect();
        assert_eq!(
            order,
            [(1, Some(T0 + 9 * SEC)), (1, Some(T0 - 5 * SEC)), (2, None)]
        );
        assert_eq!(g.groups[2].first_seen, None);
        assert_eq!(g.sparkline(2, 3), [0, 0, 0]);
        assert_eq!(g.span, Some((T0 - 5 * SEC, T0 + 9 * SEC)));
    }

    #[test]
    fn sparklines_span_every_shown_event() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 1, "join", "p1", false),
            ev(3, 99, "join", "p1", false),
            ev(4, 100, "connect", "p2", false),
        ];
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert_eq!(g.sparkline(0, 4), [2, 0, 0, 1]);
        assert_eq!(g.sparkline(1, 4), [0, 0, 0, 1]);
        assert_eq!(g.sparkline(0, 1), [3]);
        assert!(g.sparkline(0, 0).is_empty());
        let total: u32 = g.sparkline(0, 7).iter().sum();
        assert_eq!(total, 3);
    }

    #[test]
    fn every_key_groups_the_demo_without_losing_an_event() {
        let s = demo();
        let shown = all(&s);
        for key in GroupKey::ALL {
            let g = Groups::compute(&s, &shown, key, GroupSort::Count);
            let total: u32 = g.groups.iter().map(|g| g.count).sum();
            assert_eq!(total as usize, s.len(), "{key:?}");
            assert!(
                g.groups.windows(2).all(|w| w[0].count >= w[1].count),
                "{key:?}"
            );
            for (k, group) in g.groups.iter().enumerate() {
                assert!(
                    g.members(k)
                        .iter()
                        .all(|&i| group.value.matches(key, s.row(i as usize)))
                );
            }
            // Ties are in the order of the keys' strings.
            for w in g.groups.windows(2) {
                if w[0].count == w[1].count {
                    assert!(
                        compare_values(&s, &w[0].value, &w[1].value).is_le(),
                        "{key:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_sparkline_of_a_large_group_is_its_own_after_the_groups_are_sorted_again() {
        // Joins early and many, publishes late and more recent: each order puts the other first.
        let big = KEPT_SPARKLINE_FROM as usize + 100;
        let events: Vec<_> = (0..big + 10)
            .map(|n| ev(n as u32, n as i64, "join", "p1", false))
            .chain((0..big).map(|n| {
                ev(
                    (2 * big + n) as u32,
                    (3 * big + n) as i64,
                    "publish",
                    "p2",
                    false,
                )
            }))
            .collect();
        let s = store(&events);
        let mut g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert!(g.groups.iter().all(|g| g.count >= KEPT_SPARKLINE_FROM));
        let kept = |g: &Groups| g.sparklines.0.lock().unwrap().len();
        let first = g.sparkline(0, 8);
        assert_eq!(first.iter().sum::<u32>(), g.groups[0].count);
        assert_eq!(kept(&g), 1);
        assert_eq!(g.sparkline(0, 8), first, "kept");
        assert_eq!(kept(&g), 1);
        g.sort(&s, GroupSort::Last);
        assert_eq!(kept(&g), 0, "dropped with the order they were kept by");
        assert_eq!(g.groups[1].count as usize, big + 10);
        assert_eq!(g.sparkline(1, 8), first, "the same group, moved");
        assert_eq!(g.sparkline(0, 8), g.count_sparkline(0, 8));
        assert_ne!(g.sparkline(0, 8), first);
    }

    /// Everything a grouping shows: its groups, and each one's events and sparkline.
    fn seen(g: &Groups) -> Vec<(Group, Vec<u32>, Vec<u32>)> {
        (0..g.len())
            .map(|k| {
                (
                    g.groups[k].clone(),
                    g.members(k).to_vec(),
                    g.sparkline(k, 7),
                )
            })
            .collect()
    }

    #[test]
    fn a_grouping_made_in_the_memory_of_another_is_the_grouping_made_afresh() {
        let s = demo();
        let every = all(&s);
        let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
        let few: Vec<u32> = every.iter().copied().take(5).collect();
        // From more events to fewer and back, between keys with many groups and with few.
        let steps = [
            (&every, GroupKey::Peer, GroupSort::Count),
            (&odd, GroupKey::Error, GroupSort::Last),
            (&few, GroupKey::Room, GroupSort::Count),
            (&every, GroupKey::Sdk, GroupSort::Last),
            (&odd, GroupKey::Peer, GroupSort::Last),
        ];
        let mut g = Groups::default();
        for (shown, key, sort) in steps {
            g = Groups::recompute(g, &s, shown, key, sort);
            let fresh = Groups::compute(&s, shown, key, sort);
            assert_eq!(g.key, Some(key));
            assert_eq!(g.span, fresh.span, "{key:?} over {} events", shown.len());
            assert_eq!(
                seen(&g),
                seen(&fresh),
                "{key:?} over {} events",
                shown.len()
            );
        }
        // A grouping of a few events does not keep the memory of a grouping of them all.
        let big = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
        let small = Groups::recompute(big, &s, &few, GroupKey::Peer, GroupSort::Count);
        assert!(small.members.capacity() < every.len() / 2);
        assert!(small.facts.capacity() < every.len() / 2);
        assert!(small.groups.capacity() <= few.len() * 2);
    }

    #[test]
    fn the_web_release_with_the_disconnects_leads_the_sdk_groups_of_disconnects() {
        let s = demo();
        let kinds = crate::insight::Kinds::of(&s);
        let shown: Vec<u32> = all(&s)
            .into_iter()
            .filter(|&i| kinds.slot(s.row(i as usize).kind) == 3)
            .collect();
        let g = Groups::compute(&s, &shown, GroupKey::Sdk, GroupSort::Count);
        assert_eq!(g.groups[0].label(&s, GroupKey::Sdk), "web 0.11.4");
        assert!(g.groups[0].count > 2 * g.groups[1].count);
    }

    #[test]
    fn a_permutation_moves_every_item_once_into_place() {
        let mut items: Vec<u32> = (0..10).map(|x| x * 10).collect();
        let mut from = vec![3, 0, 1, 2, 9, 5, 8, 7, 4, 6];
        let want: Vec<u32> = from.iter().map(|&k| k * 10).collect();
        permute(&mut items, &mut from);
        assert_eq!(items, want);
    }

    #[test]
    fn ranks_order_as_the_strings_do() {
        let s = store(&[
            with(ev(1, 0, "join", "p1", false), |d| d["role"] = json!("host")),
            with(ev(2, 0, "join", "p2", false), |d| {
                d["role"] = json!("hostess-long-name")
            }),
            with(ev(3, 0, "join", "p3", false), |d| {
                d["role"] = json!("host-long-name-a")
            }),
            with(ev(4, 0, "join", "p4", false), |d| {
                d["role"] = json!("guest")
            }),
        ]);
        let g = Groups::compute(&s, &all(&s), GroupKey::Role, GroupSort::Count);
        let labels: Vec<String> = g
            .groups
            .iter()
            .map(|g| g.label(&s, GroupKey::Role))
            .collect();
        assert_eq!(
            labels,
            ["guest", "host", "host-long-name-a", "hostess-long-name"]
        );
    }
}
