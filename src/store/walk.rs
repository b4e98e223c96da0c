//! Walks the string values of an event's JSON, telling where each stands, for indexing the text
//! search at load time.

/// Where a string value stands: the key it is the value of, when that key is a field of the
/// event, of its `data` or of its `data.agent`; `Other` for anything deeper or in an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'a> {
    Top(&'a [u8]),
    Data(&'a [u8]),
    Agent(&'a [u8]),
    Other,
}

/// The object a string value stands in: the event, its `data`, its `data.agent`, or anything
/// else (an array, a deeper object).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Root,
    Data,
    Agent,
    Other,
}

/// One string value (not key) of an event's JSON: `raw[start..end]` is the string with its
/// quotes, `key` the bytes of the key it is the value of (between its quotes, as written) when
/// it stands in an object, and `escaped` whether it holds an escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrAt {
    pub level: Level,
    pub key: (u32, u32),
    pub start: u32,
    pub end: u32,
    pub escaped: bool,
}

impl StrAt {
    /// Where the value stands in `raw`, the event it was read from.
    pub fn place<'r>(&self, raw: &'r [u8]) -> Place<'r> {
        let key = &raw[self.key.0 as usize..self.key.1 as usize];
        match self.level {
            Level::Root => Place::Top(key),
            Level::Data => Place::Data(key),
            Level::Agent => Place::Agent(key),
            Level::Other => Place::Other,
        }
    }
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
    for_each_string(raw, |s| out.push(s));
}

/// Calls `f` with each string value (not key) of the valid JSON document `raw`, in order.
pub fn for_each_string(raw: &[u8], mut f: impl FnMut(StrAt)) {
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
                        f(StrAt {
                            level: top.object.unwrap_or(Level::Other),
                            key: (top.key.0 as u32, top.key.1 as u32),
                            start: i as u32,
                            end: end as u32,
                            escaped,
                        });
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
                let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                let p = match s.place(json.as_bytes()) {
                    Place::Top(k) => format!("top.{}", text(k)),
                    Place::Data(k) => format!("data.{}", text(k)),
                    Place::Agent(k) => format!("agent.{}", text(k)),
                    Place::Other => "other".to_string(),
                };
                (p, json[s.start as usize..s.end as usize].to_string())
            })
            .collect()
    }

    #[test]
    fn tells_the_field_of_each_value_and_skips_keys() {
        let json = r#"{"id":"i","data":{"room_id":"r","n":1,"agent":{"os":"x","deep":{"os":"y"}},"list":["a",{"k":"b"}],"after":"c"},"type":"t"}"#;
        let got = places(json);
        let want = [
            ("top.id", r#""i""#),
            ("data.room_id", r#""r""#),
            ("agent.os", r#""x""#),
            ("other", r#""y""#),
            ("other", r#""a""#),
            ("other", r#""b""#),
            ("data.after", r#""c""#),
            ("top.type", r#""t""#),
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
        assert_eq!(got[0], ("data.m".into(), r#""a \"}\" {[""#.into()));
        assert_eq!(got[1], ("data.room_id".into(), r#""r\\""#.into()));
        assert_eq!(got[2], ("top.x".into(), r#""\u0041""#.into()));
    }

    #[test]
    fn an_escaped_key_is_no_known_field() {
        let got = places(r#"{"d\u0061ta":{"room_id":"r"}}"#);
        assert_eq!(got, [("other".to_string(), r#""r""#.to_string())]);
    }
}
