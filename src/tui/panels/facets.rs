//! The facets in the detail pane's place: the top values of the agent and room fields among the
//! events of the selected group (while the groups view is open) or among the shown events (`F`).
//! With the keyboard on them, Enter shows the events of a value and `!` hides them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::groups::GroupsPanel;
use super::help::HelpPanel;
use super::{Focus, Handled, moved, moves};
use crate::filter::Condition;
use crate::insight::{self, FACET_KEYS, Facet};
use crate::insight::{GroupKey, GroupSort};
use crate::text::for_terminal;
use crate::text::{cut, cut_after_numbers, display_width};
use crate::tui::action::Command;
use crate::tui::model::{Events, Model};
use crate::tui::update::history::{self, Return};
use crate::tui::view::layout::list_height;

/// The facets' part of the panes.
#[derive(Debug, Default)]
pub struct FacetsPane {
    /// The facets of the shown events take the detail pane's place (`F`).
    pub on: bool,
    /// The facets drawn in the detail pane's place, if any: counted by `update` when what they
    /// count changed, so that drawing a frame does not count.
    pub panel: Option<FacetPanel>,
}

/// Facets as drawn: a title, and the top values of each field.
#[derive(Debug, Clone)]
pub struct FacetPanel {
    pub title: String,
    pub facets: Vec<Facet>,
    /// What the facets were counted from: they are counted again when it changes.
    source: FacetSource,
}

/// What a facet panel counts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FacetSource {
    /// A group: its key and order, its index in the groups view, and the generation of the
    /// shown events the view grouped.
    Group(GroupKey, GroupSort, usize, u64),
    /// The shown events, of this generation.
    Shown(u64),
}

impl FacetsPane {
    /// `F`: the facets of the shown events in the detail pane's place, or the event again.
    pub fn toggle(&mut self) {
        self.on = !self.on;
    }

    /// Counts the facets again when what they count changed (the selected group, the shown
    /// events), and drops them when neither the groups view nor the facets are open.
    pub fn refresh(&mut self, events: &Events, groups: Option<&GroupsPanel>) {
        let shown = events.generation.shown;
        let source = match groups {
            Some(g) if g.selected < g.groups.len() => {
                Some(FacetSource::Group(g.key, g.sort, g.selected, shown))
            }
            _ if self.on => Some(FacetSource::Shown(shown)),
            _ => None,
        };
        let Some(source) = source else {
            self.panel = None;
            return;
        };
        if self.panel.as_ref().is_some_and(|p| p.source == source) {
            return;
        }
        let store = &events.store;
        let (title, members): (String, &[u32]) = match (&source, groups) {
            (FacetSource::Group(..), Some(g)) => (
                format!(
                    "facets of {}",
                    g.groups.group(g.selected).label(store, g.key)
                ),
                g.groups.members(g.selected),
            ),
            _ => ("facets of the shown events".to_string(), &events.matching),
        };
        let facets = insight::facets(store, members, 5);
        self.panel = Some(FacetPanel {
            title,
            facets,
            source,
        });
    }
}

/// The keyboard on the facets: which value is selected (counting every facet's values in
/// order), and where the keyboard goes back to.
#[derive(Debug)]
pub struct FacetsCursor {
    pub selected: usize,
    /// The list, the detail pane or the groups view the facets were entered from.
    pub back: Box<Focus>,
    /// The facets were shown for the keyboard (`F` from the list): leaving hides them again.
    pub opened: bool,
}

impl FacetPanel {
    /// Every value of every facet, in order: (facet, value) places.
    fn places(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.facets
            .iter()
            .enumerate()
            .flat_map(|(f, facet)| (0..facet.top.len()).map(move |v| (f, v)))
    }

