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
pub fn for_terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_replacing) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().map(replacement).collect())
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
    fn newlines_and_tabs_cannot_break_a_row() {
        assert_eq!(for_terminal("a\nb\tc"), "a␊b␉c");
    }
}
