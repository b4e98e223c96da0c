//! Telling a file of related data from a file of events by its first bytes: the keys of its
//! first JSON value, read until one of them decides. A list response's `data` array, a
//! session's `peers`, a peer's `publisher` or `subscriber` say related data; an envelope's
//! `events`, an event's `type`, `timestamp`, `version` or `data` object say events. The values
//! before the deciding key are skipped, and nothing after it is read: a dump of a million events
//! is told after a few bytes.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// What the first value of some bytes is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// Rooms, sessions or quality stats.
    Related,
    /// Events, an envelope of them, or anything else (read as events, which reports it).
    Events,
    /// The bytes end before a key decides.
    Undecided,
}

/// Sniffs the first JSON value of `bytes` (after a byte order mark and whitespace).
pub fn sniff(bytes: &[u8]) -> Sniffed {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match de.deserialize_any(Probe) {
        Ok(kind) => kind,
        // serde_json adds where the error happened after the message.
        Err(e) if e.to_string().starts_with(RELATED) => Sniffed::Related,
        Err(e) if e.to_string().starts_with(EVENTS) => Sniffed::Events,
        Err(e) if e.is_eof() => Sniffed::Undecided,
        Err(_) => Sniffed::Events,
    }
}

// A key that decides stops the parse with one of these as its error.
const RELATED: &str = "related data";
const EVENTS: &str = "events";

struct Probe;

impl<'de> Visitor<'de> for Probe {
    type Value = Sniffed;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Sniffed, A::Error> {
        let mut saw = Saw::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "peers" | "publisher" | "subscriber" => return Err(de::Error::custom(RELATED)),
                "events" | "type" | "timestamp" | "version" => {
                    return Err(de::Error::custom(EVENTS));
                }
                "data" => {
                    return Err(match map.next_value::<Opening>()? {
                        // A list response (rooms, sessions), or one with no data yet.
                        Opening::Null => de::Error::custom(RELATED),
                        Opening::Other => de::Error::custom(EVENTS),
                    });
                }
                "name" => saw.name = true,
                "enabled" | "template_id" | "region" | "customer_id" => saw.room = true,
                "room_id" => saw.room_id = true,
                _ => {}
            }
            map.next_value::<IgnoredAny>()?;
        }
        // No deciding key: a room has a name and a room's fields and no room_id.
        Ok(if saw.name && saw.room && !saw.room_id {
            Sniffed::Related
        } else {
            Sniffed::Events
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Sniffed, A::Error> {
        // An array is told by its first element.
        Ok(seq.next_element_seed(ProbeSeed)?.unwrap_or(Sniffed::Events))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Sniffed, E> {
        Ok(Sniffed::Events)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Sniffed, E> {
        Ok(Sniffed::Events)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Sniffed, E> {
        Ok(Sniffed::Events)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Sniffed, E> {
        Ok(Sniffed::Events)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Sniffed, E> {
        Ok(Sniffed::Events)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Sniffed, E> {
        Ok(Sniffed::Events)
    }
}

struct ProbeSeed;

impl<'de> de::DeserializeSeed<'de> for ProbeSeed {
    type Value = Sniffed;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Sniffed, D::Error> {
        d.deserialize_any(Probe)
    }
}

#[derive(Default)]
struct Saw {
    name: bool,
    room: bool,
    room_id: bool,
}

/// How a value opens, read without reading the rest of it.
enum Opening {
    Null,
    Other,
}

impl<'de> de::Deserialize<'de> for Opening {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Opening, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Opening;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Opening, A::Error> {
                // An array: a list response's data. Decided on its opening alone.
                Err(de::Error::custom(RELATED))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Opening, E> {
                Ok(Opening::Null)
            }
            fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Opening, A::Error> {
                Err(de::Error::custom(EVENTS))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Opening, E> {
                Ok(Opening::Other)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Opening, E> {
                Ok(Opening::Other)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Opening, E> {
                Ok(Opening::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Opening, E> {
                Ok(Opening::Other)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Opening, E> {
                Ok(Opening::Other)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn related_data_is_told_from_events_by_the_first_deciding_key() {
        for (text, want) in [
            (
                r#"{"limit":10,"data":[{"id":"s","peers":{}}],"last":"s"}"#,
                Sniffed::Related,
            ),
            (r#"{"limit":10,"data":null}"#, Sniffed::Related),
            (
                r#"{"id":"s","room_id":"r","peers":{"p":{}}}"#,
                Sniffed::Related,
            ),
            (
                r#"{"peer_id":"p","session_id":"s","publisher":{}}"#,
                Sniffed::Related,
            ),
            (
                r#"{"id":"r","name":"standup","enabled":true}"#,
                Sniffed::Related,
            ),
            (r#"[{"id":"s","room_id":"r","peers":[]}]"#, Sniffed::Related),
            (
                r#"{"limit":1,"total":1,"next":"","events":[]}"#,
                Sniffed::Events,
            ),
            (
                r#"{"version":"2.0","id":"e","type":"client.join.failed","data":{}}"#,
                Sniffed::Events,
            ),
            (r#"{"id":"e","data":{"room_id":"r"}}"#, Sniffed::Events),
            (
                r#"[{"id":"e","type":"track.add.success"}]"#,
                Sniffed::Events,
            ),
            (r#"{"code":400,"message":"Bad Request"}"#, Sniffed::Events),
            (
                "\u{feff}{\"peer_id\":\"p\",\"subscriber\":{}}",
                Sniffed::Related,
            ),
            ("not json", Sniffed::Events),
        ] {
            assert_eq!(sniff(text.as_bytes()), want, "{text}");
        }
    }

    #[test]
    fn a_deciding_key_is_enough_and_a_cut_prefix_before_one_is_undecided() {
        // The rest of a huge envelope is never read: a prefix is decided.
        assert_eq!(
            sniff(br#"{"limit":100,"total":9,"next":"","events":[{"id":"#),
            Sniffed::Events
        );
        assert_eq!(
            sniff(br#"{"id":"s","room_id":"r","peers":{"p":{"id":"#),
            Sniffed::Related
        );
        assert_eq!(
            sniff(br#"{"id":"s","room_id":"r","cust"#),
            Sniffed::Undecided
        );
    }
}
