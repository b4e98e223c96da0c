//! Why a filter left nothing, when the events read can say: a room given by its name where its
//! id is wanted, or a time range that misses every event; and, whatever the events, a value
//! that reads as more than it is (a comma list, the explorer's `(none)`). `list` says it on
//! stderr, the explorer in its empty list, each with how to ask again.

use crate::event::Field;
use crate::filter::{Filter, TimeBound};
use crate::store::Store;
use crate::text::for_terminal;

/// What the events read say of a filter that left nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhyEmpty {
    /// No event is in a room of this id, but events name a room so: the ids of those rooms,
    /// sorted (one, or several of the same name).
    RoomName { value: String, ids: Vec<String> },
    /// The time range asked for (`since 2h (2026-11-18T…)`) misses every event read, which
    /// span `from` to `to`.
    TimeSpan { asked: String, from: i64, to: i64 },
    /// The time range asked for ends before it begins (`since` after `until`): no time is in
    /// it. Each bound as asked, with its time.
    Reversed { since: String, until: String },
    /// A value required of a field that is matched as written, though it reads as more: a list
    /// (`web,android`: one value, commas included, as a device model holds them; only the
    /// types are given as a list), or `(none)` (the explorer's word for an absent value, which
    /// the command line takes as text). Said as what may have left nothing: where no events
    /// are at hand to tell, another filter may have.
    Literal { field: Field, value: String },
}

impl WhyEmpty {
    /// The reason in words, safe for a terminal, without how to ask again.
    pub fn words(&self) -> String {
        match self {
            WhyEmpty::RoomName { value, ids } => {
                let value = for_terminal(value);
                match ids.as_slice() {
                    [id] => format!(
                        "no event is in a room of id {value}; the room named {value} has the id {}",
                        for_terminal(id)
                    ),
                    several => format!(
                        "no event is in a room of id {value}; rooms named {value} have the ids {}",
                        for_terminal(&several.join(", "))
                    ),
                }
            }
            WhyEmpty::TimeSpan { asked, from, to } => format!(
                "no event matches {}; the events read span {} to {}",
                for_terminal(asked),
                crate::time::format_nanos(*from),
                crate::time::format_nanos(*to)
            ),
            WhyEmpty::Reversed { since, until } => format!(
                "{} is after {}: no time is in that range",
                for_terminal(since),
                for_terminal(until)
            ),
            WhyEmpty::Literal { field, value } if value == crate::text::NONE => format!(
                "nothing matched, and {field}={value} is matched as written: (none), the \
                 explorer's word for an absent {field}, is not one here"
            ),
            WhyEmpty::Literal { field, value } => format!(
                "nothing matched, and {field}={} is one value, matched whole, commas included \
                 (only the types are given as a list): ask for one {field} at a time",
                for_terminal(value)
            ),
        }
    }
}

/// What the events of `store` say of `filter`, when it leaves nothing for a reason they show.
pub fn why_empty(filter: &Filter, store: &Store) -> Vec<WhyEmpty> {
    let mut why: Vec<WhyEmpty> = [room_name(filter, store), time_span(filter, store)]
        .into_iter()
        .flatten()
        .collect();
    // A value some event holds as written is no reason: another filter left nothing.
    why.extend(literal_values(filter).into_iter().filter(|why| match why {
        WhyEmpty::Literal { field, value } => !holds(store, *field, value),
        _ => true,
    }));
    why
}

/// Whether an event of `store` has `value`, as written, in `field`.
fn holds(store: &Store, field: Field, value: &str) -> bool {
    store
        .strings()
        .lookup(value)
        .is_some_and(|sym| store.rows().iter().any(|r| store.text(r, field) == sym))
}

/// What `filter` alone says of leaving nothing: each value required of a field that reads as
/// more than the text it is matched as (see [`WhyEmpty::Literal`]). The time range that ends
/// before it begins is [`why_empty`]'s, with the events.
pub fn literal_values(filter: &Filter) -> Vec<WhyEmpty> {
    filter
        .conditions
        .iter()
        .filter(|c| !c.negate && c.field != Field::Type && !c.field.is_number())
        .filter_map(|c| {
            let value = c.value.as_deref()?;
            (value == crate::text::NONE || value.contains(',')).then(|| WhyEmpty::Literal {
                field: c.field,
                value: value.to_string(),
            })
        })
        .collect()
}

