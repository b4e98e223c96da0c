//! Walks the string values of an event's JSON, telling where each stands, for indexing the text
//! search at load time.

/// The object a string value stands in: the event, its `data`, its `data.agent`, or anything
/// else (an array, a deeper object).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Root,
    Data,
    Agent,
    Other,
}

/// Where a value stands, by the key it is the value of: a field the store knows, of the event,
/// of its `data` or of its `data.agent`, or `Other` (any other key, anything deeper or in an
/// array, and a key written with an escape).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Field {
    Id,
    Timestamp,
    Type,
    Data,
    UserId,
    UserName,
    PeerId,
    RoomId,
    RoomName,
    SessionId,
    Role,
    ErrorCode,
    ErrorName,
    ErrorMessage,
    ErrorDescription,
    IsTerminal,
    Action,
    Domain,
    Agent,
    Sdk,
    SdkVersion,
    DeviceModel,
    Os,
    OsVersion,
    AgentDomain,
    AgentString,
    Other,
}

impl Field {
    /// How many there are, `Other` the last.
    pub const COUNT: usize = Field::Other as usize + 1;

    /// Whether this is a field of `data.agent` that a row holds.
    pub fn is_agent_field(self) -> bool {
        matches!(
            self,
            Field::Sdk
                | Field::SdkVersion
                | Field::DeviceModel
                | Field::Os
                | Field::OsVersion
                | Field::AgentDomain
                | Field::AgentString
        )
    }

    /// The field of the key `key` (as written, between its quotes) of an object at `level`.
    pub fn of(level: Level, key: &[u8]) -> Field {
        match level {
            Level::Root => Field::of_root(key),
            Level::Data => Field::of_data(key),
            Level::Agent => Field::of_agent(key),
            Level::Other => Field::Other,
        }
    }

    /// The field of a key of the event.
    pub fn of_root(key: &[u8]) -> Field {
        match key {
            b"id" => Field::Id,
            b"timestamp" => Field::Timestamp,
            b"type" => Field::Type,
            b"data" => Field::Data,
            _ => Field::Other,
        }
    }

    /// The field of a key of the event's `data`.
    pub fn of_data(key: &[u8]) -> Field {
        match key {
            b"user_id" => Field::UserId,
            b"user_name" => Field::UserName,
            b"peer_id" => Field::PeerId,
            b"room_id" => Field::RoomId,
            b"room_name" => Field::RoomName,
            b"session_id" => Field::SessionId,
            b"role" => Field::Role,
            b"error_code" => Field::ErrorCode,
            b"error_name" => Field::ErrorName,
            b"error_message" => Field::ErrorMessage,
            b"error_description" => Field::ErrorDescription,
            b"is_terminal" => Field::IsTerminal,
            b"action" => Field::Action,
            b"domain" => Field::Domain,
            b"agent" => Field::Agent,
            _ => Field::Other,
        }
    }

    /// The field of a key of the event's `data.agent`.
    pub fn of_agent(key: &[u8]) -> Field {
        match key {
            b"sdk" => Field::Sdk,
            b"sdk_version" => Field::SdkVersion,
            b"device_model" => Field::DeviceModel,
            b"os" => Field::Os,
            b"os_version" => Field::OsVersion,
            b"domain" => Field::AgentDomain,
            b"string" => Field::AgentString,
            _ => Field::Other,
        }
    }
}

/// One string value (not key) of an event's JSON: `raw[start..end]` is the string with its
/// quotes, `field` where it stands, and `escaped` whether it holds an escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrAt {
    pub field: Field,
    pub start: u32,
    pub end: u32,
    pub escaped: bool,
}

struct Frame {
    /// `None` for an array.
    object: Option<Level>,
    expecting_key: bool,
    /// The bytes of the last key read (between its quotes, escapes as written).
    key: (usize, usize),
}

/// Appends each string value (not key) of the valid JSON object `raw` to `out`, in order. A key
/// written with an escape is compared as written, so its value reads as a place of no known
/// field.
pub fn strings_of(raw: &[u8], out: &mut Vec<StrAt>) {
    for_each_string(raw, |level, key, start, end, escaped| {
        out.push(StrAt {
            field: Field::of(level, key),
            start: start as u32,
            end: end as u32,
            escaped,
        });
    });
}

