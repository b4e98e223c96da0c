//! `update`: the only place the model changes. Pure: it does no I/O and returns the effects the
//! runtime must carry out.

use super::action::{Action, Command};
use super::keymap::Mode;
use super::model::{FIELDS, FilterEditor, LoadState, Model, SEARCH_FIELD};
use super::view::layout::{Areas, areas};
use crate::event::EventType;
use crate::story::After;

/// What the runtime must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave the explorer and restore the terminal.
    Quit,
}

pub fn update(model: &mut Model, action: Action) -> Vec<Effect> {
    let effects = match action {
        Action::Command(c) => command(model, c),
        Action::Input(ev) => {
            if let Some(editor) = &mut model.editor {
                tui_input::backend::crossterm::EventHandler::handle_event(
                    &mut editor.inputs[editor.focus],
                    &ev,
                );
            }
            Vec::new()
        }
        Action::Wheel { column, row, down } => {
            wheel(model, column, row, down);
            Vec::new()
        }
        Action::Resize { width, height } => {
            model.width = width;
            model.height = height;
            keep_selection_visible(model);
            Vec::new()
        }
        Action::BatchLoaded(batch) => {
            let merged = model.store.merge(batch);
            let new = model
                .store
                .matching(&model.filter, merged.first..merged.first + merged.added);
            model.shown.extend(new);
            // New events may continue the selected event's chain.
            model.after = None;
            keep_selection_visible(model);
            Vec::new()
        }
        Action::LoadFinished { problems } => {
            model.problems.extend(problems);
            model.load = LoadState::Idle;
            Vec::new()
        }
    };
    refresh_story(model);
    effects
}

fn command(model: &mut Model, c: Command) -> Vec<Effect> {
    let page = list_height(model).max(1);
    match c {
        Command::Quit => {
            model.quit = true;
            return vec![Effect::Quit];
        }
        Command::Up | Command::Down | Command::PageUp | Command::PageDown | Command::Top | Command::Bottom
            if model.mode == Mode::Detail =>
        {
            scroll_detail(model, c, page);
        }
        Command::Up => move_selection(model, -1),
        Command::Down => move_selection(model, 1),
        Command::PageUp => move_selection(model, -(page as i64)),
        Command::PageDown => move_selection(model, page as i64),
        Command::Top => move_selection(model, i64::MIN / 2),
        Command::Bottom => move_selection(model, i64::MAX / 2),
        Command::FocusDetail => {
            if model.selected_event().is_some() {
                model.mode = Mode::Detail;
            }
        }
        Command::FocusList => model.mode = Mode::List,
        Command::ToggleType(k) => {
            if let Some(t) = EventType::KNOWN.get(k as usize) {
                model.filter.toggle_type(t.clone());
                refilter(model);
            }
        }
        Command::CycleTerminal => {
            model.filter.terminal = match model.filter.terminal {
                None => Some(true),
                Some(true) => Some(false),
                Some(false) => None,
            };
            refilter(model);
        }
        Command::EditSearch => start_editing(model, SEARCH_FIELD),
        Command::EditFilters => start_editing(model, 0),
        Command::ClearFilters => {
            model.filter = Default::default();
            refilter(model);
        }
        Command::ToggleHelp => {
            if model.mode == Mode::Help {
                model.mode = model.mode_before_help;
            } else {
                model.mode_before_help = model.mode;
                model.mode = Mode::Help;
            }
        }
        Command::Apply => {
            if let Some(editor) = model.editor.take() {
                model.filter = editor.apply_to(&model.filter);
                refilter(model);
            }
            model.mode = Mode::List;
        }
        Command::Cancel => {
            model.editor = None;
            model.mode = Mode::List;
        }
        Command::NextField | Command::PrevField => {
            if let Some(editor) = &mut model.editor {
                let n = FIELDS.len();
                editor.focus = if c == Command::NextField {
                    (editor.focus + 1) % n
                } else {
                    (editor.focus + n - 1) % n
                };
            }
        }
    }
    Vec::new()
}

fn start_editing(model: &mut Model, focus: usize) {
    model.editor = Some(FilterEditor::from_filter(&model.filter, focus));
    model.mode = Mode::Editing;
}

/// Recomputes the shown events after a filter change, keeping the selected event selected when it
/// is still shown (or the nearest one after it).
pub fn refilter(model: &mut Model) {
    let previous = model.selected_event();
    model.shown = model.store.filter(&model.filter);
    model.selection.selected = match previous {
        Some(i) => match model.shown.binary_search(&(i as u32)) {
            Ok(k) | Err(k) => k.min(model.shown.len().saturating_sub(1)),
        },
        None => 0,
    };
    model.detail_scroll = 0;
    keep_selection_visible(model);
}

fn move_selection(model: &mut Model, delta: i64) {
    if model.shown.is_empty() {
        return;
    }
    let last = model.shown.len() as i64 - 1;
    let next = (model.selection.selected as i64).saturating_add(delta).clamp(0, last);
    if next as usize != model.selection.selected {
        model.selection.selected = next as usize;
        model.detail_scroll = 0;
    }
    keep_selection_visible(model);
}

fn scroll_detail(model: &mut Model, c: Command, page: usize) {
    let page = page as u16;
    model.detail_scroll = match c {
        Command::Up => model.detail_scroll.saturating_sub(1),
        Command::Down => model.detail_scroll.saturating_add(1),
        Command::PageUp => model.detail_scroll.saturating_sub(page),
        Command::PageDown => model.detail_scroll.saturating_add(page),
        Command::Top => 0,
        // The view clamps the scroll to the pane's content.
        _ => u16::MAX,
    };
}

fn wheel(model: &mut Model, column: u16, row: u16, down: bool) {
    let a: Areas = areas(model.width, model.height);
    let step = if down { 3 } else { -3 };
    if a.detail.contains((column, row).into()) {
        model.detail_scroll = if down {
            model.detail_scroll.saturating_add(3)
        } else {
            model.detail_scroll.saturating_sub(3)
        };
    } else if a.list.contains((column, row).into()) {
        move_selection(model, step);
    }
}

/// Rows of events the list shows at once.
pub fn list_height(model: &Model) -> usize {
    // The list's area starts with its border line and its column header.
    areas(model.width, model.height).list.height.saturating_sub(2) as usize
}

fn keep_selection_visible(model: &mut Model) {
    let height = list_height(model).max(1);
    let sel = &mut model.selection;
    if sel.selected < sel.offset {
        sel.offset = sel.selected;
    } else if sel.selected >= sel.offset + height {
        sel.offset = sel.selected + 1 - height;
    }
    let max_offset = model.shown.len().saturating_sub(height);
    sel.offset = sel.offset.min(max_offset);
}

fn refresh_story(model: &mut Model) {
    let selected = model.selected_event();
    if model.after.as_ref().map(|(i, _)| *i) != selected {
        model.after = selected.map(|i| (i, After::of(&model.store, i)));
    }
}

#[cfg(test)]
mod tests;