    /// How many values there are, every facet's.
    pub fn len(&self) -> usize {
        self.facets.iter().map(|f| f.top.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The conditions that keep exactly the events of value `k` (counting every facet's).
    pub fn conditions(&self, store: &crate::store::Store, k: usize) -> Option<Vec<Condition>> {
        let (f, v) = self.places().nth(k)?;
        let facet = &self.facets[f];
        Some(facet.key.conditions(store, &facet.top[v].0))
    }
}

/// `F`: the keyboard goes to the facets, shown for it when they were not (from the groups view,
/// those of the selected group).
pub fn enter(model: &mut Model, back: Focus) -> Handled {
    let opened = !matches!(back, Focus::Groups(_)) && !model.panes.facets.on;
    model.panes.facets.on |= opened;
    Handled::to(Focus::Facets(FacetsCursor {
        selected: 0,
        back: Box::new(back),
        opened,
    }))
}

/// A command with the keyboard on the facets.
pub fn handle(mut f: FacetsCursor, model: &mut Model, c: Command) -> Handled {
    let len = model.panes.facets.panel.as_ref().map_or(0, FacetPanel::len);
    match c {
        c if moves(c) => f.selected = moved(f.selected, len, c, list_height(model).max(1)),
        Command::Cancel | Command::ToggleFacets => {
            if f.opened {
                model.panes.facets.on = false;
            }
            return Handled::to(*f.back);
        }
        Command::ToggleHelp => return Handled::to(Focus::Help(HelpPanel::over(Focus::Facets(f)))),
        Command::LoadAll => {
            return Handled::Done(Focus::Facets(f), crate::tui::update::live::load_all(model));
        }
        Command::PopFilter => {
            let (focus, effects) = history::undo(model, Focus::Facets(f));
            return Handled::Done(focus, effects);
        }
        Command::Apply | Command::HideValue => {
            let store = &model.events.store;
            let Some(conditions) = model
                .panes
                .facets
                .panel
                .as_ref()
                .and_then(|p| p.conditions(store, f.selected))
            else {
                return Handled::to(Focus::Facets(f));
            };
            let mut filter = model.events.filter.clone();
            let from = match &*f.back {
                Focus::Groups(g) => {
                    // The group's own conditions too: the facets counted its events.
                    if let Some(group) = g.groups.get(g.selected) {
                        for condition in g.key.conditions(store, &group.value) {
                            filter.require(condition);
                        }
                    }
                    Return::groups(model, g)
                }
                _ => Return::list(model),
            };
            if c == Command::HideValue {
                let mut filter = model.events.filter.clone();
                filter.hide(conditions);
                let effects = history::change(model, filter, from);
                f.selected = f.selected.min(len.saturating_sub(2));
                return Handled::Done(Focus::Facets(f), effects);
            }
            for condition in conditions {
                filter.require(condition);
            }
            if f.opened {
                model.panes.facets.on = false;
            }
            return Handled::Done(Focus::List, history::change(model, filter, from));
        }
        _ => return Handled::Unused(Focus::Facets(f)),
    }
    Handled::to(Focus::Facets(f))
}

/// The pane's title on its top border, right of its corner, cut with `…` where the pane is
/// narrower (a number in it whole or left out).
fn pane_title(text: &str, width: u16) -> String {
    let room = usize::from(width).saturating_sub(3);
    format!(" {} ", cut_after_numbers(text, room))
}

/// The top values of the agent and room fields, in the detail pane's place; with the keyboard
/// on them, the selected value is marked and kept in sight.
pub fn draw(model: &Model, panel: &FacetPanel, frame: &mut Frame, area: Rect) {
    let cursor = match &model.focus {
        Focus::Facets(f) => Some(f.selected),
        Focus::Help(h) => match &*h.back {
            Focus::Facets(f) => Some(f.selected),
            _ => None,
        },
        _ => None,
    };
    let theme = &model.config.theme;
    let title = panel.title.as_str();
    let hint = match cursor {
        Some(_) => " · Enter: its events, !: hide them",
        None => "",
    };
    let mut title = for_terminal(title).into_owned();
    // The note that the events are part of what the query matched outranks the hint, and the
    // end of the title on a narrow pane (its first word kept).
    let hint = match crate::tui::view::coverage::title_room(model, area.width) {
        Some(room) if display_width(&title) + display_width(hint) > room => {
            if room > "facets".len() {
                title = cut(&title, room);
            }
            ""
        }
        _ => hint,
    };
    let block = Block::new()
        .borders(Borders::TOP | Borders::LEFT)
        .border_style(if cursor.is_some() {
            theme.focused_border()
        } else {
            theme.border()
        })
        .title(pane_title(&format!("{title}{hint}"), area.width));
    let inner = block.inner(area);
    let facets = &panel.facets;
    // A narrow pane (beside a list on a 120-column terminal) gives its room to the values: an
    // SDK's or an OS's version is what tells them apart.
    let narrow = inner.width < 50;
    let (bar_width, count_width) = if narrow { (4usize, 5usize) } else { (10, 7) };
    let mut lines = Vec::new();
    let mut nth = 0;
    let mut cursor_line = 0;
    for (facet, key) in facets.iter().zip(FACET_KEYS) {
        lines.push(Line::styled(
            format!("{} ({} distinct)", key.name(), facet.distinct),
            theme.title(),
        ));
        for (k, (value, count)) in facet.top.iter().enumerate() {
            let share = facet.share(k);
            let filled = (share * bar_width as f64).round() as usize;
            // The bar, a space, the share (4), a space, the count, a space.
            let taken = bar_width + 1 + 4 + 1 + count_width + 1;
            let label = cut(
                &for_terminal(&value.label(&model.events.store, key)),
                (inner.width as usize).saturating_sub(taken).max(8),
            );
            let line = Line::from(vec![
                Span::styled(
                    format!("{:<w$}", "█".repeat(filled), w = bar_width),
                    theme.key(),
                ),
                Span::raw(format!(
                    " {:>3.0}% {:>w$} ",
                    share * 100.0,
                    count,
                    w = count_width
                )),
                Span::raw(label),
            ]);
            if cursor == Some(nth) {
                cursor_line = lines.len();
                lines.push(line.style(theme.selected_row()));
            } else {
                lines.push(line);
            }
            nth += 1;
        }
        lines.push(Line::raw(""));
    }
    let scroll = (cursor_line + 1).saturating_sub(inner.height as usize) as u16;
    frame.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), area);
}
