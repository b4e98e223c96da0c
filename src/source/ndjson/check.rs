//! The check of the lines the fast path does not parse: one well-formed JSON value each.

use std::sync::LazyLock;

use memchr::memmem::Finder;

/// What `\u` escapes start with: a line without one cannot hold half a surrogate pair.
static U_ESCAPE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\u"));

/// Whether `line` is one well-formed JSON value in UTF-8 with no escape that leaves half a
/// surrogate pair: the check of every line the fast path does not parse, at least as strict as
/// the full way's reading of an event (which refuses the same, and may refuse less: a line it
/// would take is then only handed over to it). serde_json's skipping parser validates the JSON
/// without building anything; the strings of a line with a `\u` escape are read as text too.
pub(super) fn is_one_json_value(line: &[u8]) -> bool {
    if simdutf8::basic::from_utf8(line).is_err() {
        return false;
    }
    if U_ESCAPE.find(line).is_none() {
        return serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok();
    }
    serde_json::from_slice::<AsText>(line).is_ok()
}

/// Any JSON value, read with every string (keys included) decoded as text: an escape that
/// leaves half a surrogate pair is refused, as reading the string would refuse it.
struct AsText;

impl<'de> serde::Deserialize<'de> for AsText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AsText, D::Error> {
        d.deserialize_any(AsText)
    }
}

impl<'de> serde::de::Visitor<'de> for AsText {
    type Value = AsText;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_i64<E>(self, _: i64) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_u64<E>(self, _: u64) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_f64<E>(self, _: f64) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_str<E>(self, _: &str) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_unit<E>(self) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<AsText, A::Error> {
        while seq.next_element::<AsText>()?.is_some() {}
        Ok(AsText)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<AsText, A::Error> {
        while map.next_entry::<AsText, AsText>()?.is_some() {}
        Ok(AsText)
    }
}
