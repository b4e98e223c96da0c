//! The list of events: the browsing commands (which the detail pane shares), its clicks and
//! wheel, and its drawing.

mod columns;

pub use columns::TimeText;

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use super::editor::{FilterEditor, SEARCH_SLOT};
use super::groups::GroupsPanel;
use super::help::HelpPanel;
use super::prompt::SavePrompt;
use super::{Focus, Handled, facets, find, story, timeline};
use crate::event::EventType;
use crate::filter::Filter;
use crate::text::cut;
use crate::tui::action::Command;
use crate::tui::clipboard;
use crate::tui::effect::{Effect, SaveWhat};
use crate::tui::keymap::Mode;
use crate::tui::model::{LoadState, Model};
use crate::tui::update::events::{fetch_more_if_near_end, move_selection, set_order};
use crate::tui::update::history::{self, Return};
use crate::tui::update::live;
use crate::tui::view::header::failure_text;
use crate::tui::view::layout::{TABLE_FIRST_ROW, Zoom, list_height};
use columns::{columns_shown, event_row, left_out};

/// A command with the keyboard on the list.
pub fn handle(model: &mut Model, c: Command) -> Handled {
    browse(model, c, Focus::List)
}

/// The browsing commands, which the list and the detail pane share; `here` is the one of them
/// that has the keyboard, where it stays unless the command moves it.
pub fn browse(model: &mut Model, c: Command, here: Focus) -> Handled {
    let page = list_height(model).max(1) as i64;
    // The moves, and the commands that hand the keyboard on: after them, more events are asked
    // for when the selection is within a screen of the end of those loaded.
    let next = match c {
        Command::Up => step(model, here, -1),
        Command::Down => step(model, here, 1),
        Command::PageUp => step(model, here, -page),
        Command::PageDown => step(model, here, page),
        Command::Top => step(model, here, i64::MIN / 2),
        Command::Bottom => step(model, here, i64::MAX / 2),
        // The facets in the detail pane's place take the keyboard instead.
        Command::FocusDetail if model.panes.facets.on => {
            return facets::enter(model, here);
        }
        Command::FocusDetail if model.selected_event().is_some() => Focus::Detail,
        Command::FocusDetail => here,
        Command::FocusList => {
            // Leaving the detail pane alone brings the list back.
            if model.panes.zoom == Zoom::Detail {
                model.panes.zoom = Zoom::None;
            }
            Focus::List
        }
        Command::EditFilters => Focus::Editing(FilterEditor::from_filter(&model.events.filter, 0)),
        Command::EditSearch => {
            Focus::Editing(FilterEditor::from_filter(&model.events.filter, SEARCH_SLOT))
        }
        Command::SaveShown => Focus::SavePath(SavePrompt::new(
            &model.events.filter,
            SaveWhat::Shown,
            !model.beside.data.is_empty(),
        )),
        Command::SaveLoaded => Focus::SavePath(SavePrompt::new(
            &model.events.filter,
            SaveWhat::Loaded,
            !model.beside.data.is_empty(),
        )),
        Command::ToggleHelp => Focus::Help(HelpPanel::over(here)),
        Command::ShowProblems => Focus::Help(HelpPanel::problems(here)),
        Command::Find => return find::open(model, here),
        Command::OpenCommandLine => return super::command::open(here),
        Command::FindNext | Command::FindPrev => {
            return find::next(model, c == Command::FindNext, here);
        }
        Command::FindToFilter => return find::to_filter(model, here),
        _ => return act(model, c, here),
    };
    Handled::Done(next, fetch_more_if_near_end(model))
}

/// The other browsing commands: filters (which ask for more events themselves), the live
/// query, copies, and the views that open over the list.
fn act(model: &mut Model, c: Command, here: Focus) -> Handled {
    if let Some(filter) = quick_filter(&model.events.filter, c) {
        let from = Return::list(model);
        return Handled::Done(here, history::change(model, filter, from));
    }
    match c {
        Command::ClearFilters => {
            let from = Return::list(model);
            Handled::Done(here, history::clear(model, from))
        }
        Command::CycleSort | Command::FlipTime => {
            let mut order = model.events.order;
            if c == Command::CycleSort {
                order.key = order.key.next();
            } else {
                order.newest_first = !order.newest_first;
            }
            set_order(model, order);
            model.status = Some(format!("sorted by {}", order.describe()));
            Handled::Done(here, fetch_more_if_near_end(model))
        }
        Command::PopFilter => {
            let (focus, effects) = history::undo(model, here);
            Handled::Done(focus, effects)
        }
        Command::Rerun => {
            let mode = here.mode();
            Handled::Done(here, live::rerun(model, mode))
        }
        Command::LoadAll => Handled::Done(here, live::load_all(model)),
        Command::ToggleFollow => Handled::Done(here, live::toggle_follow(model)),
        Command::CopyJson => {
            let event = model.selected_event();
            Handled::Done(here, clipboard::copy_json(model, event))
        }
        Command::CopyToFile => {
            let event = model.selected_event();
            Handled::Done(here, clipboard::to_file(clipboard::copy_json(model, event)))
        }
        Command::CopyId => {
            let event = model.selected_event();
            Handled::Done(here, clipboard::copy_event_id(model, event))
        }
        Command::ShowGroups => Handled::to(Focus::Groups(GroupsPanel::open(&model.events))),
        Command::ShowStory => story::open(model, here),
        Command::ToggleTimeline => timeline::open(model),
        Command::ToggleFacets => facets::enter(model, here),
        Command::ZoomList | Command::ZoomDetail => zoom(model, c, here),
        Command::ShowJson => super::json::open(model, here),
        Command::ShowQuality => {
            let event = model.selected_event();
            super::quality::open(model, event, None, here)
        }
        Command::ToggleLocalTime => {
            toggle_zone(model);
            Handled::to(here)
        }
        _ => Handled::Unused(here),
    }
}

