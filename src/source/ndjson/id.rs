//! An event's top-level id, read off its line without parsing it.

use std::sync::LazyLock;

use super::walk::{skip_value, skip_ws, string_end};

/// The top-level `id` of a one-line JSON object (its bytes), when it is a plain string (no
/// escapes). `None` when it is absent, not a string, escaped, or the line cannot be read this way.
pub(super) fn top_level_id(line: &[u8]) -> Option<&[u8]> {
    find_top_level_id(line, true)
}

/// [`top_level_id`], looking from the end of the line too when `from_end`.
fn find_top_level_id(line: &[u8], from_end: bool) -> Option<&[u8]> {
    let mut i = 1;
    let mut tried_from_end = !from_end;
    loop {
        i = skip_ws(line, i);
        match line.get(i)? {
            b'}' => return None,
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(line, i)?;
        let key = &line[i + 1..key_end - 1];
        i = skip_ws(line, key_end);
        if line.get(i)? != &b':' {
            return None;
        }
        i = skip_ws(line, i + 1);
        if key == b"id" {
            if line.get(i)? != &b'"' {
                return None;
            }
            let end = string_end(line, i)?;
            let value = &line[i + 1..end - 1];
            if memchr::memchr(b'\\', value).is_some() {
                return None;
            }
            return Some(value);
        }
        if !tried_from_end && matches!(line.get(i), Some(b'{' | b'[')) {
            // Rather than walk through an object (`data`, when it comes first), look from the
            // end of the line, where the id then often stands.
            tried_from_end = true;
            if let Some(id) = id_from_end(line) {
                return id;
            }
        }
        i = skip_value(line, i)?;
    }
}

/// The top-level `id` of a one-line JSON object that ends with `}`, read from its end: its
/// members are read back to front as long as their values are strings or plain values. `None`
/// when that ends at an object or array before an answer, or when `"id"` is also written before
/// the key found (a key written twice: the first one is the id, which only the walk from the
/// start can tell).
fn id_from_end(line: &[u8]) -> Option<Option<&[u8]>> {
    static ID_KEY: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"\"id\""));
    // One past the member being read.
    let mut end = line.len().checked_sub(1)?;
    if line[end] != b'}' {
        return None;
    }
    loop {
        end = skip_ws_back(line, end);
        let last = *line.get(end.checked_sub(1)?)?;
        let value_start = match last {
            b'"' => string_start_back(line, end - 1)?,
            b'}' | b']' => return None,
            b'{' if end == 1 => return Some(None),
            _ => {
                // A number, `true`, `false` or `null`.
                let mut at = end;
                while at > 0
                    && !matches!(line[at - 1], b':' | b',' | b'{')
                    && !line[at - 1].is_ascii_whitespace()
                {
                    at -= 1;
                }
                at
            }
        };
        let colon = skip_ws_back(line, value_start);
        if colon == 0 || line[colon - 1] != b':' {
            return None;
        }
        let key_end = skip_ws_back(line, colon - 1);
        if key_end == 0 || line[key_end - 1] != b'"' {
            return None;
        }
        let key_start = string_start_back(line, key_end - 1)?;
        if &line[key_start..key_end] == b"\"id\"" {
            if ID_KEY.find(&line[..key_start]).is_some() {
                return None;
            }
            let value = &line[value_start..end];
            let plain = value.len() >= 2
                && value[0] == b'"'
                && memchr::memchr(b'\\', &value[1..value.len() - 1]).is_none();
            return Some(plain.then(|| &value[1..value.len() - 1]));
        }
        let before = skip_ws_back(line, key_start);
        match line.get(before.checked_sub(1)?)? {
            b',' => end = before - 1,
            b'{' if before == 1 => return Some(None),
            _ => return None,
        }
    }
}

