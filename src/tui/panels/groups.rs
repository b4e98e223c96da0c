//! The groups view, in the list's place: the shown events grouped by a key (the error, the SDK,
//! the peer...), in an order; Enter shows a group's events.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use super::help::HelpPanel;
use super::list::TimeText;
use super::{Focus, Handled, moved, moves, shifted, visible_offset};
use crate::filter::Filter;
use crate::insight::{GroupKey, GroupSort, Outcome};
use crate::insight::{GroupValue, Groups, sparkline_text};
use crate::store::Store;
use crate::text::for_terminal;
use crate::text::{cut, cut_at_space, display_width};
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Beside, Events, Model};
use crate::tui::update::history::{self, Return};
use crate::tui::view::layout::{TABLE_FIRST_ROW, groups_height};

mod columns;
mod share;

use columns::{CellWidths, Fit, GroupColumn};
pub use share::Share;

/// The groups view: the key, the order, the selected group, and the groups of the shown events.
#[derive(Debug)]
pub struct GroupsPanel {
    pub key: GroupKey,
    pub sort: GroupSort,
    pub selected: usize,
    pub offset: usize,
    pub groups: Groups,
    /// The widths of the groups' names, numbers and shares, in cells: the table's columns are
    /// fitted to them once per count, so that they stay put while the list scrolls.
    cells: CellWidths,
    /// The generation of the shown events the groups were counted for.
    counted_for: u64,
    /// For each group, how many of its events' retry chains are proven to have got through
    /// (or reconnected), of how many; empty while no related data is at hand.
    pub shares: Vec<Share>,
    /// The versions of the shown events and of the related data the shares were counted for.
    shared_for: (u64, u64),
}

impl GroupsPanel {
    /// The groups view as `e` opens it: by error, the largest groups first.
    pub fn open(events: &Events) -> GroupsPanel {
        GroupsPanel::by(events, GroupKey::Error, GroupSort::Count, Groups::default())
    }

    /// The shown events grouped by `key` in `sort` order; `old`'s memory is used again.
    fn by(events: &Events, key: GroupKey, sort: GroupSort, old: Groups) -> GroupsPanel {
        let mut panel = GroupsPanel {
            key,
            sort,
            selected: 0,
            offset: 0,
            groups: old,
            cells: CellWidths::default(),
            counted_for: 0,
            shares: Vec::new(),
            shared_for: (u64::MAX, u64::MAX),
        };
        panel.count(events);
        panel
    }

    /// The groups view as it was when a filter change was made from it, on the group that
    /// was selected (found by its conditions, else by its place).
    pub fn reopen(
        model: &Model,
        key: GroupKey,
        sort: GroupSort,
        selected: usize,
        offset: usize,
        group: &[crate::filter::Condition],
    ) -> GroupsPanel {
        let mut panel = GroupsPanel::by(&model.events, key, sort, Groups::default());
        let store = &model.events.store;
        let found = (!group.is_empty())
            .then(|| {
                (0..panel.groups.len())
                    .find(|&k| key.conditions(store, &panel.groups.group(k).value) == group)
            })
            .flatten();
        let last = panel.groups.len().saturating_sub(1);
        panel.selected = found.unwrap_or(selected).min(last);
        let page = groups_height(model, &panel).max(1);
        let line = selected.saturating_sub(offset);
        panel.offset = visible_offset(panel.selected, panel.selected.saturating_sub(line), page);
        panel
    }

    /// Counts the groups again when the shown events changed since they were counted.
    pub fn refresh(&mut self, events: &Events) {
        if self.counted_for != events.generation.shown {
            self.count(events);
            self.selected = self.selected.min(self.groups.len().saturating_sub(1));
        }
    }

    /// Counts each group's share of chains that got through again, when the shown events or
    /// the related data changed. Nothing is counted while no related data is at hand: every
    /// chain would be unknown.
    pub fn refresh_shares(&mut self, events: &Events, beside: &mut Beside) {
        let versions = (events.generation.shown, beside.version);
        if self.shared_for == versions {
            return;
        }
        self.shared_for = versions;
        self.shares.clear();
        if beside.is_empty() {
            return;
        }
        let outcomes = &beside
            .outcomes(&events.store, events.generation.store)
            .by_event;
        let mut chains: Vec<(u32, Outcome)> = Vec::new();
        for k in 0..self.groups.len() {
            chains.clear();
            chains.extend(
                self.groups
                    .members(k)
                    .iter()
                    .filter_map(|&i| outcomes.get(i as usize).copied().flatten()),
            );
            chains.sort_unstable();
            chains.dedup();
            self.shares.push(Share {
                through: chains.iter().filter(|(_, o)| o.succeeded()).count() as u32,
                known: chains
                    .iter()
                    .filter(|(_, o)| *o != Outcome::Unknown)
                    .count() as u32,
                chains: chains.len() as u32,
            });
        }
        self.cells.measure_shares(&self.shares);
    }

    /// The shares are counted again at the next refresh.
    fn forget_shares(&mut self) {
        self.shares.clear();
        self.cells.share = 0;
        self.shared_for = (u64::MAX, u64::MAX);
    }

