//! `update`: the only place the model changes. Pure: it does no I/O and returns the effects the
//! runtime must carry out.

use super::action::{Action, Command};
use super::clipboard;
use super::keymap::Mode;
use super::model::{
    FIELDS, Fetch, FilterEditor, LoadState, Model, SEARCH_FIELD, SavePrompt, SaveWhat,
};
use super::view::detail::max_scroll;
use super::view::help;
use super::view::layout::{Areas, TABLE_FIRST_ROW, areas_of};
use crate::event::EventType;
use crate::filter::Filter;
use crate::source::worker::{self, Report};
use crate::store::Store;
use crate::story::After;

/// What the runtime must do after an update.
#[allow(clippy::large_enum_variant)] // a handful per key press: boxing buys nothing
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave the explorer and restore the terminal.
    Quit,
    /// Tell the live fetch task something.
    Worker(worker::Command),
    /// Write events to a dump; an existing file is replaced only when `replace` is set.
    Save {
        path: String,
        what: SaveWhat,
        replace: bool,
    },
    /// Hand `text` to the terminal's clipboard; `what` says what it is, for the confirmation.
    Copy { text: String, what: String },
    /// Loading is over: give the memory freed back to the system.
    ReleaseMemory,
}

pub fn update(model: &mut Model, action: Action) -> Vec<Effect> {
    let effects = match action {
        Action::Command(c) => command(model, c),
        Action::ListCommand(c) => {
            model.mode = Mode::List;
            command(model, c)
        }
        Action::Input(ev) => {
            use tui_input::backend::crossterm::EventHandler;
            let input = match (model.mode, &mut model.editor, &mut model.save) {
                (Mode::Editing, Some(editor), _) => Some(&mut editor.inputs[editor.focus]),
                (Mode::SavePath, _, Some(prompt)) => Some(&mut prompt.path),
                _ => None,
            };
            if let Some(input) = input {
                match &ev {
                    // A paste is typed in as text: control characters (a newline would apply
                    // the filter mid-paste) are left out.
                    crossterm::event::Event::Paste(text) => {
                        for c in text.chars().filter(|c| !c.is_control()) {
                            input.handle(tui_input::InputRequest::InsertChar(c));
                        }
                    }
                    _ => {
                        input.handle_event(&ev);
                    }
                }
            }
            Vec::new()
        }
        Action::Wheel { column, row, down } => {
            wheel(model, column, row, down);
            Vec::new()
        }
        Action::Click { column, row } => click(model, column, row),
        Action::Resize { width, height } => {
            let changed = (model.width, model.height) != (width, height);
            model.width = width;
            model.height = height;
            if changed {
                views::refit_timeline(model);
            }
            keep_selection_visible(model);
            clamp_detail_scroll(model);
            Vec::new()
        }
        Action::BatchLoaded(batch) => {
            append(model, batch);
            Vec::new()
        }
        Action::FollowTick => views::follow_tick(model),
        Action::LoadFinished { problems } => {
            model.problems.extend(problems);
            model.load = LoadState::Idle;
            // What the batches' own tables held, kept by the allocator for the next batch while
            // loading (trimming it after each batch only made the next one fault it in again).
            vec![Effect::ReleaseMemory]
        }
        Action::Live(report) => live_report(model, report),
        Action::SaveNeedsConfirm { path } => {
            let key = |c| model.keymap.key(Mode::Confirm, c);
            model.status = Some(format!(
                "{path} exists: replace it? ({}/{})",
                key(Command::Yes),
                key(Command::No)
            ));
            model.mode = Mode::Confirm;
            Vec::new()
        }
        Action::Saved(result) => {
            model.status = Some(match result {
                Ok(message) => message,
                // The reassurance first: a long path or reason is cut at the screen's edge.
                Err(why) => format!("not saved, nothing lost: {why}"),
            });
            model.save = None;
            Vec::new()
        }
        Action::Copied(result) => {
            model.status = Some(match result {
                Ok(what) => format!("copied {what} to the clipboard"),
                Err(why) => format!("copy failed: {why}"),
            });
            Vec::new()
        }
    };
    refresh_story(model);
    views::refresh_facets(model);
    effects
}

