//! A peer's story, in the list's place: its events folded into retry chains, as lines to
//! scroll through; the detail pane shows the selected line's event.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::help::HelpPanel;
use super::{Focus, Handled, moved, moves, shifted, visible_offset};
use crate::event::EventType;
use crate::insight::{self, Story};
use crate::output::status_word;
use crate::store::NO_TIME;
use crate::text::cut;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::clipboard;
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::view::layout::{STORY_FIRST_ROW, list_height};

/// A peer's story: its events folded into chains, as lines to scroll through.
#[derive(Debug)]
pub struct StoryPanel {
    pub story: Story,
    pub lines: Vec<StoryLine>,
    pub selected: usize,
    pub offset: usize,
    /// Where the keyboard goes back to when the story closes.
    pub back: Box<Focus>,
}

/// One line of a story: a chain's summary, or one of its events (a store index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoryLine {
    Chain(usize),
    Event(u32),
    /// The events that belong to no chain (other families, no time) follow this line.
    Outside,
}

impl StoryPanel {
    /// The event the detail pane shows: the selected line's, or its chain's first on a chain's
    /// line.
    pub fn focused_event(&self) -> Option<usize> {
        match self.lines.get(self.selected) {
            Some(StoryLine::Event(i)) => Some(*i as usize),
            Some(StoryLine::Chain(c)) => self.story.chains[*c].events.first().map(|&i| i as usize),
            _ => None,
        }
    }
}

/// `p`: the story of the selected event's peer, opened on that event; closing it goes back to
/// `here`. An event without a peer has no story: it says so, and the keyboard stays.
pub fn open(model: &mut Model, here: Focus) -> Handled {
    let Some(i) = model.selected_event() else {
        return Handled::to(here);
    };
    let store = &model.events.store;
    let peer = store.row(i).peer_id;
    if peer.is_none() {
        model.status = Some("this event has no peer_id: it belongs to no peer's story".into());
        return Handled::to(here);
    }
    let story = insight::story(store, peer);
    let mut lines = Vec::new();
    for (c, chain) in story.chains.iter().enumerate() {
        lines.push(StoryLine::Chain(c));
        lines.extend(chain.events.iter().map(|&e| StoryLine::Event(e)));
    }
    let outside: Vec<u32> = story
        .events
        .iter()
        .zip(&story.chain_of)
        .filter(|(_, c)| c.is_none())
        .map(|(&e, _)| e)
        .collect();
    if !outside.is_empty() {
        lines.push(StoryLine::Outside);
        lines.extend(outside.into_iter().map(StoryLine::Event));
    }
    let selected = lines
        .iter()
        .position(|l| *l == StoryLine::Event(i as u32))
        .unwrap_or(0);
    let height = list_height(model).max(1);
    model.panes.detail.scroll = 0;
    Handled::to(Focus::Story(StoryPanel {
        story,
        lines,
        selected,
        offset: selected.saturating_sub(height / 2),
        back: Box::new(here),
    }))
}

/// A command with the keyboard on a story.
pub fn handle(mut s: StoryPanel, model: &mut Model, c: Command) -> Handled {
    let page = list_height(model).max(1);
    match c {
        c if moves(c) => {
            s.selected = moved(s.selected, s.lines.len(), c, page);
            if s.lines.get(s.selected) == Some(&StoryLine::Outside) {
                // The heading of the events outside chains holds no event: step over it.
                let over = if c == Command::Up {
                    Command::Up
                } else {
                    Command::Down
                };
                s.selected = moved(s.selected, s.lines.len(), over, page);
            }
            s.offset = visible_offset(s.selected, s.offset, page);
            model.panes.detail.scroll = 0;
        }
        Command::Cancel => {
            model.panes.detail.scroll = 0;
            return Handled::to(*s.back);
        }
        // The groups take the list's place, and the story closes.
        Command::ShowGroups => {
            return Handled::to(Focus::Groups(super::groups::GroupsPanel::open(
                &model.events,
            )));
        }
        Command::CopyJson => {
            let effects = clipboard::copy_json(model, s.focused_event());
            return Handled::Done(Focus::Story(s), effects);
        }
        Command::CopyToFile => {
            let effects = clipboard::to_file(clipboard::copy_json(model, s.focused_event()));
            return Handled::Done(Focus::Story(s), effects);
        }
        Command::ToggleLocalTime => super::list::toggle_zone(model),
        Command::ShowJson => return super::json::open(model, Focus::Story(s)),
        Command::CopyId => {
            let effects = clipboard::copy_peer_id(model, s.story.peer);
            return Handled::Done(Focus::Story(s), effects);
        }
        Command::ToggleHelp => return Handled::to(Focus::Help(HelpPanel::over(Focus::Story(s)))),
        _ => return Handled::Unused(Focus::Story(s)),
    }
    Handled::to(Focus::Story(s))
}

