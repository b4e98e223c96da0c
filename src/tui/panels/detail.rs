//! The detail pane: the focused event in full. Its scroll stays while the keyboard is on the
//! list, and what the loaded events say of the event's chain is computed once per change.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use serde_json::Value;

use super::{Focus, Handled, list, moves};
use crate::event::{Event, codes, value_text};
use crate::insight::{After, Verdict, tell_with};
use crate::store::Store;
use crate::text::for_terminal;
use crate::time::Zone;
use crate::tui::action::Command;
use crate::tui::model::{Beside, Generation, Model};
use crate::tui::update::events::fetch_more_if_near_end;
use crate::tui::view::layout::areas_of;
use crate::tui::view::theme::Theme;
use crate::tui::view::wrap::{leading_spaces, wrap};

/// The detail pane's state.
#[derive(Debug, Default)]
pub struct DetailPane {
    /// Rows scrolled past at the top; a new selection starts at 0.
    pub scroll: u16,
    /// What the loaded events say about the focused event's chain: (event index, story).
    pub after: Option<(usize, After)>,
    /// The store's generation `after` was computed for.
    after_for: u64,
    /// The verdict of the focused event's chain: (event index, verdict), and the versions of
    /// the store and of the related data it was told for, and the zone it names times in.
    pub verdict: Option<(usize, Verdict)>,
    verdict_for: (u64, u64, Zone),
}

impl DetailPane {
    /// Tells the focused event's chain again when the focused event changed or events joined
    /// the store (they may continue the chain).
    pub fn refresh(&mut self, store: &Store, generation: Generation, focused: Option<usize>) {
        let current = self.after.as_ref().map(|(i, _)| *i) == focused
            && (focused.is_none() || self.after_for == generation.store);
        if !current {
            self.after = focused.map(|i| (i, After::of(store, i)));
            self.after_for = generation.store;
        }
    }
}

impl DetailPane {
    /// Tells the verdict of the focused event's chain again when the event, the store, the
    /// related data or the zone of the times changed.
    pub fn refresh_verdict(
        &mut self,
        store: &Store,
        beside: &Beside,
        generation: Generation,
        focused: Option<usize>,
        zone: Zone,
    ) {
        let versions = (generation.store, beside.version, zone);
        let current = self.verdict.as_ref().map(|(i, _)| *i) == focused
            && (focused.is_none() || self.verdict_for == versions);
        if current {
            return;
        }
        self.verdict_for = versions;
        self.verdict = focused.and_then(|i| Some((i, verdict_of(store, beside, i, zone)?)));
    }
}

/// The verdict of the chain the event at `i` is in, if it is in one, its times of day in
/// `zone`.
pub fn verdict_of(store: &Store, beside: &Beside, i: usize, zone: Zone) -> Option<Verdict> {
    let peer = store.row(i).peer_id;
    if peer.is_none() {
        return None;
    }
    let told = tell_with(store, &beside.data, &beside.fetched, peer, beside.now, zone);
    let k = told.story.events.iter().position(|&e| e as usize == i)?;
    let chain = told.story.chain_of[k]? as usize;
    told.verdicts.into_iter().nth(chain)
}

/// A command with the keyboard on the detail pane: the moves scroll it; the other browsing
/// commands are the list's.
pub fn handle(model: &mut Model, c: Command) -> Handled {
    if moves(c) {
        scroll(model, c);
        return Handled::Done(Focus::Detail, fetch_more_if_near_end(model));
    }
    match list::browse(model, c, Focus::Detail) {
        // A filter that hides every event leaves the pane nothing to show: the keyboard goes
        // back to the list.
        Handled::Done(Focus::Detail, effects) if model.selected_event().is_none() => {
            Handled::Done(Focus::List, effects)
        }
        handled => handled,
    }
}

/// Scrolls the pane by a move: a line, or a screen of the pane (the lines it shows, whether
/// beside the list or alone).
fn scroll(model: &mut Model, c: Command) {
    let page = block(model).inner(areas_of(model).detail).height.max(1);
    let pane = &mut model.panes.detail;
    pane.scroll = match c {
        Command::Up => pane.scroll.saturating_sub(1),
        Command::Down => pane.scroll.saturating_add(1),
        Command::PageUp => pane.scroll.saturating_sub(page),
        Command::PageDown => pane.scroll.saturating_add(page),
        Command::Top => 0,
        _ => u16::MAX,
    };
    clamp_scroll(model);
}

