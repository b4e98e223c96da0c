//! The order the list shows events in: time by default (oldest or newest first), or grouped by
//! a column (type, code, room, user, SDK, final/retried) and in time order within it. Equal
//! times keep the order the events were loaded in, whichever way the time runs, so that the
//! order never changes from one refresh to the next.
//!
//! Every loaded event is kept in time order as the store grows (a batch is sorted on its own and
//! merged in), and the whole order for the sort in force is computed from it once per change of
//! the sort or of the store: the shown events are then that order's events that pass the filter,
//! one pass over it. Sorting by a column is a counting sort of the time order by the column's
//! value, which keeps the time order within each value.

use crate::store::{Row, Store};

mod ranks;
use ranks::Ranks;

/// What the list is sorted by, besides the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    #[default]
    Time,
    /// The five types in the order of their keys (publish, subscribe, join, disconnected,
    /// connect), then other families by name.
    Type,
    /// The error code, lowest first.
    Code,
    /// The room's name (its id when it has none), A to Z.
    Room,
    /// The user's name, A to Z.
    User,
    /// The SDK, then its version.
    Sdk,
    /// Final errors, then retried ones.
    Status,
}

impl SortKey {
    pub const ALL: [SortKey; 7] = [
        SortKey::Time,
        SortKey::Type,
        SortKey::Code,
        SortKey::Room,
        SortKey::User,
        SortKey::Sdk,
        SortKey::Status,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SortKey::Time => "time",
            SortKey::Type => "type",
            SortKey::Code => "code",
            SortKey::Room => "room",
            SortKey::User => "user",
            SortKey::Sdk => "sdk",
            SortKey::Status => "final/retried",
        }
    }

    /// The key a name (`code`, `status`, `final`) stands for.
    pub fn named(name: &str) -> Option<SortKey> {
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "status" | "final" | "retried" | "terminal" => Some(SortKey::Status),
            _ => SortKey::ALL.into_iter().find(|k| k.name() == name),
        }
    }

    /// The next key in [`SortKey::ALL`], round to the first.
    pub fn next(self) -> SortKey {
        let k = SortKey::ALL.iter().position(|&s| s == self).unwrap_or(0);
        SortKey::ALL[(k + 1) % SortKey::ALL.len()]
    }
}

/// The order in force: a key, and which way the time runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Order {
    pub key: SortKey,
    pub newest_first: bool,
}

impl Order {
    /// `time, oldest first`; `code, then newest first`.
    pub fn describe(self) -> String {
        let time = if self.newest_first {
            "newest first"
        } else {
            "oldest first"
        };
        match self.key {
            SortKey::Time => format!("time, {time}"),
            key => format!("{}, then {time}", key.name()),
        }
    }
}

/// Every loaded event in time order, kept as the store grows, and the whole order of the last
/// sort asked for.
#[derive(Debug, Default, Clone)]
pub struct OrderIndex {
    /// Every row, by time then load order.
    by_time: Vec<u32>,
    /// The time of each row of `by_time`, beside it: merging and reversing read these in
    /// order rather than each row's time from the rows, all over the store.
    times: Vec<i64>,
    /// The order last computed, for the sort and the number of rows it was computed for.
    ordered: Vec<u32>,
    ordered_for: Option<(Order, usize)>,
    /// The ranks of every row under the last key sorted by, other than the time (of the rows
    /// loaded when they were computed): the other direction of the same key reads them rather
    /// than every row again.
    ranks: Option<Ranks>,
    /// The memory of the time order that a sort by a key starts from.
    scratch: Vec<u32>,
    /// `by_time` is not every row in load order (as it is for a dump written oldest first,
    /// whose shown rows in the time order are the members in load order, without a pass over
    /// every row).
    out_of_load_order: bool,
}

/// A row's time for ordering: events without one come before every other.
fn time_of(row: &Row) -> i64 {
    row.ts
}

impl OrderIndex {
    /// How many rows are in time order.
    pub fn len(&self) -> usize {
        self.by_time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_time.is_empty()
    }

