use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Wrap};

use super::layout::TABLE_FIRST_ROW;
use crate::event::EventType;
use crate::output::status_word;
use crate::sanitize::for_terminal;
use crate::store::NO_TIME;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, LoadState, Model};

/// The list's columns: header, width, and whether the column may be dropped on a narrow screen
/// (the last ones go first).
const COLUMNS: [(&str, u16, bool); 9] = [
    ("TIME", 12, false),
    ("TYPE", 10, false),
    ("CODE", 4, false),
    ("ERROR", 20, false),
    ("STATUS", 7, false),
    ("ROOM", 14, true),
    ("USER", 12, true),
    ("SDK", 14, true),
    ("OS", 14, true),
];

/// Where the room's column is in [`COLUMNS`].
const ROOM: usize = 5;

/// The columns drawn in `width` cells, by their place in [`COLUMNS`]: those that fit, the
/// optional ones going first from the end. With a room filter the room's column is left out
/// (the header names the room), which leaves its width to the SDK and the OS.
fn columns_shown(width: u16, one_room: bool) -> Vec<usize> {
    let mut used = 0u16;
    let mut shown = Vec::new();
    for (k, (_, w, optional)) in COLUMNS.iter().enumerate() {
        if one_room && k == ROOM {
            continue;
        }
        used += w + 1;
        if *optional && used > width {
            break;
        }
        shown.push(k);
    }
    shown
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let focused = model.mode == Mode::List;
    let title = match model.selected_event() {
        Some(_) => format!(
            " events {}/{} ",
            model.selection.selected + 1,
            model.shown.len()
        ),
        None => " events ".to_string(),
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(if focused {
            model.theme.focused_border()
        } else {
            model.theme.border()
        })
        .title(title);
    if model.shown.is_empty() {
        let text = if model.load == LoadState::Loading {
            "loading…".to_string()
        } else if model.store.is_empty() {
            match model.live.as_ref().map(|l| &l.fetch) {
                // The header has room for the start of the reason only: here it is whole.
                Some(Fetch::Failed(reason)) => format!(
                    "no events loaded: {} ({} tries again)",
                    for_terminal(reason),
                    model.keymap.key(Mode::List, Command::Rerun)
                ),
                _ => "no events loaded".to_string(),
            }
        } else {
            format!(
                "no event matches the filters ({} clears them)",
                model.keymap.key(Mode::List, Command::ClearFilters)
            )
        };
        frame.render_widget(
            Paragraph::new(format!(" {text}"))
                .wrap(Wrap { trim: false })
                .block(block),
            area,
        );
        return;
    }
    let height = area.height.saturating_sub(TABLE_FIRST_ROW) as usize;
    let start = model.selection.offset.min(model.shown.len());
    let end = (start + height).min(model.shown.len());
    let shown = columns_shown(area.width, model.filter.room.is_some());
    let rows: Vec<Row> = (start..end)
        .map(|k| {
            let row = event_row(model, model.shown[k] as usize, &shown);
            if k == model.selection.selected {
                row.style(model.theme.selected_row())
            } else {
                row
            }
        })
        .collect();
    let header = Row::new(shown.iter().map(|&k| COLUMNS[k].0)).style(model.theme.heading());
    let mut widths: Vec<Constraint> = shown
        .iter()
        .map(|&k| Constraint::Length(COLUMNS[k].1))
        .collect();
    if let Some(last) = widths.last_mut() {
        *last = Constraint::Fill(1);
    }
    let table = Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .block(block);
    frame.render_widget(table, area);
}

fn event_row(model: &Model, i: usize, shown: &[usize]) -> Row<'static> {
    let store = &model.store;
    let row = store.row(i);
    let s = |sym| for_terminal(store.str(sym)).into_owned();
    let kind = EventType::from_name(store.str(row.kind));
    let time = if row.ts == NO_TIME {
        "-".to_string()
    } else {
        crate::time::format_short(row.ts)[11..].to_string()
    };
    // Events a follow-mode refresh brought are marked new.
    let is_new = model
        .follow
        .as_ref()
        .and_then(|f| f.new_from)
        .is_some_and(|from| i >= from);
    let room = if row.room_name.is_none() {
        s(row.room_id)
    } else {
        s(row.room_name)
    };
    let join = |a: String, b: String| if b.is_empty() { a } else { format!("{a} {b}") };
    let cells = vec![
        if is_new {
            Cell::from(Span::styled(time, model.theme.new_event()))
        } else {
            Cell::from(time)
        },
        Cell::from(Span::styled(
            for_terminal(kind.short()).into_owned(),
            model.theme.event_type(&kind),
        )),
        Cell::from(row.error_code().map(|c| c.to_string()).unwrap_or_default()),
        Cell::from(s(row.error_name)),
        Cell::from(Line::from(Span::styled(
            status_word(row.is_terminal()),
            model.theme.terminal(row.is_terminal()),
        ))),
        Cell::from(room),
        Cell::from(s(row.user_name)),
        Cell::from(join(s(row.sdk), s(row.sdk_version))),
        Cell::from(join(s(row.os), s(row.os_version))),
    ];
    let cells = cells
        .into_iter()
        .enumerate()
        .filter(|(k, _)| shown.contains(k))
        .map(|(_, cell)| cell);
    Row::new(cells)
}
