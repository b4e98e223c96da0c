//! Neutralises what a string from the data could do to a terminal.
//!
//! Every string drawn on the screen goes through [`for_terminal`]: an `error_message` must never be
//! able to move the cursor, change colours, set the window title, ring the bell, or reorder text.

use std::borrow::Cow;
use std::io::{self, Write};

/// Returns the string with every control character made visible and inert:
/// C0 controls (ESC, BEL, CR, LF, TAB, backspace...) and DEL become their Unicode "control
/// picture" (`␛`, `␇`...), C1 controls (U+0080..U+009F, which some terminals treat as CSI/OSC)
/// and the bidirectional overrides and isolates become `�`. Escape sequences are therefore shown
/// as `␛[31m` text instead of being obeyed.
///
/// Conjoining Hangul jamo are also made safe to measure: terminals disagree on how wide they
/// draw them (a run of leading consonants is one grapheme two cells wide in a terminal that
/// clusters graphemes, two cells per consonant in one that does not; a vowel or final after a
/// syllable is zero cells in some, one in others), and a cell the explorer counts but the
/// terminal does not draw keeps stale text. A run of jamo is composed into its syllables (NFC),
/// which every terminal draws two cells wide, and what cannot be composed becomes `�`.
pub fn for_terminal(s: &str) -> Cow<'_, str> {
    if !s
        .chars()
        .any(|c| needs_replacing(c) || is_conjoining_jamo(c))
    {
        return Cow::Borrowed(s);
    }
    let s = with_jamo_composed(s);
    Cow::Owned(s.chars().map(replacement).collect())
}

/// Conjoining jamo: leading consonants, vowels and trailing consonants, modern and old.
fn is_conjoining_jamo(c: char) -> bool {
    matches!(
        c,
        '\u{1100}'..='\u{11ff}' | '\u{a960}'..='\u{a97f}' | '\u{d7b0}'..='\u{d7ff}'
    )
}

/// A precomposed Hangul syllable, to which a vowel or trailing consonant may still attach.
fn is_hangul_syllable(c: char) -> bool {
    matches!(c, '\u{ac00}'..='\u{d7a3}')
}