/// Keeps the scroll within the pane's content, so that scrolling back up after its end moves at
/// once.
pub fn clamp_scroll(model: &mut Model) {
    if model.panes.detail.scroll > 0 {
        model.panes.detail.scroll = model.panes.detail.scroll.min(max_scroll(model));
    }
}

/// A click on the pane: it takes the keyboard when it shows the selected event (not the facets,
/// nor a story's event).
pub fn click(model: &mut Model) {
    let event_shown = matches!(model.focus, Focus::List | Focus::Detail | Focus::Timeline)
        && !model.panes.facets.on;
    if event_shown && model.selected_event().is_some() {
        model.focus = Focus::Detail;
    }
}

/// The wheel over the pane scrolls it, `lines` at a time; the facets in its place do not scroll.
pub fn wheel(model: &mut Model, down: bool, lines: u16) {
    if model.focus.groups().is_some() || model.panes.facets.on {
        return;
    }
    let pane = &mut model.panes.detail;
    pane.scroll = if down {
        pane.scroll.saturating_add(lines)
    } else {
        pane.scroll.saturating_sub(lines)
    };
    clamp_scroll(model);
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let block = block(model);
    let inner = block.inner(area);
    let rows = rows(model, inner.width);
    let scroll = model
        .panes
        .detail
        .scroll
        .min(last_top_row(rows.len(), inner.height));
    frame.render_widget(Paragraph::new(rows).block(block).scroll((scroll, 0)), area);
}

fn block(model: &Model) -> Block<'static> {
    let theme = &model.config.theme;
    let focused = matches!(model.focus, Focus::Detail);
    Block::new()
        .borders(Borders::TOP | Borders::LEFT)
        .border_style(if focused {
            theme.focused_border()
        } else {
            theme.border()
        })
        .title(" detail ")
}

/// The largest useful scroll of the detail pane: the one that shows its last row at the bottom.
pub fn max_scroll(model: &Model) -> u16 {
    let inner = block(model).inner(areas_of(model).detail);
    last_top_row(rows(model, inner.width).len(), inner.height)
}

fn last_top_row(rows: usize, height: u16) -> u16 {
    rows.saturating_sub(height as usize).min(u16::MAX as usize) as u16
}

/// The focused event's lines, wrapped to the pane's width. The pane wraps them itself rather than
/// leaving it to the paragraph, so that `update` knows how far the pane can scroll.
fn rows(model: &Model, width: u16) -> Vec<Line<'static>> {
    let Some(i) = model.focused_event() else {
        return Vec::new();
    };
    let store = &model.events.store;
    let event = store.event(i);
    let after = match &model.panes.detail.after {
        Some((j, a)) if *j == i => a.clone(),
        _ => After::of(store, i),
    };
    let mut lines = detail_lines(
        &model.config.theme,
        &event,
        &after,
        store.raw(i),
        model.panes.zone,
    );
    // The chain's verdict, under what the chain's errors say.
    if event.event_type().is_known() {
        let verdict = match &model.panes.detail.verdict {
            Some((j, v)) if *j == i => Some(v.clone()),
            _ => verdict_of(store, &model.beside, i, model.panes.zone),
        };
        if let Some(v) = verdict {
            let t = &model.config.theme;
            lines.insert(
                2.min(lines.len()),
                Line::from(vec![
                    Span::raw("outcome: "),
                    Span::styled(v.outcome.words(), t.outcome(v.outcome)),
                    Span::raw(format!(": {}", clean(&v.evidence))),
                ]),
            );
        }
    }
    // The text found, where the event holds it.
    if let Some(find) = model
        .events
        .find
        .as_ref()
        .filter(|f| f.hit(&model.events.store, i as u32))
    {
        let hit = model.config.theme.find_hit();
        lines = lines
            .into_iter()
            .map(|l| super::find::mark_line(l, &find.text, hit))
            .collect();
    }
    // A row after a line's first is indented past the line's own indent, so that a wrapped
    // value reads as part of its field.
    wrap(lines, width, |line| leading_spaces(line) + 2)
}

