//! The filter editor: every filter of the command line as an input (types, ids, code, agent
//! fields, time bounds, search), over the list. An input holds its field's values separated by
//! commas; a value written `!value` hides the events that have it, `(none)` stands for an event
//! without the field.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use tui_input::Input;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Focus, Handled};
use crate::event::{EventType, Field};
use crate::filter::{Condition, Filter, TimeBound};
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::update::events::fetch_more_if_near_end;
use crate::tui::update::history::{self, Return};

/// What an input edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The types, by alias or name; `!join` hides a type.
    Types,
    /// A field's conditions.
    Field(Field),
    Since,
    Until,
    Search,
}

/// The inputs, in the order Tab visits them: the command line's filters.
pub const SLOTS: [Slot; 14] = [
    Slot::Field(Field::Room),
    Slot::Field(Field::Session),
    Slot::Field(Field::Peer),
    Slot::Field(Field::User),
    Slot::Types,
    Slot::Field(Field::Code),
    Slot::Field(Field::Sdk),
    Slot::Field(Field::SdkVersion),
    Slot::Field(Field::Os),
    Slot::Field(Field::Device),
    Slot::Field(Field::Env),
    Slot::Since,
    Slot::Until,
    Slot::Search,
];

/// Where the search's input is among [`SLOTS`].
pub const SEARCH_SLOT: usize = SLOTS.len() - 1;

impl Slot {
    pub fn label(self) -> &'static str {
        match self {
            Slot::Types => "type",
            Slot::Field(field) => field.name(),
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

/// A field's conditions as an input writes them: the wanted value, then the hidden ones.
pub fn field_text(filter: &Filter, field: Field) -> String {
    let mut conditions: Vec<&Condition> = filter
        .conditions
        .iter()
        .filter(|c| c.field == field)
        .collect();
    conditions.sort_by_key(|c| c.negate);
    conditions
        .iter()
        .map(|c| {
            let value = c
                .value
                .as_deref()
                .map_or(crate::text::NONE.to_string(), escape);
            if c.negate { format!("!{value}") } else { value }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value with its commas escaped, as an input writes it.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(',', "\\,")
}

/// The items of an input, split at commas not escaped, unescaped and trimmed; empty ones left
/// out.
pub fn items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut item = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => item.extend(chars.next()),
            ',' => out.push(std::mem::take(&mut item)),
            c => item.push(c),
        }
    }
    out.push(item);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The conditions an input's text asks of `field`: at most one wanted value, any number of
/// hidden ones (`!value`); `(none)` is the absence of the field.
pub fn conditions_of(field: Field, text: &str) -> Result<Vec<Condition>, String> {
    let mut out = Vec::new();
    for item in items(text) {
        let (negate, value) = match item.strip_prefix('!') {
            Some(rest) => (true, rest.trim()),
            None => (false, item.as_str()),
        };
        let value = (value != crate::text::NONE).then(|| value.to_string());
        if field.is_number()
            && let Some(v) = &value
            && v.parse::<i64>().is_err()
        {
            return Err(format!("{field}: {v:?} is not a number"));
        }
        out.push(Condition {
            field,
            value,
            negate,
        });
    }
    if out.iter().filter(|c| !c.negate).count() > 1 {
        return Err(format!(
            "{field}: one value can be wanted (an event has one {field}); hide others with !value"
        ));
    }
    Ok(out)
}

/// `filter` with `field`'s conditions replaced by those of `text`.
pub fn with_field(filter: &Filter, field: Field, text: &str) -> Result<Filter, String> {
    let conditions = conditions_of(field, text)?;
    let mut filter = filter.clone();
    filter.conditions.retain(|c| c.field != field);
    for c in conditions {
        filter.add(c);
    }
    Ok(filter)
}

/// `filter` with the types of `text` (aliases or names; `!join` hides joins).
pub fn with_types(filter: &Filter, text: &str) -> Result<Filter, String> {
    let mut filter = filter.clone();
    filter.types.clear();
    filter
        .conditions
        .retain(|c| c.field != Field::Type || !c.negate);
    for item in items(text) {
        let (negate, name) = match item.strip_prefix('!') {
            Some(rest) => (true, rest.trim()),
            None => (false, item.as_str()),
        };
        let kind = EventType::from_arg(name).map_err(|e| format!("type: {e}"))?;
        if negate {
            filter.add(Condition::not(Field::Type, Some(kind.name().to_string())));
        } else if !filter.types.contains(&kind) {
            filter.types.push(kind);
        }
    }
    filter.types.sort();
    Ok(filter)
}

/// A time bound as typed (RFC 3339, or a duration back from now such as `30m`); the one in
/// force when the text is the same, so that applying the editor again moves nothing.
pub fn time_bound(
    name: &str,
    text: &str,
    current: Option<&TimeBound>,
) -> Result<Option<TimeBound>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Some(bound) = current.filter(|b| b.text == text) {
        return Ok(Some(bound.clone()));
    }
    crate::time::parse_time_bound(text, crate::time::now_nanos())
        .map(|nanos| {
            Some(TimeBound {
                text: text.to_string(),
                nanos,
            })
        })
        .map_err(|e| format!("{name}: {e}"))
}

/// The filter inputs while they are edited.
#[derive(Debug, Clone)]
pub struct FilterEditor {
    pub inputs: Vec<Input>,
    pub focus: usize,
}

impl FilterEditor {
    /// The inputs holding `f`, the keyboard on input `focus`.
    pub fn from_filter(f: &Filter, focus: usize) -> FilterEditor {
        let inputs = SLOTS
            .iter()
            .map(|s| {
                let text = s.text_of(f);
                let end = text.chars().count();
                Input::new(text).with_cursor(end)
            })
            .collect();
        FilterEditor {
            inputs,
            focus: focus.min(SLOTS.len() - 1),
        }
    }