/// Where the whitespace that ends just before `end` starts.
fn skip_ws_back(b: &[u8], mut end: usize) -> usize {
    while end > 0 && b[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    end
}

/// The opening quote of the string whose closing quote is `b[close]`: the nearest quote before
/// it that follows an even number of backslashes.
fn string_start_back(b: &[u8], close: usize) -> Option<usize> {
    let mut at = close;
    loop {
        at = memchr::memrchr(b'"', &b[..at])?;
        let backslashes = b[..at].iter().rev().take_while(|&&c| c == b'\\').count();
        if backslashes % 2 == 0 {
            return Some(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_top_level_id_wherever_it_stands() {
        assert_eq!(
            top_level_id(br#"{"version":"2.0","id":"abc","data":{"id":"x"}}"#),
            Some(&b"abc"[..])
        );
        assert_eq!(
            top_level_id(br#"{"data":{"id":"x","a":[1,{"b":"}"}]},"id":"late"}"#),
            Some(&b"late"[..])
        );
        assert_eq!(top_level_id(br#"{"data":{"id":"x"}}"#), None);
        assert_eq!(top_level_id(br#"{"id":"a\u0062"}"#), None);
        assert_eq!(top_level_id(br#"{"id":7,"x":1}"#), None);
    }

    #[test]
    fn the_id_read_from_the_end_of_a_line_is_the_one_read_from_its_start() {
        let mut generated = Vec::new();
        crate::generator::write_ndjson(&mut generated, 200, 8).unwrap();
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for line in generated.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
            let v: serde_json::Map<String, serde_json::Value> =
                serde_json::from_slice(line).unwrap();
            // As written, and with every member in reverse order (`data` before `id`).
            lines.push(line.to_vec());
            let reversed: serde_json::Map<_, _> = v.into_iter().rev().collect();
            lines.push(serde_json::to_vec(&reversed).unwrap());
        }
        for text in [
            r#"{"data":{"x":1},"id":"last"}"#,
            r#"{"data":{"x":1} , "n" : -1.5e3 ,"ok":true,"no":null, "id" : "spaced" }"#,
            r#"{"data":{"id":"nested"},"id":"top"}"#,
            r#"{"data":{"x":1},"id":"a","id":"b"}"#,
            r#"{"id":"first","data":{"x":1},"id":"second"}"#,
            r#"{"data":{"x":1},"id":7}"#,
            r#"{"data":{"x":1},"id":"e\u0031"}"#,
            r#"{"data":{"x":1},"i\u0064":"escaped key"}"#,
            r#"{"data":{"x":1},"m":"say \"id\"","id":"q"}"#,
            r#"{"data":{"x":1},"m":"ends with \\","id":"bs"}"#,
            r#"{"data":{"x":1},"m":"a \\\" b","id":"bs2"}"#,
            r#"{"data":[1,{"a":"}"}],"kind":"id"}"#,
            r#"{"data":{"x":1},"tail":[1,2]}"#,
            r#"{"data":{"x":1}}"#,
            r#"{"id":"only"}"#,
            r#"{}"#,
        ] {
            lines.push(text.as_bytes().to_vec());
        }
        // Damaged lines that still end with a brace: read without a panic, and alike when still
        // valid. (Damage that the walk from the start stops at may be after the id read from
        // the end: such a line is then parsed only if it may match, as one damaged after its id
        // always was.)
        let event = r#"{"data":{"x":"a","n":[1,{"k":"v"}]},"id":"e1","type":"t"}"#;
        for at in 0..event.len() - 1 {
            for &b in br#""\{}[]:, "# {
                let mut line = event.as_bytes().to_vec();
                line[at] = b;
                lines.push(line);
            }
        }
        let mut from_end = 0;
        for line in &lines {
            let forward = find_top_level_id(line, false);
            if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err() {
                let _ = find_top_level_id(line, true);
                continue;
            }
            assert_eq!(
                find_top_level_id(line, true),
                forward,
                "{}",
                String::from_utf8_lossy(line)
            );
            from_end += usize::from(id_from_end(line).is_some_and(|id| id.is_some()));
        }
        assert!(from_end > 200, "{from_end} ids read from the end");
    }
}
