//! Text laid out in terminal cells: cutting to a display width, fitting a table's columns.

/// The spaces between two columns of a table for people.
pub const TABLE_GAP: usize = 2;

/// The narrowest a text column gets before it ends in `…` and gives up nothing more.
pub const NARROWEST: usize = 8;

/// One way a table gives way when it is wider than the terminal.
#[derive(Debug, Clone, Copy)]
pub enum Give<'a> {
    /// The widest of these columns loses a cell at a time, none below `to` cells.
    Narrow { columns: &'a [usize], to: usize },
    /// The column is left out; the room it leaves goes back to the columns narrowed before,
    /// the most cut first.
    Drop(usize),
}

/// Fits a table's columns, `widths` wide with `gap` spaces between two, into `total` columns (a
/// terminal's width), giving way in the order of `order` and stopping as soon as it fits.
/// Returns which columns are kept; `widths` holds the narrowed widths. A table that still does
/// not fit keeps what is left, and the terminal wraps it.
pub fn fit_table(widths: &mut [usize], gap: usize, total: usize, order: &[Give]) -> Vec<bool> {
    let mut kept = vec![true; widths.len()];
    let wanted = widths.to_vec();
    let taken = |widths: &[usize], kept: &[bool]| -> usize {
        let shown: Vec<usize> = (0..widths.len()).filter(|&k| kept[k]).collect();
        shown.iter().map(|&k| widths[k]).sum::<usize>() + gap * shown.len().saturating_sub(1)
    };
    for step in order {
        if taken(widths, &kept) <= total {
            break;
        }
        match *step {
            Give::Narrow { columns, to } => {
                while taken(widths, &kept) > total {
                    let widest = columns
                        .iter()
                        .copied()
                        .filter(|&k| kept[k] && widths[k] > to)
                        .max_by_key(|&k| widths[k]);
                    match widest {
                        Some(k) => widths[k] -= 1,
                        None => break,
                    }
                }
            }
            Give::Drop(k) => {
                kept[k] = false;
                while taken(widths, &kept) < total {
                    let most_cut = (0..widths.len())
                        .filter(|&n| kept[n] && widths[n] < wanted[n])
                        .max_by_key(|&n| wanted[n] - widths[n]);
                    match most_cut {
                        Some(n) => widths[n] += 1,
                        None => break,
                    }
                }
            }
        }
    }
    kept
}

pub fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// Cuts a string to at most `max` columns, marking the cut with `…`.
pub fn cut(s: &str, max: usize) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    let mut width = 0;
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width + w + 1 > max {
            break;
        }
        out.push(c);
        width += w;
    }
    out.push('…');
    out
}

/// Cuts a string to at most `max` columns as [`cut`] does, but a number is never the last thing
/// kept: a number before `…` would read as cut, so one there is left out whole
/// (`connect 2003 Endpoi…`, `connect …`, never `connect 20…`).
pub fn cut_after_numbers(s: &str, max: usize) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let cut = cut(s, max);
    let kept = cut.strip_suffix('…').unwrap_or(&cut);
    format!("{}…", kept.trim_end_matches(|c: char| c.is_ascii_digit()))
}

/// Cuts a string to at most `max` columns at a space, marking the cut with `…`: a word (a
/// count, a path) is whole or left out, never cut, and a number is not the last word kept.
/// `…` alone where no word fits.
pub fn cut_at_space(s: &str, max: usize) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut end = 0;
    let mut width = 0;
    for (at, c) in s.char_indices() {
        if c == ' ' && width < max {
            end = at;
        }
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width >= max {
            break;
        }
    }
    // A number last would read as one the `…` goes on: the cut comes before it.
    let mut kept = s[..end].trim_end();
    while let Some(last) = kept.rsplit(' ').next()
        && last.contains(|c: char| c.is_ascii_digit())
    {
        kept = kept[..kept.len() - last.len()].trim_end();
    }
    format!("{kept}…")
}

