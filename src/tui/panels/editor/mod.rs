//! The filter editor: every filter in force as an input (types, ids, the error, the retry
//! status, agent fields, time bounds, search, and each value hidden whole), over the list. An
//! input holds its field's values separated by commas, as the `:` command of its name takes
//! them; a value written `!value` hides the events that have it, `(none)` stands for an event
//! without the field. A value hidden whole (a group's `!`) is an input of its own, its values
//! written `field=value`; emptied, its events show again.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use tui_input::Input;
use unicode_width::UnicodeWidthStr;

use super::{Focus, Handled};
use crate::event::{EventType, Field};
use crate::filter::Filter;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::update::events::fetch_more_if_near_end;
use crate::tui::update::history::{self, Return};

mod text;

pub use text::{
    conditions_of, field_text, hidden_input_text, hidden_of, items, time_bound, with_field,
    with_types,
};
use text::{escape, status_of};

/// What an input edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The types, by alias or name; `!join` hides a type.
    Types,
    /// A field's conditions.
    Field(Field),
    /// Final errors only (`final`), or retried ones (`retried`): what `t` cycles.
    Status,
    Since,
    Until,
    Search,
}

/// The inputs, in the order Tab visits them: every field a filter can hold (the values hidden
/// whole come after them).
pub const SLOTS: [Slot; 22] = [
    Slot::Field(Field::Room),
    Slot::Field(Field::Session),
    Slot::Field(Field::Peer),
    Slot::Field(Field::User),
    Slot::Types,
    Slot::Field(Field::Code),
    Slot::Field(Field::ErrorName),
    Slot::Status,
    Slot::Field(Field::Sdk),
    Slot::Field(Field::SdkVersion),
    Slot::Field(Field::Os),
    Slot::Field(Field::OsVersion),
    Slot::Field(Field::Device),
    Slot::Field(Field::Env),
    Slot::Field(Field::Role),
    Slot::Field(Field::Domain),
    Slot::Field(Field::Action),
    Slot::Field(Field::RoomName),
    Slot::Field(Field::UserName),
    Slot::Since,
    Slot::Until,
    Slot::Search,
];

/// The label of an input holding a value hidden whole.
pub(super) const HIDDEN_LABEL: &str = "hidden";

/// Where the search's input is among [`SLOTS`].
pub const SEARCH_SLOT: usize = SLOTS.len() - 1;

impl Slot {
    pub fn label(self) -> &'static str {
        match self {
            Slot::Types => "type",
            Slot::Field(field) => field.name(),
            Slot::Status => "status",
            Slot::Since => "since",
            Slot::Until => "until",
            Slot::Search => "search",
        }
    }

    /// What the input holds of `filter`.
    fn text_of(self, filter: &Filter) -> String {
        match self {
            Slot::Types => {
                let mut items: Vec<String> =
                    filter.types.iter().map(|t| escape(t.alias())).collect();
                // A type a condition requires (a group's `type=`), where the selection does not
                // name it already.
                for c in &filter.conditions {
                    if c.field == Field::Type && !c.negate {
                        let name = c.value.as_deref().map(EventType::from_name);
                        let item = name.map_or(crate::text::NONE.into(), |t| escape(t.alias()));
                        if !items.contains(&item) {
                            items.push(item);
                        }
                    }
                }
                items.extend(
                    filter
                        .conditions
                        .iter()
                        .filter(|c| c.field == Field::Type && c.negate)
                        .map(|c| {
                            let name = c.value.as_deref().map(EventType::from_name);
                            format!(
                                "!{}",
                                name.map_or(crate::text::NONE.into(), |t| escape(t.alias()))
                            )
                        }),
                );
                items.join(", ")
            }
            Slot::Field(field) => field_text(filter, field),
            Slot::Status => match filter.terminal {
                Some(true) => "final".into(),
                Some(false) => "retried".into(),
                None => String::new(),
            },
            Slot::Since => filter
                .since
                .as_ref()
                .map(|t| t.text.clone())
                .unwrap_or_default(),
            Slot::Until => filter
                .until
                .as_ref()
                .map(|t| t.text.clone())
                .unwrap_or_default(),
            Slot::Search => filter.search.clone().unwrap_or_default(),
        }
    }
}

/// The filter inputs while they are edited: one per [`SLOTS`], then one per value hidden whole.
#[derive(Debug, Clone)]
pub struct FilterEditor {
    pub inputs: Vec<Input>,
    pub focus: usize,
}

