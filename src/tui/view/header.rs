use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::event::EventType;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, LoadState, Model, SourceLabel};
use crate::tui::panels::{Focus, prompt};

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let lines = vec![
        title_line(model),
        types_line(model),
        filters_line(model),
        message_line(model, frame, area),
    ];
    frame.render_widget(Paragraph::new(lines), area);
}

fn title_line(model: &Model) -> Line<'static> {
    let source = match &model.session.source {
        SourceLabel::Demo => "DEMO  bundled demo dataset".to_string(),
        SourceLabel::Files { count: 1, first } => format!("FILE  {}", for_terminal(first)),
        SourceLabel::Files { count, first } => {
            format!("FILES  {count} files ({} …)", for_terminal(first))
        }
        SourceLabel::Live { url } => format!("LIVE  {}", for_terminal(url)),
    };
    let mut counts = format!(
        "{} shown / {} loaded",
        thousands(model.events.shown.len()),
        thousands(model.events.store.len())
    );
    if let Some(total) = model.session.live.as_ref().and_then(|l| l.total) {
        counts.push_str(&format!(" / {} total", thousands(total as usize)));
    }
    // Follow mode's refreshes fetch what is loaded again: those are no duplicates of the data.
    let refetched = model.session.live.as_ref().map_or(0, |l| l.refetched);
    let duplicates = model.events.store.duplicates().saturating_sub(refetched);
    if duplicates > 0 {
        counts.push_str(&format!(" ({} duplicates dropped)", thousands(duplicates)));
    }
    let state = match (&model.session.live, &model.session.load) {
        (Some(live), _) => live_state(model, live),
        (None, LoadState::Loading) => "loading…".to_string(),
        (None, LoadState::Idle) => "idle".to_string(),
    };
    Line::from(vec![
        Span::styled(" callscope ", model.config.theme.title()),
        Span::styled("│ ", model.config.theme.label()),
        Span::styled(source, model.config.theme.title()),
        Span::styled(" │ ", model.config.theme.label()),
        Span::raw(counts),
        Span::styled(" │ ", model.config.theme.label()),
        Span::raw(state),
        Span::styled(follow_state(model), model.config.theme.new_event()),
    ])
}

fn follow_state(model: &Model) -> String {
    match &model.session.follow {
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
    let mut spans = vec![Span::styled(" types ", model.config.theme.label())];
    for (k, t) in EventType::KNOWN.iter().enumerate() {
        let on = model.events.filter.has_type(t);
        let style = if on {
            model.config.theme.type_on(t)
        } else {
            model.config.theme.type_off()
        };
        spans.push(Span::styled(format!("{} {}", k + 1, t.alias()), style));
        spans.push(Span::raw("  "));
    }
    let others: Vec<&EventType> = model
        .events
        .filter
        .types
        .iter()
        .filter(|t| !t.is_known())
        .collect();
    for t in others {
        spans.push(Span::styled(
            for_terminal(t.name()).into_owned(),
            model.config.theme.type_on(t),
        ));
        spans.push(Span::raw("  "));
    }
    spans.push(Span::styled("│ status ", model.config.theme.label()));
    let (word, style) = match model.events.filter.terminal {
        None => ("all", ratatui::style::Style::new()),
        Some(true) => ("final only", model.config.theme.terminal(Some(true))),
        Some(false) => ("retried only", model.config.theme.terminal(Some(false))),
    };
    spans.push(Span::styled(word, style));
    // With a type chosen, the families no key names (track, recording...) are left out: said,
    // since the five keys all lit look the same as no type chosen. Last, so that on a narrow
    // screen the status and the filters come first.
    if !model.events.filter.types.is_empty() {
        spans.push(Span::styled(
            " │ others hidden",
            model.config.theme.type_off(),
        ));
    }
    Line::from(spans)
}

/// The third line: the order in force, then every filter besides the types and the retry
/// status (the conditions, the search, the time bounds, the values hidden whole), and the key
/// that takes the last change back.
fn filters_line(model: &Model) -> Line<'static> {
    let theme = &model.config.theme;
    let filter = &model.events.filter;
    let key = |c| model.config.keymap.key(Mode::List, c);
    let mut parts: Vec<String> = filter.conditions.iter().map(|c| c.describe()).collect();
    if let Some(s) = &filter.search {
        parts.push(format!("search=\"{s}\""));
    }
    if let Some(t) = &filter.since {
        parts.push(format!("since={}", t.text));
    }
    if let Some(t) = &filter.until {
        parts.push(format!("until={}", t.text));
    }
    parts.extend(filter.hidden.iter().map(|g| crate::filter::hidden_text(g)));
    let zone = model.panes.zone;
    let at = model.events.store.time_range().map_or(0, |(_, z)| z);
    let times = match zone {
        crate::time::Zone::Utc => "UTC".to_string(),
        _ => format!("local, {}", zone.label(at)),
    };
    let mut spans = vec![
        Span::styled(" sorted by ", theme.label()),
        Span::raw(model.events.order.describe()),
        Span::styled(" · times ", theme.label()),
        Span::raw(times),
        Span::styled(" │ filters ", theme.label()),
    ];
    if parts.is_empty() {
        spans.push(Span::styled(
            format!("none ({} edits)", key(Command::EditFilters)),
            theme.label(),
        ));
    } else {
        spans.push(Span::styled(
            for_terminal(&parts.join("  ")).into_owned(),
            theme.title(),
        ));
    }
    if !model.events.back.is_empty() {
        spans.push(Span::styled(
            format!("  ({}: undo)", key(Command::PopFilter)),
            theme.label(),
        ));
    }
    Line::from(spans)
}