fn command(model: &mut Model, c: Command) -> Vec<Effect> {
    let page = list_height(model).max(1);
    // A message stays until the user does something else.
    model.status = None;
    if let Some(effects) = views::command(model, c, page) {
        return effects;
    }
    match c {
        Command::Quit => {
            model.quit = true;
            return vec![Effect::Quit];
        }
        Command::Up if model.mode == Mode::Help => {
            model.help_scroll = model.help_scroll.saturating_sub(1)
        }
        Command::Down if model.mode == Mode::Help => scroll_help(model, 1),
        c if model.mode == Mode::Detail && views::moves(c) => scroll_detail(model, c, page),
        Command::Up => move_selection(model, -1),
        Command::Down => move_selection(model, 1),
        Command::PageUp => move_selection(model, -(page as i64)),
        Command::PageDown => move_selection(model, page as i64),
        Command::Top => move_selection(model, i64::MIN / 2),
        Command::Bottom => move_selection(model, i64::MAX / 2),
        Command::Rerun => {
            if model.live.is_some() {
                return new_query(model);
            }
            model.status = Some(format!(
                "{} re-runs live queries; these events come from files",
                model.keymap.key(model.mode, Command::Rerun)
            ));
        }
        Command::LoadAll => return load_all(model),
        Command::CopyJson => return copy_json(model),
        Command::CopyId => return copy_id(model),
        Command::SaveShown => start_save(model, SaveWhat::Shown),
        Command::SaveLoaded => start_save(model, SaveWhat::Loaded),
        Command::Yes => {
            model.mode = Mode::List;
            if let Some(prompt) = &model.save {
                return vec![Effect::Save {
                    path: prompt.path.value().to_string(),
                    what: prompt.what,
                    replace: true,
                }];
            }
        }
        Command::No => {
            model.mode = Mode::List;
            model.save = None;
            model.status = Some("not saved: the file was kept".into());
        }
        Command::FocusDetail => {
            if model.selected_event().is_some() {
                model.mode = Mode::Detail;
            }
        }
        Command::FocusList => model.mode = Mode::List,
        Command::TogglePublish
        | Command::ToggleSubscribe
        | Command::ToggleJoin
        | Command::ToggleDisconnected
        | Command::ToggleConnect => {
            if let Some(t) = c.toggled_type().and_then(|k| EventType::KNOWN.get(k)) {
                let mut f = model.filter.clone();
                f.toggle_type(t.clone());
                return set_filter(model, f);
            }
        }
        Command::CycleTerminal => {
            let mut f = model.filter.clone();
            f.terminal = match f.terminal {
                None => Some(true),
                Some(true) => Some(false),
                Some(false) => None,
            };
            return set_filter(model, f);
        }
        Command::EditSearch => start_editing(model, SEARCH_FIELD),
        Command::EditFilters => start_editing(model, 0),
        Command::ClearFilters => return set_filter(model, Filter::default()),
        Command::ToggleHelp => {
            if model.mode == Mode::Help {
                model.mode = model.mode_before_help;
            } else {
                model.mode_before_help = model.mode;
                model.mode = Mode::Help;
            }
        }
        Command::Apply if model.mode == Mode::SavePath => {
            model.mode = Mode::List;
            if let Some(prompt) = &model.save {
                let path = prompt.path.value().trim().to_string();
                if path.is_empty() {
                    model.save = None;
                    model.status = Some("not saved: no path given".into());
                } else {
                    return vec![Effect::Save {
                        path,
                        what: prompt.what,
                        replace: false,
                    }];
                }
            }
        }
        Command::Apply => {
            model.mode = Mode::List;
            if let Some(editor) = model.editor.take() {
                let f = editor.apply_to(&model.filter);
                return set_filter(model, f);
            }
        }
        Command::Cancel => {
            model.editor = None;
            model.save = None;
            model.mode = Mode::List;
        }
        // Handled by the views' update above.
        Command::ShowGroups
        | Command::ShowStory
        | Command::ToggleFacets
        | Command::ToggleTimeline
        | Command::PopFilter
        | Command::NextGroupKey
        | Command::PrevGroupKey
        | Command::ToggleGroupSort
        | Command::Left
        | Command::Right
        | Command::MarkStart
        | Command::ToggleFollow => {}
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
    fetch_more_if_near_end(model)
}

fn start_editing(model: &mut Model, focus: usize) {
    model.editor = Some(FilterEditor::from_filter(&model.filter, focus));
    model.mode = Mode::Editing;
}

/// Merges a batch of events (a file's, a page's) and shows those that match; returns how many
/// were new to the store.
fn append(model: &mut Model, batch: crate::store::Batch) -> crate::store::Merged {
    let merged = model.store.merge(batch);
    let new = model
        .store
        .matching(&model.filter, merged.first..merged.first + merged.added);
    model.shown.extend(new);
    // New events may continue the selected event's chain.
    model.after = None;
    keep_selection_visible(model);
    views::refresh(model);
    merged
}

/// Changes the filter. For a live source, a change of what the API filters (types and ids) starts a
/// new query; the rest is applied to what is loaded.
pub fn set_filter(model: &mut Model, filter: Filter) -> Vec<Effect> {
    let new_query_needed = model.live.is_some() && filter.api_params() != model.filter.api_params();
    model.filter = filter;
    if new_query_needed {
        return new_query(model);
    }
    refilter(model);
    fetch_more_if_near_end(model)
}

/// Starts a new live query with the current filter, dropping what the old one loaded.
pub fn new_query(model: &mut Model) -> Vec<Effect> {
    let Some(live) = model.live.as_mut() else {
        return Vec::new();
    };
    live.query += 1;
    live.next = None;
    live.total = None;
    live.pages = 0;
    live.fetch = Fetch::Fetching { page: 1 };
    live.loading_all = false;
    live.refresh = false;
    live.complete = false;
    live.refetched = 0;
    let id = live.query;
    model.store = Store::new();
    model.shown.clear();
    model.selection = Default::default();
    model.after = None;
    model.detail_scroll = 0;
    if let Some(follow) = &mut model.follow {
        // What a new query loads is not "new" against the old query's events.
        follow.new_from = None;
        follow.new_events = 0;
        follow.refreshing = false;
    }
    views::refresh(model);
    vec![Effect::Worker(worker::Command::Query {
        id,
        filter: model.filter.clone(),
    })]
}

/// Asks for the next page when the selection is within one screen of the end of what is loaded.
fn fetch_more_if_near_end(model: &mut Model) -> Vec<Effect> {
    let height = list_height(model).max(1);
    let near_end = model.selection.selected + height >= model.shown.len();
    match model.live.as_mut() {
        Some(live) if near_end && live.can_fetch_more() => {
            live.fetch = Fetch::Fetching {
                page: live.pages + 1,
            };
            vec![Effect::Worker(worker::Command::NextPage { id: live.query })]
        }
        _ => Vec::new(),
    }
}

fn load_all(model: &mut Model) -> Vec<Effect> {
    let Some(live) = model.live.as_mut() else {
        model.status = Some("every event of these files is already loaded".into());
        return Vec::new();
    };
    let id = live.query;
    if live.loading_all {
        live.loading_all = false;
        model.status = Some("stopped loading every page".into());
        return vec![Effect::Worker(worker::Command::Stop { id })];
    }
    if live.next.as_deref() == Some("") {
        model.status = Some("every matching event is loaded".into());
        return Vec::new();
    }
    live.loading_all = true;
    if matches!(live.fetch, Fetch::Failed(_) | Fetch::Done) {
        live.fetch = Fetch::Idle;
    }
    vec![Effect::Worker(worker::Command::LoadAll { id })]
}

fn live_report(model: &mut Model, report: Report) -> Vec<Effect> {
    let query = match &report {
        Report::Fetching { query, .. }
        | Report::Retrying { query, .. }
        | Report::Page { query, .. }
        | Report::Finished { query }
        | Report::Failed { query, .. } => *query,
    };
    let Some(live) = model.live.as_mut().filter(|l| l.query == query) else {
        // A report of an older query: its results no longer apply.
        return Vec::new();
    };
    match report {
        Report::Fetching { page, .. } => live.fetch = Fetch::Fetching { page },
        Report::Retrying { retry, .. } => {
            live.fetch = Fetch::Retrying {
                attempt: retry.attempt,
                of: retry.of,
                wait_secs: retry.wait.as_secs_f64().ceil() as u64,
                reason: retry.reason,
            }
        }
        Report::Page { page, .. } => {
            live.pages += 1;
            live.total = page.total.or(live.total);
            live.next = Some(page.next);
            live.fetch = Fetch::Idle;
            let refresh = live.refresh;
            let merged = append(model, *page.batch);
            if refresh && let Some(live) = model.live.as_mut() {
                live.refetched += merged.duplicates;
            }
            if model.follow.as_ref().is_some_and(|f| f.refreshing) {
                return views::follow_page(model, merged.added);
            }
            if model.live.as_ref().is_some_and(|l| !l.loading_all) {
                return fetch_more_if_near_end(model);
            }
        }
        Report::Finished { .. } => {
            live.fetch = Fetch::Done;
            live.complete = true;
            live.loading_all = false;
            views::follow_end(model, false);
        }
        Report::Failed { message, .. } => {
            live.fetch = Fetch::Failed(message);
            live.loading_all = false;
            views::follow_end(model, true);
        }
    }
    Vec::new()
}

fn start_save(model: &mut Model, what: SaveWhat) {
    let room = model.filter.room.as_deref().unwrap_or("events");
    let room: String = room
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    let default = format!("callscope-{room}-{stamp}.json");
    let cursor = default.len();
    model.save = Some(SavePrompt {
        path: tui_input::Input::new(default).with_cursor(cursor),
        what,
    });
    model.mode = Mode::SavePath;
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
    if model.shown.is_empty() && model.mode == Mode::Detail {
        model.mode = Mode::List;
    }
    keep_selection_visible(model);
    views::refresh(model);
}

fn move_selection(model: &mut Model, delta: i64) {
    if model.shown.is_empty() {
        return;
    }
    let last = model.shown.len() as i64 - 1;
    let next = (model.selection.selected as i64)
        .saturating_add(delta)
        .clamp(0, last);
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
        _ => u16::MAX,
    };
    clamp_detail_scroll(model);
}

