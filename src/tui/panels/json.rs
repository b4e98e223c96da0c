//! The event's JSON as a tree, in the detail pane's place: objects and arrays fold and unfold,
//! and the selected field's value or its path (`.data.agent.sdk`, as jq writes it) is copied.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use serde_json::Value;

use super::help::HelpPanel;
use super::{Focus, Handled, moved, moves, visible_offset};
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::effect::{CopyTo, Effect};
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::view::layout::areas_of;

/// One member of the tree: an object's field, an array's item, or the event itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub depth: usize,
    /// The field's name, `[k]` for an item, empty for the event.
    pub key: String,
    /// The path from the event, as jq writes it: `.data.agent.sdk`, `.data.devices[0]`.
    pub path: String,
    pub value: Value,
    /// One past the last node within this one: its members are the nodes up to there.
    pub end: usize,
}

impl Node {
    fn is_container(&self) -> bool {
        match &self.value {
            Value::Object(o) => !o.is_empty(),
            Value::Array(a) => !a.is_empty(),
            _ => false,
        }
    }
}

/// The tree of one event.
#[derive(Debug)]
pub struct JsonPanel {
    /// The event shown (a store index).
    pub event: usize,
    pub nodes: Vec<Node>,
    /// Whether each node is unfolded (containers only).
    pub open: Vec<bool>,
    /// The selected node, and the first shown, among the shown nodes.
    pub selected: usize,
    pub offset: usize,
    /// Where the keyboard goes back to.
    pub back: Box<Focus>,
}

/// A key as jq writes it in a path: `.name`, or `."a key"` when it is not an identifier.
fn path_key(key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!(".{key}")
    } else {
        format!(".{}", serde_json::to_string(key).unwrap_or_default())
    }
}

/// Appends `value` and its members to `nodes`, in order.
fn flatten(nodes: &mut Vec<Node>, depth: usize, key: String, path: String, value: &Value) {
    let at = nodes.len();
    nodes.push(Node {
        depth,
        key,
        path: path.clone(),
        value: value.clone(),
        end: 0,
    });
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                flatten(
                    nodes,
                    depth + 1,
                    k.clone(),
                    format!("{path}{}", path_key(k)),
                    v,
                );
            }
        }
        Value::Array(items) => {
            for (k, v) in items.iter().enumerate() {
                flatten(
                    nodes,
                    depth + 1,
                    format!("[{k}]"),
                    format!("{path}[{k}]"),
                    v,
                );
            }
        }
        _ => {}
    }
    nodes[at].end = nodes.len();
}

impl JsonPanel {
    /// The tree of event `event` of the store, every member unfolded.
    pub fn of(model: &Model, event: usize, back: Focus) -> JsonPanel {
        let raw = model.events.store.raw(event);
        let value: Value = serde_json::from_slice(raw).unwrap_or(Value::Null);
        let mut nodes = Vec::new();
        flatten(&mut nodes, 0, String::new(), String::new(), &value);
        let open = vec![true; nodes.len()];
        JsonPanel {
            event,
            nodes,
            open,
            selected: 0,
            offset: 0,
            back: Box::new(back),
        }
    }

    /// The nodes shown: those not inside a folded one.
    pub fn shown(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut k = 0;
        while k < self.nodes.len() {
            out.push(k);
            k = if self.open[k] {
                k + 1
            } else {
                self.nodes[k].end
            };
        }
        out
    }

    /// The selected node.
    pub fn node(&self) -> Option<&Node> {
        let shown = self.shown();
        shown.get(self.selected).map(|&k| &self.nodes[k])
    }

    /// The selected node as `y` copies it, and whether it was redacted: with redaction on (`redact
    /// = true` in the profile), the same node of the event redacted. Redacting changes string
    /// values only, so the redacted event's tree has the same nodes in the same order.
    fn copied(&self, model: &Model) -> Option<(Node, bool)> {
        let k = *self.shown().get(self.selected)?;
        if !model.config.redact {
            return Some((self.nodes[k].clone(), false));
        }
        let store = &model.events.store;
        let raw = crate::redact::Redactor::for_rows(store, &[self.event as u32])
            .event(store.raw(self.event));
        let value: Value = serde_json::from_slice(&raw).ok()?;
        let mut nodes = Vec::new();
        flatten(&mut nodes, 0, String::new(), String::new(), &value);
        nodes.into_iter().nth(k).map(|node| (node, true))
    }