/// `s` with each run of jamo (and the syllable before one) composed as NFC composes it, and the
/// jamo left over replaced by `�`. Only those runs change: NFC elsewhere would change text it has
/// no reason to (compatibility ideographs, for one).
fn with_jamo_composed(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_conjoining_jamo) {
        return Cow::Borrowed(s);
    }
    let nfc = icu_normalizer::ComposingNormalizerBorrowed::new_nfc();
    let mut out = String::with_capacity(s.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        for c in nfc.normalize(run).chars() {
            out.push(if is_conjoining_jamo(c) { '\u{fffd}' } else { c });
        }
        run.clear();
    };
    for c in s.chars() {
        if is_conjoining_jamo(c) || is_hangul_syllable(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    Cow::Owned(out)
}

/// Whether `s` holds a character that [`for_terminal`] would neutralise: one that could drive a
/// terminal, or run a command when pasted into a shell (a newline).
pub fn holds_controls(s: &str) -> bool {
    s.chars().any(needs_replacing)
}

/// Valid JSON text with every character that [`for_terminal`] neutralises written as a `\u`
/// escape: the same JSON value, which cannot drive a terminal when pasted into one. (In valid
/// JSON such characters stand only inside strings, where an escape means the same character.)
pub fn json_escaped(json: &str) -> Cow<'_, str> {
    if !holds_controls(json) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if needs_replacing(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_replacing(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || is_invisible_format(c)
}

fn replacement(c: char) -> char {
    match c {
        '\u{00}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        c if needs_replacing(c) => '\u{fffd}',
        c => c,
    }
}

/// Bidirectional embeddings, overrides, isolates and marks (the "Trojan Source" characters).
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// Characters that draw nothing yet take a cell or change how neighbours are measured.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// A writer for a terminal: each line it is given goes out through [`for_terminal`], so that
/// whatever `list` prints on a terminal (a CSV cell, an event's raw JSON with a C1 control in a
/// string) cannot drive it. Lines are held until their end, so that a character split between two
/// writes is read whole; `flush` writes out what is complete.
pub struct ForTerminal<W: Write> {
    inner: W,
    line: Vec<u8>,
}

impl<W: Write> ForTerminal<W> {
    pub fn new(inner: W) -> ForTerminal<W> {
        ForTerminal {
            inner,
            line: Vec::new(),
        }
    }

    /// Writes out the first `n` bytes held, made safe.
    fn emit(&mut self, n: usize) -> io::Result<()> {
        let text = String::from_utf8_lossy(&self.line[..n]);
        self.inner.write_all(for_terminal(&text).as_bytes())?;
        self.line.drain(..n);
        Ok(())
    }
}

impl<W: Write> Write for ForTerminal<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = memchr::memchr(b'\n', rest) {
            self.line.extend_from_slice(&rest[..i]);
            self.emit(self.line.len())?;
            self.inner.write_all(b"\n")?;
            rest = &rest[i + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        // All but a character whose last bytes are still to come.
        let complete = match std::str::from_utf8(&self.line) {
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            _ => self.line.len(),
        };
        self.emit(complete)?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for ForTerminal<W> {
    fn drop(&mut self) {
        // A last line without its end; nothing can be reported from here.
        let _ = self.emit(self.line.len());
        let _ = self.inner.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through_terminal(writes: &[&[u8]]) -> String {
        let mut out = Vec::new();
        {
            let mut w = ForTerminal::new(&mut out);
            for bytes in writes {
                w.write_all(bytes).unwrap();
            }
            w.flush().unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn what_is_written_for_a_terminal_cannot_drive_it_whatever_the_writes() {
        let evil = "a,\"\u{1b}]0;PWNED\u{7}\u{1b}[2J x\u{9b}31m\u{202e}y\"\r\nnext\n";
        let safe = "a,\"␛]0;PWNED␇␛[2J x\u{fffd}31m\u{fffd}y\"␍\nnext\n";
        assert_eq!(through_terminal(&[evil.as_bytes()]), safe);
        // Cut anywhere, even inside a character of two or three bytes: the same text.
        let bytes = evil.as_bytes();
        for cut in 0..=bytes.len() {
            assert_eq!(
                through_terminal(&[&bytes[..cut], &bytes[cut..]]),
                safe,
                "cut at {cut}"
            );
        }
        // A flush between the two bytes of a character writes what is whole, and holds the rest.
        let mut out = Vec::new();
        {
            let mut w = ForTerminal::new(&mut out);
            let e = "é".as_bytes();
            w.write_all(&[b'a', e[0]]).unwrap();
            w.flush().unwrap();
            w.write_all(&[e[1], b'\n']).unwrap();
            w.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "aé\n");
        // Plain text passes as it is, and a last line without its end is written too.
        assert_eq!(
            through_terminal(&[b"plain, text\nlast"]),
            "plain, text\nlast"
        );
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(
            for_terminal("Zoë 佐藤 ok"),
            Cow::Borrowed("Zoë 佐藤 ok")
        ));
    }

    #[test]
    fn escape_sequences_become_visible_text() {
        let s = "boom\x1b[2J\x1b]0;owned\x07\r\x08!";
        let out = for_terminal(s);
        assert!(!out.chars().any(|c| c.is_control()), "{out:?}");
        assert_eq!(out, "boom␛[2J␛]0;owned␇␍␈!");
    }

    #[test]
    fn c1_controls_and_bidi_overrides_are_replaced() {
        let s = "a\u{9b}31m b\u{202e}txt.exe\u{2066}c\u{7f}";
        let out = for_terminal(s);
        assert_eq!(out, "a\u{fffd}31m b\u{fffd}txt.exe\u{fffd}c\u{2421}");
    }

    #[test]
    fn json_keeps_its_value_with_controls_escaped() {
        let json = "{\"m\":\"a\u{9b}31m\u{202e}b\u{7f}\u{1F600}\"}";
        let escaped = json_escaped(json);
        assert_eq!(escaped, "{\"m\":\"a\\u009b31m\\u202eb\\u007f\u{1F600}\"}");
        assert!(!holds_controls(&escaped));
        let a: serde_json::Value = serde_json::from_str(json).unwrap();
        let b: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(a, b);
        assert!(matches!(json_escaped("{\"a\":1}"), Cow::Borrowed(_)));
    }

    #[test]
    fn conjoining_jamo_become_syllables_or_replacement_characters() {
        // 한국 written as jamo (as macOS writes file names), a run of leading consonants, a
        // vowel after a syllable, an old-Korean consonant with a vowel.
        assert_eq!(
            for_terminal("\u{1112}\u{1161}\u{11ab}\u{1100}\u{116e}\u{11a8}"),
            "한국"
        );
        assert_eq!(
            for_terminal("a\u{1100}\u{1100}\u{1100}b"),
            "a\u{fffd}\u{fffd}\u{fffd}b"
        );
        assert_eq!(for_terminal("가\u{1161}"), "가\u{fffd}");
        assert_eq!(for_terminal("\u{a960}\u{1161}!"), "\u{fffd}\u{fffd}!");
        // Precomposed text, and text around, are left as they are.
        assert!(matches!(for_terminal("한국어 Zoë"), Cow::Borrowed(_)));
        assert_eq!(for_terminal("\u{f900}\u{1100}\u{1161}"), "\u{f900}가");
        for s in [
            "\u{1100}\u{1100}\u{1161}",
            "x\u{1161}\u{11a8}",
            "\u{115f}\u{1160}",
            "\u{d7b0}",
        ] {
            assert!(!for_terminal(s).chars().any(is_conjoining_jamo), "{s:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2000,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]

        /// Whatever the text, what is drawn holds nothing that drives a terminal or that
        /// terminals measure differently, and plain text comes back unchanged.
        #[test]
        fn sanitised_text_never_holds_a_control_character(
            s in "(\\PC|\\p{Cc}|\\p{Cf}|[\u{1100}-\u{11ff}\u{ac00}-\u{ac20}\u{a960}-\u{a97f}\u{d7b0}-\u{d7ff}])*"
        ) {
            let out = for_terminal(&s);
            for c in out.chars() {
                proptest::prop_assert!(
                    !c.is_control() && !is_bidi_control(c) && !is_invisible_format(c)
                        && !is_conjoining_jamo(c),
                    "{c:?} in {out:?} from {s:?}"
                );
            }
            if !s.chars().any(|c| needs_replacing(c) || is_conjoining_jamo(c)) {
                proptest::prop_assert_eq!(out.as_ref(), s.as_str());
            }
        }
    }

    #[test]
    fn newlines_and_tabs_cannot_break_a_row() {
        assert_eq!(for_terminal("a\nb\tc"), "a␊b␉c");
    }
}
