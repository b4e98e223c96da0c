//! Reads the fields the store's compact rows need from an event's JSON in one borrowed pass,
//! without building a `serde_json::Value`. Every field is lenient: a field of an unexpected JSON type
//! reads as absent instead of failing the event.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::event::integer_of;

use super::plain;
use super::remembered::{Remembered, Seen};
use super::shape::{OddField, odd_field};
use super::walk::{StrAt, strings_of};

/// The fields of one event that filtering, the list and the views use.
#[derive(Debug, Default, Deserialize)]
pub struct Probe<'a> {
    #[serde(borrow, default)]
    pub id: LStr<'a>,
    #[serde(borrow, default)]
    pub timestamp: LStr<'a>,
    #[serde(rename = "type", borrow, default)]
    pub kind: LStr<'a>,
    #[serde(borrow, default)]
    pub data: LData<'a>,
    /// The first field read as absent because it holds a value of another JSON type than the
    /// API's: found by the thorough reader only, which every event holding one takes.
    #[serde(skip)]
    pub odd: Option<OddField>,
}

#[derive(Debug, Default, Deserialize)]
pub struct DataProbe<'a> {
    #[serde(borrow, default)]
    pub user_id: LStr<'a>,
    #[serde(borrow, default)]
    pub user_name: LStr<'a>,
    #[serde(borrow, default)]
    pub peer_id: LStr<'a>,
    #[serde(borrow, default)]
    pub room_id: LStr<'a>,
    #[serde(borrow, default)]
    pub room_name: LStr<'a>,
    #[serde(borrow, default)]
    pub session_id: LStr<'a>,
    #[serde(borrow, default)]
    pub role: LStr<'a>,
    #[serde(default)]
    pub error_code: LInt,
    #[serde(borrow, default)]
    pub error_name: LStr<'a>,
    #[serde(borrow, default)]
    pub error_message: LStr<'a>,
    #[serde(default)]
    pub is_terminal: LBool,
    #[serde(borrow, default)]
    pub action: LStr<'a>,
    #[serde(borrow, default)]
    pub domain: LStr<'a>,
    #[serde(borrow, default)]
    pub agent: LAgent<'a>,
}

#[derive(Debug, Default, Deserialize)]
pub struct AgentProbe<'a> {
    #[serde(borrow, default)]
    pub sdk: LStr<'a>,
    #[serde(borrow, default)]
    pub sdk_version: LStr<'a>,
    #[serde(borrow, default)]
    pub device_model: LStr<'a>,
    #[serde(borrow, default)]
    pub os: LStr<'a>,
    #[serde(borrow, default)]
    pub os_version: LStr<'a>,
    #[serde(borrow, default)]
    pub domain: LStr<'a>,
    #[serde(borrow, default)]
    pub string: LStr<'a>,
}

impl<'a> Probe<'a> {
    /// Reads an event's fields. The fast borrowed reader refuses what serde's derive refuses
    /// (duplicate keys, for one); such an event is read again through a `Value`, which keeps the
    /// last of duplicated keys as JSON parsers commonly do.
    pub fn read(raw: &'a [u8]) -> Result<Probe<'a>, serde_json::Error> {
        if let Ok(text) = simdutf8::basic::from_utf8(raw)
            && let Some(probe) = plain::read(text, None)
        {
            return Ok(probe);
        }
        Probe::read_thoroughly(raw)
    }

    /// [`Probe::read`] of an event known to be UTF-8 (its text): the same fields, without
    /// checking the text again.
    pub fn read_text(text: &'a str) -> Result<Probe<'a>, serde_json::Error> {
        match plain::read(text, None) {
            Some(probe) => Ok(probe),
            None => Probe::read_thoroughly(text.as_bytes()),
        }
    }

    /// Reads an event's fields into `probe` (empty) as [`Probe::read`] does, and puts the place
    /// of each of its string values in `strings` (cleared first). Values that `remembered` holds
    /// are skipped, as `plain::read_into` says; `seen` tells which (and is empty when the
    /// event was read the thorough way).
    pub fn read_walked(
        text: &'a str,
        strings: &mut Vec<StrAt>,
        remembered: &Remembered,
        seen: &mut Seen,
        probe: &mut Probe<'a>,
    ) -> Result<(), serde_json::Error> {
        strings.clear();
        if plain::read_into(text, Some(strings), Some((remembered, seen)), probe).is_some() {
            return Ok(());
        }
        strings.clear();
        seen.clear();
        *probe = Probe::read_thoroughly(text.as_bytes())?;
        strings_of(text.as_bytes(), strings);
        Ok(())
    }

    /// Reads any event, whatever its shape, through serde.
    pub(super) fn read_thoroughly(raw: &'a [u8]) -> Result<Probe<'a>, serde_json::Error> {
        // serde's derive would also read a struct from an array, and the `Value` path anything.
        if raw.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(de::Error::custom("an event must be a JSON object"));
        }
        // The probe reads its strings as bytes, which serde_json does not check for raw control
        // characters: the event is checked to be JSON first, so that one holding such a
        // character is refused (and reported) rather than kept unreadable by any JSON reader.
        // The pass that finds a field of another type checks it too; one it cannot read (text
        // that is not UTF-8 in a field the probe reads as bytes) is checked as before.
        let odd = match odd_field(raw) {
            Ok(odd) => odd,
            Err(_) => {
                serde_json::from_slice::<de::IgnoredAny>(raw)?;
                None
            }
        };
        let mut probe = match serde_json::from_slice::<Probe<'a>>(raw) {
            Ok(p) => p,
            Err(_) => {
                let value: Value = serde_json::from_slice(raw)?;
                Probe::from_value(&value)
            }
        };
        probe.odd = odd;
        Ok(probe)
    }

    fn from_value(v: &Value) -> Probe<'a> {
        let s = |v: Option<&Value>| {
            LStr(
                v.and_then(Value::as_str)
                    .map(|s| Cow::Owned(s.as_bytes().to_vec())),
            )
        };
        let data = v.get("data").filter(|d| d.is_object()).map(|d| {
            let agent = d
                .get("agent")
                .filter(|a| a.is_object())
                .map(|a| AgentProbe {
                    sdk: s(a.get("sdk")),
                    sdk_version: s(a.get("sdk_version")),
                    device_model: s(a.get("device_model")),
                    os: s(a.get("os")),
                    os_version: s(a.get("os_version")),
                    domain: s(a.get("domain")),
                    string: s(a.get("string")),
                });
            DataProbe {
                user_id: s(d.get("user_id")),
                user_name: s(d.get("user_name")),
                peer_id: s(d.get("peer_id")),
                room_id: s(d.get("room_id")),
                room_name: s(d.get("room_name")),
                session_id: s(d.get("session_id")),
                role: s(d.get("role")),
                error_code: LInt(d.get("error_code").and_then(integer_of)),
                error_name: s(d.get("error_name")),
                error_message: s(d.get("error_message")),
                is_terminal: LBool(d.get("is_terminal").and_then(Value::as_bool)),
                action: s(d.get("action")),
                domain: s(d.get("domain")),
                agent: LAgent(agent),
            }
        });
        Probe {
            id: s(v.get("id")),
            timestamp: s(v.get("timestamp")),
            kind: s(v.get("type")),
            data: LData(data),
            odd: None,
        }
    }
}

