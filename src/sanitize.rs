//! Neutralises what a string from the data could do to a terminal.
//!
//! Every string drawn on the screen goes through [`for_terminal`]: an `error_message` must never be
//! able to move the cursor, change colours, set the window title, ring the bell, or reorder text.

use std::borrow::Cow;

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

#[cfg(test)]
mod tests {
    use super::*;

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
