//! The shown events counted per time bucket, per type, with the final ones apart.

use super::{Kinds, TYPE_SLOTS, in_slices, parts_for};
use crate::store::{NO_TIME, Store};

const S: i64 = 1_000_000_000;
/// A day, in nanoseconds.
pub const DAY: i64 = 86_400 * S;

/// The bucket sizes to choose from, smallest first; past a day, whole days.
pub const BUCKET_STEPS: [i64; 13] = [
    S,
    5 * S,
    15 * S,
    30 * S,
    60 * S,
    5 * 60 * S,
    15 * 60 * S,
    30 * 60 * S,
    3600 * S,
    3 * 3600 * S,
    6 * 3600 * S,
    12 * 3600 * S,
    DAY,
];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bucket {
    /// Nanoseconds; the bucket holds `[start, start + step)`.
    pub start: i64,
    /// Per type slot (the five known types in `EventType::KNOWN` order, then any other).
    pub by_type: [u32; TYPE_SLOTS],
    /// How many have `is_terminal` true.
    pub finals: u32,
}

impl Bucket {
    pub fn total(&self) -> u32 {
        self.by_type.iter().sum()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Bucket size in nanoseconds; 0 when no shown event has a time.
    pub step: i64,
    /// Consecutive buckets from the one holding the earliest shown event to the one holding the
    /// latest, empty ones included. Buckets start at multiples of `step` since the epoch, so a
    /// 1 h bucket starts on the hour (UTC).
    pub buckets: Vec<Bucket>,
    /// Shown events without a readable time, which no bucket holds.
    pub untimed: usize,
}

impl Timeline {
    /// Counts the shown events in at most `max_buckets` buckets (at least one), of the smallest
    /// size in [`BUCKET_STEPS`] (or whole days) that fits.
    pub fn compute(store: &Store, shown: &[u32], max_buckets: usize) -> Timeline {
        Timeline::compute_in(store, shown, max_buckets, parts_for(shown.len()))
    }

    /// As [`Timeline::compute`], counted in `parts` slices, each on a thread of its own.
    fn compute_in(store: &Store, shown: &[u32], max_buckets: usize, parts: usize) -> Timeline {
        // Every row shown: their span is the store's, and one pass over the rows (which are
        // wide) counts them, where finding the span of others takes a pass of its own.
        let span = every_row(store, shown).then(|| store.time_range());
        Timeline::counted_in(store, shown, max_buckets, parts, span)
    }

    /// [`Timeline::compute_in`], given the span of the shown events' times when it is known
    /// (`Some(None)`: none has a time).
    fn counted_in(
        store: &Store,
        shown: &[u32],
        max_buckets: usize,
        parts: usize,
        span: Option<Option<(i64, i64)>>,
    ) -> Timeline {
        let rows = store.rows();
        let span = span.unwrap_or_else(|| {
            let spans = in_slices(shown, parts, |slice| {
                let mut span: Option<(i64, i64)> = None;
                for &i in slice {
                    let ts = rows[i as usize].ts;
                    if ts != NO_TIME {
                        span = Some(span.map_or((ts, ts), |(lo, hi)| (lo.min(ts), hi.max(ts))));
                    }
                }
                span
            });
            spans
                .into_iter()
                .flatten()
                .reduce(|(lo, hi), (a, b)| (lo.min(a), hi.max(b)))
        });
        let Some((lo, hi)) = span else {
            return Timeline {
                step: 0,
                buckets: Vec::new(),
                untimed: shown.len(),
            };
        };
        let step = choose_step(lo, hi, max_buckets.max(1));
        let first = lo.div_euclid(step);
        let count = (hi.div_euclid(step) - first + 1) as usize;
        let kinds = Kinds::of(store);
        let counted = in_slices(shown, parts, |slice| {
            let mut buckets: Vec<Bucket> = (0..count)
                .map(|k| Bucket {
                    start: (first + k as i64) * step,
                    ..Bucket::default()
                })
                .collect();
            let mut untimed = 0;
            for &i in slice {
                let row = &rows[i as usize];
                if row.ts == NO_TIME {
                    untimed += 1;
                    continue;
                }
                let b = &mut buckets[(row.ts.div_euclid(step) - first) as usize];
                b.by_type[kinds.slot(row.kind)] += 1;
                b.finals += u32::from(row.is_terminal() == Some(true));
            }
            (buckets, untimed)
        });
        let untimed = counted.iter().map(|&(_, n)| n).sum();
        let mut counted = counted.into_iter().map(|(buckets, _)| buckets);
        let mut buckets = counted.next().expect("at least one slice");
        for more in counted {
            for (b, m) in buckets.iter_mut().zip(more) {
                for (n, k) in b.by_type.iter_mut().zip(m.by_type) {
                    *n += k;
                }
                b.finals += m.finals;
            }
        }
        Timeline {
            step,
            buckets,
            untimed,
        }
    }