/// The filter after a type key (`1`-`5`) or the final/retried key, which the list and the
/// groups view share; `None` for any other command.
pub fn quick_filter(filter: &Filter, c: Command) -> Option<Filter> {
    let mut filter = filter.clone();
    if let Some(t) = c.toggled_type().and_then(|k| EventType::KNOWN.get(k)) {
        filter.toggle_type(t.clone());
        return Some(filter);
    }
    if c != Command::CycleTerminal {
        return None;
    }
    filter.terminal = match filter.terminal {
        None => Some(true),
        Some(true) => Some(false),
        Some(false) => None,
    };
    Some(filter)
}

/// `L`: times in local time, or in UTC again; the header says which.
pub fn toggle_zone(model: &mut Model) {
    use crate::time::Zone;
    model.panes.zone = match model.panes.zone {
        Zone::Utc => model.config.local_zone,
        _ => Zone::Utc,
    };
    let at = model.events.store.time_range().map_or(0, |(_, z)| z);
    model.status = Some(match model.panes.zone {
        Zone::Utc => "times in UTC".to_string(),
        zone => format!("times in local time, {}", zone.label(at)),
    });
}

/// `z`: the list alone, or back beside the detail pane; `Z`: the detail pane alone (it takes
/// the keyboard), or back.
fn zoom(model: &mut Model, c: Command, here: Focus) -> Handled {
    let (zoom, focus) = match (c, model.panes.zoom) {
        (Command::ZoomList, Zoom::List) | (Command::ZoomDetail, Zoom::Detail) => (Zoom::None, here),
        (Command::ZoomList, _) => (Zoom::List, Focus::List),
        _ if model.selected_event().is_none() => {
            model.status = Some("no event is selected: nothing to read in full".into());
            return Handled::to(here);
        }
        _ => (Zoom::Detail, Focus::Detail),
    };
    model.panes.zoom = zoom;
    let focus = match (zoom, focus) {
        // Back from the detail pane alone, the keyboard goes back to the list.
        (Zoom::None, Focus::Detail) if c == Command::ZoomDetail => Focus::List,
        (_, focus) => focus,
    };
    crate::tui::update::events::keep_selection_visible(model);
    crate::tui::panels::detail::clamp_scroll(model);
    Handled::Done(focus, fetch_more_if_near_end(model))
}

/// Moves the selection by `delta` events; the keyboard stays `here`.
fn step(model: &mut Model, here: Focus, delta: i64) -> Focus {
    move_selection(model, delta);
    here
}

/// The width the list's columns want, so that the detail pane beside it is made narrower
/// before the user's column is left out (see [`crate::tui::view::layout::Shape`]).
pub fn wanted_width(model: &Model) -> u16 {
    let time = TimeText::in_zone(model.events.store.time_range(), model.panes.zone);
    columns::wanted_width(model.events.filter.room().is_some(), time)
}

/// A click `row` lines below the top of the list: the list takes the keyboard, and the event
/// under the pointer is selected.
pub fn click(model: &mut Model, row: u16) -> Vec<Effect> {
    model.focus = Focus::List;
    if let Some(k) = row.checked_sub(TABLE_FIRST_ROW) {
        let k = model.events.selection.offset + k as usize;
        if k < model.events.shown.len() {
            move_selection(model, k as i64 - model.events.selection.selected as i64);
        }
    }
    fetch_more_if_near_end(model)
}

