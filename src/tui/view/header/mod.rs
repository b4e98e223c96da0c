//! The header's four lines: the source, counts and state; the types; the order and the
//! filters; the last message or what a load waits for.

mod title;
mod types;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, Live, Model};
use crate::tui::panels::{Focus, prompt};

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let width = area.width as usize;
    // A line longer than the width (a message, a load problem) ends in `…` at its edge.
    let lines = vec![
        title::line(model, width),
        types::line(model, width),
        filters_line(model, width),
        message_line(model, frame, area),
    ]
    .into_iter()
    .map(|line| super::fit::line(line, width))
    .collect::<Vec<_>>();
    frame.render_widget(Paragraph::new(lines), area);
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

/// A live load's failure, neutralised, with the key that runs the
/// query again: the header's fetch state, its own line, and the empty list all say it so.
pub fn failure_text(model: &Model, message: &str) -> String {
    format!(
        "{} ({} runs the query again)",
        for_terminal(message),
        model.config.keymap.key(Mode::List, Command::Rerun)
    )
}

/// Whole seconds until `until` on the model's clock, rounded up: a countdown.
fn seconds_left(live: &Live, until: std::time::Instant) -> u64 {
    until
        .saturating_duration_since(live.clock.at)
        .as_secs_f64()
        .ceil() as u64
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

/// The first load problem and how many there are, then the events read with a field of another
/// type than the API's, which no filter of that field matches.
fn problems_line(model: &Model) -> Line<'static> {
    let odd_fields = model.events.store.odd_fields();
    let text = match (model.session.problems.first(), odd_fields.sentence()) {
        (None, None) => return Line::raw(""),
        (None, Some(odd)) => format!(" ⚠ {odd}"),
        (Some(first), odd) => {
            // The counts and the key that lists them in full first: a long problem is cut at
            // the screen's edge, and the events with an odd field would go with it.
            let key = model.config.keymap.key(Mode::List, Command::ShowProblems);
            let count = crate::text::plural(
                model.session.problems.len(),
                "load problem",
                "load problems",
            );
            let odd = match odd {
                Some(_) => format!(
                    ", {} with a field of another type",
                    crate::text::plural(odd_fields.events, "event", "events")
                ),
                None => String::new(),
            };
            format!(
                " ⚠ {count}{odd} ({key} lists in full): {}",
                for_terminal(&first.to_string())
            )
        }
    };
    Line::styled(text, model.config.theme.problem())
}
