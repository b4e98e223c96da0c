//! The header's second line: each of the five types with its key and a mark that reads without
//! colour or strikethrough (`[x]` shown, `[ ]` hidden, whatever in the filter shows or hides
//! it), then the types no key names that are chosen. Where the terminal is too narrow, the line
//! gives way in a fixed order ([`line()`]); every type's mark stays, and what is left out is
//! counted.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::event::EventType;
use crate::text::{display_width, for_terminal};
use crate::tui::model::Model;

/// One type on the line.
struct Entry {
    mark: &'static str,
    /// The key that toggles it, for the five the keys name.
    key: Option<usize>,
    name: String,
    style: Style,
}

impl Entry {
    /// The entry's spans, its name cut to `…` when `cut`; an entry without a key has no
    /// shorter form.
    fn spans(&self, label: Style, cut: bool) -> [Span<'static>; 3] {
        let text = match (self.key, cut) {
            (Some(k), true) => format!("{k}…"),
            (Some(k), false) => format!("{k} {}", self.name),
            (None, _) => self.name.clone(),
        };
        [
            Span::raw(" "),
            Span::styled(self.mark, label),
            Span::styled(text, self.style),
        ]
    }
}

/// The line's forms, the first that fits `width` taken: whole; with the note that the other
/// families are hidden as a mark of its own (`[ ]others`); that without the `types` label;
/// with the label, the names cut from the last (the chosen types no key names left out and
/// counted, `+2 more`, the five cut to key and mark, `[x]5…`); all cut without the label;
/// and last, cut at an entry with `…`.
pub(super) fn line(model: &Model, width: usize) -> Line<'static> {
    let theme = &model.config.theme;
    let mut entries: Vec<Entry> = EventType::KNOWN
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let on = model.events.filter.has_type(t);
            Entry {
                mark: if on { "[x]" } else { "[ ]" },
                key: Some(k + 1),
                name: t.alias().to_string(),
                style: if on {
                    theme.type_on(t)
                } else {
                    theme.type_off()
                },
            }
        })
        .collect();
    entries.extend(
        model
            .events
            .filter
            .shown_types()
            .iter()
            .filter(|t| !t.is_known())
            .map(|t| Entry {
                mark: "[x]",
                key: None,
                name: for_terminal(t.name()).into_owned(),
                style: theme.type_on(t),
            }),
    );
    // With a type chosen (by the keys, `--type`, or a group's events), the families no key
    // names (track, recording...) are left out: said, since the five keys all marked look the
    // same as no type chosen.
    let others = model.events.filter.narrows_types();
    let note = |short: bool| -> Vec<Span<'static>> {
        match (others, short) {
            (false, _) => Vec::new(),
            (true, false) => vec![Span::styled(" │ others hidden", theme.label())],
            (true, true) => vec![
                Span::raw(" "),
                Span::styled("[ ]", theme.label()),
                Span::styled("others", theme.type_off()),
            ],
        }
    };
    // The line with the label or not, the last `cut` entries cut, and the note long or short:
    // its pieces (the label, each entry, the count of those left out, the note).
    let form = |label: bool, cut: usize, short: bool| -> Vec<Vec<Span<'static>>> {
        let mut pieces = Vec::new();
        if label {
            pieces.push(vec![Span::styled(" types", theme.label())]);
        }
        let from = entries.len() - cut;
        let mut more = 0;
        for (n, e) in entries.iter().enumerate() {
            if n >= from && e.key.is_none() {
                more += 1;
            } else {
                pieces.push(e.spans(theme.label(), n >= from).to_vec());
            }
        }
        if more > 0 {
            pieces.push(vec![Span::styled(format!(" +{more} more"), theme.label())]);
        }
        pieces.push(note(short));
        pieces
    };
    let all = entries.len();
    let forms = [
        form(true, 0, false),
        form(true, 0, true),
        form(false, 0, true),
    ]
    .into_iter()
    .chain((1..=all).map(|cut| form(true, cut, true)))
    .chain([form(false, all, true)]);
    let mut last = Vec::new();
    for pieces in forms {
        if pieces.iter().map(|p| width_of(p)).sum::<usize>() <= width {
            return Line::from(pieces.concat());
        }
        last = pieces;
    }
    Line::from(cut_at_piece(last, width))
}

fn width_of(spans: &[Span]) -> usize {
    spans.iter().map(|s| display_width(&s.content)).sum()
}

/// The pieces that leave room for ` …` (two columns) after them, whole, then ` …`.
fn cut_at_piece(pieces: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Span<'static>> {
    let mut kept = Vec::new();
    let mut used = 0;
    for piece in pieces {
        let w = width_of(&piece);
        if used + w + 2 > width {
            break;
        }
        used += w;
        kept.extend(piece);
    }
    kept.push(Span::raw(if used + 2 <= width { " …" } else { "…" }));
    kept
}
