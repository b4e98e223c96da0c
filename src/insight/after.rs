//! Where one event stands in its retry chain (the same peer and action), for the detail pane. The
//! chains are those of a peer's story ([`crate::insight::story`]); the API reports failures only,
//! never successes, and the words here claim no more than that.

use super::chains::CHAIN_GAP;
use super::{Ending, Outside, chain_at};
use crate::store::Store;
use crate::time::Zone;

/// The event's chain, as far as the loaded events show it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct After {
    /// How many later errors its chain holds.
    pub later: usize,
    /// The time of the chain's final error (`is_terminal` true), when it is later than this event.
    pub final_at: Option<i64>,
    /// The time of the chain's last error, when it is later than this event.
    pub last_at: Option<i64>,
    /// The time of the chain's next error after this event, if any.
    pub next_at: Option<i64>,
    /// How many earlier errors its chain holds.
    pub earlier: usize,
    /// This event's attempt in its chain, from 1; 0 when it is in no chain.
    pub attempt: usize,
    /// How many errors its chain holds; 0 when it is in no chain.
    pub attempts: usize,
    /// How its chain ended.
    pub ending: Option<Ending>,
    /// Why the event is in no chain.
    pub outside: Option<Outside>,
}

impl After {
    /// Reads the store for the event at `i`.
    pub fn of(store: &Store, i: usize) -> After {
        let at = match chain_at(store, i) {
            Ok(at) => at,
            Err(outside) => {
                return After {
                    outside: Some(outside),
                    ..After::default()
                };
            }
        };
        let chain = &at.chain;
        let later = chain.attempts() - at.position - 1;
        let last_at = (later > 0).then_some(chain.last);
        let next_at = chain
            .events
            .get(at.position + 1)
            .map(|&e| store.row(e as usize).ts);
        After {
            later,
            final_at: match chain.ending {
                Ending::GaveUp { at, .. } if later > 0 => Some(at),
                _ => None,
            },
            last_at,
            next_at,
            earlier: at.position,
            attempt: at.position + 1,
            attempts: chain.attempts(),
            ending: Some(chain.ending),
            outside: None,
        }
    }

