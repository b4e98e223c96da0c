//! `update`: the only place the model changes. Pure: it does no I/O and returns the effects the
//! runtime must carry out.
//!
//! A command goes to the focused panel (`panels`), which answers with where the keyboard goes
//! next; clicks and the wheel go to the panel under the pointer. After each update, the views
//! derived from the events are brought up to date in one step ([`refresh_derived`]).

pub mod events;
pub mod history;
pub mod live;
pub mod related;

pub use super::effect::Effect;

use super::action::{Action, Command, Copied};
use super::model::{LoadState, Model, Screen};
use super::panels::{
    Focus, Handled, command, detail, editor, facets, find, groups, help, json, list, prompt,
    quality, rooms, story, timeline,
};
use super::view::layout::{areas_of, list_height};
use events::{append, keep_selection_visible};

pub use events::new_query;

pub fn update(model: &mut Model, action: Action) -> Vec<Effect> {
    let effects = match action {
        Action::Command(c) => command(model, c),
        Action::ListCommand(c) => {
            model.focus = Focus::List;
            command(model, c)
        }
        Action::Input(ev) => {
            if prompt::type_into(&mut model.focus, &ev) {
                match model.focus {
                    Focus::Find(_) => find::typed(model),
                    Focus::Command(_) => command::typed(model),
                    Focus::Rooms(ref mut prompt) => rooms::typed(prompt),
                    _ => {}
                }
            }
            Vec::new()
        }
        Action::Unbound(key) => {
            let mode = model.focus.mode();
            // The question's line stays while it waits for its answer.
            if mode != super::keymap::Mode::Confirm {
                model.status = Some(does_nothing(model, &key, mode));
            }
            Vec::new()
        }
        Action::Wheel { column, row, down } => {
            wheel(model, column, row, down);
            Vec::new()
        }
        Action::Click { column, row } => click(model, column, row),
        Action::Resize { width, height } => {
            model.screen = Screen { width, height };
            keep_selection_visible(model);
            detail::clamp_scroll(model);
            Vec::new()
        }
        Action::BatchLoaded(batch) => {
            append(model, batch);
            Vec::new()
        }
        // The work is done by the refresh below, a part in each update (see `Model::has_work`).
        Action::Idle => Vec::new(),
        Action::FollowTick => live::follow_tick(model),
        Action::Tick(clock) => {
            live::tick(model, clock);
            Vec::new()
        }
        Action::LoadFinished { problems } => {
            model.session.problems.extend(problems);
            model.session.load = LoadState::Idle;
            // What the batches' own tables held, kept by the allocator for the next batch while
            // loading (trimming it after each batch only made the next one fault it in again).
            vec![Effect::ReleaseMemory, Effect::ReadNumbers]
        }
        Action::NumbersRead => vec![Effect::ReadNumbers],
        Action::Live(report) => live::report(model, report),
        Action::SavedPages(pages) => {
            model.session.saved = pages;
            Vec::new()
        }
        Action::SaveNeedsConfirm { path, what } => {
            prompt::ask_replace(model, path, what);
            Vec::new()
        }
        Action::Saved(result) => {
            model.status = Some(match result {
                Ok(message) => message,
                // The reassurance first: a long path or reason is cut at the screen's edge.
                Err(why) => format!("not saved, nothing lost: {why}"),
            });
            Vec::new()
        }
        Action::RelatedLoaded { objects, now } => {
            related::loaded(model, objects, now);
            Vec::new()
        }
        Action::Answered { answer, now } => related::answered(model, answer, now),
        Action::RecentRooms(result) => {
            rooms::recent_arrived(model, result);
            Vec::new()
        }
        Action::RoomLookedUp { name, result } => rooms::looked_up(model, name, result),
        Action::Copied(result) => {
            model.status = Some(copied_message(model, result));
            Vec::new()
        }
    };
    // A query without a room asked for the room prompt.
    let mut effects = effects;
    effects.extend(live::ask_room(model));
    refresh_derived(model);
    // A jump to the find's first event, still owed, goes on with what was looked at since.
    find::owed_jump(model);
    effects
}

/// What the status line says of a copy: only what is known. A terminal gives no answer to
/// OSC 52, so a copy through it is "sent", with the key that writes a file instead.
fn copied_message(model: &Model, result: Result<Copied, String>) -> String {
    match result {
        Ok(Copied::Program { what, program }) => {
            format!("copied {what} to the clipboard with {program}")
        }
        Ok(Copied::Terminal { what, failed }) => {
            let key = model
                .config
                .keymap
                .key(model.focus.mode(), Command::CopyToFile);
            let mut message = format!(
                "sent {what} to the terminal's clipboard (OSC 52); if it does not arrive, {key} writes it to a file"
            );
            if !failed.is_empty() {
                message.push_str(&format!(" ({})", failed.join("; ")));
            }
            message
        }
        Ok(Copied::File { what, path }) => format!("wrote {what} to {path}"),
        Err(why) => format!("copy failed: {why}"),
    }
}

