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
const HIDDEN_LABEL: &str = "hidden";

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
            let value = written(c);
            if c.negate { format!("!{value}") } else { value }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A condition's value as an input writes it: escaped, or `(none)` for the field absent (read
/// back by [`condition`]).
fn written(condition: &Condition) -> String {
    condition
        .value
        .as_deref()
        .map_or(crate::text::NONE.to_string(), escape)
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
        out.push(condition(field, value, negate)?);
    }
    if out.iter().filter(|c| !c.negate).count() > 1 {
        return Err(format!(
            "{field}: one value can be wanted (an event has one {field}); hide others with !value"
        ));
    }
    Ok(out)
}

/// One value of `field` as an input writes it (`(none)`: the field absent), or why it is not
/// one (a code that is not a number).
fn condition(field: Field, value: &str, negate: bool) -> Result<Condition, String> {
    let value = (value != crate::text::NONE).then(|| value.to_string());
    if field.is_number()
        && let Some(v) = &value
        && v.parse::<i64>().is_err()
    {
        return Err(format!("{field}: {v:?} is not a number"));
    }
    Ok(Condition {
        field,
        value,
        negate,
    })
}

/// A value hidden whole as its input writes it: each field's value, `field=value`, separated by
/// commas (`type=client.join.failed, code=4006, error=ICEFailure`).
pub fn hidden_input_text(group: &[Condition]) -> String {
    group
        .iter()
        .map(|c| {
            let op = if c.negate { "!=" } else { "=" };
            format!("{}{op}{}", c.field.name(), written(c))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values of a value hidden whole, read from its input's text (see [`hidden_input_text`]).
pub fn hidden_of(text: &str) -> Result<Vec<Condition>, String> {
    items(text)
        .iter()
        .map(|item| {
            let Some((name, value)) = item.split_once('=') else {
                return Err(format!(
                    "{HIDDEN_LABEL}: {item:?} is not field=value (empty the input to show \
                     these events again)"
                ));
            };
            let (name, negate) = match name.strip_suffix('!') {
                Some(name) => (name, true),
                None => (name, false),
            };
            let field = Field::named(name)
                .ok_or_else(|| format!("{HIDDEN_LABEL}: no field is named {:?}", name.trim()))?;
            condition(field, value.trim(), negate).map_err(|why| format!("{HIDDEN_LABEL}: {why}"))
        })
        .collect()
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

/// `filter` with the types of `text` (aliases or names; `!join` hides joins), in place of the
/// types selected, hidden or required before (a group's `type=`).
pub fn with_types(filter: &Filter, text: &str) -> Result<Filter, String> {
    let mut filter = filter.clone();
    filter.types.clear();
    filter.conditions.retain(|c| c.field != Field::Type);
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

/// The retry status an input names: `final`, `retried`, or either when it is empty.
fn status_of(text: &str) -> Result<Option<bool>, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "final" => Ok(Some(true)),
        "retried" => Ok(Some(false)),
        other => Err(format!(
            "status: {other:?} is neither final nor retried (empty: both)"
        )),
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
            visible(input, input_width.max(1))
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

/// The part of an input's text that shows in `width` columns, and the cursor's column within
/// it. A cursor at the end of a long text shows its end, the cursor after it; one within the
/// text keeps its character in view, with a column after it. A text scrolled past its start
/// begins with `…`, one cut before its end ends with it, except where the `…` would stand on the
/// cursor's character (the one a key deletes).
pub fn visible(input: &Input, width: usize) -> (String, usize) {
    let at_end = input.cursor() >= input.value().chars().count();
    let scroll = match at_end {
        true => input.visual_scroll(width),
        false => input.visual_scroll(width.saturating_sub(2)),
    };
    let column = input.visual_cursor().saturating_sub(scroll).min(width);
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
    let mut chars = shown.chars();
    let shown = match chars.next() {
        // The first character shown gives its columns to the `…`, so the cursor stays where it is.
        Some(first) if scroll > 0 && column > 0 => {
            let spaces = first.width().unwrap_or(0).saturating_sub(1);
            format!("…{}{}", " ".repeat(spaces), chars.as_str())
        }
        _ => shown,
    };
    // The cursor's character ending in the last column: the end is cut there, unmarked.
    let under = under_cursor(&shown, column);
    let text = if under > 0 && column + under == width {
        within(&shown, width)
    } else {
        crate::text::cut(&shown, width)
    };
    (text, column)
}

/// The columns of the character that starts at `column` of `text`; 0 where none does.
fn under_cursor(text: &str, column: usize) -> usize {
    let mut at = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if at == column && w > 0 {
            return w;
        }
        at += w;
        if at > column {
            break;
        }
    }
    0
}

/// The characters of `text` that fit whole in `width` columns.
fn within(text: &str, width: usize) -> String {
    let mut at = 0;
    text.chars()
        .take_while(|c| {
            at += c.width().unwrap_or(0);
            at <= width
        })
        .collect()
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
    fn a_value_hidden_whole_reads_back_from_its_input_as_it_was() {
        let group = vec![
            Condition::is(Field::Code, "4006"),
            Condition::not(Field::Device, Some("Pixel 7, Pro".into())),
            Condition {
                field: Field::ErrorName,
                value: None,
                negate: false,
            },
        ];
        let text = hidden_input_text(&group);
        assert_eq!(text, "code=4006, device!=Pixel 7\\, Pro, error=(none)");
        assert_eq!(hidden_of(&text), Ok(group));
        assert_eq!(hidden_of(" "), Ok(Vec::new()));
        assert!(hidden_of("code=40o6").unwrap_err().contains("not a number"));
        assert!(hidden_of("colour=red").unwrap_err().contains("no field"));
        assert!(hidden_of("web").unwrap_err().contains("field=value"));
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
    /// The character starting at `column` of what an input shows.
    fn at_column(shown: &str, column: usize) -> Option<char> {
        let mut at = 0;
        shown.chars().find(|c| {
            let here = at == column;
            at += c.width().unwrap_or(0);
            here
        })
    }

    #[test]
    fn a_scrolled_input_shows_the_cursors_character_where_the_cursor_is() {
        for text in ["abcdefghijklmnop", "王a伟bc王d伟ef"] {
            let chars: Vec<char> = text.chars().collect();
            for width in 1..12 {
                for (cursor, &c) in chars.iter().enumerate() {
                    let input = Input::new(text.to_string()).with_cursor(cursor);
                    let (shown, column) = visible(&input, width);
                    let why = format!("{text:?}, cursor {cursor}, {width} columns: {shown:?}");
                    assert!(shown.width() <= width, "{why}");
                    if c.width().unwrap_or(0) <= width {
                        assert_eq!(at_column(&shown, column), Some(c), "{why} at {column}");
                    }
                }
            }
        }
        // Both ends are marked where the marks hide no character under the cursor.
        let input = Input::new("abcdefghijklmnop".into()).with_cursor(10);
        assert_eq!(visible(&input, 6), ("…hijk…".to_string(), 4));
        let end = Input::new("abcdefghijklmnop".into());
        assert_eq!(visible(&end, 6), ("…lmnop".to_string(), 6));
    }
}