    /// Puts the rows the store gained since the last call in time order among the others: a
    /// batch is sorted on its own, then merged in (or added at the end, when it comes after).
    pub fn extend(&mut self, store: &Store) {
        let from = self.by_time.len();
        let to = store.len();
        if to <= from {
            return;
        }
        let rows = store.rows();
        let mut new: Vec<(i64, u32)> = (from..to).map(|i| (time_of(&rows[i]), i as u32)).collect();
        new.sort_unstable();
        if self.times.last().is_none_or(|&last| last <= new[0].0) {
            // Rows are numbered on from `from`: the new ones keep the load order when each is
            // the next number.
            self.out_of_load_order |= new
                .iter()
                .zip(from as u32..)
                .any(|(&(_, i), next)| i != next);
            self.by_time.extend(new.iter().map(|&(_, i)| i));
            self.times.extend(new.iter().map(|&(t, _)| t));
            return;
        }
        // Merged in place from the end, the latest first: a merge into new lists held both
        // copies at once, 12 bytes an event more at the peak (57 MiB at five million). Rows
        // only ever join at the end of the store, so an old row goes before a new one of the
        // same time. A new row then comes before an old one: the load order is left.
        self.out_of_load_order = true;
        let (old_len, all) = (self.by_time.len(), self.by_time.len() + new.len());
        self.by_time.resize(all, 0);
        self.times.resize(all, 0);
        let (mut a, mut b) = (old_len, new.len());
        for out in (0..all).rev() {
            if b == 0 {
                // The old rows left are in place already.
                break;
            }
            if a > 0 && self.times[a - 1] > new[b - 1].0 {
                a -= 1;
                self.by_time[out] = self.by_time[a];
                self.times[out] = self.times[a];
            } else {
                b -= 1;
                self.by_time[out] = new[b].1;
                self.times[out] = new[b].0;
            }
        }
    }

    /// Every loaded row in `order` (after [`OrderIndex::extend`]).
    pub fn ordered(&mut self, store: &Store, order: Order) -> &[u32] {
        let len = self.by_time.len();
        if order == Order::default() {
            return &self.by_time;
        }
        if self.ordered_for != Some((order, len)) {
            let ranks = match order.key {
                SortKey::Time => None,
                key => {
                    let known = self
                        .ranks
                        .as_ref()
                        .is_some_and(|r| r.key == key && r.rows() == store.len());
                    if !known {
                        self.ranks = Some(Ranks::of(store, key));
                    }
                    self.ranks.as_ref()
                }
            };
            in_order(
                &self.by_time,
                &self.times,
                order,
                ranks,
                &mut self.scratch,
                &mut self.ordered,
            );
            self.ordered_for = Some((order, len));
        }
        &self.ordered
    }

    /// The rows of `members` (a list of rows in any order, each once) in `order`, into `out` in
    /// place of what it held: the order's rows that are members, one pass over every loaded
    /// row. The memory of the list it replaces (millions of rows) is written again rather than
    /// fresh memory faulted in.
    pub fn arrange_into(
        &mut self,
        store: &Store,
        order: Order,
        members: &[u32],
        out: &mut Vec<u32>,
    ) {
        if self.in_load_order(order, members) {
            reuse(out, members.len());
            out.extend_from_slice(members);
            return;
        }
        let all = self.ordered(store, order);
        reuse(out, members.len());
        if members.len() == all.len() {
            out.extend_from_slice(all);
            return;
        }
        let mut member = vec![0u64; all.len().div_ceil(64)];
        for &i in members {
            member[i as usize / 64] |= 1 << (i % 64);
        }
        out.reserve(members.len());
        out.extend(
            all.iter()
                .copied()
                .filter(|&i| member[i as usize / 64] & (1 << (i % 64)) != 0),
        );
    }