    fn count(&mut self, events: &Events) {
        self.forget_shares();
        let old = std::mem::take(&mut self.groups);
        self.groups = Groups::recompute(old, &events.store, &events.matching, self.key, self.sort);
        self.counted_for = events.generation.shown;
        self.measure(&events.store);
    }

    /// Measures the names and numbers again, after the groups were counted again.
    fn measure(&mut self, store: &Store) {
        self.cells = CellWidths::of(&self.groups, store, self.key);
        self.cells.measure_shares(&self.shares);
    }

    /// What the table's columns are fitted to, in the model's times and filter.
    fn fit(&self, model: &Model) -> Fit {
        Fit {
            cells: self.cells,
            time: TimeText::in_zone(model.events.store.time_range(), model.panes.zone),
            shares: !self.shares.is_empty(),
            // With a room filter, every group is in that one room: its column is left out
            // (the header names the room).
            one_room: model.events.filter.room().is_some(),
        }
    }
}

/// The width of the groups table with every column it has something to say in, each whole:
/// the detail pane goes beside it only where it leaves it that (see
/// [`crate::tui::view::layout::Shape`]).
pub fn wanted_width(model: &Model, g: &GroupsPanel) -> u16 {
    g.fit(model).whole_width()
}

/// The filter that shows a group's events: the filter in force, narrowed to the group.
pub fn filter_of(filter: &Filter, store: &Store, key: GroupKey, value: &GroupValue) -> Filter {
    let mut filter = filter.clone();
    for condition in key.conditions(store, value) {
        filter.require(condition);
    }
    filter
}

/// A command with the keyboard on the groups view.
pub fn handle(mut g: GroupsPanel, model: &mut Model, c: Command) -> Handled {
    let page = groups_height(model, &g).max(1);
    match c {
        c if moves(c) => {
            g.selected = moved(g.selected, g.groups.len(), c, page);
            g.offset = visible_offset(g.selected, g.offset, page);
        }
        Command::Apply => return open_group(g, model),
        Command::Cancel | Command::ShowGroups => return Handled::to(Focus::List),
        // The groups are counted again as the pages come.
        Command::LoadAll => {
            return Handled::Done(Focus::Groups(g), crate::tui::update::live::load_all(model));
        }
        Command::NextGroupKey | Command::PrevGroupKey => {
            let k = GroupKey::ALL.iter().position(|k| *k == g.key).unwrap_or(0);
            let n = GroupKey::ALL.len();
            let next = if c == Command::NextGroupKey {
                (k + 1) % n
            } else {
                (k + n - 1) % n
            };
            g = GroupsPanel::by(&model.events, GroupKey::ALL[next], g.sort, g.groups);
        }
        Command::ToggleGroupSort => {
            g.sort = match g.sort {
                GroupSort::Count => GroupSort::Last,
                GroupSort::Last => GroupSort::Count,
            };
            // The selected group stays selected, on the same row of the screen when it can: a
            // new order does not lose the user's place.
            let selected = g.groups.get(g.selected);
            let row = g.selected.saturating_sub(g.offset);
            g.groups.sort(&model.events.store, g.sort);
            // The shares follow their groups' new places.
            g.forget_shares();
            g.selected = selected
                .and_then(|group| g.groups.position(&group.value))
                .unwrap_or(0);
            // Nor does it leave the page half empty at the end of the list.
            g.offset = visible_offset(g.selected, g.selected.saturating_sub(row), page)
                .min(g.groups.len().saturating_sub(page));
        }
        Command::ToggleFacets => return super::facets::enter(model, Focus::Groups(g)),
        Command::Find => return super::find::open(model, Focus::Groups(g)),
        Command::OpenCommandLine => return super::command::open(Focus::Groups(g)),
        Command::ToggleLocalTime => super::list::toggle_zone(model),
        Command::FindNext | Command::FindPrev => {
            return super::find::next(model, c == Command::FindNext, Focus::Groups(g));
        }
        Command::HideValue => {
            let Some(group) = g.groups.get(g.selected) else {
                return Handled::to(Focus::Groups(g));
            };
            let mut filter = model.events.filter.clone();
            filter.hide(g.key.conditions(&model.events.store, &group.value));
            let from = Return::groups(model, &g);
            let effects = history::change(model, filter, from);
            return Handled::Done(Focus::Groups(g), effects);
        }
        Command::ToggleHelp => return Handled::to(Focus::Help(HelpPanel::over(Focus::Groups(g)))),
        Command::PopFilter => {
            let (focus, effects) = history::undo(model, Focus::Groups(g));
            return Handled::Done(focus, effects);
        }
        // The types and the final/retried choice narrow the events grouped: the groups are
        // counted again, the view stays.
        c => match super::list::quick_filter(&model.events.filter, c) {
            Some(filter) => {
                let from = Return::groups(model, &g);
                let effects = history::change(model, filter, from);
                return Handled::Done(Focus::Groups(g), effects);
            }
            None => return Handled::Unused(Focus::Groups(g)),
        },
    }
    Handled::to(Focus::Groups(g))
}