impl Probe<'_> {
    /// Whether the object is an event at all: it has an id, a type, a timestamp or data. An
    /// object with none of them (a saved error answer, `{"code":401,"message":"..."}`) is not.
    pub fn names_an_event(&self) -> bool {
        self.id.0.is_some()
            || self.kind.0.is_some()
            || self.timestamp.0.is_some()
            || self.data.0.is_some()
    }

    /// Whether every string the store keeps of this event is UTF-8, as `BatchBuilder::push`
    /// requires. Only an escaped string can fail when the event's bytes are UTF-8: `\ud800`
    /// alone decodes to bytes that are not.
    pub fn strings_are_utf8(&self) -> bool {
        let ok = |f: &LStr| match &f.0 {
            Some(Cow::Owned(b)) => std::str::from_utf8(b).is_ok(),
            _ => true,
        };
        if !(ok(&self.id) && ok(&self.kind)) {
            return false;
        }
        let Some(d) = &self.data.0 else {
            return true;
        };
        let data = [
            &d.user_id,
            &d.user_name,
            &d.peer_id,
            &d.room_id,
            &d.room_name,
            &d.session_id,
            &d.role,
            &d.error_name,
            &d.error_message,
            &d.action,
        ];
        if !data.into_iter().all(ok) {
            return false;
        }
        match &d.agent.0 {
            Some(a) => [
                &a.sdk,
                &a.sdk_version,
                &a.device_model,
                &a.os,
                &a.os_version,
                if d.domain.0.is_some() {
                    &d.domain
                } else {
                    &a.domain
                },
                &a.string,
            ]
            .into_iter()
            .all(ok),
            None => ok(&d.domain),
        }
    }
}

/// A string field (its bytes, escapes resolved), or `None` when absent or an array or object.
///
/// The bytes are not checked for UTF-8 here: the store checks a string the first time it sees
/// it, and most strings repeat.
#[derive(Debug, Default)]
pub struct LStr<'a>(pub Option<Cow<'a, [u8]>>);

impl LStr<'_> {
    pub fn get(&self) -> Option<&[u8]> {
        self.0.as_deref()
    }

    pub fn as_str(&self) -> Option<&str> {
        self.get().and_then(|b| std::str::from_utf8(b).ok())
    }
}

/// An integer field (an integral float counts), or `None`.
#[derive(Debug, Default)]
pub struct LInt(pub Option<i64>);

/// A boolean field, or `None`.
#[derive(Debug, Default)]
pub struct LBool(pub Option<bool>);

/// The `data` object, or `None` when absent or not an object.
#[derive(Debug, Default)]
pub struct LData<'a>(pub Option<DataProbe<'a>>);

/// The `agent` object, or `None` when absent or not an object.
#[derive(Debug, Default)]
pub struct LAgent<'a>(pub Option<AgentProbe<'a>>);