    /// The shown rows (`shown`, in `order`) after `new` rows joined the members (`members`, in
    /// any order, `new` among them): added at the end when the order is oldest first by time
    /// and they all come after the last shown (a dump read in time order), else the members
    /// arranged again.
    pub fn add(
        &mut self,
        store: &Store,
        order: Order,
        shown: &mut Vec<u32>,
        members: &[u32],
        new: &[u32],
    ) {
        if new.is_empty() {
            return;
        }
        if order == Order::default() {
            let rows = store.rows();
            let key = |i: u32| (time_of(&rows[i as usize]), i);
            let mut sorted: Vec<(i64, u32)> = new.iter().map(|&i| key(i)).collect();
            sorted.sort_unstable();
            if shown.last().is_none_or(|&last| key(last) < sorted[0]) {
                shown.extend(sorted.iter().map(|&(_, i)| i));
                return;
            }
        }
        self.arrange_into(store, order, members, shown);
    }

    /// [`OrderIndex::arrange_into`], and the place among them of `anchor` (a row that may not
    /// be a member), or else of the first member after it in the order: where the selection
    /// goes when the filter changes.
    pub fn arrange_around(
        &mut self,
        store: &Store,
        order: Order,
        members: &[u32],
        anchor: Option<u32>,
        out: &mut Vec<u32>,
    ) -> Option<usize> {
        if self.in_load_order(order, members) {
            // The order is the load order: the members before the anchor are those of lower
            // rows.
            reuse(out, members.len());
            out.extend_from_slice(members);
            let at = anchor.map_or(0, |anchor| members.partition_point(|&i| i < anchor));
            return (at < out.len()).then_some(at);
        }
        let all = self.ordered(store, order);
        let mut member = vec![0u64; all.len().div_ceil(64)];
        for &i in members {
            member[i as usize / 64] |= 1 << (i % 64);
        }
        reuse(out, members.len());
        let is_member = |i: &&u32| member[**i as usize / 64] & (1 << (**i % 64)) != 0;
        // The members before the anchor, then those from it on: two plain filters, which
        // compile to a tighter loop than one that also watches for the anchor at every row.
        let from = match anchor {
            None => 0,
            Some(anchor) => all.iter().position(|&i| i == anchor).unwrap_or(all.len()),
        };
        out.extend(all[..from].iter().filter(is_member));
        let at = out.len();
        out.extend(all[from..].iter().filter(is_member));
        // None when no member comes at or after the anchor.
        (at < out.len()).then_some(at)
    }

    /// Whether `members` in `order` are `members` as they are: the order is the time order,
    /// every row is in it in load order, and the members are rows of it, ascending (one pass
    /// over them, a fraction of one over every row's place in the order).
    fn in_load_order(&self, order: Order, members: &[u32]) -> bool {
        order == Order::default()
            && !self.out_of_load_order
            && members.is_sorted_by(|a, b| a < b)
            && members
                .last()
                .is_none_or(|&i| (i as usize) < self.by_time.len())
    }

    /// Forgets every row, for a store that replaces the one indexed.
    pub fn clear(&mut self) {
        self.out_of_load_order = false;
        self.by_time.clear();
        self.times.clear();
        self.ordered.clear();
        self.ordered_for = None;
        self.ranks = None;
    }
}

/// Empties `out` to hold `len` rows; a list that could hold more than about twice as many is let
/// go instead, so that a few rows shown do not keep the memory of millions.
fn reuse(out: &mut Vec<u32>, len: usize) {
    if out.capacity() / 2 > len {
        *out = Vec::new();
    }
    out.clear();
    out.reserve(len);
}