/// Keeps the detail scroll within the pane's content, so that scrolling back up after its end
/// moves at once.
fn clamp_detail_scroll(model: &mut Model) {
    if model.detail_scroll > 0 {
        model.detail_scroll = model.detail_scroll.min(max_scroll(model));
    }
}

/// Lines one turn of the wheel moves.
const WHEEL_STEP: i64 = 3;

/// The wheel scrolls what is under the pointer: the help while it is open, else the pane.
fn wheel(model: &mut Model, column: u16, row: u16, down: bool) {
    let a: Areas = areas_of(model);
    let step = if down { WHEEL_STEP } else { -WHEEL_STEP };
    let at = (column, row).into();
    if model.mode == Mode::Help {
        scroll_help(model, step);
    } else if a.detail.contains(at) {
        // The facets take the pane's place and do not scroll.
        if model.groups.is_some() || model.facets {
            return;
        }
        model.detail_scroll = if down {
            model.detail_scroll.saturating_add(WHEEL_STEP as u16)
        } else {
            model.detail_scroll.saturating_sub(WHEEL_STEP as u16)
        };
        clamp_detail_scroll(model);
    } else if a.list.contains(at) && !views::wheel(model, step) {
        move_selection(model, step);
    }
}

/// A click selects the row under the pointer, or moves the keyboard to the pane under it. While
/// text is typed, a question is asked or the help is open, the keyboard stays where it is.
fn click(model: &mut Model, column: u16, row: u16) -> Vec<Effect> {
    if matches!(
        model.mode,
        Mode::Editing | Mode::SavePath | Mode::Confirm | Mode::Help
    ) {
        return Vec::new();
    }
    let a: Areas = areas_of(model);
    let at = (column, row).into();
    if a.timeline.contains(at) {
        views::click_timeline(model, column - a.timeline.x);
    } else if a.list.contains(at) {
        if views::click_list(model, row - a.list.y) {
            return Vec::new();
        }
        model.mode = Mode::List;
        let first = a.list.y + TABLE_FIRST_ROW;
        if row >= first {
            let k = model.selection.offset + (row - first) as usize;
            if k < model.shown.len() {
                move_selection(model, k as i64 - model.selection.selected as i64);
            }
        }
        return fetch_more_if_near_end(model);
    } else if a.detail.contains(at) {
        // Only an event's detail takes the keyboard: the facets and a story's event do not.
        let event_shown = model.groups.is_none() && model.story.is_none() && !model.facets;
        if event_shown && model.selected_event().is_some() {
            model.mode = Mode::Detail;
        }
    }
    Vec::new()
}

