use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use unicode_width::UnicodeWidthStr;

use crate::tui::action::Command;
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

/// The help screen's lines, generated from the bindings in force: every binding once.
pub fn help_lines(model: &Model) -> Vec<Line<'static>> {
    let theme = &model.theme;
    let mut lines = Vec::new();
    let mut listed: Vec<*const keymap::Bound> = Vec::new();
    for (modes, title) in SECTIONS {
        let mut section = Vec::new();
        for b in modes.iter().flat_map(|m| model.keymap.bindings_for(*m)) {
            if listed.contains(&(b as *const _)) {
                continue;
            }
            listed.push(b as *const _);
            section.push(Line::from(vec![
                Span::styled(format!("  {:<22}", b.keys_label()), theme.key()),
                Span::raw(b.help()),
            ]));
        }
        // A mode whose keys were all listed above gets no empty section.
        if !section.is_empty() {
            lines.push(Line::styled(title.to_string(), theme.title()));
            lines.append(&mut section);
            lines.push(Line::raw(""));
        }
    }
    lines.push(Line::styled(
        "A click selects a row or focuses a pane; the wheel scrolls the pane under the pointer."
            .to_string(),
        theme.label(),
    ));
    lines
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let lines = help_lines(model);
    let scroll = model.help_scroll.min(lines.len().saturating_sub(1) as u16);
    let height = (lines.len() as u16 + 2).min(area.height);
    let [row] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(HELP_WIDTH.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    frame.render_widget(Clear, popup);
    let key = |c| model.keymap.key(Mode::Help, c);
    let closes: Vec<String> = model
        .keymap
        .bindings_for(Mode::Help)
        .filter(|b| b.command() == Command::ToggleHelp)
        .flat_map(|b| b.keys.iter().map(keymap::Key::label))
        .collect();
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(model.theme.focused_border())
        .title(format!(
            " keys ({}/{} scroll, {} closes) ",
            key(Command::Up),
            key(Command::Down),
            closes.join(" or ")
        ));
    frame.render_widget(
        Paragraph::new(lines).block(block).scroll((scroll, 0)),
        popup,
    );
}

/// The largest useful scroll of the help: the one that shows its last line at the bottom.
pub fn max_scroll(model: &Model) -> u16 {
    let lines = help_lines(model).len().min(u16::MAX as usize - 2) as u16;
    let shown = (lines + 2).min(model.height).saturating_sub(2);
    lines.saturating_sub(shown)
}

/// The help overlay's width, at most.
const HELP_WIDTH: u16 = 76;

/// The hint bar: the current mode's hinted bindings.
pub fn hint_line(model: &Model) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    // Help comes first, so that a narrow terminal still shows how to find every other key.
    let mut hinted: Vec<&keymap::Bound> = model
        .keymap
        .bindings_for(model.mode)
        .filter(|b| b.hint().is_some())
        .collect();
    hinted.sort_by_key(|b| b.command() != Command::ToggleHelp);
    let mut used = 1;
    for b in hinted {
        if let Some(hint) = b.hint() {
            let keys = b.keys_label();
            let text = format!(" {hint}  ");
            // A hint cut in half misleads: those that do not fit whole are left to the help.
            used += keys.width() + text.trim_end().width();
            if used > model.width as usize {
                break;
            }
            used += 2;
            spans.push(Span::styled(keys, model.theme.key()));
            spans.push(Span::raw(text));
        }
    }
    Line::from(spans)
}