/// Cuts a string to at most `max` columns from its start, marking the cut with `…`: the end of
/// a path, where its file's name is. A number is whole or left out.
pub fn cut_left(s: &str, max: usize) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut start = s.len();
    let mut width = 0;
    for (at, c) in s.char_indices().rev() {
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width + 1 > max {
            break;
        }
        start = at;
    }
    let digit = |c: char| c.is_ascii_digit();
    if s[..start].ends_with(digit) {
        start = s.len() - s[start..].trim_start_matches(digit).len();
    }
    format!("…{}", &s[start..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_cut_at_a_space_leaves_every_word_whole() {
        let s = "1,200 of 2,400 events";
        assert_eq!(cut_at_space(s, 40), s);
        assert_eq!(cut_at_space(s, 21), s);
        // Never `1,200 of 2,400…` or `1,200…`: a number before `…` reads as cut.
        assert_eq!(cut_at_space(s, 20), "1,200 of…");
        assert_eq!(cut_at_space(s, 9), "1,200 of…");
        assert_eq!(cut_at_space(s, 8), "…");
        assert_eq!(
            cut_at_space("retrying in 82 s (attempt 2, gives up", 30),
            "retrying in 82 s (attempt…"
        );
        assert_eq!(cut_at_space(s, 5), "…");
        assert_eq!(cut_at_space(s, 1), "…");
        assert_eq!(cut_at_space(s, 0), "");
        assert_eq!(cut_at_space("idle,  1 page", 9), "idle,…");
    }

    #[test]
    fn a_cut_leaves_no_number_before_its_ellipsis() {
        let s = "facets of connect 2003 EndpointUnreachable";
        assert_eq!(cut_after_numbers(s, 42), s);
        assert_eq!(
            cut_after_numbers(s, 41),
            "facets of connect 2003 EndpointUnreachab…"
        );
        assert_eq!(cut_after_numbers(s, 24), "facets of connect 2003 …");
        // Never `facets of connect 2003…` nor `facets of connect 20…`.
        assert_eq!(cut_after_numbers(s, 23), "facets of connect …");
        assert_eq!(cut_after_numbers(s, 21), "facets of connect …");
        assert_eq!(cut_after_numbers(s, 1), "…");
        assert_eq!(cut_after_numbers(s, 0), "");
    }

    #[test]
    fn a_cut_from_the_left_keeps_the_end() {
        let s = "/var/dumps/incident/page1.json";
        assert_eq!(cut_left(s, 40), s);
        assert_eq!(cut_left(s, 11), "…page1.json");
        // Never `…6-11-18.json`.
        assert_eq!(cut_left("dump-2026-11-18.json", 13), "…-11-18.json");
        assert_eq!(cut_left("漢字の名前.json", 8), "…前.json");
        assert_eq!(cut_left(s, 1), "…");
        assert_eq!(cut_left(s, 0), "");
    }

    proptest! {
        /// What each cut keeps fits, ends (or starts) with `…` when it is cut, and is the
        /// text's own: a cut at a space keeps a run of whole words from its start; no cut
        /// leaves a number beside its `…`.
        #[test]
        fn the_cuts_fit_and_keep_the_texts_own(
            words in proptest::collection::vec("[a-z0-9,漢]{1,6}", 0..8),
            max in 0usize..40,
        ) {
            let s = words.join(" ");
            let at_space = cut_at_space(&s, max);
            prop_assert!(display_width(&at_space) <= max);
            let left = cut_left(&s, max);
            prop_assert!(display_width(&left) <= max);
            let after_numbers = cut_after_numbers(&s, max);
            prop_assert!(display_width(&after_numbers) <= max);
            if display_width(&s) <= max {
                prop_assert_eq!(&at_space, &s);
                prop_assert_eq!(&left, &s);
                prop_assert_eq!(&after_numbers, &s);
            } else if max > 0 {
                let kept = after_numbers.strip_suffix('…').unwrap();
                prop_assert!(s.starts_with(kept));
                prop_assert!(!kept.ends_with(|c: char| c.is_ascii_digit()), "{}", kept);
                let kept = at_space.strip_suffix('…').unwrap();
                let n = kept.split_whitespace().count();
                prop_assert_eq!(kept, words[..n].join(" "));
                let last = kept.rsplit(' ').next().unwrap_or_default();
                prop_assert!(!last.contains(|c: char| c.is_ascii_digit()), "{}", kept);
                let end = left.strip_prefix('…').unwrap();
                prop_assert!(s.ends_with(end));
                let before = &s[..s.len() - end.len()];
                prop_assert!(
                    !(before.ends_with(|c: char| c.is_ascii_digit())
                        && end.starts_with(|c: char| c.is_ascii_digit())),
                    "a number cut: {}",
                    left
                );
                // The room is used, but for the digits of a number left out.
                prop_assert!(
                    display_width(&left) + 2 > max || before.ends_with(|c: char| c.is_ascii_digit()),
                    "room left unused: {}",
                    left
                );
            }
        }
    }
}
