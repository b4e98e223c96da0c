//! The prompts in the header: the path of a dump to save, and whether to replace a file that
//! exists; and typing into whichever input has the keyboard. Each keeps what is typed until it
//! is applied or cancelled.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use tui_input::Input;

use super::{Focus, Handled};
use crate::filter::Filter;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::effect::{Effect, SaveWhat};
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::update::events::fetch_more_if_near_end;

/// The save prompt: the path being typed, and what will be written.
#[derive(Debug, Clone)]
pub struct SavePrompt {
    pub path: Input,
    pub what: SaveWhat,
}

impl SavePrompt {
    /// The prompt as `s` and `S` open it: a path named after the filtered room and the time,
    /// the cursor at its end; a folder (ending with `/`) when `folder` is set (there is related
    /// data to save beside the events), else a file.
    pub fn new(filter: &Filter, what: SaveWhat, folder: bool) -> SavePrompt {
        let room = filter.room().unwrap_or("events");
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
        let default = if folder {
            format!("callscope-{room}-{stamp}/")
        } else {
            format!("callscope-{room}-{stamp}.json")
        };
        let cursor = default.len();
        SavePrompt {
            path: Input::new(default).with_cursor(cursor),
            what,
        }
    }
}

/// The question asked when the file to save to exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplaceQuestion {
    pub path: String,
    pub what: SaveWhat,
}

/// A command while the path of a dump is typed.
pub fn save_path(prompt: SavePrompt, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Apply => {
            let path = prompt.path.value().trim().to_string();
            if path.is_empty() {
                model.status = Some("not saved: no path given".into());
                return Handled::Done(Focus::List, fetch_more_if_near_end(model));
            }
            let save = Effect::Save {
                path,
                what: prompt.what,
                replace: false,
            };
            Handled::Done(Focus::List, vec![save])
        }
        Command::Cancel => Handled::Done(Focus::List, fetch_more_if_near_end(model)),
        _ => Handled::Unused(Focus::SavePath(prompt)),
    }
}

/// The file to save to exists: the question takes the keyboard.
pub fn ask_replace(model: &mut Model, path: String, what: SaveWhat) {
    let key = |c| model.config.keymap.key(Mode::Confirm, c);
    model.status = Some(format!(
        "{path} exists: replace it? ({}/{})",
        key(Command::Yes),
        key(Command::No)
    ));
    model.focus = Focus::Confirm(ReplaceQuestion { path, what });
}

/// An answer to whether to replace the file.
pub fn confirm(question: ReplaceQuestion, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Yes => {
            let save = Effect::Save {
                path: question.path,
                what: question.what,
                replace: true,
            };
            Handled::Done(Focus::List, vec![save])
        }
        Command::No => {
            model.status = Some("not saved: the file was kept".into());
            Handled::Done(Focus::List, fetch_more_if_near_end(model))
        }
        _ => Handled::Unused(Focus::Confirm(question)),
    }
}

/// A key (or a paste) typed into the focused input, if one has the keyboard; whether its text
/// changed.
pub fn type_into(focus: &mut Focus, ev: &crossterm::event::Event) -> bool {
    use tui_input::backend::crossterm::EventHandler;
    let input = match focus {
        Focus::Editing(editor) => &mut editor.inputs[editor.focus],
        Focus::SavePath(prompt) => &mut prompt.path,
        Focus::Find(prompt) => &mut prompt.input,
        Focus::Command(line) => &mut line.input,
        Focus::Rooms(prompt) => &mut prompt.input,
        _ => return false,
    };
    let before = input.value().len();
    let changed = match ev {
        // A paste is typed in as text: control characters (a newline would apply the filter
        // mid-paste) are left out.
        crossterm::event::Event::Paste(text) => {
            for c in text.chars().filter(|c| !c.is_control()) {
                input.handle(tui_input::InputRequest::InsertChar(c));
            }
            true
        }
        _ => input
            .handle_event(ev)
            .is_some_and(|response| response.value),
    };
    changed || input.value().len() != before
}

/// The header's fourth line while a path is typed: the prompt, with the cursor.
pub fn save_line(
    model: &Model,
    prompt: &SavePrompt,
    frame: &mut Frame,
    area: Rect,
) -> Line<'static> {
    let count = match prompt.what {
        SaveWhat::Shown => model.events.shown.len(),
        SaveWhat::Loaded => model.events.store.len(),
    };
    // A folder gets the track events of the events' peers and the related data beside them.
    let label = if prompt.path.value().trim_end().ends_with('/') {
        format!(
            " save {}, their peers' track events and the related data into: ",
            crate::text::plural(count, "event", "events")
        )
    } else {
        format!(
            " save {} to: ",
            crate::text::plural(count, "event", "events")
        )
    };
    let width = area.width.saturating_sub(label.chars().count() as u16 + 1) as usize;
    let scroll = prompt.path.visual_scroll(width.max(1));
    let value: String = for_terminal(prompt.path.value())
        .chars()
        .skip(scroll)
        .collect();
    let cursor = prompt.path.visual_cursor().saturating_sub(scroll);
    frame.set_cursor_position(Position::new(
        area.x + label.chars().count() as u16 + cursor as u16,
        area.y + 3,
    ));
    Line::from(vec![
        Span::styled(label, model.config.theme.title()),
        Span::styled(value, model.config.theme.input_focused()),
    ])
}
