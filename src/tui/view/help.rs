use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme;
use crate::tui::keymap::{self, Mode};
use crate::tui::model::Model;

/// The sections of the help screen: one per mode, in this order.
const SECTIONS: [(Mode, &str); 3] = [
    (Mode::List, "In the list"),
    (Mode::Detail, "In the detail pane"),
    (Mode::Editing, "In a filter input"),
];

/// The help screen's lines, generated from the key table.
pub fn help_lines() -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (mode, title) in SECTIONS {
        lines.push(Line::styled(title.to_string(), theme::title()));
        for b in keymap::bindings_for(mode) {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<22}", keymap::keys_label(b)), theme::key()),
                Span::raw(b.help),
            ]));
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled(
        "The mouse wheel scrolls the pane under the pointer.".to_string(),
        theme::label(),
    ));
    lines
}

pub fn draw(_model: &Model, frame: &mut Frame, area: Rect) {
    let lines = help_lines();
    let height = (lines.len() as u16 + 2).min(area.height);
    let [row] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(76.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    frame.render_widget(Clear, popup);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme::focused_border())
        .title(" keys (? or Esc closes) ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

/// The hint bar: the current mode's hinted bindings.
pub fn hint_line(model: &Model) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    for b in keymap::bindings_for(model.mode) {
        if let Some(hint) = b.hint {
            spans.push(Span::styled(keymap::keys_label(b), theme::key()));
            spans.push(Span::raw(format!(" {hint}  ")));
        }
    }
    Line::from(spans)
}