/// The wheel over the list: the selection moves.
pub fn wheel(model: &mut Model, step: i64) {
    move_selection(model, step);
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let events = &model.events;
    let theme = &model.config.theme;
    let focused = matches!(model.focus, Focus::List);
    let mut title = match events.selected() {
        Some(_) => format!(
            " events {}/{} ",
            events.selection.selected + 1,
            events.shown.len()
        ),
        None => " events ".to_string(),
    };
    if let Some(find) = &events.find {
        let key = |c| model.config.keymap.key(Mode::List, c);
        let hits = match find.shown_hits() {
            Some(n) => crate::text::thousands(n),
            None => format!("… {}%", find.looked_at_percent(&events.store)),
        };
        title.push_str(&format!(
            "· \"{}\" in {hits} ({}/{}) ",
            crate::text::for_terminal(&find.text),
            key(Command::FindNext),
            key(Command::FindPrev)
        ));
    }
    // The columns left out for want of room are named, with the key that makes room.
    let one_room = events.filter.room().is_some();
    let time = TimeText::in_zone(events.store.time_range(), model.panes.zone);
    let shown = columns_shown(area.width, one_room, time);
    let missing = left_out(&shown, one_room);
    // Narrower than the columns always shown, the table squeezes them: each is cut, with `…`,
    // to the width the table gives it.
    let given =
        ratatui::layout::Layout::horizontal(shown.iter().map(|&(_, w)| Constraint::Length(w)))
            .flex(ratatui::layout::Flex::Start)
            .spacing(1)
            .split(Rect::new(0, 0, area.width, 1));
    let shown: Vec<(usize, u16)> = shown
        .iter()
        .zip(given.iter())
        .map(|(&(k, _), r)| (k, r.width))
        .collect();
    if !missing.is_empty() && !events.shown.is_empty() {
        title.push_str(&format!(
            "· no room for {} ({}: list alone) ",
            missing.join(", "),
            model.config.keymap.key(Mode::List, Command::ZoomList)
        ));
    }
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(if focused {
            theme.focused_border()
        } else {
            theme.border()
        })
        .title(cut(&title, area.width.into()));
    if events.shown.is_empty() {
        let text = if model.session.load == LoadState::Loading {
            "loading…".to_string()
        } else if events.store.is_empty() {
            // The header has room for the start of a failure's reason only: here it is whole.
            match model.session.live.as_ref().and_then(|l| l.failure()) {
                Some(message) => format!("no events loaded: {}", failure_text(model, message)),
                None if model
                    .session
                    .live
                    .as_ref()
                    .is_some_and(|l| l.fetch == crate::tui::model::Fetch::NoRoom) =>
                {
                    format!(
                        "no events loaded: no room chosen (the live API answers one room at a time); {}",
                        super::rooms::HOW_TO_CHOOSE
                    )
                }
                None => match events.filter.room() {
                    Some(room) if model.beside.rooms_unknown.iter().any(|r| r == room) => {
                        format!(
                            "no events loaded: the service has no room of id {}: check the id \
                             ({}room takes the room's name too)",
                            crate::text::for_terminal(room),
                            model
                                .config
                                .keymap
                                .key(Mode::List, Command::OpenCommandLine),
                        )
                    }
                    Some(room) => untold(model, room),
                    None => "no events loaded".to_string(),
                },
            }
        } else {
            let mut text = format!(
                "no event matches the filters ({} clears them, {} takes the last change back)",
                model.config.keymap.key(Mode::List, Command::ClearFilters),
                model.config.keymap.key(Mode::List, Command::PopFilter)
            );
            // What the loaded events say of it: a room's name given for its id, a time range
            // that misses them all.
            for why in &events.why_empty.reasons {
                text.push_str("\n ");
                text.push_str(&why.words());
                if let crate::insight::WhyEmpty::RoomName { value, .. } = why {
                    text.push_str(&format!(
                        ": {}room {} filters by it",
                        model
                            .config
                            .keymap
                            .key(Mode::List, Command::OpenCommandLine),
                        crate::text::for_terminal(value)
                    ));
                }
            }
            text
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
    let start = events.selection.offset.min(events.shown.len());
    let end = (start + height).min(events.shown.len());
    let rows: Vec<Row> = (start..end)
        .map(|k| {
            let row = event_row(model, events.shown[k] as usize, &shown, time);
            if k == events.selection.selected {
                row.style(theme.selected_row())
            } else {
                row
            }
        })
        .collect();
    let zone = model.panes.zone;
    let header = Row::new(
        shown
            .iter()
            .map(|&(k, w)| cut(columns::title(k, zone), w.into())),
    )
    .style(theme.heading());
    let widths: Vec<Constraint> = shown.iter().map(|&(_, w)| Constraint::Length(w)).collect();
    let table = Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .block(block);
    frame.render_widget(table, area);
}

/// What the empty list says of a live query of `room` that brought no event: why the service
/// did not say whether it has the room, when it was asked and did not.
fn untold(model: &Model, room: &str) -> String {
    match model.beside.rooms_untold.iter().find(|(r, _)| r == room) {
        Some((_, why)) => format!(
            "no events loaded; the service did not say whether it has a room of id {}: {}",
            crate::text::for_terminal(room),
            crate::text::for_terminal(why),
        ),
        None => "no events loaded".to_string(),
    }
}