    /// The `[since, until]` nanoseconds (both inclusive, as `Filter::since`/`until` take them)
    /// covering buckets `from..=to`, in either order; `None` when the timeline is empty.
    pub fn range(&self, from: usize, to: usize) -> Option<(i64, i64)> {
        let last = self.buckets.len().checked_sub(1)?;
        let (a, b) = (from.min(to).min(last), from.max(to).min(last));
        Some((
            self.buckets[a].start,
            self.buckets[b].start.saturating_add(self.step - 1),
        ))
    }

    /// The bucket holding time `ts`, if the timeline spans it (to mark the selected event).
    pub fn bucket_at(&self, ts: i64) -> Option<usize> {
        let first = self.buckets.first()?.start;
        if ts == NO_TIME || ts < first {
            return None;
        }
        let k = ((ts - first) / self.step) as usize;
        (k < self.buckets.len()).then_some(k)
    }

    /// The bucket size for people: `1s`, `15m`, `1h`, `2d`.
    pub fn step_label(&self) -> String {
        step_label(self.step)
    }

    /// The largest bucket total, for scaling bars.
    pub fn peak(&self) -> u32 {
        self.buckets.iter().map(Bucket::total).max().unwrap_or(0)
    }
}

/// Whether `shown` (distinct rows, or not) is every row of the store: the rows in load order.
fn every_row(store: &Store, shown: &[u32]) -> bool {
    shown.len() == store.len()
        && shown
            .last()
            .is_none_or(|&last| last as usize + 1 == store.len())
        && shown.windows(2).all(|w| w[0] < w[1])
}

fn buckets_needed(lo: i64, hi: i64, step: i64) -> i64 {
    hi.div_euclid(step) - lo.div_euclid(step) + 1
}

fn choose_step(lo: i64, hi: i64, max: usize) -> i64 {
    let max = max as i64;
    if let Some(&step) = BUCKET_STEPS
        .iter()
        .find(|&&step| buckets_needed(lo, hi, step) <= max)
    {
        return step;
    }
    let mut days = (hi - lo) / DAY / max + 1;
    while buckets_needed(lo, hi, days * DAY) > max {
        days += 1;
    }
    days * DAY
}

pub fn step_label(step: i64) -> String {
    let secs = step / S;
    if secs == 0 {
        "-".to_string()
    } else if secs % 86_400 == 0 {
        format!("{}d", secs / 86_400)
    } else if secs % 3600 == 0 {
        format!("{}h", secs / 3600)
    } else if secs % 60 == 0 {
        format!("{}m", secs / 60)
    } else {
        format!("{secs}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insight::testing::{SEC, T0, all, demo, ev, generated, store};

    #[test]
    fn the_smallest_step_that_fits_is_chosen() {
        // T0 is on the hour, so 0..=59 s fits 60 one-second buckets exactly.
        assert_eq!(choose_step(T0, T0 + 59 * SEC, 60), S);
        assert_eq!(choose_step(T0, T0 + 60 * SEC, 60), 5 * S);
        assert_eq!(choose_step(T0, T0 + 3600 * SEC, 10), 15 * 60 * S);
        assert_eq!(choose_step(T0, T0 + 3 * 86_400 * SEC, 10), 12 * 3600 * S);
        assert_eq!(choose_step(T0, T0 + 30 * 86_400 * SEC, 10), 4 * DAY);
        assert_eq!(choose_step(T0, T0, 1), S);
        assert_eq!(step_label(15 * 60 * S), "15m");
        assert_eq!(step_label(4 * DAY), "4d");
        assert_eq!(step_label(30 * S), "30s");
    }

    #[test]
    fn events_are_counted_per_bucket_type_and_finality() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 3, "join", "p1", true),
            ev(3, 7, "publish", "p2", false),
            ev(4, 14, "connect", "p3", true),
        ];
        let s = store(&events);
        let t = Timeline::compute(&s, &all(&s), 3);
        assert_eq!(t.step, 5 * S);
        assert_eq!(t.step_label(), "5s");
        assert_eq!(t.buckets.len(), 3);
        assert_eq!(t.buckets[0].start, T0);
        assert_eq!(t.buckets[0].by_type, [0, 0, 2, 0, 0, 0]);
        assert_eq!(t.buckets[0].finals, 1);
        assert_eq!(t.buckets[1].by_type, [1, 0, 0, 0, 0, 0]);
        assert_eq!(t.buckets[2].by_type, [0, 0, 0, 0, 1, 0]);
        assert_eq!(t.buckets[2].finals, 1);
        assert_eq!(t.peak(), 2);
        assert_eq!(t.untimed, 0);
    }

