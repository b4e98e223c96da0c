use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::event::EventType;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{
    FIELDS, Fetch, ID_FIELDS as INPUT_FIELDS, LoadState, Model, SaveWhat, SourceLabel,
};

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let lines = vec![
        title_line(model),
        types_line(model),
        inputs_line(model, frame, area),
        message_line(model, frame, area),
    ];
    frame.render_widget(Paragraph::new(lines), area);
}

fn title_line(model: &Model) -> Line<'static> {
    let source = match &model.source {
        SourceLabel::Demo => "DEMO  bundled demo dataset".to_string(),
        SourceLabel::Files { count: 1, first } => format!("FILE  {}", for_terminal(first)),
        SourceLabel::Files { count, first } => {
            format!("FILES  {count} files ({} …)", for_terminal(first))
        }
        SourceLabel::Live { url } => format!("LIVE  {}", for_terminal(url)),
    };
    let mut counts = format!(
        "{} shown / {} loaded",
        thousands(model.shown.len()),
        thousands(model.store.len())
    );
    if let Some(total) = model.live.as_ref().and_then(|l| l.total) {
        counts.push_str(&format!(" / {} total", thousands(total as usize)));
    }
    // Follow mode's refreshes fetch what is loaded again: those are no duplicates of the data.
    let refetched = model.live.as_ref().map_or(0, |l| l.refetched);
    let duplicates = model.store.duplicates().saturating_sub(refetched);
    if duplicates > 0 {
        counts.push_str(&format!(" ({} duplicates dropped)", thousands(duplicates)));
    }
    let state = match (&model.live, &model.load) {
        (Some(live), _) => live_state(model, live),
        (None, LoadState::Loading) => "loading…".to_string(),
        (None, LoadState::Idle) => "idle".to_string(),
    };
    Line::from(vec![
        Span::styled(" callscope ", model.theme.title()),
        Span::styled("│ ", model.theme.label()),
        Span::styled(source, model.theme.title()),
        Span::styled(" │ ", model.theme.label()),
        Span::raw(counts),
        Span::styled(" │ ", model.theme.label()),
        Span::raw(state),
        Span::styled(follow_state(model), model.theme.new_event()),
    ])
}

fn follow_state(model: &Model) -> String {
    match &model.follow {
        None => String::new(),
        Some(f) => {
            let every = f.wait().as_secs();
            let retry = if f.failures > 0 {
                ", after failures"
            } else {
                ""
            };
            format!(
                " │ following every {every} s{retry} · +{} new",
                thousands(f.new_events)
            )
        }
    }
}

fn types_line(model: &Model) -> Line<'static> {
    let mut spans = vec![Span::styled(" types ", model.theme.label())];
    for (k, t) in EventType::KNOWN.iter().enumerate() {
        let on = model.filter.has_type(t);
        let style = if on {
            model.theme.type_on(t)
        } else {
            model.theme.type_off()
        };
        spans.push(Span::styled(format!("{} {}", k + 1, t.alias()), style));
        spans.push(Span::raw("  "));
    }
    let others: Vec<&EventType> = model
        .filter
        .types
        .iter()
        .filter(|t| !t.is_known())
        .collect();
    for t in others {
        spans.push(Span::styled(
            for_terminal(t.name()).into_owned(),
            model.theme.type_on(t),
        ));
        spans.push(Span::raw("  "));
    }
    spans.push(Span::styled("│ status ", model.theme.label()));
    let (word, style) = match model.filter.terminal {
        None => ("all", ratatui::style::Style::new()),
        Some(true) => ("final only", model.theme.terminal(Some(true))),
        Some(false) => ("retried only", model.theme.terminal(Some(false))),
    };
    spans.push(Span::styled(word, style));
    let mut extra: Vec<String> = model
        .filter
        .conditions
        .iter()
        // The wanted room, session, peer and user have inputs of their own.
        .filter(|c| c.negate || !INPUT_FIELDS.contains(&c.field))
        .map(|c| c.describe())
        .collect();
    if let Some(t) = &model.filter.since {
        extra.push(format!("since={}", t.text));
    }
    if let Some(t) = &model.filter.until {
        extra.push(format!("until={}", t.text));
    }
    if !model.filter_stack.is_empty() {
        extra.push(format!(
            "({}: back)",
            model.keymap.key(Mode::List, Command::PopFilter)
        ));
    }
    if !extra.is_empty() {
        spans.push(Span::styled(" │ ", model.theme.label()));
        spans.push(Span::raw(for_terminal(&extra.join(" ")).into_owned()));
    }
    // With a type chosen, the families no key names (track, recording...) are left out: said,
    // since the five keys all lit look the same as no type chosen. Last, so that on a narrow
    // screen the status and the filters come first.
    if !model.filter.types.is_empty() {
        spans.push(Span::styled(" │ others hidden", model.theme.type_off()));
    }
    Line::from(spans)
}