impl FilterEditor {
    /// The inputs holding `f`, the keyboard on input `focus`.
    pub fn from_filter(f: &Filter, focus: usize) -> FilterEditor {
        let input = |text: String| {
            let end = text.chars().count();
            Input::new(text).with_cursor(end)
        };
        let inputs: Vec<Input> = SLOTS
            .iter()
            .map(|s| input(s.text_of(f)))
            .chain(f.hidden.iter().map(|g| input(hidden_input_text(g))))
            .collect();
        FilterEditor {
            focus: focus.min(inputs.len() - 1),
            inputs,
        }
    }

    /// The label of input `k`.
    pub fn label(&self, k: usize) -> &'static str {
        SLOTS.get(k).map_or(HIDDEN_LABEL, |s| s.label())
    }

    /// The input of a slot.
    pub fn input(&self, slot: Slot) -> &Input {
        let k = SLOTS.iter().position(|s| *s == slot).unwrap_or(0);
        &self.inputs[k]
    }

    /// The filter with the edited inputs applied (an empty input clears its filter), or which
    /// input is wrong and why.
    pub fn apply_to(&self, f: &Filter) -> Result<Filter, (usize, String)> {
        let mut filter = f.clone();
        for (k, (slot, input)) in SLOTS.iter().zip(&self.inputs).enumerate() {
            filter = slot
                .apply(input.value(), f, filter)
                .map_err(|why| (k, why))?;
        }
        // The values hidden whole: an input as it was keeps its value as it was.
        filter.hidden.clear();
        let hidden = self.inputs.iter().enumerate().skip(SLOTS.len());
        for ((k, input), before) in hidden.zip(&f.hidden) {
            if input.value() == hidden_input_text(before) {
                filter.hidden.push(before.clone());
            } else {
                filter.hide(hidden_of(input.value()).map_err(|why| (k, why))?);
            }
        }
        Ok(filter)
    }
}

impl Slot {
    /// `filter` with this input's `text` applied; `f` is the filter the editor began from.
    fn apply(self, text: &str, f: &Filter, filter: Filter) -> Result<Filter, String> {
        Ok(match self {
            // The types as they were when their text is (a required type stays required).
            Slot::Types if text == self.text_of(f) => filter,
            Slot::Types => with_types(&filter, text)?,
            // A field's conditions as they were when their text is: `(none)` given as text on
            // the command line reads as the same text as an absent value.
            Slot::Field(_) if text == self.text_of(f) => filter,
            Slot::Field(field) => with_field(&filter, field, text)?,
            Slot::Status => Filter {
                terminal: status_of(text)?,
                ..filter
            },
            Slot::Since => Filter {
                since: time_bound("since", text, f.since.as_ref())?,
                ..filter
            },
            Slot::Until => Filter {
                until: time_bound("until", text, f.until.as_ref())?,
                ..filter
            },
            Slot::Search => Filter {
                search: Some(text.trim().to_string()).filter(|s| !s.is_empty()),
                ..filter
            },
        })
    }
}

/// A command while the filter inputs are edited.
pub fn handle(mut editor: FilterEditor, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Apply => match editor.apply_to(&model.events.filter) {
            Ok(filter) => {
                let from = Return::list(model);
                return Handled::Done(Focus::List, history::change(model, filter, from));
            }
            Err((k, why)) => {
                // The inputs stay as typed, the keyboard on the one at fault.
                editor.focus = k;
                model.status = Some(format!("not applied: {why}"));
            }
        },
        Command::Cancel => return Handled::Done(Focus::List, fetch_more_if_near_end(model)),
        Command::NextField => editor.focus = (editor.focus + 1) % editor.inputs.len(),
        Command::PrevField => {
            editor.focus = (editor.focus + editor.inputs.len() - 1) % editor.inputs.len()
        }
        _ => return Handled::Unused(Focus::Editing(editor)),
    }
    Handled::Done(Focus::Editing(editor), fetch_more_if_near_end(model))
}

/// The widest label, and the room between it and its input.
const LABEL_WIDTH: u16 = 12;