/// Calls `f(level, key, start, end, escaped)` with each string value (not key) of the valid
/// JSON document `raw`, in order: the object it stands in, the key it is the value of (as
/// written; empty in an array), where its quotes are in `raw` (`start..end`), and whether it
/// holds an escape.
pub fn for_each_string(raw: &[u8], mut f: impl FnMut(Level, &[u8], usize, usize, bool)) {
    let mut stack: Vec<Frame> = Vec::with_capacity(8);
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'{' => {
                let level = match stack.last() {
                    None => Level::Root,
                    Some(parent) => {
                        let key = &raw[parent.key.0..parent.key.1];
                        match parent.object {
                            Some(Level::Root) if key == b"data" => Level::Data,
                            Some(Level::Data) if key == b"agent" => Level::Agent,
                            _ => Level::Other,
                        }
                    }
                };
                stack.push(Frame {
                    object: Some(level),
                    expecting_key: true,
                    key: (0, 0),
                });
            }
            b'[' => stack.push(Frame {
                object: None,
                expecting_key: false,
                key: (0, 0),
            }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(top) = stack.last_mut()
                    && top.object.is_some()
                {
                    top.expecting_key = true;
                }
            }
            b':' => {
                if let Some(top) = stack.last_mut() {
                    top.expecting_key = false;
                }
            }
            b'"' => {
                let (end, escaped) = string_end_escaped(raw, i);
                if let Some(top) = stack.last_mut() {
                    if top.object.is_some() && top.expecting_key {
                        top.key = (i + 1, end.saturating_sub(1).max(i + 1));
                    } else {
                        let level = top.object.unwrap_or(Level::Other);
                        f(level, &raw[top.key.0..top.key.1], i, end, escaped);
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Index one past the closing quote of the string that opens at `start`, and whether the string
/// holds an escape.
pub fn string_end_escaped(raw: &[u8], start: usize) -> (usize, bool) {
    let mut escaped = false;
    let mut i = start + 1;
    // Most keys and values are short: a plain loop over their first bytes costs less than a call.
    let short = (i + 24).min(raw.len());
    while i < short {
        match raw[i] {
            b'"' => return (i + 1, escaped),
            b'\\' => {
                escaped = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
    while i < raw.len() {
        match memchr::memchr2(b'"', b'\\', &raw[i..]) {
            Some(off) if raw[i + off] == b'\\' => {
                escaped = true;
                i += off + 2;
            }
            Some(off) => return (i + off + 1, escaped),
            None => return (raw.len(), escaped),
        }
    }
    (raw.len(), escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(json: &str) -> Vec<(String, String)> {
        let mut strings = Vec::new();
        strings_of(json.as_bytes(), &mut strings);
        strings
            .iter()
            .map(|s| {
                let value = json[s.start as usize..s.end as usize].to_string();
                (format!("{:?}", s.field), value)
            })
            .collect()
    }

    #[test]
    fn tells_the_field_of_each_value_and_skips_keys() {
        let json = r#"{"id":"i","data":{"room_id":"r","n":1,"agent":{"os":"x","domain":"ad","deep":{"os":"y"}},"list":["a",{"k":"b"}],"after":"c","domain":"dd"},"type":"t","os":"z"}"#;
        let got = places(json);
        let want = [
            ("Id", r#""i""#),
            ("RoomId", r#""r""#),
            ("Os", r#""x""#),
            ("AgentDomain", r#""ad""#),
            ("Other", r#""y""#),
            ("Other", r#""a""#),
            ("Other", r#""b""#),
            ("Other", r#""c""#),
            ("Domain", r#""dd""#),
            ("Type", r#""t""#),
            ("Other", r#""z""#),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(p, v)| (p.to_string(), v.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn quotes_braces_and_escapes_inside_strings_are_text() {
        let json = r#"{"data":{"m":"a \"}\" {[","room_id":"r\\"},"x":"\u0041"}"#;
        let got = places(json);
        assert_eq!(got[0], ("Other".into(), r#""a \"}\" {[""#.into()));
        assert_eq!(got[1], ("RoomId".into(), r#""r\\""#.into()));
        assert_eq!(got[2], ("Other".into(), r#""\u0041""#.into()));
    }

    #[test]
    fn an_escaped_key_is_no_known_field() {
        let got = places(r#"{"d\u0061ta":{"room_id":"r"}}"#);
        assert_eq!(got, [("Other".to_string(), r#""r""#.to_string())]);
    }
}
