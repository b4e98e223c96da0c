//! The check of the lines the fast path does not parse: one well-formed JSON value each.
//!
//! Hand-written rather than serde_json's skipping parser (`IgnoredAny`), which it replaced: that
//! parser was two fifths of the processor time of `list --type T --room R` on a million events
//! (perf), since every line the filter skips is checked; this one scans strings sixteen bytes at
//! a time, as the store's reader does. `tests` compares both on valid and damaged lines.

/// How deep arrays and objects may nest: serde_json, which the full way reads events with,
/// refuses a 128th level.
const MOST_DEPTH: usize = 127;

/// Whether `line` is one well-formed JSON value in UTF-8 with no escape that leaves half a
/// surrogate pair: the check of every line the fast path does not parse, at least as strict as
/// the full way's reading of an event (which refuses the same, and may refuse less: a line it
/// would take is then only handed over to it).
pub(super) fn is_one_json_value(line: &[u8]) -> bool {
    if simdutf8::basic::from_utf8(line).is_err() {
        return false;
    }
    let mut check = Check { b: line, i: 0 };
    check.ws();
    check.value(0).is_some() && {
        check.ws();
        check.i == line.len()
    }
}

/// A cursor over a line being checked; each step returns `None` where the JSON is not well formed.
struct Check<'a> {
    b: &'a [u8],
    i: usize,
}

impl Check<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&byte)).then(|| self.i += 1)
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        match *self.b.get(self.i)? {
            b'"' => self.string(),
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        if depth > MOST_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            if self.b.get(self.i) != Some(&b'"') {
                return None;
            }
            self.string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            self.value(depth)?;
            self.ws();
            match *self.b.get(self.i)? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<()> {
        if depth > MOST_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        if self.eat(b']').is_some() {
            return Some(());
        }
        loop {
            self.value(depth)?;
            self.ws();
            match *self.b.get(self.i)? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        (self.b.get(self.i..self.i + word.len())? == word).then(|| self.i += word.len())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Option<()> {
        let b = self.b;
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => i = digits(i),
            _ => return None,
        }
        if b.get(i) == Some(&b'.') {
            let end = digits(i + 1);
            if end == i + 1 {
                return None;
            }
            i = end;
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let end = digits(i);
            if end == i {
                return None;
            }
            i = end;
        }
        self.i = i;
        Some(())
    }

    /// A string with no control character, only JSON's escapes, and every `\u` escape of a
    /// surrogate one half of a pair.
    fn string(&mut self) -> Option<()> {
        let b = self.b;
        let mut i = self.i + 1;
        loop {
            i = crate::store::next_stop(b, i);
            match *b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some(());
                }
                b'\\' => match *b.get(i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' => {
                        let unit = hex4(b, i + 2)?;
                        i += 6;
                        match unit {
                            0xD800..=0xDBFF => {
                                if b.get(i..i + 2)? != b"\\u" {
                                    return None;
                                }
                                if !(0xDC00..=0xDFFF).contains(&hex4(b, i + 2)?) {
                                    return None;
                                }
                                i += 6;
                            }
                            0xDC00..=0xDFFF => return None,
                            _ => {}
                        }
                    }
                    _ => return None,
                },
                _ => return None,
            }
        }
    }
}

/// The four hex digits at `at`, as a number.
fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let digits = b.get(at..at + 4)?;
    digits
        .iter()
        .try_fold(0u32, |n, &d| Some(n * 16 + (d as char).to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The check this one replaced: serde_json's skipping parser, and its reading of every
    /// string as text where a line holds a `\u` escape.
    fn by_serde(line: &[u8]) -> bool {
        #[derive(Debug)]
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
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<AsText, A::Error> {
                while s.next_element::<AsText>()?.is_some() {}
                Ok(AsText)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<AsText, A::Error> {
                while m.next_entry::<AsText, AsText>()?.is_some() {}
                Ok(AsText)
            }
        }
        std::str::from_utf8(line).is_ok() && serde_json::from_slice::<AsText>(line).is_ok()
    }

    const EVENT: &str = r#"{"id":"6d2f8c1e-1b7a-4f0e-9d3c-2a5b8e7f1c40","type":"client.join.failed","timestamp":"2026-11-18T10:05:00.123456789Z","data":{"peer_id":"p1","room_id":"r1","error_code":500,"is_terminal":true,"error_message":"Server \"Errors\" \u00e9 \ud83d\ude00","agent":{"os":"android","v":[1,2.5,-3e7,0,null,false,true,{}]},"empty":[]}}"#;

    #[test]
    fn it_agrees_with_serde_json_on_lines_written_and_damaged_by_hand() {
        let cases: &[&[u8]] = &[
            EVENT.as_bytes(),
            b"{}",
            b" [ ] ",
            b"\"\"",
            b"0",
            b"-0.5e+10",
            b"{\"a\":1,}",
            b"[1,]",
            b"[01]",
            b"[1.]",
            b"[.5]",
            b"[1e]",
            b"[-]",
            b"{\"a\" 1}",
            b"{a:1}",
            b"[tru]",
            b"[nul]",
            b"\"\\x\"",
            b"\"\\u12g4\"",
            b"\"\\ud83d\"",
            b"\"\\ude00\"",
            b"\"\\ud83d\\u0041\"",
            b"\"a\tb\"",
            b"{}{}",
            b"{} x",
            b"",
            b"   ",
            b"[1 2]",
            b"{\"a\":1 \"b\":2}",
            b"\x0c{}",
            b"{}\x0c",
        ];
        for &line in cases {
            assert_eq!(
                is_one_json_value(line),
                by_serde(line),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(is_one_json_value(deep(MOST_DEPTH).as_bytes()));
        assert!(by_serde(deep(MOST_DEPTH).as_bytes()));
        assert!(!is_one_json_value(deep(MOST_DEPTH + 1).as_bytes()));
        assert!(!by_serde(deep(MOST_DEPTH + 1).as_bytes()));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// An event with bytes replaced, inserted or removed: both checks say the same.
        #[test]
        fn it_agrees_with_serde_json_on_damaged_events(
            edits in proptest::collection::vec(
                (0usize..400, 0u8..3, proptest::sample::select(
                    b"{}[]\",:\\0123456789-+.eEtrufalsn u\t\x01\xc3\xa9".to_vec(),
                )),
                1..4,
            )
        ) {
            let mut line = EVENT.as_bytes().to_vec();
            for (at, how, byte) in edits {
                let at = at % (line.len() + 1);
                match how {
                    0 if at < line.len() => line[at] = byte,
                    1 => line.insert(at, byte),
                    _ if at < line.len() => {
                        line.remove(at);
                    }
                    _ => line.push(byte),
                }
            }
            prop_assert_eq!(
                is_one_json_value(&line),
                by_serde(&line),
                "{}",
                String::from_utf8_lossy(&line)
            );
        }
    }
}
