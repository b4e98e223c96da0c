use std::sync::Arc;

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

use super::events::refilter;
use super::*;
use crate::event::{EventType, Field};
use crate::filter::Filter;
use crate::insight::After;
use crate::source::DumpProblem;
use crate::source::worker::{self, Report};
use crate::store::{Batch, BatchBuilder, Blob};
use crate::tui::effect::{CopyTo, SaveWhat};
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, LoadState, Selection, SourceLabel};
use crate::tui::panels::editor::{FilterEditor, SEARCH_SLOT, SLOTS};
use crate::tui::panels::story::StoryPanel;
use crate::tui::view::layout::areas;

/// A batch of these events, one per line of one buffer.
fn batch(events: &[serde_json::Value]) -> Batch {
    Batch::of_objects(events.iter().map(|e| e.to_string())).expect("a test event is a JSON object")
}

/// An event of one of the five types; `n` makes the id, the time and the peer.
fn event(n: u32, kind: &str, room: &str, terminal: bool) -> serde_json::Value {
    json!({
        "version": "2.0",
        "id": format!("00000000-0000-4000-8000-{n:012x}"),
        "timestamp": format!("2026-11-18T10:{:02}:{:02}.000000001Z", n / 60 % 60, n % 60),
        "type": kind,
        "data": {
            "room_id": room,
            "room_name": format!("name-{room}"),
            "session_id": format!("session-{room}"),
            "peer_id": format!("peer-{n}"),
            "user_id": format!("user-{n}"),
            "user_name": format!("User {n}"),
            "error_code": 4005,
            "error_name": "ICEFailure",
            "error_message": format!("message {n}"),
            "is_terminal": terminal,
            "action": "JOIN",
        }
    })
}

const JOIN: &str = "client.join.failed";
const PUBLISH: &str = "client.publish.failed";
const SUBSCRIBE: &str = "client.subscribe.failed";

/// Ten events: 0..=9, joins at even numbers, publishes at odd ones; rooms alternate every two;
/// final when `n % 3 == 0`.
fn ten() -> Vec<serde_json::Value> {
    (0..10)
        .map(|n| {
            let kind = if n % 2 == 0 { JOIN } else { PUBLISH };
            let room = if n / 2 % 2 == 0 { "room-a" } else { "room-b" };
            event(n, kind, room, n % 3 == 0)
        })
        .collect()
}

fn model(width: u16, height: u16) -> Model {
    Model::new(SourceLabel::Demo, Filter::default(), width, height)
}

fn loaded(events: &[serde_json::Value]) -> Model {
    let mut m = model(140, 40);
    update(&mut m, Action::BatchLoaded(batch(events)));
    update(
        &mut m,
        Action::LoadFinished {
            problems: Vec::new(),
        },
    );
    m
}

fn demo(width: u16, height: u16) -> Model {
    let mut m = model(width, height);
    update(&mut m, Action::BatchLoaded(crate::source::demo::load()));
    update(
        &mut m,
        Action::LoadFinished {
            problems: Vec::new(),
        },
    );
    m
}

fn run(m: &mut Model, c: Command) -> Vec<Effect> {
    update(m, Action::Command(c))
}

fn type_text(m: &mut Model, text: &str) {
    for c in text.chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert!(update(m, Action::Input(TermEvent::Key(key))).is_empty());
    }
}

fn press(m: &mut Model, code: KeyCode, modifiers: KeyModifiers) {
    update(
        m,
        Action::Input(TermEvent::Key(KeyEvent::new(code, modifiers))),
    );
}

/// The `n` of every shown event, read back from its user id.
fn shown_numbers(m: &Model) -> Vec<u32> {
    m.events
        .shown
        .iter()
        .map(|&i| {
            let user = m.events.store.str(m.events.store.row(i as usize).user_id);
            user.trim_start_matches("user-").parse().unwrap()
        })
        .collect()
}

fn selected_number(m: &Model) -> Option<u32> {
    let i = m.selected_event()?;
    let user = m.events.store.str(m.events.store.row(i).user_id);
    Some(user.trim_start_matches("user-").parse().unwrap())
}

fn select(m: &mut Model, n: u32) {
    run(m, Command::Top);
    while selected_number(m) != Some(n) {
        let before = m.events.selection.selected;
        run(m, Command::Down);
        assert_ne!(
            before, m.events.selection.selected,
            "event {n} is not shown"
        );
    }
}

/// The model drawn on a test terminal of its screen's size.
fn draw(m: &Model) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(
        m.screen.width,
        m.screen.height,
    ))
    .unwrap();
    t.draw(|f| crate::tui::view::view(m, f)).unwrap();
    t
}

/// Every cell of the model drawn, row after row, in one string.
fn screen_text(m: &Model) -> String {
    let t = draw(m);
    t.backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect()
}

fn assert_selection_visible(m: &Model) {
    // A terminal too small for any row still keeps the selection at the top of the list.
    let height = list_height(m).max(1);
    let s = &m.events.selection;
    assert!(
        s.offset <= s.selected && s.selected < s.offset + height,
        "selected {} outside rows {}..{}",
        s.selected,
        s.offset,
        s.offset + height
    );
}

fn click(m: &mut Model, column: u16, row: u16) -> Vec<Effect> {
    update(m, Action::Click { column, row })
}

fn wheel_at(m: &mut Model, column: u16, row: u16, down: bool) {
    update(m, Action::Wheel { column, row, down });
}

/// The screen line of the list's `k`-th visible row.
fn list_row((width, height): (u16, u16), k: u16) -> u16 {
    areas(width, height).list.y + crate::tui::view::layout::TABLE_FIRST_ROW + k
}

fn copied(effects: Vec<Effect>) -> (String, String) {
    match effects.as_slice() {
        [
            Effect::Copy {
                text,
                what,
                to: CopyTo::Clipboard,
            },
        ] => (text.clone(), what.clone()),
        other => panic!("expected one copy, got {other:?}"),
    }
}

/// The filter inputs, while they are edited.
fn editing(m: &Model) -> Option<&FilterEditor> {
    match &m.focus {
        Focus::Editing(editor) => Some(editor),
        _ => None,
    }
}

/// The open story (beneath the help too).
fn story_of(m: &Model) -> Option<&StoryPanel> {
    match m.focus.beneath() {
        Focus::Story(story) => Some(story),
        _ => None,
    }
}

/// The help's scroll; the help must be open.
fn help_scroll(m: &Model) -> u16 {
    match &m.focus {
        Focus::Help(help) => help.scroll,
        other => panic!("the help is not open: {other:?}"),
    }
}

/// The mode the help goes back to; the help must be open.
fn help_back(m: &Model) -> Mode {
    match &m.focus {
        Focus::Help(help) => help.back.mode(),
        other => panic!("the help is not open: {other:?}"),
    }
}

mod command;
mod copy;
mod detail;
mod facets;
mod filters;
mod find;
mod groups;
mod help;
mod history;
mod json;
mod list;
mod live;
mod order;
mod prompt;
mod related;
mod rooms;
mod save;
mod story;
mod timeline;
mod zoom;
