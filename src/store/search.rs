//! `--search`: a case-insensitive substring of any string value of an event (keys excluded),
//! found by walking the event's JSON bytes without building a tree.

/// A search text, prepared once.
#[derive(Debug, Clone)]
pub struct Needle {
    lower: String,
    ascii: bool,
    /// For an ASCII text: a vectorised, ASCII-case-insensitive finder that refuses most events
    /// without walking their JSON.
    finder: Option<aho_corasick::AhoCorasick>,
}

impl PartialEq for Needle {
    fn eq(&self, other: &Needle) -> bool {
        self.lower == other.lower
    }
}

impl Eq for Needle {}

impl Needle {
    pub fn new(text: &str) -> Needle {
        let ascii = text.is_ascii();
        let finder = (ascii && !text.is_empty())
            .then(|| {
                aho_corasick::AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .build([text])
                    .ok()
            })
            .flatten();
        Needle {
            lower: text.to_lowercase(),
            ascii,
            finder,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }

    /// Whether one string matches.
    pub fn matches_str(&self, s: &str) -> bool {
        if self.lower.is_empty() {
            return true;
        }
        if s.is_ascii() && self.ascii {
            return contains_ascii_ci(s.as_bytes(), self.lower.as_bytes());
        }
        s.to_lowercase().contains(&self.lower)
    }

    /// Whether any string value of the JSON document `raw` matches. `raw` must be valid JSON
    /// (everything in the store was parsed when it was loaded).
    pub fn matches_json(&self, raw: &[u8]) -> bool {
        if self.lower.is_empty() {
            return true;
        }
        // Cheap refusal: a value can only hold the text if the bytes do, unless an escape or one
        // of the two characters whose lowercase is ASCII (KELVIN SIGN, I WITH DOT) hides it.
        if self.ascii {
            let found = match &self.finder {
                Some(f) => f.is_match(raw),
                None => contains_ascii_ci(raw, self.lower.as_bytes()),
            };
            if !found && memchr::memchr3(b'\\', 0xC4, 0xE2, raw).is_none() {
                return false;
            }
        }
        let mut found = false;
        for_each_string_value(raw, |s| {
            if !found && self.matches_bytes(s) {
                found = true;
            }
        });
        found
    }

    fn matches_bytes(&self, quoted: &[u8]) -> bool {
        let inner = &quoted[1..quoted.len() - 1];
        if memchr::memchr(b'\\', inner).is_some() {
            return serde_json::from_slice::<String>(quoted)
                .map(|s| self.matches_str(&s))
                .unwrap_or(false);
        }
        match std::str::from_utf8(inner) {
            Ok(s) => self.matches_str(s),
            Err(_) => false,
        }
    }
}

fn contains_ascii_ci(hay: &[u8], lower_needle: &[u8]) -> bool {
    if lower_needle.is_empty() {
        return true;
    }
    if hay.len() < lower_needle.len() {
        return false;
    }
    let first = lower_needle[0];
    let upper = first.to_ascii_uppercase();
    let last_start = hay.len() - lower_needle.len();
    let mut i = 0;
    while i <= last_start {
        let next = if first == upper {
            memchr::memchr(first, &hay[i..=last_start])
        } else {
            memchr::memchr2(first, upper, &hay[i..=last_start])
        };
        let Some(off) = next else {
            return false;
        };
        let at = i + off;
        if hay[at..at + lower_needle.len()]
            .iter()
            .zip(lower_needle)
            .all(|(h, n)| h.to_ascii_lowercase() == *n)
        {
            return true;
        }
        i = at + 1;
    }
    false
}

/// Calls `f` with each string value (quotes included) of a valid JSON document, skipping keys.
fn for_each_string_value(raw: &[u8], mut f: impl FnMut(&[u8])) {
    // One entry per open container: `Some(expecting_key)` for an object, `None` for an array.
    let mut stack: Vec<Option<bool>> = Vec::with_capacity(8);
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'{' => stack.push(Some(true)),
            b'[' => stack.push(None),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Some(expecting_key)) = stack.last_mut() {
                    *expecting_key = true;
                }
            }
            b':' => {
                if let Some(Some(expecting_key)) = stack.last_mut() {
                    *expecting_key = false;
                }
            }
            b'"' => {
                let end = string_end(raw, i);
                if stack.last() != Some(&Some(true)) {
                    f(&raw[i..end]);
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Index one past the closing quote of the string that opens at `start`.
fn string_end(raw: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < raw.len() {
        match memchr::memchr2(b'"', b'\\', &raw[i..]) {
            Some(off) if raw[i + off] == b'\\' => i += off + 2,
            Some(off) => return i + off + 1,
            None => return raw.len(),
        }
    }
    raw.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(needle: &str, json: &str) -> bool {
        Needle::new(needle).matches_json(json.as_bytes())
    }

    #[test]
    fn finds_text_in_values_case_insensitively() {
        assert!(m("ice", r#"{"data":{"error_name":"ICEDisconnected"}}"#));
        assert!(m("IceDis", r#"{"data":{"error_name":"ICEDisconnected"}}"#));
    }

    #[test]
    fn keys_do_not_match() {
        assert!(!m(
            "room",
            r#"{"data":{"room_id":"abc","n":[{"room_x":"zzz"}]}}"#
        ));
        assert!(m("abc", r#"{"data":{"room_id":"abc"}}"#));
    }

    #[test]
    fn values_after_arrays_and_nested_objects_are_values() {
        let json = r#"{"a":["x",{"k":"v"}],"b":"target","c":{"d":["y"]}}"#;
        assert!(m("target", json));
        assert!(!m("k", json));
        assert!(m("y", json));
    }

    #[test]
    fn numbers_and_booleans_are_not_strings() {
        assert!(!m("500", r#"{"error_code":500,"t":true}"#));
        assert!(!m("true", r#"{"error_code":500,"t":true}"#));
    }

    #[test]
    fn escaped_and_non_ascii_text_is_compared_unescaped() {
        assert!(m("zoë", r#"{"user_name":"Zo\u00cb"}"#));
        assert!(m("ZOË", r#"{"user_name":"zoë"}"#));
        assert!(m("a\"b", r#"{"s":"xa\"by"}"#));
        assert!(m("佐藤", r#"{"user_name":"佐藤 一"}"#));
        assert!(m("ok", "{\"s\":\"O\u{212a}\"}"));
    }
}
