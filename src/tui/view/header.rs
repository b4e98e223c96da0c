use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::event::EventType;
use crate::text::{for_terminal, thousands};
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, Live, LoadState, Model, SourceLabel};
use crate::tui::panels::{Focus, prompt};

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let lines = vec![
        title_line(model),
        types_line(model),
        filters_line(model, area.width as usize),
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
    // Loaded, against what the query matches when that is more.
    let loaded = match super::coverage::note(model) {
        Some(note) => note,
        None => format!("{} loaded", thousands(model.events.store.len())),
    };
    let mut counts = format!("{} shown / {loaded}", thousands(model.events.shown.len()));
    if let Some(total) = model.session.live.as_ref().and_then(|l| l.total)
        && total != model.events.store.len() as u64
        && super::coverage::note(model).is_none()
    {
        counts.push_str(&format!(" / {} total", thousands(total as usize)));
    }
    // Follow mode's refreshes fetch what is loaded again: those are no duplicates of the data.
    let refetched = model.session.live.as_ref().map_or(0, |l| l.refetched);
    let duplicates = model.events.store.duplicates().saturating_sub(refetched);
    if duplicates > 0 {
        counts.push_str(&format!(
            " ({} dropped)",
            crate::text::plural(duplicates, "duplicate", "duplicates")
        ));
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

/// The second line: each of the five types with its key and a mark that reads without colour
/// or strikethrough (`[x]` shown, `[ ]` hidden), then the types no key names that are chosen.
fn types_line(model: &Model) -> Line<'static> {
    let mut spans = vec![Span::styled(" types", model.config.theme.label())];
    for (k, t) in EventType::KNOWN.iter().enumerate() {
        let on = model.events.filter.has_type(t);
        let (mark, style) = if on {
            ("[x]", model.config.theme.type_on(t))
        } else {
            ("[ ]", model.config.theme.type_off())
        };
        spans.push(Span::raw(" "));
        spans.push(Span::styled(mark, model.config.theme.label()));
        spans.push(Span::styled(format!("{} {}", k + 1, t.alias()), style));
    }
    let others: Vec<&EventType> = model
        .events
        .filter
        .types
        .iter()
        .filter(|t| !t.is_known())
        .collect();
    for t in others {
        spans.push(Span::raw(" "));
        spans.push(Span::styled("[x]", model.config.theme.label()));
        spans.push(Span::styled(
            for_terminal(t.name()).into_owned(),
            model.config.theme.type_on(t),
        ));
    }
    // With a type chosen, the families no key names (track, recording...) are left out: said,
    // since the five keys all marked look the same as no type chosen.
    if !model.events.filter.types.is_empty() {
        spans.push(Span::styled(" │ others hidden", model.config.theme.label()));
    }
    Line::from(spans)
}

/// The third line: the order in force, then every filter besides the types (the retry status,
/// the conditions, the search, the time bounds, the values hidden whole), and the key that
/// takes the last change back. Where `width` is too narrow, the order gives way first; then the
/// filters are cut, visibly, with the key that lists them all: a filter in force is never
/// hidden without a word.
fn filters_line(model: &Model, width: usize) -> Line<'static> {
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
    let order = vec![
        Span::styled(" sorted by ", theme.label()),
        Span::raw(model.events.order.describe()),
        Span::styled(" · times ", theme.label()),
        Span::raw(times),
        Span::styled(" │ filters ", theme.label()),
    ];
    let mut spans = Vec::new();
    // The retry status first: the filter the t key cycles.
    if let Some(terminal) = filter.terminal {
        let word = if terminal {
            "final only"
        } else {
            "retried only"
        };
        spans.push(Span::styled(word, theme.terminal(Some(terminal))));
        if !parts.is_empty() {
            spans.push(Span::raw("  "));
        }
    }
    if parts.is_empty() && filter.terminal.is_none() {
        spans.push(Span::styled(
            format!("none ({} edits)", key(Command::EditFilters)),
            theme.label(),
        ));
    }
    let undo = (!model.events.back.is_empty()).then(|| {
        Span::styled(
            format!("  ({}: undo)", key(Command::PopFilter)),
            theme.label(),
        )
    });
    let listed = for_terminal(&parts.join("  ")).into_owned();
    let width_of = |spans: &[Span]| -> usize {
        spans
            .iter()
            .map(|s| crate::text::display_width(&s.content))
            .sum()
    };
    let fixed = width_of(&spans)
        + undo
            .as_ref()
            .map_or(0, |u| width_of(std::slice::from_ref(u)));
    let mut line = if width_of(&order) + fixed + crate::text::display_width(&listed) <= width {
        order
    } else {
        vec![Span::styled(" filters ", theme.label())]
    };
    let room = width.saturating_sub(width_of(&line) + fixed);
    if crate::text::display_width(&listed) <= room {
        if !listed.is_empty() {
            spans.push(Span::styled(listed, theme.title()));
        }
    } else {
        let more = format!(" ({} shows them all)", key(Command::EditFilters));
        let cut = crate::text::cut(
            &listed,
            room.saturating_sub(crate::text::display_width(&more)),
        );
        spans.push(Span::styled(cut, theme.title()));
        spans.push(Span::styled(more, theme.label()));
    }
    line.extend(spans);
    line.extend(undo);
    Line::from(line)
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

fn live_state(model: &Model, live: &Live) -> String {
    let key = |c| model.config.keymap.key(Mode::List, c);
    let all = if live.loading_all {
        format!(" (loading all: {} stops)", key(Command::LoadAll))
    } else {
        String::new()
    };
    match &live.fetch {
        Fetch::Idle if live.next.as_deref() == Some("") => "all pages loaded".into(),
        // The counts say how much is loaded and the key that loads all.
        Fetch::Idle if super::coverage::note(model).is_some() => {
            "idle; more as you scroll".to_string()
        }
        Fetch::Idle => format!(
            "idle, {} page(s); more as you scroll, {} loads all",
            live.pages,
            key(Command::LoadAll)
        ),
        // A new query while the old one's events stay on screen (none at the start).
        Fetch::Fetching { .. } | Fetch::Retrying { .. }
            if live.replacing && !model.events.store.is_empty() =>
        {
            match &live.fetch {
                Fetch::Retrying { until, reason, .. } => {
                    format!(
                        "running again, retrying in {} s: {}",
                        seconds_left(live, *until),
                        for_terminal(reason)
                    )
                }
                _ => "running again…".to_string(),
            }
        }
        // The counts say how far the load is when the server gave a total.
        Fetch::Fetching { .. } if super::coverage::note(model).is_some() => {
            format!("fetching…{all}")
        }
        Fetch::Fetching { .. } => format!("fetching… {}{all}", so_far(model, live)),
        Fetch::Retrying {
            attempt,
            gives_up_secs,
            reason,
            until,
            ..
        } => {
            let left = seconds_left(live, *until);
            let when = if left == 0 {
                "retrying now".to_string()
            } else {
                format!("retrying in {left} s")
            };
            format!(
                "{when} (attempt {attempt}, {}): {}{all}",
                crate::source::worker::giving_up_words(*gives_up_secs),
                for_terminal(reason)
            )
        }
        Fetch::Done => "all pages loaded".into(),
        Fetch::Failed(message) => format!("error: {}", failure_text(model, message)),
        Fetch::NoRoom => format!(
            "no room chosen: {}",
            crate::tui::panels::rooms::HOW_TO_CHOOSE
        ),
    }
}

/// Whole seconds until `until` on the model's clock, rounded up: a countdown.
fn seconds_left(live: &Live, until: std::time::Instant) -> u64 {
    until
        .saturating_duration_since(live.clock.at)
        .as_secs_f64()
        .ceil() as u64
}

/// The events loaded so far, against the query's total when the server gave one:
/// `1,200 of 2,400 events`.
fn so_far(model: &Model, live: &Live) -> String {
    let loaded = thousands(model.events.store.len());
    match live.total {
        Some(total) => format!("{loaded} of {} events", thousands(total as usize)),
        None => format!("{loaded} events so far"),
    }
}

/// A request waits longer than this before the header says what it waits for.
pub const STALL: std::time::Duration = std::time::Duration::from_secs(1);

/// What a live load waits for, when it waits: the server's wait before a retry counted down,
/// or the request on its way longest, once it has waited past [`STALL`], with the timeouts
/// that end a try.
fn wait_line(model: &Model) -> Option<Line<'static>> {
    let live = model.session.live.as_ref()?;
    let key = |c| model.config.keymap.key(Mode::List, c);
    let then = if live.loading_all {
        format!(
            "; loading every page goes on after it ({} stops)",
            key(Command::LoadAll)
        )
    } else {
        String::new()
    };
    let text = match &live.fetch {
        Fetch::Retrying {
            until,
            asked,
            wait_secs,
            ..
        } if seconds_left(live, *until) > 0 => {
            let who = if *asked {
                format!("the server asked to wait {wait_secs} s")
            } else {
                format!("backing off {wait_secs} s after a failure")
            };
            format!(" {who}: next try in {} s{then}", seconds_left(live, *until))
        }
        Fetch::Fetching { .. } | Fetch::Retrying { .. } => {
            // A retry's new try starts when its wait ends.
            let restarted = match &live.fetch {
                Fetch::Retrying { until, .. } => Some(*until),
                _ => None,
            };
            let (oldest, since) = live
                .requests
                .iter()
                .map(|r| (r, restarted.map_or(r.since, |u| u.max(r.since))))
                .min_by_key(|(_, since)| *since)?;
            let waited = live.clock.at.saturating_duration_since(since);
            if waited <= STALL {
                return None;
            }
            let others = match live.requests.len() {
                1 => String::new(),
                2 => " (and 1 other request)".to_string(),
                n => format!(" (and {} other requests)", n - 1),
            };
            format!(
                " waiting {} s for {}{others}: a try ends after {} s without data, {} s in all",
                waited.as_secs(),
                for_terminal(&oldest.part),
                crate::source::api::READ_TIMEOUT.as_secs(),
                crate::source::api::REQUEST_DEADLINE.as_secs(),
            )
        }
        _ => return None,
    };
    Some(Line::styled(text, model.config.theme.label()))
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
    if let Some(line) = wait_line(model) {
        return line;
    }
    problems_line(model)
}

fn problems_line(model: &Model) -> Line<'static> {
    match model.session.problems.first() {
        None => Line::raw(""),
        Some(first) => {
            // The count and the key that lists them in full first: a long problem is cut at
            // the screen's edge.
            let key = model.config.keymap.key(Mode::List, Command::ShowProblems);
            let count = crate::text::plural(
                model.session.problems.len(),
                "load problem",
                "load problems",
            );
            Line::styled(
                format!(
                    " ⚠ {count} ({key} lists in full): {}",
                    for_terminal(&first.to_string())
                ),
                model.config.theme.problem(),
            )
        }
    }
}
