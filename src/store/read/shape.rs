//! Whether an event holds a field the store reads with a value of another JSON type than the
//! API's (`"is_terminal": "true"`, `"timestamp": 1763460000`): such a field reads as absent,
//! and a load counts the events that hold one, to say so. Only the thorough reader asks: the
//! plain reader gives way on every such event (`plain`'s common shape), so the common event
//! costs nothing more.
//!
//! A `null` is an absent value, not one of another type.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// serde_json's name for a number kept as written (`arbitrary_precision`): such a number comes
/// to a visitor as a map of this one key.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A field found holding a value of another JSON type than the API's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddField {
    /// Its name in the event (`is_terminal`; an agent's field by its own name, `sdk`).
    pub name: &'static str,
    /// What it holds, in words: `a string`, `a number`, `true or false`, `a list`, `an object`.
    pub holds: &'static str,
}

/// The events of a load that hold a field of another type than the API's: how many, and how
/// many of them hold each kind of odd field (an event counted once, by its first such field).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct OddFields {
    pub events: usize,
    /// Each field and what it held, with the count of events whose first odd field it is, in
    /// the order first met.
    pub kinds: Vec<(OddField, usize)>,
}

/// The most kinds of odd field a note names; the others are counted after them.
const KINDS_NAMED: usize = 3;

impl OddFields {
    /// Counts an event holding `field` (its first odd field).
    pub fn note(&mut self, field: OddField) {
        self.note_many(field, 1);
    }

    fn note_many(&mut self, field: OddField, events: usize) {
        self.events += events;
        match self.kinds.iter_mut().find(|(f, _)| *f == field) {
            Some((_, count)) => *count += events,
            None => self.kinds.push((field, events)),
        }
    }

    /// Adds the count of another part of the same load, met after this one.
    pub fn add(&mut self, other: OddFields) {
        for (field, count) in other.kinds {
            self.note_many(field, count);
        }
    }

    /// What is said of them, `None` when there are none: `3 events hold a field of another
    /// type than the API's, read as absent (is_terminal: a string)` when they hold one kind,
    /// else each kind with its count, the most held first: `(is_terminal: a string, 2 events;
    /// timestamp: a number, 1 event)`, and past three kinds `and 2 more kinds, 2 events`.
    pub fn sentence(&self) -> Option<String> {
        if self.events == 0 || self.kinds.is_empty() {
            return None;
        }
        let thousands = crate::text::thousands;
        let (count, hold) = match self.events {
            1 => ("1 event".to_string(), "holds"),
            n => (format!("{} events", thousands(n)), "hold"),
        };
        let kinds = match self.kinds.as_slice() {
            [(only, _)] => format!("{}: {}", only.name, only.holds),
            kinds => {
                let mut kinds = kinds.to_vec();
                // Stable: of kinds held as often, the first met first.
                kinds.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
                let events = |n| crate::text::plural(n, "event", "events");
                let mut words: Vec<String> = kinds
                    .iter()
                    .take(KINDS_NAMED)
                    .map(|(f, n)| format!("{}: {}, {}", f.name, f.holds, events(*n)))
                    .collect();
                let rest = &kinds[KINDS_NAMED.min(kinds.len())..];
                if !rest.is_empty() {
                    let held: usize = rest.iter().map(|&(_, n)| n).sum();
                    let more = crate::text::plural(rest.len(), "more kind", "more kinds");
                    words.push(format!("and {more}, {}", events(held)));
                }
                words.join("; ")
            }
        };
        Some(format!(
            "{count} {hold} a field of another type than the API's, read as absent ({kinds})"
        ))
    }
}

/// The JSON type the API gives a field.
#[derive(Clone, Copy)]
enum Wanted {
    Text,
    Number,
    Bool,
    Object(&'static [(&'static str, Wanted)]),
}

/// A value's JSON type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Bool,
    Number,
    Text,
    List,
    Object,
}

impl Kind {
    fn words(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "true or false",
            Kind::Number => "a number",
            Kind::Text => "a string",
            Kind::List => "a list",
            Kind::Object => "an object",
        }
    }

    fn is(self, wanted: Wanted) -> bool {
        matches!(
            (self, wanted),
            (Kind::Null, _)
                | (Kind::Text, Wanted::Text)
                | (Kind::Number, Wanted::Number)
                | (Kind::Bool, Wanted::Bool)
                | (Kind::Object, Wanted::Object(_))
        )
    }
}

const AGENT: &[(&str, Wanted)] = &[
    ("sdk", Wanted::Text),
    ("sdk_version", Wanted::Text),
    ("device_model", Wanted::Text),
    ("os", Wanted::Text),
    ("os_version", Wanted::Text),
    ("domain", Wanted::Text),
    ("string", Wanted::Text),
];