    /// One sentence on the event's place in its chain and what followed it, e.g. `attempt 3 of
    /// 7 in this chain; 4 later errors follow, the next at 11:06:01; gave up: final error at
    /// 11:06:02`, its times of day in `zone`. The chain's ending is told as what came after
    /// its last error, which this event is only when no later error follows it.
    pub fn sentence(&self, action: &str, zone: Zone) -> String {
        if let Some(outside) = self.outside {
            return outside.words().to_string();
        }
        let Some(ending) = &self.ending else {
            let action = if action.is_empty() {
                "this action"
            } else {
                action
            };
            return format!("no later error for {action} among the loaded events");
        };
        let place = if self.attempts == 1 {
            "the only error in this chain".to_string()
        } else {
            format!(
                "attempt {} of {} in this chain",
                self.attempt, self.attempts
            )
        };
        let (Some(next), Some(last)) = (self.next_at, self.last_at) else {
            return format!("{place}; {}", ending.words(zone));
        };
        // The last error, named by its time unless it is the next one.
        let (follow, last) = match self.later {
            1 => (
                format!("1 later error follows, at {}", zone.clock(next)),
                None,
            ),
            n => (
                format!("{n} later errors follow, the next at {}", zone.clock(next)),
                Some(zone.clock(last)),
            ),
        };
        let end = match (*ending, last) {
            (Ending::GaveUp { .. }, Some(_)) => ending.words(zone),
            (Ending::GaveUp { next, .. }, None) => match next {
                None => "gave up: it is final".into(),
                Some(n) => format!(
                    "gave up: it is final; a new chain for this action began at {}",
                    zone.clock(n)
                ),
            },
            (Ending::NoLaterError, None) => "none after it among the loaded events".into(),
            (Ending::NoLaterError, Some(last)) => {
                format!("none after the last, at {last}, among the loaded events")
            }
            (Ending::Moved { next, to }, last) => {
                let (here, there) = to.words();
                format!(
                    "none {here} after {}; an error at {}, which {there}, starts a new chain",
                    last.map_or("it".into(), |l| format!("the last, at {l}")),
                    zone.clock(next)
                )
            }
            (Ending::Quiet { next }, last) => format!(
                "none within {} min of {}; an error at {} starts a new chain",
                CHAIN_GAP / (60 * 1_000_000_000),
                last.map_or("it".into(), |l| format!("the last, at {l}")),
                zone.clock(next)
            ),
        };
        format!("{place}; {follow}; {end}")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::CHAIN_GAP;

    fn store(events: &[serde_json::Value]) -> Store {
        let mut store = Store::new();
        let events = events.iter().map(|e| e.to_string());
        store.merge(crate::store::Batch::of_objects(events).unwrap());
        store
    }

    fn join(n: u32, secs: i64, terminal: bool) -> serde_json::Value {
        let t0 = crate::time::parse_rfc3339_nanos("2026-11-18T11:06:00Z").unwrap();
        json!({
            "id": format!("00000000-0000-4000-8000-{n:012x}"),
            "timestamp": crate::time::format_nanos(t0 + secs * 1_000_000_000),
            "type": "client.join.failed",
            "data": {"peer_id": "p", "room_id": "r", "is_terminal": terminal, "action": "JOIN"}
        })
    }

    #[test]
    fn an_event_is_placed_in_its_chain_and_the_ending_is_told() {
        let s = store(&[join(1, 0, false), join(2, 1, false), join(3, 2, true)]);
        let after = After::of(&s, 1);
        assert_eq!(
            (after.earlier, after.later, after.attempt, after.attempts),
            (1, 1, 2, 3)
        );
        assert!(after.final_at.is_some());
        assert_eq!(
            after.sentence("JOIN", Zone::Utc),
            "attempt 2 of 3 in this chain; 1 later error follows, at 11:06:02; gave up: it is \
             final"
        );
        assert_eq!(
            After::of(&s, 2).sentence("JOIN", Zone::Utc),
            "attempt 3 of 3 in this chain; gave up: final error at 11:06:02"
        );
        let last = After::of(&s, 2);
        assert_eq!((last.later, last.final_at, last.last_at), (0, None, None));
        let s = store(&[join(1, 0, false), join(2, 1, false), join(3, 2, true)]);
        assert_eq!(
            After::of(&s, 0).sentence("JOIN", Zone::Utc),
            "attempt 1 of 3 in this chain; 2 later errors follow, the next at 11:06:01; gave up: \
             final error at 11:06:02"
        );
    }

    #[test]
    fn a_chain_without_a_final_error_claims_nothing_more() {
        let s = store(&[join(1, 0, false), join(2, 5, false), join(3, 9, false)]);
        // Only the last error is one no later error follows.
        assert_eq!(
            After::of(&s, 0).sentence("JOIN", Zone::Utc),
            "attempt 1 of 3 in this chain; 2 later errors follow, the next at 11:06:05; none \
             after the last, at 11:06:09, among the loaded events"
        );
        assert_eq!(
            After::of(&s, 1).sentence("JOIN", Zone::Utc),
            "attempt 2 of 3 in this chain; 1 later error follows, at 11:06:09; none after it \
             among the loaded events"
        );
        assert_eq!(
            After::of(&s, 2).sentence("JOIN", Zone::Utc),
            "attempt 3 of 3 in this chain; no later error for this action among the loaded events"
        );
        let s = store(&[join(1, 0, false)]);
        assert_eq!(
            After::of(&s, 0).sentence("JOIN", Zone::Utc),
            "the only error in this chain; no later error for this action among the loaded events"
        );
    }

    #[test]
    fn a_later_chain_is_not_counted_as_later_attempts() {
        let gap = CHAIN_GAP / 1_000_000_000;
        let s = store(&[
            join(1, 0, true),
            join(2, 60, false),
            join(3, 61, false),
            join(4, 62 + gap, false),
        ]);
        let first = After::of(&s, 0);
        assert_eq!((first.attempts, first.later), (1, 0));
        assert_eq!(
            first.sentence("JOIN", Zone::Utc),
            "the only error in this chain; gave up: final error at 11:06:00; a new chain for this action began at 11:07:00"
        );
        assert_eq!(
            After::of(&s, 1).sentence("JOIN", Zone::Utc),
            "attempt 1 of 2 in this chain; 1 later error follows, at 11:07:01; none within 10 \
             min of it; an error at 11:17:02 starts a new chain"
        );
        assert_eq!(
            After::of(&s, 2).sentence("JOIN", Zone::Utc),
            "attempt 2 of 2 in this chain; no later error for this action within 10 min; the \
             next one, at 11:17:02, starts a new chain"
        );
    }

    /// The detail pane says where the error that broke the chain was: in another room, or
    /// naming none.
    #[test]
    fn a_chain_broken_by_a_room_change_says_where_the_next_error_was() {
        let mut other = join(3, 2, false);
        other["data"]["room_id"] = json!("r2");
        let mut roomless = join(4, 3, false);
        roomless["data"].as_object_mut().unwrap().remove("room_id");
        let s = store(&[
            join(1, 0, false),
            join(2, 1, false),
            other,
            roomless,
            join(5, 4, false),
        ]);
        assert_eq!(
            After::of(&s, 0).sentence("JOIN", Zone::Utc),
            "attempt 1 of 2 in this chain; 1 later error follows, at 11:06:01; none in this room \
             after it; an error at 11:06:02, which is in another room, starts a new chain"
        );
        assert_eq!(
            After::of(&s, 2).sentence("JOIN", Zone::Utc),
            "the only error in this chain; no later error for this action in this room; the next \
             one, at 11:06:03, names no room and starts a new chain"
        );
        assert_eq!(
            After::of(&s, 3).sentence("JOIN", Zone::Utc),
            "the only error in this chain; no later error for this action naming no room; the \
             next one, at 11:06:04, names a room and starts a new chain"
        );
    }

    #[test]
    fn events_outside_chains_say_why() {
        let mut track = join(1, 0, false);
        track["type"] = json!("track.add.success");
        let s = store(&[track]);
        assert_eq!(After::of(&s, 0).outside, Some(Outside::NotAnError));
        assert!(
            After::of(&s, 0)
                .sentence("", Zone::Utc)
                .contains("no retry chain")
        );
        assert_eq!(
            After::default().sentence("", Zone::Utc),
            "no later error for this action among the loaded events"
        );
    }
}