/// Consumes whatever value comes and answers `None`.
fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

macro_rules! ignore_other_types {
    ($out:ty, $none:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_unit<E: de::Error>(self) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<$out, A::Error> {
            drain_seq(seq)?;
            Ok($none)
        }
    };
}

impl<'de: 'a, 'a> Deserialize<'de> for LStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<LStr<'de>, E> {
                Ok(LStr(Some(Cow::Borrowed(b))))
            }
            fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<LStr<'de>, E> {
                Ok(LStr(Some(Cow::Owned(b.to_vec()))))
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<LStr<'de>, E> {
                Ok(LStr(Some(Cow::Borrowed(s.as_bytes()))))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<LStr<'de>, E> {
                Ok(LStr(Some(Cow::Owned(s.as_bytes().to_vec()))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<LStr<'de>, A::Error> {
                drain_seq(seq)?;
                Ok(LStr(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<LStr<'de>, A::Error> {
                drain_map(map)?;
                Ok(LStr(None))
            }
        }
        // JSON strings come as their raw bytes (no UTF-8 pass); a number, boolean or null here
        // is refused, and the event is then read through a `Value`, which takes anything.
        d.deserialize_bytes(V)
    }
}

impl<'de> Deserialize<'de> for LBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LBool;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<LBool, E> {
                Ok(LBool(Some(b)))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<LBool, E> {
                Ok(LBool(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<LBool, E> {
                Ok(LBool(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<LBool, E> {
                Ok(LBool(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<LBool, E> {
                Ok(LBool(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<LBool, E> {
                Ok(LBool(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<LBool, A::Error> {
                drain_seq(seq)?;
                Ok(LBool(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<LBool, A::Error> {
                drain_map(map)?;
                Ok(LBool(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for LInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Read through a Value: with exact number preservation a number reaches a visitor as a
        // private map, which `Value` knows how to take apart.
        let v = Value::deserialize(d)?;
        Ok(LInt(integer_of(&v)))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for LData<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient_object(d).map(LData)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for LAgent<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient_object(d).map(LAgent)
    }
}

/// Deserializes `T` from an object, or answers `None` for any other JSON type.
fn lenient_object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
        type Value = Option<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<T>, A::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Some)
        }
        ignore_other_types!(Option<T>, None);
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_of_a_join_failure() {
        let raw = br#"{"version":"2.0","id":"e1","timestamp":"2026-11-18T10:00:00.000000001Z","type":"client.join.failed","data":{"room_id":"r1","peer_id":"p1","error_code":500,"error_name":"ServerErrors","is_terminal":true,"retries_join":3,"agent":{"sdk":"web","string":"sdk:web,env:prod"}}}"#;
        let p = Probe::read(raw).unwrap();
        assert_eq!(p.id.as_str(), Some("e1"));
        assert_eq!(p.kind.as_str(), Some("client.join.failed"));
        let d = p.data.0.unwrap();
        assert_eq!(d.room_id.as_str(), Some("r1"));
        assert_eq!(d.error_code.0, Some(500));
        assert_eq!(d.is_terminal.0, Some(true));
        assert_eq!(d.session_id.as_str(), None);
        assert_eq!(d.agent.0.unwrap().string.as_str(), Some("sdk:web,env:prod"));
    }

    #[test]
    fn fields_of_unexpected_types_read_as_absent() {
        let raw = br#"{"id":7,"type":null,"data":{"room_id":["x"],"error_code":"500","is_terminal":"yes","agent":"web","user_name":{"a":1}}}"#;
        let p = Probe::read(raw).unwrap();
        assert_eq!(p.id.as_str(), None);
        assert_eq!(p.kind.as_str(), None);
        let d = p.data.0.unwrap();
        assert_eq!(d.room_id.as_str(), None);
        assert_eq!(d.error_code.0, None);
        assert_eq!(d.is_terminal.0, None);
        assert!(d.agent.0.is_none());
        assert_eq!(d.user_name.as_str(), None);
    }

    #[test]
    fn data_that_is_not_an_object_reads_as_absent() {
        let p = Probe::read(br#"{"id":"a","data":[1,2]}"#).unwrap();
        assert!(p.data.0.is_none());
    }

    #[test]
    fn duplicate_keys_keep_the_last_value() {
        let p = Probe::read(br#"{"id":"a","id":"b","data":{}}"#).unwrap();
        assert_eq!(p.id.as_str(), Some("b"));
    }

    #[test]
    fn escaped_strings_are_unescaped() {
        let p = Probe::read(br#"{"id":"a\u0041","data":{"user_name":"Zo\u00eb"}}"#).unwrap();
        assert_eq!(p.id.as_str(), Some("aA"));
        assert_eq!(p.data.0.unwrap().user_name.as_str(), Some("Zoë"));
    }

    #[test]
    fn integral_float_codes_count_as_codes() {
        let p = Probe::read(br#"{"data":{"error_code":500.0}}"#).unwrap();
        assert_eq!(p.data.0.unwrap().error_code.0, Some(500));
    }
}