const DATA: &[(&str, Wanted)] = &[
    ("user_id", Wanted::Text),
    ("user_name", Wanted::Text),
    ("peer_id", Wanted::Text),
    ("room_id", Wanted::Text),
    ("room_name", Wanted::Text),
    ("session_id", Wanted::Text),
    ("role", Wanted::Text),
    ("error_code", Wanted::Number),
    ("error_name", Wanted::Text),
    ("error_message", Wanted::Text),
    ("is_terminal", Wanted::Bool),
    ("action", Wanted::Text),
    ("domain", Wanted::Text),
    ("agent", Wanted::Object(AGENT)),
];

const EVENT: &[(&str, Wanted)] = &[
    ("id", Wanted::Text),
    ("timestamp", Wanted::Text),
    ("type", Wanted::Text),
    ("data", Wanted::Object(DATA)),
];

/// The most fields an object of [`EVENT`], [`DATA`] or [`AGENT`] names.
const MOST: usize = 14;

/// The first field of the event `raw` (a JSON object) that holds a value of another type than
/// the API's, the fields in the order the API lists them, the last of a key given twice read
/// (as the thorough reader reads it); `Ok(None)` when there is none. An error is serde_json's
/// for a value it cannot read: its strings are read as text here, which the probe reads as
/// bytes.
pub fn odd_field(raw: &[u8]) -> Result<Option<OddField>, serde_json::Error> {
    let (_, odd) = serde_json::from_slice::<Shape>(raw)?.0;
    Ok(odd)
}

/// A JSON value's type, and the first odd field in it when it is an object of `fields`.
struct Shape((Kind, Option<OddField>));

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Of(EVENT).deserialize(d).map(Shape)
    }
}

/// Reads a value whose fields, when it is an object, are `.0`.
struct Of(&'static [(&'static str, Wanted)]);

impl<'de> DeserializeSeed<'de> for Of {
    type Value = (Kind, Option<OddField>);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A key of an object: the index of the field of `.0` it names, if any.
struct KeyIn(&'static [(&'static str, Wanted)]);

/// What a key names.
enum Key {
    Field(usize),
    Number,
    Other,
}

impl<'de> DeserializeSeed<'de> for KeyIn {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIn {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match self.0.iter().position(|&(name, _)| name == key) {
            Some(i) => Key::Field(i),
            None if key == NUMBER_TOKEN => Key::Number,
            None => Key::Other,
        })
    }
}