/// A click `row` lines below the top of the story: the line under the pointer is selected
/// (not the heading of the events outside chains). Returns whether the selection changed.
pub fn click(s: &mut StoryPanel, row: u16) -> bool {
    let Some(k) = row.checked_sub(STORY_FIRST_ROW) else {
        return false;
    };
    let k = s.offset + k as usize;
    let holds_event = s.lines.get(k).is_some_and(|l| *l != StoryLine::Outside);
    if holds_event && k != s.selected {
        s.selected = k;
        return true;
    }
    false
}

/// The wheel over the story: the selection moves `step` lines. Returns whether it changed.
pub fn wheel(s: &mut StoryPanel, step: i64, page: usize) -> bool {
    let mut selected = shifted(s.selected, s.lines.len(), step);
    if s.lines.get(selected) == Some(&StoryLine::Outside) {
        // The heading of the events outside chains holds no event: step over it.
        let past = shifted(selected, s.lines.len(), step.signum());
        selected = if past == selected {
            shifted(selected, s.lines.len(), -step.signum())
        } else {
            past
        };
    }
    let changed = selected != s.selected;
    s.selected = selected;
    s.offset = visible_offset(s.selected, s.offset, page);
    changed
}

/// A peer's story, in the list's place: each chain's summary, then its events.
pub fn draw(model: &Model, s: &StoryPanel, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let store = &model.events.store;
    let first = s.story.events.first().map(|&i| store.row(i as usize));
    let user = first.map(|r| store.str(r.user_name)).unwrap_or("");
    let title = format!(
        " story of {} ({}) · {}, {}, {} gave up · {}: back ",
        for_terminal(user),
        for_terminal(store.str(s.story.peer)),
        crate::text::plural(s.story.events.len(), "event", "events"),
        crate::text::plural(s.story.chains.len(), "chain", "chains"),
        s.story.gave_up(),
        model.config.keymap.key(Mode::Story, Command::Cancel),
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.focused_border())
        .title(title);
    let height = area.height.saturating_sub(STORY_FIRST_ROW) as usize;
    let end = (s.offset + height).min(s.lines.len());
    let width = area.width as usize;
    let lines: Vec<Line> = (s.offset..end)
        .map(|k| {
            let line = match s.lines[k] {
                StoryLine::Chain(c) => {
                    let chain = &s.story.chains[c];
                    let style = if chain.ending.gave_up() {
                        theme.terminal(Some(true))
                    } else {
                        theme.title()
                    };
                    Line::styled(cut(&for_terminal(&chain.summary(store)), width), style)
                }
                StoryLine::Outside => Line::styled(
                    "events in no chain (other families, or no time):",
                    theme.title(),
                ),
                StoryLine::Event(i) => {
                    let row = store.row(i as usize);
                    let kind = EventType::from_name(store.str(row.kind));
                    let time = if row.ts == NO_TIME {
                        "-".into()
                    } else {
                        crate::time::format_short(model.panes.zone.shift(row.ts))
                    };
                    // The status before the error's name: on a narrow pane the end of the
                    // line is what goes, and which attempt was final must not.
                    Line::from(vec![
                        Span::raw(format!("   {time}  ")),
                        Span::styled(format!("{:<10} ", kind.short()), theme.event_type(&kind)),
                        Span::styled(
                            format!("{:<7} ", status_word(row.is_terminal())),
                            theme.terminal(row.is_terminal()),
                        ),
                        Span::raw(format!(
                            "{:<5} {}",
                            row.error_code().map(|c| c.to_string()).unwrap_or_default(),
                            cut(&for_terminal(store.str(row.error_name)), 22)
                        )),
                    ])
                }
            };
            if k == s.selected {
                line.style(theme.selected_row())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