/// The first row of the detail pane that holds the text found, if the focused event holds it.
pub fn first_line_holding(model: &Model) -> Option<u16> {
    let find = model.events.find.as_ref()?;
    let inner = block(model).inner(areas_of(model).detail);
    rows(model, inner.width)
        .iter()
        .position(|row| {
            let text: String = row.spans.iter().map(|s| s.content.as_ref()).collect();
            super::find::holds(&text, &find.text)
        })
        .map(|k| k.min(u16::MAX as usize) as u16)
}

fn clean(s: &str) -> String {
    for_terminal(s).into_owned()
}

fn section(t: &Theme, title: &str) -> Line<'static> {
    Line::from(Span::styled(title.to_string(), t.title()))
}

fn field(t: &Theme, name: &str, value: &str) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("  {name}: "), t.label()),
        Span::raw(clean(value)),
    ])
}

fn opt_field(t: &Theme, lines: &mut Vec<Line<'static>>, name: &str, value: Option<&Value>) {
    match value {
        Some(v) => lines.push(field(t, name, &value_text(v))),
        None => lines.push(Line::from(vec![
            Span::styled(format!("  {name}: "), t.label()),
            Span::styled(crate::text::NONE, t.label()),
        ])),
    }
}

/// A value of a field read as a time, an integer or true or false, which is none of these:
/// the value as sent and what it is, e.g. `"true" (a string, not true or false): not read`.
fn unread(value: &Value, wanted: &str) -> String {
    let sent = match value {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    };
    format!(
        "{} ({}, not {wanted}): not read",
        for_terminal(&sent),
        crate::event::json_kind(value)
    )
}

