//! A filter reduced to what deciding one event takes: the one predicate that every reader of
//! events evaluates (the store on its compact rows, the dump's fast path on the fields it reads off
//! a line), each with values in its own form (an interned symbol, the bytes of a JSON string). A
//! part of the filter that a reader does not handle is a compile error here, not a silent
//! difference between two paths.

use super::{Condition, Filter, TimeBound};
use crate::event::Field;

/// What an event must be to match, with strings as a reader's values `V`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan<V> {
    /// The event's type is one of these; `None` for any type. Types a reader never saw are left
    /// out, so an empty list matches nothing.
    types: Option<Vec<V>>,
    conditions: Vec<Cond<V>>,
    terminal: Option<bool>,
    since: Option<i64>,
    until: Option<i64>,
    /// The search text, which the reader itself looks for.
    search: Option<String>,
    /// Values hidden whole: an event that meets every condition of one is left out.
    hidden: Vec<Vec<Cond<V>>>,
}

/// One condition of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cond<V> {
    pub field: Field,
    pub want: Want<V>,
    pub negate: bool,
}

/// The value a condition compares a field with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want<V> {
    /// No value: the event does not have the field.
    Absent,
    /// A string field holding this value.
    Text(V),
    /// A number field holding this number.
    Number(i64),
    /// A value no event holds: a string the reader never saw, digits that are no number. Equal
    /// to nothing.
    Nothing,
}

/// One event as a reader sees it.
pub trait Record {
    /// A string value in the reader's form.
    type Text;
    /// A string field's value; `None` when the event does not have it (or it is no string).
    fn text(&self, field: Field) -> Option<Self::Text>;
    /// A number field's value; `None` when the event does not have it (or it is no integer).
    fn number(&self, field: Field) -> Option<i64>;
    /// `is_terminal`, when it is a boolean.
    fn terminal(&self) -> Option<bool>;
    /// The timestamp in nanoseconds since the epoch, when it reads as one.
    fn time(&self) -> Option<i64>;
    /// Whether the plan's search text is in one of the event's values; `None` when telling
    /// takes more than the record holds (the store then reads the event's description).
    fn has_search_text(&self) -> Option<bool>;
}

impl<V> Plan<V> {
    /// The plan of `filter`, with each string turned into a reader's value by `value` (`None`:
    /// the reader holds no such string).
    pub fn new<'f>(filter: &'f Filter, mut value: impl FnMut(&'f str) -> Option<V>) -> Plan<V> {
        // Whole, so that a new part of the filter does not compile until it is decided here.
        let Filter {
            types,
            conditions,
            terminal,
            search,
            since,
            until,
            hidden,
        } = filter;
        let types = (!types.is_empty()).then(|| {
            types
                .iter()
                .filter_map(|t| value(t.name()))
                .collect::<Vec<V>>()
        });
        let mut cond = |c: &'f Condition| {
            let Condition {
                field,
                value: wanted,
                negate,
            } = c;
            let want = match wanted {
                None => Want::Absent,
                Some(number) if field.is_number() => {
                    number.trim().parse().map_or(Want::Nothing, Want::Number)
                }
                Some(text) => value(text).map_or(Want::Nothing, Want::Text),
            };
            Cond {
                field: *field,
                want,
                negate: *negate,
            }
        };
        let conditions = conditions.iter().map(&mut cond).collect();
        let hidden = hidden
            .iter()
            .map(|group| group.iter().map(&mut cond).collect())
            .collect();
        let nanos = |b: &Option<TimeBound>| b.as_ref().map(|b| b.nanos);
        Plan {
            types,
            conditions,
            terminal: *terminal,
            since: nanos(since),
            until: nanos(until),
            search: search.clone().filter(|s| !s.is_empty()),
            hidden,
        }
    }

    /// The search text, when the plan has one.
    pub fn search(&self) -> Option<&str> {
        self.search.as_deref()
    }

    /// The types an event may have, `None` for any.
    pub fn types(&self) -> Option<&[V]> {
        self.types.as_deref()
    }

    pub fn conditions(&self) -> &[Cond<V>] {
        &self.conditions
    }

    /// The `is_terminal` an event must have, when the plan asks for one (final errors only, or
    /// retried ones).
    pub fn terminal(&self) -> Option<bool> {
        self.terminal
    }

    /// Whether the types and `is_terminal` are all the plan asks of an event: an event whose
    /// type and `is_terminal` pass then matches.
    pub fn only_types_and_terminal(&self) -> bool {
        // Whole, so that a new part of the plan does not compile until it is decided here.
        let Plan {
            types: _,
            conditions,
            terminal: _,
            since,
            until,
            search,
            hidden,
        } = self;
        conditions.is_empty()
            && hidden.is_empty()
            && since.is_none()
            && until.is_none()
            && search.is_none()
    }

    /// Whether the event matches; `None` when all but the search hold and the record cannot
    /// tell whether the search text is in it.
    pub fn matches<R: Record>(&self, event: &R) -> Option<bool>
    where
        V: PartialEq<R::Text>,
    {
        if let Some(types) = &self.types {
            match event.text(Field::Type) {
                Some(kind) if types.iter().any(|t| *t == kind) => {}
                _ => return Some(false),
            }
        }
        if self.conditions.iter().any(|c| c.holds(event) == c.negate) {
            return Some(false);
        }
        if self
            .hidden
            .iter()
            .any(|group| group.iter().all(|c| c.holds(event) != c.negate))
        {
            return Some(false);
        }
        if let Some(t) = self.terminal
            && event.terminal() != Some(t)
        {
            return Some(false);
        }
        if self.since.is_some() || self.until.is_some() {
            let Some(ts) = event.time() else {
                return Some(false);
            };
            if self.since.is_some_and(|s| ts < s) || self.until.is_some_and(|u| ts > u) {
                return Some(false);
            }
        }
        if self.search.is_some() {
            return event.has_search_text();
        }
        Some(true)
    }
}

