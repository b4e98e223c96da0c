//! The prompts in the header: the filter inputs, the path of a dump to save, and whether to
//! replace a file that exists. Each keeps what is typed until it is applied or cancelled.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use tui_input::Input;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Focus, Handled};
use crate::event::Field;
use crate::filter::Filter;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::effect::{Effect, SaveWhat};
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::update::events::{fetch_more_if_near_end, set_filter};
use crate::tui::view::header::thousands;

/// The filter inputs, in the order Tab visits them.
pub const FIELDS: [&str; 5] = ["room", "session", "peer", "user", "search"];
pub const SEARCH_FIELD: usize = 4;
/// The fields of the inputs before the search's.
pub const ID_FIELDS: [Field; 4] = [Field::Room, Field::Session, Field::Peer, Field::User];

/// The filter inputs while they are edited.
#[derive(Debug, Clone)]
pub struct FilterEditor {
    pub inputs: [Input; 5],
    pub focus: usize,
}

impl FilterEditor {
    pub fn from_filter(f: &Filter, focus: usize) -> FilterEditor {
        let input = |v: Option<&str>| Input::new(v.unwrap_or_default().to_string());
        FilterEditor {
            inputs: [
                input(f.wanted(ID_FIELDS[0])),
                input(f.wanted(ID_FIELDS[1])),
                input(f.wanted(ID_FIELDS[2])),
                input(f.wanted(ID_FIELDS[3])),
                input(f.search.as_deref()),
            ],
            focus,
        }
    }

    /// The filter with the edited inputs applied (an empty input clears its filter).
    pub fn apply_to(&self, f: &Filter) -> Filter {
        let v = |i: usize| {
            let s = self.inputs[i].value().trim();
            (!s.is_empty()).then(|| s.to_string())
        };
        let mut filter = Filter {
            search: v(SEARCH_FIELD),
            ..f.clone()
        };
        for (k, field) in ID_FIELDS.into_iter().enumerate() {
            filter.set(field, v(k));
        }
        filter
    }
}

/// The save prompt: the path being typed, and what will be written.
#[derive(Debug, Clone)]
pub struct SavePrompt {
    pub path: Input,
    pub what: SaveWhat,
}

impl SavePrompt {
    /// The prompt as `s` and `S` open it: a path named after the filtered room and the time,
    /// the cursor at its end.
    pub fn new(filter: &Filter, what: SaveWhat) -> SavePrompt {
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
        let default = format!("callscope-{room}-{stamp}.json");
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

/// A command while the filter inputs are edited.
pub fn edit_filters(mut editor: FilterEditor, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Apply => {
            let filter = editor.apply_to(&model.events.filter);
            return Handled::Done(Focus::List, set_filter(model, filter));
        }
        Command::Cancel => return Handled::Done(Focus::List, fetch_more_if_near_end(model)),
        Command::NextField => editor.focus = (editor.focus + 1) % FIELDS.len(),
        Command::PrevField => editor.focus = (editor.focus + FIELDS.len() - 1) % FIELDS.len(),
        _ => return Handled::Unused(Focus::Editing(editor)),
    }
    Handled::Done(Focus::Editing(editor), fetch_more_if_near_end(model))
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

/// A key (or a paste) typed into the focused input, if one has the keyboard.
pub fn type_into(focus: &mut Focus, ev: &crossterm::event::Event) {
    use tui_input::backend::crossterm::EventHandler;
    let input = match focus {
        Focus::Editing(editor) => &mut editor.inputs[editor.focus],
        Focus::SavePath(prompt) => &mut prompt.path,
        _ => return,
    };
    match ev {
        // A paste is typed in as text: control characters (a newline would apply the filter
        // mid-paste) are left out.
        crossterm::event::Event::Paste(text) => {
            for c in text.chars().filter(|c| !c.is_control()) {
                input.handle(tui_input::InputRequest::InsertChar(c));
            }
        }
        _ => {
            input.handle_event(ev);
        }
    }
}

/// The header's line of the room, session, peer, user and search inputs; while they are edited,
/// the focused one carries the cursor.
pub fn inputs_line(model: &Model, frame: &mut Frame, area: Rect) -> Line<'static> {
    let filter = &model.events.filter;
    let theme = &model.config.theme;
    let current = [
        filter.wanted(ID_FIELDS[0]),
        filter.wanted(ID_FIELDS[1]),
        filter.wanted(ID_FIELDS[2]),
        filter.wanted(ID_FIELDS[3]),
        filter.search.as_deref(),
    ];
    let editor = match &model.focus {
        Focus::Editing(editor) => Some(editor),
        _ => None,
    };
    let mut spans = vec![Span::raw(" ")];
    let mut x = area.x + 1;
    // Each input gets an equal share of the line.
    let share = (area.width.saturating_sub(1) / FIELDS.len() as u16).max(10);
    for (k, name) in FIELDS.iter().enumerate() {
        let label = format!("{name}:");
        let width = share.saturating_sub(label.len() as u16 + 2) as usize;
        let (text, focused, cursor) = match editor {
            Some(ed) => {
                let input = &ed.inputs[k];
                let scroll = input.visual_scroll(width.max(1));
                let value = for_terminal(input.value()).into_owned();
                // `scroll` counts columns, not characters: a wide character hides two.
                let mut hidden = 0;
                let shown: String = value
                    .chars()
                    .skip_while(|c| {
                        let skip = hidden < scroll;
                        if skip {
                            hidden += c.width().unwrap_or(0);
                        }
                        skip
                    })
                    .collect();
                (
                    shown,
                    ed.focus == k,
                    input.visual_cursor().saturating_sub(scroll),
                )
            }
            None => (
                current[k]
                    .map(|s| for_terminal(s).into_owned())
                    .unwrap_or_default(),
                false,
                0,
            ),
        };
        let text = crate::text::cut(&text, width.max(1));
        // Padded to the input's width in columns, so that the next input starts where `x` says.
        let padded = format!("{text}{}", " ".repeat(width.saturating_sub(text.width())));
        spans.push(Span::styled(label.clone(), theme.label()));
        let style = if focused {
            theme.input_focused()
        } else if current[k].is_some() {
            theme.title()
        } else {
            ratatui::style::Style::new()
        };
        if focused {
            let cx = x + label.len() as u16 + cursor.min(width) as u16;
            frame.set_cursor_position(Position::new(cx, area.y + 2));
        }
        spans.push(Span::styled(padded, style));
        spans.push(Span::raw("  "));
        x += label.len() as u16 + width as u16 + 2;
    }
    Line::from(spans)
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
    let label = format!(" save {} events to: ", thousands(count));
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
