//! Text laid out in terminal cells: cutting to a display width, fitting a table's columns.

/// The spaces between two columns of a table for people.
pub const TABLE_GAP: usize = 2;

/// A column is not narrowed below this many cells (its text then ends in `…`).
pub const NARROWEST: usize = 8;

/// Fits a table's columns, `widths` wide with `gap` spaces between two, into `total` columns (a
/// terminal's width). While it is too wide: the columns of `drop_first` are left out, in that
/// order; then the widest of `narrowing` loses a cell at a time, down to [`NARROWEST`]; then the
/// columns of `drop_last` are left out, the room each leaves going back to the narrowed ones.
/// Returns which columns are kept; `widths` holds the narrowed widths. A table that still does
/// not fit keeps what is left, and the terminal wraps it.
pub fn fit_table(
    widths: &mut [usize],
    gap: usize,
    total: usize,
    drop_first: &[usize],
    narrowing: &[usize],
    drop_last: &[usize],
) -> Vec<bool> {
    let mut kept = vec![true; widths.len()];
    let wanted = widths.to_vec();
    let taken = |widths: &[usize], kept: &[bool]| -> usize {
        let shown: Vec<usize> = (0..widths.len()).filter(|&k| kept[k]).collect();
        shown.iter().map(|&k| widths[k]).sum::<usize>() + gap * shown.len().saturating_sub(1)
    };
    for &k in drop_first {
        if taken(widths, &kept) <= total {
            return kept;
        }
        kept[k] = false;
    }
    while taken(widths, &kept) > total {
        let widest = narrowing
            .iter()
            .copied()
            .filter(|&k| kept[k] && widths[k] > NARROWEST)
            .max_by_key(|&k| widths[k]);
        match widest {
            Some(k) => widths[k] -= 1,
            None => break,
        }
    }
    for &k in drop_last {
        if taken(widths, &kept) <= total {
            return kept;
        }
        kept[k] = false;
        // What the column left is given back to the narrowed ones, the most cut first.
        while taken(widths, &kept) < total {
            let most_cut = narrowing
                .iter()
                .copied()
                .filter(|&n| kept[n] && widths[n] < wanted[n])
                .max_by_key(|&n| wanted[n] - widths[n]);
            match most_cut {
                Some(n) => widths[n] += 1,
                None => break,
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
