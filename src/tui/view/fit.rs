//! Lines fitted to the columns they have: a line cut at its end says so with `…`.

use ratatui::text::{Line, Span};

/// `line` in at most `width` columns: whole where it fits, else cut by [`crate::text::cut`] in
/// the span the edge falls in, so that `…` is its last column; the spans kept keep their styles.
pub fn line(line: Line<'static>, width: usize) -> Line<'static> {
    if line.width() <= width {
        return line;
    }
    let mut room = width;
    let mut spans = Vec::new();
    if room == 0 {
        return Line::default().style(line.style);
    }
    for span in line.spans {
        let w = span.width();
        if w < room {
            room -= w;
            spans.push(span);
            continue;
        }
        // A `…` after the span's text: it is cut even where it ends at the edge exactly, for
        // what comes after it is not shown.
        let cut = crate::text::cut(&format!("{}…", span.content), room);
        spans.push(Span::styled(cut, span.style));
        break;
    }
    Line {
        spans,
        style: line.style,
        alignment: line.alignment,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;

    #[test]
    fn a_line_too_wide_ends_in_an_ellipsis_at_its_last_column_and_keeps_its_styles() {
        let wide = Line::from(vec![
            Span::styled("abc", Style::new().red()),
            Span::raw("def"),
        ]);
        for width in 1..=7 {
            let fitted = line(wide.clone(), width);
            let text: String = fitted.spans.iter().map(|s| s.content.as_ref()).collect();
            if width >= 6 {
                assert_eq!(text, "abcdef");
            } else {
                assert_eq!(fitted.width(), width, "{text:?}");
                assert!(text.ends_with('…'), "{width}: {text:?}");
                assert!("abcdef".starts_with(text.trim_end_matches('…')));
            }
            assert_eq!(fitted.spans[0].style, Style::new().red());
        }
    }
}
