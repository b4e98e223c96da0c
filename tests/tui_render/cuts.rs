//! Text cut to its place ends in `…`: the header's lines and messages, titles, a story's lines,
//! the network view's legends and the JSON tree's values, at every width. A word that runs into
//! a border or the screen's edge is cut unless the same view shows it on a screen wide enough.

use super::*;

/// Whether a cell holds text a cut could fall in (not a border, a bar, a chart's dots or a mark).
fn is_text(cell: &str) -> bool {
    cell.chars().next().is_some_and(|c| {
        !c.is_whitespace()
            && !('\u{2500}'..='\u{25ff}').contains(&c)
            && !('\u{2800}'..='\u{28ff}').contains(&c)
            && c != '…'
    })
}

/// Whether a cell is where a place ends: a border.
fn is_edge(cell: &str) -> bool {
    ["│", "┐", "┘", "┤", "║", "┌", "└", "├", "┬", "┴", "─"].contains(&cell)
}

/// Every word of a screen: what is between spaces and borders.
fn words_of(buffer: &Buffer) -> std::collections::HashSet<String> {
    let mut words = std::collections::HashSet::new();
    for y in 0..buffer.area.height {
        let mut word = String::new();
        for cell in row_cells(buffer, y) {
            if cell == " " || is_edge(cell) {
                words.insert(std::mem::take(&mut word));
            } else {
                word.push_str(cell);
            }
        }
        words.insert(word);
    }
    words
}

/// The rows where a word runs into the screen's right edge or a border, is not one the same
/// view shows on a screen wide enough for it (`whole`), and does not end in `…`: a word cut
/// without a mark.
fn cut_without_mark(buffer: &Buffer, whole: &std::collections::HashSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for y in 0..buffer.area.height {
        let cells = row_cells(buffer, y);
        let last = cells.len() - 1;
        for x in 0..cells.len() {
            let edge = x == last || is_edge(cells[x + 1]);
            if !edge || !is_text(cells[x]) || is_edge(cells[x]) {
                continue;
            }
            let start = (0..=x)
                .rev()
                .find(|&k| cells[k] == " " || is_edge(cells[k]))
                .map_or(0, |k| k + 1);
            let word = cells[start..=x].concat();
            // A word broken by wrapping goes on at the start of the next row's text, and the
            // two pieces are part of a word of the wide screen.
            let wrapped = y + 1 < buffer.area.height && {
                let next = row_cells(buffer, y + 1);
                let from = (0..start)
                    .rev()
                    .find(|&k| is_edge(next[k]))
                    .map_or(0, |k| k + 1);
                let rest = next[from..].concat();
                let piece = rest.split_whitespace().next().unwrap_or_default();
                let joined = format!("{word}{piece}");
                !piece.is_empty() && whole.iter().any(|w| w.contains(&joined))
            };
            // A word that closes a parenthesis ends its phrase (`(f shows them all)`).
            let closed = word.ends_with(')');
            if !word.ends_with('…') && !whole.contains(&word) && !wrapped && !closed {
                found.push(format!("{y}: {word:?} in {}", cells.concat()));
            }
        }
    }
    found
}

/// Each view of the demo at this size, by its name.
fn views(size: (u16, u16)) -> Vec<(&'static str, Model)> {
    let mut out = Vec::new();
    let mut m = demo(Filter::default(), size);
    m.status = Some(
        "sent 312 bytes of JSON to the terminal's clipboard (OSC 52); if it does not arrive, w \
         writes it to a file"
            .into(),
    );
    out.push(("list and a message", m));
    let mut m = demo(Filter::default(), size);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::ToggleTimeline);
    out.push(("groups, T said to do nothing", m));
    let mut m = demo(peer_priya(), size);
    run(&mut m, Command::ShowStory);
    out.push(("story", m));
    out.push(("network", priyas_network(size)));
    let mut m = demo(Filter::default().with(Field::Room, STORM_ROOM_ID), size);
    run(&mut m, Command::ShowJson);
    out.push(("JSON tree", m));
    let mut m = demo(Filter::default(), size);
    run(&mut m, Command::ToggleTimeline);
    out.push(("timeline", m));
    let mut m = demo(Filter::default(), size);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::ToggleFacets);
    out.push(("facets of a group", m));
    let mut m = demo(Filter::default(), size);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::HideValue);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::EditFilters);
    out.push(("filter box", m));
    out
}

#[test]
fn every_text_cut_to_its_place_ends_in_an_ellipsis() {
    let mut failures = Vec::new();
    let wide: Vec<_> = views((300, 60))
        .iter()
        .map(|(_, m)| words_of(draw(m).backend().buffer()))
        .collect();
    for width in [40, 50, 60, 66, 72, 80, 90, 100, 112, 120, 140] {
        for ((name, m), whole) in views((width, 30)).iter().zip(&wide) {
            let t = draw(m);
            for row in cut_without_mark(t.backend().buffer(), whole) {
                failures.push(format!("{name} at {width}: {row}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
