//! A find's text where it stands in what is drawn: found in any case, and marked.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Whether `hay` holds `needle` in any case.
pub fn holds(hay: &str, needle: &str) -> bool {
    !matches_in(hay, needle).is_empty()
}

/// Where `needle` stands in `hay`, in any case: byte ranges of `hay`, not overlapping.
pub fn matches_in(hay: &str, needle: &str) -> Vec<std::ops::Range<usize>> {
    let needle: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    if needle.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let starts: Vec<usize> = hay.char_indices().map(|(i, _)| i).collect();
    let mut k = 0;
    while k < starts.len() {
        let at = starts[k];
        let mut lowered = hay[at..].chars().flat_map(char::to_lowercase);
        if needle.iter().all(|c| lowered.next() == Some(*c)) {
            // The match ends after the characters whose lowercase made the needle.
            let mut taken = 0;
            let mut end = at;
            for ch in hay[at..].chars() {
                if taken >= needle.len() {
                    break;
                }
                taken += ch.to_lowercase().count();
                end += ch.len_utf8();
            }
            out.push(at..end);
            k = starts.partition_point(|&s| s < end);
        } else {
            k += 1;
        }
    }
    out
}

/// `text` as spans of `base` style, the places that hold `needle` in `hit` style.
pub fn marked(text: &str, needle: &str, base: Style, hit: Style) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut at = 0;
    for m in matches_in(text, needle) {
        if m.start > at {
            spans.push(Span::styled(text[at..m.start].to_string(), base));
        }
        spans.push(Span::styled(text[m.clone()].to_string(), hit));
        at = m.end;
    }
    if at < text.len() || spans.is_empty() {
        spans.push(Span::styled(text[at..].to_string(), base));
    }
    spans
}

/// A line with the places that hold `needle` in `hit` style (within each of its spans).
pub fn mark_line(line: Line<'static>, needle: &str, hit: Style) -> Line<'static> {
    let Line {
        spans,
        style,
        alignment,
    } = line;
    let spans: Vec<Span<'static>> = spans
        .into_iter()
        .flat_map(|s| marked(&s.content, needle, s.style, s.style.patch(hit)))
        .collect();
    let mut out = Line::from(spans).style(style);
    out.alignment = alignment;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_are_found_in_any_case_even_where_lowercase_changes_the_length() {
        assert_eq!(matches_in("ICEDisconnected ice", "ice"), [0..3, 16..19]);
        assert_eq!(matches_in("aaaa", "aa"), [0..2, 2..4]);
        let turkish = matches_in("İstanbul", "i̇s");
        assert_eq!((turkish.len(), &turkish[0]), (1, &(0..3)));
        assert_eq!(matches_in("Zoë ZOË", "zoë"), [0..4, 5..9]);
        assert!(matches_in("abc", "").is_empty());
        let spans = marked("code 4006!", "4006", Style::new(), Style::new().bold());
        let texts: Vec<&str> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(texts, ["code ", "4006", "!"]);
    }
}
