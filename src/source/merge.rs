//! Merging the pages of several cursors of one query into one stream in the service's order.
//!
//! When "load everything" runs one cursor per event type, each cursor's pages come in the
//! service's order for its type. The service orders a query's events by time (the hosted service
//! and `callscope serve` over a dump in time order alike), so merging the cursors by timestamp
//! gives the order that one cursor over every type would have given. Which way time runs is read
//! from the pages themselves; a service that turns out not to order by time gets the events in
//! the order they arrive.
//!
//! An event is handed on only when it is certain to come next: every cursor that may still send
//! events has something waiting, so nothing older (or newer) can arrive later. Events are
//! de-duplicated by id (by their whole text when they have none): the same event comes through
//! the cursor of its type and through the untyped cursor.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use crate::store::probe::Probe;
use crate::store::{Batch, BatchBuilder, Blob, IdKey, NO_TIME};
use crate::time::parse_rfc3339_nanos;

/// What identifies an event when de-duplicating.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EventKey {
    Id(IdKey),
    /// An event without an id is known by its whole text.
    Text(Box<[u8]>),
}

/// One event of a page: where it is in the page's body, and what merging needs of it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub start: usize,
    pub end: usize,
    /// Nanoseconds since the epoch, or [`NO_TIME`].
    pub ts: i64,
    pub key: EventKey,
    /// The event's `type`, when it has one.
    pub kind: Option<Box<str>>,
}

impl Entry {
    /// Reads the entry of the event `blob[start..end]`, refusing what a
    /// [`BatchBuilder`] would refuse.
    pub fn read(blob: &[u8], start: usize, end: usize) -> Result<Entry, String> {
        let raw = &blob[start..end];
        if simdutf8::basic::from_utf8(raw).is_err() {
            return Err(match std::str::from_utf8(raw) {
                Err(e) => format!("invalid UTF-8: {e}"),
                Ok(_) => "invalid UTF-8".into(),
            });
        }
        let probe = Probe::read(raw).map_err(|e| e.to_string())?;
        if !probe.strings_are_utf8() {
            return Err("invalid UTF-8 in an escaped string".into());
        }
        let ts = probe
            .timestamp
            .as_str()
            .and_then(parse_rfc3339_nanos)
            .unwrap_or(NO_TIME);
        let key = match probe.id.get() {
            Some(id) => {
                EventKey::Id(IdKey::of_bytes(id).ok_or_else(|| "invalid UTF-8 in id".to_string())?)
            }
            None => EventKey::Text(Box::from(raw)),
        };
        Ok(Entry {
            start,
            end,
            ts,
            key,
            kind: probe.kind.as_str().map(Box::from),
        })
    }
}

/// Which way the service orders events, as far as the pages have shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// No cursor has shown two different timestamps yet.
    Unknown,
    OldestFirst,
    NewestFirst,
    /// Both ways were seen: the service does not order by time.
    Unordered,
}

struct Item {
    blob: Arc<Blob>,
    start: usize,
    end: usize,
    ts: i64,
    key: EventKey,
    kind: Option<Box<str>>,
}

#[derive(Default)]
struct Lane {
    queue: VecDeque<Item>,
    closed: bool,
    last_ts: Option<i64>,
}

/// The merge of the cursors of one query. Lane `k` holds what cursor `k` sent and has not been
/// handed on yet.
#[derive(Default)]
pub struct Merge {
    lanes: Vec<Lane>,
    rising: bool,
    falling: bool,
    seen: HashSet<EventKey>,
    /// Copies beyond the first of the events handed on as they came (see [`Merge::passed`]),
    /// by key: the service's own repeats within the query.
    repeats: HashMap<EventKey, u32>,
    /// Events handed on, by type, each once.
    handed: HashMap<Box<str>, u64>,
}

impl Merge {
    pub fn new() -> Merge {
        Merge::default()
    }

    /// Adds a lane for a new cursor; returns its index.
    pub fn add_lane(&mut self) -> usize {
        self.lanes.push(Lane::default());
        self.lanes.len() - 1
    }

    pub fn order(&self) -> Order {
        match (self.rising, self.falling) {
            (false, false) => Order::Unknown,
            (true, false) => Order::OldestFirst,
            (false, true) => Order::NewestFirst,
            (true, true) => Order::Unordered,
        }
    }