/// A room's name given where its id is wanted: said when no event is in a room of that id and
/// events name a room so (in any case).
fn room_name(filter: &Filter, store: &Store) -> Option<WhyEmpty> {
    let value = filter.room()?;
    let rows = store.rows();
    // An id some event is in: compared as interned symbols, not as text.
    if store
        .strings()
        .lookup(value)
        .is_some_and(|sym| rows.iter().any(|r| r.room_id == sym))
    {
        return None;
    }
    let ids = room_ids_named(store, value);
    (!ids.is_empty()).then(|| WhyEmpty::RoomName {
        value: value.to_string(),
        ids: ids.into_iter().map(str::to_string).collect(),
    })
}

/// The ids of the rooms the loaded events give this name (in any case), sorted, each once.
pub fn room_ids_named<'a>(store: &'a Store, name: &str) -> Vec<&'a str> {
    let mut ids: Vec<&str> = store
        .rows()
        .iter()
        .filter(|r| !r.room_name.is_none() && store.str(r.room_name).eq_ignore_ascii_case(name))
        .map(|r| store.str(r.room_id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// A time range that misses every event read, whatever the other filters; or one that ends
/// before it begins, whatever the events.
fn time_span(filter: &Filter, store: &Store) -> Option<WhyEmpty> {
    let bound = |b: &TimeBound, word: &str| {
        format!("{word} {} ({})", b.text, crate::time::format_nanos(b.nanos))
    };
    if let (Some(since), Some(until)) = (&filter.since, &filter.until)
        && since.nanos > until.nanos
    {
        return Some(WhyEmpty::Reversed {
            since: bound(since, "since"),
            until: bound(until, "until"),
        });
    }
    let (from, to) = store.time_range_read()?;
    let after = filter.since.as_ref().is_some_and(|s| s.nanos > to);
    let before = filter.until.as_ref().is_some_and(|u| u.nanos < from);
    if !after && !before {
        return None;
    }
    let asked: Vec<String> = [
        filter.since.as_ref().map(|b| bound(b, "since")),
        filter.until.as_ref().map(|b| bound(b, "until")),
    ]
    .into_iter()
    .flatten()
    .collect();
    Some(WhyEmpty::TimeSpan {
        asked: asked.join(" and "),
        from,
        to,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Field;
    use crate::store::Batch;

    fn store_of(lines: &[&str]) -> Store {
        let mut store = Store::default();
        store.merge(Batch::of_objects(lines.iter().map(|l| l.to_string())).unwrap());
        store
    }

    const EVENTS: [&str; 2] = [
        r#"{"id":"a","type":"client.join.failed","timestamp":"2026-11-18T10:00:00Z","data":{"room_id":"r1","room_name":"standup"}}"#,
        r#"{"id":"b","type":"client.join.failed","timestamp":"2026-11-18T11:00:00Z","data":{"room_id":"r2","room_name":"Standup"}}"#,
    ];

    #[test]
    fn a_room_name_is_said_with_the_ids_of_the_rooms_so_named() {
        let store = store_of(&EVENTS);
        let filter = Filter::default().with(Field::Room, "STANDUP");
        assert_eq!(
            why_empty(&filter, &store),
            [WhyEmpty::RoomName {
                value: "STANDUP".into(),
                ids: vec!["r1".into(), "r2".into()],
            }]
        );
        // An id some event has, or a name no event has, says nothing.
        assert!(why_empty(&Filter::default().with(Field::Room, "r1"), &store).is_empty());
        assert!(why_empty(&Filter::default().with(Field::Room, "retro"), &store).is_empty());
    }

    #[test]
    fn a_value_that_reads_as_a_list_or_as_none_is_said_whatever_the_events() {
        let mut filter = Filter::default()
            .with(Field::Sdk, "web,android")
            .with(Field::Session, "(none)")
            .with(Field::Os, "ios");
        filter.types = vec![crate::event::EventType::from_name("client.join.failed")];
        filter.add(crate::filter::Condition::not(
            Field::Device,
            Some("a,b".into()),
        ));
        let said = vec![
            WhyEmpty::Literal {
                field: Field::Session,
                value: "(none)".into(),
            },
            WhyEmpty::Literal {
                field: Field::Sdk,
                value: "web,android".into(),
            },
        ];
        assert_eq!(literal_values(&filter), said);
        assert_eq!(why_empty(&filter, &store_of(&[])), said);
        assert!(literal_values(&Filter::default().with(Field::Os, "ios")).is_empty());
    }

    #[test]
    fn a_value_with_a_comma_that_some_event_holds_is_no_reason_for_nothing() {
        // The room r1 holds "Pixel 7, Pro"; the room asked for is another: the room left nothing.
        let store = store_of(&[
            r#"{"id":"a","type":"client.join.failed","timestamp":"2026-11-18T10:00:00Z","data":{"room_id":"r1","user_name":"Pixel 7, Pro"}}"#,
        ]);
        let held = Filter::default()
            .with(Field::UserName, "Pixel 7, Pro")
            .with(Field::Room, "r2");
        assert_eq!(store.filter(&held), Vec::<u32>::new());
        assert_eq!(why_empty(&held, &store), vec![]);
        // Held in another field, it is still said.
        let elsewhere = Filter::default().with(Field::RoomName, "Pixel 7, Pro");
        assert_eq!(why_empty(&elsewhere, &store).len(), 1);
    }

    #[test]
    fn a_range_that_misses_every_event_says_what_they_span() {
        let store = store_of(&EVENTS);
        let mut filter = Filter {
            since: Some(TimeBound::rfc3339("2026-11-19T00:00:00Z")),
            ..Filter::default()
        };
        let why = why_empty(&filter, &store);
        let [WhyEmpty::TimeSpan { from, to, .. }] = why.as_slice() else {
            panic!("{why:?}");
        };
        assert!(from < to);
        assert!(
            why[0]
                .words()
                .contains("span 2026-11-18T10:00:00.000000000Z to 2026-11-18T11:00:00"),
            "{}",
            why[0].words()
        );
        // A range that holds an event, whatever the other filters, says nothing.
        filter.since = Some(TimeBound::rfc3339("2026-11-18T10:30:00Z"));
        assert!(why_empty(&filter, &store).is_empty());
    }

    #[test]
    fn a_range_that_ends_before_it_begins_is_said_whatever_the_events() {
        let bound = TimeBound::rfc3339;
        let filter = Filter {
            since: Some(bound("2026-11-18T10:30:00Z")),
            until: Some(bound("2026-11-18T10:20:00Z")),
            ..Filter::default()
        };
        let said = vec![WhyEmpty::Reversed {
            since: "since 2026-11-18T10:30:00Z (2026-11-18T10:30:00.000000000Z)".into(),
            until: "until 2026-11-18T10:20:00Z (2026-11-18T10:20:00.000000000Z)".into(),
        }];
        // Within the events' span, and with no event at all.
        assert_eq!(why_empty(&filter, &store_of(&EVENTS)), said);
        assert_eq!(why_empty(&filter, &Store::default()), said);
        assert_eq!(
            said[0].words(),
            "since 2026-11-18T10:30:00Z (2026-11-18T10:30:00.000000000Z) is after until \
             2026-11-18T10:20:00Z (2026-11-18T10:20:00.000000000Z): no time is in that range"
        );
        // The same instant for both is a range of one instant, not a reversed one.
        let one = Filter {
            since: Some(bound("2026-11-18T10:00:00Z")),
            until: Some(bound("2026-11-18T10:00:00Z")),
            ..Filter::default()
        };
        assert!(why_empty(&one, &store_of(&EVENTS)).is_empty());
    }
}