fn scroll_help(model: &mut Model, delta: i64) {
    let scroll = (i64::from(model.help_scroll) + delta).clamp(0, i64::from(u16::MAX));
    model.help_scroll = (scroll as u16).min(help::max_scroll(model));
}

/// Rows of events the list shows at once.
pub fn list_height(model: &Model) -> usize {
    areas_of(model).list.height.saturating_sub(TABLE_FIRST_ROW) as usize
}

/// `y`: the focused event's JSON, compact (and redacted when the profile says so), for the
/// clipboard.
fn copy_json(model: &mut Model) -> Vec<Effect> {
    let Some(i) = model.focused_event() else {
        model.status = Some("no event is selected: nothing to copy".into());
        return Vec::new();
    };
    let raw = model.store.raw(i);
    let json = if model.redact {
        crate::redact::Redactor::for_rows(&model.store, &[i as u32]).event(raw)
    } else {
        raw.to_vec()
    };
    let text = String::from_utf8_lossy(&clipboard::compact_json(&json)).into_owned();
    let what = format!(
        "{} of {}JSON",
        clipboard::size(text.len()),
        if model.redact { "redacted " } else { "" }
    );
    vec![Effect::Copy { text, what }]
}

/// `Y`: the focused event's id; in a story, the peer's id.
fn copy_id(model: &mut Model) -> Vec<Effect> {
    let (id, what) = match &model.story {
        Some(story) if model.mode == Mode::Story => {
            (model.store.str(story.story.peer).to_string(), "peer id")
        }
        _ => match model.focused_event() {
            Some(i) => (
                model.store.event(i).id().unwrap_or_default().to_string(),
                "event id",
            ),
            None => {
                model.status = Some("no event is selected: nothing to copy".into());
                return Vec::new();
            }
        },
    };
    if id.is_empty() {
        model.status = Some(format!("this event has no {what}: nothing to copy"));
        return Vec::new();
    }
    let what = format!("the {what} {id}");
    vec![Effect::Copy { text: id, what }]
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
    let selected = model.focused_event();
    if model.after.as_ref().map(|(i, _)| *i) != selected {
        model.after = selected.map(|i| (i, After::of(&model.store, i)));
    }
}

mod views;

#[cfg(test)]
mod tests;
