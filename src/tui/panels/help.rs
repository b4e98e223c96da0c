//! The help over the screen: every binding in force, generated from the key table, and the hint
//! bar made from the same table. The same overlay lists every problem met loading the events.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::{Focus, Handled, moved, moves};
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::{self, Mode};
use crate::tui::model::{Config, Model};
use crate::tui::update::events::fetch_more_if_near_end;
use crate::tui::view::wrap::{leading_spaces, wrap};

/// The help's state: what it shows, how far it is scrolled, and the focus it was opened from
/// (still drawn beneath it, and where the keyboard goes back to).
#[derive(Debug)]
pub struct HelpPanel {
    pub page: Page,
    pub scroll: u16,
    pub back: Box<Focus>,
}

/// What the overlay shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// Every key and command.
    Keys,
    /// Every problem met loading, each with its place.
    Problems,
}

impl HelpPanel {
    /// The help opened over `back`, at its top.
    pub fn over(back: Focus) -> HelpPanel {
        HelpPanel {
            page: Page::Keys,
            scroll: 0,
            back: Box::new(back),
        }
    }

    /// The load problems opened over `back`, at their top.
    pub fn problems(back: Focus) -> HelpPanel {
        HelpPanel {
            page: Page::Problems,
            ..HelpPanel::over(back)
        }
    }

    /// Scrolls by `delta` lines, within the help's lines.
    fn scroll_by(&mut self, delta: i64, max: u16) {
        let scroll = (i64::from(self.scroll) + delta).clamp(0, i64::from(u16::MAX));
        self.scroll = (scroll as u16).min(max);
    }
}

/// A command with the help open.
pub fn handle(mut help: HelpPanel, model: &mut Model, c: Command) -> Handled {
    let next = match c {
        // The list's moves, a line of the help for an event; a page is the lines shown.
        c if moves(c) => {
            let (shown, max) = page_size(model, help.page);
            let at = usize::from(help.scroll);
            let to = moved(at, usize::from(max) + 1, c, usize::from(shown).max(1));
            help.scroll_by(to as i64 - at as i64, max);
            Focus::Help(help)
        }
        Command::ToggleHelp => *help.back,
        // The key that opened the problems closes them; from the keys, it shows them.
        Command::ShowProblems if help.page == Page::Problems => *help.back,
        Command::ShowProblems => Focus::Help(HelpPanel::problems(*help.back)),
        _ => return Handled::Unused(Focus::Help(help)),
    };
    Handled::Done(next, fetch_more_if_near_end(model))
}

/// The wheel scrolls the help wherever the pointer is, no further than `max`
/// ([`max_scroll`]).
pub fn wheel(help: &mut HelpPanel, max: u16, step: i64) {
    help.scroll_by(step, max);
}

/// The sections of the help screen: one per mode, in this order.
/// Each section lists the bindings of its first mode, then those of the other modes not listed yet.
const SECTIONS: [(&[Mode], &str); 12] = [
    (
        &[Mode::List, Mode::Detail],
        "Browsing (in the detail pane, the moves scroll it)",
    ),
    (&[Mode::Groups], "In the groups view"),
    (&[Mode::Story], "In a peer's story"),
    (&[Mode::Quality], "In the network view"),
    (&[Mode::Timeline], "On the timeline"),
    (&[Mode::Facets], "In the facets"),
    (&[Mode::Json], "In the JSON tree"),
    (&[Mode::Editing], "In a filter input"),
    (
        &[Mode::Find, Mode::CommandLine],
        "On the find prompt and the command line",
    ),
    (&[Mode::SavePath, Mode::Confirm], "Saving"),
    (&[Mode::Rooms], "Choosing a room (live)"),
    (&[Mode::Help], "In this help and the load problems list"),
];

/// The help screen's lines, generated from the bindings in force: every binding once.
/// Wrapped to `width`, the overlay's inner width.
pub fn help_lines(config: &Config, width: u16) -> Vec<Line<'static>> {
    // A key's or a command's description that does not fit goes on below its own start.
    wrap(unwrapped_help_lines(config), width, |line| {
        if leading_spaces(line) == 2 {
            DESCRIPTION_COLUMN
        } else {
            0
        }
    })
}

/// Where the descriptions of the keys and commands start: after two spaces and 22 columns of
/// keys.
const DESCRIPTION_COLUMN: usize = 24;

fn unwrapped_help_lines(config: &Config) -> Vec<Line<'static>> {
    let theme = &config.theme;
    let mut lines = Vec::new();
    let mut listed: Vec<*const keymap::Bound> = Vec::new();
    for (modes, title) in SECTIONS {
        let mut section = Vec::new();
        // The keys of this mode that a section above lists: named, not described again (but
        // quitting, suspending and this help, which work everywhere).
        let mut also: Vec<String> = Vec::new();
        let above = listed.len();
        for b in modes.iter().flat_map(|m| config.keymap.bindings_for(*m)) {
            if listed.contains(&(b as *const _)) {
                let everywhere = matches!(
                    b.command(),
                    Command::Quit | Command::Suspend | Command::ToggleHelp
                );
                let keys = b.keys_label();
                if listed[..above].contains(&(b as *const _))
                    && !everywhere
                    && !also.contains(&keys)
                {
                    also.push(keys);
                }
                continue;
            }
            listed.push(b as *const _);
            section.push(Line::from(vec![
                Span::styled(format!("  {:<22}", b.keys_label()), theme.key()),
                Span::raw(b.help()),
            ]));
        }
        if !also.is_empty() {
            section.push(Line::from(vec![
                Span::styled(format!("  {:<22}", "and, as above"), theme.label()),
                Span::styled(also.join("  "), theme.key()),
            ]));
        }
        if !section.is_empty() {
            lines.push(Line::styled(title.to_string(), theme.title()));
            lines.append(&mut section);
            lines.push(Line::raw(""));
        }
    }
    // The commands of the command line, after the keys.
    lines.push(Line::styled(
        format!(
            "Commands ({} opens the line, Tab completes; !value hides)",
            config.keymap.key(Mode::List, Command::OpenCommandLine)
        ),
        theme.title(),
    ));
    for spec in super::command::COMMANDS {
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<22}", spec.usage), theme.key()),
            Span::raw(spec.help),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "A click selects a row or focuses a pane; the wheel scrolls the pane under the pointer."
            .to_string(),
        theme.label(),
    ));
    lines
}