    #[test]
    fn a_range_of_buckets_gives_inclusive_filter_bounds() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 14, "join", "p1", false),
        ];
        let s = store(&events);
        let t = Timeline::compute(&s, &all(&s), 3);
        assert_eq!(t.range(1, 2), Some((T0 + 5 * SEC, T0 + 15 * SEC - 1)));
        assert_eq!(t.range(2, 1), t.range(1, 2));
        assert_eq!(t.range(0, 99), Some((T0, T0 + 15 * SEC - 1)));
        // The bounds select exactly the events of those buckets.
        let mut filter = crate::filter::Filter::default();
        let (since, until) = t.range(0, 0).unwrap();
        filter.since = Some(crate::filter::TimeBound {
            text: String::new(),
            nanos: since,
        });
        filter.until = Some(crate::filter::TimeBound {
            text: String::new(),
            nanos: until,
        });
        assert_eq!(s.filter(&filter), [0]);
        assert_eq!(t.bucket_at(T0 + 14 * SEC), Some(2));
        assert_eq!(t.bucket_at(T0 + 15 * SEC), None);
        assert_eq!(t.bucket_at(T0 - 1), None);
        assert_eq!(Timeline::default().range(0, 0), None);
    }

    #[test]
    fn events_without_a_time_are_counted_apart() {
        let mut untimed = ev(2, 0, "join", "p1", false);
        untimed.as_object_mut().unwrap().remove("timestamp");
        let s = store(&[untimed]);
        let t = Timeline::compute(&s, &all(&s), 10);
        assert!(t.buckets.is_empty());
        assert_eq!((t.step, t.untimed, t.range(0, 0)), (0, 1, None));
    }

    #[test]
    fn a_timeline_counted_in_slices_on_threads_is_the_timeline_of_one_pass() {
        let s = demo();
        let every = all(&s);
        let mut untimed = ev(9, 0, "join", "p1", false);
        untimed.as_object_mut().unwrap().remove("timestamp");
        let with_untimed = store(&[ev(1, 0, "join", "p1", false), untimed]);
        for (s, shown) in [
            (&s, every.clone()),
            (&s, every.iter().copied().filter(|i| i % 3 != 0).collect()),
            // Later events first: no slice's span is a piece of the whole in order.
            (&s, every.iter().rev().copied().collect()),
            (&s, every[..1].to_vec()),
            (&s, Vec::new()),
            (&with_untimed, vec![0, 1]),
            (&with_untimed, vec![1]),
            (&with_untimed, vec![1, 0]),
        ] {
            for max in [1, 24, 200] {
                let once = Timeline::compute_in(s, &shown, max, 1);
                for parts in [2, 3, 8] {
                    assert_eq!(
                        Timeline::compute_in(s, &shown, max, parts),
                        once,
                        "{parts} parts of {} events, {max} buckets",
                        shown.len()
                    );
                }
            }
        }
    }

    #[test]
    fn every_row_counted_in_one_pass_is_the_timeline_of_two() {
        let s = demo();
        let mut untimed = ev(9, 0, "join", "p1", false);
        untimed.as_object_mut().unwrap().remove("timestamp");
        let mut late = ev(3, 9_000, "publish", "p2", true);
        late["timestamp"] = serde_json::json!("not a time");
        let mixed = store(&[
            ev(1, 0, "join", "p1", false),
            untimed.clone(),
            ev(2, 7_200, "connect", "p1", true),
            late,
        ]);
        let none_timed = store(&[untimed]);
        let generated = generated(3_000, 4);
        for s in [&s, &mixed, &none_timed, &generated] {
            let every = all(s);
            assert!(every_row(s, &every));
            let mut twice = every.clone();
            if let Some(&last) = every.last().filter(|_| every.len() > 1) {
                // As many rows, but not every one: the last one twice.
                twice[0] = last;
                assert!(!every_row(s, &twice));
            }
            for max in [1, 24, 200] {
                for parts in [1, 2, 3] {
                    let plain = Timeline::counted_in(s, &every, max, parts, None);
                    assert_eq!(
                        Timeline::compute_in(s, &every, max, parts),
                        plain,
                        "{} rows, {max} buckets, {parts} parts",
                        s.len()
                    );
                    assert_eq!(
                        Timeline::compute_in(s, &twice, max, parts),
                        Timeline::counted_in(s, &twice, max, parts, None)
                    );
                }
            }
        }
        assert_eq!(Timeline::compute(&none_timed, &[0], 5).untimed, 1);
        assert_eq!(Timeline::compute(&mixed, &all(&mixed), 5).untimed, 2);
    }

    #[test]
    fn the_demo_fits_and_nothing_is_lost() {
        let s = demo();
        for max in [1, 7, 24, 80, 200] {
            let t = Timeline::compute(&s, &all(&s), max);
            assert!(t.buckets.len() <= max && !t.buckets.is_empty(), "{max}");
            let total: u32 = t.buckets.iter().map(Bucket::total).sum();
            assert_eq!(total as usize + t.untimed, s.len());
        }
        // The storm: the join bucket that peaks holds most of the storm's joins.
        let t = Timeline::compute(&s, &all(&s), 200);
        let peak = t.buckets.iter().max_by_key(|b| b.by_type[2]).unwrap();
        assert!(peak.by_type[2] > 50, "{peak:?}");
    }
}