/// Every line of the detail pane for one event: the retry status first and plain, then the error,
/// who and where, the type's own fields, the agent, any field the spec does not name, and the raw
/// JSON.
pub fn detail_lines(
    t: &Theme,
    e: &Event,
    after: &After,
    raw: &[u8],
    zone: Zone,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let action = e.data_str("action").unwrap_or("");
    if e.event_type().is_known() {
        let (status, style) = match e.is_terminal() {
            Some(true) => (
                "FINAL: the SDK made no more retries".to_string(),
                t.terminal(Some(true)),
            ),
            Some(false) => (
                "RETRIED: not the final error; the SDK tried again after it".to_string(),
                t.terminal(Some(false)),
            ),
            None => match e.data_value("is_terminal").filter(|v| !v.is_null()) {
                Some(v) => (
                    format!(
                        "retry status unreadable: is_terminal is {}",
                        unread(v, "true or false")
                    ),
                    Style::new(),
                ),
                None => (
                    "retry status not reported (no is_terminal)".to_string(),
                    Style::new(),
                ),
            },
        };
        lines.push(Line::styled(status, style));
        lines.push(Line::raw(format!(
            "chain: {}",
            clean(&after.sentence(action, zone))
        )));
    } else {
        lines.push(Line::styled(
            "another family of events: not one of the five client errors".to_string(),
            t.title(),
        ));
    }
    lines.push(Line::raw(""));

    lines.push(section(
        t,
        if e.event_type().is_known() {
            "Error"
        } else {
            "Event"
        },
    ));
    lines.push(field(t, "type", e.type_name()));
    let time = match e.object().get("timestamp") {
        None | Some(Value::Null) => crate::text::NONE.to_string(),
        Some(Value::String(s)) if crate::time::parse_rfc3339_nanos(s).is_some() => s.clone(),
        Some(v) => unread(v, "an RFC 3339 time"),
    };
    lines.push(field(t, "time", &time));
    // In local time too, when the times are shown so: the time as sent stays above.
    if zone != Zone::Utc
        && let Some(ns) = e.timestamp().and_then(crate::time::parse_rfc3339_nanos)
    {
        let local = crate::time::format_nanos(zone.shift(ns));
        let local = local.trim_end_matches('Z');
        lines.push(field(t, "local", &format!("{local} ({})", zone.label(ns))));
    }
    if !e.event_type().is_known() {
        // Another family: its own fields follow, all of them, under "Fields".
        lines.push(Line::raw(""));
    } else {
        match e.data_value("error_code") {
            Some(v) if !v.is_null() && e.error_code().is_none() => {
                lines.push(field(t, "code", &unread(v, "an integer")));
            }
            code => opt_field(t, &mut lines, "code", code),
        }
        // The code read in the table of the event's platform; the table's name beside the
        // event's when they differ.
        let explained = codes::explain_event(e);
        match explained.table_name_if_differs() {
            Some(table) => {
                let name = e.data_value("error_name").map(value_text);
                let name = name.as_deref().unwrap_or(crate::text::NONE);
                lines.push(field(t, "name", &format!("{name} ({table})")));
            }
            None => opt_field(t, &mut lines, "name", e.data_value("error_name")),
        }
        for (label, text) in explained.lines() {
            lines.push(field(t, label, &text));
        }
        opt_field(t, &mut lines, "message", e.data_value("error_message"));
        opt_field(
            t,
            &mut lines,
            "description",
            e.data_value("error_description"),
        );
        opt_field(t, &mut lines, "action", e.data_value("action"));
        lines.push(Line::raw(""));
    }

    if e.data().is_some() && e.event_type().is_known() {
        lines.push(section(t, "Who and where"));
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
            opt_field(t, &mut lines, label, e.data_value(name));
        }
        lines.push(Line::raw(""));
        let specific: Vec<(&str, &Value)> = crate::event::TYPE_DATA_FIELDS
            .iter()
            .filter_map(|f| e.data_value(f).map(|v| (*f, v)))
            .collect();
        if !specific.is_empty() {
            lines.push(section(t, &format!("{} fields", e.event_type().alias())));
            for (name, v) in specific {
                push_value(t, &mut lines, name, v, 1);
            }
            lines.push(Line::raw(""));
        }
    }

    if let Some(agent) = e.agent() {
        lines.push(section(t, "Agent"));
        for name in crate::event::AGENT_FIELDS
            .iter()
            .filter(|f| **f != "string")
        {
            if let Some(v) = agent.get(*name) {
                lines.push(field(t, name, &value_text(v)));
            }
        }
        let pairs = e.agent_pairs();
        if !pairs.is_empty() {
            lines.push(Line::styled("  string, decoded:".to_string(), t.label()));
            for p in pairs {
                lines.push(field(t, &format!("  {}", p.key), &p.value));
            }
        }
        lines.push(Line::raw(""));
    }

    let mut others: Vec<(String, &Value)> = Vec::new();
    others.extend(
        e.unknown_fields()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v)),
    );
    others.extend(
        e.unknown_data_fields()
            .into_iter()
            .map(|(k, v)| (format!("data.{k}"), v)),
    );
    others.extend(
        e.unknown_agent_fields()
            .into_iter()
            .map(|(k, v)| (format!("agent.{k}"), v)),
    );
    if !others.is_empty() {
        let title = if e.event_type().is_known() {
            "Other fields"
        } else {
            "Fields (a type outside the five client errors)"
        };
        lines.push(section(t, title));
        for (name, v) in others {
            push_value(t, &mut lines, &name, v, 1);
        }
        lines.push(Line::raw(""));
    }

    lines.push(section(t, "Raw JSON"));
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
fn push_value(t: &Theme, lines: &mut Vec<Line<'static>>, name: &str, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    match v {
        Value::Object(map) if !map.is_empty() => {
            lines.push(Line::styled(format!("{pad}{}:", clean(name)), t.label()));
            for (k, v) in map {
                push_value(t, lines, k, v, depth + 1);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            lines.push(Line::styled(format!("{pad}{}:", clean(name)), t.label()));
            for (k, v) in items.iter().enumerate() {
                push_value(t, lines, &format!("[{k}]"), v, depth + 1);
            }
        }
        other => lines.push(Line::from(vec![
            Span::styled(format!("{pad}{}: ", clean(name)), t.label()),
            Span::raw(clean(&value_text(other))),
        ])),
    }
}
