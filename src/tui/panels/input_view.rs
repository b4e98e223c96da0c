//! How a one-line input shows in a width: the part of its text in view, scrolled to the cursor,
//! and where the cursor stands. The filter editor, the find, the command line and the rooms
//! prompt draw their inputs with it.

use tui_input::Input;
use unicode_width::UnicodeWidthChar;

use crate::text::for_terminal;

/// The part of an input's text that shows in `width` columns, and the cursor's column within
/// it. A cursor at the end of a long text shows its end, the cursor after it; one within the
/// text keeps its character in view, with a column after it. A text scrolled past its start
/// begins with `…`, one cut before its end ends with it, except where the `…` would stand on the
/// cursor's character (the one a key deletes).
pub fn visible(input: &Input, width: usize) -> (String, usize) {
    let at_end = input.cursor() >= input.value().chars().count();
    let scroll = match at_end {
        true => input.visual_scroll(width),
        false => input.visual_scroll(width.saturating_sub(2)),
    };
    let column = input.visual_cursor().saturating_sub(scroll).min(width);
    let value = for_terminal(input.value()).into_owned();
    // `scroll` counts columns, not characters: a wide character hides two.
    let mut hidden = 0;
    let shown: String = value
        .chars()
        .skip_while(|c| {
            let skip = hidden < scroll;
            if skip {
                hidden += c.width().unwrap_or(0);
            }
            skip
        })
        .collect();
    let mut chars = shown.chars();
    let shown = match chars.next() {
        // The first character shown gives its columns to the `…`, so the cursor stays where it is.
        Some(first) if scroll > 0 && column > 0 => {
            let spaces = first.width().unwrap_or(0).saturating_sub(1);
            format!("…{}{}", " ".repeat(spaces), chars.as_str())
        }
        _ => shown,
    };
    // The cursor's character ending in the last column: the end is cut there, unmarked.
    let under = under_cursor(&shown, column);
    let text = if under > 0 && column + under == width {
        within(&shown, width)
    } else {
        crate::text::cut(&shown, width)
    };
    (text, column)
}

/// The columns of the character that starts at `column` of `text`; 0 where none does.
fn under_cursor(text: &str, column: usize) -> usize {
    let mut at = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if at == column && w > 0 {
            return w;
        }
        at += w;
        if at > column {
            break;
        }
    }
    0
}

/// The characters of `text` that fit whole in `width` columns.
fn within(text: &str, width: usize) -> String {
    let mut at = 0;
    text.chars()
        .take_while(|c| {
            at += c.width().unwrap_or(0);
            at <= width
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthStr;

    use super::*;

    /// The character starting at `column` of what an input shows.
    fn at_column(shown: &str, column: usize) -> Option<char> {
        let mut at = 0;
        shown.chars().find(|c| {
            let here = at == column;
            at += c.width().unwrap_or(0);
            here
        })
    }

    #[test]
    fn a_scrolled_input_shows_the_cursors_character_where_the_cursor_is() {
        for text in ["abcdefghijklmnop", "王a伟bc王d伟ef"] {
            let chars: Vec<char> = text.chars().collect();
            for width in 1..12 {
                for (cursor, &c) in chars.iter().enumerate() {
                    let input = Input::new(text.to_string()).with_cursor(cursor);
                    let (shown, column) = visible(&input, width);
                    let why = format!("{text:?}, cursor {cursor}, {width} columns: {shown:?}");
                    assert!(shown.width() <= width, "{why}");
                    if c.width().unwrap_or(0) <= width {
                        assert_eq!(at_column(&shown, column), Some(c), "{why} at {column}");
                    }
                }
            }
        }
        // Both ends are marked where the marks hide no character under the cursor.
        let input = Input::new("abcdefghijklmnop".into()).with_cursor(10);
        assert_eq!(visible(&input, 6), ("…hijk…".to_string(), 4));
        let end = Input::new("abcdefghijklmnop".into());
        assert_eq!(visible(&end, 6), ("…lmnop".to_string(), 6));
    }
}