    /// Reads the order of a lane's page from its timestamps.
    pub fn observe(&mut self, lane: usize, entries: &[Entry]) {
        let lane = &mut self.lanes[lane];
        for e in entries.iter().filter(|e| e.ts != NO_TIME) {
            if let Some(last) = lane.last_ts {
                self.rising |= e.ts > last;
                self.falling |= e.ts < last;
            }
            lane.last_ts = Some(e.ts);
        }
    }

    /// Notes events that were handed on as they came (one cursor, nothing to merge): they count
    /// as seen, and each copy past the first as a repeat. Their page's order is read apart, with
    /// [`Merge::observe`].
    pub fn passed(&mut self, entries: &[Entry]) {
        for e in entries {
            if !self.seen.insert(e.key.clone()) {
                *self.repeats.entry(e.key.clone()).or_default() += 1;
            } else if let Some(kind) = &e.kind {
                count(&mut self.handed, kind);
            }
        }
    }

    /// How many copies of each event were handed on so far.
    pub fn copies(&self) -> HashMap<EventKey, u32> {
        self.seen
            .iter()
            .map(|k| (k.clone(), 1 + self.repeats.get(k).copied().unwrap_or(0)))
            .collect()
    }

    /// Queues a page of a lane.
    pub fn push(&mut self, lane: usize, blob: &Arc<Blob>, entries: Vec<Entry>) {
        self.observe(lane, &entries);
        let queue = &mut self.lanes[lane].queue;
        queue.extend(entries.into_iter().map(|e| Item {
            blob: Arc::clone(blob),
            start: e.start,
            end: e.end,
            ts: e.ts,
            key: e.key,
            kind: e.kind,
        }));
    }

    /// No more events will come through this lane.
    pub fn close(&mut self, lane: usize) {
        self.lanes[lane].closed = true;
    }

    /// Events may come through this lane again (its cursor is retried).
    pub fn reopen(&mut self, lane: usize) {
        self.lanes[lane].closed = false;
    }

    /// The lane's cursor starts again from its first page: what is queued goes (the new pages
    /// bring it again), the order is read afresh from the new pages on, and the lane is open.
    /// What was handed on is not handed on again.
    pub fn restart(&mut self, lane: usize) {
        let lane = &mut self.lanes[lane];
        lane.queue.clear();
        lane.last_ts = None;
        lane.closed = false;
    }

    /// Drops what is queued in this lane and closes it.
    pub fn discard(&mut self, lane: usize) {
        self.lanes[lane].queue.clear();
        self.lanes[lane].closed = true;
    }

    pub fn close_all(&mut self) {
        for lane in &mut self.lanes {
            lane.closed = true;
        }
    }

    /// Whether handing on events waits for this lane: it is open and has nothing queued.
    pub fn waits_on(&self, lane: usize) -> bool {
        let lane = &self.lanes[lane];
        !lane.closed && lane.queue.is_empty()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.lanes.iter().all(|l| l.queue.is_empty())
    }

    /// How many events of type `kind` were handed on, each once, whichever lane brought them.
    pub fn handed_of(&self, kind: &str) -> u64 {
        self.handed.get(kind).copied().unwrap_or(0)
    }

    /// Takes every event that is certain to come next, in order, without duplicates.
    pub fn take_ready(&mut self) -> Ready {
        let mut out = Ready::default();
        let blocked = (0..self.lanes.len()).any(|k| self.waits_on(k));
        match self.order() {
            Order::Unordered => self.drain_in_lane_order(&mut out),
            Order::Unknown if !blocked => self.drain_in_lane_order(&mut out),
            Order::Unknown => {}
            order => {
                let newest_first = order == Order::NewestFirst;
                while let Some(k) = self.next_lane(newest_first) {
                    let item = self.lanes[k]
                        .queue
                        .pop_front()
                        .expect("next_lane picks a lane with a queued event");
                    out.push(item, &mut self.seen, &mut self.handed);
                }
            }
        }
        out
    }

    /// The lane whose first queued event comes next, or `None` while an open lane has nothing
    /// queued (its next event could come before every queued one) or nothing is queued.
    fn next_lane(&self, newest_first: bool) -> Option<usize> {
        let mut best: Option<(usize, i64)> = None;
        for (k, lane) in self.lanes.iter().enumerate() {
            let Some(head) = lane.queue.front() else {
                if lane.closed {
                    continue;
                }
                return None;
            };
            let better = match best {
                None => true,
                Some((_, ts)) if newest_first => head.ts > ts,
                Some((_, ts)) => head.ts < ts,
            };
            if better {
                best = Some((k, head.ts));
            }
        }
        best.map(|(k, _)| k)
    }