    /// Folds (`open` false) or unfolds the selected node; folding a member that is not a
    /// container folds its parent instead and selects it.
    fn fold(&mut self, open: bool) {
        let shown = self.shown();
        let Some(&k) = shown.get(self.selected) else {
            return;
        };
        if self.nodes[k].is_container() && self.open[k] != open {
            self.open[k] = open;
            return;
        }
        if !open && let Some(parent) = (0..k).rev().find(|&p| self.nodes[p].end > k) {
            self.open[parent] = false;
            self.selected = self.shown().iter().position(|&s| s == parent).unwrap_or(0);
        }
    }
}

/// `J`: the tree of the selected event takes the detail pane's place and the keyboard.
pub fn open(model: &mut Model, here: Focus) -> Handled {
    let Some(event) = model.focused_event() else {
        model.status = Some("no event is selected: no JSON to show".into());
        return Handled::to(here);
    };
    Handled::to(Focus::Json(JsonPanel::of(model, event, here)))
}

/// The rows the tree has on screen.
fn height(model: &Model) -> usize {
    areas_of(model).detail.height.saturating_sub(1).max(1) as usize
}

/// A command with the keyboard on the tree.
pub fn handle(mut j: JsonPanel, model: &mut Model, c: Command) -> Handled {
    let page = height(model);
    match c {
        c if moves(c) => j.selected = moved(j.selected, j.shown().len(), c, page),
        Command::Right => j.fold(true),
        Command::Left => j.fold(false),
        Command::Apply => {
            let open = j
                .shown()
                .get(j.selected)
                .is_some_and(|&k| j.open[k] && j.nodes[k].is_container());
            j.fold(!open);
        }
        Command::CopyJson => {
            let effects = j.copied(model).map(copy_value).unwrap_or_default();
            return Handled::Done(Focus::Json(j), effects);
        }
        Command::CopyToFile => {
            let effects = j.copied(model).map(copy_value).unwrap_or_default();
            return Handled::Done(Focus::Json(j), crate::tui::clipboard::to_file(effects));
        }
        Command::CopyId => {
            let effects = j.node().map(copy_path).unwrap_or_default();
            return Handled::Done(Focus::Json(j), effects);
        }
        Command::Cancel | Command::ShowJson => return Handled::to(*j.back),
        Command::ToggleHelp => return Handled::to(Focus::Help(HelpPanel::over(Focus::Json(j)))),
        _ => return Handled::Unused(Focus::Json(j)),
    }
    j.selected = j.selected.min(j.shown().len().saturating_sub(1));
    j.offset = visible_offset(j.selected, j.offset, page);
    Handled::to(Focus::Json(j))
}

/// The text a copy of a value puts on the clipboard: a string as its text, anything else as
/// compact JSON. A string holding control characters is copied as JSON, escaped, so that a
/// paste cannot carry them into a shell.
pub fn value_text(value: &Value) -> (String, bool) {
    match value {
        Value::String(s) if !s.chars().any(char::is_control) => (s.clone(), false),
        Value::String(s) => (serde_json::to_string(s).unwrap_or_default(), true),
        other => (serde_json::to_string(other).unwrap_or_default(), false),
    }
}

fn path_text(node: &Node) -> String {
    if node.path.is_empty() {
        ".".to_string()
    } else {
        node.path.clone()
    }
}

/// `y`: the selected field's value to the clipboard (`redacted`: taken from the event redacted).
fn copy_value((node, redacted): (Node, bool)) -> Vec<Effect> {
    let (text, escaped) = value_text(&node.value);
    let what = format!(
        "the {}value of {}{}",
        if redacted { "redacted " } else { "" },
        for_terminal(&path_text(&node)),
        if escaped {
            " (as JSON: it holds control characters)"
        } else {
            ""
        }
    );
    vec![Effect::Copy {
        text,
        what,
        to: CopyTo::Clipboard,
    }]
}