impl<V> Cond<V> {
    /// Whether the event's field has the value (negation aside).
    fn holds<R: Record>(&self, event: &R) -> bool
    where
        V: PartialEq<R::Text>,
    {
        match &self.want {
            Want::Absent if self.field.is_number() => event.number(self.field).is_none(),
            Want::Absent => event.text(self.field).is_none(),
            Want::Text(v) => event.text(self.field).is_some_and(|have| *v == have),
            Want::Number(n) => event.number(self.field) == Some(*n),
            Want::Nothing => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::EventType;

    /// An event of a few fields, its strings as themselves.
    #[derive(Default)]
    struct Fields {
        texts: Vec<(Field, &'static str)>,
        code: Option<i64>,
        terminal: Option<bool>,
        time: Option<i64>,
    }

    impl Record for Fields {
        type Text = &'static str;
        fn text(&self, field: Field) -> Option<&'static str> {
            self.texts
                .iter()
                .find(|(f, _)| *f == field)
                .map(|(_, v)| *v)
        }
        fn number(&self, field: Field) -> Option<i64> {
            (field == Field::Code).then_some(self.code).flatten()
        }
        fn terminal(&self) -> Option<bool> {
            self.terminal
        }
        fn time(&self) -> Option<i64> {
            self.time
        }
        fn has_search_text(&self) -> Option<bool> {
            None
        }
    }

    fn plan(filter: &Filter) -> Plan<String> {
        Plan::new(filter, |s| Some(s.to_string()))
    }

    fn event() -> Fields {
        Fields {
            texts: vec![
                (Field::Type, "client.join.failed"),
                (Field::Room, "r1"),
                (Field::Sdk, "web"),
            ],
            code: Some(500),
            terminal: Some(false),
            time: Some(10),
        }
    }

    #[test]
    fn a_negated_condition_hides_what_the_condition_keeps() {
        let e = event();
        for (condition, keeps) in [
            (Condition::is(Field::Sdk, "web"), true),
            (Condition::is(Field::Sdk, "ios"), false),
            (Condition::not(Field::Sdk, Some("web".into())), false),
            (Condition::not(Field::Sdk, Some("ios".into())), true),
            (Condition::not(Field::Role, None), false),
            (
                Condition {
                    field: Field::Role,
                    value: None,
                    negate: false,
                },
                true,
            ),
            (Condition::is(Field::Code, "500"), true),
            (Condition::is(Field::Code, " 500"), true),
            (Condition::is(Field::Code, "5OO"), false),
            (Condition::not(Field::Code, Some("5OO".into())), true),
            (Condition::not(Field::Code, None), true),
        ] {
            let mut f = Filter::default();
            f.add(condition.clone());
            assert_eq!(plan(&f).matches(&e), Some(keeps), "{condition:?}");
        }
    }

    #[test]
    fn a_value_hidden_whole_hides_the_events_that_have_all_of_it_and_no_other() {
        let e = event();
        let hiding = |group: Vec<Condition>| {
            let mut f = Filter::default();
            f.hide(group);
            plan(&f).matches(&e)
        };
        let web = Condition::is(Field::Sdk, "web");
        assert_eq!(
            hiding(vec![web.clone(), Condition::is(Field::Code, "500")]),
            Some(false)
        );
        assert_eq!(
            hiding(vec![web.clone(), Condition::is(Field::Code, "501")]),
            Some(true)
        );
        assert_eq!(
            hiding(vec![web, Condition::is(Field::Room, "never")]),
            Some(true)
        );
    }

    #[test]
    fn a_string_the_reader_never_saw_matches_nothing_and_hides_nothing() {
        let e = event();
        let unseen = |s: &str| (s != "never").then(|| s.to_string());
        let f = Filter::default().with(Field::Sdk, "never");
        assert_eq!(Plan::new(&f, unseen).matches(&e), Some(false));
        let mut f = Filter::default();
        f.add(Condition::not(Field::Sdk, Some("never".into())));
        assert_eq!(Plan::new(&f, unseen).matches(&e), Some(true));
        let f = Filter {
            types: vec![EventType::Other("never".into())],
            ..Filter::default()
        };
        assert_eq!(Plan::new(&f, unseen).matches(&e), Some(false));
    }

    #[test]
    fn the_search_is_asked_last_and_only_of_what_else_matches() {
        let e = event();
        let f = Filter {
            search: Some("x".into()),
            ..Filter::default()
        };
        assert_eq!(plan(&f).matches(&e), None);
        let f = Filter {
            search: Some("x".into()),
            terminal: Some(true),
            ..Filter::default()
        };
        assert_eq!(plan(&f).matches(&e), Some(false));
        let f = Filter {
            since: Some(TimeBound {
                text: "t".into(),
                nanos: 11,
            }),
            ..Filter::default()
        };
        assert_eq!(plan(&f).matches(&e), Some(false));
        let no_time = Fields {
            time: None,
            ..event()
        };
        let f = Filter {
            until: Some(TimeBound {
                text: "t".into(),
                nanos: 11,
            }),
            ..Filter::default()
        };
        assert_eq!(plan(&f).matches(&e), Some(true));
        assert_eq!(plan(&f).matches(&no_time), Some(false));
    }
}
