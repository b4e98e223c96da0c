//! The bytes a line must hold to be worth parsing, derived from the filter's plan.

use memchr::memmem::Finder;

use crate::event::Field;
use crate::filter::{Plan, Want};
use crate::store::Needle;

/// The literal texts a matching line must contain (a value equal to a filter's is written either
/// as those bytes or with an escape).
pub(super) struct Prefilter {
    /// At least one of these (the selected types), when types are filtered.
    any_of: Vec<Finder<'static>>,
    /// Every one of these (the id filters).
    all_of: Vec<Finder<'static>>,
    /// Finds the escapes that could spell one of the values differently: `\u` when no value
    /// holds a character JSON may also escape otherwise (`"`, `\`, `/`, controls), else any `\`.
    escape: Finder<'static>,
    /// The search text, which a line must hold unless an escape could hide it.
    search: Option<Needle>,
    /// `any_of` and `all_of` as `"value"` with nothing escaped: what a line whose escapes are
    /// decoded holds where a string equal to the value stands, however it was written.
    any_of_decoded: Vec<Finder<'static>>,
    all_of_decoded: Vec<Finder<'static>>,
}

impl Prefilter {
    pub(super) fn new(plan: &Plan<&[u8]>) -> Prefilter {
        let literal = |s: &[u8]| {
            let quoted = serde_json::to_string(&String::from_utf8_lossy(s)).unwrap_or_default();
            Finder::new(quoted.as_bytes()).into_owned()
        };
        let decoded = |s: &[u8]| {
            let mut quoted = Vec::with_capacity(s.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(s);
            quoted.push(b'"');
            Finder::new(&quoted).into_owned()
        };
        let types: &[&[u8]] = plan.types().unwrap_or_default();
        // The values a matching event holds as whole JSON strings: the wanted ones of every
        // field but the env, which stands within the agent's string. (A type no reader holds
        // is left out of the plan's types, and makes no line a candidate.)
        let wanted: Vec<&[u8]> = plan
            .conditions()
            .iter()
            .filter(|c| !c.negate && c.field != Field::Env)
            .filter_map(|c| match c.want {
                Want::Text(v) => Some(v),
                _ => None,
            })
            .collect();
        let plain = types.iter().chain(&wanted).all(|v| {
            !String::from_utf8_lossy(v)
                .chars()
                .any(|c| matches!(c, '"' | '\\' | '/') || c.is_control())
        });
        Prefilter {
            any_of: types.iter().map(|t| literal(t)).collect(),
            all_of: wanted.iter().map(|v| literal(v)).collect(),
            escape: Finder::new(if plain { &b"\\u"[..] } else { &b"\\"[..] }).into_owned(),
            search: plan.search().map(Needle::new),
            any_of_decoded: types.iter().map(|t| decoded(t)).collect(),
            all_of_decoded: wanted.iter().map(|v| decoded(v)).collect(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.any_of.is_empty() && self.all_of.is_empty() && self.search.is_none()
    }

    /// Whether the line may match: false only when it certainly cannot.
    pub(super) fn may_match(&self, line: &[u8]) -> bool {
        // The line as its strings read, decoded at most once.
        let decoded = std::cell::OnceCell::new();
        let decoded = || decoded.get_or_init(|| unescaped(line)).as_slice();
        if let Some(needle) = &self.search
            && (!needle.may_be_in(line)
                // Any escape may spell the text: looked for again as the strings read.
                || memchr::memchr(b'\\', line).is_some() && !needle.may_be_in(decoded()))
        {
            return false;
        }
        if holds(line, &self.any_of, &self.all_of) {
            return true;
        }
        if self.escape.find(line).is_none() {
            return false;
        }
        // An escape may spell a value differently (writers such as Python's escape everything
        // but ASCII): the line is looked at again as its strings read.
        holds(decoded(), &self.any_of_decoded, &self.all_of_decoded)
    }
}

/// Whether `text` holds one of `any_of` (when there are any) and all of `all_of`.
fn holds(text: &[u8], any_of: &[Finder], all_of: &[Finder]) -> bool {
    (any_of.is_empty() || any_of.iter().any(|f| f.find(text).is_some()))
        && all_of.iter().all(|f| f.find(text).is_some())
}

/// A line with every JSON escape in it decoded (but for a `\u` escape that is half of a
/// surrogate pair, kept as written): a string value reads as its text between its quotes.
fn unescaped(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'\\', &line[i..]) {
        out.extend_from_slice(&line[i..i + off]);
        i += off;
        let Some(&c) = line.get(i + 1) else {
            out.push(b'\\');
            break;
        };
        if c == b'u' {
            match decode_u(&line[i..]) {
                Some((ch, len)) => {
                    out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                    i += len;
                }
                None => {
                    out.push(b'\\');
                    i += 1;
                }
            }
            continue;
        }
        out.push(match c {
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            other => other,
        });
        i += 2;
    }
    out.extend_from_slice(&line[i..]);
    out
}

/// The character of the `\uXXXX` escape (or surrogate pair of two) that `b` starts with, and
/// how many bytes it spans.
fn decode_u(b: &[u8]) -> Option<(char, usize)> {
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
        if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(digits, 16).ok()
    };
    let first = hex(2)?;
    if (0xD800..0xDC00).contains(&first) {
        if b.get(6..8)? != b"\\u" {
            return None;
        }
        let second = hex(8)?;
        if !(0xDC00..0xE000).contains(&second) {
            return None;
        }
        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
        return Some((char::from_u32(code)?, 12));
    }
    Some((char::from_u32(first)?, 6))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::Filter;

    fn prefilter(filter: &Filter) -> Prefilter {
        Prefilter::new(&Plan::new(filter, |s| Some(s.as_bytes())))
    }

    #[test]
    fn a_search_text_is_looked_for_in_the_bytes_in_any_case() {
        let pre = prefilter(&Filter {
            search: Some("Timeout".into()),
            ..Filter::default()
        });
        assert!(pre.may_match(br#"{"data":{"error_description":"upstream TIMEOUT"}}"#));
        assert!(!pre.may_match(br#"{"data":{"error_description":"refused"}}"#));
        assert!(pre.may_match(br#"{"data":{"error_description":"timeout"}}"#));
        // An escape may spell the text, or spell something else.
        assert!(pre.may_match(br#"{"data":{"error_description":"\u0074imeout"}}"#));
        assert!(pre.may_match(br#"{"data":{"error_description":"time\u004FUT"}}"#));
        assert!(!pre.may_match(br#"{"data":{"error_description":"refused","user":"Zo\u00eb"}}"#));
        // Where the decoded text holds what could fold into the text (İ, the Kelvin sign), or a
        // backslash (`\\u0074` is a backslash and `u0074`), the line is parsed to know.
        assert!(pre.may_match(br#"{"data":{"error_description":"\u0130"}}"#));
        assert!(pre.may_match(br#"{"data":{"error_description":"\\u0074imeout"}}"#));
    }

    /// Characters led by the bytes of the two that fold into ASCII (`’`, `—`, `ğ`, `ą`) make
    /// no line a candidate; those two (`K` the Kelvin sign, `İ`) do, as written or escaped; and
    /// a line the prefilter passes over never matches, however its strings are written.
    #[test]
    fn only_the_characters_that_fold_into_ascii_make_a_line_a_candidate() {
        let pre = |text: &str| {
            prefilter(&Filter {
                search: Some(text.into()),
                ..Filter::default()
            })
        };
        let timeout = pre("timeout");
        let line = |s: &str| format!(r#"{{"data":{{"user_name":"{s}","m":"refused"}}}}"#);
        for other in ["O’Neil — Ağa", "Łą\u{2019}", "O\\u2019Neil"] {
            assert!(!timeout.may_match(line(other).as_bytes()), "{other}");
        }
        let ok = pre("ok");
        for folding in ["o\u{212A}", "O\u{212A}’", "o\\u212a", "\u{0130}"] {
            assert!(ok.may_match(line(folding).as_bytes()), "{folding}");
        }
        // Against the plain search (each string decoded, then lowercased; not `Needle`, whose
        // `may_be_in` the prefilter is), on strings made of pieces of every kind.
        fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::String(s) => out.push(s.clone()),
                serde_json::Value::Object(m) => m.values().for_each(|v| strings(v, out)),
                serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
                _ => {}
            }
        }
        let plainly = |raw: &str, text: &str| {
            let mut all = Vec::new();
            strings(&serde_json::from_str(raw).unwrap(), &mut all);
            all.iter().any(|s| s.to_lowercase().contains(text))
        };
        let pieces = [
            "o", "K", "k", "i", "\u{212A}", "\u{0130}", "’", "ğ", "—", "\\u212a", "\\u0130",
            "\\u2019", "\\\\", "x",
        ];
        let mut matched = 0;
        for text in ["ok", "ik", "oki", "x", "k"] {
            let pre = pre(text);
            for a in pieces {
                for b in pieces {
                    for c in pieces {
                        let raw = line(&format!("{a}{b}{c}"));
                        if plainly(&raw, text) {
                            matched += 1;
                            assert!(pre.may_match(raw.as_bytes()), "{text} in {raw}");
                        }
                    }
                }
            }
        }
        assert!(matched > 1000, "{matched}");
    }

    #[test]
    fn a_line_with_an_escape_may_match_when_its_strings_read_as_the_value() {
        let f = Filter {
            ..Filter::default()
        }
        .with(Field::Room, "r1");
        let pre = prefilter(&f);
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"r1"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"\u0072\u0031"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"\u0072\u0031","user_name":"Zo\u00eb"}}"#));
        // Escapes elsewhere do not make a line with another room a candidate.
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","user_name":"Zo\u00eb"}}"#));
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","m":"say \"hi\""}}"#));
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","m":"\ud83d \\u0022r1\\u0022"}}"#));
        let slash = prefilter(
            &Filter {
                ..Filter::default()
            }
            .with(Field::Room, "a/b"),
        );
        assert!(slash.may_match(br#"{"data":{"room_id":"a\/b"}}"#));
        assert!(!slash.may_match(br#"{"data":{"room_id":"a\\/b"}}"#));
        let quote = prefilter(
            &Filter {
                ..Filter::default()
            }
            .with(Field::Room, "a\"b"),
        );
        assert!(quote.may_match(br#"{"data":{"room_id":"a\"b"}}"#));
        assert!(quote.may_match(br#"{"data":{"room_id":"a\u0022b"}}"#));
        let emoji = prefilter(
            &Filter {
                types: vec![crate::event::EventType::Join],
                ..Filter::default()
            }
            .with(Field::Room, "\u{1F600}x"),
        );
        assert!(emoji.may_match(
            br#"{"type":"client.join.\u0066ailed","data":{"room_id":"\ud83d\ude00x"}}"#
        ));
        assert!(!emoji.may_match(br#"{"type":"client.join.failed","data":{"room_id":"\ud83dx"}}"#));
    }
}