/// The problems page: every problem met loading, each with its place (file:line:column), in
/// the order they were met, then the events read with a field of another type than the API's.
pub fn problem_lines(model: &Model, width: u16) -> Vec<Line<'static>> {
    let mut lines = load_problem_lines(model);
    if let Some(odd) = model.events.store.odd_fields().sentence() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("  note: {}", for_terminal(&odd)),
            model.config.theme.problem(),
        ));
    }
    wrap(lines, width, |line| leading_spaces(line) + 2)
}

/// The problems met loading, after a line that counts them.
fn load_problem_lines(model: &Model) -> Vec<Line<'static>> {
    let problems = &model.session.problems;
    if problems.is_empty() {
        return vec![Line::raw("No problem was met loading the events.")];
    }
    let mut lines = vec![
        Line::styled(
            format!(
                "{} met loading, each at its file:line:column; {} read {} shown.",
                crate::text::plural(problems.len(), "problem", "problems"),
                crate::text::plural(model.events.store.len(), "event", "events"),
                if model.events.store.len() == 1 {
                    "is"
                } else {
                    "are"
                },
            ),
            model.config.theme.title(),
        ),
        Line::raw(""),
    ];
    for p in problems {
        lines.push(Line::styled(
            format!("  {}", for_terminal(&p.to_string())),
            model.config.theme.problem(),
        ));
    }
    lines
}

/// A page's lines, wrapped to the overlay's inner width on the model's terminal.
fn page_lines(model: &Model, page: Page) -> Vec<Line<'static>> {
    let width = HELP_WIDTH.min(model.screen.width).saturating_sub(2);
    match page {
        Page::Keys => help_lines(&model.config, width),
        Page::Problems => problem_lines(model, width),
    }
}

pub fn draw(model: &Model, help: &HelpPanel, frame: &mut Frame, area: Rect) {
    let lines = page_lines(model, help.page);
    let scroll = help.scroll.min(lines.len().saturating_sub(1) as u16);
    let height = (lines.len() as u16 + 2).min(area.height);
    let [row] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(HELP_WIDTH.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    frame.render_widget(Clear, popup);
    let key = |c| model.config.keymap.key(Mode::Help, c);
    let closes: Vec<String> = model
        .config
        .keymap
        .bindings_for(Mode::Help)
        .filter(|b| b.command() == Command::ToggleHelp)
        .flat_map(|b| b.keys.iter().map(keymap::Key::label))
        .collect();
    let title = match help.page {
        Page::Keys => "keys".to_string(),
        Page::Problems => "load problems".to_string(),
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(model.config.theme.focused_border())
        .title(format!(
            " {title} ({}/{}, {}/{} scroll, {} closes) ",
            key(Command::Up),
            key(Command::Down),
            key(Command::PageUp),
            key(Command::PageDown),
            closes.join(" or ")
        ));
    frame.render_widget(
        Paragraph::new(lines).block(block).scroll((scroll, 0)),
        popup,
    );
}

/// The largest useful scroll of a page of the overlay on the model's terminal: the one that
/// shows its last line at the bottom.
pub fn max_scroll(model: &Model, page: Page) -> u16 {
    page_size(model, page).1
}

/// How many lines of a page of the overlay the model's terminal shows at once, and the
/// largest useful scroll ([`max_scroll`]).
fn page_size(model: &Model, page: Page) -> (u16, u16) {
    let lines = page_lines(model, page).len().min(u16::MAX as usize - 2) as u16;
    let shown = (lines + 2).min(model.screen.height).saturating_sub(2);
    (shown, lines.saturating_sub(shown))
}

/// The help overlay's width, at most.
const HELP_WIDTH: u16 = 76;

/// The hint bar: the current mode's hinted bindings (asking the service again only where
/// there is one).
pub fn hint_line(model: &Model) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    let live = model.session.live.is_some();
    // Help comes first, so that a narrow terminal still shows how to find every other key.
    let mut hinted: Vec<&keymap::Bound> = model
        .config
        .keymap
        .bindings_for(model.focus.mode())
        .filter(|b| b.hint().is_some() && (live || b.command() != Command::Rerun))
        .collect();
    hinted.sort_by_key(|b| b.command() != Command::ToggleHelp);
    let mut used = 1;
    for b in hinted {
        if let Some(hint) = b.hint() {
            let keys = b.keys_label();
            let text = format!(" {hint}  ");
            // A hint cut in half misleads: those that do not fit whole are left to the help.
            used += keys.width() + text.trim_end().width();
            if used > model.screen.width as usize {
                break;
            }
            used += 2;
            spans.push(Span::styled(keys, model.config.theme.key()));
            spans.push(Span::raw(text));
        }
    }
    Line::from(spans)
}