impl<'de> Visitor<'de> for Of {
    type Value = (Kind, Option<OddField>);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok((Kind::Bool, None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok((Kind::Number, None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok((Kind::Number, None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok((Kind::Number, None))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok((Kind::Text, None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok((Kind::Null, None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok((Kind::List, None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let fields = self.0;
        // Each field's type and the first odd field under it, the last of a key given twice.
        let mut found: [Option<(Kind, Option<OddField>)>; MOST] = [None; MOST];
        let mut first = true;
        while let Some(key) = map.next_key_seed(KeyIn(fields))? {
            match key {
                Key::Field(i) => {
                    found[i] = Some(match fields[i].1 {
                        Wanted::Object(inner) => map.next_value_seed(Of(inner))?,
                        _ => map.next_value_seed(Of(&[]))?,
                    });
                }
                // A number kept as written, not an object.
                Key::Number if first => {
                    map.next_value::<IgnoredAny>()?;
                    return Ok((Kind::Number, None));
                }
                Key::Number | Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            first = false;
        }
        let odd = fields
            .iter()
            .zip(found)
            .find_map(|(&(name, wanted), found)| {
                let (kind, inner) = found?;
                if kind.is(wanted) {
                    inner
                } else {
                    Some(OddField {
                        name,
                        holds: kind.words(),
                    })
                }
            });
        Ok((Kind::Object, odd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odd(text: &str) -> Option<(&'static str, &'static str)> {
        odd_field(text.as_bytes())
            .unwrap()
            .map(|f| (f.name, f.holds))
    }

    #[test]
    fn a_field_of_another_type_is_found_with_what_it_holds() {
        let cases = [
            (
                r#"{"id":"e","data":{"is_terminal":"true"}}"#,
                ("is_terminal", "a string"),
            ),
            (
                r#"{"id":"e","timestamp":1763460000}"#,
                ("timestamp", "a number"),
            ),
            (
                r#"{"id":"e","data":{"error_code":"4005"}}"#,
                ("error_code", "a string"),
            ),
            (r#"{"id":7}"#, ("id", "a number")),
            (r#"{"data":{"room_id":["r"]}}"#, ("room_id", "a list")),
            (r#"{"data":5}"#, ("data", "a number")),
            (r#"{"data":"x"}"#, ("data", "a string")),
            (
                r#"{"data":{"agent":{"sdk":true}}}"#,
                ("sdk", "true or false"),
            ),
            (r#"{"data":{"agent":[]}}"#, ("agent", "a list")),
            (
                r#"{"data":{"user_name":{"a":1}}}"#,
                ("user_name", "an object"),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(odd(text), Some(want), "{text}");
        }
    }

    #[test]
    fn nulls_absences_unknown_fields_and_numbers_are_no_odd_field() {
        for text in [
            r#"{}"#,
            r#"{"id":null,"data":null}"#,
            r#"{"id":"e","data":{"is_terminal":null,"error_code":500.5,"agent":null}}"#,
            r#"{"id":"e","data":{"error_code":-4005,"retries_join":"3","extra":{"sdk":1}}}"#,
            r#"{"id":"e","other":{"id":1},"data":{"agent":{"sdk":"web","x":5}}}"#,
        ] {
            assert_eq!(odd(text), None, "{text}");
        }
    }

    /// Every event holding a field of another type takes the thorough way, where it is found:
    /// the plain reader gives way on each. Others take it too (keys escaped or given twice, a
    /// code written with a fraction), and hold none.
    #[test]
    fn the_plain_reader_gives_way_on_every_field_of_another_type() {
        use super::super::plain;
        use super::super::probe::Probe;
        let fields = EVENT
            .iter()
            .map(|f| (f, None))
            .chain(DATA.iter().map(|f| (f, Some("data"))))
            .chain(AGENT.iter().map(|f| (f, Some("agent"))));
        let mut tried = 0;
        for (&(name, wanted), under) in fields {
            for other in ["\"4005\"", "1763460000", "true", "[1]", "{\"a\":1}"] {
                let kind = match other.as_bytes()[0] {
                    b'"' => Kind::Text,
                    b't' => Kind::Bool,
                    b'[' => Kind::List,
                    b'{' => Kind::Object,
                    _ => Kind::Number,
                };
                if kind.is(wanted) {
                    continue;
                }
                let field = format!("\"{name}\":{other}");
                let text = match under {
                    None => format!("{{{field}}}"),
                    Some("data") => format!(r#"{{"id":"e","data":{{"room_id":"r",{field}}}}}"#),
                    _ => format!(r#"{{"id":"e","data":{{"agent":{{"os":"ios",{field}}}}}}}"#),
                };
                assert!(plain::read(&text, None).is_none(), "{text}");
                let probe = Probe::read(text.as_bytes()).unwrap();
                let found = probe.odd.map(|f| (f.name, f.holds));
                assert_eq!(found, Some((name, kind.words())), "{text}");
                tried += 1;
            }
        }
        assert!(tried > 80, "{tried}");
        for text in [
            r#"{"i\u0064":"e","data":{"room_id":"r"}}"#,
            r#"{"id":"e","id":"f"}"#,
            r#"{"id":"e","data":{"error_code":500.0,"is_terminal":null,"role":null}}"#,
        ] {
            assert!(plain::read(text, None).is_none(), "{text}");
            assert_eq!(Probe::read(text.as_bytes()).unwrap().odd, None, "{text}");
        }
        // The common event takes the plain way, and holds none.
        let common = r#"{"id":"e","data":{"is_terminal":true,"agent":{"sdk":"web"}}}"#;
        assert_eq!(plain::read(common, None).unwrap().odd, None);
    }

    #[test]
    fn the_sentence_names_each_kind_with_its_count_the_most_held_first() {
        let field = |name, holds| OddField { name, holds };
        let mut odd = OddFields::default();
        assert_eq!(odd.sentence(), None);
        odd.note(field("is_terminal", "a string"));
        odd.note(field("is_terminal", "a string"));
        assert_eq!(
            odd.sentence().unwrap(),
            "2 events hold a field of another type than the API's, read as absent \
             (is_terminal: a string)"
        );
        let mut later = OddFields::default();
        for (name, holds) in [
            ("timestamp", "a number"),
            ("error_code", "a string"),
            ("error_code", "a string"),
            ("error_code", "a string"),
            ("is_terminal", "a number"),
            ("sdk", "true or false"),
            ("is_terminal", "a string"),
        ] {
            later.note(field(name, holds));
        }
        odd.add(later);
        assert_eq!(odd.events, 9);
        assert_eq!(
            odd.sentence().unwrap(),
            "9 events hold a field of another type than the API's, read as absent \
             (is_terminal: a string, 3 events; error_code: a string, 3 events; timestamp: a \
             number, 1 event; and 2 more kinds, 2 events)"
        );
    }

    #[test]
    fn the_last_of_a_key_given_twice_is_the_one_read() {
        assert_eq!(odd(r#"{"id":7,"id":"e"}"#), None);
        assert_eq!(odd(r#"{"id":"e","id":7}"#), Some(("id", "a number")));
        assert_eq!(
            odd(r#"{"data":{"is_terminal":"x"},"data":{"is_terminal":true}}"#),
            None
        );
        // An escaped key names its field as the thorough reader reads it.
        assert_eq!(odd(r#"{"i\u0064":7}"#), Some(("id", "a number")));
    }
}
