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