/// The editor's box over the list's place: one line per input, the focused one carrying the
/// cursor, then what the box holds; its title says how values are written. Where the box is
/// shorter than its lines, it scrolls to the focused input and its bottom border says how many
/// lines are above and below.
pub fn draw(model: &Model, editor: &FilterEditor, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let width = area.width;
    let notes = if editor.inputs.len() > SLOTS.len() {
        vec![
            " every filter in force; u in the list takes a change back",
            " hidden: the events with all these values; emptied, they show again",
        ]
    } else {
        vec![" every filter in force; u in the list takes a change back"]
    };
    let total = editor.inputs.len() + notes.len();
    let height = (total as u16 + 2).min(area.height);
    let popup = Rect::new(area.x, area.y, width, height);
    frame.render_widget(Clear, popup);
    let key = |c| model.config.keymap.key(Mode::Editing, c);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.focused_border())
        .title(crate::text::cut(
            &format!(
                " filters: value  !hide  (none)  ·  {} next  {} applies  {} cancels ",
                key(Command::NextField),
                key(Command::Apply),
                key(Command::Cancel)
            ),
            width.saturating_sub(2).into(),
        ));
    let inner = block.inner(popup);
    // On a short terminal the box scrolls so that the focused input shows.
    let top = (editor.focus + 1).saturating_sub(inner.height as usize);
    let below = total.saturating_sub(top + inner.height as usize);
    let block = if top + below > 0 {
        block.title_bottom(format!(" ↑ {top} more · ↓ {below} more "))
    } else {
        block
    };
    let input_width = inner.width.saturating_sub(LABEL_WIDTH + 1) as usize;
    let mut lines = Vec::new();
    for (k, input) in editor.inputs.iter().enumerate() {
        let focused = k == editor.focus;
        // The start of an input the keyboard is not on: a cut one ends in `…`.
        let (text, cursor) = if focused {
            super::input_view::visible(input, input_width.max(1))
        } else {
            let text = for_terminal(input.value());
            (crate::text::cut(&text, input_width), 0)
        };
        let padded = format!(
            "{text}{}",
            " ".repeat(input_width.saturating_sub(text.width()))
        );
        let style = if focused {
            theme.input_focused()
        } else if input.value().is_empty() {
            ratatui::style::Style::new()
        } else {
            theme.title()
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:>w$} ", editor.label(k), w = LABEL_WIDTH as usize),
                theme.label(),
            ),
            Span::styled(padded, style),
        ]));
        if focused && k >= top && ((k - top) as u16) < inner.height {
            frame.set_cursor_position(Position::new(
                inner.x + LABEL_WIDTH + 1 + cursor as u16,
                inner.y + (k - top) as u16,
            ));
        }
    }
    for note in notes {
        lines.push(Line::styled(
            crate::text::cut(note, inner.width.into()),
            theme.label(),
        ));
    }
    frame.render_widget(
        Paragraph::new(lines).block(block).scroll((top as u16, 0)),
        popup,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::{Condition, TimeBound};

    #[test]
    fn every_input_applied_unchanged_leaves_the_filter_as_it_was() {
        let mut f = Filter::default()
            .with(Field::Room, "r")
            .with(Field::Code, "4006");
        f.types = vec![EventType::Join];
        f.add(Condition::not(
            Field::Type,
            Some(EventType::Connect.name().into()),
        ));
        f.add(Condition::not(Field::Sdk, Some("web".into())));
        // `--user "(none)"`: the text, not an absent user.
        f.add(Condition::is(Field::User, "(none)"));
        f.search = Some("ice".into());
        f.since = Some(TimeBound {
            text: "30m".into(),
            nanos: 5,
        });
        let editor = FilterEditor::from_filter(&f, 0);
        assert_eq!(editor.input(Slot::Types).value(), "join, !connect");
        assert_eq!(editor.apply_to(&f), Ok(f));
    }

    #[test]
    fn a_type_a_group_requires_shows_in_the_types_and_stays_required_until_edited() {
        let mut f = Filter::default();
        f.add(Condition::is(Field::Type, EventType::Join.name()));
        f.hide(vec![
            Condition::is(Field::Sdk, "web"),
            Condition::is(Field::SdkVersion, "1.0"),
        ]);
        f.terminal = Some(false);
        let mut editor = FilterEditor::from_filter(&f, 0);
        assert_eq!(editor.input(Slot::Types).value(), "join");
        assert_eq!(editor.input(Slot::Status).value(), "retried");
        assert_eq!(
            editor.inputs[SLOTS.len()].value(),
            "sdk=web, sdk_version=1.0"
        );
        assert_eq!(editor.apply_to(&f), Ok(f.clone()));
        let k = SLOTS.iter().position(|s| *s == Slot::Types).unwrap();
        editor.inputs[k] = Input::new("publish".into());
        let edited = editor.apply_to(&f).unwrap();
        assert_eq!(edited.types, [EventType::Publish]);
        assert!(edited.conditions.iter().all(|c| c.field != Field::Type));
        editor.inputs[SLOTS.len()] = Input::default();
        let k = SLOTS.iter().position(|s| *s == Slot::Status).unwrap();
        editor.inputs[k] = Input::new("all of them".into());
        assert_eq!(editor.apply_to(&f).unwrap_err().0, k);
        editor.inputs[k] = Input::default();
        let cleared = editor.apply_to(&f).unwrap();
        assert!(cleared.hidden.is_empty() && cleared.terminal.is_none());
    }
}