/// A live load's failure, neutralised, with the key that runs the query again: the header's
/// fetch state, its own line, and the empty list all say it so.
pub fn failure_text(model: &Model, message: &str) -> String {
    format!(
        "{} ({} runs the query again)",
        for_terminal(message),
        model.config.keymap.key(Mode::List, Command::Rerun)
    )
}

fn live_state(model: &Model, live: &crate::tui::model::Live) -> String {
    let key = |c| model.config.keymap.key(Mode::List, c);
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
        Fetch::Fetching { .. } | Fetch::Retrying { .. } if live.replacing => match &live.fetch {
            Fetch::Retrying { wait_secs, .. } => {
                format!("running again, retrying in {wait_secs} s…")
            }
            _ => "running again…".to_string(),
        },
        Fetch::Fetching { page } => format!("fetching page {page}…{all}"),
        Fetch::Retrying {
            attempt,
            wait_secs,
            gives_up_secs,
            reason,
        } => format!(
            "retrying in {wait_secs} s (attempt {attempt}, {}): {}",
            crate::source::worker::giving_up_words(*gives_up_secs),
            for_terminal(reason)
        ),
        Fetch::Done => "all pages loaded".into(),
        Fetch::Failed(message) => format!("error: {}", failure_text(model, message)),
        Fetch::NoRoom => format!(
            "no room chosen: {}",
            crate::tui::panels::rooms::HOW_TO_CHOOSE
        ),
    }
}

/// The fourth line: the save prompt while one is open, else the last message, else why a live
/// load failed, else the first load problem.
fn message_line(model: &Model, frame: &mut Frame, area: Rect) -> Line<'static> {
    if let Focus::SavePath(save) = &model.focus {
        return prompt::save_line(model, save, frame, area);
    }
    if let Some(status) = &model.status {
        return Line::styled(
            format!(" {}", for_terminal(status)),
            model.config.theme.title(),
        );
    }
    // A live load that failed after some events came: its reason on a line of its own, where
    // the first line has room for its start only (with none loaded, the list says it whole).
    if let Some(message) = model.session.live.as_ref().and_then(|l| l.failure())
        && !model.events.store.is_empty()
    {
        return Line::styled(
            format!(" ⚠ loading stopped: {}", failure_text(model, message)),
            model.config.theme.problem(),
        );
    }
    problems_line(model)
}

fn problems_line(model: &Model) -> Line<'static> {
    match model.session.problems.first() {
        None => Line::raw(""),
        Some(first) => {
            let more = match model.session.problems.len() {
                1 => String::new(),
                n => format!(" (+{} more)", n - 1),
            };
            Line::styled(
                format!(" ⚠ {}{more}", for_terminal(&first.to_string())),
                model.config.theme.problem(),
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