    /// The input of a slot.
    pub fn input(&self, slot: Slot) -> &Input {
        let k = SLOTS.iter().position(|s| *s == slot).unwrap_or(0);
        &self.inputs[k]
    }

    /// The filter with the edited inputs applied (an empty input clears its filter), or what is
    /// wrong with an input.
    pub fn apply_to(&self, f: &Filter) -> Result<Filter, String> {
        let mut filter = f.clone();
        for (slot, input) in SLOTS.iter().zip(&self.inputs) {
            let text = input.value();
            filter = match slot {
                Slot::Types => with_types(&filter, text)?,
                Slot::Field(field) => with_field(&filter, *field, text)?,
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
            };
        }
        Ok(filter)
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
            Err(why) => {
                // The inputs stay as typed, the keyboard on the one at fault.
                if let Some(k) = SLOTS
                    .iter()
                    .position(|s| why.starts_with(&format!("{}:", s.label())))
                {
                    editor.focus = k;
                }
                model.status = Some(format!("not applied: {why}"));
            }
        },
        Command::Cancel => return Handled::Done(Focus::List, fetch_more_if_near_end(model)),
        Command::NextField => editor.focus = (editor.focus + 1) % SLOTS.len(),
        Command::PrevField => editor.focus = (editor.focus + SLOTS.len() - 1) % SLOTS.len(),
        _ => return Handled::Unused(Focus::Editing(editor)),
    }
    Handled::Done(Focus::Editing(editor), fetch_more_if_near_end(model))
}

/// The widest label, and the room between it and its input.
const LABEL_WIDTH: u16 = 12;

/// The editor's box over the list's place: one line per input, the focused one carrying the
/// cursor; its title says how values are written.
pub fn draw(model: &Model, editor: &FilterEditor, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let width = area.width.min(78);
    let height = (SLOTS.len() as u16 + 3).min(area.height);
    let popup = Rect::new(area.x, area.y, width, height);
    frame.render_widget(Clear, popup);
    let key = |c| model.config.keymap.key(Mode::Editing, c);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.focused_border())
        .title(format!(
            " filters: value  !hide  (none)  ·  {} next  {} applies  {} cancels ",
            key(Command::NextField),
            key(Command::Apply),
            key(Command::Cancel)
        ));
    let inner = block.inner(popup);
    let input_width = inner.width.saturating_sub(LABEL_WIDTH + 1) as usize;
    // On a short terminal the box scrolls so that the focused input shows.
    let top = (editor.focus + 1).saturating_sub(inner.height as usize);
    let mut lines = Vec::new();
    for (k, (slot, input)) in SLOTS.iter().zip(&editor.inputs).enumerate() {
        let focused = k == editor.focus;
        let (text, cursor) = visible(input, input_width.max(1));
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
                format!("{:>w$} ", slot.label(), w = LABEL_WIDTH as usize),
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
    lines.push(Line::styled(
        " the command line's filters are here too; u in the list takes a change back".to_string(),
        theme.label(),
    ));
    frame.render_widget(
        Paragraph::new(lines).block(block).scroll((top as u16, 0)),
        popup,
    );
}

/// The part of an input's text that shows in `width` columns (the end of a long one, where the
/// cursor is), and the cursor's column within it.
pub fn visible(input: &Input, width: usize) -> (String, usize) {
    let scroll = input.visual_scroll(width);
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
    let text = crate::text::cut(&shown, width);
    (
        text,
        input.visual_cursor().saturating_sub(scroll).min(width),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_split_at_commas_not_escaped_and_hidden_ones_start_with_a_bang() {
        assert_eq!(items(" web , !ios,, a\\,b "), ["web", "!ios", "a,b"]);
        let c = conditions_of(Field::Sdk, "web, !flutter, !(none)").unwrap();
        assert_eq!(
            c,
            [
                Condition::is(Field::Sdk, "web"),
                Condition::not(Field::Sdk, Some("flutter".into())),
                Condition::not(Field::Sdk, None),
            ]
        );
        assert!(conditions_of(Field::Sdk, "web, ios").is_err());
        assert!(conditions_of(Field::Code, "40x6").is_err());
        // What an input shows reads back as the same conditions.
        let mut f = Filter::default();
        for c in conditions_of(Field::Device, "!Pixel 7\\, Pro, Galaxy").unwrap() {
            f.add(c);
        }
        assert_eq!(field_text(&f, Field::Device), "Galaxy, !Pixel 7\\, Pro");
        assert_eq!(
            with_field(&f, Field::Device, &field_text(&f, Field::Device)),
            Ok(f)
        );
    }

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
        f.search = Some("ice".into());
        f.since = Some(TimeBound {
            text: "30m".into(),
            nanos: 5,
        });
        let editor = FilterEditor::from_filter(&f, 0);
        assert_eq!(editor.input(Slot::Types).value(), "join, !connect");
        assert_eq!(editor.apply_to(&f), Ok(f));
    }
}