/// Every row of `by_time` (all rows, by time then load order; `times` theirs) in `order`, into
/// `out`; `ranks` the ranks of the rows under the order's key, when it is not the time, and
/// `scratch` memory for the time order before it is sorted by them.
fn in_order(
    by_time: &[u32],
    times: &[i64],
    order: Order,
    ranks: Option<&Ranks>,
    scratch: &mut Vec<u32>,
    out: &mut Vec<u32>,
) {
    if let Some(ranks) = ranks.filter(|_| !order.newest_first) {
        // Sorted straight from the time order, without a copy of it first.
        ranks.sort(by_time, out);
        return;
    }
    let timed = match ranks {
        Some(_) => &mut *scratch,
        None => &mut *out,
    };
    timed.clear();
    timed.reserve(by_time.len());
    if order.newest_first {
        newest_first(times, by_time, timed);
    } else {
        timed.extend_from_slice(by_time);
    }
    if let Some(ranks) = ranks {
        // A counting sort by rank keeps the time order within each rank.
        ranks.sort(scratch, out);
    }
}

/// `by_time` from its end, each run of equal times kept in load order.
fn newest_first(times: &[i64], by_time: &[u32], out: &mut Vec<u32>) {
    let mut end = by_time.len();
    while end > 0 {
        let t = times[end - 1];
        let mut start = end - 1;
        while start > 0 && times[start - 1] == t {
            start -= 1;
        }
        out.extend_from_slice(&by_time[start..end]);
        end = start;
    }
}

#[cfg(test)]
mod around_tests;
#[cfg(test)]
mod tests {
    use super::ranks::version_parts;
    use super::*;
    use crate::store::Batch;

    fn store(events: &[(&str, &str, i64, &str)]) -> Store {
        let mut store = Store::new();
        store.merge(
            Batch::of_objects(events.iter().map(|(id, ts, code, sdk)| {
                serde_json::json!({
                    "id": id, "timestamp": ts, "type": "client.join.failed",
                    "data": {"error_code": code, "agent": {"sdk": sdk}}
                })
                .to_string()
            }))
            .unwrap(),
        );
        store
    }

    fn ids(store: &Store, rows: &[u32]) -> Vec<String> {
        rows.iter()
            .map(|&i| store.event(i as usize).id().unwrap_or("").to_string())
            .collect()
    }

    const T1: &str = "2026-11-18T08:00:00Z";
    const T2: &str = "2026-11-18T09:00:00Z";

    #[test]
    fn equal_times_keep_the_load_order_whichever_way_the_time_runs() {
        let store = store(&[
            ("b1", T2, 500, "web"),
            ("a1", T1, 4006, "ios"),
            ("b2", T2, 500, "web"),
            ("a2", T1, 500, "web"),
            ("b3", T2, 4006, "ios"),
        ]);
        let mut index = OrderIndex::default();
        index.extend(&store);
        let mut order = Order::default();
        assert_eq!(
            ids(&store, index.ordered(&store, order)),
            ["a1", "a2", "b1", "b2", "b3"]
        );
        order.newest_first = true;
        assert_eq!(
            ids(&store, index.ordered(&store, order)),
            ["b1", "b2", "b3", "a1", "a2"]
        );
        // By code: within a code, the time order in force, equal times in load order.
        order.key = SortKey::Code;
        assert_eq!(
            ids(&store, index.ordered(&store, order)),
            ["b1", "b2", "a2", "b3", "a1"]
        );
        order.newest_first = false;
        assert_eq!(
            ids(&store, index.ordered(&store, order)),
            ["a2", "b1", "b2", "a1", "b3"]
        );
        order.key = SortKey::Sdk;
        assert_eq!(
            ids(&store, index.ordered(&store, order)),
            ["a1", "b3", "a2", "b1", "b2"]
        );
        // The same order however many times it is asked for.
        let again = index.ordered(&store, order).to_vec();
        assert_eq!(again, index.ordered(&store, order));
    }

    #[test]
    fn batches_out_of_time_order_are_merged_into_time_order() {
        let mut s = store(&[("late1", T2, 1, "x"), ("late2", T2, 1, "x")]);
        let mut index = OrderIndex::default();
        index.extend(&s);
        s.merge(
            Batch::of_objects([
                serde_json::json!({"id": "early", "timestamp": T1}).to_string(),
                serde_json::json!({"id": "none"}).to_string(),
            ])
            .unwrap(),
        );
        index.extend(&s);
        assert_eq!(
            ids(&s, index.ordered(&s, Order::default())),
            ["none", "early", "late1", "late2"]
        );
        let members = [3u32, 0];
        let mut arranged = Vec::new();
        index.arrange_into(&s, Order::default(), &members, &mut arranged);
        assert_eq!(ids(&s, &arranged), ["none", "late1"]);
    }