/// Hands a command to the focused panel. A panel is handed its state and hands back the focus
/// that follows, so that opening and closing a panel is one assignment; meanwhile
/// `model.focus` holds the list's (stateless) focus.
fn command(model: &mut Model, c: Command) -> Vec<Effect> {
    // A message stays until the user does something else.
    model.status = None;
    if c == Command::Quit {
        model.session.quit = true;
        return vec![Effect::Quit];
    }
    if c == Command::Suspend {
        return vec![Effect::Suspend];
    }
    let handled = match std::mem::take(&mut model.focus) {
        Focus::List => list::handle(model, c),
        Focus::Detail => detail::handle(model, c),
        Focus::Timeline => timeline::handle(model, c),
        Focus::Groups(panel) => groups::handle(panel, model, c),
        Focus::Story(panel) => story::handle(panel, model, c),
        Focus::Help(panel) => help::handle(panel, model, c),
        Focus::Editing(editor) => editor::handle(editor, model, c),
        Focus::SavePath(prompt) => prompt::save_path(prompt, model, c),
        Focus::Confirm(question) => prompt::confirm(question, model, c),
        Focus::Facets(cursor) => facets::handle(cursor, model, c),
        Focus::Find(prompt) => find::handle(prompt, model, c),
        Focus::Json(tree) => json::handle(tree, model, c),
        Focus::Command(line) => command::handle(line, model, c),
        Focus::Quality(panel) => quality::handle(panel, model, c),
        Focus::Rooms(prompt) => rooms::handle(prompt, model, c),
    };
    match handled {
        Handled::Done(focus, effects) => {
            model.focus = focus;
            effects
        }
        Handled::Unused(focus) => {
            let mode = focus.mode();
            model.focus = focus;
            let key = model.config.keymap.key(mode, c);
            model.status = Some(does_nothing(model, &key, mode));
            Vec::new()
        }
    }
}

/// What the status line says of a key that does nothing where it was pressed.
fn does_nothing(model: &Model, key: &str, mode: super::keymap::Mode) -> String {
    let help = model.config.keymap.key(mode, Command::ToggleHelp);
    format!(
        "{key} does nothing in {} ({help} lists the keys that do)",
        mode.describe()
    )
}

/// Brings every view derived from the events up to date: the groups, the timeline, the focused
/// event's chain, the facets and why no event is shown. Each remembers the generation of the events it was computed
/// for, and is computed again only when that moved on (or, for the timeline, its width).
pub fn refresh_derived(model: &mut Model) {
    let started = std::time::Instant::now();
    let focused = model.focused_event();
    let Model {
        events,
        focus,
        panes,
        screen,
        beside,
        ..
    } = model;
    let mut lap = crate::time::Lap::new(started);
    if let Some(groups) = focus.groups_mut() {
        groups.refresh(events);
        groups.refresh_shares(events, beside);
    }
    if let Some(story) = focus.story_mut() {
        story.retell(&events.store, beside, events.generation.store, panes.zone);
    }
    let groups_ms = lap.split();
    events.refresh_why_empty();
    let why_empty_ms = lap.split();
    let mut found = events.find.take();
    if let Some(find) = &mut found {
        find.refresh(events, events.find_step);
    }
    events.find = found;
    let find_ms = lap.split();
    if let Some(strip) = &mut panes.timeline {
        strip.refresh(events, timeline::buckets_for(*screen));
    }
    let timeline_ms = lap.split();
    panes
        .detail
        .refresh(&events.store, events.generation, focused);
    panes.detail.refresh_verdict(
        &events.store,
        beside,
        events.generation,
        focused,
        panes.zone,
    );
    let detail_ms = lap.split();
    panes.facets.refresh(events, focus.groups());
    let facets_ms = lap.split();
    if started.elapsed() >= std::time::Duration::from_millis(1) {
        // Where a slow key's update went, beside the frame's `update_ms`.
        tracing::trace!(
            groups_ms,
            why_empty_ms,
            find_ms,
            timeline_ms,
            detail_ms,
            facets_ms,
            "refreshed"
        );
    }
}

/// Lines one turn of the wheel moves.
const WHEEL_STEP: i64 = 3;

/// The wheel scrolls what is under the pointer: the help while it is open, else the pane.
fn wheel(model: &mut Model, column: u16, row: u16, down: bool) {
    let step = if down { WHEEL_STEP } else { -WHEEL_STEP };
    if let Focus::Help(help) = &model.focus {
        let max = help::max_scroll(model, help.page);
        if let Focus::Help(help) = &mut model.focus {
            help::wheel(help, max, step);
        }
        return;
    }
    // The network view covers the panes: nothing under it scrolls.
    if matches!(model.focus, Focus::Quality(_)) {
        return;
    }
    let a = areas_of(model);
    let at = (column, row).into();
    if a.detail.contains(at) {
        detail::wheel(model, down, WHEEL_STEP as u16);
    } else if a.list.contains(at) {
        let page = list_height(model).max(1);
        match &mut model.focus {
            Focus::Groups(g) => groups::wheel(g, step, page),
            Focus::Story(s) => {
                if story::wheel(s, step, page) {
                    model.panes.detail.scroll = 0;
                }
            }
            _ => list::wheel(model, step),
        }
    }
}

/// A click selects the row under the pointer, or moves the keyboard to the pane under it. While
/// text is typed, a question is asked, or the help or the network view is open, the keyboard
/// stays where it is.
fn click(model: &mut Model, column: u16, row: u16) -> Vec<Effect> {
    if matches!(
        model.focus,
        Focus::Editing(_)
            | Focus::SavePath(_)
            | Focus::Confirm(_)
            | Focus::Help(_)
            | Focus::Find(_)
            | Focus::Command(_)
            | Focus::Quality(_)
            | Focus::Rooms(_)
    ) {
        return Vec::new();
    }
    let a = areas_of(model);
    let at = (column, row).into();
    if a.timeline.contains(at) {
        timeline::click(model, column - a.timeline.x);
    } else if a.list.contains(at) {
        let row = row - a.list.y;
        match &mut model.focus {
            Focus::Groups(g) => groups::click(g, row),
            Focus::Story(s) => {
                if story::click(s, row) {
                    model.panes.detail.scroll = 0;
                }
            }
            _ => return list::click(model, row),
        }
    } else if a.detail.contains(at) {
        detail::click(model);
    }
    Vec::new()
}

#[cfg(test)]
mod tests;