/// `Y`: the selected field's path to the clipboard.
fn copy_path(node: &Node) -> Vec<Effect> {
    let text = path_text(node);
    let what = format!("the path {}", for_terminal(&text));
    vec![Effect::Copy {
        text,
        what,
        to: CopyTo::Clipboard,
    }]
}

/// A value on one line, for the tree: strings quoted, containers summarised.
fn summary(node: &Node, open: bool) -> String {
    match &node.value {
        Value::Object(o) if o.is_empty() => "{}".to_string(),
        Value::Array(a) if a.is_empty() => "[]".to_string(),
        Value::Object(_) if open => "{".to_string(),
        Value::Array(_) if open => "[".to_string(),
        Value::Object(o) => format!("{{…}} {} fields", o.len()),
        Value::Array(a) => format!("[…] {} items", a.len()),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// The tree, in the detail pane's place.
pub fn draw(model: &Model, j: &JsonPanel, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let key = |c| model.config.keymap.key(Mode::Json, c);
    let path = j.node().map(path_text).unwrap_or_default();
    let title = format!(
        " {} · {} value, {} path, {}/{} fold ",
        for_terminal(&path),
        key(Command::CopyJson),
        key(Command::CopyId),
        key(Command::Left),
        key(Command::Right)
    );
    let block = Block::new()
        .borders(Borders::TOP | Borders::LEFT)
        .border_style(theme.focused_border())
        .title(crate::text::cut(
            &title,
            area.width.saturating_sub(1).into(),
        ));
    let inner = block.inner(area);
    let shown = j.shown();
    let end = (j.offset + inner.height as usize).min(shown.len());
    let find = model.events.find.as_ref().map(|f| f.text.clone());
    let lines: Vec<Line> = (j.offset..end)
        .map(|row| {
            let k = shown[row];
            let node = &j.nodes[k];
            let mut spans = vec![Span::raw("  ".repeat(node.depth))];
            if !node.key.is_empty() {
                spans.push(Span::styled(
                    format!("{}: ", for_terminal(&node.key)),
                    theme.label(),
                ));
            }
            spans.push(Span::raw(
                for_terminal(&summary(node, j.open[k])).into_owned(),
            ));
            // A value longer than the pane ends in `…` (y copies it whole).
            let mut line = crate::tui::view::fit::line(Line::from(spans), inner.width.into());
            if let Some(text) = &find {
                line = super::find::mark_line(line, text, theme.find_hit());
            }
            if row == j.selected {
                line = line.style(theme.selected_row());
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(json: &str) -> Vec<Node> {
        let mut nodes = Vec::new();
        let value: Value = serde_json::from_str(json).unwrap();
        flatten(&mut nodes, 0, String::new(), String::new(), &value);
        nodes
    }

    #[test]
    fn every_member_has_its_path_as_jq_writes_it() {
        let n = nodes(r#"{"data":{"agent":{"sdk":"web"},"devices":[1,{"a b":2}]}}"#);
        let paths: Vec<&str> = n.iter().map(|n| n.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "",
                ".data",
                ".data.agent",
                ".data.agent.sdk",
                ".data.devices",
                ".data.devices[0]",
                ".data.devices[1]",
                ".data.devices[1].\"a b\"",
            ]
        );
        assert_eq!(n[1].end, n.len());
        assert_eq!(n[2].end, 4);
    }

    #[test]
    fn a_copied_string_is_its_text_and_anything_else_json() {
        assert_eq!(
            value_text(&Value::String("web".into())),
            ("web".into(), false)
        );
        assert_eq!(
            value_text(&serde_json::json!({"a": [1, true]})),
            (r#"{"a":[1,true]}"#.into(), false)
        );
        assert_eq!(
            value_text(&Value::String("a\u{1b}[2Jb".into())),
            (r#""a\u001b[2Jb""#.into(), true)
        );
    }
}