    #[test]
    fn batches_of_every_mix_of_times_merge_in_place_as_a_stable_sort_would() {
        // Times from a few, so that many are equal, in an order that jumps back and forth;
        // batches of every size from 1 to 9, some events without a time.
        let mut s = Store::new();
        let mut index = OrderIndex::default();
        let mut n = 0u64;
        for size in (1..=9).cycle().take(40) {
            let events: Vec<String> = (0..size)
                .map(|_| {
                    n += 1;
                    let minute = n * 7919 % 13;
                    if minute == 5 {
                        serde_json::json!({"id": format!("e{n}")}).to_string()
                    } else {
                        let ts = format!("2026-11-18T08:{minute:02}:00Z");
                        serde_json::json!({"id": format!("e{n}"), "timestamp": ts}).to_string()
                    }
                })
                .collect();
            s.merge(Batch::of_objects(events).unwrap());
            index.extend(&s);
            let mut plain: Vec<u32> = (0..s.len() as u32).collect();
            plain.sort_by_key(|&i| s.row(i as usize).ts);
            assert_eq!(index.by_time, plain, "after {} events", s.len());
            let times: Vec<i64> = plain.iter().map(|&i| s.row(i as usize).ts).collect();
            assert_eq!(index.times, times);
        }
    }

    #[test]
    fn every_order_is_the_time_order_sorted_stably_by_rank_and_lists_are_filled_in_place() {
        let s = crate::insight::testing::generated(3_000, 2);
        let mut index = OrderIndex::default();
        index.extend(&s);
        let oldest = index.ordered(&s, Order::default()).to_vec();
        let members: Vec<u32> = (0..s.len() as u32).filter(|i| i % 3 != 1).collect();
        for key in SortKey::ALL {
            for newest_first in [false, true] {
                let order = Order { key, newest_first };
                let expected = plainly(&s, order);
                assert_eq!(index.ordered(&s, order), expected, "{order:?}");
                // Into a list that held something else, longer or shorter.
                for held in [vec![7u32; 5], vec![1u32; 20_000]] {
                    let mut out = held.clone();
                    index.arrange_into(&s, order, &members, &mut out);
                    let kept: Vec<u32> = expected.iter().copied().filter(|i| i % 3 != 1).collect();
                    assert_eq!(out, kept, "{order:?}");
                    let mut all = held;
                    index.arrange_into(&s, order, &oldest, &mut all);
                    assert_eq!(all, expected);
                    let anchor = expected[10];
                    let at = index.arrange_around(&s, order, &members, Some(anchor), &mut all);
                    assert_eq!(all, kept);
                    let first_after = expected[10..].iter().find(|i| *i % 3 != 1).unwrap();
                    assert_eq!(at.map(|k| all[k]), Some(*first_after));
                }
            }
        }
    }

    #[test]
    fn versions_sort_by_their_numbers() {
        assert!(version_parts("0.9.1") < version_parts("0.12.3"));
        assert!(version_parts("1.15.1") > version_parts("1.2"));
        assert!(version_parts("2.0-beta") > version_parts("2.0"));
    }

    #[test]
    fn keys_are_named_and_cycle() {
        assert_eq!(SortKey::named("FINAL"), Some(SortKey::Status));
        assert_eq!(SortKey::named("sdk"), Some(SortKey::Sdk));
        let mut k = SortKey::Time;
        for _ in 0..SortKey::ALL.len() {
            k = k.next();
        }
        assert_eq!(k, SortKey::Time);
        assert_eq!(
            Order {
                key: SortKey::Code,
                newest_first: true
            }
            .describe(),
            "code, then newest first"
        );
    }

