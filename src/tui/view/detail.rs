use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use serde_json::Value;

use super::theme;
use crate::event::{Event, codes, value_text};
use crate::sanitize::for_terminal;
use crate::story::After;
use crate::tui::keymap::Mode;
use crate::tui::model::Model;

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let focused = model.mode == Mode::Detail;
    let block = Block::new()
        .borders(Borders::TOP | Borders::LEFT)
        .border_style(if focused { theme::focused_border() } else { theme::border() })
        .title(" detail ");
    let Some(i) = model.selected_event() else {
        frame.render_widget(Paragraph::new("").block(block), area);
        return;
    };
    let event = model.store.event(i);
    let after = match &model.after {
        Some((j, a)) if *j == i => a.clone(),
        _ => After::of(&model.store, i),
    };
    let lines = detail_lines(&event, &after, model.store.raw(i));
    let scroll = model.detail_scroll.min(lines.len().saturating_sub(1) as u16);
    let paragraph = Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0));
    frame.render_widget(paragraph, area);
}

fn clean(s: &str) -> String {
    for_terminal(s).into_owned()
}

fn section(title: &str) -> Line<'static> {
    Line::from(Span::styled(title.to_string(), theme::title()))
}

fn field(name: &str, value: &str) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("  {name}: "), theme::label()),
        Span::raw(clean(value)),
    ])
}

fn opt_field(lines: &mut Vec<Line<'static>>, name: &str, value: Option<&Value>) {
    match value {
        Some(v) => lines.push(field(name, &value_text(v))),
        None => lines.push(Line::from(vec![
            Span::styled(format!("  {name}: "), theme::label()),
            Span::styled("(absent)", theme::label()),
        ])),
    }
}

/// Every line of the detail pane for one event: the retry status first and plain, then the error,
/// who and where, the type's own fields, the agent, any field the spec does not name, and the raw
/// JSON.
pub fn detail_lines(e: &Event, after: &After, raw: &[u8]) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let action = e.data_str("action").unwrap_or("");
    let (status, style) = match e.is_terminal() {
        Some(true) => ("FINAL: the SDK made no more retries", theme::terminal(Some(true))),
        Some(false) => (
            "RETRIED: not the final error; the action may have succeeded on a later retry",
            theme::terminal(Some(false)),
        ),
        None => ("retry status not reported (no is_terminal)", Style::new()),
    };
    lines.push(Line::styled(status.to_string(), style));
    lines.push(Line::raw(format!("then: {}", clean(&after.sentence(action)))));
    if after.earlier > 0 {
        lines.push(Line::raw(format!(
            "before: {} earlier error(s) of this peer for {} among the loaded events",
            after.earlier,
            clean(if action.is_empty() { "this action" } else { action })
        )));
    }
    lines.push(Line::raw(""));

    lines.push(section("Error"));
    lines.push(field("type", e.type_name()));
    lines.push(field("time", e.timestamp().unwrap_or("(absent)")));
    opt_field(&mut lines, "code", e.data_value("error_code"));
    opt_field(&mut lines, "name", e.data_value("error_name"));
    if let Some(code) = e.error_code() {
        match codes::explain(code) {
            Some((family, what, check)) => {
                lines.push(field("means", &format!("{what} ({family})")));
                lines.push(field("check", check));
            }
            None => lines.push(field("means", "unknown code")),
        }
    }
    opt_field(&mut lines, "message", e.data_value("error_message"));
    opt_field(&mut lines, "description", e.data_value("error_description"));
    opt_field(&mut lines, "action", e.data_value("action"));
    lines.push(Line::raw(""));

    if e.data().is_some() && e.event_type().is_known() {
        lines.push(section("Who and where"));
        for (label, name) in [
            ("user", "user_name"),
            ("user id", "user_id"),
            ("peer", "peer_id"),
            ("role", "role"),
            ("room", "room_name"),
            ("room id", "room_id"),
            ("session", "session_id"),
            ("template", "template_id"),
            ("account", "account_id"),
        ] {
            opt_field(&mut lines, label, e.data_value(name));
        }
        lines.push(Line::raw(""));
        let specific: Vec<(&str, &Value)> = crate::event::TYPE_DATA_FIELDS
            .iter()
            .filter_map(|f| e.data_value(f).map(|v| (*f, v)))
            .collect();
        if !specific.is_empty() {
            lines.push(section(&format!("{} fields", e.event_type().alias())));
            for (name, v) in specific {
                push_value(&mut lines, name, v, 1);
            }
            lines.push(Line::raw(""));
        }
    }

    if let Some(agent) = e.agent() {
        lines.push(section("Agent"));
        for name in crate::event::AGENT_FIELDS.iter().filter(|f| **f != "string") {
            if let Some(v) = agent.get(*name) {
                lines.push(field(name, &value_text(v)));
            }
        }
        let pairs = e.agent_pairs();
        if !pairs.is_empty() {
            lines.push(Line::styled("  string, decoded:".to_string(), theme::label()));
            for p in pairs {
                lines.push(field(&format!("  {}", p.key), &p.value));
            }
        }
        lines.push(Line::raw(""));
    }

    let mut others: Vec<(String, &Value)> = Vec::new();
    others.extend(e.unknown_fields().into_iter().map(|(k, v)| (k.to_string(), v)));
    others.extend(e.unknown_data_fields().into_iter().map(|(k, v)| (format!("data.{k}"), v)));
    others.extend(e.unknown_agent_fields().into_iter().map(|(k, v)| (format!("agent.{k}"), v)));
    if !others.is_empty() {
        let title = if e.event_type().is_known() {
            "Other fields"
        } else {
            "Fields (a type outside the five client errors)"
        };
        lines.push(section(title));
        for (name, v) in others {
            push_value(&mut lines, &name, v, 1);
        }
        lines.push(Line::raw(""));
    }

    lines.push(section("Raw JSON"));
    let pretty = serde_json::from_slice::<Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| String::from_utf8_lossy(raw).into_owned());
    for l in pretty.lines() {
        lines.push(Line::raw(clean(l)));
    }
    lines
}

/// A field, with objects and arrays laid out one member per line.
fn push_value(lines: &mut Vec<Line<'static>>, name: &str, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    match v {
        Value::Object(map) if !map.is_empty() => {
            lines.push(Line::styled(format!("{pad}{}:", clean(name)), theme::label()));
            for (k, v) in map {
                push_value(lines, k, v, depth + 1);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            lines.push(Line::styled(format!("{pad}{}:", clean(name)), theme::label()));
            for (k, v) in items.iter().enumerate() {
                push_value(lines, &format!("[{k}]"), v, depth + 1);
            }
        }
        other => lines.push(Line::from(vec![
            Span::styled(format!("{pad}{}: ", clean(name)), theme::label()),
            Span::raw(clean(&value_text(other))),
        ])),
    }
}
