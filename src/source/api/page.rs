//! A page of events as the events endpoint sends it: `{"limit", "total", "next", "events"}`.

use std::sync::Arc;

use super::FetchError;
use crate::source::dump;
use crate::source::merge::Entry;
use crate::store::{Batch, BatchBuilder, Blob};

/// A page that arrived.
#[derive(Debug)]
pub struct Page {
    /// Boxed: a batch is large to move through the channels that carry a page.
    pub batch: Box<Batch>,
    pub next: String,
    pub total: Option<u64>,
}

/// A page as it arrived: its body and each event's place in it. Every event has been read once,
/// so [`Fetched::into_page`] cannot meet a bad one; the pages of several cursors are merged from
/// the entries without it.
pub struct Fetched {
    pub blob: Arc<Blob>,
    pub entries: Vec<Entry>,
    pub next: String,
    pub total: Option<u64>,
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetched")
            .field("events", &self.entries.len())
            .field("next", &self.next)
            .field("total", &self.total)
            .finish()
    }
}

impl Fetched {
    /// The page, its events in a batch over the body.
    pub fn into_page(self) -> Page {
        let mut builder = BatchBuilder::new(Arc::clone(&self.blob));
        for e in &self.entries {
            if let Err(error) = builder.push(e.start, e.end) {
                tracing::error!(%error, "an event that was read once could not be read again");
            }
        }
        Page {
            batch: Box::new(builder.finish()),
            next: self.next,
            total: self.total,
        }
    }
}

/// Reads a 200 body: an envelope whose events go into a batch. Anything else is a bad page, so
/// that what was loaded before is kept and the user is told.
pub fn parse_page(body: Vec<u8>) -> Result<Page, FetchError> {
    parse_fetched(body).map(Fetched::into_page)
}

/// Reads a 200 body as [`parse_page`] does, keeping where each event is.
pub fn parse_fetched(body: Vec<u8>) -> Result<Fetched, FetchError> {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(default)]
        next: Option<String>,
        #[serde(default)]
        total: Option<serde_json::Value>,
        #[serde(borrow)]
        events: &'a serde_json::value::RawValue,
    }
    let (next, total) = {
        let head: Head = serde_json::from_slice(&body).map_err(|e| {
            let at = format!("at line {} column {}", e.line(), e.column());
            match e.classify() {
                serde_json::error::Category::Eof => {
                    FetchError::BadPage(format!("it ends too early {at}"))
                }
                serde_json::error::Category::Data => FetchError::WrongShape(shape(&body)),
                _ => FetchError::BadPage(format!("invalid JSON {at}")),
            }
        })?;
        if !head.events.get().starts_with('[') {
            return Err(FetchError::WrongShape(shape(&body)));
        }
        (
            head.next.unwrap_or_default(),
            head.total.and_then(|t| t.as_u64()),
        )
    };
    let blob = Arc::new(Blob::Owned(body));
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    dump::scan(
        &blob,
        &mut |s, e| {
            entries.push(Entry::read(&blob, s, e)?);
            Ok(())
        },
        &mut errors,
    );
    if let Some(e) = errors.first() {
        return Err(FetchError::BadPage(e.message.clone()));
    }
    Ok(Fetched {
        blob,
        entries,
        next,
        total,
    })
}

/// How a body of valid JSON differs from a page of events (`{"limit", "total", "next",
/// "events": [...]}`): what was expected where.
fn shape(body: &[u8]) -> String {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return "it could not be read again".into();
    };
    let Some(fields) = value.as_object() else {
        return format!(
            "it is {} where an object with an \"events\" array is expected",
            json_kind(&value)
        );
    };
    match fields.get("events") {
        None if fields.is_empty() => "it is an empty object, with no \"events\" array".into(),
        None => {
            let names: Vec<String> = fields
                .keys()
                .take(5)
                .map(|k| format!("{:?}", crate::text::for_terminal(k)))
                .collect();
            let more = if fields.len() > 5 { ", ..." } else { "" };
            format!(
                "it has no \"events\" array (its fields: {}{more})",
                names.join(", ")
            )
        }
        Some(events) if !events.is_array() => {
            format!(
                "its \"events\" field is {}, not an array",
                json_kind(events)
            )
        }
        Some(_) => match fields.get("next") {
            Some(next) if !next.is_string() && !next.is_null() => {
                format!("its \"next\" field is {}, not a string", json_kind(next))
            }
            _ => "its fields are not those of a page of events".into(),
        },
    }
}

/// A JSON value's kind, in words: "a number", "an array".
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(body: &str) -> FetchError {
        parse_fetched(body.as_bytes().to_vec()).unwrap_err()
    }

    #[test]
    fn json_in_another_shape_says_what_was_expected_where_and_is_not_retried() {
        for (body, said) in [
            (
                r#"{"data":[1,2,3]}"#,
                r#"it has no "events" array (its fields: "data")"#,
            ),
            ("{}", r#"it is an empty object, with no "events" array"#),
            (
                "[1,2]",
                r#"it is an array where an object with an "events" array is expected"#,
            ),
            (
                r#"{"events":{"a":1}}"#,
                r#"its "events" field is an object, not an array"#,
            ),
            (
                r#"{"next":5,"events":[]}"#,
                r#"its "next" field is a number, not a string"#,
            ),
        ] {
            let e = error(body);
            assert_eq!(e, FetchError::WrongShape(said.into()), "{body}");
            assert!(!e.is_retryable());
        }
    }

    #[test]
    fn a_body_that_is_not_json_or_is_cut_is_a_bad_page_and_may_pass() {
        for (body, said) in [
            ("<html>gateway</html>", "invalid JSON at line 1 column 1"),
            (
                r#"{"events":[{"id":"a"}"#,
                "it ends too early at line 1 column 21",
            ),
        ] {
            let e = error(body);
            assert_eq!(e, FetchError::BadPage(said.into()), "{body}");
            assert!(e.is_retryable());
        }
    }
}
