//! The event model of the service (spec sections 2.2 to 2.5).
//!
//! Events are kept as the JSON they arrived in; this module gives that JSON a typed reading for the
//! detail pane and the outputs without ever narrowing what is kept: unknown types, unknown fields,
//! absent optional fields, `null`s and numbers as sent all survive.

mod agent;
pub mod codes;
mod field;
mod kind;

#[cfg(test)]
use agent::agent_string_value;
pub use agent::{AgentPair, agent_string_env, agent_value, decode_agent_string};
pub use field::Field;
pub use kind::EventType;

use serde_json::{Map, Value};

/// Fields of an event's top level that the spec names.
pub const EVENT_FIELDS: &[&str] = &["version", "id", "timestamp", "type", "data"];

/// Fields of `data` common to the five client error types (spec 2.3).
pub const COMMON_DATA_FIELDS: &[&str] = &[
    "user_id",
    "user_name",
    "peer_id",
    "account_id",
    "room_id",
    "session_id",
    "room_name",
    "template_id",
    "role",
    "error_code",
    "error_name",
    "error_message",
    "error_description",
    "is_terminal",
    "action",
    "agent",
];

/// Fields of `data` specific to one or more of the five types (spec 2.4).
pub const TYPE_DATA_FIELDS: &[&str] = &[
    "domain",
    "retries_join",
    "transport_state",
    "endpoint",
    "audio",
    "video",
    "devices",
];

/// Fields of `agent` (spec 2.5).
pub const AGENT_FIELDS: &[&str] = &[
    "sdk",
    "sdk_version",
    "device_model",
    "os",
    "os_version",
    "is_prebuilt",
    "framework",
    "framework_version",
    "framework_sdk_version",
    "domain",
    "string",
];

/// An event list response page (spec 2.1).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Envelope<E> {
    pub limit: u64,
    pub total: u64,
    pub next: String,
    pub events: Vec<E>,
}

/// One event, read leniently from its JSON object: every accessor answers `None` when a field is
/// absent or of another JSON type than the spec says, and the object itself is kept whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    object: Map<String, Value>,
}

impl Event {
    /// Parses one event object. Anything but a JSON object is an error.
    pub fn parse(raw: &[u8]) -> Result<Event, serde_json::Error> {
        let object: Map<String, Value> = serde_json::from_slice(raw)?;
        Ok(Event { object })
    }

    pub fn from_object(object: Map<String, Value>) -> Event {
        Event { object }
    }

    pub fn object(&self) -> &Map<String, Value> {
        &self.object
    }

    pub fn id(&self) -> Option<&str> {
        self.object.get("id").and_then(Value::as_str)
    }

    pub fn version(&self) -> Option<&str> {
        self.object.get("version").and_then(Value::as_str)
    }

    pub fn timestamp(&self) -> Option<&str> {
        self.object.get("timestamp").and_then(Value::as_str)
    }

    /// The `type` string as sent (empty when absent).
    pub fn type_name(&self) -> &str {
        self.object
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    pub fn event_type(&self) -> EventType {
        EventType::from_name(self.type_name())
    }

    /// The `data` object, when it is one.
    pub fn data(&self) -> Option<&Map<String, Value>> {
        self.object.get("data").and_then(Value::as_object)
    }

    /// A field of `data`, whatever its JSON type.
    pub fn data_value(&self, field: &str) -> Option<&Value> {
        self.data().and_then(|d| d.get(field))
    }

    /// A string field of `data`.
    pub fn data_str(&self, field: &str) -> Option<&str> {
        self.data_value(field).and_then(Value::as_str)
    }

    /// `error_code`, read as the store reads it (see [`integer_of`]).
    pub fn error_code(&self) -> Option<i64> {
        self.data_value("error_code").and_then(integer_of)
    }

    /// `is_terminal`: `Some(true)` final, `Some(false)` retried, `None` absent or not a boolean.
    pub fn is_terminal(&self) -> Option<bool> {
        self.data_value("is_terminal").and_then(Value::as_bool)
    }

    pub fn agent(&self) -> Option<&Map<String, Value>> {
        self.data_value("agent").and_then(Value::as_object)
    }

    pub fn agent_str(&self, field: &str) -> Option<&str> {
        self.agent()
            .and_then(|a| a.get(field))
            .and_then(Value::as_str)
    }

    /// The agent's `string`, decoded into its key:value pairs (`env` included).
    pub fn agent_pairs(&self) -> Vec<AgentPair> {
        self.agent_str("string")
            .map(decode_agent_string)
            .unwrap_or_default()
    }

    /// Top-level fields the spec does not name, in the order they were sent.
    pub fn unknown_fields(&self) -> Vec<(&str, &Value)> {
        unknown(&self.object, EVENT_FIELDS)
    }

    /// Fields of `data` the spec does not name for any of the five types. For another family of
    /// events (track, recording...) every field of `data` is unknown and listed here.
    pub fn unknown_data_fields(&self) -> Vec<(&str, &Value)> {
        match self.data() {
            Some(data) if self.event_type().is_known() => {
                let mut named: Vec<&str> = COMMON_DATA_FIELDS.to_vec();
                named.extend_from_slice(TYPE_DATA_FIELDS);
                unknown(data, &named)
            }
            Some(data) => data.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            None => Vec::new(),
        }
    }

    /// Fields of `agent` the spec does not name.
    pub fn unknown_agent_fields(&self) -> Vec<(&str, &Value)> {
        self.agent()
            .map(|a| unknown(a, AGENT_FIELDS))
            .unwrap_or_default()
    }
}

fn unknown<'a>(object: &'a Map<String, Value>, named: &[&str]) -> Vec<(&'a str, &'a Value)> {
    object
        .iter()
        .filter(|(k, _)| !named.contains(&k.as_str()))
        .map(|(k, v)| (k.as_str(), v))
        .collect()
}

/// An integer field's value: an integer, or a number written with a fraction of zero that an
/// `i64` holds exactly (`500.0`); `None` for anything else (a string `"500"` included).
pub fn integer_of(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| f as i64)
    })
}

/// What a JSON value is, in words: `a string`, `a number`, `true or false`, `a list`, `an
/// object` or `null`.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "true or false",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
        Value::Null => "null",
    }
}

/// A JSON value as one line of text: strings without quotes, everything else as compact JSON
/// (numbers exactly as sent).
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;
