use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme;
use crate::tui::keymap::{self, Mode};
use crate::tui::model::Model;

/// The sections of the help screen: one per mode, in this order.
/// Each section lists the bindings of its first mode, then those of the other modes not listed yet.
const SECTIONS: [(&[Mode], &str); 7] = [
    (
        &[Mode::List, Mode::Detail],
        "Browsing (in the detail pane, the moves scroll it)",
    ),
    (&[Mode::Groups], "In the groups view"),
    (&[Mode::Story], "In a peer's story"),
    (&[Mode::Timeline], "On the timeline"),
    (&[Mode::Editing], "In a filter input"),
    (&[Mode::SavePath, Mode::Confirm], "Saving"),
    (&[Mode::Help], "In this help"),
];

/// The help screen's lines, generated from the key table: every binding once.
pub fn help_lines() -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut listed: Vec<*const keymap::Binding> = Vec::new();
    for (modes, title) in SECTIONS {
        let mut section = Vec::new();
        for b in modes.iter().flat_map(|m| keymap::bindings_for(*m)) {
            if listed.contains(&(b as *const _)) {
                continue;
            }
            listed.push(b as *const _);
            section.push(Line::from(vec![
                Span::styled(format!("  {:<22}", keymap::keys_label(b)), theme::key()),
                Span::raw(b.help),
            ]));
        }
        // A mode whose keys were all listed above gets no empty section.
        if !section.is_empty() {
            lines.push(Line::styled(title.to_string(), theme::title()));
            lines.append(&mut section);
            lines.push(Line::raw(""));
        }
    }
    lines.push(Line::styled(
        "The mouse wheel scrolls the pane under the pointer.".to_string(),
        theme::label(),
    ));
    lines
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let lines = help_lines();
    let scroll = model.help_scroll.min(lines.len().saturating_sub(1) as u16);
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
        .title(" keys (↑/↓ scroll, ? or Esc closes) ");
    frame.render_widget(
        Paragraph::new(lines).block(block).scroll((scroll, 0)),
        popup,
    );
}

/// The hint bar: the current mode's hinted bindings.
pub fn hint_line(model: &Model) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    // Help comes first, so that a narrow terminal still shows how to find every other key.
    let mut hinted: Vec<&keymap::Binding> = keymap::bindings_for(model.mode)
        .filter(|b| b.hint.is_some())
        .collect();
    hinted.sort_by_key(|b| b.command != crate::tui::action::Command::ToggleHelp);
    for b in hinted {
        if let Some(hint) = b.hint {
            spans.push(Span::styled(keymap::keys_label(b), theme::key()));
            spans.push(Span::raw(format!(" {hint}  ")));
        }
    }
    Line::from(spans)
}