/// The room, session, peer, user and search inputs; while editing, the focused one carries the
/// cursor.
fn inputs_line(model: &Model, frame: &mut Frame, area: Rect) -> Line<'static> {
    let current = [
        model.filter.wanted(INPUT_FIELDS[0]),
        model.filter.wanted(INPUT_FIELDS[1]),
        model.filter.wanted(INPUT_FIELDS[2]),
        model.filter.wanted(INPUT_FIELDS[3]),
        model.filter.search.as_deref(),
    ];
    let mut spans = vec![Span::raw(" ")];
    let mut x = area.x + 1;
    // Each input gets an equal share of the line.
    let share = (area.width.saturating_sub(1) / FIELDS.len() as u16).max(10);
    for (k, name) in FIELDS.iter().enumerate() {
        let label = format!("{name}:");
        let width = share.saturating_sub(label.len() as u16 + 2) as usize;
        let (text, focused, cursor) = match &model.editor {
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
        spans.push(Span::styled(label.clone(), model.theme.label()));
        let style = if focused {
            model.theme.input_focused()
        } else if current[k].is_some() {
            model.theme.title()
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

/// A live load's failure, neutralised, with the key that runs the query again: the header's
/// fetch state, its own line, and the empty list all say it so.
pub fn failure_text(model: &Model, message: &str) -> String {
    format!(
        "{} ({} runs the query again)",
        for_terminal(message),
        model.keymap.key(Mode::List, Command::Rerun)
    )
}

fn live_state(model: &Model, live: &crate::tui::model::Live) -> String {
    let key = |c| model.keymap.key(Mode::List, c);
    let all = if live.loading_all {
        format!(" (loading all: {} stops)", key(Command::LoadAll))
    } else {
        String::new()
    };
    match &live.fetch {
        Fetch::Idle if live.next.as_deref() == Some("") => "all pages loaded".into(),
        Fetch::Idle => format!(
            "idle, {} page(s); more as you scroll, {} loads all",
            live.pages,
            key(Command::LoadAll)
        ),
        Fetch::Fetching { page } => format!("fetching page {page}…{all}"),
        Fetch::Retrying {
            attempt,
            of,
            wait_secs,
            reason,
        } => format!(
            "retrying in {wait_secs} s, attempt {attempt} of {of}: {}",
            for_terminal(reason)
        ),
        Fetch::Done => "all pages loaded".into(),
        Fetch::Failed(message) => format!("error: {}", failure_text(model, message)),
    }
}

/// The fourth line: the save prompt while one is open, else the last message, else why a live
/// load failed, else the first load problem.
fn message_line(model: &Model, frame: &mut Frame, area: Rect) -> Line<'static> {
    if let (Mode::SavePath, Some(prompt)) = (model.mode, &model.save) {
        let count = match prompt.what {
            SaveWhat::Shown => model.shown.len(),
            SaveWhat::Loaded => model.store.len(),
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
        return Line::from(vec![
            Span::styled(label, model.theme.title()),
            Span::styled(value, model.theme.input_focused()),
        ]);
    }
    if let Some(status) = &model.status {
        return Line::styled(format!(" {}", for_terminal(status)), model.theme.title());
    }
    // A live load that failed after some events came: its reason on a line of its own, where
    // the first line has room for its start only (with none loaded, the list says it whole).
    if let Some(message) = model.live.as_ref().and_then(|l| l.failure())
        && !model.store.is_empty()
    {
        return Line::styled(
            format!(" ⚠ loading stopped: {}", failure_text(model, message)),
            model.theme.problem(),
        );
    }
    problems_line(model)
}

fn problems_line(model: &Model) -> Line<'static> {
    match model.problems.first() {
        None => Line::raw(""),
        Some(first) => {
            let more = match model.problems.len() {
                1 => String::new(),
                n => format!(" (+{} more)", n - 1),
            };
            Line::styled(
                format!(" ⚠ {}{more}", for_terminal(&first.to_string())),
                model.theme.problem(),
            )
        }
    }
}

/// 12345 as `12,345`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