/// Enter on a group: the list shows its events; `u` goes back to the groups, on this group.
fn open_group(g: GroupsPanel, model: &mut Model) -> Handled {
    let Some(group) = g.groups.get(g.selected) else {
        return Handled::to(Focus::List);
    };
    let events = &model.events;
    let filter = filter_of(&events.filter, &events.store, g.key, &group.value);
    let from = Return::groups(model, &g);
    Handled::Done(Focus::List, history::change(model, filter, from))
}

/// A click `row` lines below the top of the view: the group under the pointer is selected.
pub fn click(g: &mut GroupsPanel, row: u16) {
    if let Some(k) = row.checked_sub(TABLE_FIRST_ROW) {
        let k = g.offset + k as usize;
        if k < g.groups.len() {
            g.selected = k;
        }
    }
}

/// The wheel over the view: the selection moves `step` groups.
pub fn wheel(g: &mut GroupsPanel, step: i64, page: usize) {
    g.selected = shifted(g.selected, g.groups.len(), step);
    g.offset = visible_offset(g.selected, g.offset, page);
}

fn short_time(ns: Option<i64>, time: TimeText, zone: crate::time::Zone) -> String {
    ns.map(|ns| time.seen(zone.shift(ns)))
        .unwrap_or_else(|| "-".into())
}

/// The groups table, in the list's place.
pub fn draw(model: &Model, g: &GroupsPanel, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let store = &model.events.store;
    let sort = match g.sort {
        GroupSort::Count => "count",
        GroupSort::Last => "last seen",
    };
    let key = |c| model.config.keymap.key(Mode::Groups, c);
    // The times carry their day when the loaded events span several.
    let zone = model.panes.zone;
    let fit = g.fit(model);
    let time = fit.time;
    let shown = fit.columns(area.width);
    // The columns left out for want of room are named after the grouping; the keys, which
    // the hint bar gives too, are left out of a title that has no room for them.
    let missing = GroupColumn::left_out(&shown, fit.shares, fit.one_room);
    let mut title = format!(
        " {} by {}",
        crate::text::plural(g.groups.len(), "group", "groups"),
        g.key.name(),
    );
    if !missing.is_empty() && !g.groups.is_empty() {
        title.push_str(&format!(" · no room for {}", missing.join(", ")));
    }
    title.push_str(&format!(" · sorted by {sort} "));
    let keys = format!(
        "· {}: key, {}: sort, {}: its events ",
        key(Command::NextGroupKey),
        key(Command::ToggleGroupSort),
        key(Command::Apply),
    );
    if display_width(&title) + display_width(&keys) <= usize::from(area.width) {
        title.push_str(&keys);
    }
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.focused_border())
        .title(cut_at_space(&title, area.width.into()));
    if g.groups.is_empty() {
        frame.render_widget(Paragraph::new(" no event is shown").block(block), area);
        return;
    }
    let height = area.height.saturating_sub(TABLE_FIRST_ROW) as usize;
    let end = (g.offset + height).min(g.groups.len());
    // The name takes what the other columns leave, and a cut one says so.
    let name_width = area
        .width
        .saturating_sub(shown.iter().map(|(_, w)| w + 1).sum());
    let rows: Vec<Row> = (g.offset..end)
        .map(|k| {
            let group = g.groups.group(k);
            let label = for_terminal(&group.label(store, g.key)).into_owned();
            let mut cells = vec![Cell::from(cut(&label, name_width.into()))];
            cells.extend(shown.iter().map(|&(column, width)| match column {
                GroupColumn::Count => Cell::from(group.count.to_string()),
                GroupColumn::Final => Cell::from(Span::styled(
                    group.finals.to_string(),
                    theme.terminal(Some(group.finals > 0)),
                )),
                GroupColumn::FinalShare => {
                    Cell::from(format!("{:.0}%", group.final_share() * 100.0))
                }
                GroupColumn::GotThrough => {
                    let share = g.shares.get(k).copied().unwrap_or_default();
                    let text = share.fitted(width.into());
                    Cell::from(Span::styled(text, theme.terminal(Some(false))))
                }
                GroupColumn::Peers => Cell::from(group.peers.to_string()),
                GroupColumn::Rooms => Cell::from(group.rooms.to_string()),
                GroupColumn::First => Cell::from(short_time(group.first_seen, time, zone)),
                GroupColumn::Last => Cell::from(short_time(group.last_seen, time, zone)),
                GroupColumn::Sparkline => {
                    Cell::from(sparkline_text(&g.groups.sparkline(store, k, width.into())))
                }
            }));
            let row = Row::new(cells);
            if k == g.selected {
                row.style(theme.selected_row())
            } else {
                row
            }
        })
        .collect();
    let header = Row::new(std::iter::once("GROUP").chain(shown.iter().map(|(c, _)| c.title())))
        .style(theme.heading());
    let widths = std::iter::once(Constraint::Fill(1))
        .chain(shown.iter().map(|&(_, w)| Constraint::Length(w)));
    frame.render_widget(Table::new(rows, widths).header(header).block(block), area);
}
