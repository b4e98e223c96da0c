//! The event loop: keys, mouse and background results in, `update`, effects out, and a redraw
//! when something changed. Bursts of background results are merged into one frame.

use crossterm::event::{Event as TermEvent, EventStream, KeyEventKind, MouseEventKind};
use futures::StreamExt;
use tokio::sync::mpsc;

use super::action::Action;
use super::keymap::{Mode, command_for};
use super::model::Model;
use super::terminal::Tui;
use super::update::{Effect, update};
use super::view::view;

/// How many queued background results are folded into one frame at most.
const MAX_BURST: usize = 64;

pub async fn run(terminal: &mut Tui, model: &mut Model, mut rx: mpsc::UnboundedReceiver<Action>) -> std::io::Result<()> {
    let mut input = EventStream::new();
    terminal.draw(|f| view(model, f))?;
    loop {
        let action = tokio::select! {
            ev = input.next() => match ev {
                Some(Ok(ev)) => translate(model, ev),
                Some(Err(e)) => return Err(e),
                None => return Ok(()),
            },
            Some(action) = rx.recv() => Some(action),
        };
        let Some(action) = action else { continue };
        let mut effects = update(model, action);
        for _ in 0..MAX_BURST {
            match rx.try_recv() {
                Ok(action) => effects.extend(update(model, action)),
                Err(_) => break,
            }
        }
        if effects.contains(&Effect::Quit) || model.quit {
            return Ok(());
        }
        terminal.draw(|f| view(model, f))?;
    }
}

/// What a terminal event means in the current mode.
pub fn translate(model: &Model, ev: TermEvent) -> Option<Action> {
    match ev {
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => {
            match command_for(model.mode, &key) {
                Some(c) => Some(Action::Command(c)),
                None if model.mode == Mode::Editing => Some(Action::Input(TermEvent::Key(key))),
                None => None,
            }
        }
        TermEvent::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::Wheel { column: m.column, row: m.row, down: true }),
            MouseEventKind::ScrollUp => Some(Action::Wheel { column: m.column, row: m.row, down: false }),
            _ => None,
        },
        TermEvent::Resize(width, height) => Some(Action::Resize { width, height }),
        TermEvent::Paste(text) if model.mode == Mode::Editing => Some(Action::Input(TermEvent::Paste(text))),
        _ => None,
    }
}
