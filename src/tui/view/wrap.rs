//! Lines broken into rows of a pane's width, each row after the first indented so that it reads
//! as the rest of its line.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// Breaks each line into rows of at most `width` columns, after a space when the row holds one
/// past its indentation, otherwise inside the word. The rows after a line's first start with
/// `indent(line)` spaces (at most half the width, so that text always has room).
pub fn wrap(
    lines: Vec<Line<'static>>,
    width: u16,
    indent: impl Fn(&Line<'static>) -> usize,
) -> Vec<Line<'static>> {
    let width = width.max(1) as usize;
    let mut rows = Vec::new();
    for line in lines {
        let cells: Vec<(char, Style)> = line
            .spans
            .iter()
            .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
            .collect();
        let hanging = indent(&line).min(width / 2);
        let mut start = 0;
        let mut first = true;
        loop {
            let room = if first { width } else { width - hanging };
            let mut end = start;
            let mut used = 0;
            let mut after_space = None;
            let mut seen_text = false;
            while end < cells.len() {
                let w = cells[end].0.width().unwrap_or(0);
                if used + w > room && end > start {
                    break;
                }
                used += w;
                if cells[end].0 == ' ' {
                    if seen_text {
                        after_space = Some(end + 1);
                    }
                } else {
                    seen_text = true;
                }
                end += 1;
            }
            if end < cells.len()
                && cells[end].0 != ' '
                && let Some(at) = after_space
            {
                end = at;
            }
            let pad = if first { 0 } else { hanging };
            rows.push(row_line(pad, &cells[start..end], &line));
            if end >= cells.len() {
                break;
            }
            // The space a row was broken at is not carried to the next row.
            start = if cells[end].0 == ' ' { end + 1 } else { end };
            if start >= cells.len() {
                break;
            }
            first = false;
        }
    }
    rows
}

/// The spaces a line starts with.
pub fn leading_spaces(line: &Line<'_>) -> usize {
    line.spans
        .iter()
        .flat_map(|s| s.content.chars())
        .take_while(|&c| c == ' ')
        .count()
}

fn row_line(pad: usize, cells: &[(char, Style)], line: &Line<'static>) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    if pad > 0 {
        spans.push(Span::raw(" ".repeat(pad)));
    }
    let mut text = String::new();
    let mut style = cells.first().map(|c| c.1).unwrap_or_default();
    for &(c, s) in cells {
        if s != style {
            spans.push(Span::styled(std::mem::take(&mut text), style));
            style = s;
        }
        text.push(c);
    }
    if !text.is_empty() {
        spans.push(Span::styled(text, style));
    }
    let mut row = Line::from(spans).style(line.style);
    row.alignment = line.alignment;
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rows: &[Line<'static>]) -> Vec<String> {
        rows.iter()
            .map(|r| r.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn the_rows_after_the_first_keep_the_lines_indent_and_break_after_spaces() {
        let line = Line::from(vec![
            Span::raw("  message: "),
            Span::raw("the peer could not reach the server"),
        ]);
        let rows = wrap(vec![line], 20, |l| leading_spaces(l) + 2);
        assert_eq!(
            texts(&rows),
            [
                "  message: the peer ",
                "    could not reach ",
                "    the server"
            ]
        );
        assert!(rows.iter().all(|r| r.width() <= 20));
    }

    #[test]
    fn a_word_longer_than_a_row_is_cut_and_the_indent_leaves_room_for_text() {
        let rows = wrap(vec![Line::raw("  abcdefghij")], 6, |_| 10);
        assert_eq!(texts(&rows), ["  abcd", "   efg", "   hij"]);
    }

    #[test]
    fn a_line_that_fits_is_one_row() {
        let rows = wrap(vec![Line::raw("  short")], 40, |_| 4);
        assert_eq!(texts(&rows), ["  short"]);
    }
}