    /// An absent value, after every present one.
    type Last<T> = (bool, Option<T>);

    fn last<T>(value: Option<T>) -> Last<T> {
        (value.is_none(), value)
    }

    /// A row's value under a key, read from its event rather than its row, compared as
    /// [`SortKey`] says the list sorts: absent values last, names ignoring case, versions by
    /// their numbers.
    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Plain {
        Time,
        /// The type's place among the five known ones, or after them, then its name.
        Type(Last<(usize, String)>),
        Code(Last<i64>),
        /// A room's name (its id when it has none), or a user's name.
        Name(Last<String>),
        /// The SDK, then its version.
        Sdk(Last<String>, Last<Vec<(u64, String)>>),
        /// Final, retried, neither.
        Status(u8),
    }

    fn plain_value(store: &Store, i: u32, key: SortKey) -> Plain {
        use crate::event::EventType;
        let event = store.event(i as usize);
        let folded = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<String>();
        match key {
            SortKey::Time => Plain::Time,
            SortKey::Type => Plain::Type(last(
                event
                    .object()
                    .get("type")
                    .and_then(|t| t.as_str())
                    .map(|t| {
                        let known = EventType::KNOWN.iter().position(|k| k.name() == t);
                        (known.unwrap_or(EventType::KNOWN.len()), t.to_string())
                    }),
            )),
            SortKey::Code => Plain::Code(last(event.error_code())),
            SortKey::Room => Plain::Name(last(
                event
                    .data_str("room_id")
                    .or_else(|| event.data_str("room_name"))
                    .map(str::to_string),
            )),
            SortKey::User => Plain::Name(last(event.data_str("user_name").map(folded))),
            SortKey::Sdk => Plain::Sdk(
                last(event.agent_str("sdk").map(folded)),
                last(event.agent_str("sdk_version").map(version_parts)),
            ),
            SortKey::Status => Plain::Status(match event.is_terminal() {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            }),
        }
    }

    /// Every row in `order` the plain way, from the events alone: by their time (events
    /// without one first when the oldest come first, last otherwise), equal times in load
    /// order, then a stable sort by each event's value under the key.
    fn plainly(store: &Store, order: Order) -> Vec<u32> {
        let time = |i: u32| {
            let event = store.event(i as usize);
            event.timestamp().and_then(crate::time::parse_rfc3339_nanos)
        };
        let mut rows: Vec<u32> = (0..store.len() as u32).collect();
        if order.newest_first {
            rows.sort_by_key(|&i| (std::cmp::Reverse(time(i)), i));
        } else {
            rows.sort_by_key(|&i| (time(i), i));
        }
        let values: Vec<Plain> = (0..store.len() as u32)
            .map(|i| plain_value(store, i, order.key))
            .collect();
        rows.sort_by(|&a, &b| values[a as usize].cmp(&values[b as usize]));
        rows
    }

    #[test]
    fn every_order_kept_or_computed_again_is_the_plain_one_as_the_store_grows() {
        let lines = crate::generator::ndjson_lines(3_000, 7);
        let (first, later) = lines.split_at(2_000);
        let mut s = Store::new();
        s.merge(Batch::of_objects(first).unwrap());
        let mut kept = OrderIndex::default();
        for round in 0..2 {
            kept.extend(&s);
            // Each key, one way then the other (the second reads the ranks the first kept),
            // each against a new index and the plain sort.
            for key in SortKey::ALL {
                for newest_first in [false, true] {
                    let order = Order { key, newest_first };
                    let mut fresh = OrderIndex::default();
                    fresh.extend(&s);
                    let expected = plainly(&s, order);
                    assert_eq!(expected.len(), s.len());
                    assert_eq!(
                        kept.ordered(&s, order),
                        expected,
                        "{order:?}, round {round}"
                    );
                    assert_eq!(
                        fresh.ordered(&s, order),
                        expected,
                        "{order:?}, round {round}"
                    );
                }
            }
            s.merge(Batch::of_objects(later).unwrap());
        }
    }
}