    fn drain_in_lane_order(&mut self, out: &mut Ready) {
        for k in 0..self.lanes.len() {
            while let Some(item) = self.lanes[k].queue.pop_front() {
                out.push(item, &mut self.seen, &mut self.handed);
            }
        }
    }
}

/// Counts one more event of type `kind`.
fn count(handed: &mut HashMap<Box<str>, u64>, kind: &str) {
    match handed.get_mut(kind) {
        Some(n) => *n += 1,
        None => {
            handed.insert(kind.into(), 1);
        }
    }
}

/// Events taken from a [`Merge`], in order.
#[derive(Default)]
pub struct Ready {
    items: Vec<Item>,
    bytes: usize,
}

impl Ready {
    fn push(
        &mut self,
        item: Item,
        seen: &mut HashSet<EventKey>,
        handed: &mut HashMap<Box<str>, u64>,
    ) {
        if seen.insert(item.key.clone()) {
            if let Some(kind) = &item.kind {
                count(handed, kind);
            }
            self.bytes += item.end - item.start + 1;
            self.items.push(item);
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The events as one batch over a buffer of their own (one event a line, each exactly as
    /// received).
    pub fn into_batch(self) -> Batch {
        let mut body = Vec::with_capacity(self.bytes);
        let mut spans = Vec::with_capacity(self.items.len());
        for item in &self.items {
            let start = body.len();
            body.extend_from_slice(&item.blob[item.start..item.end]);
            spans.push((start, body.len()));
            body.push(b'\n');
        }
        drop(self.items);
        let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(body)));
        for (start, end) in spans {
            // Every event was read from its page by the same builder before: it reads again.
            if let Err(e) = builder.push(start, end) {
                tracing::error!(error = %e, "an event that was read once could not be read again");
            }
        }
        builder.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(events: &[(u32, &str)]) -> (Arc<Blob>, Vec<Entry>) {
        let mut body = Vec::new();
        let mut spans = Vec::new();
        for (id, ts) in events {
            let start = body.len();
            body.extend_from_slice(
                format!(
                    r#"{{"id":"00000000-0000-4000-8000-{id:012}","timestamp":"{ts}","type":"t"}}"#
                )
                .as_bytes(),
            );
            spans.push((start, body.len()));
            body.push(b'\n');
        }
        let entries = spans
            .iter()
            .map(|&(s, e)| Entry::read(&body, s, e).unwrap())
            .collect();
        (Arc::new(Blob::Owned(body)), entries)
    }

    fn ids(ready: Ready) -> Vec<u32> {
        ready
            .items
            .iter()
            .map(|i| {
                let raw = std::str::from_utf8(&i.blob[i.start..i.end]).unwrap();
                raw[31..43].parse().unwrap()
            })
            .collect()
    }

    fn t(second: u32) -> String {
        format!("2026-11-18T10:00:{second:02}.000000001Z")
    }

    #[test]
    fn lanes_merge_by_time_and_wait_for_a_lane_with_nothing_queued() {
        let mut m = Merge::new();
        let (a, b) = (m.add_lane(), m.add_lane());
        let (blob, entries) = page(&[(1, &t(1)), (3, &t(3)), (5, &t(5))]);
        m.push(a, &blob, entries);
        assert!(
            ids(m.take_ready()).is_empty(),
            "lane b may still send older events"
        );
        let (blob, entries) = page(&[(2, &t(2)), (4, &t(4))]);
        m.push(b, &blob, entries);
        assert_eq!(m.order(), Order::OldestFirst);
        assert_eq!(ids(m.take_ready()), vec![1, 2, 3, 4], "5 waits for lane b");
        assert!(m.waits_on(b) && !m.waits_on(a));
        m.close(b);
        assert_eq!(ids(m.take_ready()), vec![5]);
        assert!(m.is_empty());
    }

    #[test]
    fn newest_first_is_read_from_the_pages_and_duplicates_are_dropped() {
        let mut m = Merge::new();
        let (main, typed) = (m.add_lane(), m.add_lane());
        let (blob, entries) = page(&[(9, &t(9)), (8, &t(8))]);
        m.observe(main, &entries);
        m.passed(&entries);
        drop(blob);
        let (blob, entries) = page(&[(7, &t(7)), (5, &t(5))]);
        m.push(main, &blob, entries);
        let (blob, entries) = page(&[(8, &t(8)), (6, &t(6)), (5, &t(5)), (4, &t(4))]);
        m.push(typed, &blob, entries);
        assert_eq!(m.order(), Order::NewestFirst);
        m.close(main);
        assert_eq!(ids(m.take_ready()), vec![7, 6, 5, 4]);
        assert!(m.waits_on(typed));
        m.close(typed);
        assert!(m.take_ready().is_empty());
        // Each event counts once for its type, handed on as it came or merged.
        assert_eq!(m.handed_of("t"), 6);
        assert_eq!(m.handed_of("u"), 0);
    }

    #[test]
    fn a_restarted_lane_drops_its_queue_reads_its_order_afresh_and_hands_on_nothing_twice() {
        let mut m = Merge::new();
        let (a, b) = (m.add_lane(), m.add_lane());
        let (blob, entries) = page(&[(1, &t(1)), (3, &t(3)), (5, &t(5))]);
        m.push(a, &blob, entries);
        let (blob, entries) = page(&[(2, &t(2)), (4, &t(4))]);
        m.push(b, &blob, entries);
        assert_eq!(ids(m.take_ready()), vec![1, 2, 3, 4], "5 waits for lane b");
        m.restart(a);
        assert!(
            m.waits_on(a),
            "the queued 5 went: the new run brings it again"
        );
        // The new run from its first page: time going back to it is no sign of disorder.
        let (blob, entries) = page(&[(1, &t(1)), (3, &t(3)), (5, &t(5)), (6, &t(6))]);
        m.push(a, &blob, entries);
        assert_eq!(m.order(), Order::OldestFirst);
        m.close(b);
        m.close(a);
        assert_eq!(ids(m.take_ready()), vec![5, 6]);
    }

    #[test]
    fn the_copies_handed_on_are_counted_with_the_services_repeats() {
        let mut m = Merge::new();
        let (_, entries) = page(&[(1, &t(1)), (2, &t(2)), (2, &t(2))]);
        m.passed(&entries);
        let (_, again) = page(&[(3, &t(3)), (1, &t(1))]);
        m.passed(&again);
        let key = |n: usize| entries.iter().chain(&again).nth(n).unwrap().key.clone();
        let copies = m.copies();
        assert_eq!(copies.len(), 3);
        assert_eq!(
            (copies[&key(0)], copies[&key(1)], copies[&key(3)]),
            (2, 2, 1)
        );
    }

    #[test]
    fn pages_out_of_time_order_are_handed_on_as_they_come() {
        let mut m = Merge::new();
        let (a, b) = (m.add_lane(), m.add_lane());
        let (blob, entries) = page(&[(3, &t(3)), (1, &t(1)), (2, &t(2))]);
        m.push(a, &blob, entries);
        assert_eq!(m.order(), Order::Unordered);
        assert_eq!(
            ids(m.take_ready()),
            vec![3, 1, 2],
            "nothing waits for lane b"
        );
        let (blob, entries) = page(&[(0, &t(0))]);
        m.push(b, &blob, entries);
        assert_eq!(ids(m.take_ready()), vec![0]);
    }

    #[test]
    fn an_event_the_store_would_refuse_is_refused_when_read() {
        for raw in [
            &br#"{"id":"a","type":"\ud800"}"#[..],
            &b"{\"id\":\"a\",\"type\":\"\xff\"}"[..],
            &br#"{"id":"a","#[..],
        ] {
            assert!(Entry::read(raw, 0, raw.len()).is_err(), "{raw:?}");
            let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(raw.to_vec())));
            assert!(builder.push(0, raw.len()).is_err(), "{raw:?}");
        }
        let fine = br#"{"type":"t","timestamp":"2026-11-18T10:00:01Z"}"#;
        let entry = Entry::read(fine, 0, fine.len()).unwrap();
        assert_eq!(entry.key, EventKey::Text(Box::from(&fine[..])));
        assert_eq!(entry.kind.as_deref(), Some("t"));
        assert_eq!(entry.ts, 1_794_996_001_000_000_000);
    }

    #[test]
    fn a_ready_run_becomes_a_batch_of_the_same_events() {
        let mut m = Merge::new();
        let a = m.add_lane();
        let (blob, entries) = page(&[(1, &t(1)), (2, &t(2))]);
        m.push(a, &blob, entries);
        m.close(a);
        let ready = m.take_ready();
        assert_eq!(ready.len(), 2);
        let mut store = crate::store::Store::new();
        store.merge(ready.into_batch());
        assert_eq!(store.len(), 2);
        assert_eq!(
            store.event(1).id(),
            Some("00000000-0000-4000-8000-000000000002")
        );
    }
}
